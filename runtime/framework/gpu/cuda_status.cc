#include "runtime/framework/gpu/cuda_status.h"

#include "absl/strings/str_cat.h"
#include "runtime/framework/gpu/cuda_libraries.h"

namespace sluice {
namespace {

absl::Status WithCode(absl::StatusCode code, absl::string_view what, absl::string_view name,
                      absl::string_view detail) {
  return absl::Status(code, absl::StrCat(what, " failed: ", name,
                                         detail.empty() ? "" : absl::StrCat(" (", detail, ")")));
}

}  // namespace

absl::Status CudaStatus(cudaError_t error, absl::string_view what) {
  if (error == cudaSuccess) return absl::OkStatus();
  absl::StatusCode code = absl::StatusCode::kInternal;
  switch (error) {
    case cudaErrorMemoryAllocation:
      code = absl::StatusCode::kResourceExhausted;
      break;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidDevice:
      code = absl::StatusCode::kInvalidArgument;
      break;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
      code = absl::StatusCode::kFailedPrecondition;
      break;
    default:
      break;
  }
  return WithCode(code, what, cudaGetErrorName(error), cudaGetErrorString(error));
}

absl::Status CublasStatus(const CudaLibraries& libs, cublasStatus_t status,
                          absl::string_view what) {
  if (status == CUBLAS_STATUS_SUCCESS) return absl::OkStatus();
  absl::StatusCode code = absl::StatusCode::kInternal;
  if (status == CUBLAS_STATUS_ALLOC_FAILED) code = absl::StatusCode::kResourceExhausted;
  if (status == CUBLAS_STATUS_INVALID_VALUE || status == CUBLAS_STATUS_NOT_SUPPORTED) {
    code = absl::StatusCode::kInvalidArgument;
  }
  return WithCode(code, what, libs.cublasGetStatusName(status), "");
}

absl::Status CudnnStatus(const CudaLibraries& libs, cudnnStatus_t status, absl::string_view what) {
  if (status == CUDNN_STATUS_SUCCESS) return absl::OkStatus();
  absl::StatusCode code = absl::StatusCode::kInternal;
  if (status == CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED ||
      status == CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED) {
    code = absl::StatusCode::kResourceExhausted;
  }
  if (status == CUDNN_STATUS_BAD_PARAM || status == CUDNN_STATUS_NOT_SUPPORTED) {
    code = absl::StatusCode::kInvalidArgument;
  }
  return WithCode(code, what, libs.cudnnGetErrorString(status), "");
}

absl::Status LastLaunchStatus(absl::string_view kernel_name) {
  return CudaStatus(cudaGetLastError(), absl::StrCat("Launching ", kernel_name));
}

}  // namespace sluice
