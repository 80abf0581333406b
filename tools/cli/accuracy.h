// Top-1 accuracy of a classifier's scores against integer labels, for `sluice run --labels`.
//
// `scores` must be a floating [N, C] tensor (probabilities or logits; only their order
// matters) and `labels` an integer tensor of N elements ([N] or [N, 1]); ties pick the lower
// class, as numpy's argmax does. Errors are INVALID_ARGUMENT naming both shapes/dtypes;
// a label outside [0, C) simply counts as wrong.
#ifndef SLUICE_TOOLS_CLI_ACCURACY_H_
#define SLUICE_TOOLS_CLI_ACCURACY_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"

namespace sluice {
namespace cli {

struct Accuracy {
  int64_t correct = 0;
  int64_t total = 0;
};

absl::Status TopOneAccuracy(const Tensor& scores, const Tensor& labels, Accuracy* accuracy);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_ACCURACY_H_
