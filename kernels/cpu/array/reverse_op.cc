// ReverseV2: the input with the listed axes (negative counts from the end) reversed. A
// StridedCopy with a negative stride, starting at the last index, along each reversed dim.
#include <cstdint>

#include "absl/container/inlined_vector.h"
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

class ReverseV2Op : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& axis_t = ctx->input(1);
    OP_REQUIRES(ctx, axis_t.dims() == 1,
                errors::InvalidArgument("'dims' must be 1-dimension, not ", axis_t.dims()));
    IntegerValues axes;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(axis_t, &axes));
    const int rank = input.dims();
    // heap-ok: one per dim of the input (rank <= 254)
    absl::InlinedVector<bool, 8> reverse(rank, false);
    for (size_t i = 0; i < axes.size(); ++i) {
      const int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
      OP_REQUIRES(ctx, 0 <= axis && axis < rank,
                  errors::InvalidArgument("'axis'[", i, "] = ", axes[i], " is out of valid range [",
                                          0, ", ", rank - 1));
      OP_REQUIRES(ctx, !reverse[axis],
                  errors::InvalidArgument("axis ", axis, " specified more than once."));
      reverse[axis] = true;
    }
    const auto in_strides = RowMajorStrides(input.shape());
    // heap-ok: one per dim of the input (rank <= 254)
    IntegerValues strides(rank);
    int64_t offset = 0;
    bool identity = true;
    for (int d = 0; d < rank; ++d) {
      strides[d] = in_strides[d];
      if (reverse[d] && input.dim_size(d) > 1) {
        identity = false;
        offset += (input.dim_size(d) - 1) * in_strides[d];
        strides[d] = -in_strides[d];
      }
    }
    if (identity) {
      ctx->set_output(0, input);
      return;
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &out));
    StridedCopy(ctx, input, offset, input.shape().dim_sizes(), strides, out);
  }
};

REGISTER_KERNEL_BUILDER(
    Name("ReverseV2").Device(DEVICE_CPU).HostMemory("axis").TypeConstraint("T", ArrayTypes()),
    ReverseV2Op);

// On GPUs the same kernel copies with the GPU's strided copy (strided_copy.h).
REGISTER_KERNEL_BUILDER(
    Name("ReverseV2").Device(DEVICE_GPU).HostMemory("axis").TypeConstraint("T", GpuArrayTypes()),
    ReverseV2Op);

}  // namespace
}  // namespace sluice
