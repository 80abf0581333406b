// Concat, ConcatV2 and Pack: inputs joined along an axis (Pack: along a new axis).
//
// With outer = the product of the dims before the axis, every input is a matrix
// [outer, cols_i] and the output a matrix [outer, sum cols_i]: output row r is input 0's
// row r, then input 1's row r, and so on. Rows are copied by element size, split over the
// intra-op pool. A single input is forwarded without a copy.
#include <cstdint>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;
using array_internal::GpuArrayTypes;

// Copies `inputs`, input i viewed as [outer, cols[i]], side by side into `out`: on a GPU one
// pitched copy per input (GpuCopyRows), on the CPU row by row over the intra-op pool.
void ConcatRows(OpKernelContext* ctx, absl::Span<const Tensor* const> inputs,
                absl::Span<const int64_t> cols, int64_t outer, Tensor* out) {
  int64_t out_cols = 0;
  for (int64_t c : cols) out_cols += c;
  if (outer == 0 || out_cols == 0) return;
  if (DataOnGpu(ctx)) {
    const int64_t unit = DataTypeSize(out->dtype());
    char* dst = static_cast<char*>(out->raw_data());
    for (size_t i = 0; i < inputs.size(); ++i) {
      OP_REQUIRES_OK(ctx, GpuCopyRows(ctx, inputs[i]->raw_data(), cols[i] * unit, dst,
                                      out_cols * unit, cols[i] * unit, outer));
      dst += cols[i] * unit;
    }
    return;
  }
  VisitByElementSize(out->dtype(), [&](auto unit) {
    using U = typename decltype(unit)::type;
    absl::InlinedVector<const U*, 8> src;
    for (const Tensor* t : inputs) src.push_back(static_cast<const U*>(t->raw_data()));
    U* dst = static_cast<U*>(out->raw_data());
    const double row_bytes = static_cast<double>(out_cols) * sizeof(U);
    ParallelFor(ctx, outer, outer * out_cols, Eigen::TensorOpCost(row_bytes, row_bytes, 0),
                [&](int64_t first, int64_t last) {
                  for (int64_t r = first; r < last; ++r) {
                    U* d = dst + r * out_cols;
                    for (size_t i = 0; i < src.size(); ++i) {
                      CopyUnits(src[i] + r * cols[i], d, cols[i]);
                      d += cols[i];
                    }
                  }
                });
  });
}

// Concat (axis first) and ConcatV2 (axis last).
class ConcatOp : public OpKernel {
 public:
  ConcatOp(OpKernelConstruction* ctx, bool axis_first) : OpKernel(ctx), axis_first_(axis_first) {}

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs() - 1;
    const int values_start = axis_first_ ? 1 : 0;
    const Tensor& axis_t = ctx->input(axis_first_ ? 0 : n);
    // A one-element vector is accepted as well, as in TensorFlow.
    OP_REQUIRES(ctx, axis_t.dims() == 0 || (axis_t.dims() == 1 && axis_t.NumElements() == 1),
                errors::InvalidArgument(axis_first_ ? "concat_dim" : "axis",
                                        " tensor should be a scalar integer, but got shape ",
                                        axis_t.shape().DebugString()));
    int64_t axis = 0;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(axis_t, &axis));
    const Tensor& first = ctx->input(values_start);
    const int rank = first.dims();
    OP_REQUIRES(ctx, rank > 0,
                errors::InvalidArgument("ConcatOp : Can't concatenate scalars (use tf.stack "
                                        "instead)"));
    OP_REQUIRES(ctx, -rank <= axis && axis < rank,
                errors::InvalidArgument("ConcatOp : Expected concatenating dimensions in the "
                                        "range [",
                                        -rank, ", ", rank, "), but got ", axis));
    if (axis < 0) axis += rank;
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= first.dim_size(d);
    absl::InlinedVector<const Tensor*, 8> inputs;
    absl::InlinedVector<int64_t, 8> cols;
    int64_t axis_size = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& in = ctx->input(values_start + i);
      OP_REQUIRES(ctx, in.dims() == rank,
                  errors::InvalidArgument("ConcatOp : Ranks of all input tensors should "
                                          "match: shape[0] = ",
                                          first.shape().DebugString(), " vs. shape[", i,
                                          "] = ", in.shape().DebugString()));
      for (int d = 0; d < rank; ++d) {
        if (d == axis) continue;
        OP_REQUIRES(ctx, in.dim_size(d) == first.dim_size(d),
                    errors::InvalidArgument(
                        "ConcatOp : Dimension ", d,
                        " in both shapes must be equal: shape[0] = ", first.shape().DebugString(),
                        " vs. shape[", i, "] = ", in.shape().DebugString()));
      }
      // Inputs without elements can have dims whose sum overflows.
      OP_REQUIRES(
          ctx, in.dim_size(axis) <= std::numeric_limits<int64_t>::max() - axis_size,
          errors::InvalidArgument("ConcatOp : output dimension ", axis, " overflows int64"));
      axis_size += in.dim_size(axis);
      inputs.push_back(&in);
      cols.push_back(outer == 0 ? 0 : in.NumElements() / outer);
    }
    if (n == 1) {
      ctx->set_output(0, first);
      return;
    }
    TensorShape shape = first.shape();
    OP_REQUIRES_OK(ctx, shape.SetDimWithStatus(static_cast<int>(axis), axis_size));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    ConcatRows(ctx, inputs, cols, outer, out);
  }

 private:
  const bool axis_first_;
};

class ConcatV1Op : public ConcatOp {
 public:
  explicit ConcatV1Op(OpKernelConstruction* ctx) : ConcatOp(ctx, /*axis_first=*/true) {}
};

class ConcatV2Op : public ConcatOp {
 public:
  explicit ConcatV2Op(OpKernelConstruction* ctx) : ConcatOp(ctx, /*axis_first=*/false) {}
};

class PackOp : public OpKernel {
 public:
  explicit PackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs();
    const Tensor& first = ctx->input(0);
    const int out_rank = first.dims() + 1;
    int64_t axis = axis_;
    OP_REQUIRES(
        ctx, -out_rank <= axis && axis < out_rank,
        errors::InvalidArgument("axis = ", axis_, " not in [", -out_rank, ", ", out_rank, ")"));
    if (axis < 0) axis += out_rank;
    absl::InlinedVector<const Tensor*, 8> inputs;
    for (int i = 0; i < n; ++i) {
      const Tensor& in = ctx->input(i);
      OP_REQUIRES(ctx, in.shape() == first.shape(),
                  errors::InvalidArgument("Shapes of all inputs must match: values[0].shape = ",
                                          first.shape().DebugString(), " != values[", i,
                                          "].shape = ", in.shape().DebugString()));
      inputs.push_back(&in);
    }
    TensorShape shape = first.shape();
    OP_REQUIRES_OK(ctx, shape.InsertDimWithStatus(static_cast<int>(axis), n));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= first.dim_size(d);
    const int64_t cols = outer == 0 ? 0 : first.NumElements() / outer;
    // heap-ok: one per input of the node
    const absl::InlinedVector<int64_t, 8> all_cols(n, cols);
    ConcatRows(ctx, inputs, all_cols, outer, out);
  }

 private:
  int64_t axis_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("ConcatV2")
                            .Device(DEVICE_CPU)
                            .HostMemory("axis")
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT16,
                                                             DT_QUINT16, DT_QINT32})),
                        ConcatV2Op);
REGISTER_KERNEL_BUILDER(Name("Concat")
                            .Device(DEVICE_CPU)
                            .HostMemory("concat_dim")
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT16,
                                                             DT_QUINT16, DT_QINT32})),
                        ConcatV1Op);
REGISTER_KERNEL_BUILDER(Name("Pack")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT16,
                                                             DT_QUINT16, DT_QINT32, DT_RESOURCE})),
                        PackOp);

// On GPUs the same kernels copy with the GPU's row copy (strided_copy.h).
REGISTER_KERNEL_BUILDER(
    Name("ConcatV2").Device(DEVICE_GPU).HostMemory("axis").TypeConstraint("T", GpuArrayTypes()),
    ConcatV2Op);
REGISTER_KERNEL_BUILDER(
    Name("Concat").Device(DEVICE_GPU).HostMemory("concat_dim").TypeConstraint("T", GpuArrayTypes()),
    ConcatV1Op);
REGISTER_KERNEL_BUILDER(Name("Pack").Device(DEVICE_GPU).TypeConstraint("T", GpuArrayTypes()),
                        PackOp);
// int32 stays in host memory on GPUs (TensorFlow's registrations).
REGISTER_KERNEL_BUILDER(Name("ConcatV2")
                            .Device(DEVICE_GPU)
                            .HostMemory("values")
                            .HostMemory("axis")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ConcatV2Op);
REGISTER_KERNEL_BUILDER(Name("Concat")
                            .Device(DEVICE_GPU)
                            .HostMemory("concat_dim")
                            .HostMemory("values")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ConcatV1Op);
REGISTER_KERNEL_BUILDER(Name("Pack")
                            .Device(DEVICE_GPU)
                            .HostMemory("values")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        PackOp);

}  // namespace
}  // namespace sluice
