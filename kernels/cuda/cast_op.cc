// Cast on GPUs between bool, int32, int64, half, bfloat16, float and double, converting as
// Sluice's CPU Cast does (the rules are in cast_op.cu), Truncate included. As on the CPU, a
// cast to the same type forwards its input.
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

class GpuCastOp : public OpKernel {
 public:
  explicit GpuCastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    DataType src = DT_INVALID;
    DataType dst = DT_INVALID;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("SrcT", &src));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("DstT", &dst));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("Truncate", &truncate_));
    forward_ = src == dst;
    if (forward_) return;
    OP_REQUIRES_OK(ctx, ToElementType(src, &src_));
    OP_REQUIRES_OK(ctx, ToElementType(dst, &dst_));
    OP_REQUIRES(ctx, CastSupported(src_, dst_),
                errors::Unimplemented("Cast ", DataTypeString(src), " to ", DataTypeString(dst),
                                      " is not supported"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    if (forward_) {
      ctx->set_output(0, x);
      return;
    }
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    if (x.NumElements() == 0) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchCast(src_, dst_, truncate_, x.raw_data(), y->raw_data(), x.NumElements(), stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  // Constant after construction.
  bool forward_ = false;
  bool truncate_ = false;
  ElementType src_ = ElementType::kFloat;
  ElementType dst_ = ElementType::kFloat;
};

REGISTER_KERNEL_BUILDER(Name("Cast")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("SrcT", CastTypes())
                            .TypeConstraint("DstT", CastTypes()),
                        GpuCastOp);

}  // namespace
}  // namespace cuda
}  // namespace sluice
