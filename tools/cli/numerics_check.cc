#include "tools/cli/numerics_check.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"

namespace sluice {
namespace cli {
namespace {

std::string NonFiniteCounts(const TensorStatistics& s) {
  std::vector<std::string> parts;
  if (s.nans > 0) parts.push_back(absl::StrCat(s.nans, " NaN"));
  if (s.positive_infinities > 0) parts.push_back(absl::StrCat(s.positive_infinities, " +Inf"));
  if (s.negative_infinities > 0) parts.push_back(absl::StrCat(s.negative_infinities, " -Inf"));
  return absl::StrJoin(parts, ", ");
}

}  // namespace

void NumericsChecker::BeginStep(int64_t step) {
  absl::MutexLock lock(&mu_);
  step_ = step;
  seen_.clear();
}

absl::Status NumericsChecker::OnOutput(const Node& node, int output, const Tensor& value) {
  TensorStatistics stats = ComputeTensorStatistics(value);
  if (!stats.has_values) return absl::OkStatus();
  const bool bad = stats.HasNonFinite();
  absl::MutexLock lock(&mu_);
  if (!bad) {
    seen_[absl::StrCat(node.name(), ":", output)] = std::move(stats);
    return absl::OkStatus();
  }
  std::string message =
      absl::StrCat("--check-numerics: output ", output, " of node '", node.name(), "' (op ",
                   node.type_string(), ") has ", NonFiniteCounts(stats), " at step ", step_,
                   "\n\t output ", output, ": ", stats.DebugString());
  std::vector<const Edge*> inputs(node.num_inputs(), nullptr);
  for (const Edge* edge : node.in_edges()) {
    if (!edge->IsControlEdge()) inputs[edge->dst_input()] = edge;
  }
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    if (inputs[i] == nullptr) continue;
    const std::string name = absl::StrCat(inputs[i]->src()->name(), ":", inputs[i]->src_output());
    const auto found = seen_.find(name);
    absl::StrAppend(&message, "\n\t input ", i, " (", name, "): ",
                    found == seen_.end() ? "not recorded (not a real-valued tensor)"
                                         : found->second.DebugString());
  }
  return errors::InvalidArgument(message);
}

}  // namespace cli
}  // namespace sluice
