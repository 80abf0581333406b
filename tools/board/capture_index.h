// CaptureIndex: the per-step statistics `sluice run --capture` writes into DIR/index.json
// (its format is in tools/cli/capture.h), looked up by tag and step, so the board shows them
// without reading the tensors again.
//
// index.json describes one event file (its "event_file"); statistics apply only to values read
// from that file. ParseCaptureIndex fails (INVALID_ARGUMENT) only when the text is not JSON or
// not an object with "event_file" and "tensors"; an entry it cannot read (a missing field, a
// negative dimension, an unknown dtype) is skipped, and the board computes that step's
// statistics from the tensor instead. Read-only after parsing; safe to share between threads.
#ifndef SLUICE_TOOLS_BOARD_CAPTURE_INDEX_H_
#define SLUICE_TOOLS_BOARD_CAPTURE_INDEX_H_

#include <cstdint>
#include <string>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace board {

// index.json files larger than this are not read (the board computes statistics instead).
inline constexpr int64_t kMaxCaptureIndexBytes = int64_t{256} << 20;

struct CaptureIndex {
  std::string event_file;  // a file name, without folder
  absl::flat_hash_map<std::string, absl::btree_map<int64_t, cli::TensorStatistics>> tensors;

  // Null when the index has no such tag or step.
  const cli::TensorStatistics* Find(const std::string& tag, int64_t step) const;
};

absl::StatusOr<CaptureIndex> ParseCaptureIndex(absl::string_view json);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_CAPTURE_INDEX_H_
