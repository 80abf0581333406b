// Runs one step of a GraphDef in a Sluice DirectSession with the RunOptions (and optionally
// the ConfigProto) of binary proto files, so that check_tfdbg_dump.py can give Sluice the very
// RunOptions TensorFlow's Python serialized, debug watches included, and read the dump.
//
// Usage: tfdbg_dump_main GRAPH.pb RUN_OPTIONS.pb CONFIG.pb|- FETCH[,FETCH...] [FEED=FILE.npy]...
// Prints nothing on success; on failure the status on stderr, and exit status 1.
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "graph/core/tensor.h"
#include "graph/import/graph_def_io.h"
#include "io/npy.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/direct_session.h"

namespace {

absl::Status Main(int argc, char** argv) {
  if (argc < 5) {
    return absl::InvalidArgumentError(
        "usage: tfdbg_dump_main GRAPH.pb RUN_OPTIONS.pb CONFIG.pb|- FETCH[,FETCH...] "
        "[FEED=FILE.npy]...");
  }
  sluice::GraphDef graph;
  absl::Status s = sluice::ReadGraphDefFile(argv[1], &graph);
  if (!s.ok()) return s;
  sluice::RunOptions run_options;
  s = sluice::ReadBinaryProtoFile(argv[2], &run_options);
  if (!s.ok()) return s;
  sluice::SessionOptions options;
  if (std::string(argv[3]) != "-") {
    s = sluice::ReadBinaryProtoFile(argv[3], &options.config);
    if (!s.ok()) return s;
  }
  const std::vector<std::string> fetches = absl::StrSplit(argv[4], ',');
  std::vector<std::pair<std::string, sluice::Tensor>> feeds;
  for (int i = 5; i < argc; ++i) {
    const std::vector<std::string> parts = absl::StrSplit(argv[i], absl::MaxSplits('=', 1));
    if (parts.size() != 2) return absl::InvalidArgumentError(std::string("bad feed: ") + argv[i]);
    sluice::Tensor value;
    s = sluice::ReadNpyFile(parts[1], &value);
    if (!s.ok()) return s;
    feeds.emplace_back(parts[0], value);
  }
  std::unique_ptr<sluice::Session> session;
  s = sluice::DirectSession::Make(options, &session);
  if (!s.ok()) return s;
  s = session->Create(std::move(graph));
  if (!s.ok()) return s;
  std::vector<sluice::Tensor> outputs;
  return session->Run(run_options, feeds, fetches, {}, &outputs, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  const absl::Status s = Main(argc, argv);
  if (s.ok()) return 0;
  std::fprintf(stderr, "%s\n", s.ToString().c_str());
  return 1;
}
