// FractionalAvgPoolGrad on the CPU: the gradient of FractionalAvgPool with respect to its
// input, given the input's shape (four int64 values), the output's gradient and the row and
// column boundaries FractionalAvgPool returned.
//
// As TensorFlow's kernel, each output's gradient is taken as a double, divided by the number
// of elements of its window and added, in output order, to each of them in a double buffer,
// which is then converted to T (the integer dtypes truncate; a value past their range, which
// C++ leaves undefined, becomes the lowest value, as x86's conversion gives).
//
// TensorFlow writes past its buffer when out_backprop has more images or channels than the
// input, and fails a check on an out_backprop that is not 4-D or a negative size; Sluice
// refuses those inputs with INVALID_ARGUMENT.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/fractional_pool_args.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
T FromDouble(double v) {
  if constexpr (std::is_integral_v<T>) {
    // 2^63 and 2^31 are exact doubles; NaN fails both comparisons.
    constexpr double kLimit = -static_cast<double>(std::numeric_limits<T>::lowest());
    if (!(v > -kLimit - 1 && v < kLimit)) return std::numeric_limits<T>::lowest();
  }
  return static_cast<T>(v);
}

// The message names the sequence and its values, as TensorFlow's.
absl::Status NegativeSequence(const char* what, const Tensor& seq) {
  return errors::InvalidArgument(what, " sequence tensor values must not be negative, got ",
                                 seq.SummarizeValue(seq.NumElements()));
}

template <typename T>
class FractionalAvgPoolGradOp : public OpKernel {
 public:
  explicit FractionalAvgPoolGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("overlapping", &overlapping_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    const Tensor& rows = ctx->input(2);
    const Tensor& cols = ctx->input(3);
    OP_REQUIRES(ctx, shape_t.dims() == 1 && shape_t.NumElements() == 4,
                errors::InvalidArgument("original input tensor shape must be"
                                        "1-dimensional and 4 elements"));
    OP_REQUIRES(ctx, grad.dims() == 4,
                errors::InvalidArgument("out_backprop must be 4-dimensional, got shape ",
                                        grad.shape().DebugString()));
    const int64_t out_batch = grad.dim_size(0);
    const int64_t out_rows = grad.dim_size(1);
    const int64_t out_cols = grad.dim_size(2);
    const int64_t depth = grad.dim_size(3);
    OP_REQUIRES(ctx, rows.NumElements() > out_rows,
                errors::InvalidArgument("Given out_backprop shape ", grad.shape().DebugString(),
                                        ", row_seq_tensor must have at least ", out_rows + 1,
                                        " elements, but got ", rows.NumElements()));
    OP_REQUIRES(ctx, cols.NumElements() > out_cols,
                errors::InvalidArgument("Given out_backprop shape ", grad.shape().DebugString(),
                                        ", col_seq_tensor must have at least ", out_cols + 1,
                                        " elements, but got ", cols.NumElements()));
    const int64_t* dims = shape_t.flat<int64_t>().data();
    OP_REQUIRES(ctx, dims[0] != 0,
                errors::InvalidArgument("Batch dimension of input must not be 0"));
    OP_REQUIRES(ctx, dims[1] != 0,
                errors::InvalidArgument("Rows dimension of input must not be 0"));
    OP_REQUIRES(ctx, dims[2] != 0,
                errors::InvalidArgument("Columns dimension of input must not be 0"));
    OP_REQUIRES(ctx, dims[3] != 0,
                errors::InvalidArgument("Depth dimension of input must not be 0"));
    TensorShape in_shape;
    OP_REQUIRES_OK(ctx,
                   TensorShape::BuildTensorShape({dims[0], dims[1], dims[2], dims[3]}, &in_shape));
    const int64_t in_rows = dims[1];
    const int64_t in_cols = dims[2];
    const int64_t in_depth = dims[3];
    OP_REQUIRES(ctx, out_batch <= dims[0] && depth <= in_depth,
                errors::InvalidArgument("out_backprop ", grad.shape().DebugString(),
                                        " has more images or channels than the input ",
                                        in_shape.DebugString()));

    ScratchArray<double> sums;
    OP_REQUIRES_OK(ctx, sums.Allocate(ctx, in_shape.num_elements()));
    double* sum = sums.data();
    const T* dy = grad.flat<T>().data();
    const int64_t* row_seq = rows.flat<int64_t>().data();
    const int64_t* col_seq = cols.flat<int64_t>().data();
    for (int64_t b = 0; b < out_batch; ++b) {
      for (int64_t r = 0; r < out_rows; ++r) {
        int64_t r0, r1;
        FractionalWindow(row_seq, r, overlapping_, in_rows, &r0, &r1);
        OP_REQUIRES(ctx, r0 >= 0 && r1 >= 0, NegativeSequence("Row", rows));
        for (int64_t c = 0; c < out_cols; ++c) {
          int64_t c0, c1;
          FractionalWindow(col_seq, c, overlapping_, in_cols, &c0, &c1);
          OP_REQUIRES(ctx, c0 >= 0 && c1 >= 0, NegativeSequence("Column", cols));
          const int64_t count = (r1 - r0 + 1) * (c1 - c0 + 1);
          const T* g = dy + ((b * out_rows + r) * out_cols + c) * depth;
          for (int64_t h = r0; h <= r1; ++h) {
            for (int64_t w = c0; w <= c1; ++w) {
              double* s = sum + ((b * in_rows + h) * in_cols + w) * in_depth;
              for (int64_t d = 0; d < depth; ++d) s[d] += static_cast<double>(g[d]) / count;
            }
          }
        }
      }
    }

    Tensor* dx = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, in_shape, &dx));
    T* dx_data = dx->flat<T>().data();
    for (int64_t i = 0; i < in_shape.num_elements(); ++i) dx_data[i] = FromDouble<T>(sum[i]);
  }

 private:
  bool overlapping_ = false;
};

#define REGISTER_CPU(T)                                                                            \
  REGISTER_KERNEL_BUILDER(Name("FractionalAvgPoolGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          FractionalAvgPoolGradOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
