// MatrixDiagPart, MatrixDiagPartV2 and MatrixDiagPartV3 on the CPU: the diagonals of band
// [lower, upper] of each innermost matrix, stacked from upper down to lower, each padded with
// padding_value (zero for MatrixDiagPart) to the longest of them as `align` says.
//
// Checked as TensorFlow does, in its order and with its messages: k a scalar or a vector of
// one or two elements, padding_value a single element, the input at least a matrix, both ends
// of the band diagonals of the matrix (or 0) and lower <= upper.
//
// Elements are moved by size (graph/core/element_bytes.h); batches are split over the pool.
#include <algorithm>
#include <cstdint>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/array/matrix_diag_band.h"
#include "kernels/cpu/array/matrix_diag_types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using matrix_diag::DiagAlignment;
using matrix_diag::DiagBand;

class MatrixDiagPartOp : public OpKernel {
 public:
  explicit MatrixDiagPartOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, matrix_diag::ReadDiagAlignment(ctx, &alignment_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    DiagBand band;
    const Tensor* padding = nullptr;
    if (ctx->num_inputs() > 1) {
      OP_REQUIRES_OK(
          ctx, matrix_diag::ReadDiagBand(ctx->input(1),
                                         "Expected diag_index to have at least 1 element", &band));
      padding = &ctx->input(2);
      // TensorFlow takes any one-element tensor here.
      OP_REQUIRES(ctx, padding->NumElements() == 1,
                  errors::InvalidArgument("Padding must be scalar."));
    }
    const int rank = input.dims();
    OP_REQUIRES(ctx, rank >= 2,
                errors::InvalidArgument("input must be at least 2-dim, received shape: ",
                                        input.shape().DebugString()));
    const int64_t rows = input.dim_size(rank - 2);
    const int64_t cols = input.dim_size(rank - 1);
    OP_REQUIRES_OK(ctx, matrix_diag::CheckBandInMatrix(rows, cols, band, ". "));
    TensorShape out_shape;
    for (int i = 0; i < rank - 2; ++i) {
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(i)));
    }
    const int64_t num_diags = band.num_diags();
    if (num_diags > 1) OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(num_diags));
    const int64_t max_len =
        std::min(rows + std::min(band.upper, 0), cols - std::max<int64_t>(band.lower, 0));
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(max_len));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (output->NumElements() == 0) return;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U pad = padding != nullptr ? *ElementsAs<U>(*padding) : U{};
      Extract(ctx, ElementsAs<U>(input), band, rows, cols, max_len, pad,
              MutableElementsAs<U>(output), output->NumElements() / (num_diags * max_len));
    });
  }

 private:
  template <typename U>
  void Extract(OpKernelContext* ctx, const U* in, const DiagBand& band, int64_t rows, int64_t cols,
               int64_t max_len, const U& pad, U* out, int64_t batches) const {
    const int64_t batch_out = band.num_diags() * max_len;
    const Eigen::TensorOpCost cost(sizeof(U) * batch_out, sizeof(U) * batch_out, batch_out);
    ParallelFor(ctx, batches, batches * batch_out, cost, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        const U* matrix = in + b * rows * cols;
        U* dst = out + b * batch_out;
        for (int64_t d = band.upper; d >= band.lower; --d, dst += max_len) {
          const auto place = matrix_diag::PlaceDiagonal(d, max_len, rows, cols, alignment_);
          const U* src = matrix + std::max<int64_t>(0, -d) * cols + std::max<int64_t>(0, d);
          for (int64_t n = 0; n < place.offset; ++n) dst[n] = pad;
          for (int64_t n = 0; n < place.length; ++n) dst[place.offset + n] = src[n * (cols + 1)];
          for (int64_t n = place.offset + place.length; n < max_len; ++n) dst[n] = pad;
        }
      }
    });
  }

  DiagAlignment alignment_;
};

#define REGISTER_MATRIX_DIAG_PART(name)                                                  \
  REGISTER_KERNEL_BUILDER(                                                               \
      Name(name).Device(DEVICE_CPU).TypeConstraint("T", matrix_diag::MatrixDiagTypes()), \
      MatrixDiagPartOp);
REGISTER_MATRIX_DIAG_PART("MatrixDiagPart")
REGISTER_MATRIX_DIAG_PART("MatrixDiagPartV2")
REGISTER_MATRIX_DIAG_PART("MatrixDiagPartV3")
#undef REGISTER_MATRIX_DIAG_PART

}  // namespace
}  // namespace sluice
