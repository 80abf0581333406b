// Pad and PadV2 on the CPU: surround the input with before/after elements per dim, equal to
// zero (Pad; "" for strings) or to the scalar constant_values (PadV2).
//
// Validation follows TensorFlow's kernel and texts: input rank at most 8 (UNIMPLEMENTED
// beyond, as TensorFlow), paddings a [rank, 2] matrix, non-negative entries, a scalar
// constant value, an output shape that fits. With no padding at all the input is forwarded
// unchanged (sharing its buffer). The copy itself is PadRows (pad_rows.h), moving elements by
// size so one instantiation serves every dtype of that size; on GPUs, the GPU's padding
// (kernels/cuda/array_copies.cu) over the same merged dims.
#include <cstdint>
#include <limits>
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

constexpr int kMaxPadDims = 8;
// TensorFlow's kernel merges each run of unpadded dims into one and handles at most this
// many dims after merging (INVALID_ARGUMENT beyond); Sluice keeps the limit to agree.
constexpr int kMaxMergedPadDims = 6;

// The input shape with each run of unpadded dims merged into one dim, as TensorFlow's error
// message shows it (`any_merged` tells whether there was an unpadded dim at all). Its rank is
// at most the input's and its dims are products of runs of the input's dims, so it is valid.
TensorShape MergedPadShape(const Tensor& input, const Tensor& paddings, bool* any_merged) {
  TensorShape merged;
  *any_merged = false;
  for (int d = 0; d < input.dims();) {
    if (IndexElement(paddings, 2 * d) != 0 || IndexElement(paddings, 2 * d + 1) != 0) {
      merged.AddDim(input.dim_size(d++));  // shape-safe: one of the input's dims
      continue;
    }
    int64_t size = 1;
    for (; d < input.dims() && IndexElement(paddings, 2 * d) == 0 &&
           IndexElement(paddings, 2 * d + 1) == 0;
         ++d) {
      size *= input.dim_size(d);
    }
    merged.AddDim(size);  // shape-safe: the product of a run of the input's dims
    *any_merged = true;
  }
  return merged;
}

class PadOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& paddings = ctx->input(1);
    const int dims = input.dims();
    OP_REQUIRES(ctx, dims <= kMaxPadDims,
                errors::Unimplemented("inputs rank not in [0,", kMaxPadDims, "]: ", dims));
    OP_REQUIRES(ctx, paddings.dims() == 2 && paddings.dim_size(1) == 2,
                errors::InvalidArgument("paddings must be a matrix with 2 columns: ",
                                        paddings.shape().DebugString()));
    OP_REQUIRES(
        ctx, dims == paddings.dim_size(0),
        errors::InvalidArgument("The first dimension of paddings must be the rank of inputs",
                                paddings.shape().DebugString(), " ", input.shape().DebugString()));
    const Tensor* constant = nullptr;
    if (ctx->num_inputs() == 3) {
      constant = &ctx->input(2);
      OP_REQUIRES(ctx, constant->dims() == 0,
                  errors::InvalidArgument("constant_values must be a scalar. Found: ",
                                          constant->shape().DebugString()));
    }

    TensorShape output_shape;
    for (int d = 0; d < dims; ++d) {
      const int64_t before = IndexElement(paddings, 2 * d);
      const int64_t after = IndexElement(paddings, 2 * d + 1);
      OP_REQUIRES(ctx, before >= 0 && after >= 0,
                  errors::InvalidArgument("Paddings must be non-negative: ", before, " ", after));
      const int64_t size = input.dim_size(d);
      OP_REQUIRES(ctx, before <= kint64max - size - after,
                  errors::InvalidArgument("Padded size of dimension ", d,
                                          " overflows int64: ", before, " + ", size, " + ", after));
      OP_REQUIRES_OK(ctx, output_shape.AddDimWithStatus(before + size + after));
    }
    if (output_shape.num_elements() == input.NumElements()) {
      // Nothing to add (or nothing at all): the input is the output, reshaped if empty.
      Tensor out;
      OP_REQUIRES(ctx, out.CopyFrom(input, output_shape),
                  errors::Internal("Pad could not reshape its input"));
      ctx->set_output(0, out);
      return;
    }
    bool any_merged = false;
    const TensorShape merged = MergedPadShape(input, paddings, &any_merged);
    OP_REQUIRES(ctx, merged.dims() <= kMaxMergedPadDims,
                errors::InvalidArgument("Only ranks up to ", kMaxMergedPadDims, " supported: ",
                                        (any_merged ? merged : input.shape()).DebugString()));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    // A dim without padding folds into the dim before it: [.., W, C] padded only along W by
    // (b, a) is [.., W*C] padded by (b*C, a*C). NHWC images padded along H and W then copy
    // rows of W*C elements rather than rows of C. (Constant padding only: mirror padding
    // would reverse the folded channels.) The products cannot overflow: each is at most an
    // element count of the output, which AddDimWithStatus bounded.
    PadPlan plan;
    absl::InlinedVector<int64_t, 8> befores;
    for (int d = 0; d < dims; ++d) {
      const int64_t before = IndexElement(paddings, 2 * d);
      const int64_t after = IndexElement(paddings, 2 * d + 1);
      const int64_t size = input.dim_size(d);
      if (d > 0 && before == 0 && after == 0) {
        plan.in_dims.back() *= size;
        plan.out_dims.back() *= size;
        befores.back() *= size;
      } else {
        // on the heap, bounded: one entry per dim, rank <= kMaxPadDims (checked above), held inline
        plan.in_dims.push_back(size);
        plan.out_dims.push_back(before + size + after);
        befores.push_back(before);
      }
    }
    plan.inner_begin = befores.back();
    if (DataOnGpu(ctx)) {
      // The pad value is in host memory (constant_values is a HostMemory argument on GPUs).
      const void* pad_value = constant != nullptr ? constant->raw_data() : &kZeroBytes;
      OP_REQUIRES_OK(ctx,
                     GpuPad(ctx, input, plan.in_dims, plan.out_dims, befores, pad_value, output));
      return;
    }
    OP_REQUIRES_OK(ctx, AllocateSources(ctx, &plan));
    for (size_t d = 0; d < befores.size(); ++d) {
      int64_t* const source = plan.source[d];
      for (int64_t o = 0; o < plan.out_dims[d]; ++o) {
        const int64_t i = o - befores[d];
        source[o] = i >= 0 && i < plan.in_dims[d] ? i : -1;
      }
    }
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      U pad_value{};
      if (constant != nullptr) pad_value = ElementsAs<U>(*constant)[0];
      PadRows<U>(ctx, plan, ElementsAs<U>(input), MutableElementsAs<U>(output), pad_value);
    });
  }

 private:
  static constexpr int64_t kint64max = std::numeric_limits<int64_t>::max();
  // Pad's value on GPUs, wide enough for any element (all zero bits is zero in every type a
  // GPU holds).
  static constexpr unsigned char kZeroBytes[16] = {};
};

// TensorFlow's CPU registrations: numbers, bool, string and qint8/quint8/qint32.
constexpr DataType kPadTypes[] = {
#define SLUICE_PAD_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_PAD_TYPE) SLUICE_CALL_bool(SLUICE_PAD_TYPE)
        SLUICE_CALL_string(SLUICE_PAD_TYPE)
#undef SLUICE_PAD_TYPE
            DT_QINT8,
    DT_QUINT8, DT_QINT32};

REGISTER_KERNEL_BUILDER(
    Name("Pad").Device(DEVICE_CPU).TypeConstraint("T", kPadTypes).HostMemory("paddings"), PadOp);
REGISTER_KERNEL_BUILDER(
    Name("PadV2").Device(DEVICE_CPU).TypeConstraint("T", kPadTypes).HostMemory("paddings"), PadOp);
// On GPUs the same kernel pads with the GPU's copy (kernels/cpu/array/strided_copy.h).
REGISTER_KERNEL_BUILDER(Name("Pad")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("T", array_internal::GpuArrayTypes())
                            .HostMemory("paddings"),
                        PadOp);
REGISTER_KERNEL_BUILDER(Name("PadV2")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("T", array_internal::GpuArrayTypes())
                            .HostMemory("paddings")
                            .HostMemory("constant_values"),
                        PadOp);

}  // namespace
}  // namespace sluice
