#include "kernels/cpu/array/matrix_diag_band.h"

#include <string>

#include "graph/core/errors.h"

namespace sluice {
namespace matrix_diag {

absl::Status ReadDiagAlignment(OpKernelConstruction* ctx, DiagAlignment* alignment) {
  if (!ctx->HasAttr("align")) return absl::OkStatus();
  std::string align;
  RETURN_IF_ERROR(ctx->GetAttr("align", &align));
  alignment->left_super = align == "LEFT_LEFT" || align == "LEFT_RIGHT";
  alignment->left_sub = align == "LEFT_LEFT" || align == "RIGHT_LEFT";
  return absl::OkStatus();
}

absl::Status ReadDiagBand(const Tensor& k, absl::string_view empty_message, DiagBand* band) {
  if (k.dims() > 1) {
    return errors::InvalidArgument("diag_index must be a scalar or vector, received shape: ",
                                   k.shape().DebugString());
  }
  if (k.NumElements() == 0) return errors::InvalidArgument(empty_message);
  if (k.NumElements() > 2) {
    return errors::InvalidArgument("diag_index must have only one or two elements, received ",
                                   k.NumElements(), " elements.");
  }
  const int32_t* values = k.base<int32_t>();
  band->lower = values[0];
  band->upper = values[k.NumElements() - 1];
  return absl::OkStatus();
}

absl::Status CheckBandInMatrix(int64_t rows, int64_t cols, const DiagBand& band,
                               absl::string_view after_lower) {
  if (band.lower != 0 && !(-rows < band.lower && band.lower < cols)) {
    return errors::InvalidArgument("lower_diag_index is out of bound: ", band.lower, after_lower,
                                   "It must be between ", -rows, " and ", cols);
  }
  if (band.upper != 0 && !(-rows < band.upper && band.upper < cols)) {
    return errors::InvalidArgument("upper_diag_index is out of bound: ", band.upper,
                                   " It must be between ", -rows, " and ", cols);
  }
  if (band.lower > band.upper) {
    return errors::InvalidArgument("lower_diag_index must not be larger than upper_diag_index: ",
                                   band.lower, " > ", band.upper);
  }
  return absl::OkStatus();
}

}  // namespace matrix_diag
}  // namespace sluice
