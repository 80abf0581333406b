#include "runtime/framework/gpu/cuda_status.h"

#include "gtest/gtest.h"
#include "runtime/framework/gpu/cuda_libraries.h"

namespace sluice {
namespace {

TEST(CudaStatusTest, SuccessIsOk) { EXPECT_TRUE(CudaStatus(cudaSuccess, "cudaMalloc").ok()); }

TEST(CudaStatusTest, OutOfMemoryIsResourceExhaustedAndNamesTheError) {
  const absl::Status status = CudaStatus(cudaErrorMemoryAllocation, "cudaMalloc of 64 bytes");
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(status.message(),
            "cudaMalloc of 64 bytes failed: cudaErrorMemoryAllocation (out of memory)");
}

TEST(CudaStatusTest, NoDriverIsFailedPrecondition) {
  EXPECT_EQ(CudaStatus(cudaErrorInsufficientDriver, "cudaGetDeviceCount").code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(CudaStatus(cudaErrorNoDevice, "cudaGetDeviceCount").code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(CudaStatusTest, OtherErrorsAreInternal) {
  const absl::Status status = CudaStatus(cudaErrorLaunchFailure, "Launching Relu");
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_NE(status.message().find("cudaErrorLaunchFailure"), absl::string_view::npos);
}

// The libraries are in the image's toolkit; where they load, their error names come through.
TEST(CudaStatusTest, LibraryErrorsAreNamed) {
  absl::StatusOr<const CudaLibraries*> libs = CudaLibraries::Get();
  if (!libs.ok()) GTEST_SKIP() << libs.status();
  const absl::Status cublas =
      CublasStatus(**libs, CUBLAS_STATUS_NOT_SUPPORTED, "cublasGemmEx for MatMul");
  EXPECT_EQ(cublas.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(cublas.message(), "cublasGemmEx for MatMul failed: CUBLAS_STATUS_NOT_SUPPORTED");
  const absl::Status cudnn =
      CudnnStatus(**libs, CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED, "cudnnCreate");
  EXPECT_EQ(cudnn.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(cudnn.message().find("CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED"),
            absl::string_view::npos);
  EXPECT_GT((*libs)->cudnnGetVersion(), 90000u);
}

}  // namespace
}  // namespace sluice
