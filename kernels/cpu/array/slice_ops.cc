// Slice and StridedSlice. Both reduce to a begin index and a stride per input dim, copied
// with StridedCopy; a slice that is the whole input, or a contiguous aligned range of the
// first dim, is returned as a view of the input's buffer instead, as TensorFlow does.
// StridedSlice's mask semantics live in graph/ops/strided_slice_spec.h, shared with its
// shape function.
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/strided_slice_spec.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;
using array_internal::GpuArrayTypes;

// Outputs the region of `input` starting at `begin` with `sizes` elements and `steps`
// strides per input dim, shaped as `out_shape` (same element count).
void OutputRegion(OpKernelContext* ctx, const Tensor& input, absl::Span<const int64_t> begin,
                  absl::Span<const int64_t> sizes, absl::Span<const int64_t> steps,
                  const TensorShape& out_shape) {
  const int rank = input.dims();
  bool identity = true;
  bool dim0_range = true;  // unit stride, whole dims after the first
  for (int d = 0; d < rank; ++d) {
    const bool whole = begin[d] == 0 && sizes[d] == input.dim_size(d) && steps[d] == 1;
    identity &= whole;
    if (d == 0) {
      dim0_range &= steps[d] == 1;
    } else {
      dim0_range &= whole;
    }
  }
  if (identity) {
    Tensor view;
    CHECK(view.CopyFrom(input, out_shape));
    ctx->set_output(0, view);
    return;
  }
  if (dim0_range && rank > 0 && out_shape.num_elements() > 0) {
    Tensor view;
    if (view.CopyFrom(input.Slice(begin[0], begin[0] + sizes[0]), out_shape) && view.IsAligned()) {
      ctx->set_output(0, view);
      return;
    }
  }
  Tensor* out = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
  if (out_shape.num_elements() == 0) return;
  const auto in_strides = RowMajorStrides(input.shape());
  // heap-ok: one per dim of the input (rank <= 254)
  absl::InlinedVector<int64_t, 8> strides(rank);
  int64_t offset = 0;
  for (int d = 0; d < rank; ++d) {
    offset += begin[d] * in_strides[d];
    strides[d] = steps[d] * in_strides[d];
  }
  StridedCopy(ctx, input, offset, sizes, strides, out);
}

class SliceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& begin_t = ctx->input(1);
    const Tensor& size_t_ = ctx->input(2);
    const int rank = input.dims();
    OP_REQUIRES(ctx,
                begin_t.dims() == 1 && size_t_.dims() == 1 && begin_t.NumElements() == rank &&
                    size_t_.NumElements() == rank,
                errors::InvalidArgument("Expected begin and size arguments to be 1-D tensors "
                                        "of size ",
                                        rank, ", but got shapes ", begin_t.shape().DebugString(),
                                        " and ", size_t_.shape().DebugString(), " instead."));
    IntegerValues begin;
    IntegerValues sizes;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(begin_t, &begin));
    OP_REQUIRES_OK(ctx, IntegerTensorValues(size_t_, &sizes));
    for (int d = 0; d < rank; ++d) {
      const int64_t dim = input.dim_size(d);
      const int64_t b = begin[d];
      // A size of -1 means "to the end": dim - b, computed only for a begin in range (an
      // extreme begin would overflow it, and is rejected below either way).
      const bool begin_in_range = dim == 0 ? b == 0 : 0 <= b && b <= dim;
      if (sizes[d] == -1 && begin_in_range) sizes[d] = dim - b;
      const int64_t s = sizes[d];
      if (dim == 0) {
        OP_REQUIRES(
            ctx, b == 0 && s == 0,
            errors::InvalidArgument("Expected begin[", d, "] == 0 (got ", b, ") and size[", d,
                                    "] == 0 (got ", s, ") when input.dim_size(", d, ") == 0"));
      } else {
        OP_REQUIRES(
            ctx, 0 <= b && b <= dim,
            errors::InvalidArgument("Expected begin[", d, "] in [0, ", dim, "], but got ", b));
        OP_REQUIRES(
            ctx, 0 <= s && s <= dim - b,
            errors::InvalidArgument("Expected size[", d, "] in [0, ", dim - b, "], but got ", s));
      }
    }
    // heap-ok: one per dim of the input (rank <= 254)
    const IntegerValues steps(rank, 1);
    // shape-safe: each size checked in [0, dim - begin] above, so no dim exceeds the input's
    OutputRegion(ctx, input, begin, sizes, steps, TensorShape(sizes));
  }
};

class StridedSliceOp : public OpKernel {
 public:
  explicit StridedSliceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadStridedSliceMasks(ctx, &masks_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    StridedSliceSpec spec;
    // shape-safe: the dims of the input's valid shape
    OP_REQUIRES_OK(
        ctx, ComputeStridedSliceSpec(&ctx->input(1), &ctx->input(2), ctx->input(3),
                                     PartialTensorShape(input.shape().dim_sizes()), masks_, &spec));
    TensorShape out_shape;
    OP_REQUIRES(ctx, spec.final_shape.AsTensorShape(&out_shape),
                errors::Internal("StridedSlice produced an unknown output shape"));
    const int rank = input.dims();
    // heap-ok: one per dim of the input (rank <= 254)
    IntegerValues sizes(rank);
    for (int d = 0; d < rank; ++d) sizes[d] = spec.processing_shape.dim_size(d);
    OutputRegion(ctx, input, spec.begin, sizes, spec.strides, out_shape);
  }

 private:
  StridedSliceMasks masks_;
};

REGISTER_KERNEL_BUILDER(Name("Slice")
                            .Device(DEVICE_CPU)
                            .HostMemory("begin")
                            .HostMemory("size")
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT32})),
                        SliceOp);
REGISTER_KERNEL_BUILDER(Name("StridedSlice")
                            .Device(DEVICE_CPU)
                            .HostMemory("begin")
                            .HostMemory("end")
                            .HostMemory("strides")
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT32,
                                                             DT_RESOURCE})),
                        StridedSliceOp);

// On GPUs the same kernel copies with the GPU's strided copy (strided_copy.h).
REGISTER_KERNEL_BUILDER(Name("Slice")
                            .Device(DEVICE_GPU)
                            .HostMemory("begin")
                            .HostMemory("size")
                            .TypeConstraint("T", GpuArrayTypes()),
                        SliceOp);
REGISTER_KERNEL_BUILDER(Name("StridedSlice")
                            .Device(DEVICE_GPU)
                            .HostMemory("begin")
                            .HostMemory("end")
                            .HostMemory("strides")
                            .TypeConstraint("T", GpuArrayTypes()),
                        StridedSliceOp);
// int32 stays in host memory on GPUs (TensorFlow's registrations): shape arithmetic such as
// tf.shape(x)[0] then runs in the GPU's partition, on the host, without a copy.
REGISTER_KERNEL_BUILDER(Name("Slice")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("begin")
                            .HostMemory("size")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        SliceOp);
REGISTER_KERNEL_BUILDER(Name("StridedSlice")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("begin")
                            .HostMemory("end")
                            .HostMemory("strides")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        StridedSliceOp);

}  // namespace
}  // namespace sluice
