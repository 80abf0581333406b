// ExtractImagePatches on the CPU: patches[b, r, c, (i * ksize_cols + j) * depth + d] is
// images[b, r * stride_rows - pad_top + i * rate_rows, c * stride_cols - pad_left +
// j * rate_cols, d], or zero where that lies in the padding. Elements only move, so the
// kernel is written once per element size (every number type TensorFlow registers).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The validated window of one call.
struct PatchGeometry {
  int64_t batch, in_rows, in_cols, depth;
  int64_t ksize_rows, ksize_cols, stride_rows, stride_cols, rate_rows, rate_cols;
  int64_t out_rows, out_cols, pad_top, pad_left;
};

// Reads a 4-value attr that may only vary along the spatial dims, as TensorFlow checks it:
// UNIMPLEMENTED off space, OUT_OF_RANGE for a spatial value below 1.
absl::Status ParseVec4(OpKernelConstruction* ctx, const char* name, std::vector<int32_t>* v) {
  RETURN_IF_ERROR(ctx->GetAttr(name, v));
  if ((*v)[0] != 1 || (*v)[3] != 1) {
    return errors::Unimplemented("Only support ", name, " across space.");
  }
  if ((*v)[1] < 1 || (*v)[2] < 1) return errors::OutOfRange(name, " is out of range.");
  return absl::OkStatus();
}

// Copies the patches of output rows [first, last) (flattened over batch and out_rows).
template <typename U>
void ExtractRows(const PatchGeometry& g, const U* in, U* out, int64_t first, int64_t last) {
  const int64_t out_depth = g.ksize_rows * g.ksize_cols * g.depth;
  for (int64_t row = first; row < last; ++row) {
    const int64_t b = row / g.out_rows;
    const int64_t r = row % g.out_rows;
    const U* image = in + b * g.in_rows * g.in_cols * g.depth;
    U* o = out + row * g.out_cols * out_depth;
    for (int64_t c = 0; c < g.out_cols; ++c) {
      for (int64_t i = 0; i < g.ksize_rows; ++i) {
        const int64_t y = r * g.stride_rows - g.pad_top + i * g.rate_rows;
        for (int64_t j = 0; j < g.ksize_cols; ++j, o += g.depth) {
          const int64_t x = c * g.stride_cols - g.pad_left + j * g.rate_cols;
          if (y < 0 || y >= g.in_rows || x < 0 || x >= g.in_cols) {
            std::fill_n(o, g.depth, U{});  // zero bits: 0 of every number type
          } else {
            std::copy_n(image + (y * g.in_cols + x) * g.depth, g.depth, o);
          }
        }
      }
    }
  }
}

class ExtractImagePatchesOp : public OpKernel {
 public:
  explicit ExtractImagePatchesOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ParseVec4(ctx, "ksizes", &ksizes_));
    OP_REQUIRES_OK(ctx, ParseVec4(ctx, "strides", &strides_));
    OP_REQUIRES_OK(ctx, ParseVec4(ctx, "rates", &rates_));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &padding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(
        ctx, input.dims() == 4,
        errors::InvalidArgument("input must be 4-dimensional", input.shape().DebugString()));
    PatchGeometry g;
    g.batch = input.dim_size(0);
    g.in_rows = input.dim_size(1);
    g.in_cols = input.dim_size(2);
    g.depth = input.dim_size(3);
    g.ksize_rows = ksizes_[1];
    g.ksize_cols = ksizes_[2];
    g.stride_rows = strides_[1];
    g.stride_cols = strides_[2];
    g.rate_rows = rates_[1];
    g.rate_cols = rates_[2];
    const int64_t rows_eff = g.ksize_rows + (g.ksize_rows - 1) * (g.rate_rows - 1);
    const int64_t cols_eff = g.ksize_cols + (g.ksize_cols - 1) * (g.rate_cols - 1);
    OP_REQUIRES_OK(ctx, WindowedOutputSize(g.in_rows, rows_eff, g.stride_rows, padding_, 0, 0,
                                           &g.out_rows, &g.pad_top));
    OP_REQUIRES_OK(ctx, WindowedOutputSize(g.in_cols, cols_eff, g.stride_cols, padding_, 0, 0,
                                           &g.out_cols, &g.pad_left));
    // -1 when the product overflows, which BuildTensorShape rejects.
    const int64_t out_depth =
        MultiplyWithoutOverflow(MultiplyWithoutOverflow(g.ksize_rows, g.ksize_cols), g.depth);
    TensorShape shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape({g.batch, g.out_rows, g.out_cols, out_depth}, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    if (shape.num_elements() == 0) return;
    const int64_t rows = g.batch * g.out_rows;
    const int64_t row_elements = shape.num_elements() / rows;
    const Eigen::TensorOpCost row_cost(row_elements * 4.0, row_elements * 4.0, row_elements);
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* in = static_cast<const U*>(input.raw_data());
      U* out = static_cast<U*>(output->raw_data());
      ParallelFor(ctx, rows, shape.num_elements(), row_cost,
                  [&](int64_t first, int64_t last) { ExtractRows<U>(g, in, out, first, last); });
    });
  }

 private:
  // Attr lists of 4 values (checked in the constructor).
  std::vector<int32_t> ksizes_, strides_, rates_;
  Padding padding_ = VALID;
};

#define REGISTER_CPU(T)                                                                          \
  REGISTER_KERNEL_BUILDER(Name("ExtractImagePatches").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ExtractImagePatchesOp);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
