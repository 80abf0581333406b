// FractionalAvgPool on the CPU: the mean of each window of fractional_pool_args.h's rows and
// columns, per image and channel, with the row and column boundaries as outputs 1 and 2.
//
// As TensorFlow's kernel, a window's elements are summed in T, row by row, and the sum is
// divided by their count in T: the integer dtypes truncate (and wrap around on overflow, as
// TensorFlow's arithmetic does in practice). A window left empty divides by zero: NaN for the
// floating-point dtypes, as in TensorFlow; for the integers, where TensorFlow's division
// would trap, Sluice gives 0. float, double, int32 and int64, the dtypes TensorFlow registers.
#include <cstdint>
#include <limits>

#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/fractional_pool_args.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

template <typename T>
T DivideByCount(T sum, T count) {
  if constexpr (std::numeric_limits<T>::is_integer) {
    if (count == 0) return T(0);
  }
  return sum / count;
}

template <typename T>
class FractionalAvgPoolOp : public OpKernel {
 public:
  explicit FractionalAvgPoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, args_.Init(ctx, "average"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    FractionalPoolWindows w;
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, args_.Prepare(ctx, input, &w, &output));
    const T* in = input.flat<T>().data();
    T* out = output->flat<T>().data();
    const int64_t depth = w.depth;
    // One unit per output row of one image: no two units write the same output.
    const int64_t units = w.batch * w.out_rows;
    const Eigen::TensorOpCost cost(0, 0, static_cast<double>(w.in_cols * depth * 4));
    ParallelFor(ctx, units, output->NumElements(), cost, [&](int64_t first, int64_t last) {
      for (int64_t unit = first; unit < last; ++unit) {
        const int64_t b = unit / w.out_rows;
        const int64_t r = unit % w.out_rows;
        int64_t r0, r1;
        FractionalWindow(w.rows, r, w.overlapping, w.in_rows, &r0, &r1);
        for (int64_t c = 0; c < w.out_cols; ++c) {
          int64_t c0, c1;
          FractionalWindow(w.cols, c, w.overlapping, w.in_cols, &c0, &c1);
          T* o = out + (unit * w.out_cols + c) * depth;
          for (int64_t d = 0; d < depth; ++d) o[d] = T(0);
          T count(0);
          for (int64_t h = r0; h <= r1; ++h) {
            for (int64_t x = c0; x <= c1; ++x) {
              const T* i = in + ((b * w.in_rows + h) * w.in_cols + x) * depth;
              for (int64_t d = 0; d < depth; ++d) o[d] = WrappingAdd(o[d], i[d]);
              count = WrappingAdd(count, T(1));
            }
          }
          for (int64_t d = 0; d < depth; ++d) o[d] = DivideByCount(o[d], count);
        }
      }
    });
  }

 private:
  FractionalPoolArgs args_;
};

#define REGISTER_CPU(T)                                                                        \
  REGISTER_KERNEL_BUILDER(Name("FractionalAvgPool").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          FractionalAvgPoolOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
