// CompileMlir: MLIR text → native code for this CPU, through MLIR's upstream conversions
// and its JIT (mlir::ExecutionEngine). Sluice's one door into LLVM/MLIR: every MLIR header
// stays in mlir_jit.cc, so the rest of the tree compiles without them.
//
// The text may use the func, arith, math, memref, scf and vector dialects. Each function of
// the module is callable through its packed form, void(void** args), where args[k] points to
// the function's k-th argument after lowering to LLVM: a memref<?xf32> is five arguments
// (allocated pointer, aligned pointer, offset, size, stride), an index or i64 one.
//
// Functions the text declares but does not define (`func.func private @name(...)`) resolve
// to `symbols`. Code is generated for the host's CPU and its features (AVX2, AVX-512 where
// present). Thread-safe: compilations may run concurrently; a compiled module may be called
// from many threads at once.
//
// With `cache_dir`, compiled code outlives the process: the module's object code is written
// to cache_dir/<key>.o, the key being a SHA-1 of the text, the host CPU's name and features
// and the LLVM version, and a later compilation of the same text on the same kind of CPU
// loads that object (into an LLJIT of its own) instead of compiling. The file holds a magic
// line, the key's hash and the object's hash, and is checked against both before use; a
// file that is missing, unreadable, damaged or fails to load is as if absent (the module is
// compiled and the file written again). Files are written under a temporary name and
// renamed, so concurrent processes see a whole file or none; the folder is created if need
// be. The folder must be the user's: a file there is code this process will run.
#ifndef SLUICE_COMPILER_MLIR_JIT_H_
#define SLUICE_COMPILER_MLIR_JIT_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sluice {

// A compiled module: its functions stay valid as long as the module lives.
class CompiledMlirModule {
 public:
  using PackedFunction = void (*)(void** args);

  virtual ~CompiledMlirModule() = default;

  // The packed form of the module's function `name`; NOT_FOUND if there is none.
  virtual absl::StatusOr<PackedFunction> Lookup(absl::string_view name) const = 0;
};

struct MlirCompileOptions {
  // External functions by name, for the declarations in the text.
  std::vector<std::pair<std::string, void*>> symbols;
  // When set, receives the module after lowering to the LLVM dialect (the cache is then not
  // read: a cached module is never lowered).
  std::string* lowered_text = nullptr;
  // Where compiled code is kept across processes (see above); empty: nowhere.
  std::string cache_dir;
  // When set, receives whether the module was loaded from cache_dir rather than compiled.
  bool* loaded_from_cache = nullptr;
};

// The file in `cache_dir` that holds the compiled code of `text` on this CPU (whether or not
// it exists). INTERNAL when the host CPU cannot be identified.
absl::StatusOr<std::string> MlirCacheFile(absl::string_view cache_dir, absl::string_view text);

// INVALID_ARGUMENT when the text does not parse or verify (MLIR's diagnostics in the
// message); INTERNAL when lowering or code generation fails.
absl::StatusOr<std::unique_ptr<CompiledMlirModule>> CompileMlir(absl::string_view text,
                                                                const MlirCompileOptions& options);

}  // namespace sluice

#endif  // SLUICE_COMPILER_MLIR_JIT_H_
