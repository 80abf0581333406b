// BiasAdd on the CPU: value + bias along the channel dim, which is the last dim for
// data_format NHWC and dim 1 for NCHW, for any rank >= 2 (TensorFlow's rules and messages).
// The bias is viewed as [C] (NHWC) or [C, 1, ..., 1] (NCHW) and added with BinaryOp's
// broadcasting rows (binary_op.h), so each row is a contiguous run of one channel or of
// all channels. The output takes value's buffer when unshared; integers wrap. BiasAddV1, the
// first version, has no data_format attr and is this kernel with NHWC.
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/cwise/bias_add_args.h"
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "kernels/cpu/cwise/cwise_functors.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class BiasAddOp : public OpKernel {
 public:
  explicit BiasAddOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseBiasAddFormat(ctx, &nchw_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(0);
    const Tensor& bias = ctx->input(1);
    int channel_dim = 0;
    OP_REQUIRES_OK(ctx, CheckBiasAddArgs(value, bias, nchw_, &channel_dim));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, value.shape(), &out));
    const int64_t n = value.NumElements();
    if (n == 0) return;

    // heap-ok: one per dim of the value (rank <= 254)
    absl::InlinedVector<int64_t, 6> bias_dims(value.dims() - channel_dim, 1);
    bias_dims[0] = bias.dim_size(0);
    TensorShape bias_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(bias_dims, &bias_shape));
    BroadcastPlan plan;
    const TensorShape* shapes[] = {&value.shape(), &bias_shape};
    OP_REQUIRES(ctx, MakeBroadcastPlan(shapes, &plan),
                errors::Internal("BiasAdd shapes do not broadcast"));
    using F = cwise::AddFunctor<T>;
    const T* vp = value.flat<T>().data();
    const T* bp = bias.flat<T>().data();
    T* op = out->flat<T>().data();
    const Eigen::TensorOpCost row_cost(2.0 * sizeof(T) * plan.inner(),
                                       1.0 * sizeof(T) * plan.inner(), 1.0 * plan.inner());
    ParallelFor(ctx, plan.rows(), n, row_cost,
                [&](int64_t first, int64_t last) { BinaryRows<F>(plan, vp, bp, op, first, last); });
  }

 private:
  bool nchw_ = false;
};

#define REGISTER_BIAS_ADD(T)                                                           \
  REGISTER_KERNEL_BUILDER(Name("BiasAdd").Device(DEVICE_CPU).TypeConstraint<T>("T"),   \
                          BiasAddOp<T>);                                               \
  REGISTER_KERNEL_BUILDER(Name("BiasAddV1").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          BiasAddOp<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_BIAS_ADD)
#undef REGISTER_BIAS_ADD

}  // namespace
}  // namespace sluice
