// The axis of a scan op (Cumsum, Cumprod, CumulativeLogsumexp) and the input seen from it.
#ifndef SLUICE_KERNELS_CPU_REDUCTION_SCAN_AXIS_H_
#define SLUICE_KERNELS_CPU_REDUCTION_SCAN_AXIS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"

namespace sluice {
namespace reduction {

// The input as [outer, len, inner] around the scanned axis.
struct ScanAxis {
  int axis = 0;
  int64_t outer = 0, len = 0, inner = 1;
};

// `axis` must be a scalar in [-rank, rank) of `input`; INVALID_ARGUMENT with TensorFlow's
// ScanOp messages otherwise. For an empty input, outer and len may be 0.
absl::Status ReadScanAxis(const Tensor& input, const Tensor& axis, ScanAxis* scan);

}  // namespace reduction
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_REDUCTION_SCAN_AXIS_H_
