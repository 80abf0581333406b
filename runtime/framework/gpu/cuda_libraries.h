// CudaLibraries: cuBLAS, cuBLASLt and cuDNN, opened at run time.
//
// Sluice links only the static CUDA runtime, so that every program starts on machines without
// a GPU or without these libraries (most of them). The GPU device factory loads the libraries
// once per process (Get) and creates no GPU device if any is missing, as TensorFlow skips its
// GPUs when it "cannot dlopen some GPU libraries". Each function below is a member of the same
// name and type, called as libs.cublasCreate_v2(&handle).
//
// Each library is looked up by its soname (libcublas.so.13, libcublasLt.so.13,
// libcudnn.so.9) on the loader's path, then in /usr/local/cuda/lib64.
// Thread safety: Get may be called from any thread; the table is immutable once loaded.
#ifndef SLUICE_RUNTIME_FRAMEWORK_GPU_CUDA_LIBRARIES_H_
#define SLUICE_RUNTIME_FRAMEWORK_GPU_CUDA_LIBRARIES_H_

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cudnn.h>

#include "absl/status/statusor.h"

// The functions Sluice calls, by library. Adding one is one line here.
#define SLUICE_CUBLAS_FUNCTIONS(X) \
  X(cublasCreate_v2)               \
  X(cublasDestroy_v2)              \
  X(cublasSetStream_v2)            \
  X(cublasSetMathMode)             \
  X(cublasSetWorkspace_v2)         \
  X(cublasGetStatusName)

#define SLUICE_CUBLASLT_FUNCTIONS(X)      \
  X(cublasLtCreate)                       \
  X(cublasLtDestroy)                      \
  X(cublasLtMatmul)                       \
  X(cublasLtMatmulDescCreate)             \
  X(cublasLtMatmulDescDestroy)            \
  X(cublasLtMatmulDescSetAttribute)       \
  X(cublasLtMatrixLayoutCreate)           \
  X(cublasLtMatrixLayoutDestroy)          \
  X(cublasLtMatrixLayoutSetAttribute)     \
  X(cublasLtMatmulPreferenceCreate)       \
  X(cublasLtMatmulPreferenceDestroy)      \
  X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatmulAlgoGetHeuristic)

#define SLUICE_CUDNN_FUNCTIONS(X)            \
  X(cudnnCreate)                             \
  X(cudnnDestroy)                            \
  X(cudnnSetStream)                          \
  X(cudnnGetErrorString)                     \
  X(cudnnGetVersion)                         \
  X(cudnnCreateTensorDescriptor)             \
  X(cudnnDestroyTensorDescriptor)            \
  X(cudnnSetTensor4dDescriptor)              \
  X(cudnnSetTensorNdDescriptor)              \
  X(cudnnCreateFilterDescriptor)             \
  X(cudnnDestroyFilterDescriptor)            \
  X(cudnnSetFilter4dDescriptor)              \
  X(cudnnCreateConvolutionDescriptor)        \
  X(cudnnDestroyConvolutionDescriptor)       \
  X(cudnnSetConvolution2dDescriptor)         \
  X(cudnnSetConvolutionGroupCount)           \
  X(cudnnSetConvolutionMathType)             \
  X(cudnnGetConvolutionForwardAlgorithm_v7)  \
  X(cudnnFindConvolutionForwardAlgorithmEx)  \
  X(cudnnGetConvolutionForwardWorkspaceSize) \
  X(cudnnConvolutionForward)                 \
  X(cudnnCreatePoolingDescriptor)            \
  X(cudnnDestroyPoolingDescriptor)           \
  X(cudnnSetPooling2dDescriptor)             \
  X(cudnnPoolingForward)

namespace sluice {

class CudaLibraries {
 public:
  // The process's libraries, loaded on the first call. FAILED_PRECONDITION naming each
  // library that could not be opened and the loader's reason, or the first missing function.
  static absl::StatusOr<const CudaLibraries*> Get();

#define SLUICE_DECLARE_CUDA_FUNCTION(name) decltype(&::name) name = nullptr;
  SLUICE_CUBLAS_FUNCTIONS(SLUICE_DECLARE_CUDA_FUNCTION)
  SLUICE_CUBLASLT_FUNCTIONS(SLUICE_DECLARE_CUDA_FUNCTION)
  SLUICE_CUDNN_FUNCTIONS(SLUICE_DECLARE_CUDA_FUNCTION)
#undef SLUICE_DECLARE_CUDA_FUNCTION

  // C++ overloads these two (an inline wrapper taking the old cudaDataType compute type), so
  // their types are spelled out: the library's own functions.
  using GemmExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                      int, int, const void*, const void*, cudaDataType, int,
                                      const void*, cudaDataType, int, const void*, void*,
                                      cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  using GemmStridedBatchedExFn = cublasStatus_t (*)(
      cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*,
      cudaDataType, int, long long int, const void*, cudaDataType, int, long long int, const void*,
      void*, cudaDataType, int, long long int, int, cublasComputeType_t, cublasGemmAlgo_t);
  GemmExFn cublasGemmEx = nullptr;
  GemmStridedBatchedExFn cublasGemmStridedBatchedEx = nullptr;

 private:
  CudaLibraries() = default;
  static absl::StatusOr<const CudaLibraries*> Load();
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_GPU_CUDA_LIBRARIES_H_
