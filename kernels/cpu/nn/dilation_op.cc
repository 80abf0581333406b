// Dilation2D on the CPU: grayscale morphological dilation of NHWC images by a per-channel
// structuring function filter [rows, cols, depth]:
//   output[b, y, x, d] = max over (i, j) of input[b, y * stride_rows - pad_top + i * rate_rows,
//                        x * stride_cols - pad_left + j * rate_cols, d] + filter[i, j, d],
// taps in the padding skipped. The max starts at the type's lowest value and takes a sum only
// when it is strictly greater, in TensorFlow's order (so a NaN sum never wins, and a window
// with no tap inside the image gives the lowest value). Integer sums wrap; half and bfloat16
// sums round to their type, as TensorFlow's.
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
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

struct DilationGeometry {
  int64_t in_rows, in_cols, depth;
  int64_t filter_rows, filter_cols;
  int64_t stride_rows, stride_cols, rate_rows, rate_cols;
  int64_t out_rows, out_cols, pad_top, pad_left;
};

// Output rows [first, last), flattened over batch and out_rows.
template <typename T>
void DilateRows(const DilationGeometry& g, const T* input, const T* filter, T* output,
                int64_t first, int64_t last) {
  for (int64_t row = first; row < last; ++row) {
    const int64_t b = row / g.out_rows;
    const int64_t y0 = (row % g.out_rows) * g.stride_rows - g.pad_top;
    const T* image = input + b * g.in_rows * g.in_cols * g.depth;
    T* out = output + row * g.out_cols * g.depth;
    for (int64_t x = 0; x < g.out_cols; ++x) {
      const int64_t x0 = x * g.stride_cols - g.pad_left;
      for (int64_t d = 0; d < g.depth; ++d) {
        T best = Eigen::NumTraits<T>::lowest();
        for (int64_t i = 0; i < g.filter_rows; ++i) {
          const int64_t y_in = y0 + i * g.rate_rows;
          if (y_in < 0 || y_in >= g.in_rows) continue;
          for (int64_t j = 0; j < g.filter_cols; ++j) {
            const int64_t x_in = x0 + j * g.rate_cols;
            if (x_in < 0 || x_in >= g.in_cols) continue;
            const T v = WrappingAdd<T>(image[(y_in * g.in_cols + x_in) * g.depth + d],
                                       filter[(i * g.filter_cols + j) * g.depth + d]);
            if (v > best) best = v;
          }
        }
        out[x * g.depth + d] = best;
      }
    }
  }
}

template <typename T>
class Dilation2DOp : public OpKernel {
 public:
  explicit Dilation2DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES(ctx, strides_.size() == 4,
                errors::InvalidArgument("Sliding window stride field must specify 4 dimensions"));
    OP_REQUIRES(ctx, strides_[0] == 1 && strides_[3] == 1,
                errors::Unimplemented("Stride is only supported across spatial dimensions."));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("rates", &rates_));
    OP_REQUIRES(
        ctx, rates_.size() == 4,
        errors::InvalidArgument("Input stride (atrous rate) field must specify 4 dimensions"));
    OP_REQUIRES(ctx, rates_[0] == 1 && rates_[3] == 1,
                errors::Unimplemented("Rate is only supported across spatial dimensions."));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &padding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    OP_REQUIRES(
        ctx, input.dims() == 4,
        errors::InvalidArgument("input must be 4-dimensional", input.shape().DebugString()));
    OP_REQUIRES(
        ctx, filter.dims() == 3,
        errors::InvalidArgument("filter must be 3-dimensional: ", filter.shape().DebugString()));
    DilationGeometry g;
    g.in_rows = input.dim_size(1);
    g.in_cols = input.dim_size(2);
    g.depth = input.dim_size(3);
    g.filter_rows = filter.dim_size(0);
    g.filter_cols = filter.dim_size(1);
    OP_REQUIRES(ctx, g.depth == filter.dim_size(2),
                errors::InvalidArgument("input and filter must have the same depth: ", g.depth,
                                        " vs ", filter.dim_size(2)));
    g.stride_rows = strides_[1];
    g.stride_cols = strides_[2];
    g.rate_rows = rates_[1];
    g.rate_cols = rates_[2];
    const int64_t rows_eff = g.filter_rows + (g.filter_rows - 1) * (g.rate_rows - 1);
    const int64_t cols_eff = g.filter_cols + (g.filter_cols - 1) * (g.rate_cols - 1);
    OP_REQUIRES_OK(ctx, WindowedOutputSize(g.in_rows, rows_eff, g.stride_rows, padding_, 0, 0,
                                           &g.out_rows, &g.pad_top));
    OP_REQUIRES_OK(ctx, WindowedOutputSize(g.in_cols, cols_eff, g.stride_cols, padding_, 0, 0,
                                           &g.out_cols, &g.pad_left));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(
                            {input.dim_size(0), g.out_rows, g.out_cols, g.depth}, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    if (shape.num_elements() == 0) return;
    const int64_t rows = input.dim_size(0) * g.out_rows;
    const double taps = static_cast<double>(g.filter_rows) * g.filter_cols;
    const double row_elements = static_cast<double>(g.out_cols) * g.depth;
    const Eigen::TensorOpCost row_cost(row_elements * taps * 2 * sizeof(T),
                                       row_elements * sizeof(T), row_elements * taps * 3);
    const T* in = input.base<T>();
    const T* f = filter.base<T>();
    T* out = output->base<T>();
    ParallelFor(ctx, rows, shape.num_elements(), row_cost,
                [&](int64_t first, int64_t last) { DilateRows<T>(g, in, f, out, first, last); });
  }

 private:
  // Attr lists of 4 values (checked in the constructor).
  std::vector<int32_t> strides_, rates_;
  Padding padding_ = VALID;
};

#define REGISTER_CPU(T)                                                                 \
  REGISTER_KERNEL_BUILDER(Name("Dilation2D").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          Dilation2DOp<T>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
