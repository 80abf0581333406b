// Checks of the convolution gradients' arguments; see conv_grad_params.h.
#include "kernels/cpu/linalg/conv_grad_params.h"

#include <cstdint>
#include <limits>

#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"

namespace sluice {

absl::Status FilterShapeFromSizes(absl::string_view label, const Tensor& sizes,
                                  TensorShape* shape) {
  if (sizes.dims() != 1) {
    return errors::InvalidArgument(label, ": filter_sizes input must be 1-dim, not ", sizes.dims());
  }
  // More than 4 values is rejected before they are read: a filter has 4 dims.
  if (sizes.NumElements() > 4) {
    return errors::InvalidArgument(label, ": filter must be 4-dimensional");
  }
  const auto v = sizes.flat<int32_t>();
  int64_t dims[4];
  for (int64_t i = 0; i < v.size(); ++i) {
    if (v(i) < 0) {
      return errors::InvalidArgument("Dimension ", i, " of filter_sizes must be >= 0");
    }
    dims[i] = v(i);
  }
  return TensorShape::BuildTensorShape(absl::MakeConstSpan(dims, v.size()), shape);
}

absl::Status DepthwiseBackpropGeometry(absl::string_view label, const Conv2DAttrs& attrs,
                                       const TensorShape& input, const TensorShape& filter,
                                       const TensorShape& out_backprop, ConvGeometry* geo) {
  if (input.dims() != 4) return errors::InvalidArgument(label, ": input must be 4-dimensional");
  if (filter.dims() != 4) return errors::InvalidArgument(label, ": filter must be 4-dimensional");
  if (out_backprop.dims() != 4) {
    return errors::InvalidArgument(label, ": out_backprop must be 4-dimensional");
  }
  const TensorFormat f = attrs.data_format;
  const auto dim = [f](const TensorShape& s, char d) {
    return s.dim_size(GetTensorDimIndex(f, d, 4));
  };
  geo->batch = dim(input, 'N');
  if (geo->batch != dim(out_backprop, 'N')) {
    return errors::InvalidArgument(label, ": input and out_backprop must have the same batch size");
  }
  constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
  geo->in_rows = dim(input, 'H');
  geo->in_cols = dim(input, 'W');
  if (geo->in_rows > kIntMax) return errors::InvalidArgument("Input rows too large");
  if (geo->in_cols > kIntMax) return errors::InvalidArgument("Input cols too large");
  const int64_t rows = dim(out_backprop, 'H');
  const int64_t cols = dim(out_backprop, 'W');
  if (rows > kIntMax) return errors::InvalidArgument("Output rows too large");
  if (cols > kIntMax) return errors::InvalidArgument("Output cols too large");
  geo->filter_rows = filter.dim_size(0);
  geo->filter_cols = filter.dim_size(1);
  if (geo->filter_rows > kIntMax || geo->filter_cols > kIntMax) {
    return errors::InvalidArgument("filter too large");
  }
  geo->in_depth = dim(input, 'C');
  if (geo->in_depth > kIntMax) return errors::InvalidArgument("Input depth too large");
  if (geo->in_depth != filter.dim_size(2)) {
    return errors::InvalidArgument(label, ": input and filter must have the same in_depth");
  }
  const int64_t multiplier = filter.dim_size(3);
  geo->out_depth = dim(out_backprop, 'C');
  if (geo->out_depth > kIntMax) return errors::InvalidArgument("Output depth too large");
  // Both factors are below 2**31 here, so the product fits int64.
  if (multiplier > kIntMax || geo->in_depth * multiplier != geo->out_depth) {
    return errors::InvalidArgument(label, ": depth_multiplier * in_depth not equal to out_depth");
  }
  geo->groups = geo->in_depth;
  geo->stride_rows = attrs.strides[GetTensorDimIndex(f, 'H', 4)];
  geo->stride_cols = attrs.strides[GetTensorDimIndex(f, 'W', 4)];
  geo->dilation_rows = attrs.dilations[GetTensorDimIndex(f, 'H', 4)];
  geo->dilation_cols = attrs.dilations[GetTensorDimIndex(f, 'W', 4)];
  geo->data_format = f;
  if (attrs.padding == EXPLICIT) {
    const int h = GetTensorDimIndex(f, 'H', 4);
    const int w = GetTensorDimIndex(f, 'W', 4);
    geo->pad_top = attrs.explicit_paddings[2 * h];
    geo->pad_bottom = attrs.explicit_paddings[2 * h + 1];
    geo->pad_left = attrs.explicit_paddings[2 * w];
    geo->pad_right = attrs.explicit_paddings[2 * w + 1];
  }
  RETURN_IF_ERROR(WindowedOutputSize(geo->in_rows, geo->filter_rows, geo->dilation_rows,
                                     geo->stride_rows, attrs.padding, &geo->out_rows, &geo->pad_top,
                                     &geo->pad_bottom));
  RETURN_IF_ERROR(WindowedOutputSize(geo->in_cols, geo->filter_cols, geo->dilation_cols,
                                     geo->stride_cols, attrs.padding, &geo->out_cols,
                                     &geo->pad_left, &geo->pad_right));
  if (rows != geo->out_rows) {
    return errors::InvalidArgument(label,
                                   ": Number of rows of out_backprop doesn't match computed: "
                                   "actual = ",
                                   rows, ", computed = ", geo->out_rows);
  }
  if (cols != geo->out_cols) {
    return errors::InvalidArgument(label,
                                   ": Number of cols of out_backprop doesn't match computed: "
                                   "actual = ",
                                   cols, ", computed = ", geo->out_cols);
  }
  return absl::OkStatus();
}

}  // namespace sluice
