// Transpose: output dim i is input dim perm[i]. The permutation is validated as TensorFlow
// does, then the copy is one StridedCopy, which merges dims that stay contiguous (so a
// permutation keeping the innermost dim copies whole rows) and tiles true transposes (2-D
// and batched) for cache locality. A permutation that moves only size-1 dims returns the
// input's buffer under the new shape.
//
// ConjugateTranspose is the same kernel, then conjugates complex outputs (for other dtypes it
// is Transpose, as in TensorFlow).
#include <complex>
#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;
using array_internal::GpuArrayTypes;

// *out = conj(in) elementwise, for complex64 and complex128 tensors of as many elements; `out`
// may hold `in`'s buffer.
void ConjugateInto(const Tensor& in, Tensor* out) {
  const int64_t n = in.NumElements();
  if (in.dtype() == DT_COMPLEX64) {
    const complex64* x = in.base<complex64>();
    complex64* y = out->base<complex64>();
    for (int64_t i = 0; i < n; ++i) y[i] = std::conj(x[i]);
  } else {
    const complex128* x = in.base<complex128>();
    complex128* y = out->base<complex128>();
    for (int64_t i = 0; i < n; ++i) y[i] = std::conj(x[i]);
  }
}

template <bool kConjugate>
class TransposeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& perm_t = ctx->input(1);
    OP_REQUIRES(
        ctx, perm_t.dims() == 1,
        errors::InvalidArgument("perm must be rank 1, got shape ", perm_t.shape().DebugString()));
    const int rank = input.dims();
    OP_REQUIRES(
        ctx, perm_t.NumElements() == rank,
        errors::InvalidArgument("transpose expects a vector of size ", rank,
                                ". But input(1) is a vector of size ", perm_t.NumElements()));
    IntegerValues perm;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(perm_t, &perm));
    // heap-ok: one per dim of the input (perm was checked to have rank entries)
    absl::InlinedVector<bool, 8> seen(rank, false);
    for (int i = 0; i < rank; ++i) {
      const int64_t d = perm[i];
      OP_REQUIRES(ctx, 0 <= d && d < rank,
                  errors::InvalidArgument(d, " is out of range [0 .. ", rank, ")"));
      seen[d] = true;
    }
    for (int i = 0; i < rank; ++i) {
      OP_REQUIRES(ctx, seen[i],
                  errors::InvalidArgument(i, " is missing from {", absl::StrJoin(perm, ","), "}."));
    }
    const auto in_strides = RowMajorStrides(input.shape());
    // heap-ok: one per dim of the input (rank <= 254)
    IntegerValues dims(rank);
    // heap-ok: one per dim of the input (rank <= 254)
    IntegerValues strides(rank);
    // Whether the non-trivial dims keep their order, so no element moves.
    bool in_order = true;
    int64_t last = -1;
    for (int i = 0; i < rank; ++i) {
      dims[i] = input.dim_size(perm[i]);
      strides[i] = in_strides[perm[i]];
      if (dims[i] != 1) {
        in_order &= perm[i] > last;
        last = perm[i];
      }
    }
    const TensorShape shape(dims);  // shape-safe: the input's dims, permuted (checked above)
    if (in_order) {
      if (kConjugate && DataTypeIsComplex(input.dtype())) {
        // No element moves, but each changes: a new buffer, as the input's is not ours.
        Tensor* out = nullptr;
        OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
        if (input.NumElements() > 0) ConjugateInto(input, out);
        return;
      }
      Tensor view;
      CHECK(view.CopyFrom(input, shape));
      ctx->set_output(0, view);
      return;
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    StridedCopy(ctx, input, 0, dims, strides, out);
    if (kConjugate && DataTypeIsComplex(input.dtype()) && input.NumElements() > 0) {
      ConjugateInto(*out, out);
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("Transpose")
                            .Device(DEVICE_CPU)
                            .HostMemory("perm")
                            .TypeConstraint("T", ArrayTypes({DT_RESOURCE})),
                        TransposeOp<false>);
REGISTER_KERNEL_BUILDER(Name("ConjugateTranspose")
                            .Device(DEVICE_CPU)
                            .HostMemory("perm")
                            .TypeConstraint("T", ArrayTypes({DT_RESOURCE})),
                        TransposeOp<true>);

// On GPUs the same kernel copies with the GPU's strided copy (strided_copy.h).
REGISTER_KERNEL_BUILDER(
    Name("Transpose").Device(DEVICE_GPU).HostMemory("perm").TypeConstraint("T", GpuArrayTypes()),
    TransposeOp<false>);

}  // namespace
}  // namespace sluice
