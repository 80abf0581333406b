// InTopK (k an attr) and InTopKV2 (k a scalar input) on the CPU.
//
// precision[b] says whether predictions[b, targets[b]] is among the k largest of row b:
// fewer than k classes predict strictly more (ties count in the target's favour). A target
// outside [0, classes) is never in the top k, nor is any target of a row holding a NaN or an
// infinity (TensorFlow cannot say). k <= 0 gives false everywhere.
#include <cmath>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename Index>
bool TargetInTopK(const float* row, int64_t classes, Index target, int64_t k) {
  if (target < 0 || static_cast<int64_t>(target) >= classes) return false;
  const float target_prediction = row[target];
  if (!std::isfinite(target_prediction)) return false;
  int64_t more_probable = 0;
  for (int64_t c = 0; c < classes; ++c) {
    if (!std::isfinite(row[c])) return false;
    // Past k the answer is false whatever follows.
    if (row[c] > target_prediction && ++more_probable >= k) return false;
  }
  return more_probable < k;
}

template <typename Index, bool kFromInput>
class InTopKOp : public OpKernel {
 public:
  explicit InTopKOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (!kFromInput) OP_REQUIRES_OK(ctx, ctx->GetAttr("k", &k_attr_));
  }

  void Compute(OpKernelContext* ctx) override {
    int64_t k = k_attr_;
    if (kFromInput) {
      const Tensor& k_tensor = ctx->input(2);
      OP_REQUIRES(
          ctx, k_tensor.dims() == 0,
          errors::InvalidArgument("k must be 0-D, got shape ", k_tensor.shape().DebugString()));
      k = static_cast<int64_t>(k_tensor.base<Index>()[0]);
    }
    const Tensor& predictions = ctx->input(0);
    const Tensor& targets = ctx->input(1);
    OP_REQUIRES(ctx, predictions.dims() == 2,
                errors::InvalidArgument("predictions must be 2-dimensional"));
    OP_REQUIRES(ctx, targets.dims() == 1, errors::InvalidArgument("targets must be 1-dimensional"));
    OP_REQUIRES(ctx, predictions.dim_size(0) == targets.dim_size(0),
                errors::InvalidArgument("First dimension of predictions ", predictions.dim_size(0),
                                        " must match length of targets ", targets.dim_size(0)));
    const int64_t batch = predictions.dim_size(0);
    const int64_t classes = predictions.dim_size(1);
    Tensor* precision = nullptr;
    // shape-safe: the predictions' first dim
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch}), &precision));
    const float* rows = predictions.base<float>();
    const Index* target = targets.base<Index>();
    bool* out = precision->base<bool>();
    for (int64_t b = 0; b < batch; ++b) {
      out[b] = TargetInTopK(rows + b * classes, classes, target[b], k);
    }
  }

 private:
  int64_t k_attr_ = 0;
};

#define REGISTER_CPU(Index)                                                             \
  REGISTER_KERNEL_BUILDER(Name("InTopK").Device(DEVICE_CPU).TypeConstraint<Index>("T"), \
                          InTopKOp<Index, false>);                                      \
  REGISTER_KERNEL_BUILDER(                                                              \
      Name("InTopKV2").Device(DEVICE_CPU).HostMemory("k").TypeConstraint<Index>("T"),   \
      InTopKOp<Index, true>);
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
