// MatrixSetDiag, MatrixSetDiagV2 and MatrixSetDiagV3 on the CPU: the input with the diagonals
// of band [lower, upper] of each innermost matrix replaced by the given ones, which are laid
// out as MatrixDiagPart returns them (stacked from upper down, aligned as `align` says).
//
// Checked as TensorFlow does, in its order and with its messages: k a scalar or a vector of
// one or two elements, the input at least a matrix and the diagonal at least a vector, both
// ends of the band diagonals of the matrix (or 0), lower <= upper, and the diagonal's shape
// the input's batch dimensions, then the band's count when it has several diagonals, then the
// longest diagonal's length. An unshared input buffer becomes the output, and only the
// diagonals are written into it.
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

class MatrixSetDiagOp : public OpKernel {
 public:
  explicit MatrixSetDiagOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, matrix_diag::ReadDiagAlignment(ctx, &alignment_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& diag = ctx->input(1);
    DiagBand band;
    if (ctx->num_inputs() > 2) {
      OP_REQUIRES_OK(ctx, matrix_diag::ReadDiagBand(
                              ctx->input(2), "diag_index must have at least one element", &band));
    }
    const int rank = input.dims();
    OP_REQUIRES(ctx, rank >= 2,
                errors::InvalidArgument("input must be at least 2-dim, received shape: ",
                                        input.shape().DebugString()));
    OP_REQUIRES(ctx, diag.dims() >= 1,
                errors::InvalidArgument("diagonal must be at least 1-dim, received shape: ",
                                        diag.shape().DebugString()));
    const int64_t rows = input.dim_size(rank - 2);
    const int64_t cols = input.dim_size(rank - 1);
    OP_REQUIRES_OK(ctx, matrix_diag::CheckBandInMatrix(rows, cols, band, " "));
    const int64_t num_diags = band.num_diags();
    // TensorFlow reads dimension rank - 2 of the diagonal whatever its rank; one too short
    // for it cannot match.
    OP_REQUIRES(ctx,
                band.lower == band.upper ||
                    (diag.dims() > rank - 2 && diag.dim_size(rank - 2) == num_diags),
                errors::InvalidArgument("The number of diagonals provided in `diag` is not "
                                        "consistent with `lower_diag_index` and "
                                        "`upper_diag_index`"));
    TensorShape expected = input.shape();
    expected.RemoveLastDims(2);  // shape-safe: the input's rank is at least 2, checked above
    if (num_diags > 1) OP_REQUIRES_OK(ctx, expected.AddDimWithStatus(num_diags));
    const int64_t max_len =
        std::min(rows + std::min(band.upper, 0), cols - std::max<int64_t>(band.lower, 0));
    OP_REQUIRES_OK(ctx, expected.AddDimWithStatus(max_len));
    OP_REQUIRES(ctx, expected == diag.shape(),
                errors::InvalidArgument(
                    "Either first dimensions of diagonal don't match input.shape[:-2], or "
                    "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                    "[lower_diag_index:upper_diag_index].\nInput shape: ",
                    input.shape().DebugString(), "\nDiagonal shape: ", diag.shape().DebugString(),
                    "\nExpected diagonal shape: ", expected.DebugString()));
    if (input.NumElements() == 0) {
      ctx->set_output(0, input);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    const bool in_place = output->raw_data() == input.raw_data();
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      if (!in_place)
        CopyUnits(ElementsAs<U>(input), MutableElementsAs<U>(output), input.NumElements());
      Scatter(ctx, ElementsAs<U>(diag), band, rows, cols, max_len, MutableElementsAs<U>(output),
              input.NumElements() / (rows * cols));
    });
  }

 private:
  template <typename U>
  void Scatter(OpKernelContext* ctx, const U* diag, const DiagBand& band, int64_t rows,
               int64_t cols, int64_t max_len, U* out, int64_t batches) const {
    const int64_t batch_diag = band.num_diags() * max_len;
    const Eigen::TensorOpCost cost(sizeof(U) * batch_diag, sizeof(U) * batch_diag, batch_diag);
    ParallelFor(ctx, batches, batches * batch_diag, cost, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        U* matrix = out + b * rows * cols;
        const U* src = diag + b * batch_diag;
        for (int64_t d = band.upper; d >= band.lower; --d, src += max_len) {
          const auto place = matrix_diag::PlaceDiagonal(d, max_len, rows, cols, alignment_);
          U* dst = matrix + std::max<int64_t>(0, -d) * cols + std::max<int64_t>(0, d);
          for (int64_t n = 0; n < place.length; ++n) dst[n * (cols + 1)] = src[place.offset + n];
        }
      }
    });
  }

  DiagAlignment alignment_;
};

#define REGISTER_MATRIX_SET_DIAG(name)                                                   \
  REGISTER_KERNEL_BUILDER(                                                               \
      Name(name).Device(DEVICE_CPU).TypeConstraint("T", matrix_diag::MatrixDiagTypes()), \
      MatrixSetDiagOp);
REGISTER_MATRIX_SET_DIAG("MatrixSetDiag")
REGISTER_MATRIX_SET_DIAG("MatrixSetDiagV2")
REGISTER_MATRIX_SET_DIAG("MatrixSetDiagV3")
#undef REGISTER_MATRIX_SET_DIAG

}  // namespace
}  // namespace sluice
