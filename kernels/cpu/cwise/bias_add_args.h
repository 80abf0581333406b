// BiasAdd's attrs and argument checks, with TensorFlow's messages; shared by the CPU kernel
// (bias_add_op.cc) and the GPU kernel (kernels/cuda/cwise_ops.cc), so both refuse the same
// inputs the same way.
#ifndef SLUICE_KERNELS_CPU_CWISE_BIAS_ADD_ARGS_H_
#define SLUICE_KERNELS_CPU_CWISE_BIAS_ADD_ARGS_H_

#include <string>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// data_format (default NHWC): *nchw for "NCHW"; INVALID_ARGUMENT "Invalid data format" for
// anything but NHWC and NCHW.
inline absl::Status ParseBiasAddFormat(OpKernelConstruction* ctx, bool* nchw) {
  std::string format = "NHWC";
  if (ctx->HasAttr("data_format")) RETURN_IF_ERROR(ctx->GetAttr("data_format", &format));
  if (format != "NHWC" && format != "NCHW") {
    return errors::InvalidArgument("Invalid data format");
  }
  *nchw = format == "NCHW";
  return absl::OkStatus();
}

// INVALID_ARGUMENT unless `value` has at least 2 dims and `bias` is a vector as long as its
// channel dim (1 for NCHW, the last otherwise), which *channel_dim receives.
inline absl::Status CheckBiasAddArgs(const Tensor& value, const Tensor& bias, bool nchw,
                                     int* channel_dim) {
  if (value.dims() < 2) {
    return errors::InvalidArgument("Input tensor must be at least 2D: ",
                                   value.shape().DebugString());
  }
  if (bias.dims() != 1) {
    return errors::InvalidArgument("Biases must be 1D: ", bias.shape().DebugString());
  }
  *channel_dim = nchw ? 1 : value.dims() - 1;
  if (bias.dim_size(0) != value.dim_size(*channel_dim)) {
    return errors::InvalidArgument(
        "Must provide as many biases as the last dimension of the input tensor: ",
        bias.shape().DebugString(), " vs. ", value.shape().DebugString());
  }
  return absl::OkStatus();
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_BIAS_ADD_ARGS_H_
