#include "kernels/cpu/checkpoint/checkpoint_inputs.h"

#include <glob.h>

#include <limits>

#include "graph/core/errors.h"
#include "io/tensor_bundle_files.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace checkpoint {

namespace {

bool IsVector(const Tensor& t) { return t.dims() == 1; }

// The number of paths matching `pattern` (glob(3); a pattern without wildcards matches the
// path itself when it exists).
size_t CountMatches(const std::string& pattern) {
  glob_t matches;
  const int rc = glob(pattern.c_str(), 0, nullptr, &matches);
  const size_t n = rc == 0 ? matches.gl_pathc : 0;
  globfree(&matches);
  return n;
}

}  // namespace

absl::Status ValidateInputs(bool is_save_op, OpKernelContext* ctx, const Tensor& prefix,
                            const Tensor& tensor_names, const Tensor& shape_and_slices) {
  constexpr int kFixedInputs = 3;  // prefix, tensor_names, shape_and_slices
  if (prefix.NumElements() != 1) {
    return errors::InvalidArgument("Input prefix should have a single element, got ",
                                   prefix.NumElements(), " instead.");
  }
  if (!IsVector(tensor_names) || !IsVector(shape_and_slices)) {
    return errors::InvalidArgument(
        "Input tensor_names and shape_and_slices should be an 1-D tensors, got ",
        tensor_names.shape().DebugString(), " and ", shape_and_slices.shape().DebugString(),
        " instead.");
  }
  if (tensor_names.NumElements() != shape_and_slices.NumElements()) {
    return errors::InvalidArgument(
        "tensor_names and shape_and_slices have different number of elements: ",
        tensor_names.NumElements(), " vs. ", shape_and_slices.NumElements());
  }
  if (tensor_names.NumElements() + kFixedInputs > std::numeric_limits<int>::max()) {
    return errors::InvalidArgument("Too many inputs to the op");
  }
  const int64_t num_tensors = tensor_names.NumElements();
  if (is_save_op && ctx->num_inputs() != num_tensors + kFixedInputs) {
    return errors::InvalidArgument("Got ", num_tensors, " tensor names but ",
                                   ctx->num_inputs() - kFixedInputs, " tensors.");
  }
  return absl::OkStatus();
}

bool HasV2Index(const std::string& prefix) { return CountMatches(MetaFilename(prefix)) > 0; }

absl::Status V1CheckpointFallback(const std::string& prefix) {
  if (CountMatches(prefix) == 0) {
    return errors::NotFound(
        "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for ",
        prefix);
  }
  return errors::Unimplemented("No V2 checkpoint (", MetaFilename(prefix), ") at ", prefix,
                               ": Sluice restores V2 checkpoints only, not TensorFlow 1's V1 "
                               "format (TensorSliceReader files)");
}

}  // namespace checkpoint
}  // namespace sluice
