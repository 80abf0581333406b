// Shared pieces of the windowed-op shape functions (see common_shape_fns_internal.h), and
// the public windowed-size and format helpers of common_shape_fns.h.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/common_shape_fns_internal.h"

namespace sluice {
namespace shape_inference {
namespace {

// The explicit_paddings attr; empty when the op has none.
absl::Status GetExplicitPaddings(InferenceContext* c, std::vector<int64_t>* paddings) {
  const absl::Status status = c->GetAttr("explicit_paddings", paddings);
  if (!status.ok() && !errors::IsNotFound(status)) return status;
  if (!status.ok()) paddings->clear();
  return absl::OkStatus();
}

// Attr vectors (strides, ksize, dilations) are laid out like the data without its inner
// vector dim: NCHW for NCHW_VECT_C, NHWC for NHWC_VECT_W.
TensorFormat AttrVectorFormat(TensorFormat format) {
  if (format == FORMAT_NCHW_VECT_C) return FORMAT_NCHW;
  if (format == FORMAT_NHWC_VECT_W) return FORMAT_NHWC;
  return format;
}

// The (before, after) explicit padding of `dimension`. REQUIRES: CheckValidPadding passed.
void ExplicitPaddingForDim(const std::vector<int64_t>& paddings, TensorFormat format,
                           char dimension, int64_t* before, int64_t* after) {
  const int index =
      GetTensorDimIndex(AttrVectorFormat(format), dimension, static_cast<int>(paddings.size() / 2));
  *before = paddings[2 * index];
  *after = paddings[2 * index + 1];
}

}  // namespace

namespace internal {

absl::Status GetDataFormat(InferenceContext* c, TensorFormat* format, std::string* format_str) {
  std::string str;
  if (!c->GetAttr("data_format", &str).ok()) str = "NHWC";
  if (!FormatFromString(str, format)) {
    return errors::InvalidArgument("Invalid data format string: ", str);
  }
  if (format_str != nullptr) *format_str = str;
  return absl::OkStatus();
}

absl::Status GetPadding(InferenceContext* c, Padding* padding) {
  std::string padding_str;
  RETURN_IF_ERROR(c->GetAttr("padding", &padding_str));
  return GetPaddingFromString(padding_str, padding);
}

int64_t AttrDim(const std::vector<int32_t>& values, TensorFormat format, char dimension) {
  const int index =
      GetTensorDimIndex(AttrVectorFormat(format), dimension, static_cast<int>(values.size()));
  return index >= 0 && index < static_cast<int>(values.size()) ? values[index] : 0;
}

absl::Status CheckVectCDim(InferenceContext* c, TensorFormat format, ShapeHandle shape) {
  if (format != FORMAT_NCHW_VECT_C) return absl::OkStatus();
  const int64_t vect = c->Value(c->Dim(shape, -1));
  if (vect != 4 && vect != 32) {
    return errors::InvalidArgument("VECT_C dimension must be 4 or 32, but is ", vect);
  }
  return absl::OkStatus();
}

absl::Status DimensionsFromShape(InferenceContext* c, ShapeHandle shape, TensorFormat format,
                                 DimensionHandle* batch, std::vector<DimensionHandle>* spatial,
                                 DimensionHandle* feature) {
  const int rank = GetTensorDimsFromSpatialDims(kNumSpatialDims, format);
  *batch = c->Dim(shape, GetTensorBatchDimIndex(rank, format));
  spatial->resize(kNumSpatialDims);
  for (int i = 0; i < kNumSpatialDims; ++i) {
    (*spatial)[i] = c->Dim(shape, GetTensorSpatialDimIndex(rank, format, i));
  }
  *feature = c->Dim(shape, GetTensorFeatureDimIndex(rank, format));
  if (format == FORMAT_NCHW_VECT_C) {
    RETURN_IF_ERROR(c->Multiply(*feature, c->Dim(shape, rank - 1), feature));
  }
  return absl::OkStatus();
}

absl::Status ShapeFromDimensions(InferenceContext* c, DimensionHandle batch,
                                 const std::vector<DimensionHandle>& spatial,
                                 DimensionHandle feature, TensorFormat format,
                                 DimensionHandle vect_size, ShapeHandle* out) {
  const int rank = GetTensorDimsFromSpatialDims(static_cast<int>(spatial.size()), format);
  std::vector<DimensionHandle> dims(rank);
  dims[GetTensorBatchDimIndex(rank, format)] = batch;
  for (int i = 0; i < static_cast<int>(spatial.size()); ++i) {
    dims[GetTensorSpatialDimIndex(rank, format, i)] = spatial[i];
  }
  const int feature_index = GetTensorFeatureDimIndex(rank, format);
  if (format == FORMAT_NCHW_VECT_C) {
    RETURN_IF_ERROR(c->Divide(feature, vect_size, true, &dims[feature_index]));
    dims[rank - 1] = vect_size;
  } else {
    dims[feature_index] = feature;
  }
  *out = c->MakeShape(dims);
  return absl::OkStatus();
}

absl::Status GetWindowPadding(InferenceContext* c, TensorFormat format, bool supports_explicit,
                              WindowPadding* out) {
  RETURN_IF_ERROR(GetPadding(c, &out->padding));
  if (!supports_explicit) {
    if (out->padding == EXPLICIT) {
      return errors::InvalidArgument("Expected non-explicit padding but got explicit padding");
    }
    return absl::OkStatus();
  }
  std::vector<int64_t> paddings;
  RETURN_IF_ERROR(GetExplicitPaddings(c, &paddings));
  RETURN_IF_ERROR(CheckValidPadding(out->padding, paddings, 4, AttrVectorFormat(format)));
  if (out->padding == EXPLICIT) {
    ExplicitPaddingForDim(paddings, format, 'H', &out->rows_before, &out->rows_after);
    ExplicitPaddingForDim(paddings, format, 'W', &out->cols_before, &out->cols_after);
  }
  return absl::OkStatus();
}

absl::Status GetSizedListAttr(InferenceContext* c, const char* attr, size_t size,
                              const std::string& what, std::vector<int32_t>* values) {
  RETURN_IF_ERROR(c->GetAttr(attr, values));
  if (values->size() != size) {
    return errors::InvalidArgument(what, " attribute to contain ", size,
                                   " values, but got: ", values->size());
  }
  return absl::OkStatus();
}

absl::Status Windowed3D(InferenceContext* c, const std::vector<DimensionHandle>& in,
                        const std::vector<DimensionHandle>& filter,
                        const std::vector<int64_t>& dilations, const std::vector<int64_t>& strides,
                        Padding padding, std::vector<DimensionHandle>* out) {
  out->resize(3);
  for (int i = 0; i < 3; ++i) {
    RETURN_IF_ERROR(GetWindowedOutputSizeFromDimsV2(c, in[i], filter[i], dilations[i], strides[i],
                                                    padding, 0, 0, &(*out)[i]));
  }
  return absl::OkStatus();
}

absl::Status GetInput3D(InferenceContext* c, ShapeHandle input, Input3D* in) {
  std::string format;
  in->channels_first = c->GetAttr("data_format", &format).ok() && format == "NCDHW";
  const int first_spatial = in->channels_first ? 2 : 1;
  in->batch = c->Dim(input, 0);
  in->spatial = {c->Dim(input, first_spatial), c->Dim(input, first_spatial + 1),
                 c->Dim(input, first_spatial + 2)};
  in->depth = c->Dim(input, in->channels_first ? 1 : 4);
  return absl::OkStatus();
}

ShapeHandle MakeShape3D(InferenceContext* c, const Input3D& in,
                        const std::vector<DimensionHandle>& spatial, DimensionHandle depth) {
  if (in.channels_first) return c->MakeShape({in.batch, depth, spatial[0], spatial[1], spatial[2]});
  return c->MakeShape({in.batch, spatial[0], spatial[1], spatial[2], depth});
}

std::vector<int64_t> Spatial3D(const std::vector<int32_t>& values, bool channels_first) {
  const int first = channels_first ? 2 : 1;
  return {values[first], values[first + 1], values[first + 2]};
}

}  // namespace internal

// ---- Windowed sizes and formats --------------------------------------------------------

absl::Status GetWindowedOutputSizeFromDimsV2(InferenceContext* c, DimensionHandle input_size,
                                             DimensionOrConstant filter_size, int64_t dilation_rate,
                                             int64_t stride, Padding padding_type,
                                             int64_t padding_before, int64_t padding_after,
                                             DimensionHandle* output_size) {
  if (stride <= 0) return errors::InvalidArgument("Stride must be > 0, but got ", stride);
  if (dilation_rate < 1) {
    return errors::InvalidArgument("Dilation rate must be >= 1, but got ", dilation_rate);
  }
  switch (padding_type) {
    case VALID:
    case EXPLICIT: {
      int64_t total_padding = 0;
      if (padding_type == EXPLICIT &&
          __builtin_add_overflow(padding_before, padding_after, &total_padding)) {
        return errors::InvalidArgument("Padding overflows: ", padding_before, " + ", padding_after);
      }
      RETURN_IF_ERROR(c->Add(input_size, total_padding, &input_size));
      DimensionHandle window = c->MakeDim(filter_size);
      if (dilation_rate > 1) {
        RETURN_IF_ERROR(c->Subtract(window, 1, &window));
        RETURN_IF_ERROR(c->Multiply(window, dilation_rate, &window));
        RETURN_IF_ERROR(c->Add(window, 1, &window));
      }
      RETURN_IF_ERROR(c->Subtract(input_size, window, output_size));
      RETURN_IF_ERROR(c->Add(*output_size, stride, output_size));
      return c->Divide(*output_size, stride, false, output_size);
    }
    case SAME:
      RETURN_IF_ERROR(c->Add(input_size, stride - 1, output_size));
      return c->Divide(*output_size, stride, false, output_size);
  }
  return errors::InvalidArgument("Unknown padding type ", static_cast<int>(padding_type));
}

absl::Status GetWindowedOutputSizeFromDims(InferenceContext* c, DimensionHandle input_size,
                                           DimensionOrConstant filter_size, int64_t stride,
                                           Padding padding_type, DimensionHandle* output_size) {
  if (padding_type == EXPLICIT) {
    return errors::Internal(
        "GetWindowedOutputSizeFromDims does not handle EXPLICIT padding; call "
        "GetWindowedOutputSizeFromDimsV2 instead");
  }
  return GetWindowedOutputSizeFromDimsV2(c, input_size, filter_size, 1, stride, padding_type, -1,
                                         -1, output_size);
}

absl::Status MakeShapeFromFormat(TensorFormat format, DimensionOrConstant N,
                                 const std::vector<DimensionOrConstant>& spatial,
                                 DimensionOrConstant C, ShapeHandle* out, InferenceContext* c) {
  const int rank = GetTensorDimsFromSpatialDims(static_cast<int>(spatial.size()), format);
  if (rank < 0) return errors::InvalidArgument("Invalid format ", static_cast<int>(format));
  std::vector<DimensionHandle> dims(rank);
  dims[GetTensorBatchDimIndex(rank, format)] = c->MakeDim(N);
  dims[GetTensorFeatureDimIndex(rank, format)] = c->MakeDim(C);
  if (format == FORMAT_NCHW_VECT_C || format == FORMAT_NHWC_VECT_W) dims[rank - 1] = c->MakeDim(4);
  for (int i = 0; i < static_cast<int>(spatial.size()); ++i) {
    dims[GetTensorSpatialDimIndex(rank, format, i)] = c->MakeDim(spatial[i]);
  }
  *out = c->MakeShape(dims);
  return absl::OkStatus();
}

}  // namespace shape_inference
}  // namespace sluice
