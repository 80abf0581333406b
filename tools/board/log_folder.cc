// Paths are resolved with std::filesystem::canonical (every link followed) before any check,
// and every check is "the resolved path is the log folder or below it". Errors from the file
// system (a folder that vanished, a permission denied) make an entry absent rather than
// failing the whole listing.
#include "tools/board/log_folder.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"

namespace sluice {
namespace board {
namespace {

namespace fs = std::filesystem;

// The resolved path, or empty when it does not exist or cannot be resolved.
std::string Resolve(const fs::path& path) {
  std::error_code error;
  fs::path resolved = fs::canonical(path, error);
  return error ? std::string() : resolved.string();
}

bool IsEventFileName(const std::string& name) { return absl::StrContains(name, ".tfevents."); }

// Whether `name` is a run name a request may use: "." or relative components without ".",
// ".." or empty ones.
bool IsWellFormedRunName(absl::string_view name) {
  if (name == ".") return true;
  if (name.empty() || absl::StrContains(name, absl::string_view("\0", 1))) return false;
  for (absl::string_view part : absl::StrSplit(name, '/')) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<LogFolder> LogFolder::Open(const std::string& path) {
  std::string root = Resolve(path);
  std::error_code error;
  if (root.empty() || !fs::is_directory(root, error)) {
    return errors::NotFound("the log folder ", path, " is not an existing folder");
  }
  return LogFolder(std::move(root));
}

bool LogFolder::Inside(const std::string& resolved) const {
  if (resolved.empty()) return false;
  if (resolved == root_) return true;
  // The root "/" is its own separator.
  const std::string prefix = root_ == "/" ? root_ : root_ + "/";
  return absl::StartsWith(resolved, prefix);
}

std::string LogFolder::Relative(const std::string& path) const {
  if (path == root_) return ".";
  const std::string prefix = root_ == "/" ? root_ : root_ + "/";
  return absl::StartsWith(path, prefix) ? path.substr(prefix.size())
                                        : fs::path(path).filename().string();
}

void LogFolder::ReadRunFiles(const std::string& dir, RunFiles* run) const {
  std::error_code error;
  std::vector<std::pair<std::string, std::string>> events;  // (file name, resolved)
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const bool event_file = IsEventFileName(name);
    if (!event_file && name != "index.json") continue;
    const std::string resolved = Resolve(it->path());
    std::error_code type_error;
    if (!Inside(resolved) || !fs::is_regular_file(resolved, type_error)) continue;
    if (event_file) {
      events.emplace_back(name, resolved);
    } else {
      run->index_json = resolved;
    }
  }
  std::sort(events.begin(), events.end());
  for (auto& [name, resolved] : events) run->event_files.push_back(std::move(resolved));
}

std::vector<RunFiles> LogFolder::ListRuns() const {
  std::vector<RunFiles> runs;
  absl::flat_hash_set<std::string> visited = {root_};
  // Depth-first over (resolved folder, depth), without recursion.
  std::vector<std::pair<std::string, int>> todo = {{root_, 0}};
  while (!todo.empty() && visited.size() <= kMaxFoldersVisited) {
    auto [dir, depth] = std::move(todo.back());
    todo.pop_back();
    RunFiles run;
    ReadRunFiles(dir, &run);
    if (!run.event_files.empty()) {
      run.name = Relative(dir);
      run.dir = dir;
      runs.push_back(std::move(run));
    }
    if (depth >= kMaxRunDepth) continue;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      std::error_code type_error;
      if (!fs::is_directory(it->path(), type_error)) continue;
      std::string resolved = Resolve(it->path());
      if (!Inside(resolved) || !visited.insert(resolved).second) continue;
      todo.emplace_back(std::move(resolved), depth + 1);
    }
  }
  std::sort(runs.begin(), runs.end(),
            [](const RunFiles& a, const RunFiles& b) { return a.name < b.name; });
  return runs;
}

absl::StatusOr<RunFiles> LogFolder::FindRun(absl::string_view name) const {
  auto not_found = [&]() { return errors::NotFound("no run '", name, "' in the log folder"); };
  if (!IsWellFormedRunName(name)) return not_found();
  const std::string resolved = Resolve(fs::path(root_) / std::string(name));
  std::error_code error;
  if (!Inside(resolved) || !fs::is_directory(resolved, error)) return not_found();
  RunFiles run;
  ReadRunFiles(resolved, &run);
  if (run.event_files.empty()) return not_found();
  run.name = std::string(name);
  run.dir = resolved;
  return run;
}

}  // namespace board
}  // namespace sluice
