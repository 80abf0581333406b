// TensorStatistics: what `sluice run --capture` records about each value and what
// `--check-numerics` reports: counts of NaN, +Inf, -Inf and zeros, and min, max, mean and
// standard deviation of the finite elements.
//
// One pass over the elements, read in place (nothing is copied, whatever the tensor's size).
// Real-number and bool dtypes have statistics; others (strings, complex, resources, variants)
// get only their shape and dtype (has_values false).
#ifndef SLUICE_TOOLS_CLI_TENSOR_STATISTICS_H_
#define SLUICE_TOOLS_CLI_TENSOR_STATISTICS_H_

#include <cstdint>
#include <string>

#include "graph/core/real_elements.h"  // IWYU pragma: export (VisitRealElements)
#include "graph/core/tensor.h"

namespace sluice {
namespace cli {

struct TensorStatistics {
  DataType dtype = DT_INVALID;
  TensorShape shape;
  bool has_values = false;  // whether the counts below were computed (see the file comment)
  int64_t elements = 0;
  int64_t nans = 0;
  int64_t positive_infinities = 0;
  int64_t negative_infinities = 0;
  int64_t zeros = 0;
  int64_t finite = 0;  // elements that are neither NaN nor infinite
  // Of the finite elements; 0 when there are none. std is the population deviation.
  double min = 0;
  double max = 0;
  double mean = 0;
  double std = 0;

  bool HasNonFinite() const { return nans + positive_infinities + negative_infinities > 0; }
  // "float [2,3] min -1 max 4 mean 0.5 std 1.2 (1 NaN, 2 +Inf)".
  std::string DebugString() const;
};

TensorStatistics ComputeTensorStatistics(const Tensor& tensor);

// Whether a value of `dtype` can hold a NaN or an infinity (the floating dtypes).
bool CanBeNonFinite(DataType dtype);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_TENSOR_STATISTICS_H_
