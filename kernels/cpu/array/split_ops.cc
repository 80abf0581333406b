// Split, SplitV and Unpack: each output is a range of the input along one axis (Unpack:
// one index, with the axis dropped). A range that is contiguous in the input and starts on
// an aligned address is returned as a view of the input's buffer, as TensorFlow does;
// others are copied with StridedCopy.
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/size_arithmetic.h"
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

// Sets output `index` to input[..., start:start+size, ...] along `axis`, with the axis
// removed when `drop_axis` (then size is 1). REQUIRES: 0 <= axis < rank and
// 0 <= start <= start + size <= the axis's dim, which every caller below checks first.
void OutputAxisRange(OpKernelContext* ctx, int index, const Tensor& input, int axis, int64_t start,
                     int64_t size, bool drop_axis) {
  const TensorShape& in_shape = input.shape();
  TensorShape shape = in_shape;
  if (drop_axis) {
    shape.RemoveDim(axis);  // shape-safe: 0 <= axis < rank (REQUIRES)
  } else {
    shape.set_dim(axis, size);  // shape-safe: 0 <= size <= the axis's dim (REQUIRES)
  }
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= in_shape.dim_size(d);
  const int64_t axis_dim = in_shape.dim_size(axis);
  int64_t inner = 1;
  for (int d = axis + 1; d < in_shape.dims(); ++d) inner *= in_shape.dim_size(d);
  if (outer == 1 && shape.num_elements() > 0) {
    Tensor rows;
    // shape-safe: outer == 1, so axis_dim * inner is the input's element count
    CHECK(rows.CopyFrom(input, TensorShape({axis_dim, inner})));
    Tensor view;
    if (view.CopyFrom(rows.Slice(start, start + size), shape) && view.IsAligned()) {
      ctx->set_output(index, view);
      return;
    }
  }
  Tensor* out = nullptr;
  OP_REQUIRES_OK(ctx, ctx->allocate_output(index, shape, &out));
  const int64_t dims[] = {outer, size, inner};
  const int64_t strides[] = {axis_dim * inner, inner, 1};
  StridedCopy(ctx, input, start * inner, dims, strides, out);
}

// The split axis from a scalar host tensor, made non-negative; fails as TensorFlow does.
// Split wants a scalar; SplitV any one-element tensor.
bool ReadSplitDim(OpKernelContext* ctx, const Tensor& t, int rank, bool scalar, int* axis) {
  if (scalar && t.dims() != 0) {
    ctx->CtxFailure(errors::InvalidArgument("split_dim must be a scalar but has rank ", t.dims()));
    return false;
  }
  if (t.NumElements() != 1) {
    ctx->CtxFailure(errors::InvalidArgument("split_dim_tensor must have exactly one element."));
    return false;
  }
  int64_t dim = 0;
  const absl::Status s = IntegerTensorScalar(t, &dim);
  if (!s.ok()) {
    ctx->CtxFailure(s);
    return false;
  }
  if (dim < -rank || dim >= rank) {
    ctx->CtxFailure(errors::InvalidArgument("-input rank(-", rank, ") <= split_dim < input rank (",
                                            rank, "), but got ", dim));
    return false;
  }
  *axis = static_cast<int>(dim < 0 ? dim + rank : dim);
  return true;
}

class SplitOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(1);
    const int num_split = ctx->num_outputs();
    int axis = 0;
    if (!ReadSplitDim(ctx, ctx->input(0), input.dims(), /*scalar=*/true, &axis)) return;
    const int64_t axis_dim = input.dim_size(axis);
    OP_REQUIRES(
        ctx, axis_dim % num_split == 0,
        errors::InvalidArgument("Number of ways to split should evenly divide the "
                                "split dimension, but got split_dim ",
                                axis, " (size = ", axis_dim, ") and num_split ", num_split));
    if (num_split == 1) {
      ctx->set_output(0, input);
      return;
    }
    const int64_t size = axis_dim / num_split;
    for (int i = 0; i < num_split && ctx->status().ok(); ++i) {
      OutputAxisRange(ctx, i, input, axis, i * size, size, /*drop_axis=*/false);
    }
  }
};

class SplitVOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& sizes_t = ctx->input(1);
    const int num_split = ctx->num_outputs();
    OP_REQUIRES(
        ctx, sizes_t.dims() == 1 && sizes_t.NumElements() == num_split,
        errors::InvalidArgument("size of the split_tensor must be 1-D and have "
                                "the same elements as outputs got ",
                                sizes_t.dims(), " -D and ", sizes_t.NumElements(), " elements"));
    int axis = 0;
    if (!ReadSplitDim(ctx, ctx->input(2), input.dims(), /*scalar=*/false, &axis)) return;
    IntegerValues sizes;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(sizes_t, &sizes));
    const int64_t axis_dim = input.dim_size(axis);
    int neg_one = -1;
    int64_t determined = 0;
    for (int i = 0; i < num_split; ++i) {
      if (sizes[i] == -1) {
        OP_REQUIRES(ctx, neg_one == -1,
                    errors::InvalidArgument("There can only be one -1 in the input."));
        neg_one = i;
      } else {
        OP_REQUIRES(
            ctx, sizes[i] >= 0,
            errors::InvalidArgument("Split size at index ", i, " must be >= 0. Got: ", sizes[i]));
        // Checked: wrapped sums of huge sizes would pass the bounds check below.
        const int64_t sum = AddWithoutOverflow(determined, sizes[i]);
        OP_REQUIRES(ctx, sum >= 0,
                    errors::InvalidArgument("Split sizes overflow int64 at index ", i, " (",
                                            sizes[i], " added to ", determined,
                                            "); they must sum to the size of the input along "
                                            "split_dim (",
                                            axis_dim, ")"));
        determined = sum;
      }
    }
    OP_REQUIRES(
        ctx, (neg_one == -1 && determined == axis_dim) || (neg_one >= 0 && determined <= axis_dim),
        errors::InvalidArgument("Determined shape must either match input shape "
                                "along split_dim exactly if fully specified, or be "
                                "less than the size of the input along split_dim "
                                "if not fully specified.  Got: ",
                                determined));
    if (neg_one >= 0) sizes[neg_one] = axis_dim - determined;
    if (num_split == 1) {
      ctx->set_output(0, input);
      return;
    }
    int64_t start = 0;
    for (int i = 0; i < num_split && ctx->status().ok(); ++i) {
      OutputAxisRange(ctx, i, input, axis, start, sizes[i], /*drop_axis=*/false);
      start += sizes[i];
    }
  }
};

class UnpackOp : public OpKernel {
 public:
  explicit UnpackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int num = ctx->num_outputs();
    const int rank = input.dims();
    int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    OP_REQUIRES(ctx, 0 <= axis && axis < rank,
                errors::InvalidArgument("axis = ", axis_, " not in [", -rank, ", ", rank, ")"));
    OP_REQUIRES(ctx, input.dim_size(static_cast<int>(axis)) == num,
                errors::InvalidArgument("Input shape axis ", axis, " must equal ", num,
                                        ", got shape ", input.shape().DebugString()));
    for (int i = 0; i < num && ctx->status().ok(); ++i) {
      OutputAxisRange(ctx, i, input, static_cast<int>(axis), i, 1, /*drop_axis=*/true);
    }
  }

 private:
  int64_t axis_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("Split")
                            .Device(DEVICE_CPU)
                            .HostMemory("split_dim")
                            .TypeConstraint("T", ArrayTypes({DT_QUINT8, DT_RESOURCE})),
                        SplitOp);
REGISTER_KERNEL_BUILDER(Name("SplitV")
                            .Device(DEVICE_CPU)
                            .HostMemory("size_splits")
                            .HostMemory("split_dim")
                            .TypeConstraint("T", ArrayTypes({DT_QUINT8, DT_RESOURCE})),
                        SplitVOp);
REGISTER_KERNEL_BUILDER(
    Name("Unpack").Device(DEVICE_CPU).TypeConstraint("T", ArrayTypes({DT_RESOURCE})), UnpackOp);

// On GPUs the same kernel copies with the GPU's strided copy (strided_copy.h).
REGISTER_KERNEL_BUILDER(
    Name("Split").Device(DEVICE_GPU).HostMemory("split_dim").TypeConstraint("T", GpuArrayTypes()),
    SplitOp);
REGISTER_KERNEL_BUILDER(Name("SplitV")
                            .Device(DEVICE_GPU)
                            .HostMemory("size_splits")
                            .HostMemory("split_dim")
                            .TypeConstraint("T", GpuArrayTypes()),
                        SplitVOp);
REGISTER_KERNEL_BUILDER(Name("Unpack").Device(DEVICE_GPU).TypeConstraint("T", GpuArrayTypes()),
                        UnpackOp);
REGISTER_KERNEL_BUILDER(Name("Unpack")
                            .Device(DEVICE_GPU)
                            .HostMemory("value")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        UnpackOp);

}  // namespace
}  // namespace sluice
