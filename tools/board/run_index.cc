#include "tools/board/run_index.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/import/graph_def_io.h"
#include "io/record_reader.h"
#include "tools/board/json_value.h"

namespace sluice {
namespace board {
namespace {

// Size and modification time in nanoseconds; false when the file cannot be stat'ed.
bool Stat(const std::string& path, int64_t* size, int64_t* mtime_ns) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return false;
  *size = info.st_size;
  *mtime_ns = int64_t{info.st_mtim.tv_sec} * 1000000000 + info.st_mtim.tv_nsec;
  return true;
}

TagKind Classify(const Summary::Value& value, const std::string& plugin) {
  switch (value.value_case()) {
    case Summary::Value::kSimpleValue:
      return TagKind::kScalar;
    case Summary::Value::kHisto:
      return TagKind::kHistogram;
    case Summary::Value::kImage:
      return TagKind::kImage;
    case Summary::Value::kAudio:
      return TagKind::kAudio;
    default:
      break;
  }
  if (plugin == "scalars") return TagKind::kScalar;
  if (plugin == "histograms") return TagKind::kHistogram;
  if (plugin == "images") return TagKind::kImage;
  if (plugin == "audio") return TagKind::kAudio;
  return TagKind::kTensor;
}

// The plugin content of a capture: {"node": ..., "op": ..., "output": ...}.
void ReadCaptureContent(const std::string& content, TagSeries* series) {
  absl::StatusOr<JsonValue> json = ParseJson(content);
  if (!json.ok()) return;
  json->Find("node").AsString(&series->node);
  json->Find("op").AsString(&series->op);
  json->Find("output").AsInt64(&series->output);
}

// The one element of a "scalars" tensor as a double; false for any other tensor.
bool ScalarOf(const TensorProto& proto, double* out) {
  Tensor tensor;
  if (!TensorFromProto(proto, &tensor).ok() || tensor.NumElements() != 1) return false;
  return VisitRealElements(tensor, [&](const auto* data) { *out = static_cast<double>(data[0]); });
}

}  // namespace

const char* TagKindName(TagKind kind) {
  switch (kind) {
    case TagKind::kScalar:
      return "scalar";
    case TagKind::kHistogram:
      return "histogram";
    case TagKind::kImage:
      return "image";
    case TagKind::kAudio:
      return "audio";
    case TagKind::kTensor:
      return "tensor";
  }
  return "tensor";
}

const TagSeries* RunIndex::Find(absl::string_view tag) const {
  auto it = by_tag_.find(tag);
  return it == by_tag_.end() ? nullptr : &series_[it->second];
}

void RunIndex::Reset() {
  files_.clear();
  series_.clear();
  by_tag_.clear();
  skipped_.clear();
}

void RunIndex::Refresh(const RunFiles& run, const LogFolder& folder) {
  // A file read before that is gone, or that shrank, invalidates what was read from it.
  for (const FileState& state : files_) {
    if (std::find(run.event_files.begin(), run.event_files.end(), state.path) ==
        run.event_files.end()) {
      Reset();
      break;
    }
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool restart = false;
    for (const std::string& path : run.event_files) {
      auto known = std::find_if(files_.begin(), files_.end(),
                                [&](const FileState& state) { return state.path == path; });
      int index = static_cast<int>(known - files_.begin());
      if (known == files_.end()) {
        files_.push_back(FileState{path});
      }
      if (!ReadFile(index, folder)) {
        restart = true;
        break;
      }
    }
    if (!restart) break;
    Reset();
  }
  RefreshCaptureIndex(run, folder);
}

bool RunIndex::ReadFile(int index, const LogFolder& folder) {
  FileState& state = files_[index];
  int64_t size, mtime_ns;
  if (!Stat(state.path, &size, &mtime_ns)) {
    state.problem = absl::StrCat(folder.Relative(state.path), ": cannot be read");
    return true;
  }
  if (size < state.size) return false;
  if (size == state.size && mtime_ns == state.mtime_ns) return true;
  state.size = size;
  state.mtime_ns = mtime_ns;
  state.problem.clear();
  absl::StatusOr<std::unique_ptr<RecordReader>> reader = RecordReader::Open(state.path);
  if (!reader.ok()) {
    state.problem = std::string(reader.status().message());
  } else {
    (*reader)->Seek(state.offset);
    std::string record;
    while (true) {
      const uint64_t offset = (*reader)->offset();
      absl::Status status = (*reader)->ReadRecord(&record);
      if (absl::IsOutOfRange(status)) break;
      if (!status.ok()) {
        state.problem = std::string(status.message());
        break;
      }
      Event event;
      if (event.ParseFromString(record)) {
        AddEvent(event, index, offset);
      } else {
        skipped_.push_back(
            absl::StrCat(folder.Relative(state.path), ": record at ", offset, " is not an Event"));
      }
    }
    state.offset = (*reader)->offset();
  }
  // Messages name the resolved path; the page shows the name within the log folder.
  state.problem = absl::StrReplaceAll(state.problem, {{state.path, folder.Relative(state.path)}});
  return true;
}

void RunIndex::AddEvent(const Event& event, int file, uint64_t offset) {
  if (!event.has_summary()) return;
  for (int i = 0; i < event.summary().value_size(); ++i) {
    StepEntry entry;
    entry.step = event.step();
    entry.wall_time = event.wall_time();
    entry.file = file;
    entry.offset = offset;
    entry.value = i;
    AddValue(event.summary().value(i), std::move(entry));
  }
}

void RunIndex::AddValue(const Summary::Value& value, StepEntry entry) {
  const Summary::Value::ValueCase value_case = value.value_case();
  if (value_case == Summary::Value::VALUE_NOT_SET ||
      value_case == Summary::Value::kObsoleteOldStyleHistogram) {
    return;
  }
  auto [it, added] = by_tag_.try_emplace(value.tag(), series_.size());
  if (added) {
    TagSeries fresh;
    fresh.tag = value.tag();
    fresh.value_case = value_case;
    fresh.plugin = value.metadata().plugin_data().plugin_name();
    fresh.kind = Classify(value, fresh.plugin);
    if (value_case == Summary::Value::kTensor) fresh.dtype = value.tensor().dtype();
    if (fresh.plugin == kCapturePlugin) {
      ReadCaptureContent(value.metadata().plugin_data().content(), &fresh);
    }
    series_.push_back(std::move(fresh));
  }
  TagSeries& series = series_[it->second];
  if (value_case != series.value_case) return;
  if (value_case == Summary::Value::kSimpleValue) entry.scalar = value.simple_value();
  if (value_case == Summary::Value::kTensor) {
    for (const auto& dim : value.tensor().tensor_shape().dim()) entry.shape.push_back(dim.size());
    if (series.kind == TagKind::kScalar && !ScalarOf(value.tensor(), &entry.scalar)) return;
  }
  std::vector<StepEntry>& steps = series.steps;
  if (steps.empty() || steps.back().step < entry.step) {
    steps.push_back(std::move(entry));
    return;
  }
  auto at = std::lower_bound(steps.begin(), steps.end(), entry.step,
                             [](const StepEntry& e, int64_t step) { return e.step < step; });
  if (at != steps.end() && at->step == entry.step) {
    *at = std::move(entry);
  } else {
    steps.insert(at, std::move(entry));
  }
}

void RunIndex::RefreshCaptureIndex(const RunFiles& run, const LogFolder& folder) {
  int64_t size = -1, mtime_ns = -1;
  if (run.index_json.empty() || !Stat(run.index_json, &size, &mtime_ns)) {
    capture_.reset();
    capture_problem_.clear();
    capture_size_ = capture_mtime_ns_ = -1;
    return;
  }
  if (size == capture_size_ && mtime_ns == capture_mtime_ns_) return;
  capture_size_ = size;
  capture_mtime_ns_ = mtime_ns;
  capture_.reset();
  capture_problem_.clear();
  const std::string name = folder.Relative(run.index_json);
  if (size > kMaxCaptureIndexBytes) {
    capture_problem_ = absl::StrCat(name, ": larger than ", kMaxCaptureIndexBytes,
                                    " bytes, not read (statistics are computed instead)");
    return;
  }
  std::string text;
  absl::Status status = ReadFileToString(run.index_json, &text);
  absl::StatusOr<CaptureIndex> index =
      status.ok() ? ParseCaptureIndex(text) : absl::StatusOr<CaptureIndex>(status);
  if (!index.ok()) {
    capture_problem_ = absl::StrCat(
        name, ": ", absl::StrReplaceAll(index.status().message(), {{run.index_json, name}}),
        " (statistics are computed instead)");
    return;
  }
  capture_ = std::make_unique<CaptureIndex>(*std::move(index));
}

const cli::TensorStatistics* RunIndex::CapturedStatistics(const TagSeries& series,
                                                          const StepEntry& entry) const {
  if (capture_ == nullptr) return nullptr;
  if (std::filesystem::path(file(entry.file)).filename() != capture_->event_file) return nullptr;
  return capture_->Find(series.tag, entry.step);
}

std::vector<std::string> RunIndex::warnings() const {
  std::vector<std::string> lines;
  for (const FileState& state : files_) {
    if (state.problem.empty()) continue;
    lines.push_back(state.problem);
  }
  lines.insert(lines.end(), skipped_.begin(), skipped_.end());
  if (!capture_problem_.empty()) lines.push_back(capture_problem_);
  return lines;
}

absl::StatusOr<Summary::Value> ReadValue(const std::string& file, const StepEntry& entry,
                                         const std::string& tag) {
  ASSIGN_OR_RETURN(std::unique_ptr<RecordReader> reader, RecordReader::Open(file));
  reader->Seek(entry.offset);
  std::string record;
  RETURN_IF_ERROR(reader->ReadRecord(&record));
  Event event;
  if (!event.ParseFromString(record) || event.summary().value_size() <= entry.value ||
      event.summary().value(entry.value).tag() != tag) {
    return errors::DataLoss("the value of '", tag, "' at step ", entry.step,
                            " is no longer where it was: the event file changed; reload");
  }
  return std::move(*event.mutable_summary()->mutable_value(entry.value));
}

}  // namespace board
}  // namespace sluice
