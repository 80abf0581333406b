// Conv attr parsing and geometry, with TensorFlow's checks and messages.
#include "kernels/cpu/linalg/conv_params.h"

#include <algorithm>
#include <limits>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace {

int64_t Dim(const TensorShape& shape, TensorFormat format, char dim) {
  return shape.dim_size(GetTensorDimIndex(format, dim, 4));
}

template <typename V>
int64_t AttrDim(const V& values, TensorFormat format, char dim) {
  return values[GetTensorDimIndex(format, dim, 4)];
}

bool FitsInt(int64_t v) { return v >= 0 && v <= std::numeric_limits<int>::max(); }

// The spatial fields shared by the forward and backward geometries.
absl::Status SpatialGeometry(const Conv2DAttrs& attrs, ConvGeometry* geo) {
  geo->stride_rows = AttrDim(attrs.strides, attrs.data_format, 'H');
  geo->stride_cols = AttrDim(attrs.strides, attrs.data_format, 'W');
  geo->dilation_rows = AttrDim(attrs.dilations, attrs.data_format, 'H');
  geo->dilation_cols = AttrDim(attrs.dilations, attrs.data_format, 'W');
  geo->data_format = attrs.data_format;
  if (attrs.padding == EXPLICIT) {
    const int h = GetTensorDimIndex(attrs.data_format, 'H', 4);
    const int w = GetTensorDimIndex(attrs.data_format, 'W', 4);
    geo->pad_top = attrs.explicit_paddings[2 * h];
    geo->pad_bottom = attrs.explicit_paddings[2 * h + 1];
    geo->pad_left = attrs.explicit_paddings[2 * w];
    geo->pad_right = attrs.explicit_paddings[2 * w + 1];
  }
  int64_t out_rows = 0, out_cols = 0;
  RETURN_IF_ERROR(WindowedOutputSize(geo->in_rows, geo->filter_rows, geo->dilation_rows,
                                     geo->stride_rows, attrs.padding, &out_rows, &geo->pad_top,
                                     &geo->pad_bottom));
  RETURN_IF_ERROR(WindowedOutputSize(geo->in_cols, geo->filter_cols, geo->dilation_cols,
                                     geo->stride_cols, attrs.padding, &out_cols, &geo->pad_left,
                                     &geo->pad_right));
  geo->out_rows = out_rows;
  geo->out_cols = out_cols;
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseConv2DAttrs(OpKernelConstruction* ctx, absl::StatusCode batch_stride_code,
                              Conv2DAttrs* attrs) {
  RETURN_IF_ERROR(ctx->GetAttr("strides", &attrs->strides));
  RETURN_IF_ERROR(ctx->GetAttr("dilations", &attrs->dilations));
  std::string padding;
  RETURN_IF_ERROR(ctx->GetAttr("padding", &padding));
  RETURN_IF_ERROR(GetPaddingFromString(padding, &attrs->padding));
  // _FusedDepthwiseConv2dNative has no explicit_paddings (nor EXPLICIT padding).
  if (ctx->HasAttr("explicit_paddings")) {
    RETURN_IF_ERROR(ctx->GetAttr("explicit_paddings", &attrs->explicit_paddings));
  }
  std::string format;
  RETURN_IF_ERROR(ctx->GetAttr("data_format", &format));
  if (!FormatFromString(format, &attrs->data_format) ||
      (attrs->data_format != FORMAT_NHWC && attrs->data_format != FORMAT_NCHW)) {
    return errors::InvalidArgument("Invalid data format");
  }
  if (attrs->dilations.size() != 4) {
    return errors::InvalidArgument("Sliding window dilations field must specify 4 dimensions");
  }
  if (attrs->strides.size() != 4) {
    return errors::InvalidArgument("Sliding window strides field must specify 4 dimensions");
  }
  const TensorFormat f = attrs->data_format;
  if (AttrDim(attrs->strides, f, 'N') != 1 || AttrDim(attrs->strides, f, 'C') != 1) {
    return absl::Status(batch_stride_code,
                        "Current implementation does not yet support strides in the batch "
                        "and depth dimensions.");
  }
  if (AttrDim(attrs->strides, f, 'H') <= 0 || AttrDim(attrs->strides, f, 'W') <= 0) {
    return errors::InvalidArgument("Row and column strides should be larger than 0.");
  }
  if (AttrDim(attrs->dilations, f, 'N') != 1 || AttrDim(attrs->dilations, f, 'C') != 1) {
    return errors::InvalidArgument(
        "Current implementation does not yet support dilations in the batch and depth "
        "dimensions.");
  }
  if (AttrDim(attrs->dilations, f, 'H') <= 0 || AttrDim(attrs->dilations, f, 'W') <= 0) {
    return errors::InvalidArgument("Dilated rates should be larger than 0.");
  }
  RETURN_IF_ERROR(CheckValidPadding(attrs->padding, attrs->explicit_paddings, 4, f));
  for (const int64_t pad : attrs->explicit_paddings) {
    // Larger pads would overflow the output-size arithmetic.
    if (!FitsInt(pad)) return errors::InvalidArgument("filter too large");
  }
  return absl::OkStatus();
}

absl::Status ConvGeometry::OutputShape(TensorShape* shape) const {
  return data_format == FORMAT_NHWC
             ? TensorShape::BuildTensorShape({batch, out_rows, out_cols, out_depth}, shape)
             : TensorShape::BuildTensorShape({batch, out_depth, out_rows, out_cols}, shape);
}

std::vector<int64_t> ConvGeometry::Key() const {
  return {batch,
          in_depth,
          in_rows,
          in_cols,
          out_depth,
          out_rows,
          out_cols,
          filter_rows,
          filter_cols,
          groups,
          stride_rows,
          stride_cols,
          dilation_rows,
          dilation_cols,
          pad_top,
          pad_bottom,
          pad_left,
          pad_right,
          static_cast<int64_t>(data_format)};
}

absl::Status WindowedOutputSize(int64_t input_size, int64_t filter_size, int64_t dilation,
                                int64_t stride, Padding padding, int64_t* output_size,
                                int64_t* pad_before, int64_t* pad_after) {
  if (stride <= 0) return errors::InvalidArgument("Stride must be > 0, but got ", stride);
  if (dilation < 1) {
    return errors::InvalidArgument("Dilation rate must be >= 1, but got ", dilation);
  }
  const int64_t effective_filter = (filter_size - 1) * dilation + 1;
  switch (padding) {
    case VALID:
      *output_size = (input_size - effective_filter + stride) / stride;
      *pad_before = *pad_after = 0;
      break;
    case EXPLICIT:
      *output_size = (input_size + *pad_before + *pad_after - effective_filter + stride) / stride;
      break;
    case SAME: {
      *output_size = (input_size + stride - 1) / stride;
      const int64_t needed =
          std::max<int64_t>(0, (*output_size - 1) * stride + effective_filter - input_size);
      *pad_before = needed / 2;
      *pad_after = needed - *pad_before;
      break;
    }
  }
  if (*output_size < 0) {
    return errors::InvalidArgument(
        "Computed output size would be negative: ", *output_size, " [input_size: ", input_size,
        ", effective_filter_size: ", effective_filter, ", stride: ", stride, "]");
  }
  return absl::OkStatus();
}

absl::Status ForwardConvGeometry(const Conv2DAttrs& attrs, const TensorShape& input,
                                 const TensorShape& filter, bool depthwise, ConvGeometry* geo) {
  if (input.dims() != 4) {
    return errors::InvalidArgument("input must be 4-dimensional", input.DebugString());
  }
  if (filter.dims() != 4) {
    return errors::InvalidArgument("filter must be 4-dimensional: ", filter.DebugString());
  }
  for (int i = 0; i < 4; ++i) {
    if (!FitsInt(filter.dim_size(i))) return errors::InvalidArgument("filter too large");
    if (!FitsInt(input.dim_size(i))) return errors::InvalidArgument("input too large");
  }
  const TensorFormat f = attrs.data_format;
  geo->batch = Dim(input, f, 'N');
  geo->in_depth = Dim(input, f, 'C');
  geo->in_rows = Dim(input, f, 'H');
  geo->in_cols = Dim(input, f, 'W');
  geo->filter_rows = filter.dim_size(0);
  geo->filter_cols = filter.dim_size(1);
  const int64_t filter_depth = filter.dim_size(2);
  if (depthwise) {
    if (geo->in_depth != filter_depth) {
      return errors::InvalidArgument("input and filter must have the same depth: ", geo->in_depth,
                                     " vs ", filter_depth);
    }
    geo->groups = geo->in_depth;
    geo->out_depth = geo->in_depth * filter.dim_size(3);
  } else {
    if (filter_depth <= 0) {
      return errors::InvalidArgument("filter depth must be stricly positive, got ", filter_depth);
    }
    if (geo->in_depth % filter_depth != 0) {
      return errors::InvalidArgument("input depth must be evenly divisible by filter depth: ",
                                     geo->in_depth, " vs ", filter_depth);
    }
    geo->groups = geo->in_depth / filter_depth;
    geo->out_depth = filter.dim_size(3);
    if (geo->groups == 0 || geo->out_depth % geo->groups != 0 || geo->out_depth < geo->groups) {
      return errors::InvalidArgument("output depth must be evenly divisible by number of groups: ",
                                     geo->out_depth, " vs ", geo->groups);
    }
  }
  return SpatialGeometry(attrs, geo);
}

absl::Status BackpropInputGeometry(const Conv2DAttrs& attrs, const TensorShape& input_shape,
                                   const TensorShape& filter, const TensorShape& out_backprop,
                                   ConvGeometry* geo) {
  return ConvBackpropGeometry("Conv2DBackpropInput", attrs, input_shape, filter, out_backprop, geo);
}

absl::Status ConvBackpropGeometry(absl::string_view label, const Conv2DAttrs& attrs,
                                  const TensorShape& input_shape, const TensorShape& filter,
                                  const TensorShape& out_backprop, ConvGeometry* geo) {
  if (input_shape.dims() != 4) {
    return errors::InvalidArgument(label, ": input must be 4-dimensional");
  }
  if (filter.dims() != 4) {
    return errors::InvalidArgument(label, ": filter must be 4-dimensional");
  }
  if (out_backprop.dims() != 4) {
    return errors::InvalidArgument(label, ": out_backprop must be 4-dimensional");
  }
  for (int i = 0; i < 4; ++i) {
    if (!FitsInt(filter.dim_size(i))) return errors::InvalidArgument("filter too large");
  }
  const TensorFormat f = attrs.data_format;
  geo->batch = Dim(input_shape, f, 'N');
  if (geo->batch != Dim(out_backprop, f, 'N')) {
    return errors::InvalidArgument(
        label, ": input and out_backprop must have the same batch size. Input batch: ", geo->batch,
        ", outbackprop batch: ", Dim(out_backprop, f, 'N'),
        ", batch_dim: ", GetTensorBatchDimIndex(4, f));
  }
  geo->in_depth = Dim(input_shape, f, 'C');
  geo->in_rows = Dim(input_shape, f, 'H');
  geo->in_cols = Dim(input_shape, f, 'W');
  geo->filter_rows = filter.dim_size(0);
  geo->filter_cols = filter.dim_size(1);
  const int64_t filter_depth = filter.dim_size(2);
  if (filter_depth <= 0) {
    return errors::InvalidArgument(label, ": filter depth must be strictly greated than zero");
  }
  if (geo->in_depth % filter_depth != 0) {
    return errors::InvalidArgument(label, ": input depth must be evenly divisible by filter depth");
  }
  geo->groups = geo->in_depth / filter_depth;
  geo->out_depth = filter.dim_size(3);
  if (geo->out_depth != Dim(out_backprop, f, 'C')) {
    return errors::InvalidArgument(label, ": filter and out_backprop must have the same out_depth");
  }
  if (geo->groups == 0 || geo->out_depth % geo->groups != 0) {
    return errors::InvalidArgument(
        label, ": output depth must be evenly divisible by number of groups: ", geo->out_depth,
        " vs ", geo->groups);
  }
  RETURN_IF_ERROR(SpatialGeometry(attrs, geo));
  const int64_t rows = Dim(out_backprop, f, 'H');
  const int64_t cols = Dim(out_backprop, f, 'W');
  if (rows != geo->out_rows || cols != geo->out_cols) {
    const bool row_bad = rows != geo->out_rows;
    return errors::InvalidArgument(
        label, ": Size of out_backprop doesn't match computed: actual = ", row_bad ? rows : cols,
        ", computed = ", row_bad ? geo->out_rows : geo->out_cols,
        " spatial_dim: ", GetTensorDimIndex(f, row_bad ? 'H' : 'W', 4),
        " input: ", row_bad ? geo->in_rows : geo->in_cols,
        " filter: ", row_bad ? geo->filter_rows : geo->filter_cols,
        " output: ", row_bad ? rows : cols,
        " stride: ", row_bad ? geo->stride_rows : geo->stride_cols,
        " dilation: ", row_bad ? geo->dilation_rows : geo->dilation_cols);
  }
  return absl::OkStatus();
}

absl::Status Conv2DInputShapeFromSizes(const Tensor& sizes, const TensorShape& filter,
                                       const TensorShape& out_backprop, TensorFormat format,
                                       TensorShape* shape) {
  if (sizes.dims() != 1) {
    return errors::InvalidArgument("Conv2DBackpropInput: input_sizes input must be 1-dim, not ",
                                   sizes.dims());
  }
  const int32_t* v = sizes.flat<int32_t>().data();
  if (sizes.NumElements() == 4) {
    return TensorShape::BuildTensorShape({v[0], v[1], v[2], v[3]}, shape);
  }
  if (sizes.NumElements() != 2) {
    return errors::InvalidArgument(
        "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: ",
        sizes.NumElements());
  }
  if (filter.dims() != 4 || out_backprop.dims() != 4) {
    return errors::InvalidArgument(
        "Conv2DBackpropInput: filter and out_backprop must be 4-dimensional");
  }
  const int64_t batch = out_backprop.dim_size(GetTensorBatchDimIndex(4, format));
  const int64_t depth = filter.dim_size(2);
  return format == FORMAT_NHWC ? TensorShape::BuildTensorShape({batch, v[0], v[1], depth}, shape)
                               : TensorShape::BuildTensorShape({batch, depth, v[0], v[1]}, shape);
}

absl::Status ZeroFilterError() {
  return errors::InvalidArgument(
      "filter must not have zero elements (i.e. all dimensions must be non-zero)");
}

}  // namespace sluice
