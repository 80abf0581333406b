// MatrixDiag, MatrixDiagV2 and MatrixDiagV3 on the CPU: batches of matrices whose band
// [lower, upper] holds the given diagonals and whose other entries are padding_value (zero
// for MatrixDiag, whose band is the main diagonal alone).
//
// Checked as TensorFlow does, in its order and with its messages: k a scalar or a vector of
// one or two elements, num_rows, num_cols and padding_value scalars, the diagonal at least a
// vector, lower <= upper, a band's diagonals stacked in the second-to-last dimension, and the
// output at least big enough for the longest diagonal. An unset size (-1) is the smallest that
// fits; with both unset the matrix is square. One of the two must be the smallest, which also
// keeps every diagonal of the band within its row of the input.
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

// Reads the int32 scalar input `index` (num_rows or num_cols) into `value`.
absl::Status ReadSize(OpKernelContext* ctx, int index, const char* name, int64_t* value) {
  const Tensor& t = ctx->input(index);
  if (t.dims() != 0) return errors::InvalidArgument(name, " must be a scalar");
  *value = *t.base<int32_t>();
  return absl::OkStatus();
}

class MatrixDiagOp : public OpKernel {
 public:
  explicit MatrixDiagOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, matrix_diag::ReadDiagAlignment(ctx, &alignment_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& diagonal = ctx->input(0);
    DiagBand band;
    int64_t num_rows = -1, num_cols = -1;
    const Tensor* padding = nullptr;
    if (ctx->num_inputs() > 1) {
      OP_REQUIRES_OK(
          ctx, matrix_diag::ReadDiagBand(ctx->input(1),
                                         "Expected diag_index to have at least 1 element", &band));
      OP_REQUIRES_OK(ctx, ReadSize(ctx, 2, "num_rows", &num_rows));
      OP_REQUIRES_OK(ctx, ReadSize(ctx, 3, "num_cols", &num_cols));
      padding = &ctx->input(4);
      OP_REQUIRES(ctx, padding->dims() == 0,
                  errors::InvalidArgument("padding_value must be a scalar"));
    }
    const int rank = diagonal.dims();
    OP_REQUIRES(ctx, rank >= 1,
                errors::InvalidArgument("diagonal must be at least 1-dim, received shape: ",
                                        diagonal.shape().DebugString()));
    OP_REQUIRES(ctx, band.lower <= band.upper,
                errors::InvalidArgument(
                    "lower_diag_index must not be larger than upper_diag_index: ", band.lower,
                    " > ", band.upper));
    const int64_t num_diags = band.num_diags();
    // A rank-1 diagonal has no dimension to stack a band in (TensorFlow reads past its shape
    // there and fails with this message).
    OP_REQUIRES(ctx,
                band.lower == band.upper || (rank >= 2 && diagonal.dim_size(rank - 2) == num_diags),
                errors::InvalidArgument("The number of diagonals provided in the input does not "
                                        "match the lower_diag_index and upper_diag_index range."));
    const int64_t max_len = diagonal.dim_size(rank - 1);
    const int64_t min_rows = max_len - std::min(band.upper, 0);
    const int64_t min_cols = max_len + std::max(band.lower, 0);
    OP_REQUIRES(ctx, num_rows == -1 || num_rows >= min_rows,
                errors::InvalidArgument("The number of rows is too small."));
    OP_REQUIRES(ctx, num_cols == -1 || num_cols >= min_cols,
                errors::InvalidArgument("The number of columns is too small."));
    if (num_rows == -1 && num_cols == -1) {
      num_rows = num_cols = std::max(min_rows, min_cols);
    } else if (num_rows == -1) {
      num_rows = min_rows;
    } else if (num_cols == -1) {
      num_cols = min_cols;
    }
    OP_REQUIRES(ctx, num_rows == min_rows || num_cols == min_cols,
                errors::InvalidArgument("The number of rows or columns is not consistent with "
                                        "the specified d_lower, d_upper, and diagonal."));
    TensorShape out_shape = diagonal.shape();
    if (num_diags == 1) {
      OP_REQUIRES_OK(ctx, out_shape.SetDimWithStatus(rank - 1, num_rows));
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(num_cols));
    } else {
      OP_REQUIRES_OK(ctx, out_shape.SetDimWithStatus(rank - 2, num_rows));
      OP_REQUIRES_OK(ctx, out_shape.SetDimWithStatus(rank - 1, num_cols));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (output->NumElements() == 0) return;
    VisitByElementSize(diagonal.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U pad = padding != nullptr ? *ElementsAs<U>(*padding) : U{};
      Fill(ctx, ElementsAs<U>(diagonal), band, max_len, num_rows, num_cols, pad,
           MutableElementsAs<U>(output), output->NumElements() / (num_rows * num_cols));
    });
  }

 private:
  template <typename U>
  void Fill(OpKernelContext* ctx, const U* diag, const DiagBand& band, int64_t max_len,
            int64_t rows, int64_t cols, const U& pad, U* out, int64_t batches) const {
    const int64_t matrix = rows * cols;
    const int64_t batch_diag = band.num_diags() * max_len;
    const Eigen::TensorOpCost cost(sizeof(U) * batch_diag, sizeof(U) * matrix, matrix);
    ParallelFor(ctx, batches, batches * matrix, cost, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        U* dst = out + b * matrix;
        for (int64_t i = 0; i < matrix; ++i) dst[i] = pad;
        for (int64_t d = band.lower; d <= band.upper; ++d) {
          const auto place = matrix_diag::PlaceDiagonal(d, max_len, rows, cols, alignment_);
          if (place.length <= 0) continue;  // the band reaches past this matrix
          const U* src = diag + b * batch_diag + (band.upper - d) * max_len + place.offset;
          const int64_t row0 = std::max<int64_t>(0, -d), col0 = std::max<int64_t>(0, d);
          for (int64_t n = 0; n < place.length; ++n) dst[(row0 + n) * cols + col0 + n] = src[n];
        }
      }
    });
  }

  DiagAlignment alignment_;
};

#define REGISTER_MATRIX_DIAG(name)                                                       \
  REGISTER_KERNEL_BUILDER(                                                               \
      Name(name).Device(DEVICE_CPU).TypeConstraint("T", matrix_diag::MatrixDiagTypes()), \
      MatrixDiagOp);
REGISTER_MATRIX_DIAG("MatrixDiag")
REGISTER_MATRIX_DIAG("MatrixDiagV2")
REGISTER_MATRIX_DIAG("MatrixDiagV3")
#undef REGISTER_MATRIX_DIAG

}  // namespace
}  // namespace sluice
