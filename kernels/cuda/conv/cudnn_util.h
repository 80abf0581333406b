// What the cuDNN kernels of this package share: owned descriptors, the cuDNN and launcher
// element types of a dtype, and 4-D tensor descriptors from int64 dims.
//
// cuDNN is opened at run time (runtime/framework/gpu/cuda_libraries.h): every call goes
// through the device's CudaLibraries table, and every failure is a Status naming the call
// (CudnnStatus). Descriptors are cheap host objects, made per call and destroyed with their
// owner; none is shared between threads.
#ifndef SLUICE_KERNELS_CUDA_CONV_CUDNN_UTIL_H_
#define SLUICE_KERNELS_CUDA_CONV_CUDNN_UTIL_H_

#include <cudnn.h>

#include <cstdint>
#include <initializer_list>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/types.h"
#include "kernels/cuda/conv/conv_launch.h"
#include "runtime/framework/gpu/cuda_libraries.h"
#include "runtime/framework/gpu/cuda_status.h"

namespace sluice {
namespace cuda {

// One cuDNN descriptor (cudnnTensorDescriptor_t, ...), destroyed with its owner.
template <typename Desc>
class CudnnDescriptor {
 public:
  using CreateFn = cudnnStatus_t (*)(Desc*);
  using DestroyFn = cudnnStatus_t (*)(Desc);

  CudnnDescriptor() = default;
  ~CudnnDescriptor() {
    if (desc_ != nullptr) destroy_(desc_);
  }
  CudnnDescriptor(const CudnnDescriptor&) = delete;
  CudnnDescriptor& operator=(const CudnnDescriptor&) = delete;

  // Creates the descriptor with `create` (a CudaLibraries member) and remembers `destroy`.
  // REQUIRES: called once.
  absl::Status Create(const CudaLibraries& libs, CreateFn create, DestroyFn destroy,
                      absl::string_view what) {
    destroy_ = destroy;
    return CudnnStatus(libs, create(&desc_), what);
  }
  Desc get() const { return desc_; }

 private:
  Desc desc_ = nullptr;
  DestroyFn destroy_ = nullptr;
};

// cuDNN's data type and the launchers' element type of the dtypes the kernels register
// (float, half, bfloat16). INVALID_ARGUMENT for any other dtype.
absl::Status CudnnDataType(DataType dtype, cudnnDataType_t* type);
absl::Status ConvElementOf(DataType dtype, ConvElement* type);

// Whether every value fits cuDNN's int arguments. Used before building descriptors so that
// a huge shape is INVALID_ARGUMENT naming the op rather than a silent truncation.
bool FitInt(std::initializer_list<int64_t> values);

// A 4-D tensor descriptor of dims n, c, h, w (logical) laid out in `format`.
// INVALID_ARGUMENT for dims past int.
absl::Status MakeTensorDescriptor(const CudaLibraries& libs, cudnnTensorFormat_t format,
                                  cudnnDataType_t type, int64_t n, int64_t c, int64_t h, int64_t w,
                                  CudnnDescriptor<cudnnTensorDescriptor_t>* desc);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_CUDNN_UTIL_H_
