// UnravelIndex on the CPU: the coordinates of flat indices into a row-major array of shape
// `dims`, one row per dimension (a vector for a scalar index, else [dims, indices]).
//
// Checked as TensorFlow does, in its order and with its messages: indices a scalar or a
// non-empty vector, dims a vector of positive values whose product fits the index type, every
// index below that product. Negative indices are not rejected there; their coordinates come
// out of C++'s truncating / and %, (index % stride_i) / stride_{i+1}, as TensorFlow computes
// them.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class UnravelIndexOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    OP_REQUIRES(ctx, indices.dims() <= 1,
                errors::InvalidArgument("The indices can only be scalar or vector, got \"",
                                        indices.shape().DebugString(), "\""));
    OP_REQUIRES(ctx, indices.NumElements() > 0,
                errors::InvalidArgument("received empty tensor indices: ", indices.DebugString()));
    const Tensor& dims_t = ctx->input(1);
    OP_REQUIRES(ctx, dims_t.dims() == 1,
                errors::InvalidArgument("The indices can only be 1-D, got \"",
                                        dims_t.shape().DebugString(), "\""));
    const T* dims = dims_t.base<T>();
    const int64_t rank = dims_t.NumElements();
    const uint64_t limit = std::numeric_limits<T>::max();
    // TensorFlow bounds the product in double precision.
    double product = 1;
    for (int64_t i = 0; i < rank; ++i) {
      OP_REQUIRES(
          ctx, dims[i] != 0,
          errors::InvalidArgument(
              "Input dims cannot contain a dim of zero, but dims contains zero at index ", i));
      OP_REQUIRES(ctx, dims[i] > 0,
                  errors::InvalidArgument("Input dims cannot be negative. Got dim = ", dims[i],
                                          " at index ", i));
      OP_REQUIRES(
          ctx, product <= static_cast<double>(limit / static_cast<uint64_t>(dims[i])),
          errors::InvalidArgument("Input dims product is causing integer overflow: (",
                                  absl::StrJoin(absl::Span<const T>(dims, rank), " "), ")"));
      product *= static_cast<double>(dims[i]);
    }
    // The product fits T but for double's rounding near T's limit; wrap there as TensorFlow's
    // Eigen product does rather than overflow.
    using Unsigned = std::make_unsigned_t<T>;
    Unsigned product_bits = 1;
    for (int64_t i = 0; i < rank; ++i) product_bits *= static_cast<Unsigned>(dims[i]);
    const T total = static_cast<T>(product_bits);
    const T* in = indices.base<T>();
    const int64_t n = indices.NumElements();
    for (int64_t j = 0; j < n; ++j) {
      OP_REQUIRES(ctx, in[j] < total,
                  errors::InvalidArgument("index is out of bound as with dims"));
    }
    Tensor* output = nullptr;
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(rank));
    if (indices.dims() == 1) OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(n));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    T* out = output->base<T>();
    // stride = product of dims[i..], inner = product of dims[i+1..]; both fit T (checked).
    T stride = total;
    for (int64_t i = 0; i < rank; ++i) {
      const T inner = stride / dims[i];
      for (int64_t j = 0; j < n; ++j) out[i * n + j] = (in[j] % stride) / inner;
      stride = inner;
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("UnravelIndex").Device(DEVICE_CPU).TypeConstraint<int32_t>("Tidx"),
                        UnravelIndexOp<int32_t>);
REGISTER_KERNEL_BUILDER(Name("UnravelIndex").Device(DEVICE_CPU).TypeConstraint<int64_t>("Tidx"),
                        UnravelIndexOp<int64_t>);

}  // namespace
}  // namespace sluice
