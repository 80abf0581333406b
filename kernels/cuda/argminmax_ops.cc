// ArgMax and ArgMin on GPUs for float, half and bfloat16 with an int64 output (TensorFlow's
// default output_type; an int32 output stays on the CPU, which keeps int32 in host memory):
// the CPU kernel's checks (MakeArgReduction) and semantics (argminmax_ops.cu).
#include <cstdint>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/reduction_launch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

template <bool kMax>
class GpuArgOp : public OpKernel {
 public:
  explicit GpuArgOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
  }

  void Compute(OpKernelContext* ctx) override {
    ArgReduction arg;
    OP_REQUIRES_OK(ctx, MakeArgReduction(ctx->input(0), ctx->input(1), &arg));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, arg.output_shape, &output));
    if (output->NumElements() == 0) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchArgReduce(kMax, type_, ctx->input(0).raw_data(), arg.pass.outer, arg.pass.reduced,
                        arg.pass.inner, output->flat<int64_t>().data(), stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  ElementType type_ = ElementType::kFloat;
};

REGISTER_KERNEL_BUILDER(Name("ArgMax")
                            .Device(DEVICE_GPU)
                            .HostMemory("dimension")
                            .TypeConstraint("T", FloatTypes())
                            .TypeConstraint<int64_t>("output_type"),
                        GpuArgOp<true>);
REGISTER_KERNEL_BUILDER(Name("ArgMin")
                            .Device(DEVICE_GPU)
                            .HostMemory("dimension")
                            .TypeConstraint("T", FloatTypes())
                            .TypeConstraint<int64_t>("output_type"),
                        GpuArgOp<false>);

}  // namespace
}  // namespace cuda
}  // namespace sluice
