// Sanitizer defaults linked into every fuzz target (the environment's ASAN_OPTIONS and
// UBSAN_OPTIONS still override them key by key).
//
// Why: a graph may ask for any amount of memory, and the contract is that the allocator
// refuses what it cannot serve and the op fails with RESOURCE_EXHAUSTED. AddressSanitizer
// would instead serve a 3 GiB tensor, and libFuzzer report it as a crash (its malloc limit
// is its 2 GiB RSS limit). With a per-allocation cap well below that limit and
// allocator_may_return_null, too large a request is a null from malloc, which the allocator
// turns into RESOURCE_EXHAUSTED as it would on a machine without the memory; the cap also
// keeps an input's valid work to a second or so, far from libFuzzer's -timeout. Memory
// taken with a throwing `new` (std::vector scratch outside the allocator) above the cap is
// still reported, as it should be: that memory escapes the contract.
//
// In builds without a sanitizer these functions are never called.

extern "C" {

__attribute__((used, visibility("default"))) const char* __asan_default_options() {
  return "allocator_may_return_null=1:max_allocation_size_mb=64:detect_stack_use_after_return="
         "0";
}

__attribute__((used, visibility("default"))) const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}

}  // extern "C"
