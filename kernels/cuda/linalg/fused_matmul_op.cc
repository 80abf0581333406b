// _FusedMatMul on a GPU: the product through cuBLAS (gemm.h), then the bias and activation in
// one pass over it (fused_epilogue.cu), float32, float16, bfloat16 and float64.
//
// The fused_ops it takes and its errors are the CPU kernel's (kernels/cpu/linalg/fused_args.h:
// ParseFusion, CheckFusionArgs), so the remapper's fusions run on either device: BiasAdd,
// optionally followed by Relu, Relu6, Elu, LeakyRelu, _FusedSwish, Tanh, Sigmoid or a Gelu.
// K == 0 gives the epilogue of zeros; an empty output launches nothing.
#include <cuda_runtime_api.h>

#include <string>
#include <type_traits>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/fused_args.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "kernels/cuda/linalg/fused_activation.h"
#include "kernels/cuda/linalg/fused_epilogue_launch.h"
#include "kernels/cuda/linalg/gemm.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

static_assert(gpu_fused::kRelu == static_cast<int>(FusedActivation::kRelu) &&
                  gpu_fused::kSwish == static_cast<int>(FusedActivation::kSwish) &&
                  gpu_fused::kGeluExact == static_cast<int>(FusedActivation::kGeluExact),
              "gpu_fused::Activation must follow FusedActivation");

template <typename T>
constexpr gpu_fused::ElementType kElementType =
    std::is_same_v<T, float>    ? gpu_fused::ElementType::kFloat
    : std::is_same_v<T, half>   ? gpu_fused::ElementType::kHalf
    : std::is_same_v<T, double> ? gpu_fused::ElementType::kDouble
                                : gpu_fused::ElementType::kBfloat16;

template <typename T>
class GpuFusedMatMulOp : public OpKernel {
 public:
  explicit GpuFusedMatMulOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_a", &ta_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("transpose_b", &tb_));
    std::vector<std::string> fused_ops;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fused_ops", &fused_ops));
    OP_REQUIRES(ctx, fused_ops.size() <= 2,
                errors::InvalidArgument("_FusedMatMul must have 2 post-arguments at most."));
    OP_REQUIRES(ctx, fused_ops.empty() || fused_ops[0] == "BiasAdd",
                errors::InvalidArgument("The 1st post-argument of _FusedMatMul must be BiasAdd."));
    OP_REQUIRES_OK(ctx, ParseFusion(ctx, FusedContraction::kMatMul, /*allow_gelu=*/true, &spec_));
  }

  void Compute(OpKernelContext* ctx) override {
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    const Tensor& a = ctx->input(0);
    const Tensor& b = ctx->input(1);
    OP_REQUIRES_OK(ctx, Validate(Flavor::kMatMul, a.shape(), b.shape()));
    MatMulPlan plan;
    OP_REQUIRES_OK(ctx, MakePlan(Flavor::kMatMul, a.shape(), b.shape(), ta_, tb_, &plan));
    OP_REQUIRES_OK(ctx, CheckFusionArgs(ctx, spec_, plan.n));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.out_shape, &out));
    if (out->NumElements() == 0) return;
    auto* stream = gpu->compute_stream();
    if (plan.k == 0) {
      OP_REQUIRES_OK(ctx,
                     CudaStatus(cudaMemsetAsync(out->raw_data(), 0, out->NumElements() * sizeof(T),
                                                reinterpret_cast<cudaStream_t>(stream)),
                                "cudaMemsetAsync"));
    } else {
      OP_REQUIRES_OK(ctx, EnqueueGemm<T>(*gpu, plan, a.base<T>(), b.base<T>(), out->base<T>()));
    }
    gpu_fused::LaunchBiasActivation(stream, kElementType<T>, static_cast<int>(spec_.activation),
                                    spec_.leakyrelu_alpha, out->raw_data(),
                                    ctx->input(2).raw_data(), plan.m, plan.n);
    OP_REQUIRES_OK(ctx, LastLaunchStatus("the _FusedMatMul epilogue"));
  }

 private:
  bool ta_ = false;
  bool tb_ = false;
  FusionSpec spec_;
};

#define REGISTER_GPU_FUSED_MATMUL(T)                                                      \
  REGISTER_KERNEL_BUILDER(Name("_FusedMatMul").Device(DEVICE_GPU).TypeConstraint<T>("T"), \
                          GpuFusedMatMulOp<T>);
REGISTER_GPU_FUSED_MATMUL(float)
REGISTER_GPU_FUSED_MATMUL(half)
REGISTER_GPU_FUSED_MATMUL(bfloat16)
REGISTER_GPU_FUSED_MATMUL(double)
#undef REGISTER_GPU_FUSED_MATMUL

}  // namespace
}  // namespace sluice
