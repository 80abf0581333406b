// Softmax and LogSoftmax on GPUs over the last axis of a tensor of rank >= 1, for float, half
// and bfloat16 (computed in float; see softmax_op.cu), with the CPU kernel's validation and
// message. The output takes the input's buffer when it is not shared.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/softmax_launch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

template <bool kLog>
class GpuSoftmaxOp : public OpKernel {
 public:
  explicit GpuSoftmaxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& logits = ctx->input(0);
    OP_REQUIRES(ctx, logits.dims() >= 1,
                errors::InvalidArgument("logits must have >= 1 dimension, got ",
                                        logits.shape().DebugString()));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, logits.shape(), &output));
    const int64_t n = logits.NumElements();
    if (n == 0) return;
    const int64_t cols = logits.dim_size(logits.dims() - 1);
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchSoftmax(type_, kLog, logits.raw_data(), output->raw_data(), n / cols, cols, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  ElementType type_ = ElementType::kFloat;
};

REGISTER_KERNEL_BUILDER(Name("Softmax").Device(DEVICE_GPU).TypeConstraint("T", FloatTypes()),
                        GpuSoftmaxOp<false>);
REGISTER_KERNEL_BUILDER(Name("LogSoftmax").Device(DEVICE_GPU).TypeConstraint("T", FloatTypes()),
                        GpuSoftmaxOp<true>);

}  // namespace
}  // namespace cuda
}  // namespace sluice
