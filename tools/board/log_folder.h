// LogFolder: the runs of a log folder, and the one place where `sluice board` turns a name
// from a request into a path.
//
// A run is a folder holding at least one event file (a name containing ".tfevents.") directly:
// the log folder itself (named ".") or any folder under it (named by its path relative to the
// log folder, "train" or "mnist/eval"), as TensorBoard counts runs.
//
// Nothing outside the log folder is ever reached. Paths are compared after resolving symbolic
// links (the log folder's own included, once, at Open), so a link inside the folder that
// points outside it is skipped by ListRuns and is NOT_FOUND for FindRun, as are names that
// are absolute, contain "..", "." or empty components, or NUL. A folder reached twice through
// links is listed once. ListRuns descends at most kMaxRunDepth folders deep and visits at
// most kMaxFoldersVisited folders (a log folder pointed at "/" by mistake stays cheap).
//
// Messages never hold absolute paths: a run is named as the request named it. LogFolder reads
// the file system on every call (runs come and go while a board runs) and holds no state
// after Open, so it is safe to use from several threads.
#ifndef SLUICE_TOOLS_BOARD_LOG_FOLDER_H_
#define SLUICE_TOOLS_BOARD_LOG_FOLDER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace board {

inline constexpr int kMaxRunDepth = 16;
inline constexpr int kMaxFoldersVisited = 10000;

struct RunFiles {
  std::string name;                      // "." or a relative path with '/' separators
  std::string dir;                       // resolved absolute path
  std::vector<std::string> event_files;  // resolved absolute paths, sorted by file name
  std::string index_json;                // resolved path of the run's index.json, or empty
};

class LogFolder {
 public:
  // NOT_FOUND when `path` is not an existing folder.
  static absl::StatusOr<LogFolder> Open(const std::string& path);

  // Every run, sorted by name.
  std::vector<RunFiles> ListRuns() const;
  // The run ListRuns would name `name`; NOT_FOUND "no run '<name>' in the log folder"
  // otherwise.
  absl::StatusOr<RunFiles> FindRun(absl::string_view name) const;

  // `path` (resolved, under the log folder) relative to the log folder, for messages.
  std::string Relative(const std::string& path) const;
  const std::string& root() const { return root_; }

 private:
  explicit LogFolder(std::string root) : root_(std::move(root)) {}

  // The event files and index.json directly in `dir` (resolved), each checked to resolve
  // inside the log folder.
  void ReadRunFiles(const std::string& dir, RunFiles* run) const;
  bool Inside(const std::string& resolved) const;

  std::string root_;  // resolved
};

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_LOG_FOLDER_H_
