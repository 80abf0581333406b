// ReadConv3DBackpropAttrs and Conv3DBackpropDims; see conv3d_params.h.
#include "kernels/cpu/linalg/conv3d_params.h"

#include <string>

#include "graph/core/errors.h"
#include "kernels/cpu/linalg/conv_params.h"

namespace sluice {

absl::Status ReadConv3DBackpropAttrs(OpKernelConstruction* ctx, const char* v2_label,
                                     std::vector<int32_t>* strides, Padding* padding) {
  if (v2_label != nullptr) {
    std::string data_format;
    RETURN_IF_ERROR(ctx->GetAttr("data_format", &data_format));
    if (data_format != "NDHWC") {
      return errors::InvalidArgument(v2_label, " only supports NDHWC on the CPU.");
    }
  }
  std::vector<int32_t> dilations;
  RETURN_IF_ERROR(ctx->GetAttr("dilations", &dilations));
  if (dilations.size() != 5) {
    return errors::InvalidArgument("Dilation rates field must specify 5 dimensions");
  }
  if (dilations[0] != 1 || dilations[4] != 1) {
    return errors::InvalidArgument(
        "Current implementation does not yet support dilation rates in the batch and depth "
        "dimensions.");
  }
  if (dilations[1] != 1 || dilations[2] != 1 || dilations[3] != 1) {
    return errors::InvalidArgument(
        "Current CPU implementation does not yet support dilation rates larger than 1.");
  }
  RETURN_IF_ERROR(ctx->GetAttr("strides", strides));
  if (strides->size() != 5) {
    return errors::InvalidArgument("Sliding window strides field must specify 5 dimensions");
  }
  if ((*strides)[0] != 1 || (*strides)[4] != 1) {
    return errors::InvalidArgument(
        "Current implementation does not yet support strides in the batch and depth "
        "dimensions.");
  }
  std::string padding_name;
  RETURN_IF_ERROR(ctx->GetAttr("padding", &padding_name));
  return GetPaddingFromString(padding_name, padding);
}

absl::Status Conv3DBackpropDims(absl::string_view label, const TensorShape& input,
                                const TensorShape& filter, const TensorShape& out_backprop,
                                const std::vector<int32_t>& strides, Padding padding,
                                Conv3DSpatialDim dims[3]) {
  if (input.dim_size(0) != out_backprop.dim_size(0)) {
    return errors::InvalidArgument(
        label,
        ": input and out_backprop must have the same batch size. Input batch: ", input.dim_size(0),
        ", outbackprop batch: ", out_backprop.dim_size(0), ", batch_dim: 0");
  }
  if (filter.dim_size(3) <= 0) {
    return errors::InvalidArgument(label, ": filter depth must be strictly greated than zero");
  }
  if (input.dim_size(4) % filter.dim_size(3) != 0) {
    return errors::InvalidArgument(label, ": input depth must be evenly divisible by filter depth");
  }
  if (filter.dim_size(4) != out_backprop.dim_size(4)) {
    return errors::InvalidArgument(label, ": filter and out_backprop must have the same out_depth");
  }
  for (int d = 0; d < 3; ++d) {
    Conv3DSpatialDim& dim = dims[d];
    dim.in = input.dim_size(d + 1);
    dim.window = filter.dim_size(d);
    dim.stride = strides[d + 1];
    int64_t computed = 0;
    RETURN_IF_ERROR(WindowedOutputSize(dim.in, dim.window, /*dilation=*/1, dim.stride, padding,
                                       &computed, &dim.pad, &dim.pad_after));
    dim.out = out_backprop.dim_size(d + 1);
    if (dim.out != computed) {
      return errors::InvalidArgument(
          label, ": Size of out_backprop doesn't match computed: actual = ", dim.out,
          ", computed = ", computed, " spatial_dim: ", d + 1, " input: ", dim.in,
          " filter: ", dim.window, " output: ", dim.out, " stride: ", dim.stride, " dilation: 1");
    }
  }
  return absl::OkStatus();
}

}  // namespace sluice
