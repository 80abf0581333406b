// BiasAddGrad on the CPU: the sum of out_backprop over every dim but the channel dim (the last
// for data_format NHWC, dim 1 for NCHW), for any rank >= 2.
//
// The sums are TensorFlow's, in its order, for inputs it reduces in one block (up to about
// 2000 elements; larger ones it splits by its thread count, which no other machine can
// repeat, so they agree to rounding):
//  - NHWC, as [rows, channels]: each channel's column summed row by row from 0, in float for
//    half and in T otherwise; a single row is copied.
//  - NCHW, as [batch, channels, inner]: each row of `inner` elements summed in T the way
//    Eigen's vectorised full reduction sums it (EigenRowSum), then the batch's row sums
//    added from 0 (in float for half); a [1, C, 1...] input is copied.
// Integers wrap; their sums do not depend on order or signedness, so they are computed once
// per element size.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/gradients/eigen_row_sum.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace gradients {
namespace {

// TensorFlow's CPU kernel accumulates half in float and every other type in itself.
template <typename T>
using Accumulator = std::conditional_t<std::is_same_v<T, Eigen::half>, float, T>;

// out[c] = sum over r of x[r * cols + c], from 0 in Accumulator<T>.
template <typename T>
void SumColumns(OpKernelContext* ctx, const T* x, int64_t rows, int64_t cols, T* out) {
  using Acc = Accumulator<T>;
  const Eigen::TensorOpCost cost(rows * sizeof(T), sizeof(T), rows);
  ParallelFor(ctx, cols, rows * cols, cost, [&](int64_t first, int64_t last) {
    constexpr int64_t kChunk = 128;  // columns summed together, for contiguous reads
    Acc acc[kChunk];
    for (int64_t c0 = first; c0 < last; c0 += kChunk) {
      const int64_t width = std::min(kChunk, last - c0);
      std::fill(acc, acc + width, Acc(0));
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * cols + c0;
        for (int64_t k = 0; k < width; ++k) acc[k] = WrappingAdd(acc[k], static_cast<Acc>(row[k]));
      }
      for (int64_t k = 0; k < width; ++k) out[c0 + k] = static_cast<T>(acc[k]);
    }
  });
}

// out[c] = sum over b of EigenRowSum(x[b, c, :]), from 0 in Accumulator<T>.
template <typename T>
void SumMiddle(OpKernelContext* ctx, const T* x, int64_t batch, int64_t channels, int64_t inner,
               T* out) {
  using Acc = Accumulator<T>;
  const Eigen::TensorOpCost cost(batch * inner * sizeof(T), sizeof(T), batch * inner);
  ParallelFor(ctx, channels, batch * channels * inner, cost, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) {
      Acc acc(0);
      for (int64_t b = 0; b < batch; ++b) {
        const T row = EigenRowSum(x + (b * channels + c) * inner, inner);
        acc = WrappingAdd(acc, static_cast<Acc>(row));
      }
      out[c] = static_cast<T>(acc);
    }
  });
}

// Integers as the unsigned type of their size: the same bits, one instantiation per size.
template <typename T, bool = std::is_integral_v<T>>
struct StorageOf {
  using type = T;
};
template <typename T>
struct StorageOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <typename T>
using Storage = typename StorageOf<T>::type;

template <typename T>
class BiasAddGradOp : public OpKernel {
 public:
  explicit BiasAddGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format = "NHWC";
    if (ctx->HasAttr("data_format")) OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, format == "NHWC" || format == "NCHW",
                errors::InvalidArgument("Invalid data format"));
    nchw_ = format == "NCHW";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    OP_REQUIRES(
        ctx, grad.dims() >= 2,
        errors::InvalidArgument("Input tensor must be at least 2D: ", grad.shape().DebugString()));
    OP_REQUIRES(ctx, grad.NumElements() <= std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument("BiasGrad requires tensor size <= int32 max"));
    const int channel_dim = nchw_ ? 1 : grad.dims() - 1;
    const int64_t channels = grad.dim_size(channel_dim);
    Tensor* out = nullptr;
    // shape-safe: a dim of the input
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({channels}), &out));
    const int64_t n = grad.NumElements();
    using S = Storage<T>;
    S* dst = static_cast<S*>(out->raw_data());
    if (n == 0) {
      std::fill(dst, dst + channels, S(0));
      return;
    }
    const S* src = static_cast<const S*>(grad.raw_data());
    if (!nchw_) {
      const int64_t rows = n / channels;
      if (rows == 1) {
        std::copy(src, src + channels, dst);
      } else {
        SumColumns(ctx, src, rows, channels, dst);
      }
      return;
    }
    const int64_t batch = grad.dim_size(0);
    const int64_t inner = n / (batch * channels);
    if (batch * inner == 1) {
      std::copy(src, src + channels, dst);
    } else {
      SumMiddle(ctx, src, batch, channels, inner, dst);
    }
  }

 private:
  bool nchw_ = false;
};

#define REGISTER_BIAS_ADD_GRAD(T)                                                        \
  REGISTER_KERNEL_BUILDER(Name("BiasAddGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          BiasAddGradOp<Storage<T>>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_BIAS_ADD_GRAD)
#undef REGISTER_BIAS_ADD_GRAD

}  // namespace
}  // namespace gradients
}  // namespace sluice
