// The one output every summary kernel has: its Summary serialized into a scalar string tensor,
// as TensorFlow serializes it (C++ protobuf, fields in number order), so equal Summaries give
// TensorFlow's bytes.
#ifndef SLUICE_KERNELS_CPU_SUMMARY_SUMMARY_OUTPUT_H_
#define SLUICE_KERNELS_CPU_SUMMARY_SUMMARY_OUTPUT_H_

#include "absl/status/status.h"
#include "proto/summary.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace summary {

// Allocates output 0 as a scalar and writes `summary` into it. INTERNAL if the Summary cannot be
// serialized (over protobuf's 2 GiB limit); allocation errors pass through.
absl::Status SetSummaryOutput(OpKernelContext* ctx, const Summary& summary);

}  // namespace summary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SUMMARY_SUMMARY_OUTPUT_H_
