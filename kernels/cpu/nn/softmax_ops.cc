// Softmax and LogSoftmax on the CPU, over the last axis of a tensor of rank >= 1
// (TensorFlow's semantics).
//
// Numerically stable: each row is shifted by its maximum before exponentiating, so large
// logits do not overflow. half and bfloat16 compute in float, float in float, double in
// double. A row holding NaN, or +inf, or only -inf, comes out all NaN, as in TensorFlow's
// Eigen kernel.
//
// Algorithm: rows split over the intra-op pool; per row, the max, then the shifted values
// in a per-task accumulator buffer, exponentiated with Eigen's vectorized exp, then the
// normalisation. The output reuses the input's buffer when it is not shared.
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "graph/errors.h"
#include "graph/tensor.h"
#include "graph/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

template <typename T>
using AccumulatorOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T, bool kLog>
void SoftmaxRows(const T* in, T* out, int64_t cols, int64_t first_row, int64_t last_row) {
  using Acc = AccumulatorOf<T>;
  using Array = Eigen::Array<Acc, Eigen::Dynamic, 1>;
  Array shifted(cols);
  for (int64_t row = first_row; row < last_row; ++row) {
    const T* x = in + row * cols;
    T* y = out + row * cols;
    // NaN never becomes the max but still poisons the sum below, as in TensorFlow.
    Acc max = static_cast<Acc>(x[0]);
    for (int64_t c = 1; c < cols; ++c) {
      const Acc v = static_cast<Acc>(x[c]);
      max = v > max ? v : max;
    }
    for (int64_t c = 0; c < cols; ++c) shifted[c] = static_cast<Acc>(x[c]) - max;
    if (kLog) {
      const Acc log_sum = std::log(shifted.exp().sum());
      for (int64_t c = 0; c < cols; ++c) y[c] = static_cast<T>(shifted[c] - log_sum);
    } else {
      shifted = shifted.exp();
      const Acc inv_sum = Acc(1) / shifted.sum();
      for (int64_t c = 0; c < cols; ++c) y[c] = static_cast<T>(shifted[c] * inv_sum);
    }
  }
}

template <typename T, bool kLog>
class SoftmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

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
    const T* in = logits.flat<T>().data();
    T* out = output->flat<T>().data();
    const double c = static_cast<double>(cols);
    const Eigen::TensorOpCost row_cost(c * sizeof(T), c * sizeof(T), c * 20);
    ParallelFor(ctx, n / cols, n, row_cost, [&](int64_t first, int64_t last) {
      SoftmaxRows<T, kLog>(in, out, cols, first, last);
    });
  }
};

#define REGISTER_SOFTMAX(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("Softmax").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SoftmaxOp<T, false>);                                      \
  REGISTER_KERNEL_BUILDER(Name("LogSoftmax").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SoftmaxOp<T, true>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_SOFTMAX)
#undef REGISTER_SOFTMAX

}  // namespace
}  // namespace sluice
