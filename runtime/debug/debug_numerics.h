// The values of TensorFlow's tfdbg (v1) numeric debug ops, computed from a node output:
//
// DebugNanCount: an int64 tensor of shape [1] holding the number of NaN elements.
// Defined for the real number dtypes (float, double, half, bfloat16, the signed and unsigned
// integers); not for bool, strings, complex or handles (TensorFlow has no kernel for them).
//
// DebugNumericSummary: a double vector of 14 + ndims entries:
//   [0] 1 (the tensor is initialized; every node output is)   [1] element count
//   [2] NaN count        [3] -inf count     [4] negative count (finite, < 0)
//   [5] zero count       [6] positive count (finite, > 0)      [7] +inf count
//   [8] min   [9] max   [10] mean   [11] variance (population), all over the finite elements
//   [12] the DataType enum value   [13] ndims   [14...] the dims
// With no finite element, min is +inf, max -inf, mean and variance NaN. Defined for float,
// double, the integers and bool (as 0 and 1); not for half and bfloat16 (TensorFlow registers
// no kernel for them), strings, complex or handles.
// Custom bounds (the op's lower_bound / upper_bound attributes, infinite by default): a
// finite element <= lower_bound counts as -inf and one >= upper_bound as +inf, yet it still
// enters min, max, mean and variance.
//
// The arithmetic is TensorFlow's, in its order (elements converted to double, summed from the
// first; mean = sum / count; variance from a second pass over (x - mean)^2), so the values
// are bit for bit those TensorFlow dumps.
#ifndef SLUICE_RUNTIME_DEBUG_DEBUG_NUMERICS_H_
#define SLUICE_RUNTIME_DEBUG_DEBUG_NUMERICS_H_

#include <cstdint>
#include <limits>

#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {

struct NumericSummaryBounds {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

bool HasNanCount(DataType dtype);
bool HasNumericSummary(DataType dtype);

// REQUIRES: HasNanCount(value.dtype()).
Tensor DebugNanCount(const Tensor& value);
// REQUIRES: HasNumericSummary(value.dtype()).
Tensor DebugNumericSummary(const Tensor& value, const NumericSummaryBounds& bounds = {});

// Whether a summary counts no NaN and no infinity (what mute_if_healthy keeps quiet).
bool IsHealthySummary(const Tensor& summary);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEBUG_DEBUG_NUMERICS_H_
