// MatMul, BatchMatMul and BatchMatMulV2 on a GPU, through cuBLAS: out = op(x) * op(y) per
// batch entry, float32, float16 and bfloat16 (accumulated in float32) and float64.
//
// Validation and the batch plan are the CPU kernel's (kernels/cpu/linalg/matmul_plan.h), so
// errors match it and TensorFlow. cuBLAS is column-major: a row-major matrix is its own
// transpose there, so the row-major product out = X * Y is computed as out^T = Y^T * X^T with
// the operands swapped and no copy. The merged batch dims run as strided batched products
// over the innermost merged dim (a broadcast operand has stride 0), looping over the outer
// ones (gemm.h). K == 0 gives zeros; an empty output launches nothing.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "kernels/cuda/linalg/gemm.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

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
    OP_REQUIRES_OK(ctx, EnqueueGemm<T>(*gpu, plan, x.base<T>(), y.base<T>(), out->base<T>()));
  }

 private:
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
