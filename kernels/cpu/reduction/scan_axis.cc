#include "kernels/cpu/reduction/scan_axis.h"

#include "graph/core/errors.h"
#include "kernels/cpu/reduction/reduction_plan.h"

namespace sluice {
namespace reduction {

absl::Status ReadScanAxis(const Tensor& input, const Tensor& axis, ScanAxis* scan) {
  if (axis.dims() != 0) {
    return errors::InvalidArgument("ScanOp: axis must be a scalar, not ",
                                   axis.shape().DebugString());
  }
  const int64_t value = ScalarIndexValue(axis);
  const int rank = input.dims();
  if (value < -rank || value >= rank) {
    return errors::InvalidArgument("ScanOp: Expected scan axis in the range [", -rank, ", ", rank,
                                   "), but got ", value);
  }
  scan->axis = static_cast<int>(value < 0 ? value + rank : value);
  scan->len = input.dim_size(scan->axis);
  scan->inner = 1;
  for (int d = scan->axis + 1; d < rank; ++d) scan->inner *= input.dim_size(d);
  const int64_t slab = scan->len * scan->inner;
  scan->outer = slab == 0 ? 0 : input.NumElements() / slab;
  return absl::OkStatus();
}

}  // namespace reduction
}  // namespace sluice
