// RunIndex: what a run's event files hold, tag by tag and step by step, kept up to date as the
// files grow (a capture or a training job still writing them).
//
// Each tag is a series of steps. The index keeps where each value is (file, record offset,
// position in the Summary) rather than the value, so a run of large captured tensors costs
// little memory; ReadValue reads one again. Scalars keep their value, tensors their dtype and
// shape. What kind of tag it is comes from its first value (TensorBoard's rule; TensorFlow 2
// writes the metadata only then): simple_value is a scalar, histo a histogram, image and audio
// their own; a TensorProto is a scalar, histogram, image or audio when its plugin is
// "scalars", "histograms", "images" or "audio", else a tensor. Later values of another form
// are ignored. A step written again replaces the value before (the last one counts, as in
// TensorBoard). Values of the "sluice.capture" plugin carry the node, op and output that
// produced them (tools/cli/capture.h).
//
// Refresh reads only what was appended since the last call: a file whose size and time are
// unchanged is not opened, one that grew is read from where reading stopped. A file that
// shrank or vanished makes the whole index start again. Reading stops at a record that is
// incomplete (the writer's next flush completes it; it is read on a later Refresh) or corrupt
// (named by warnings(); records after a corrupt one are not reached). A record that is not an
// Event is skipped with a warning. The run's index.json is read again whenever it changes.
//
// Not thread-safe: the board serialises Refresh and reads (board.h).
#ifndef SLUICE_TOOLS_BOARD_RUN_INDEX_H_
#define SLUICE_TOOLS_BOARD_RUN_INDEX_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graph/core/types.h"
#include "proto/event.pb.h"
#include "proto/summary.pb.h"
#include "tools/board/capture_index.h"
#include "tools/board/log_folder.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace board {

enum class TagKind { kScalar, kHistogram, kImage, kAudio, kTensor };

// "scalar", "histogram", "image", "audio", "tensor".
const char* TagKindName(TagKind kind);

// The plugin name of `sluice run --capture`'s values.
inline constexpr char kCapturePlugin[] = "sluice.capture";

struct StepEntry {
  int64_t step = 0;
  double wall_time = 0;
  // Where the value is: RunIndex::file(file), the record at `offset`, Summary value `value`.
  int file = 0;
  uint64_t offset = 0;
  int value = 0;
  double scalar = 0;           // kScalar
  std::vector<int64_t> shape;  // values that are TensorProtos
};

struct TagSeries {
  std::string tag;
  TagKind kind = TagKind::kTensor;
  Summary::Value::ValueCase value_case = Summary::Value::VALUE_NOT_SET;
  std::string plugin;
  DataType dtype = DT_INVALID;  // TensorProto values
  // kCapturePlugin values: what the plugin content names (output -1 otherwise).
  std::string node;
  std::string op;
  int64_t output = -1;
  std::vector<StepEntry> steps;  // ascending, one per step
};

class RunIndex {
 public:
  // Brings the index up to date with the files `run` lists (LogFolder::FindRun's); `folder`
  // names files in warnings.
  void Refresh(const RunFiles& run, const LogFolder& folder);

  // In order of first appearance.
  const std::vector<TagSeries>& series() const { return series_; }
  const TagSeries* Find(absl::string_view tag) const;
  const std::string& file(int index) const { return files_[index].path; }
  // A line per file that could not be read to its end, and per skipped record.
  std::vector<std::string> warnings() const;
  // index.json's statistics of this value, when it has them for the value's event file.
  const cli::TensorStatistics* CapturedStatistics(const TagSeries& series,
                                                  const StepEntry& entry) const;

 private:
  struct FileState {
    std::string path;  // resolved
    uint64_t offset = 0;
    int64_t size = -1;
    int64_t mtime_ns = -1;
    std::string problem;  // why reading stopped before the end, for warnings()
  };

  void Reset();
  // Reads what `state` has past its offset; false when the file shrank (start again).
  bool ReadFile(int index, const LogFolder& folder);
  void AddEvent(const Event& event, int file, uint64_t offset);
  void AddValue(const Summary::Value& value, StepEntry entry);
  void RefreshCaptureIndex(const RunFiles& run, const LogFolder& folder);

  std::vector<FileState> files_;
  std::vector<TagSeries> series_;
  absl::flat_hash_map<std::string, size_t> by_tag_;
  std::vector<std::string> skipped_;  // records that are not Events
  // index.json: the parsed statistics, and the size and time they were read at.
  std::unique_ptr<CaptureIndex> capture_;
  std::string capture_problem_;
  int64_t capture_size_ = -1;
  int64_t capture_mtime_ns_ = -1;
};

// The Summary value `entry` locates in `file`. DATA_LOSS when the record cannot be read or no
// longer holds a value tagged `tag` there (the file was replaced since it was indexed); the
// reader's errors name `file` as given.
absl::StatusOr<Summary::Value> ReadValue(const std::string& file, const StepEntry& entry,
                                         const std::string& tag);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_RUN_INDEX_H_
