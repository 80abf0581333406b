// Tensor and filter layouts (see tensor_format.h).
#include "graph/core/tensor_format.h"

namespace sluice {
namespace {

// Number of dims that are not spatial: N and C, plus the inner vector dim of VECT formats.
int NonSpatialDims(TensorFormat format) {
  switch (format) {
    case FORMAT_NHWC:
    case FORMAT_NCHW:
    case FORMAT_HWNC:
    case FORMAT_HWCN:
      return 2;
    case FORMAT_NCHW_VECT_C:
    case FORMAT_NHWC_VECT_W:
      return 3;
  }
  return -1;
}

int FilterNonSpatialDims(FilterTensorFormat format) { return format == FORMAT_OIHW_VECT_I ? 3 : 2; }

}  // namespace

bool FormatFromString(absl::string_view format_str, TensorFormat* format) {
  if (format_str == "NHWC" || format_str == "NDHWC" || format_str == "NWC") {
    *format = FORMAT_NHWC;
  } else if (format_str == "NCHW" || format_str == "NCDHW" || format_str == "NCW") {
    *format = FORMAT_NCHW;
  } else if (format_str == "NCHW_VECT_C") {
    *format = FORMAT_NCHW_VECT_C;
  } else if (format_str == "NHWC_VECT_W") {
    *format = FORMAT_NHWC_VECT_W;
  } else if (format_str == "HWNC") {
    *format = FORMAT_HWNC;
  } else if (format_str == "HWCN") {
    *format = FORMAT_HWCN;
  } else {
    return false;
  }
  return true;
}

bool FilterFormatFromString(absl::string_view format_str, FilterTensorFormat* format) {
  if (format_str == "HWIO" || format_str == "DHWIO") {
    *format = FORMAT_HWIO;
  } else if (format_str == "OIHW" || format_str == "OIDHW") {
    *format = FORMAT_OIHW;
  } else if (format_str == "OHWI") {
    *format = FORMAT_OHWI;
  } else if (format_str == "OIHW_VECT_I") {
    *format = FORMAT_OIHW_VECT_I;
  } else {
    return false;
  }
  return true;
}

std::string ToString(TensorFormat format) {
  switch (format) {
    case FORMAT_NHWC:
      return "NHWC";
    case FORMAT_NCHW:
      return "NCHW";
    case FORMAT_NCHW_VECT_C:
      return "NCHW_VECT_C";
    case FORMAT_NHWC_VECT_W:
      return "NHWC_VECT_W";
    case FORMAT_HWNC:
      return "HWNC";
    case FORMAT_HWCN:
      return "HWCN";
  }
  return "INVALID_FORMAT";
}

std::string ToString(FilterTensorFormat format) {
  switch (format) {
    case FORMAT_HWIO:
      return "HWIO";
    case FORMAT_OIHW:
      return "OIHW";
    case FORMAT_OHWI:
      return "OHWI";
    case FORMAT_OIHW_VECT_I:
      return "OIHW_VECT_I";
  }
  return "INVALID_FORMAT";
}

int GetTensorSpatialDims(int num_dims, TensorFormat format) {
  const int non_spatial = NonSpatialDims(format);
  return non_spatial < 0 ? -1 : num_dims - non_spatial;
}

int GetTensorDimsFromSpatialDims(int num_spatial_dims, TensorFormat format) {
  const int non_spatial = NonSpatialDims(format);
  return non_spatial < 0 ? -1 : num_spatial_dims + non_spatial;
}

int GetFilterTensorSpatialDims(int num_dims, FilterTensorFormat format) {
  return num_dims - FilterNonSpatialDims(format);
}

int GetFilterTensorDimsFromSpatialDims(int num_spatial_dims, FilterTensorFormat format) {
  return num_spatial_dims + FilterNonSpatialDims(format);
}

int GetTensorBatchDimIndex(int num_dims, TensorFormat format) {
  switch (format) {
    case FORMAT_NHWC:
    case FORMAT_NCHW:
    case FORMAT_NCHW_VECT_C:
    case FORMAT_NHWC_VECT_W:
      return 0;
    case FORMAT_HWNC:
      return num_dims - 2;
    case FORMAT_HWCN:
      return num_dims - 1;
  }
  return -1;
}

int GetTensorFeatureDimIndex(int num_dims, TensorFormat format) {
  switch (format) {
    case FORMAT_NHWC:
    case FORMAT_HWNC:
      return num_dims - 1;
    case FORMAT_NHWC_VECT_W:
    case FORMAT_HWCN:
      return num_dims - 2;
    case FORMAT_NCHW:
    case FORMAT_NCHW_VECT_C:
      return 1;
  }
  return -1;
}

int GetTensorSpatialDimIndex(int num_dims, TensorFormat format, int spatial_dim) {
  if (spatial_dim < 0 || spatial_dim >= GetTensorSpatialDims(num_dims, format)) return -1;
  switch (format) {
    case FORMAT_NHWC:
    case FORMAT_NHWC_VECT_W:
      return spatial_dim + 1;
    case FORMAT_NCHW:
    case FORMAT_NCHW_VECT_C:
      return spatial_dim + 2;
    case FORMAT_HWNC:
    case FORMAT_HWCN:
      return spatial_dim;
  }
  return -1;
}

int GetFilterTensorInputChannelsDimIndex(int num_dims, FilterTensorFormat format) {
  switch (format) {
    case FORMAT_HWIO:
      return num_dims - 2;
    case FORMAT_OIHW:
    case FORMAT_OIHW_VECT_I:
      return 1;
    case FORMAT_OHWI:
      return num_dims - 1;
  }
  return -1;
}

int GetFilterTensorOutputChannelsDimIndex(int num_dims, FilterTensorFormat format) {
  switch (format) {
    case FORMAT_HWIO:
      return num_dims - 1;
    case FORMAT_OIHW:
    case FORMAT_OIHW_VECT_I:
    case FORMAT_OHWI:
      return 0;
  }
  return -1;
}

int GetFilterTensorSpatialDimIndex(int num_dims, FilterTensorFormat format, int spatial_dim) {
  if (spatial_dim < 0 || spatial_dim >= GetFilterTensorSpatialDims(num_dims, format)) return -1;
  switch (format) {
    case FORMAT_HWIO:
      return spatial_dim;
    case FORMAT_OIHW:
    case FORMAT_OIHW_VECT_I:
      return spatial_dim + 2;
    case FORMAT_OHWI:
      return spatial_dim + 1;
  }
  return -1;
}

int GetTensorDimIndex(TensorFormat format, char dimension, int num_dims) {
  const int num_spatial = GetTensorSpatialDims(num_dims, format);
  switch (dimension) {
    case 'N':
      return GetTensorBatchDimIndex(num_dims, format);
    case 'C':
      return GetTensorFeatureDimIndex(num_dims, format);
    case 'H':
      return GetTensorSpatialDimIndex(num_dims, format, num_spatial - 2);
    case 'W':
      return GetTensorSpatialDimIndex(num_dims, format, num_spatial - 1);
    default:
      if (dimension >= '0' && dimension <= '9') {
        return GetTensorSpatialDimIndex(num_dims, format, dimension - '0');
      }
      return -1;
  }
}

std::string GetConvnetDataFormatAttrString() { return "data_format: { 'NHWC', 'NCHW' } = 'NHWC' "; }

std::string GetConvnet3dDataFormatAttrString() {
  return "data_format: { 'NDHWC', 'NCDHW' } = 'NDHWC' ";
}

std::string GetConvnetDataFormat2D3DAttrString() {
  return "data_format: { 'NHWC', 'NCHW', 'NDHWC', 'NCDHW' } = 'NHWC' ";
}

std::string GetConvnetFilterFormatAttrString() {
  return "filter_format: { 'HWIO', 'OIHW' } = 'HWIO' ";
}

}  // namespace sluice
