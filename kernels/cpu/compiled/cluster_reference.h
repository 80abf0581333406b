// EvaluateClusterUnfused: an `_MlirCluster` program evaluated one op at a time over whole
// values, with the ops' own kernels' functors and reduction loops — what the unfused graph
// computes, bit for bit. The cluster kernel runs it where compiled code would not match the
// unfused kernels (a reduced axis long enough that the Sum/Mean/Max/Min kernels split it over
// threads, or of length 1, which they copy) and where compilation failed.
//
// The values are [rows, cols] as in compiler/cluster_codegen.h: `inputs[i]` holds
// rows * cols, rows, cols, rows / batch_rows * cols or 1 floats as `kinds[i]` says (full, row,
// column, batch column, scalar); `kinds` also holds each step's kind
// after the inputs' (GenerateClusterCode's value_kinds); `out` receives the last step's value.
#ifndef SLUICE_KERNELS_CPU_COMPILED_CLUSTER_REFERENCE_H_
#define SLUICE_KERNELS_CPU_COMPILED_CLUSTER_REFERENCE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "compiler/cluster_codegen.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

absl::Status EvaluateClusterUnfused(OpKernelContext* ctx,
                                    absl::Span<const FusedElementwiseStep> steps,
                                    absl::Span<const ValueKind> kinds,
                                    absl::Span<const float* const> inputs, int64_t rows,
                                    int64_t cols, int64_t batch_rows, float* out);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_COMPILED_CLUSTER_REFERENCE_H_
