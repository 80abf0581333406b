// MirrorPadGrad on the CPU: MirrorPad's gradient, which folds a mirror-padded tensor back onto
// the elements each padded element copied (each padded dim's size less both paddings), summing.
//
// Validation and messages are TensorFlow's: input rank at most 5 (UNIMPLEMENTED beyond),
// paddings a [rank, 2] matrix of non-negative entries whose sum is below the dim size (so no dim
// of the input is empty), each below the folded size (REFLECT) or at most it (SYMMETRIC). With no
// padding the input is forwarded unchanged. The dims are folded one at a time, into a temp and
// lastly into the output; a folded element gathers at most three elements (itself, its mirror image
// in the padding before, and in the padding after), since the paddings are smaller than the folded
// dim. Integer sums wrap around as TensorFlow's do.
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

constexpr int kMaxMirrorPadGradDims = 5;

// One dim's fold: a [outer, padded, inner] view of `src` becomes [outer, folded, inner] in
// `dst`. `offset` is 1 for REFLECT (the edge is the mirror's axis) and 0 for SYMMETRIC.
struct DimFold {
  int64_t outer = 1;
  int64_t padded = 0;
  int64_t folded = 0;
  int64_t inner = 1;
  int64_t before = 0;
  int64_t offset = 0;
};

template <typename T>
void FoldDim(OpKernelContext* ctx, const DimFold& f, const T* src, T* dst) {
  const int64_t after_start = f.before + f.folded;
  auto fold_rows = [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const int64_t r = row / f.folded;
      const int64_t i = row % f.folded;
      const T* const base = src + r * f.padded * f.inner;
      const T* const center = base + (f.before + i) * f.inner;
      // The padded position before the data that mirrors i, and the one after it.
      const int64_t left = f.before - 1 + f.offset - i;
      const int64_t right = f.before + 2 * f.folded - 1 - f.offset - i;
      const T* const left_row = (left >= 0 && left < f.before) ? base + left * f.inner : nullptr;
      const T* const right_row =
          (right >= after_start && right < f.padded) ? base + right * f.inner : nullptr;
      T* const out = dst + row * f.inner;
      for (int64_t k = 0; k < f.inner; ++k) {
        T sum = center[k];
        if (left_row != nullptr) sum = WrappingAdd(sum, left_row[k]);
        if (right_row != nullptr) sum = WrappingAdd(sum, right_row[k]);
        out[k] = sum;
      }
    }
  };
  const int64_t rows = f.outer * f.folded;
  ParallelFor(ctx, rows, rows * f.inner,
              Eigen::TensorOpCost(3 * sizeof(T) * f.inner, sizeof(T) * f.inner, 3 * f.inner),
              fold_rows);
}

template <typename T>
class MirrorPadGradOp : public OpKernel {
 public:
  explicit MirrorPadGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
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
    OP_REQUIRES(
        ctx, dims <= kMaxMirrorPadGradDims,
        errors::Unimplemented("inputs rank not in [0,", kMaxMirrorPadGradDims, "]: ", dims));
    OP_REQUIRES(ctx, paddings.dims() == 2 && paddings.dim_size(1) == 2,
                errors::InvalidArgument("paddings must be a matrix with 2 columns: ",
                                        paddings.shape().DebugString()));
    OP_REQUIRES(
        ctx, dims == paddings.dim_size(0),
        errors::InvalidArgument("The first dimension of paddings must be the rank of inputs",
                                paddings.shape().DebugString(), " ", input.shape().DebugString()));

    TensorShape output_shape;
    absl::InlinedVector<int64_t, kMaxMirrorPadGradDims> befores;
    for (int d = 0; d < dims; ++d) {
      const int64_t before = IndexElement(paddings, 2 * d);
      const int64_t after = IndexElement(paddings, 2 * d + 1);
      OP_REQUIRES(ctx, before >= 0 && after >= 0,
                  errors::InvalidArgument("Paddings must be non-negative: ", before, ", ", after));
      // The sum wraps on overflow as TensorFlow's does; the mode's check below then fails.
      const int64_t total = WrappingAdd(before, after);
      OP_REQUIRES(ctx, total < input.dim_size(d),
                  errors::InvalidArgument(
                      "Total paddings must be less than the input dimension size: ", total,
                      " was not less than ", input.dim_size(d)));
      const int64_t folded = WrappingSub(input.dim_size(d), total);
      if (offset_ == 0) {
        OP_REQUIRES(ctx, before <= folded && after <= folded,
                    errors::InvalidArgument(
                        "paddings must be no greater than the output dimension size: ", before,
                        ", ", after, " greater than ", folded));
      } else {
        OP_REQUIRES(ctx, before < folded && after < folded,
                    errors::InvalidArgument(
                        "paddings must be less than the output dimension size: ", before, ", ",
                        after, " not less than ", folded));
      }
      OP_REQUIRES_OK(ctx, output_shape.AddDimWithStatus(folded));
      befores.push_back(before);
    }
    if (output_shape == input.shape()) {
      ctx->set_output(0, input);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));

    // The dims still to fold, last one into the output.
    absl::InlinedVector<int, kMaxMirrorPadGradDims> padded_dims;
    for (int d = 0; d < dims; ++d) {
      if (input.dim_size(d) != output_shape.dim_size(d)) padded_dims.push_back(d);
    }
    TensorShape shape = input.shape();
    Tensor current = input;
    for (size_t n = 0; n < padded_dims.size(); ++n) {
      const int d = padded_dims[n];
      DimFold f;
      for (int k = 0; k < d; ++k) f.outer *= shape.dim_size(k);
      for (int k = d + 1; k < dims; ++k) f.inner *= shape.dim_size(k);
      f.padded = shape.dim_size(d);
      f.folded = output_shape.dim_size(d);
      f.before = befores[d];
      f.offset = offset_;
      // shape-safe: the folded size is positive and below the dim it replaces (checked above)
      shape.set_dim(d, f.folded);
      Tensor next;
      if (n + 1 == padded_dims.size()) {
        next = *output;
      } else {
        OP_REQUIRES_OK(ctx, ctx->allocate_temp(input.dtype(), shape, &next));
      }
      FoldDim<T>(ctx, f, current.flat<T>().data(), next.flat<T>().data());
      current = next;
    }
  }

 private:
  int64_t offset_ = 0;
};

// TensorFlow's CPU registrations: the number types (MirrorPad also takes bool, strings and the
// quantized types; its gradient does not).
#define REGISTER_CPU(T)                                                                       \
  REGISTER_KERNEL_BUILDER(                                                                    \
      Name("MirrorPadGrad").Device(DEVICE_CPU).TypeConstraint<T>("T").HostMemory("paddings"), \
      MirrorPadGradOp<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
