// DebugWatchObserver alone: which watches count, the checks Start makes, the files it and
// OnOutput write. The session's use of it is tested in runtime/session.
#include "runtime/debug/debug_watch_observer.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kDeviceFolder[] = "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0";

std::string FreshDir(const std::string& name) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/observer_", name);
  fs::remove_all(dir);
  return dir;
}

// Files under `dir` (relative, sorted), with the "_<micros>[-k]" ending and a graph file's
// hash cut off.
std::vector<std::string> Stems(const std::string& dir) {
  std::vector<std::string> stems;
  if (!fs::exists(dir)) return stems;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = fs::relative(entry.path(), dir).string();
    std::string stem = path.substr(0, path.rfind('_'));
    const size_t hash = stem.find("_tfdbg_graph_hash");
    if (hash != std::string::npos) stem.resize(hash + std::strlen("_tfdbg_graph_hash"));
    stems.push_back(stem);
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

DebugOptions Options(const std::string& text) {
  DebugOptions options;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &options)) << text;
  return options;
}

std::string Watch(const std::string& node, int slot, const std::string& ops,
                  const std::string& root, bool tolerate = false) {
  return absl::StrCat("debug_tensor_watch_opts { node_name: '", node, "' output_slot: ", slot, " ",
                      ops, " debug_urls: 'file://", root,
                      "' tolerate_debug_op_creation_failures: ", tolerate ? "true" : "false",
                      " }\n");
}

class DebugWatchObserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = std::make_unique<Graph>(OpRegistry::Global());
    ASSERT_TRUE(GraphFromTextForTest(
                    "node { name: 'scope/y' op: 'Const' attr { key: 'dtype' value { type: "
                    "DT_FLOAT } } attr { key: 'value' value { tensor { dtype: DT_FLOAT "
                    "tensor_shape { } float_val: 5 } } } }"
                    "node { name: 'b' op: 'Const' attr { key: 'dtype' value { type: DT_BOOL } } "
                    "attr { key: 'value' value { tensor { dtype: DT_BOOL tensor_shape { } "
                    "bool_val: true } } } }",
                    graph_.get())
                    .ok());
    nodes_["scope/y"] = {kCpu, {DT_FLOAT}};
    nodes_["b"] = {kCpu, {DT_BOOL}};
    nodes_["two"] = {kCpu, {DT_FLOAT, DT_FLOAT}};
    partition_.add_node()->set_name("scope/y");
    metadata_.session_run_index = 3;
  }

  absl::Status Start(const DebugOptions& options, std::unique_ptr<DebugWatchObserver>* observer) {
    const DebugPartition partition{kCpu, &partition_};
    return DebugWatchObserver::Start(options, nodes_, {partition}, metadata_, observer);
  }

  const Node& node(const std::string& name) { return *graph_->FindNodeByName(name); }

  static Tensor Scalar(float v) {
    Tensor t(DT_FLOAT, TensorShape({}));
    t.flat<float>()(0) = v;
    return t;
  }

  std::unique_ptr<Graph> graph_;
  WatchableNodes nodes_;
  GraphDef partition_;
  RunCoreMetadata metadata_;
};

TEST_F(DebugWatchObserverTest, WatchedNodesAreThoseOfEffectiveWatches) {
  const DebugOptions options =
      Options(Watch("b", 0, "debug_ops: 'DebugIdentity'", "/r") +
              Watch("a", 1, "debug_ops: 'DebugIdentity'", "/r") +
              Watch("a", 0, "debug_ops: 'DebugIdentity'", "/r") + Watch("no_ops", 0, "", "/r") +
              "debug_tensor_watch_opts { node_name: 'no_urls' debug_ops: 'DebugIdentity' }" +
              Watch("odd,name", 0, "debug_ops: 'DebugIdentity'", "/r"));
  EXPECT_TRUE(DebugWatchObserver::HasWatches(options));
  EXPECT_FALSE(DebugWatchObserver::HasWatches(DebugOptions()));
  EXPECT_THAT(DebugWatchObserver::WatchedNodes(options), ElementsAre("a", "b"));
}

TEST_F(DebugWatchObserverTest, OnlyFileUrls) {
  EXPECT_TRUE(DebugWatchObserver::CheckUrls(Options(Watch("a", 0, "", "/x"))).ok());
  const absl::Status grpc = DebugWatchObserver::CheckUrls(
      Options("debug_tensor_watch_opts { node_name: 'a' debug_urls: 'file:///x' debug_urls: "
              "'grpc://localhost:6064' }"));
  EXPECT_EQ(grpc.code(), absl::StatusCode::kUnimplemented) << grpc;
  EXPECT_THAT(grpc.message(), HasSubstr("grpc://localhost:6064"));
  const absl::Status http = DebugWatchObserver::CheckUrls(
      Options("debug_tensor_watch_opts { node_name: 'a' debug_urls: 'http://x' }"));
  EXPECT_EQ(http.code(), absl::StatusCode::kInvalidArgument) << http;
  EXPECT_EQ(http.message(), "Invalid debug target URL: http://x");
}

TEST_F(DebugWatchObserverTest, StartWritesGraphsAndMetadataToEveryRoot) {
  const std::string a = FreshDir("roots_a");
  const std::string b = FreshDir("roots_b");
  // The second root is named only by a watch of a node the graph lacks, with no ops.
  std::unique_ptr<DebugWatchObserver> observer;
  ASSERT_TRUE(Start(Options(Watch("scope/y", 0, "debug_ops: 'DebugIdentity'", a) +
                            Watch("scope/y", 0, "debug_ops: 'DebugIdentity'", a) +
                            Watch("missing", 0, "", b)),
                    &observer)
                  .ok());
  for (const std::string& root : {a, b}) {
    EXPECT_THAT(Stems(root), ElementsAre("_tfdbg_core_metadata_sessionrun00000000000003",
                                         absl::StrCat(kDeviceFolder, "/_tfdbg_graph_hash")))
        << root;
  }
}

TEST_F(DebugWatchObserverTest, DumpsWatchedOutputsOnly) {
  const std::string root = FreshDir("dumps");
  std::unique_ptr<DebugWatchObserver> observer;
  ASSERT_TRUE(
      Start(Options(
                // Replaced by the later watch of the same tensor.
                Watch("scope/y", 0, "debug_ops: 'DebugNanCount'", root) +
                Watch("scope/y", 0,
                      "debug_ops: 'DebugIdentity' debug_ops: 'DebugNumericSummary' "
                      "debug_ops: 'DebugNumericSummary(mute_if_healthy=true)'",
                      root) +
                // Not in the graph, or no such output: nothing, and the bogus op is not seen.
                Watch("missing", 0, "debug_ops: 'Bogus'", root) +
                Watch("scope/y", 1, "debug_ops: 'Bogus'", root) +
                Watch("two", 1, "debug_ops: 'DebugIdentity'", root)),
            &observer)
          .ok());
  EXPECT_EQ(observer->num_watched_tensors(), 2);
  ASSERT_TRUE(observer->OnOutput(node("scope/y"), 0, Scalar(5)).ok());
  ASSERT_TRUE(observer->OnOutput(node("b"), 0, Scalar(1)).ok());  // not watched
  const std::string device = absl::StrCat(kDeviceFolder, "/");
  EXPECT_THAT(
      Stems(root),
      ElementsAre("_tfdbg_core_metadata_sessionrun00000000000003", device + "_tfdbg_graph_hash",
                  device + "scope/y_0_DebugIdentity", device + "scope/y_0_DebugNumericSummary"));
}

TEST_F(DebugWatchObserverTest, OpsThatCannotBeMade) {
  const std::string root = FreshDir("ops");
  std::unique_ptr<DebugWatchObserver> observer;
  // DebugNanCount has no bool kernel: an error, or skipped when tolerated.
  const absl::Status refused =
      Start(Options(Watch("b", 0, "debug_ops: 'DebugNanCount'", root)), &observer);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("Failed to find kernel definition"));
  EXPECT_EQ(observer, nullptr);
  EXPECT_FALSE(fs::exists(root));  // nothing written before the checks pass

  ASSERT_TRUE(Start(Options(Watch("b", 0, "debug_ops: 'DebugNanCount' debug_ops: 'DebugIdentity'",
                                  root, /*tolerate=*/true)),
                    &observer)
                  .ok());
  EXPECT_EQ(observer->num_watched_tensors(), 1);

  // A malformed spec is not tolerated.
  const absl::Status malformed = Start(
      Options(Watch("b", 0, "debug_ops: 'DebugIdentity('", root, /*tolerate=*/true)), &observer);
  EXPECT_EQ(malformed.code(), absl::StatusCode::kFailedPrecondition) << malformed;
  EXPECT_THAT(malformed.message(), HasSubstr("Malformed debug op name"));
}

TEST_F(DebugWatchObserverTest, NodeNamesMayNotLeaveTheDumpRoot) {
  nodes_["../x"] = {kCpu, {DT_FLOAT}};
  std::unique_ptr<DebugWatchObserver> observer;
  const absl::Status s =
      Start(Options(Watch("../x", 0, "debug_ops: 'DebugIdentity'", FreshDir("escape"))), &observer);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

TEST_F(DebugWatchObserverTest, UnwritableRoots) {
  const std::string dir = FreshDir("unwritable");
  fs::create_directories(dir);
  std::ofstream(dir + "/file") << "x";
  std::unique_ptr<DebugWatchObserver> observer;
  const absl::Status s = Start(
      Options(Watch("scope/y", 0, "debug_ops: 'DebugIdentity'", dir + "/file/root")), &observer);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("Failed to create directory"));
}

}  // namespace
}  // namespace sluice
