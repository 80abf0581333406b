// MaxPoolWithArgmax on the CPU (NHWC): the max of each window and the flat index of the
// element it came from, ((y * width + x) * channels + c), or with include_batch_in_index
// (((b * height + y) * width + x) * channels + c).
//
// As in TensorFlow, a window takes its first element in row-major order, then each later
// one that is strictly greater: ties keep the earliest, and NaN only when it comes first.
// A depth window (ksize on channels) gives TensorFlow's answer, 1x1 windows over every
// channel. Inputs are checked in TensorFlow's order, with its messages.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Output rows [first, last), flattened over batch and out_rows.
template <typename T, typename Index>
void PoolRows(const PoolGeometry& g, bool include_batch, const T* input, T* output, Index* argmax,
              int64_t first, int64_t last) {
  for (int64_t row = first; row < last; ++row) {
    const int64_t b = row / g.out_rows;
    const int64_t y0 = (row % g.out_rows) * g.row_stride - g.pad_top;
    const int64_t base = include_batch ? b * g.in_rows * g.in_cols * g.depth : 0;
    const T* image = input + b * g.in_rows * g.in_cols * g.depth;
    for (int64_t x = 0; x < g.out_cols; ++x) {
      const int64_t x0 = x * g.col_stride - g.pad_left;
      T* out = output + (row * g.out_cols + x) * g.depth;
      Index* arg = argmax + (row * g.out_cols + x) * g.depth;
      for (int64_t d = 0; d < g.depth; ++d) {
        bool found = false;
        T best = T(0);
        int64_t best_index = -1;
        for (int64_t y = std::max<int64_t>(y0, 0); y < std::min(y0 + g.window_rows, g.in_rows);
             ++y) {
          for (int64_t xi = std::max<int64_t>(x0, 0); xi < std::min(x0 + g.window_cols, g.in_cols);
               ++xi) {
            const int64_t index = (y * g.in_cols + xi) * g.depth + d;
            if (!found || best < image[index]) {
              found = true;
              best = image[index];
              best_index = index;
            }
          }
        }
        // A window always holds an element of the image: VALID windows lie inside it and
        // SAME padding never fills a whole window.
        out[d] = found ? best : Eigen::NumTraits<T>::lowest();
        arg[d] = static_cast<Index>(found ? base + best_index : -1);
      }
    }
  }
}

template <typename T, typename Index>
class MaxPoolWithArgmaxOp : public OpKernel {
 public:
  explicit MaxPoolWithArgmaxOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &window_.ksize));
    OP_REQUIRES(ctx, window_.ksize.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &window_.strides));
    OP_REQUIRES(ctx, window_.strides.size() == 4,
                errors::InvalidArgument("Sliding window stride field must specify 4 dimensions"));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &window_.padding));
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("include_batch_in_index", &include_batch_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() == 4,
                errors::InvalidArgument("tensor_in must be 4-dimensional (2)"));
    OP_REQUIRES(ctx, input.NumElements() > 0,
                errors::InvalidArgument("tensor_in must not be empty (2)"));
    for (int32_t k : window_.ksize) {
      OP_REQUIRES(ctx, k > 0,
                  errors::InvalidArgument("ksize must be a positive int32 value, got:", k));
    }
    PoolGeometry g;
    OP_REQUIRES_OK(ctx, ComputePoolGeometry(input.shape(), window_, &g));
    TensorShape shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape({g.batch, g.out_rows, g.out_cols, g.depth}, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    Tensor* argmax = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, shape, &argmax));
    if (shape.num_elements() == 0) return;
    const int64_t rows = g.batch * g.out_rows;
    const double row_elements = static_cast<double>(g.out_cols) * g.depth;
    const double taps = static_cast<double>(g.window_rows) * g.window_cols;
    const Eigen::TensorOpCost row_cost(row_elements * taps * sizeof(T),
                                       row_elements * (sizeof(T) + sizeof(Index)),
                                       row_elements * taps * 2);
    const T* in = input.base<T>();
    T* out = output->base<T>();
    Index* arg = argmax->base<Index>();
    ParallelFor(ctx, rows, shape.num_elements(), row_cost, [&](int64_t first, int64_t last) {
      PoolRows<T, Index>(g, include_batch_, in, out, arg, first, last);
    });
  }

 private:
  PoolWindow window_;
  bool include_batch_ = false;
};

#define REGISTER_CPU(T)                                            \
  REGISTER_KERNEL_BUILDER(Name("MaxPoolWithArgmax")                \
                              .Device(DEVICE_CPU)                  \
                              .TypeConstraint<T>("T")              \
                              .TypeConstraint<int32_t>("Targmax"), \
                          MaxPoolWithArgmaxOp<T, int32_t>);        \
  REGISTER_KERNEL_BUILDER(Name("MaxPoolWithArgmax")                \
                              .Device(DEVICE_CPU)                  \
                              .TypeConstraint<T>("T")              \
                              .TypeConstraint<int64_t>("Targmax"), \
                          MaxPoolWithArgmaxOp<T, int64_t>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
