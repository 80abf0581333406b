// The process-wide cache of compiled clusters: one compilation per (program, input kinds),
// shared by every node and session with that program. A compiled cluster takes any number
// of rows and columns, so shapes are not part of the key.
//
// A failed compilation is cached too (it would fail again), and reported once, as a warning
// in the log; the cluster's kernel then evaluates the ops unfused.
//
// Across processes: when the environment names a folder in SLUICE_MLIR_CACHE_DIR (as
// TensorFlow's XLA takes a persistent cache directory from its flags), compiled code is kept
// there and later processes on the same kind of CPU load it instead of compiling
// (compiler/mlir_jit.h says how the files are keyed and checked). Unset: nothing is written.
#ifndef SLUICE_KERNELS_CPU_COMPILED_COMPILED_CLUSTER_CACHE_H_
#define SLUICE_KERNELS_CPU_COMPILED_COMPILED_CLUSTER_CACHE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/cluster_codegen.h"
#include "compiler/mlir_jit.h"
#include "graph/ops/fused_elementwise_spec.h"

namespace sluice {

struct CompiledCluster {
  // The generated code (its text, every value's kind, its scratch needs), or INVALID_ARGUMENT
  // when the program does not fit its inputs' kinds (GenerateClusterCode).
  absl::StatusOr<ClusterCode> code;
  // Set when the code compiled; `failure` says why not otherwise.
  CompiledMlirModule::PackedFunction function = nullptr;
  absl::Status failure;
  std::unique_ptr<CompiledMlirModule> module;
};

// The compiled cluster for `steps` with inputs of `input_kinds`, generated and compiled on
// first use (other callers with the same key wait for that compilation). The result stays
// valid, at the same address, for the life of the process.
// The process's one compilation of (steps, input kinds), made on the first call. When
// `compiled_here` is given, it is set to whether this call did the compiling, and
// `seconds` (if given) to how long that took.
const CompiledCluster& GetCompiledCluster(absl::Span<const FusedElementwiseStep> steps,
                                          absl::Span<const ValueKind> input_kinds,
                                          bool* compiled_here = nullptr, double* seconds = nullptr);

// What this process has compiled so far (for `sluice benchmark` and logs).
struct ClusterCompileStats {
  int64_t compiled = 0;    // successful compilations
  int64_t failed = 0;      // programs that did not compile (evaluated unfused)
  int64_t from_cache = 0;  // of the compiled, those loaded from SLUICE_MLIR_CACHE_DIR
  double seconds = 0;      // spent generating and compiling (or loading), successful or not
};
ClusterCompileStats GetClusterCompileStats();

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_COMPILED_COMPILED_CLUSTER_CACHE_H_
