// EnqueueGemm: the products of a MatMulPlan through cuBLAS, on the compute stream.
#include "kernels/cuda/linalg/gemm.h"

#include <limits>

#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "runtime/framework/gpu/cuda_libraries.h"
#include "runtime/framework/gpu/cuda_status.h"

namespace sluice {
namespace {

template <typename T>
struct CublasTypes;
template <>
struct CublasTypes<float> {
  static constexpr cudaDataType_t kData = CUDA_R_32F;
  static constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
  using Scale = float;
};
template <>
struct CublasTypes<half> {
  static constexpr cudaDataType_t kData = CUDA_R_16F;
  static constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
  using Scale = float;
};
template <>
struct CublasTypes<bfloat16> {
  static constexpr cudaDataType_t kData = CUDA_R_16BF;
  static constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
  using Scale = float;
};
template <>
struct CublasTypes<double> {
  static constexpr cudaDataType_t kData = CUDA_R_64F;
  static constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_64F;
  using Scale = double;
};

bool FitsInt(int64_t v) { return v <= std::numeric_limits<int>::max(); }

}  // namespace

template <typename T>
absl::Status EnqueueGemm(GpuDeviceContext& gpu, const MatMulPlan& p, const T* x, const T* y,
                         T* out) {
  if (!FitsInt(p.m) || !FitsInt(p.n) || !FitsInt(p.k)) {
    return errors::InvalidArgument("MatMul on a GPU: a matrix of ", p.m, " x ", p.k, " by ", p.k,
                                   " x ", p.n, " is past cuBLAS's 32-bit sizes");
  }
  using Types = CublasTypes<T>;
  const typename Types::Scale alpha = 1, beta = 0;
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
  const int lda = p.adj_y ? k : n;
  const int ldb = p.adj_x ? m : k;
  const cublasOperation_t op_a = p.adj_y ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = p.adj_x ? CUBLAS_OP_T : CUBLAS_OP_N;
  const CudaLibraries& libs = gpu.libraries();
  const size_t nb = p.batch.size();
  // The innermost merged dim is one strided batched call; the outer ones are looped over.
  const int64_t inner = nb == 0 ? 1 : p.batch[nb - 1];
  const long long stride_x = nb > 0 && p.x_batch[nb - 1] != 1 ? p.m * p.k : 0;
  const long long stride_y = nb > 0 && p.y_batch[nb - 1] != 1 ? p.k * p.n : 0;
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < nb; ++d) outer *= p.batch[d];
  const int64_t x_inner = nb > 0 ? p.x_batch[nb - 1] : 1;
  const int64_t y_inner = nb > 0 ? p.y_batch[nb - 1] : 1;
  for (int64_t o = 0; o < outer; ++o) {
    // The outer index's offsets in x's and y's own (broadcast) batch dims.
    int64_t x_off = 0, y_off = 0, x_step = 1, y_step = 1;
    for (int64_t d = static_cast<int64_t>(nb) - 2, rest = o; d >= 0; --d) {
      const int64_t idx = rest % p.batch[d];
      rest /= p.batch[d];
      if (p.x_batch[d] != 1) x_off += idx * x_step;
      if (p.y_batch[d] != 1) y_off += idx * y_step;
      x_step *= p.x_batch[d];
      y_step *= p.y_batch[d];
    }
    const T* xo = x + x_off * x_inner * p.m * p.k;
    const T* yo = y + y_off * y_inner * p.k * p.n;
    T* outo = out + o * inner * p.m * p.n;
    cublasStatus_t status;
    if (inner == 1) {
      status = libs.cublasGemmEx(gpu.cublas_handle(), op_a, op_b, n, m, k, &alpha, yo, Types::kData,
                                 lda, xo, Types::kData, ldb, &beta, outo, Types::kData, n,
                                 Types::kCompute, CUBLAS_GEMM_DEFAULT);
    } else {
      if (!FitsInt(inner)) {
        return errors::InvalidArgument("MatMul on a GPU: ", inner,
                                       " products in one batch is past cuBLAS's 32-bit sizes");
      }
      status = libs.cublasGemmStridedBatchedEx(
          gpu.cublas_handle(), op_a, op_b, n, m, k, &alpha, yo, Types::kData, lda, stride_y, xo,
          Types::kData, ldb, stride_x, &beta, outo, Types::kData, n,
          static_cast<long long>(p.m) * p.n, static_cast<int>(inner), Types::kCompute,
          CUBLAS_GEMM_DEFAULT);
    }
    RETURN_IF_ERROR(CublasStatus(libs, status, "cublasGemmEx"));
  }
  return absl::OkStatus();
}

template absl::Status EnqueueGemm<float>(GpuDeviceContext&, const MatMulPlan&, const float*,
                                         const float*, float*);
template absl::Status EnqueueGemm<half>(GpuDeviceContext&, const MatMulPlan&, const half*,
                                        const half*, half*);
template absl::Status EnqueueGemm<bfloat16>(GpuDeviceContext&, const MatMulPlan&, const bfloat16*,
                                            const bfloat16*, bfloat16*);
template absl::Status EnqueueGemm<double>(GpuDeviceContext&, const MatMulPlan&, const double*,
                                          const double*, double*);

}  // namespace sluice
