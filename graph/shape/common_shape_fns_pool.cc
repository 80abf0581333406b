// Shape functions of pooling: AvgPool, MaxPool (V1, V2, explicit padding), 3-D pooling
// and the pooling gradients.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/common_shape_fns_internal.h"

namespace sluice {
namespace shape_inference {
namespace {

using internal::AttrDim;
using internal::CheckVectCDim;
using internal::GetDataFormat;
using internal::GetInput3D;
using internal::GetPadding;
using internal::GetSizedListAttr;
using internal::GetWindowPadding;
using internal::Input3D;
using internal::kNumSpatialDims;
using internal::MakeShape3D;
using internal::Spatial3D;
using internal::Windowed3D;
using internal::WindowPadding;

// Attrs of a 2-D pooling op: strides and ksize (4 values each, laid out like the data).
absl::Status GetPoolAttrs(InferenceContext* c, const char* op, std::vector<int32_t>* strides,
                          std::vector<int32_t>* ksize) {
  RETURN_IF_ERROR(
      GetSizedListAttr(c, "strides", 4, absl::StrCat(op, " requires the stride"), strides));
  return GetSizedListAttr(c, "ksize", 4, absl::StrCat(op, " requires the ksize"), ksize);
}

// Output of 2-D pooling over `input` in `format`. With `pool_depth`, the feature dim is
// windowed too (MaxPool); otherwise it is kept (AvgPool).
absl::Status PoolOutputShape(InferenceContext* c, ShapeHandle input, TensorFormat format,
                             const std::vector<int32_t>& strides, const std::vector<int32_t>& ksize,
                             const WindowPadding& pad, bool pool_depth, ShapeHandle* out) {
  const int rank = GetTensorDimsFromSpatialDims(kNumSpatialDims, format);
  const DimensionHandle batch = c->Dim(input, GetTensorDimIndex(format, 'N', rank));
  DimensionHandle depth = c->Dim(input, GetTensorDimIndex(format, 'C', rank));
  DimensionHandle rows;
  DimensionHandle cols;
  RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(
      c, c->Dim(input, GetTensorDimIndex(format, 'H', rank)), AttrDim(ksize, format, 'H'), 1,
      AttrDim(strides, format, 'H'), pad.padding, pad.rows_before, pad.rows_after, &rows));
  RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(
      c, c->Dim(input, GetTensorDimIndex(format, 'W', rank)), AttrDim(ksize, format, 'W'), 1,
      AttrDim(strides, format, 'W'), pad.padding, pad.cols_before, pad.cols_after, &cols));
  if (pool_depth) {
    RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(c, depth, AttrDim(ksize, format, 'C'), 1,
                                                    AttrDim(strides, format, 'C'), pad.padding, 0,
                                                    0, &depth));
  }
  return MakeShapeFromFormat(format, batch, {rows, cols}, depth, out, c);
}

// The 4-D (5-D for NCHW_VECT_C) input of a 2-D pooling op.
absl::Status GetPoolInput(InferenceContext* c, TensorFormat* format, ShapeHandle* input) {
  RETURN_IF_ERROR(GetDataFormat(c, format));
  const int rank = GetTensorDimsFromSpatialDims(kNumSpatialDims, *format);
  RETURN_IF_ERROR(c->WithRank(c->input(0), rank, input));
  return CheckVectCDim(c, *format, *input);
}

absl::Status MaxPoolShapeImpl(InferenceContext* c, bool supports_explicit_padding) {
  TensorFormat format;
  ShapeHandle input;
  RETURN_IF_ERROR(GetPoolInput(c, &format, &input));
  std::vector<int32_t> strides;
  std::vector<int32_t> ksize;
  RETURN_IF_ERROR(GetPoolAttrs(c, "MaxPool", &strides, &ksize));
  WindowPadding pad;
  RETURN_IF_ERROR(GetWindowPadding(c, format, supports_explicit_padding, &pad));
  ShapeHandle out;
  RETURN_IF_ERROR(PoolOutputShape(c, input, format, strides, ksize, pad, true, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// Reads a known int vector input into `values`; false if its value is unknown.
absl::Status GetIntVectorInput(InferenceContext* c, int idx, std::vector<int32_t>* values,
                               bool* known) {
  const Tensor* t = c->input_tensor(idx);
  *known = t != nullptr;
  if (t == nullptr) return absl::OkStatus();
  if (t->dtype() != DT_INT32 && t->dtype() != DT_INT64) {
    return errors::InvalidArgument("Input ", idx, " must be int32 or int64, but was ",
                                   DataTypeString(t->dtype()));
  }
  values->clear();
  for (int64_t i = 0; i < t->NumElements(); ++i) {
    int64_t value;
    RETURN_IF_ERROR(c->GetScalarFromTensor(t, i, &value));
    values->push_back(static_cast<int32_t>(value));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AvgPoolShape(InferenceContext* c) {
  TensorFormat format;
  ShapeHandle input;
  RETURN_IF_ERROR(GetPoolInput(c, &format, &input));
  std::vector<int32_t> strides;
  std::vector<int32_t> ksize;
  RETURN_IF_ERROR(GetPoolAttrs(c, "AvgPool", &strides, &ksize));
  WindowPadding pad;
  RETURN_IF_ERROR(GetWindowPadding(c, format, false, &pad));
  ShapeHandle out;
  RETURN_IF_ERROR(PoolOutputShape(c, input, format, strides, ksize, pad, false, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status MaxPoolShape(InferenceContext* c) { return MaxPoolShapeImpl(c, false); }

absl::Status MaxPoolShapeWithExplicitPadding(InferenceContext* c) {
  return MaxPoolShapeImpl(c, true);
}

absl::Status MaxPoolV2Shape(InferenceContext* c, int num_inputs) {
  TensorFormat format;
  ShapeHandle input;
  RETURN_IF_ERROR(GetPoolInput(c, &format, &input));
  std::vector<int32_t> ksize;
  std::vector<int32_t> strides;
  if (c->num_inputs() + 2 == num_inputs) {
    RETURN_IF_ERROR(c->GetAttr("ksize", &ksize));
    RETURN_IF_ERROR(c->GetAttr("strides", &strides));
  } else {
    const int ksize_idx = c->num_inputs() - 2;
    const int strides_idx = c->num_inputs() - 1;
    ShapeHandle size;
    DimensionHandle unused;
    for (int idx : {ksize_idx, strides_idx}) {
      RETURN_IF_ERROR(c->WithRank(c->input(idx), 1, &size));
      RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 4, &unused));
    }
    bool ksize_known;
    bool strides_known;
    RETURN_IF_ERROR(GetIntVectorInput(c, ksize_idx, &ksize, &ksize_known));
    RETURN_IF_ERROR(GetIntVectorInput(c, strides_idx, &strides, &strides_known));
    if (!ksize_known || !strides_known) {
      c->set_output(0, c->UnknownShape());
      return absl::OkStatus();
    }
  }
  if (strides.size() != 4) {
    return errors::InvalidArgument(
        "MaxPool requires the stride attribute to contain 4 values, but got: ", strides.size());
  }
  if (ksize.size() != 4) {
    return errors::InvalidArgument(
        "MaxPool requires the ksize attribute to contain 4 values, but got: ", ksize.size());
  }
  WindowPadding pad;
  RETURN_IF_ERROR(GetWindowPadding(c, format, false, &pad));
  ShapeHandle out;
  RETURN_IF_ERROR(PoolOutputShape(c, input, format, strides, ksize, pad, true, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status Pool3DShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 5, &input));
  std::vector<int32_t> strides;
  std::vector<int32_t> ksize;
  RETURN_IF_ERROR(GetSizedListAttr(c, "strides", 5, "Pool3D ops require the stride", &strides));
  RETURN_IF_ERROR(GetSizedListAttr(c, "ksize", 5, "Pool3D requires the ksize", &ksize));
  Input3D in;
  RETURN_IF_ERROR(GetInput3D(c, input, &in));
  Padding padding;
  RETURN_IF_ERROR(GetPadding(c, &padding));
  if (padding == EXPLICIT) {
    return errors::InvalidArgument("Expected non-explicit padding but got explicit padding");
  }
  const std::vector<int64_t> k = Spatial3D(ksize, in.channels_first);
  const std::vector<DimensionHandle> window = {c->MakeDim(k[0]), c->MakeDim(k[1]),
                                               c->MakeDim(k[2])};
  std::vector<DimensionHandle> out_spatial;
  RETURN_IF_ERROR(Windowed3D(c, in.spatial, window, {1, 1, 1},
                             Spatial3D(strides, in.channels_first), padding, &out_spatial));
  c->set_output(0, MakeShape3D(c, in, out_spatial, in.depth));
  return absl::OkStatus();
}

absl::Status AvgPoolGradShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &out));
  RETURN_IF_ERROR(c->WithRank(out, 4, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status MaxPoolGradShape(InferenceContext* c) { return UnchangedShapeWithRank(c, 4); }

}  // namespace shape_inference
}  // namespace sluice
