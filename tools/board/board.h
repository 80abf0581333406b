// Board: what `sluice board` does, as a function from a request (path and decoded query) to a
// response, so that all of it is tested without a socket; server.h binds it to HTTP.
//
// URLs, all GET (the documents are described in endpoints.h):
//   /  or /index.html                        the page (page.h)
//   /api/runs                                the runs of the log folder
//   /api/tags?run=R                          a run's tags, their kinds and step counts
//   /api/steps?run=R&tag=T                   a tag's steps
//   /api/scalars?run=R&tag=T                 a scalar tag's values
//   /api/statistics?run=R&tag=T[&step=S]     a tensor's statistics, one step or every step
//   /api/slice?run=R&tag=T&step=S[&index=I]  a selection of a tensor (at most 2-D)
//   /api/histograms?run=R&tag=T[&buckets=N]  every step's histogram over shared buckets
//   /api/image?run=R&tag=T&step=S[&sample=K] an encoded image
//
// Status codes: 200; 400 for a missing or malformed parameter, an index that does not fit the
// tensor, a selection of more than 2 dimensions or 1,000,000 values, a tag of the wrong kind;
// 404 for any other path, and for a run, tag or step that is not there (a run name that tries
// to leave the log folder, by "..", an absolute path or a link, is a run that is not there,
// log_folder.h); 500 when an event file cannot be read. Error bodies are {"error": message},
// the message written for the page to show.
//
// Each request about a run first reads what its event files gained since the last request
// (run_index.h), so a capture still being written shows up as it grows.
//
// Thread-safe: requests may be handled concurrently. One mutex guards the runs' indexes;
// requests copy what they need (tag_snapshot.h) and read event files without holding it.
#ifndef SLUICE_TOOLS_BOARD_BOARD_H_
#define SLUICE_TOOLS_BOARD_BOARD_H_

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "tools/board/log_folder.h"
#include "tools/board/run_index.h"
#include "tools/board/tag_snapshot.h"

namespace sluice {
namespace board {

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

class Board {
 public:
  // NOT_FOUND when `logdir` is not an existing folder.
  static absl::StatusOr<std::unique_ptr<Board>> Open(const std::string& logdir);

  Response Handle(absl::string_view path, const Query& query);

  const LogFolder& folder() const { return folder_; }

 private:
  explicit Board(LogFolder folder) : folder_(std::move(folder)) {}

  absl::StatusOr<Response> Route(absl::string_view path, const Query& query);
  absl::StatusOr<std::string> Tags(const Query& query);
  absl::StatusOr<TagSnapshot> Snapshot(const Query& query);
  // The index of the run `name`, brought up to date.
  absl::StatusOr<RunIndex*> RefreshedRun(const std::string& name)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const LogFolder folder_;
  absl::Mutex mu_;
  // By the run's resolved folder, so names that lead to one folder share an index.
  absl::flat_hash_map<std::string, std::unique_ptr<RunIndex>> runs_ ABSL_GUARDED_BY(mu_);
};

// The HTTP status of an error: 400, 404 or 500 as above.
int HttpStatus(const absl::Status& status);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_BOARD_H_
