// Statuses from CUDA, cuBLAS and cuDNN results.
//
// Each names the library's error (cudaErrorMemoryAllocation, CUBLAS_STATUS_NOT_SUPPORTED,
// CUDNN_STATUS_BAD_PARAM) after `what` (the call or the step that failed), with TensorFlow's
// error codes: running out of device memory is RESOURCE_EXHAUSTED, an argument the library
// rejects INVALID_ARGUMENT, a missing or too old driver FAILED_PRECONDITION, anything else
// INTERNAL. Kernels attach their node as for any other error (OP_REQUIRES_OK).
#ifndef SLUICE_RUNTIME_FRAMEWORK_GPU_CUDA_STATUS_H_
#define SLUICE_RUNTIME_FRAMEWORK_GPU_CUDA_STATUS_H_

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cudnn_graph.h>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sluice {

class CudaLibraries;

absl::Status CudaStatus(cudaError_t error, absl::string_view what);
absl::Status CublasStatus(const CudaLibraries& libs, cublasStatus_t status, absl::string_view what);
absl::Status CudnnStatus(const CudaLibraries& libs, cudnnStatus_t status, absl::string_view what);

// The error of the last kernel launch on this thread (cudaGetLastError), as CudaStatus: call
// after every <<<...>>> launch, which reports errors no other way.
absl::Status LastLaunchStatus(absl::string_view kernel_name);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_GPU_CUDA_STATUS_H_
