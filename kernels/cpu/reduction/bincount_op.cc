// Bincount and DenseBincount on the CPU: histograms of non-negative integers.
//
// bins[v] counts the values v of the input (or sums their weights, when weights are given:
// an empty weights tensor means weight 1 each); values >= size are dropped, negative values
// are an error. Bincount flattens arr of any shape (weights of any shape with as many
// elements); DenseBincount takes a scalar or vector (one histogram) or a matrix (one per
// row), weights of the input's shape, and with binary_output records presence (1) instead
// of counts. Inputs are checked first, in TensorFlow's order and with its messages. Sums run
// in input order on one thread.
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {
namespace {

// Adds values [0, n) of `in` into bins [0, size) of `out` (zeroed by the caller).
template <typename Tidx, typename T>
void Accumulate(const Tidx* in, const T* weights, int64_t n, int64_t size, bool binary, T* out) {
  for (int64_t i = 0; i < n; ++i) {
    const Tidx v = in[i];
    if (static_cast<int64_t>(v) >= size) continue;
    if (binary) {
      out[v] = T(1);
    } else {
      out[v] += weights != nullptr ? weights[i] : T(1);
    }
  }
}

template <typename Tidx>
bool AllNonNegative(const Tidx* in, int64_t n, int64_t* first_negative) {
  for (int64_t i = 0; i < n; ++i) {
    if (in[i] < 0) {
      *first_negative = static_cast<int64_t>(in[i]);
      return false;
    }
  }
  return true;
}

template <typename T>
void Zero(Tensor* t) {
  T* data = t->base<T>();
  for (int64_t i = 0; i < t->NumElements(); ++i) data[i] = T(0);
}

template <typename T>
class BincountOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& arr = ctx->input(0);
    const Tensor& size_tensor = ctx->input(1);
    const Tensor& weights = ctx->input(2);
    OP_REQUIRES(ctx, size_tensor.dims() == 0,
                errors::InvalidArgument("Shape must be rank 0 but is rank ", size_tensor.dims()));
    const int32_t size = size_tensor.base<int32_t>()[0];
    OP_REQUIRES(ctx, size >= 0, errors::InvalidArgument("size (", size, ") must be non-negative"));
    Tensor* bins = nullptr;
    // shape-safe: one dim, checked non-negative above
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({size}), &bins));
    const int64_t n = arr.NumElements();
    const int32_t* values = arr.base<int32_t>();
    int64_t negative = 0;
    OP_REQUIRES(ctx, AllNonNegative(values, n, &negative),
                errors::InvalidArgument("Input arr must be non-negative!"));
    OP_REQUIRES(ctx, weights.NumElements() == 0 || weights.NumElements() == n,
                errors::InvalidArgument("Input indices and weights must have the same size."));
    Zero<T>(bins);
    Accumulate<int32_t, T>(values, weights.NumElements() == 0 ? nullptr : weights.base<T>(), n,
                           size, /*binary=*/false, bins->base<T>());
  }
};

template <typename Tidx, typename T>
class DenseBincountOp : public OpKernel {
 public:
  explicit DenseBincountOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("binary_output", &binary_output_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& size_tensor = ctx->input(1);
    const Tensor& weights = ctx->input(2);
    OP_REQUIRES(ctx, data.dims() <= 2,
                errors::InvalidArgument("Shape must be at most rank 2 but is rank ", data.dims()));
    OP_REQUIRES(ctx, size_tensor.dims() == 0,
                errors::InvalidArgument("Shape must be rank 0 but is rank ", size_tensor.dims()));
    OP_REQUIRES(ctx, weights.shape() == data.shape() || weights.NumElements() == 0,
                errors::InvalidArgument(
                    "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which "
                    "case it acts as all weights equal to 1. Received ",
                    weights.shape().DebugString()));
    const int64_t size = static_cast<int64_t>(size_tensor.base<Tidx>()[0]);
    OP_REQUIRES(ctx, size >= 0, errors::InvalidArgument("size (", size, ") must be non-negative"));
    const Tidx* values = data.base<Tidx>();
    const T* w = weights.NumElements() == 0 ? nullptr : weights.base<T>();
    const int64_t n = data.NumElements();
    int64_t negative = 0;
    Tensor* out = nullptr;
    if (data.dims() < 2) {
      // shape-safe: one dim, checked non-negative above
      OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({size}), &out));
      OP_REQUIRES(ctx, AllNonNegative(values, n, &negative),
                  errors::InvalidArgument("Input arr must be non-negative!"));
      Zero<T>(out);
      Accumulate<Tidx, T>(values, w, n, size, binary_output_, out->base<T>());
      return;
    }
    const int64_t rows = data.dim_size(0);
    const int64_t cols = data.dim_size(1);
    // An empty input ([rows, 0]) may have any number of rows, so rows * size is checked.
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({rows, size}, &out_shape));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    OP_REQUIRES(ctx, AllNonNegative(values, n, &negative),
                errors::InvalidArgument(
                    "Input 'in' must be non-negative! Negative input value found: ", negative));
    Zero<T>(out);
    T* bins = out->base<T>();
    for (int64_t r = 0; r < rows; ++r) {
      Accumulate<Tidx, T>(values + r * cols, w == nullptr ? nullptr : w + r * cols, cols, size,
                          binary_output_, bins + r * size);
    }
  }

 private:
  bool binary_output_ = false;
};

#define REGISTER_DENSE(Tidx, T)                             \
  REGISTER_KERNEL_BUILDER(Name("DenseBincount")             \
                              .Device(DEVICE_CPU)           \
                              .TypeConstraint<Tidx>("Tidx") \
                              .TypeConstraint<T>("T"),      \
                          DenseBincountOp<Tidx, T>);
#define REGISTER_CPU(T)                                                               \
  REGISTER_KERNEL_BUILDER(Name("Bincount").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          BincountOp<T>);                                             \
  REGISTER_DENSE(int32_t, T)                                                          \
  REGISTER_DENSE(int64_t, T)
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU
#undef REGISTER_DENSE

}  // namespace
}  // namespace reduction
}  // namespace sluice
