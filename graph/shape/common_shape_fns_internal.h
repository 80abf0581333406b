// Pieces shared by the convolution and pooling shape functions (common_shape_fns_conv.cc,
// common_shape_fns_pool.cc): reading layout and padding attrs, and splitting shapes into
// batch, spatial and feature dims. Not part of the public API; TensorFlow's semantics and
// messages, INVALID_ARGUMENT on bad attrs.
#ifndef SLUICE_GRAPH_SHAPE_COMMON_SHAPE_FNS_INTERNAL_H_
#define SLUICE_GRAPH_SHAPE_COMMON_SHAPE_FNS_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/padding.h"
#include "graph/core/tensor_format.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace shape_inference {
namespace internal {

// 2-D windowed ops: H and W.
constexpr int kNumSpatialDims = 2;

// The data_format attr (also as written, if `format_str` is set); NHWC when the op has none.
// "Invalid data format string: X" for an unknown format.
absl::Status GetDataFormat(InferenceContext* c, TensorFormat* format,
                           std::string* format_str = nullptr);
// The padding attr.
absl::Status GetPadding(InferenceContext* c, Padding* padding);

// Entry `dimension` ('N', 'C', 'H', 'W', '0'...) of an attr vector (strides, ksize,
// dilations) laid out like data in `format` (NCHW for NCHW_VECT_C). REQUIRES: the vector's
// length was checked to be the format's rank; otherwise 0, which later checks reject.
int64_t AttrDim(const std::vector<int32_t>& values, TensorFormat format, char dimension);

// For NCHW_VECT_C, the innermost dim of `shape` must be 4 or 32.
absl::Status CheckVectCDim(InferenceContext* c, TensorFormat format, ShapeHandle shape);

// Batch, spatial and feature dims of a rank-4 (rank-5 for VECT_C) `shape` in `format`;
// the feature dim of NCHW_VECT_C is outer * inner.
absl::Status DimensionsFromShape(InferenceContext* c, ShapeHandle shape, TensorFormat format,
                                 DimensionHandle* batch, std::vector<DimensionHandle>* spatial,
                                 DimensionHandle* feature);
// The inverse of DimensionsFromShape; for NCHW_VECT_C the feature dim is split by
// `vect_size`, which must divide it.
absl::Status ShapeFromDimensions(InferenceContext* c, DimensionHandle batch,
                                 const std::vector<DimensionHandle>& spatial,
                                 DimensionHandle feature, TensorFormat format,
                                 DimensionHandle vect_size, ShapeHandle* out);

// Padding of a 2-D windowed op: the type, and the explicit (before, after) pairs of rows
// and cols (-1 unless EXPLICIT).
struct WindowPadding {
  Padding padding = VALID;
  int64_t rows_before = -1;
  int64_t rows_after = -1;
  int64_t cols_before = -1;
  int64_t cols_after = -1;
};
// Reads `padding`, and explicit_paddings when `supports_explicit` (validated with
// CheckValidPadding); without support, EXPLICIT is an error.
absl::Status GetWindowPadding(InferenceContext* c, TensorFormat format, bool supports_explicit,
                              WindowPadding* out);

// Reads an int list attr that must have `size` entries; `what` starts the message
// ("Conv2D requires the stride" + " attribute to contain 4 values, but got: 3").
absl::Status GetSizedListAttr(InferenceContext* c, const char* attr, size_t size,
                              const std::string& what, std::vector<int32_t>* values);

// A 5-D input in NDHWC or NCDHW (data_format attr): its batch, spatial (D, H, W) and
// feature dims.
struct Input3D {
  bool channels_first = false;
  DimensionHandle batch;
  std::vector<DimensionHandle> spatial;
  DimensionHandle depth;
};
absl::Status GetInput3D(InferenceContext* c, ShapeHandle input, Input3D* in);
// A 5-D shape laid out like `in` with the given spatial and feature dims.
ShapeHandle MakeShape3D(InferenceContext* c, const Input3D& in,
                        const std::vector<DimensionHandle>& spatial, DimensionHandle depth);
// The three spatial entries of a 5-value attr. REQUIRES: values.size() == 5.
std::vector<int64_t> Spatial3D(const std::vector<int32_t>& values, bool channels_first);
// Windowed output sizes of the three spatial dims (no explicit padding).
absl::Status Windowed3D(InferenceContext* c, const std::vector<DimensionHandle>& in,
                        const std::vector<DimensionHandle>& filter,
                        const std::vector<int64_t>& dilations, const std::vector<int64_t>& strides,
                        Padding padding, std::vector<DimensionHandle>* out);

}  // namespace internal
}  // namespace shape_inference
}  // namespace sluice

#endif  // SLUICE_GRAPH_SHAPE_COMMON_SHAPE_FNS_INTERNAL_H_
