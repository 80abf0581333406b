// Human-readable summaries of output tensors for `sluice run`.
//
//   probs: float [4,10]  min 0.0012 max 0.93 mean 0.1
//     values: [0.01 0.02 ...]...
//     top-5 row 0: 3 (0.93), 1 (0.02), ...
//
// Real-valued and bool tensors get min/max/mean (NaNs are counted, not averaged); the first
// values use TensorFlow's printing; a 2-D floating tensor with at least two columns (a
// classifier's scores) gets the top-5 classes of its first rows. Pure functions of the tensor,
// which they read in place: the memory they take does not grow with its size (beyond one row
// of indices for the top-5).
#ifndef SLUICE_TOOLS_CLI_SUMMARY_H_
#define SLUICE_TOOLS_CLI_SUMMARY_H_

#include <cstdint>
#include <limits>
#include <string>

#include "graph/core/tensor.h"

namespace sluice {
namespace cli {

// Statistics of the elements as doubles; NaNs are counted apart, min/max/sum are over the rest.
struct ValueStats {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0;
  int64_t counted = 0;  // elements that are not NaN
  int64_t nans = 0;
};

// One pass over the elements, in place. False (and empty stats) for dtypes that are not real
// numbers or bool.
bool ComputeValueStats(const Tensor& tensor, ValueStats* stats);

std::string SummarizeOutput(const std::string& name, const Tensor& tensor);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_SUMMARY_H_
