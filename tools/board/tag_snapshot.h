// TagSnapshot: one tag of one run as a request sees it, copied out of the run's index while the
// board holds its lock (board.h), so the request can then read event files without it.
//
// Also the request helpers the endpoints share: the query's parameters, the step a request
// names, a step's tensor and its statistics. Errors are what the HTTP layer returns: NOT_FOUND
// (404) for a step that is not there, INVALID_ARGUMENT (400) for a malformed parameter or a
// tag of the wrong kind, DATA_LOSS for a value that can no longer be read. Messages name files
// relative to the log folder, never by absolute path.
#ifndef SLUICE_TOOLS_BOARD_TAG_SNAPSHOT_H_
#define SLUICE_TOOLS_BOARD_TAG_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "tools/board/log_folder.h"
#include "tools/board/run_index.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace board {

// A request's query parameters, decoded.
using Query = std::map<std::string, std::string>;

struct TagSnapshot {
  std::string run;
  TagSeries series;
  std::vector<std::string> files;  // RunIndex::file(i)
  // Per entry of series.steps: index.json's statistics, when it has them.
  std::vector<std::optional<cli::TensorStatistics>> captured;
  const LogFolder* folder = nullptr;  // outlives the snapshot
};

// Copies `tag` of `index` (NOT_FOUND naming the run when there is no such tag).
absl::StatusOr<TagSnapshot> TakeSnapshot(const std::string& run, const RunIndex& index,
                                         absl::string_view tag, const LogFolder& folder);

// The parameter `name`: INVALID_ARGUMENT when absent ("step= is required").
absl::StatusOr<std::string> RequiredParam(const Query& query, const std::string& name);
// An integer parameter in [min, max], or `fallback` when absent. Strict decimal, as
// the command line's flags.
absl::StatusOr<int64_t> IntParam(const Query& query, const std::string& name, int64_t min,
                                 int64_t max, int64_t fallback);

// The position in series.steps of the step the query's "step" names.
absl::StatusOr<size_t> FindStep(const TagSnapshot& snapshot, const Query& query);

// INVALID_ARGUMENT unless the tag's values are TensorProtos (`what` says what was asked:
// "a slice").
absl::Status NeedTensors(const TagSnapshot& snapshot, absl::string_view what);

// The value of series.steps[at] as a Tensor (REQUIRES: NeedTensors passed).
absl::StatusOr<Tensor> ReadTensor(const TagSnapshot& snapshot, size_t at);
// The Summary value of series.steps[at].
absl::StatusOr<Summary::Value> ReadSummaryValue(const TagSnapshot& snapshot, size_t at);

// The statistics of series.steps[at]: index.json's, or computed from the tensor.
// `from_index` tells which.
absl::StatusOr<cli::TensorStatistics> StatisticsAt(const TagSnapshot& snapshot, size_t at,
                                                   bool* from_index);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_TAG_SNAPSHOT_H_
