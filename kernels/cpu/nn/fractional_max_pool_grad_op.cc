// FractionalMaxPoolGrad on the CPU: the gradient of FractionalMaxPool with respect to its
// input, given the input, the pooled output, the output's gradient and the row and column
// boundaries FractionalMaxPool returned.
//
// As TensorFlow's kernel, the pooling is walked again to find each output's source: the first
// element of its window, replaced by any later one that is greater. The maxima found must
// equal orig_output (INVALID_ARGUMENT otherwise, as in TensorFlow, so a NaN there fails),
// and each output's gradient is then added, in output order, to its source's.
//
// TensorFlow reads and writes past its buffers when the sequences do not fit the tensors;
// Sluice refuses those inputs with INVALID_ARGUMENT: an out_backprop that is not shaped as
// orig_output, sequences that are not vectors or have more windows than the output, an output
// whose batch or depth differs from the input's, and a window starting before the input.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/fractional_pool_args.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// A sequence's windows: one fewer than its boundaries, at most `out_size`.
absl::Status CheckSequence(const Tensor& seq, const char* name, int64_t out_size) {
  if (seq.dims() != 1) {
    return errors::InvalidArgument(name, " must be a vector, got shape ",
                                   seq.shape().DebugString());
  }
  if (seq.NumElements() - 1 > out_size) {
    return errors::InvalidArgument(name, " has ", seq.NumElements(),
                                   " boundaries, more than the output's ", out_size, " windows");
  }
  return absl::OkStatus();
}

template <typename T>
class FractionalMaxPoolGradOp : public OpKernel {
 public:
  explicit FractionalMaxPoolGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("overlapping", &overlapping_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    const Tensor& out = ctx->input(1);
    const Tensor& grad = ctx->input(2);
    const Tensor& rows = ctx->input(3);
    const Tensor& cols = ctx->input(4);
    OP_REQUIRES(
        ctx, in.dims() == 4,
        errors::InvalidArgument("orig_input should be a tensor of rank 4, got ", in.DebugString()));
    OP_REQUIRES(ctx, in.NumElements() > 0,
                errors::InvalidArgument("orig_input must not be empty, got ", in.DebugString()));
    OP_REQUIRES(ctx, out.dims() == 4,
                errors::InvalidArgument("orig_output should be a tensor of rank 4, got ",
                                        out.DebugString()));
    OP_REQUIRES(ctx, out.NumElements() > 0,
                errors::InvalidArgument("orig_output must not be empty, got ", out.DebugString()));
    OP_REQUIRES(ctx, rows.NumElements() * cols.NumElements() <= in.NumElements(),
                errors::InvalidArgument("Pooling region has more elements than the input tensor. "
                                        "row_pooling_sequence: ",
                                        rows.DebugString(), "col_pooling_sequence: ",
                                        cols.DebugString(), "orig_input: ", in.DebugString()));
    OP_REQUIRES(
        ctx, grad.shape() == out.shape(),
        errors::InvalidArgument("out_backprop must have orig_output's shape ",
                                out.shape().DebugString(), ", got ", grad.shape().DebugString()));
    OP_REQUIRES(
        ctx, out.dim_size(0) == in.dim_size(0) && out.dim_size(3) == in.dim_size(3),
        errors::InvalidArgument("orig_output's batch and depth must be orig_input's: ",
                                out.shape().DebugString(), " vs ", in.shape().DebugString()));
    const int64_t batch = in.dim_size(0);
    const int64_t in_rows = in.dim_size(1);
    const int64_t in_cols = in.dim_size(2);
    const int64_t depth = in.dim_size(3);
    const int64_t out_rows = out.dim_size(1);
    const int64_t out_cols = out.dim_size(2);
    OP_REQUIRES_OK(ctx, CheckSequence(rows, "row_pooling_sequence", out_rows));
    OP_REQUIRES_OK(ctx, CheckSequence(cols, "col_pooling_sequence", out_cols));
    const int64_t* row_seq = rows.flat<int64_t>().data();
    const int64_t* col_seq = cols.flat<int64_t>().data();
    const int64_t row_windows = rows.NumElements() - 1;
    const int64_t col_windows = cols.NumElements() - 1;
    for (int64_t i = 0; i < row_windows; ++i) {
      int64_t first, last;
      FractionalWindow(row_seq, i, overlapping_, in_rows, &first, &last);
      OP_REQUIRES(ctx, first >= 0 || last < first,
                  errors::InvalidArgument("row_pooling_sequence's window ", i,
                                          " starts before the input, at ", first));
    }
    for (int64_t i = 0; i < col_windows; ++i) {
      int64_t first, last;
      FractionalWindow(col_seq, i, overlapping_, in_cols, &first, &last);
      OP_REQUIRES(ctx, first >= 0 || last < first,
                  errors::InvalidArgument("col_pooling_sequence's window ", i,
                                          " starts before the input, at ", first));
    }

    // Each output's maximum and the flat index of its source (-1 while there is none).
    const int64_t num_out = out.NumElements();
    ScratchArray<T> maxima;
    ScratchArray<int64_t> sources;
    OP_REQUIRES_OK(ctx, maxima.Allocate(ctx, num_out));
    OP_REQUIRES_OK(ctx, sources.Allocate(ctx, num_out));
    T* max = maxima.data();
    int64_t* source = sources.data();
    for (int64_t i = 0; i < num_out; ++i) {
      max[i] = std::numeric_limits<T>::lowest();
      source[i] = -1;
    }
    const T* x = in.flat<T>().data();
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t r = 0; r < row_windows; ++r) {
        int64_t r0, r1;
        FractionalWindow(row_seq, r, overlapping_, in_rows, &r0, &r1);
        for (int64_t c = 0; c < col_windows; ++c) {
          int64_t c0, c1;
          FractionalWindow(col_seq, c, overlapping_, in_cols, &c0, &c1);
          const int64_t o = ((b * out_rows + r) * out_cols + c) * depth;
          for (int64_t h = r0; h <= r1; ++h) {
            for (int64_t w = c0; w <= c1; ++w) {
              const int64_t i = ((b * in_rows + h) * in_cols + w) * depth;
              for (int64_t d = 0; d < depth; ++d) {
                if (max[o + d] < x[i + d] || source[o + d] == -1) {
                  max[o + d] = x[i + d];
                  source[o + d] = i + d;
                }
              }
            }
          }
        }
      }
    }
    const T* y = out.flat<T>().data();
    for (int64_t i = 0; i < num_out; ++i) {
      OP_REQUIRES(ctx, max[i] == y[i],
                  errors::InvalidArgument("tensor_out_dup is not the same as tensor_out"));
    }

    Tensor* dx = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, in.shape(), &dx));
    T* dx_data = dx->flat<T>().data();
    const int64_t num_in = in.NumElements();
    for (int64_t i = 0; i < num_in; ++i) dx_data[i] = T(0);
    const T* dy = grad.flat<T>().data();
    for (int64_t i = 0; i < num_out; ++i) {
      const int64_t s = source[i];
      OP_REQUIRES(ctx, s >= 0 && s < num_in,
                  errors::InvalidArgument("Invalid input backprop index: ", s, ", ", num_in));
      dx_data[s] = WrappingAdd(dx_data[s], dy[i]);
    }
  }

 private:
  bool overlapping_ = false;
};

#define REGISTER_CPU(T)                                                                            \
  REGISTER_KERNEL_BUILDER(Name("FractionalMaxPoolGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          FractionalMaxPoolGradOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
