// Logging in fuzz targets: quiet by default, a line per input on request.
//
// QuietLogs keeps the warnings a target provokes on purpose off stderr. The pipeline and the
// importer log (glog) what they tolerate: a failed constant folding, an attr the OpDef does
// not declare. A fuzzer provokes these on most inputs, and writing them costs more than
// running the input; errors and crashes still print.
//
// With SLUICE_FUZZ_VERBOSE=1 in the environment, a target says what each input did (LogCase):
// replaying a corpus that way shows how deep inputs get (how many reach a kernel, which
// errors stop the rest), which is how to tell whether a generator needs tuning. With
// SLUICE_FUZZ_VERBOSE=2 the targets that generate graphs also print each graph (LogGraph)
// before running it, to see what a crash or timeout input builds.
#ifndef SLUICE_FUZZ_FUZZ_LOGGING_H_
#define SLUICE_FUZZ_FUZZ_LOGGING_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "glog/logging.h"

namespace sluice {
namespace fuzz {

inline void QuietLogs() { FLAGS_minloglevel = google::GLOG_ERROR; }

// 0 (quiet), 1 (a line per input) or 2 (and the graph).
inline int Verbosity() {
  static const int verbosity = [] {
    const char* value = std::getenv("SLUICE_FUZZ_VERBOSE");
    if (value == nullptr) return 0;
    const std::string level(value);
    return level == "2" ? 2 : level == "1" ? 1 : 0;
  }();
  return verbosity;
}

inline bool Verbose() { return Verbosity() >= 1; }

inline void LogGraph(const std::string& text) {
  if (Verbosity() >= 2) std::fprintf(stderr, "graph:\n%s\n", text.c_str());
}

// "<stage> <what>: <status>", one line, when Verbose().
inline void LogCase(const char* stage, const std::string& what, const absl::Status& status) {
  if (!Verbose()) return;
  std::string message(status.message().substr(0, 160));
  for (char& c : message) {
    if (c == '\n') c = ' ';
  }
  std::fprintf(stderr, "case %s %s: %s %s\n", stage, what.c_str(),
               absl::StatusCodeToString(status.code()).c_str(), message.c_str());
}

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_FUZZ_LOGGING_H_
