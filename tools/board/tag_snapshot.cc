#include "tools/board/tag_snapshot.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"

namespace sluice {
namespace board {
namespace {

bool IsStrictInteger(absl::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// `status` with the resolved path of `file` replaced by its name in the log folder.
absl::Status Relativise(const absl::Status& status, const TagSnapshot& snapshot,
                        const std::string& file) {
  return absl::Status(
      status.code(),
      absl::StrReplaceAll(status.message(), {{file, snapshot.folder->Relative(file)}}));
}

}  // namespace

absl::StatusOr<TagSnapshot> TakeSnapshot(const std::string& run, const RunIndex& index,
                                         absl::string_view tag, const LogFolder& folder) {
  const TagSeries* series = index.Find(tag);
  if (series == nullptr) return errors::NotFound("no tag '", tag, "' in run '", run, "'");
  TagSnapshot snapshot;
  snapshot.run = run;
  snapshot.series = *series;
  snapshot.folder = &folder;
  for (const StepEntry& entry : series->steps) {
    while (static_cast<int>(snapshot.files.size()) <= entry.file) {
      snapshot.files.push_back(index.file(static_cast<int>(snapshot.files.size())));
    }
    const cli::TensorStatistics* stats = index.CapturedStatistics(*series, entry);
    snapshot.captured.push_back(stats == nullptr ? std::nullopt : std::make_optional(*stats));
  }
  return snapshot;
}

absl::StatusOr<std::string> RequiredParam(const Query& query, const std::string& name) {
  auto it = query.find(name);
  if (it == query.end()) return errors::InvalidArgument(name, "= is required");
  return it->second;
}

absl::StatusOr<int64_t> IntParam(const Query& query, const std::string& name, int64_t min,
                                 int64_t max, int64_t fallback) {
  auto it = query.find(name);
  if (it == query.end()) return fallback;
  int64_t value;
  if (!IsStrictInteger(it->second) || !absl::SimpleAtoi(it->second, &value)) {
    return errors::InvalidArgument(name, "='", it->second, "' is not an integer");
  }
  if (value < min || value > max) {
    return errors::InvalidArgument(name, " must be between ", min, " and ", max, ", got ", value);
  }
  return value;
}

absl::StatusOr<size_t> FindStep(const TagSnapshot& snapshot, const Query& query) {
  RETURN_IF_ERROR(RequiredParam(query, "step").status());
  ASSIGN_OR_RETURN(int64_t step, IntParam(query, "step", std::numeric_limits<int64_t>::min(),
                                          std::numeric_limits<int64_t>::max(), 0));
  const std::vector<StepEntry>& steps = snapshot.series.steps;
  auto at = std::lower_bound(steps.begin(), steps.end(), step,
                             [](const StepEntry& e, int64_t s) { return e.step < s; });
  if (at == steps.end() || at->step != step) {
    return errors::NotFound("tag '", snapshot.series.tag, "' has no step ", step,
                            steps.empty()
                                ? std::string(" (it has none)")
                                : absl::StrCat(" (its steps run from ", steps.front().step, " to ",
                                               steps.back().step, ")"));
  }
  return static_cast<size_t>(at - steps.begin());
}

absl::Status NeedTensors(const TagSnapshot& snapshot, absl::string_view what) {
  if (snapshot.series.value_case == Summary::Value::kTensor) return absl::OkStatus();
  return errors::InvalidArgument("tag '", snapshot.series.tag, "' is a ",
                                 TagKindName(snapshot.series.kind),
                                 " summary without tensors, which has no ", what);
}

absl::StatusOr<Summary::Value> ReadSummaryValue(const TagSnapshot& snapshot, size_t at) {
  const StepEntry& entry = snapshot.series.steps[at];
  const std::string& file = snapshot.files[entry.file];
  absl::StatusOr<Summary::Value> value = ReadValue(file, entry, snapshot.series.tag);
  if (!value.ok()) return Relativise(value.status(), snapshot, file);
  return value;
}

absl::StatusOr<Tensor> ReadTensor(const TagSnapshot& snapshot, size_t at) {
  ASSIGN_OR_RETURN(Summary::Value value, ReadSummaryValue(snapshot, at));
  Tensor tensor;
  absl::Status status = TensorFromProto(value.tensor(), &tensor);
  if (!status.ok()) {
    return errors::DataLoss("the value of '", snapshot.series.tag, "' at step ",
                            snapshot.series.steps[at].step,
                            " is not a valid tensor: ", status.message());
  }
  return tensor;
}

absl::StatusOr<cli::TensorStatistics> StatisticsAt(const TagSnapshot& snapshot, size_t at,
                                                   bool* from_index) {
  *from_index = snapshot.captured[at].has_value();
  if (*from_index) return *snapshot.captured[at];
  ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(snapshot, at));
  return cli::ComputeTensorStatistics(tensor);
}

}  // namespace board
}  // namespace sluice
