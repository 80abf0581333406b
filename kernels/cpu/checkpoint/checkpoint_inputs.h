// The argument checks SaveV2 and RestoreV2 share (TensorFlow's ValidateInputs in
// save_restore_v2_ops.cc), and the V1 fallback's error.
#ifndef SLUICE_KERNELS_CPU_CHECKPOINT_CHECKPOINT_INPUTS_H_
#define SLUICE_KERNELS_CPU_CHECKPOINT_CHECKPOINT_INPUTS_H_

#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"

namespace sluice {
class OpKernelContext;

namespace checkpoint {

// INVALID_ARGUMENT with TensorFlow's texts unless `prefix` has one element, `tensor_names` and
// `shape_and_slices` are vectors of one length and, for SaveV2, one tensor input follows per
// name.
absl::Status ValidateInputs(bool is_save_op, OpKernelContext* ctx, const Tensor& prefix,
                            const Tensor& tensor_names, const Tensor& shape_and_slices);

// What TensorFlow's RestoreV2 does without PREFIX.index: it reads `prefix` as a V1 checkpoint
// (TensorSliceReader files matching the pattern `prefix`). NOT_FOUND with TensorFlow's text
// when nothing matches; UNIMPLEMENTED otherwise (Sluice reads V2 checkpoints only).
absl::Status V1CheckpointFallback(const std::string& prefix);

// Whether PREFIX.index exists, matched as a glob pattern as TensorFlow's GetMatchingPaths.
bool HasV2Index(const std::string& prefix);

}  // namespace checkpoint
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CHECKPOINT_CHECKPOINT_INPUTS_H_
