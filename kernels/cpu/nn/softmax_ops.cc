// Softmax and LogSoftmax on the CPU, over the last axis of a tensor of rank >= 1
// (TensorFlow's semantics).
//
// Numerically stable: each row is shifted by its maximum before exponentiating, so large
// logits do not overflow. half and bfloat16 compute in float, float in float, double in
// double. A row holding NaN, or +inf, or only -inf, comes out all NaN, as in TensorFlow's
// Eigen kernel.
//
// Algorithm: float Softmax of finite logits runs oneDNN's softmax primitive over
// [rows, cols] (AVX-512 where the CPU has it; a primitive per shape, the last few cached),
// which computes the same stable form. oneDNN does not give TensorFlow's all-NaN rows for
// NaN or infinite logits, so a tensor holding any goes, like other dtypes, LogSoftmax and
// any shape oneDNN refuses, to the loop: rows split over the intra-op pool; per row, the
// max, then the shifted values in a per-task accumulator buffer, exponentiated with
// Eigen's vectorized exp, then the normalisation. The output reuses the input's buffer
// when it is not shared.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
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

// Whether no value is NaN or infinite (their exponent bits are all ones). One pass that the
// compiler vectorizes.
bool AllFinite(const float* x, int64_t n) {
  constexpr uint32_t kExponent = 0x7f800000u;
  uint32_t largest = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, x + i, sizeof(bits));
    largest = std::max(largest, bits & kExponent);
  }
  return largest != kExponent;
}

// float softmax over the last axis of [rows, cols] on oneDNN.
class OneDnnSoftmax {
 public:
  // REQUIRES: rows > 0 and cols > 0. `out` may be `in`.
  absl::Status Run(OpKernelContext* ctx, int64_t rows, int64_t cols, const float* in, float* out) {
    std::shared_ptr<const Primitive> p;
    RETURN_IF_ERROR(cache_.Get(
        std::make_pair(rows, cols),
        [&](std::shared_ptr<const Primitive>* made) { return Create(rows, cols, made); }, &p));
    return RunSrcDstPrimitive(ctx, "softmax", p->primitive, p->pd, in, out);
  }

 private:
  struct Primitive {
    dnnl::softmax_forward::primitive_desc pd;
    dnnl::softmax_forward primitive;
  };

  static absl::Status Create(int64_t rows, int64_t cols, std::shared_ptr<const Primitive>* out) {
    auto p = std::make_shared<Primitive>();
    RETURN_IF_ERROR(OneDnnCall("softmax creation", [&] {
      const dnnl::memory::desc md({rows, cols}, dnnl::memory::data_type::f32,
                                  dnnl::memory::format_tag::ab);
      p->pd = dnnl::softmax_forward::primitive_desc(
          dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, md, /*axis=*/1),
          ScratchpadAttr(), OneDnnEngine());
      p->primitive = dnnl::softmax_forward(p->pd);
    }));
    *out = std::move(p);
    return absl::OkStatus();
  }

  OneDnnShapeCache<std::pair<int64_t, int64_t>, Primitive> cache_;
};

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
    if constexpr (std::is_same_v<T, float> && !kLog) {
      // Should oneDNN refuse a shape, the loop below computes it.
      if (AllFinite(in, n) && onednn_.Run(ctx, n / cols, cols, in, out).ok()) return;
    }
    const double c = static_cast<double>(cols);
    const Eigen::TensorOpCost row_cost(c * sizeof(T), c * sizeof(T), c * 20);
    ParallelFor(ctx, n / cols, n, row_cost, [&](int64_t first, int64_t last) {
      SoftmaxRows<T, kLog>(in, out, cols, first, last);
    });
  }

 private:
  OneDnnSoftmax onednn_;
};

#define REGISTER_SOFTMAX(T)                                                             \
  REGISTER_KERNEL_BUILDER(Name("Softmax").Device(DEVICE_CPU).TypeConstraint<T>("T"),    \
                          SoftmaxOp<T, false>);                                         \
  REGISTER_KERNEL_BUILDER(Name("LogSoftmax").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SoftmaxOp<T, true>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_SOFTMAX)
#undef REGISTER_SOFTMAX

}  // namespace
}  // namespace sluice
