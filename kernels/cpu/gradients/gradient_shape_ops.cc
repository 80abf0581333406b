// The shape arithmetic of gradients on the CPU (int32 or int64 vectors in, vectors out):
//
// BroadcastGradientArgs(s0, s1) -> (r0, r1): the dims, counted from the left of the broadcast
// shape, over which the gradient of each side must be summed. With both shapes padded on the
// left with 1s to the longer rank, r_i lists every dim where side i has 1 (whatever the other
// side has, so a dim that is 1 on both sides is in both lists); two identical shapes give two
// empty lists. Dims that are neither equal nor 1 are INVALID_ARGUMENT "Incompatible shapes".
// Values are compared as given, so negative or zero dims are just numbers.
//
// ConcatOffset(concat_dim, shape_0 ... shape_{N-1}) -> offset_i: where input i of a concat
// starts in the output: zeros but along the concat dim (negative counts from the end), the
// sum of the sizes of the inputs before it. Every shape must have shape_0's length and agree
// with it off the concat dim.
//
// Messages and checks are TensorFlow's.
#include <cstdint>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Element i of an int32 or int64 vector.
void SetInteger(Tensor* t, int64_t i, int64_t value) {
  if (t->dtype() == DT_INT32) {
    t->flat<int32_t>()(i) = static_cast<int32_t>(value);
  } else {
    t->flat<int64_t>()(i) = value;
  }
}

class BroadcastGradientArgsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    IntegerValues shapes[2];
    for (int i = 0; i < 2; ++i) {
      const Tensor& s = ctx->input(i);
      OP_REQUIRES(
          ctx, s.dims() == 1,
          errors::InvalidArgument("In[", i, "] must be a vector.", s.shape().DebugString()));
      OP_REQUIRES_OK(ctx, IntegerTensorValues(s, &shapes[i]));
    }
    const IntegerValues& s0 = shapes[0];
    const IntegerValues& s1 = shapes[1];
    const int64_t rank = s0.size() > s1.size() ? s0.size() : s1.size();
    const int64_t pad0 = rank - static_cast<int64_t>(s0.size());
    const int64_t pad1 = rank - static_cast<int64_t>(s1.size());
    auto dim0 = [&](int64_t d) { return d < pad0 ? int64_t{1} : s0[d - pad0]; };
    auto dim1 = [&](int64_t d) { return d < pad1 ? int64_t{1} : s1[d - pad1]; };
    int64_t count0 = 0;
    int64_t count1 = 0;
    if (s0 != s1) {
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t a = dim0(d);
        const int64_t b = dim1(d);
        OP_REQUIRES(ctx, a == b || a == 1 || b == 1,
                    errors::InvalidArgument("Incompatible shapes: [", absl::StrJoin(s0, ","),
                                            "] vs. [", absl::StrJoin(s1, ","), "]"));
        count0 += a == 1;
        count1 += b == 1;
      }
    }
    Tensor* r0 = nullptr;
    Tensor* r1 = nullptr;
    // shape-safe: counts of dims, at most the longer shape's length
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({count0}), &r0));
    // shape-safe: a count of dims, as count0
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({count1}), &r1));
    if (s0 == s1) return;
    int64_t i0 = 0;
    int64_t i1 = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (dim0(d) == 1) SetInteger(r0, i0++, d);
      if (dim1(d) == 1) SetInteger(r1, i1++, d);
    }
  }

  bool IsExpensive() override { return false; }
};

class ConcatOffsetOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& concat_dim = ctx->input(0);
    OP_REQUIRES(ctx, concat_dim.dims() == 0,
                errors::InvalidArgument("Concat dim tensor should be a scalar integer, but got "
                                        "shape ",
                                        concat_dim.shape().DebugString()));
    const int n = ctx->num_inputs() - 1;
    for (int i = 1; i <= n; ++i) {
      const Tensor& shape = ctx->input(i);
      OP_REQUIRES(ctx, shape.dims() == 1,
                  errors::InvalidArgument("input ", i, " should be a vector, but got shape ",
                                          shape.shape().DebugString()));
    }
    int64_t cdim = 0;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(concat_dim, &cdim));
    const Tensor& shape0 = ctx->input(1);
    const int64_t dims = shape0.NumElements();
    const int64_t axis = cdim < 0 ? cdim + dims : cdim;
    OP_REQUIRES(ctx, 0 <= axis && axis < dims,
                errors::InvalidArgument("Concat dim is out of range: ", cdim, " vs. ", dims));
    IntegerValues first;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(shape0, &first));
    int64_t offset = 0;
    IntegerValues values;
    for (int i = 0; i < n; ++i) {
      const Tensor& shape = ctx->input(1 + i);
      OP_REQUIRES(ctx, shape.NumElements() == dims,
                  errors::InvalidArgument("input ", i, " should contain ", dims,
                                          " elements, but got ", shape.NumElements()));
      OP_REQUIRES_OK(ctx, IntegerTensorValues(shape, &values));
      Tensor* out = nullptr;
      // shape-safe: an input's element count
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, TensorShape({dims}), &out));
      for (int64_t d = 0; d < dims; ++d) {
        if (d == axis) {
          SetInteger(out, d, offset);
          // Wraps as TensorFlow's int64 sum does.
          offset = static_cast<int64_t>(static_cast<uint64_t>(offset) +
                                        static_cast<uint64_t>(values[d]));
          continue;
        }
        OP_REQUIRES(ctx, values[d] == first[d],
                    errors::InvalidArgument("All dimensions except ", axis, " must match. Input ",
                                            i, " has shape [", shape.SummarizeValue(10),
                                            "] and doesn't match input ", "0 with shape [",
                                            shape0.SummarizeValue(10), "]."));
        SetInteger(out, d, 0);
      }
    }
  }

  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(
    Name("BroadcastGradientArgs").Device(DEVICE_CPU).TypeConstraint("T", {DT_INT32, DT_INT64}),
    BroadcastGradientArgsOp);
REGISTER_KERNEL_BUILDER(
    Name("ConcatOffset").Device(DEVICE_CPU).TypeConstraint("shape_type", {DT_INT32, DT_INT64}),
    ConcatOffsetOp);

}  // namespace
}  // namespace sluice
