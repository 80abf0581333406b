// Human-readable summaries of output tensors for `sluice run`.
//
//   probs: float [4,10]  min 0.0012 max 0.93 mean 0.1
//     values: [0.01 0.02 ...]...
//     top-5 row 0: 3 (0.93), 1 (0.02), ...
//
// Real-valued and bool tensors get min/max/mean (NaNs are counted, not averaged); the first
// values use TensorFlow's printing; a 2-D floating tensor with at least two columns (a
// classifier's scores) gets the top-5 classes of its first rows. Pure functions of the tensor.
#ifndef SLUICE_TOOLS_CLI_SUMMARY_H_
#define SLUICE_TOOLS_CLI_SUMMARY_H_

#include <string>
#include <vector>

#include "graph/core/tensor.h"

namespace sluice {
namespace cli {

// Appends each element as a double; false (appending nothing) for dtypes that are not real
// numbers or bool.
bool ValuesAsDoubles(const Tensor& tensor, std::vector<double>* values);

std::string SummarizeOutput(const std::string& name, const Tensor& tensor);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_SUMMARY_H_
