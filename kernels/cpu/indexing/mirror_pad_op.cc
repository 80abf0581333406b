// MirrorPad on the CPU: pad each dim with a mirror image of the input's edge, REFLECT (the
// edge element is not repeated: [1,2,3] padded by 2 gives [3,2,1,2,3]) or SYMMETRIC (it is:
// [2,1,1,2,3]).
//
// Validation follows TensorFlow's kernel and texts: input rank at most 5 (UNIMPLEMENTED
// beyond), paddings a [rank, 2] matrix of non-negative entries, each below the dim size
// (REFLECT) or at most the dim size (SYMMETRIC). With no padding the input is forwarded
// unchanged. Output coordinate o of a dim maps to input coordinate i = o - before, reflected
// about the edges; the copy is PadRows (pad_rows.h), moving elements by size. On GPUs the same
// kernel (registered for them too) pads with the GPU's copy (GpuMirrorPad, strided_copy.h).
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "kernels/cpu/indexing/pad_rows.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

constexpr int kMaxMirrorPadDims = 5;

class MirrorPadOp : public OpKernel {
 public:
  explicit MirrorPadOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    if (mode == "REFLECT") {
      offset_ = 1;
    } else if (mode == "SYMMETRIC") {
      offset_ = 0;
    } else {
      OP_REQUIRES(ctx, false, errors::InvalidArgument("mode must be either REFLECT or SYMMETRIC."));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& paddings = ctx->input(1);
    const int dims = input.dims();
    OP_REQUIRES(ctx, dims <= kMaxMirrorPadDims,
                errors::Unimplemented("inputs rank not in [0,", kMaxMirrorPadDims, "]: ", dims));
    OP_REQUIRES(ctx, paddings.dims() == 2 && paddings.dim_size(1) == 2,
                errors::InvalidArgument("paddings must be a matrix with 2 columns: ",
                                        paddings.shape().DebugString()));
    OP_REQUIRES(
        ctx, dims == paddings.dim_size(0),
        errors::InvalidArgument("The first dimension of paddings must be the rank of inputs",
                                paddings.shape().DebugString(), ", ", input.shape().DebugString()));

    PadPlan plan;
    TensorShape output_shape;
    for (int d = 0; d < dims; ++d) {
      const int64_t before = IndexElement(paddings, 2 * d);
      const int64_t after = IndexElement(paddings, 2 * d + 1);
      const int64_t size = input.dim_size(d);
      OP_REQUIRES(ctx, before >= 0 && after >= 0,
                  errors::InvalidArgument("paddings must be non-negative: ", before, " ", after));
      if (offset_ == 0) {
        OP_REQUIRES(ctx, before <= size && after <= size,
                    errors::InvalidArgument("paddings must be no greater than the dimension size: ",
                                            before, ", ", after, " greater than ", size));
      } else {
        OP_REQUIRES(ctx, before < size && after < size,
                    errors::InvalidArgument("paddings must be less than the dimension size: ",
                                            before, ", ", after, " not less than ", size));
      }
      // Bounded by the checks above, so the sum cannot overflow.
      OP_REQUIRES_OK(ctx, output_shape.AddDimWithStatus(before + size + after));
      // on the heap, bounded: one entry per dim, rank <= kMaxMirrorPadDims (checked above), held
      // inline
      plan.in_dims.push_back(size);
      plan.out_dims.push_back(before + size + after);
      if (d == dims - 1) plan.inner_begin = before;
    }
    if (output_shape.num_elements() == input.NumElements()) {
      Tensor out;
      OP_REQUIRES(ctx, out.CopyFrom(input, output_shape),
                  errors::Internal("MirrorPad could not reshape its input"));
      ctx->set_output(0, out);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    if (DataOnGpu(ctx)) {
      absl::InlinedVector<int64_t, kMaxMirrorPadDims> befores;
      for (int d = 0; d < dims; ++d) befores.push_back(IndexElement(paddings, 2 * d));
      OP_REQUIRES_OK(ctx, GpuMirrorPad(ctx, input, plan.in_dims, plan.out_dims, befores,
                                       static_cast<int>(offset_), output));
      return;
    }
    OP_REQUIRES_OK(ctx, AllocateSources(ctx, &plan));
    for (int d = 0; d < dims; ++d) {
      const int64_t before = IndexElement(paddings, 2 * d);
      const int64_t size = plan.in_dims[d];
      int64_t* const source = plan.source[d];
      for (int64_t o = 0; o < plan.out_dims[d]; ++o) {
        int64_t i = o - before;
        if (i < 0) i = -i - 1 + offset_;
        if (i >= size) i = 2 * size - 1 - offset_ - i;
        source[o] = i;
      }
    }
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      PadRows<U>(ctx, plan, ElementsAs<U>(input), MutableElementsAs<U>(output), U{});
    });
  }

 private:
  // 1 for REFLECT (the edge is the mirror's axis), 0 for SYMMETRIC (the mirror lies past it).
  int64_t offset_ = 0;
};

// TensorFlow's CPU registrations: numbers, bool, string and qint8/quint8/qint32.
constexpr DataType kMirrorPadTypes[] = {
#define SLUICE_MIRROR_PAD_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_MIRROR_PAD_TYPE) SLUICE_CALL_bool(SLUICE_MIRROR_PAD_TYPE)
        SLUICE_CALL_string(SLUICE_MIRROR_PAD_TYPE)
#undef SLUICE_MIRROR_PAD_TYPE
            DT_QINT8,
    DT_QUINT8, DT_QINT32};

REGISTER_KERNEL_BUILDER(Name("MirrorPad")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", kMirrorPadTypes)
                            .HostMemory("paddings"),
                        MirrorPadOp);
// On GPUs the same kernel pads with the GPU's copy (kernels/cpu/array/strided_copy.h).
REGISTER_KERNEL_BUILDER(Name("MirrorPad")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("T", array_internal::GpuArrayTypes())
                            .HostMemory("paddings"),
                        MirrorPadOp);

}  // namespace
}  // namespace sluice
