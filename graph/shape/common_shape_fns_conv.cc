// Shape functions of convolutions: Conv2D (with groups, dilations, explicit padding,
// NCHW_VECT_C), Conv3D, DepthwiseConv2dNative and the Conv2D backprops.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/common_shape_fns_internal.h"

namespace sluice {
namespace shape_inference {
namespace {

using internal::AttrDim;
using internal::CheckVectCDim;
using internal::DimensionsFromShape;
using internal::GetDataFormat;
using internal::GetInput3D;
using internal::GetPadding;
using internal::GetSizedListAttr;
using internal::GetWindowPadding;
using internal::Input3D;
using internal::kNumSpatialDims;
using internal::MakeShape3D;
using internal::ShapeFromDimensions;
using internal::Spatial3D;
using internal::Windowed3D;
using internal::WindowPadding;

// Input depth must be a multiple of the filter's, and the output depth a multiple of the
// number of groups that makes.
absl::Status CheckGroupedDepths(InferenceContext* c, DimensionHandle input_depth,
                                DimensionHandle filter_input_depth, DimensionHandle output_depth) {
  if (!c->ValueKnown(input_depth) || !c->ValueKnown(filter_input_depth)) {
    return absl::OkStatus();
  }
  const int64_t in = c->Value(input_depth);
  const int64_t filter_in = c->Value(filter_input_depth);
  if (filter_in == 0) return errors::InvalidArgument("Depth of filter must not be 0");
  if (in % filter_in != 0) {
    return errors::InvalidArgument(
        "Depth of input (", in, ") is not a multiple of input depth of filter (", filter_in, ")");
  }
  if (in == filter_in || !c->ValueKnown(output_depth)) return absl::OkStatus();
  const int64_t groups = in / filter_in;
  if (groups == 0) return errors::InvalidArgument("Number of groups must not be 0");
  if (c->Value(output_depth) % groups != 0) {
    return errors::InvalidArgument("Depth of output (", c->Value(output_depth),
                                   ") is not a multiple of the number of groups (", groups, ")");
  }
  return absl::OkStatus();
}

// Filter dims of a 2-D convolution in `filter_format`.
struct FilterDims {
  DimensionHandle rows;
  DimensionHandle cols;
  DimensionHandle input_depth;
  DimensionHandle output_depth;
};

absl::Status GetFilterDims(InferenceContext* c, ShapeHandle filter, FilterTensorFormat format,
                           FilterDims* dims) {
  const int rank = GetFilterTensorDimsFromSpatialDims(kNumSpatialDims, format);
  dims->rows = c->Dim(filter, GetFilterTensorSpatialDimIndex(rank, format, 0));
  dims->cols = c->Dim(filter, GetFilterTensorSpatialDimIndex(rank, format, 1));
  dims->output_depth = c->Dim(filter, GetFilterTensorOutputChannelsDimIndex(rank, format));
  dims->input_depth = c->Dim(filter, GetFilterTensorInputChannelsDimIndex(rank, format));
  if (format == FORMAT_OIHW_VECT_I) {
    RETURN_IF_ERROR(c->Multiply(dims->input_depth, c->Dim(filter, rank - 1), &dims->input_depth));
  }
  return absl::OkStatus();
}

absl::Status Conv2DShapeImpl(InferenceContext* c, bool supports_explicit_padding) {
  TensorFormat data_format;
  std::string data_format_str;
  RETURN_IF_ERROR(GetDataFormat(c, &data_format, &data_format_str));
  std::string filter_format_str;
  if (!c->GetAttr("filter_format", &filter_format_str).ok()) {
    filter_format_str = data_format == FORMAT_NCHW_VECT_C ? "OIHW_VECT_I" : "HWIO";
  }
  FilterTensorFormat filter_format;
  if (!FilterFormatFromString(filter_format_str, &filter_format)) {
    return errors::InvalidArgument("Invalid filter format string: ", filter_format_str);
  }
  const int rank = GetTensorDimsFromSpatialDims(kNumSpatialDims, data_format);
  ShapeHandle input;
  ShapeHandle filter;
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, &input));
  RETURN_IF_ERROR(CheckVectCDim(c, data_format, input));
  RETURN_IF_ERROR(c->WithRank(c->input(1), rank, &filter));
  RETURN_IF_ERROR(CheckVectCDim(c, data_format, filter));

  std::vector<int32_t> dilations;
  std::vector<int32_t> strides;
  RETURN_IF_ERROR(GetSizedListAttr(c, "dilations", 4, "Conv2D requires the dilation", &dilations));
  RETURN_IF_ERROR(GetSizedListAttr(
      c, "strides", 4,
      absl::StrCat("Conv2D on data format ", data_format_str, " requires the stride"), &strides));

  DimensionHandle batch;
  DimensionHandle input_depth;
  std::vector<DimensionHandle> input_spatial;
  RETURN_IF_ERROR(DimensionsFromShape(c, input, data_format, &batch, &input_spatial, &input_depth));
  FilterDims filter_dims;
  RETURN_IF_ERROR(GetFilterDims(c, filter, filter_format, &filter_dims));
  RETURN_IF_ERROR(
      CheckGroupedDepths(c, input_depth, filter_dims.input_depth, filter_dims.output_depth));

  WindowPadding pad;
  RETURN_IF_ERROR(GetWindowPadding(c, data_format, supports_explicit_padding, &pad));
  std::vector<DimensionHandle> output_spatial(kNumSpatialDims);
  RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(
      c, input_spatial[0], filter_dims.rows, AttrDim(dilations, data_format, 'H'),
      AttrDim(strides, data_format, 'H'), pad.padding, pad.rows_before, pad.rows_after,
      &output_spatial[0]));
  RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(
      c, input_spatial[1], filter_dims.cols, AttrDim(dilations, data_format, 'W'),
      AttrDim(strides, data_format, 'W'), pad.padding, pad.cols_before, pad.cols_after,
      &output_spatial[1]));

  const DimensionHandle vect_size =
      data_format == FORMAT_NCHW_VECT_C ? c->Dim(input, rank - 1) : DimensionHandle();
  ShapeHandle out;
  RETURN_IF_ERROR(ShapeFromDimensions(c, batch, output_spatial, filter_dims.output_depth,
                                      data_format, vect_size, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status DepthwiseConv2DNativeShapeImpl(InferenceContext* c, bool supports_explicit_padding) {
  ShapeHandle input;
  ShapeHandle filter;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &input));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 4, &filter));
  std::vector<int32_t> strides;
  RETURN_IF_ERROR(
      GetSizedListAttr(c, "strides", 4, "DepthwiseConv2D requires the stride", &strides));
  std::vector<int32_t> dilations;
  if (!c->GetAttr("dilations", &dilations).ok()) dilations.assign(4, 1);
  if (dilations.size() != 4) {
    return errors::InvalidArgument(
        "DepthwiseConv2D requires the dilations attribute to contain 4 values, but got: ",
        dilations.size());
  }
  std::string format_str;
  TensorFormat format = FORMAT_NHWC;
  if (!c->GetAttr("data_format", &format_str).ok() || !FormatFromString(format_str, &format) ||
      format != FORMAT_NCHW) {
    format = FORMAT_NHWC;
  }
  const int h = format == FORMAT_NCHW ? 2 : 1;
  const int w = h + 1;
  const int depth = format == FORMAT_NCHW ? 1 : 3;

  DimensionHandle input_depth;
  RETURN_IF_ERROR(c->Merge(c->Dim(input, depth), c->Dim(filter, 2), &input_depth));
  DimensionHandle output_depth;
  RETURN_IF_ERROR(c->Multiply(input_depth, c->Dim(filter, 3), &output_depth));

  WindowPadding pad;
  RETURN_IF_ERROR(GetWindowPadding(c, format, supports_explicit_padding, &pad));
  DimensionHandle rows;
  DimensionHandle cols;
  RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(c, c->Dim(input, h), c->Dim(filter, 0),
                                                  dilations[h], strides[h], pad.padding,
                                                  pad.rows_before, pad.rows_after, &rows));
  RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(c, c->Dim(input, w), c->Dim(filter, 1),
                                                  dilations[w], strides[w], pad.padding,
                                                  pad.cols_before, pad.cols_after, &cols));
  const DimensionHandle batch = c->Dim(input, 0);
  c->set_output(0, format == FORMAT_NCHW ? c->MakeShape({batch, output_depth, rows, cols})
                                         : c->MakeShape({batch, rows, cols, output_depth}));
  return absl::OkStatus();
}

}  // namespace

absl::Status Conv2DShape(InferenceContext* c) { return Conv2DShapeImpl(c, false); }

absl::Status Conv2DShapeWithExplicitPadding(InferenceContext* c) {
  return Conv2DShapeImpl(c, true);
}

absl::Status DepthwiseConv2DNativeShape(InferenceContext* c) {
  return DepthwiseConv2DNativeShapeImpl(c, false);
}

absl::Status DepthwiseConv2DNativeShapeWithExplicitPadding(InferenceContext* c) {
  return DepthwiseConv2DNativeShapeImpl(c, true);
}

absl::Status Conv3DShape(InferenceContext* c) {
  ShapeHandle input;
  ShapeHandle filter;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 5, &input));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 5, &filter));
  std::string format_str;
  TensorFormat format;
  if (!c->GetAttr("data_format", &format_str).ok()) format_str.clear();
  if (!FormatFromString(format_str, &format)) {
    return errors::InvalidArgument("Invalid data format string: ", format_str);
  }
  std::vector<int32_t> dilations;
  std::vector<int32_t> strides;
  RETURN_IF_ERROR(GetSizedListAttr(c, "dilations", 5, "Conv3D requires the dilation", &dilations));
  RETURN_IF_ERROR(GetSizedListAttr(c, "strides", 5, "Conv3D requires the stride", &strides));
  Input3D in;
  RETURN_IF_ERROR(GetInput3D(c, input, &in));
  const std::vector<DimensionHandle> filter_spatial = {c->Dim(filter, 0), c->Dim(filter, 1),
                                                       c->Dim(filter, 2)};
  const DimensionHandle output_depth = c->Dim(filter, 4);
  RETURN_IF_ERROR(CheckGroupedDepths(c, in.depth, c->Dim(filter, 3), output_depth));
  Padding padding;
  RETURN_IF_ERROR(GetPadding(c, &padding));
  if (padding == EXPLICIT) {
    return errors::InvalidArgument("Expected non-explicit padding but got explicit padding");
  }
  std::vector<DimensionHandle> out_spatial;
  RETURN_IF_ERROR(Windowed3D(c, in.spatial, filter_spatial, Spatial3D(dilations, in.channels_first),
                             Spatial3D(strides, in.channels_first), padding, &out_spatial));
  c->set_output(0, MakeShape3D(c, in, out_spatial, output_depth));
  return absl::OkStatus();
}

absl::Status Conv2DBackpropInputShape(InferenceContext* c) {
  TensorFormat format;
  RETURN_IF_ERROR(GetDataFormat(c, &format));
  ShapeHandle out_backprop;
  ShapeHandle filter;
  RETURN_IF_ERROR(c->WithRank(c->input(2), 4, &out_backprop));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 4, &filter));
  DimensionHandle batch;
  DimensionHandle out_depth;
  std::vector<DimensionHandle> unused_spatial;
  RETURN_IF_ERROR(
      DimensionsFromShape(c, out_backprop, format, &batch, &unused_spatial, &out_depth));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->Merge(out_depth, c->Dim(filter, 3), &unused));

  ShapeHandle sizes;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &sizes));
  if (!c->RankKnown(sizes)) RETURN_IF_ERROR(c->WithRank(sizes, 4, &sizes));
  DimensionHandle in_depth;
  std::vector<DimensionHandle> in_spatial(kNumSpatialDims);
  if (c->Rank(sizes) == 4) {
    DimensionHandle sizes_batch;
    RETURN_IF_ERROR(DimensionsFromShape(c, sizes, format, &sizes_batch, &in_spatial, &in_depth));
    RETURN_IF_ERROR(c->Merge(sizes_batch, batch, &unused));
  } else if (c->Rank(sizes) == 2) {
    in_spatial = {c->Dim(sizes, 0), c->Dim(sizes, 1)};
    in_depth = c->Dim(filter, 2);
  } else {
    return errors::InvalidArgument(
        "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: ",
        c->Rank(sizes));
  }
  ShapeHandle out;
  RETURN_IF_ERROR(
      ShapeFromDimensions(c, batch, in_spatial, in_depth, format, DimensionHandle(), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status Conv2DBackpropFilterShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &out));
  RETURN_IF_ERROR(c->WithRank(out, 4, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace shape_inference
}  // namespace sluice
