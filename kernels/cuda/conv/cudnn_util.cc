// cuDNN descriptors and element types; see cudnn_util.h.
#include "kernels/cuda/conv/cudnn_util.h"

#include <limits>

#include "graph/core/errors.h"

namespace sluice {
namespace cuda {

absl::Status CudnnDataType(DataType dtype, cudnnDataType_t* type) {
  switch (dtype) {
    case DT_FLOAT:
      *type = CUDNN_DATA_FLOAT;
      return absl::OkStatus();
    case DT_HALF:
      *type = CUDNN_DATA_HALF;
      return absl::OkStatus();
    case DT_BFLOAT16:
      *type = CUDNN_DATA_BFLOAT16;
      return absl::OkStatus();
    default:
      return errors::InvalidArgument("No cuDNN kernel takes ", DataTypeString(dtype));
  }
}

absl::Status ConvElementOf(DataType dtype, ConvElement* type) {
  switch (dtype) {
    case DT_FLOAT:
      *type = ConvElement::kFloat;
      return absl::OkStatus();
    case DT_HALF:
      *type = ConvElement::kHalf;
      return absl::OkStatus();
    case DT_BFLOAT16:
      *type = ConvElement::kBFloat16;
      return absl::OkStatus();
    default:
      return errors::InvalidArgument("No CUDA pooling kernel takes ", DataTypeString(dtype));
  }
}

bool FitInt(std::initializer_list<int64_t> values) {
  for (const int64_t v : values) {
    if (v < 0 || v > std::numeric_limits<int>::max()) return false;
  }
  return true;
}

absl::Status MakeTensorDescriptor(const CudaLibraries& libs, cudnnTensorFormat_t format,
                                  cudnnDataType_t type, int64_t n, int64_t c, int64_t h, int64_t w,
                                  CudnnDescriptor<cudnnTensorDescriptor_t>* desc) {
  if (!FitInt({n, c, h, w})) {
    return errors::InvalidArgument("A tensor of shape [", n, ", ", c, ", ", h, ", ", w,
                                   "] (N, C, H, W) is past cuDNN's 32-bit sizes");
  }
  RETURN_IF_ERROR(desc->Create(libs, libs.cudnnCreateTensorDescriptor,
                               libs.cudnnDestroyTensorDescriptor, "cudnnCreateTensorDescriptor"));
  return CudnnStatus(libs,
                     libs.cudnnSetTensor4dDescriptor(desc->get(), format, type, static_cast<int>(n),
                                                     static_cast<int>(c), static_cast<int>(h),
                                                     static_cast<int>(w)),
                     "cudnnSetTensor4dDescriptor");
}

}  // namespace cuda
}  // namespace sluice
