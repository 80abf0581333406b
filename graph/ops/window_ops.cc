// Sliding-window ops on NHWC images that are neither convolutions nor plain pooling:
// ExtractImagePatches (each window's pixels laid out along depth), Dilation2D (grayscale
// morphological dilation by a per-channel structuring function) and MaxPoolWithArgmax.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// TensorFlow's windowed output size of one dim (its "verbose" form, which the shape
// functions of these ops use): VALID (in - window + stride) / stride, SAME
// ceil(in / stride); INVALID_ARGUMENT for a stride <= 0 or a negative size.
absl::Status WindowedSize(int64_t in, int64_t window, int64_t stride, Padding padding,
                          int64_t* out) {
  if (stride <= 0) return errors::InvalidArgument("Stride must be > 0, but got ", stride);
  *out = padding == VALID ? (in - window + stride) / stride : (in + stride - 1) / stride;
  if (*out < 0) {
    return errors::InvalidArgument("Computed output size would be negative: ", *out,
                                   " [input_size: ", in, ", effective_filter_size: ", window,
                                   ", stride: ", stride, "]");
  }
  return absl::OkStatus();
}

// The list attr `name` of `op`, which must hold 4 values.
absl::Status GetVec4(InferenceContext* c, const char* op, const char* name, const char* what,
                     std::vector<int32_t>* values) {
  RETURN_IF_ERROR(c->GetAttr(name, values));
  if (values->size() != 4) {
    return errors::InvalidArgument(op, " requires the ", what,
                                   " attribute to contain 4 values, but got: ", values->size());
  }
  return absl::OkStatus();
}

absl::Status GetPaddingAttr(InferenceContext* c, Padding* padding) {
  std::string name;
  RETURN_IF_ERROR(c->GetAttr("padding", &name));
  return GetPaddingFromString(name, padding);
}

// The output rows and cols of windows of `rows` x `cols` taps spread by `rates`, or unknown
// dims when the input's (or the window's) are unknown.
absl::Status SpatialOutput(InferenceContext* c, DimensionHandle in_rows, DimensionHandle in_cols,
                           DimensionHandle rows, DimensionHandle cols,
                           const std::vector<int32_t>& strides, const std::vector<int32_t>& rates,
                           DimensionHandle* out_rows, DimensionHandle* out_cols) {
  if (!c->ValueKnown(in_rows) || !c->ValueKnown(in_cols) || !c->ValueKnown(rows) ||
      !c->ValueKnown(cols)) {
    *out_rows = c->UnknownDim();
    *out_cols = c->UnknownDim();
    return absl::OkStatus();
  }
  Padding padding;
  RETURN_IF_ERROR(GetPaddingAttr(c, &padding));
  const int64_t rows_eff = c->Value(rows) + (c->Value(rows) - 1) * (int64_t{rates[1]} - 1);
  const int64_t cols_eff = c->Value(cols) + (c->Value(cols) - 1) * (int64_t{rates[2]} - 1);
  int64_t r = 0;
  int64_t w = 0;
  RETURN_IF_ERROR(WindowedSize(c->Value(in_rows), rows_eff, strides[1], padding, &r));
  RETURN_IF_ERROR(WindowedSize(c->Value(in_cols), cols_eff, strides[2], padding, &w));
  *out_rows = c->MakeDim(r);
  *out_cols = c->MakeDim(w);
  return absl::OkStatus();
}

// [batch, out_rows, out_cols, ksize_rows * ksize_cols * depth].
absl::Status ExtractImagePatchesShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &input));
  std::vector<int32_t> ksizes, strides, rates;
  RETURN_IF_ERROR(GetVec4(c, "ExtractImagePatches", "ksizes", "ksizes", &ksizes));
  RETURN_IF_ERROR(GetVec4(c, "ExtractImagePatches", "strides", "stride", &strides));
  RETURN_IF_ERROR(GetVec4(c, "ExtractImagePatches", "rates", "rates", &rates));
  DimensionHandle depth;
  RETURN_IF_ERROR(c->Multiply(c->Dim(input, 3), int64_t{ksizes[1]} * int64_t{ksizes[2]}, &depth));
  DimensionHandle rows, cols;
  RETURN_IF_ERROR(SpatialOutput(c, c->Dim(input, 1), c->Dim(input, 2), c->MakeDim(ksizes[1]),
                                c->MakeDim(ksizes[2]), strides, rates, &rows, &cols));
  c->set_output(0, c->MakeShape({c->Dim(input, 0), rows, cols, depth}));
  return absl::OkStatus();
}

// [batch, out_rows, out_cols, depth] for input [batch, rows, cols, depth] and filter
// [filter_rows, filter_cols, depth]; the depths merge once the spatial sizes are known.
absl::Status Dilation2DShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &input));
  ShapeHandle filter;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &filter));
  std::vector<int32_t> strides, rates;
  RETURN_IF_ERROR(GetVec4(c, "Dilation2D", "strides", "stride", &strides));
  RETURN_IF_ERROR(GetVec4(c, "Dilation2D", "rates", "rates", &rates));
  const DimensionHandle depth = c->Dim(filter, 2);
  if (c->ValueKnown(c->Dim(input, 1)) && c->ValueKnown(c->Dim(input, 2)) &&
      c->ValueKnown(c->Dim(filter, 0)) && c->ValueKnown(c->Dim(filter, 1))) {
    DimensionHandle unused;
    RETURN_IF_ERROR(c->Merge(c->Dim(input, 3), depth, &unused));
  }
  DimensionHandle rows, cols;
  RETURN_IF_ERROR(SpatialOutput(c, c->Dim(input, 1), c->Dim(input, 2), c->Dim(filter, 0),
                                c->Dim(filter, 1), strides, rates, &rows, &cols));
  c->set_output(0, c->MakeShape({c->Dim(input, 0), rows, cols, depth}));
  return absl::OkStatus();
}

// MaxPool's shape for both outputs.
absl::Status MaxPoolWithArgmaxShape(InferenceContext* c) {
  RETURN_IF_ERROR(shape_inference::MaxPoolShape(c));
  c->set_output(1, c->output(0));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("ExtractImagePatches")
    .Input("images: T")
    .Output("patches: T")
    .Attr("ksizes: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr(
        "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, "
        "uint64, complex64, complex128, bool}")
    .Attr(GetPaddingAttrString())
    .SetShapeFn(ExtractImagePatchesShape);

REGISTER_OP("Dilation2D")
    .Input("input: T")
    .Input("filter: T")
    .Output("output: T")
    .Attr("T: realnumbertype")
    .Attr("strides: list(int) >= 4")
    .Attr("rates: list(int) >= 4")
    .Attr(GetPaddingAttrString())
    .SetShapeFn(Dilation2DShape);

REGISTER_OP("MaxPoolWithArgmax")
    .Input("input: T")
    .Output("output: T")
    .Output("argmax: Targmax")
    .Attr("ksize: list(int) >= 4")
    .Attr("strides: list(int) >= 4")
    .Attr("Targmax: {int32, int64} = DT_INT64")
    .Attr(GetPaddingAttrString())
    .Attr("include_batch_in_index: bool = false")
    .Attr("T: realnumbertype")
    .SetShapeFn(MaxPoolWithArgmaxShape);

}  // namespace sluice
