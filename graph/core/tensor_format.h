// Tensor layouts of image-like ops (data_format / filter_format attrs) and where the batch,
// feature and spatial dimensions sit in each.
//
// Activations: N = batch, C = feature (channels), H/W/D = spatial. "NHWC" also names 1-D and
// 3-D layouts with features last ("NWC", "NDHWC"), "NCHW" those with features second
// ("NCW", "NCDHW"). The VECT layouts carry an extra innermost dimension of 4 packed values.
// Filters: H/W = spatial, I = input depth, O = output depth.
//
// Index helpers take the tensor's total rank (`num_dims`) and return -1 for a format or
// index that does not apply, so callers can report an error instead of crashing.
#ifndef SLUICE_GRAPH_CORE_TENSOR_FORMAT_H_
#define SLUICE_GRAPH_CORE_TENSOR_FORMAT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sluice {

// Numbered as in TensorFlow.
// Both enums have int underneath (TensorFlow's leave it implied), so that any int value
// converts to them with defined behaviour: a value a caller casts from the wire names no
// format, and the helpers answer -1 or "INVALID_FORMAT" for it.
enum TensorFormat : int {
  FORMAT_NHWC = 0,
  FORMAT_NCHW = 1,
  FORMAT_NCHW_VECT_C = 2,
  FORMAT_NHWC_VECT_W = 3,
  FORMAT_HWNC = 4,
  FORMAT_HWCN = 5,
};

enum FilterTensorFormat : int {
  FORMAT_HWIO = 0,
  FORMAT_OIHW = 1,
  FORMAT_OHWI = 2,
  FORMAT_OIHW_VECT_I = 3,
};

// Parses a data_format attr value ("NHWC", "NDHWC", "NWC", "NCHW", "NCDHW", "NCW",
// "NCHW_VECT_C", "NHWC_VECT_W", "HWNC", "HWCN"). Returns false if unknown.
bool FormatFromString(absl::string_view format_str, TensorFormat* format);
// Parses a filter_format attr value ("HWIO", "OIHW", "OHWI", "OIHW_VECT_I").
bool FilterFormatFromString(absl::string_view format_str, FilterTensorFormat* format);
// "NHWC", "NCHW", ...; "INVALID_FORMAT" for values outside the enum.
std::string ToString(TensorFormat format);
std::string ToString(FilterTensorFormat format);

// Number of spatial dims in a tensor of rank `num_dims`, and its inverse.
int GetTensorSpatialDims(int num_dims, TensorFormat format);
int GetTensorDimsFromSpatialDims(int num_spatial_dims, TensorFormat format);
int GetFilterTensorSpatialDims(int num_dims, FilterTensorFormat format);
int GetFilterTensorDimsFromSpatialDims(int num_spatial_dims, FilterTensorFormat format);

// Index of the batch (N) / feature (C) dimension.
int GetTensorBatchDimIndex(int num_dims, TensorFormat format);
int GetTensorFeatureDimIndex(int num_dims, TensorFormat format);
// Index of spatial dimension `spatial_dim` (0 = outermost spatial dim); -1 if out of range.
int GetTensorSpatialDimIndex(int num_dims, TensorFormat format, int spatial_dim);
// Index of the filter's input depth (I), output depth (O) and spatial dims.
int GetFilterTensorInputChannelsDimIndex(int num_dims, FilterTensorFormat format);
int GetFilterTensorOutputChannelsDimIndex(int num_dims, FilterTensorFormat format);
int GetFilterTensorSpatialDimIndex(int num_dims, FilterTensorFormat format, int spatial_dim);

// Index of the dimension named by the letter `dimension` in a rank-`num_dims` tensor:
// 'N' batch, 'C' feature, '0'..'9' the spatial dims from the outermost, 'H' and 'W' the
// last two spatial dims (so 'H' of NDHWC is the second spatial dim). -1 if it does not apply.
int GetTensorDimIndex(TensorFormat format, char dimension, int num_dims);

// Attr specs for op registrations, e.g. "data_format: { 'NHWC', 'NCHW' } = 'NHWC' ".
std::string GetConvnetDataFormatAttrString();
std::string GetConvnet3dDataFormatAttrString();
std::string GetConvnetDataFormat2D3DAttrString();
std::string GetConvnetFilterFormatAttrString();

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_TENSOR_FORMAT_H_
