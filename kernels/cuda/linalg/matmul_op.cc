// MatMul, BatchMatMul and BatchMatMulV2 on a GPU, through cuBLAS: out = op(x) * op(y) per
// batch entry, float32, float16 and bfloat16 (accumulated in float32) and float64.
//
// Validation and the batch plan are the CPU kernel's (kernels/cpu/linalg/matmul_plan.h), so
// errors match it and TensorFlow. cuBLAS is column-major: a row-major matrix is its own
// transpose there, so the row-major product out = X * Y is computed as out^T = Y^T * X^T with
// the operands swapped and no copy. The merged batch dims run as strided batched products
// over the innermost merged dim (a broadcast operand has stride 0), looping over the outer
// ones. float32 uses TF32 only when the session allows it (the handle's math mode, set by the
// device). K == 0 gives zeros; an empty output launches nothing. Sizes past cuBLAS's 32-bit
// arguments are INVALID_ARGUMENT.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "runtime/framework/gpu/cuda_libraries.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

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

template <typename T>
class GpuMatMulOp : public OpKernel {
 public:
  GpuMatMulOp(OpKernelConstruction* ctx, Flavor flavor) : OpKernel(ctx), flavor_(flavor) {
    const char* adj_x = flavor == Flavor::kMatMul ? "transpose_a" : "adj_x";
    const char* adj_y = flavor == Flavor::kMatMul ? "transpose_b" : "adj_y";
    OP_REQUIRES_OK(ctx, ctx->GetAttr(adj_x, &adj_x_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr(adj_y, &adj_y_));
  }

  void Compute(OpKernelContext* ctx) override {
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES_OK(ctx, Validate(flavor_, x.shape(), y.shape()));
    MatMulPlan plan;
    OP_REQUIRES_OK(ctx, MakePlan(flavor_, x.shape(), y.shape(), adj_x_, adj_y_, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.out_shape, &out));
    if (out->NumElements() == 0) return;
    auto* stream = reinterpret_cast<cudaStream_t>(gpu->compute_stream());
    if (plan.k == 0) {
      OP_REQUIRES_OK(ctx, CudaStatus(cudaMemsetAsync(out->raw_data(), 0,
                                                     out->NumElements() * sizeof(T), stream),
                                     "cudaMemsetAsync"));
      return;
    }
    OP_REQUIRES(
        ctx, FitsInt(plan.m) && FitsInt(plan.n) && FitsInt(plan.k),
        errors::InvalidArgument("MatMul on a GPU: a matrix of ", plan.m, " x ", plan.k, " by ",
                                plan.k, " x ", plan.n, " is past cuBLAS's 32-bit sizes"));
    OP_REQUIRES_OK(ctx, RunProducts(*gpu, plan, x.base<T>(), y.base<T>(), out->base<T>()));
  }

 private:
  absl::Status RunProducts(GpuDeviceContext& gpu, const MatMulPlan& p, const T* x, const T* y,
                           T* out) const {
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
        status = libs.cublasGemmEx(gpu.cublas_handle(), op_a, op_b, n, m, k, &alpha, yo,
                                   Types::kData, lda, xo, Types::kData, ldb, &beta, outo,
                                   Types::kData, n, Types::kCompute, CUBLAS_GEMM_DEFAULT);
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

  const Flavor flavor_;
  bool adj_x_ = false;
  bool adj_y_ = false;
};

template <typename T, Flavor kFlavor>
class FlavoredGpuMatMulOp : public GpuMatMulOp<T> {
 public:
  explicit FlavoredGpuMatMulOp(OpKernelConstruction* ctx) : GpuMatMulOp<T>(ctx, kFlavor) {}
};

#define REGISTER_GPU_MATMUL(T)                                                             \
  REGISTER_KERNEL_BUILDER(Name("MatMul").Device(DEVICE_GPU).TypeConstraint<T>("T"),        \
                          FlavoredGpuMatMulOp<T, Flavor::kMatMul>);                        \
  REGISTER_KERNEL_BUILDER(Name("BatchMatMul").Device(DEVICE_GPU).TypeConstraint<T>("T"),   \
                          FlavoredGpuMatMulOp<T, Flavor::kBatchMatMul>);                   \
  REGISTER_KERNEL_BUILDER(Name("BatchMatMulV2").Device(DEVICE_GPU).TypeConstraint<T>("T"), \
                          FlavoredGpuMatMulOp<T, Flavor::kBatchMatMulV2>);
REGISTER_GPU_MATMUL(float)
REGISTER_GPU_MATMUL(half)
REGISTER_GPU_MATMUL(bfloat16)
REGISTER_GPU_MATMUL(double)
#undef REGISTER_GPU_MATMUL

}  // namespace
}  // namespace sluice
