// The band of diagonals that the MatrixDiag, MatrixDiagPart and MatrixSetDiag kernels work on,
// and where each diagonal of it lies, in the matrix and in its padded row of the stacked
// diagonals. Shared by the three kernels so that they read `k` and `align` alike.
//
// Diagonal d holds the entries (i, i + d): 0 is the main diagonal, d > 0 lies above it. A band
// [lower, upper] is stored as upper - lower + 1 rows of max_len elements, diagonal upper first;
// a shorter diagonal sits at the left or at the right of its row as `align` says, and the rest
// of the row is padding.
#ifndef SLUICE_KERNELS_CPU_ARRAY_MATRIX_DIAG_BAND_H_
#define SLUICE_KERNELS_CPU_ARRAY_MATRIX_DIAG_BAND_H_

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace matrix_diag {

struct DiagBand {
  int32_t lower = 0;
  int32_t upper = 0;
  int64_t num_diags() const { return int64_t{upper} - lower + 1; }
};

// Whether super- and subdiagonals shorter than the longest are stored left-aligned. V1 and V2
// ops have no `align` attr and align both to the left; the main diagonal follows the
// subdiagonals' setting.
struct DiagAlignment {
  bool left_super = true;
  bool left_sub = true;
};

// Reads the `align` attr when the node's op has one.
absl::Status ReadDiagAlignment(OpKernelConstruction* ctx, DiagAlignment* alignment);

// Reads `k` (int32) as TensorFlow's kernels do: a scalar or a vector of one or two elements.
// `empty_message` is the op's own message for an empty `k`. Does not order the ends.
absl::Status ReadDiagBand(const Tensor& k, absl::string_view empty_message, DiagBand* band);

// Both ends of `band` must be diagonals of a rows x cols matrix, or 0; then lower <= upper.
// `after_lower` is what TensorFlow's message puts after the bad lower index (". " or " ").
absl::Status CheckBandInMatrix(int64_t rows, int64_t cols, const DiagBand& band,
                               absl::string_view after_lower);

// Where diagonal d of a rows x cols matrix lies in its row of max_len elements.
struct DiagPlacement {
  int64_t length;  // elements of the diagonal in the matrix
  int64_t offset;  // index in the row of its first element
};
inline DiagPlacement PlaceDiagonal(int64_t d, int64_t max_len, int64_t rows, int64_t cols,
                                   const DiagAlignment& alignment) {
  const bool left = (d >= 0 && alignment.left_super) || (d <= 0 && alignment.left_sub);
  const int64_t length = std::min(rows + std::min<int64_t>(0, d), cols - std::max<int64_t>(0, d));
  return {length, left ? 0 : max_len - length};
}

}  // namespace matrix_diag
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_MATRIX_DIAG_BAND_H_
