// StridedSliceGrad: the gradient of StridedSlice. The output has the forward input's shape
// (input 0, `shape`); it is zero except in the region StridedSlice read with the same begin,
// end, strides and masks, where it takes dy's elements in order. The region's meaning is
// StridedSlice's (graph/ops/strided_slice_spec.h), so the two always agree.
#include <cstdint>
#include <cstring>

#include "absl/container/inlined_vector.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/ops/strided_slice_spec.h"
#include "kernels/cpu/array/array_types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;

// Writes `src`'s elements, in row-major order of `sizes`, to dst + offset + sum_d i_d *
// steps[d]: the inverse of the strided read StridedSlice does.
template <typename U>
void ScatterRegion(const U* src, U* dst, int64_t offset, absl::Span<const int64_t> sizes,
                   absl::Span<const int64_t> steps) {
  const int rank = static_cast<int>(sizes.size());
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  if (total == 0) return;
  if (rank == 0) {
    dst[offset] = src[0];
    return;
  }
  // heap-ok: one counter per dim (rank <= 254)
  absl::InlinedVector<int64_t, 8> index(rank, 0);
  int64_t at = offset;
  const int inner = rank - 1;
  for (int64_t n = 0; n < total;) {
    // The innermost dim as one run.
    for (int64_t i = 0; i < sizes[inner]; ++i) dst[at + i * steps[inner]] = src[n++];
    int d = inner - 1;
    for (; d >= 0; --d) {
      at += steps[d];
      if (++index[d] < sizes[d]) break;
      at -= steps[d] * sizes[d];
      index[d] = 0;
    }
    if (d < 0) break;
  }
}

class StridedSliceGradOp : public OpKernel {
 public:
  explicit StridedSliceGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadStridedSliceMasks(ctx, &masks_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    const Tensor& dy = ctx->input(4);
    OP_REQUIRES(ctx, shape_t.dims() == 1,
                errors::InvalidArgument("shape must be 1-D, got shape.shape = ",
                                        shape_t.shape().DebugString()));
    IntegerValues dims;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(shape_t, &dims));
    TensorShape input_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(dims, &input_shape));

    StridedSliceSpec spec;
    // shape-safe: built from a validated TensorShape
    OP_REQUIRES_OK(
        ctx, ComputeStridedSliceSpec(&ctx->input(1), &ctx->input(2), ctx->input(3),
                                     PartialTensorShape(input_shape.dim_sizes()), masks_, &spec));
    TensorShape final_shape;
    OP_REQUIRES(ctx, spec.final_shape.AsTensorShape(&final_shape),
                errors::Internal("StridedSliceGrad produced an unknown output shape"));
    OP_REQUIRES(ctx, final_shape == dy.shape(),
                errors::InvalidArgument("shape of dy was ", dy.shape().DebugString(),
                                        " instead of ", final_shape.DebugString()));

    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input_shape, &out));
    const int rank = input_shape.dims();
    // heap-ok: one per dim of the input (rank <= 254)
    absl::InlinedVector<int64_t, 8> sizes(rank), steps(rank);
    int64_t offset = 0;
    int64_t row_stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      sizes[d] = spec.processing_shape.dim_size(d);
      steps[d] = spec.strides[d] * row_stride;
      offset += spec.begin[d] * row_stride;
      row_stride *= input_shape.dim_size(d);
    }
    const bool movable = VisitByElementSize(dy.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      U* dst = MutableElementsAs<U>(out);
      if (out->NumElements() == 0) {
        // An empty output has no buffer, and memset must not be given a null pointer even
        // for zero bytes.
      } else if constexpr (std::is_trivially_copyable_v<U>) {
        // All-zero bytes are zero in every numeric type and false for bool.
        std::memset(static_cast<void*>(dst), 0,
                    static_cast<size_t>(out->NumElements()) * sizeof(U));
      } else {
        for (int64_t i = 0; i < out->NumElements(); ++i) dst[i] = U();
      }
      ScatterRegion<U>(ElementsAs<U>(dy), dst, offset, sizes, steps);
    });
    OP_REQUIRES(
        ctx, movable,
        errors::Unimplemented("StridedSliceGrad does not support ", DataTypeString(dy.dtype())));
  }

 private:
  StridedSliceMasks masks_;
};

REGISTER_KERNEL_BUILDER(Name("StridedSliceGrad")
                            .Device(DEVICE_CPU)
                            .HostMemory("shape")
                            .HostMemory("begin")
                            .HostMemory("end")
                            .HostMemory("strides")
                            .TypeConstraint("T", ArrayTypes()),
                        StridedSliceGradOp);

}  // namespace
}  // namespace sluice
