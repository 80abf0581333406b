// Finds the places where a kernel takes memory outside its device's allocator, so that each one
// either moves to the allocator or says why its size is bounded by the graph.
//
// Why (issue 25): memory a kernel takes from the C++ heap or the process-wide allocator does
// not count against SessionOptions::memory_limit_bytes, and when it is refused the process
// ends (Sluice builds without exceptions; Tensor's plain constructors CHECK). Taken from the
// OpKernelContext (ScratchArray, ParallelForWithScratch, allocate_temp, allocate_output), a
// refusal is RESOURCE_EXHAUSTED naming the node. A heap container that stays must be sized by
// the graph itself (a rank, a number of inputs, an attr list), not by the values or dims of
// tensors. What is reported, in the code of one file (comments and string literals ignored):
//  - a sized construction of a std::vector, std::deque, absl::InlinedVector or absl::FixedArray:
//    `std::vector<T> name(args)` or a temporary `std::vector<T>(args)` whose arguments are not
//    all integer literals (`(4)` and `(3, 0)` are a size fixed by the code; `()` is empty).
//    Aliases count as the container: those the file declares (`using Dims =
//    absl::InlinedVector<int64_t, 8>;`, `typedef ...`, `using std::vector;`) and those of the
//    layers below (IntegerValues, DataTypeVector, MemoryTypeVector);
//  - a call of the member `.resize(`, `.reserve(` or `.assign(` (or through `->`) whose
//    arguments are not all integer literals, and of `.insert(` with three arguments (a count or
//    a range), whatever the receiver;
//  - `new T[...]`, `std::make_unique<T[]>(...)` (also make_unique_for_overwrite and
//    make_shared), and calls of malloc, calloc, realloc, aligned_alloc and posix_memalign;
//  - a Tensor built by a constructor that allocates, `Tensor(dtype, shape)`,
//    `Tensor(allocator, dtype, shape)` and the declarations `Tensor name(...)` /
//    `Tensor name{...}` with two or more arguments (one argument, such as `Tensor(DT_INVALID)`
//    or a copy, allocates nothing); any call of DefaultCpuAllocator(), which covers
//    `Tensor::Allocate(DefaultCpuAllocator(), ...)`; and `.DeepCopy()`, which copies onto it.
// A site is justified by a comment whose text starts with "heap-ok:" and a reason, on a line of
// the statement up to the site's line or in the comment lines directly above the statement
// (lint_text.h):
//   // heap-ok: one entry per input of the node
//   std::vector<const Tensor*> inputs(ctx->num_inputs());
// A "heap-ok:" comment that justifies no site is reported too.
//
// Not found (no type information): containers grown element by element (push_back,
// emplace_back, insert of one element, operator[] of a map); a copy made by assignment
// (`std::vector<int64_t> dims = shape.dim_sizes();`) or returned by a function; braced lists
// (`std::vector<int64_t> v{n}` holds the one element n); containers of other kinds
// (std::string, std::map, hash maps, std::priority_queue's pushes); `new T(...)` of one object;
// containers named through an alias declared in another file (a class's `Dims` used from
// outside it) other than the three above; the initializer list of a constructor (`: sums_(n)`).
// Taken for a construction: a function returning a container or a Tensor declared with unnamed
// parameters (`std::vector<int> F(int);`); name them.
#ifndef SLUICE_TESTS_SOURCE_HEAP_LINT_H_
#define SLUICE_TESTS_SOURCE_HEAP_LINT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tests/source/layering.h"
#include "tests/source/lint_text.h"

namespace sluice {
namespace heap_lint {

constexpr absl::string_view kMarker = "heap-ok:";

// An allocation, e.g. "std::vector<float> sums(channels)", its line, and whether it is
// justified.
using Site = lint_text::Site;

// Every site of `text`, justified or not, in order.
std::vector<Site> FindSites(absl::string_view text);

// The lines (1-based) of "heap-ok:" comments in `text` that justify no site.
std::vector<int> UnusedJustifications(absl::string_view text);

// Whether the lint covers `path`: the non-test .cc and .h files of kernels/, but for
// kernels/cpu/scratch.{h,cc}, which implement the allocator-backed arrays.
bool IsScanned(absl::string_view path);

// One line per unjustified site ("path:line: what allocates outside ...") and per unused
// justification, over the scanned files among `files`.
std::vector<std::string> FindViolations(const std::vector<layering::SourceFile>& files);

}  // namespace heap_lint
}  // namespace sluice

#endif  // SLUICE_TESTS_SOURCE_HEAP_LINT_H_
