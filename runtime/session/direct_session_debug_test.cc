// Debug watches through DirectSession::Run (RunOptions.debug_options): the tfdbg dump a Run
// writes, as TensorFlow 2.21's DirectSession writes it for the same graph and watches (file
// names, Events), which nodes dump, the executor cache, and the errors.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/event.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/node_output_observer.h"
#include "runtime/session/direct_session.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

constexpr char kDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kDeviceFolder[] = "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0";

std::string FloatConst(const std::string& name, float value) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
                      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} "
                      "float_val: ",
                      value, " } } } }\n");
}

std::string Op(const std::string& name, const std::string& op,
               const std::vector<std::string>& inputs) {
  std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& input : inputs) absl::StrAppend(&text, " input: '", input, "'");
  return absl::StrCat(text, " attr { key: 'T' value { type: DT_FLOAT } } }\n");
}

// z = x * 2 + 1 through "scope/y"; "k2" = 3 + 1 is constant; "lg" = log(x); "unused" is
// needed by no fetch.
GraphDef TestGraph() {
  const std::string text =
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
      FloatConst("two", 2) + FloatConst("one", 1) + FloatConst("k1", 3) +
      Op("k2", "AddV2", {"k1", "one"}) + Op("scope/y", "Mul", {"x", "two"}) +
      Op("z", "AddV2", {"scope/y", "one"}) + Op("lg", "Log", {"x"}) + Op("kz", "Mul", {"z", "k2"}) +
      Op("unused", "AddV2", {"x", "one"});
  GraphDef graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph));
  return graph;
}

std::unique_ptr<Session> MakeSession() {
  std::unique_ptr<Session> session;
  EXPECT_TRUE(DirectSession::Make(SessionOptions(), &session).ok());
  EXPECT_TRUE(session->Create(TestGraph()).ok());
  return session;
}

DirectSession* Direct(const std::unique_ptr<Session>& session) {
  return static_cast<DirectSession*>(session.get());
}

Tensor Vector(const std::vector<float>& values) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<float>()(i) = values[i];
  return t;
}

std::string FreshDir(const std::string& name) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/session_debug_", name);
  fs::remove_all(dir);
  return dir;
}

void AddWatch(RunOptions* options, const std::string& node, const std::vector<std::string>& ops,
              const std::string& root, bool tolerate = false) {
  DebugTensorWatch* watch = options->mutable_debug_options()->add_debug_tensor_watch_opts();
  watch->set_node_name(node);
  for (const std::string& op : ops) watch->add_debug_ops(op);
  watch->add_debug_urls("file://" + root);
  watch->set_tolerate_debug_op_creation_failures(tolerate);
}

// The files under `root`, relative, sorted.
std::vector<std::string> Files(const std::string& root) {
  std::vector<std::string> files;
  if (!fs::exists(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), root).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The tensor dumps under `root`: "<node>_<slot>_<op>" per file, without the device folder and
// the time, sorted.
std::vector<std::string> Dumps(const std::string& root) {
  std::vector<std::string> dumps;
  const std::string prefix = absl::StrCat(kDeviceFolder, "/");
  for (const std::string& file : Files(root)) {
    if (!absl::StartsWith(file, prefix) || absl::StrContains(file, "_tfdbg_graph_hash")) continue;
    const std::string rest = file.substr(prefix.size());
    dumps.push_back(rest.substr(0, rest.rfind('_')));
  }
  return dumps;
}

Event ReadEvent(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  Event event;
  EXPECT_TRUE(event.ParseFromString(bytes.str())) << path;
  return event;
}

// The Event of the one file under `root` whose relative path starts with `stem`.
Event ReadOne(const std::string& root, const std::string& stem) {
  std::vector<std::string> found;
  for (const std::string& file : Files(root)) {
    if (absl::StartsWith(file, stem)) found.push_back(file);
  }
  EXPECT_EQ(found.size(), 1u) << stem;
  return found.empty() ? Event() : ReadEvent(root + "/" + found[0]);
}

std::string MetadataJson(const std::string& root) {
  const Event event = ReadOne(root, "_tfdbg_core_metadata_sessionrun");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // tfdbg's Event.log_message
  return event.log_message().message();
#pragma GCC diagnostic pop
}

std::vector<float> Floats(const TensorProto& proto) {
  Tensor t;
  EXPECT_TRUE(TensorFromProto(proto, &t).ok());
  std::vector<float> out;
  for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(t.flat<float>()(i));
  return out;
}

std::vector<double> Doubles(const TensorProto& proto) {
  Tensor t;
  EXPECT_TRUE(TensorFromProto(proto, &t).ok());
  std::vector<double> out;
  for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(t.flat<double>()(i));
  return out;
}

TEST(DirectSessionDebugTest, DumpsAsTensorFlowDoes) {
  auto session = MakeSession();
  const std::string root = FreshDir("dump");
  RunOptions options;
  AddWatch(&options, "scope/y", {"DebugIdentity", "DebugNumericSummary", "DebugNanCount"}, root);
  AddWatch(&options, "z", {"DebugIdentity"}, root);
  options.mutable_debug_options()->set_global_step(7);
  std::vector<Tensor> outputs;
  const absl::Status s =
      session->Run(options, {{"x:0", Vector({1, -1, 0})}}, {"z:0"}, {}, &outputs, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].flat<float>()(1), -1.0f);

  const std::vector<std::string> files = Files(root);
  ASSERT_EQ(files.size(), 6u);
  EXPECT_THAT(files[0],
              MatchesRegex("_tfdbg_core_metadata_sessionrun000000000000[0-9][0-9]_[0-9]+"));
  const std::string device = absl::StrCat(kDeviceFolder, "/");
  EXPECT_THAT(files[1], MatchesRegex(device + "_tfdbg_graph_hash[0-9]+_[0-9]+"));
  EXPECT_THAT(files[2], MatchesRegex(device + "scope/y_0_DebugIdentity_[0-9]+"));
  EXPECT_THAT(files[3], MatchesRegex(device + "scope/y_0_DebugNanCount_[0-9]+"));
  EXPECT_THAT(files[4], MatchesRegex(device + "scope/y_0_DebugNumericSummary_[0-9]+"));
  EXPECT_THAT(files[5], MatchesRegex(device + "z_0_DebugIdentity_[0-9]+"));

  EXPECT_THAT(MetadataJson(root),
              MatchesRegex("\\{\"global_step\":7,\"session_run_index\":[0-9]+,"
                           "\"executor_step_index\":0,\"input_names\":\\[\"x:0\"\\],"
                           "\"output_names\":\\[\"z:0\"\\],\"target_nodes\":\\[\\]\\}"));

  GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(ReadOne(root, device + "_tfdbg_graph_hash").graph_def()));
  std::vector<std::string> names;
  for (const NodeDef& node : graph.node()) names.push_back(node.name());
  EXPECT_THAT(names, ::testing::IsSupersetOf({"scope/y", "z", "_arg_x_0_0", "_retval_z_0_0"}));

  const Event identity = ReadOne(root, device + "scope/y_0_DebugIdentity");
  ASSERT_EQ(identity.summary().value_size(), 1);
  const Summary::Value& v = identity.summary().value(0);
  EXPECT_EQ(v.tag(), "scope/y");
  EXPECT_EQ(v.node_name(), "scope/y:0:DebugIdentity");
  EXPECT_EQ(v.metadata().plugin_data().plugin_name(), "debugger");
  EXPECT_EQ(v.metadata().plugin_data().content(),
            absl::StrCat("{\"device\":\"", kDevice,
                         "\",\"outputSlot\":0,\"numChunks\":1,\"chunkIndex\":0}"));
  EXPECT_FALSE(v.tensor().tensor_content().empty());
  EXPECT_THAT(Floats(v.tensor()), ElementsAre(2, -2, 0));
  EXPECT_GT(identity.wall_time(), 0);

  // TensorFlow's values for x * 2 with x = [1, -1, 0].
  EXPECT_THAT(
      Doubles(ReadOne(root, device + "scope/y_0_DebugNumericSummary").summary().value(0).tensor()),
      ElementsAre(1, 3, 0, 0, 1, 1, 1, 0, -2, 2, 0, 2.6666666666666665, 1, 1, 3));
  Tensor nans;
  ASSERT_TRUE(
      TensorFromProto(ReadOne(root, device + "scope/y_0_DebugNanCount").summary().value(0).tensor(),
                      &nans)
          .ok());
  EXPECT_EQ(nans.dtype(), DT_INT64);
  EXPECT_EQ(nans.shape(), TensorShape({1}));
  EXPECT_EQ(nans.flat<int64_t>()(0), 0);
  EXPECT_THAT(Floats(ReadOne(root, device + "z_0_DebugIdentity").summary().value(0).tensor()),
              ElementsAre(3, -1, 1));
}

TEST(DirectSessionDebugTest, OnlyNodesThatRunDump) {
  auto session = MakeSession();
  const std::string root = FreshDir("which");
  RunOptions options;
  // "x" is fed (it runs as _arg_x_0_0), "unused" is not needed, "missing" does not exist; the
  // bogus op on them is never made. "k2" is constant and "k1" only feeds it: both are kept
  // for their watches. "lg" runs, and NaN and -inf are no error.
  for (const char* node : {"x", "unused", "missing"}) AddWatch(&options, node, {"Bogus"}, root);
  for (const char* node : {"k1", "k2", "kz"}) AddWatch(&options, node, {"DebugIdentity"}, root);
  AddWatch(&options, "lg", {"DebugNanCount"}, root);
  std::vector<Tensor> outputs;
  const absl::Status s =
      session->Run(options, {{"x", Vector({1, -1, 0})}}, {"kz", "lg"}, {}, &outputs, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(Dumps(root), ElementsAre("k1_0_DebugIdentity", "k2_0_DebugIdentity",
                                       "kz_0_DebugIdentity", "lg_0_DebugNanCount"));
  EXPECT_THAT(
      Floats(ReadOne(root, absl::StrCat(kDeviceFolder, "/k2_")).summary().value(0).tensor()),
      ElementsAre(4));
}

TEST(DirectSessionDebugTest, ExecutorsAreCachedByWatchedNodesOnly) {
  auto session = MakeSession();
  std::vector<Tensor> outputs;
  const std::vector<std::pair<std::string, Tensor>> feeds = {{"x", Vector({1})}};
  ASSERT_TRUE(session->Run(RunOptions(), feeds, {"z"}, {}, &outputs, nullptr).ok());
  EXPECT_EQ(Direct(session)->num_cached_signatures(), 1);

  const std::string a = FreshDir("cache_a");
  const std::string b = FreshDir("cache_b");
  RunOptions first;
  AddWatch(&first, "scope/y", {"DebugIdentity"}, a);
  ASSERT_TRUE(session->Run(first, feeds, {"z"}, {}, &outputs, nullptr).ok());
  EXPECT_EQ(Direct(session)->num_cached_signatures(), 2);
  // Other ops and URLs on the same node: the same executors, one more debugged step.
  RunOptions second;
  AddWatch(&second, "scope/y", {"DebugNanCount"}, b);
  ASSERT_TRUE(session->Run(second, feeds, {"z"}, {}, &outputs, nullptr).ok());
  EXPECT_EQ(Direct(session)->num_cached_signatures(), 2);
  EXPECT_THAT(MetadataJson(a), HasSubstr("\"executor_step_index\":0,"));
  EXPECT_THAT(MetadataJson(b), HasSubstr("\"executor_step_index\":1,"));
  EXPECT_THAT(Dumps(b), ElementsAre("scope/y_0_DebugNanCount"));
  // Another node: other executors. A Run without watches is unaffected.
  RunOptions third;
  AddWatch(&third, "z", {"DebugIdentity"}, FreshDir("cache_c"));
  ASSERT_TRUE(session->Run(third, feeds, {"z"}, {}, &outputs, nullptr).ok());
  EXPECT_EQ(Direct(session)->num_cached_signatures(), 3);
  ASSERT_TRUE(session->Run(RunOptions(), feeds, {"z"}, {}, &outputs, nullptr).ok());
  EXPECT_EQ(Direct(session)->num_cached_signatures(), 3);
}

TEST(DirectSessionDebugTest, UrlsAreCheckedBeforeAnythingIsBuilt) {
  auto session = MakeSession();
  RunOptions options;
  DebugTensorWatch* watch = options.mutable_debug_options()->add_debug_tensor_watch_opts();
  watch->set_node_name("z");
  watch->add_debug_ops("DebugIdentity");
  watch->add_debug_urls("grpc://localhost:6064");
  std::vector<Tensor> outputs;
  absl::Status s = session->Run(options, {{"x", Vector({1})}}, {"z"}, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_THAT(s.message(), HasSubstr("grpc://localhost:6064"));
  EXPECT_EQ(Direct(session)->num_cached_signatures(), 0);
  watch->set_debug_urls(0, "http://x");
  s = session->Run(options, {{"x", Vector({1})}}, {"z"}, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

TEST(DirectSessionDebugTest, OpsThatCannotBeMadeFailTheRunUnlessTolerated) {
  auto session = MakeSession();
  const std::string root = FreshDir("ops");
  RunOptions options;
  AddWatch(&options, "z", {"DebugIdentity", "Bogus"}, root);
  std::vector<Tensor> outputs;
  absl::Status s = session->Run(options, {{"x", Vector({1})}}, {"z"}, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_EQ(s.message(),
            "Failed to create debug node Bogus for tensor z:0, due to: Failed to create node "
            "definition for debug op Bogus on watched tensor z:0");
  EXPECT_TRUE(Files(root).empty());

  options.mutable_debug_options()
      ->mutable_debug_tensor_watch_opts(0)
      ->set_tolerate_debug_op_creation_failures(true);
  s = session->Run(options, {{"x", Vector({1})}}, {"z"}, {}, &outputs, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(Dumps(root), ElementsAre("z_0_DebugIdentity"));
}

TEST(DirectSessionDebugTest, DumpsThatCannotBeWritten) {
  auto session = MakeSession();
  const std::string root = FreshDir("unwritable");
  fs::create_directories(root);
  std::ofstream(root + "/file") << "x";
  std::vector<Tensor> outputs;
  // The root itself: before the step.
  RunOptions options;
  AddWatch(&options, "z", {"DebugIdentity"}, root + "/file");
  absl::Status s = session->Run(options, {{"x", Vector({1})}}, {"z"}, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("Failed to create directory"));
  // A node's folder ("scope/" is a file): the step fails at that node.
  RunOptions nested;
  AddWatch(&nested, "scope/y", {"DebugIdentity"}, root);
  fs::create_directories(absl::StrCat(root, "/", kDeviceFolder));
  std::ofstream(absl::StrCat(root, "/", kDeviceFolder, "/scope")) << "x";
  s = session->Run(nested, {{"x", Vector({1})}}, {"z"}, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("{{node scope/y}}"));
  EXPECT_TRUE(outputs.empty());
}

TEST(DirectSessionDebugTest, ConcurrentDebuggedRuns) {
  auto session = MakeSession();
  constexpr int kThreads = 4;
  constexpr int kRuns = 5;
  for (int root = 0; root < 2; ++root) FreshDir(absl::StrCat("concurrent_", root));
  std::vector<std::thread> threads;
  std::vector<absl::Status> failures(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRuns && failures[t].ok(); ++r) {
        RunOptions options;
        // Threads share a root: every dump must still get a file of its own.
        AddWatch(&options, "scope/y", {"DebugIdentity", "DebugNumericSummary"},
                 absl::StrCat(::testing::TempDir(), "/session_debug_concurrent_", t % 2));
        std::vector<Tensor> outputs;
        failures[t] = session->Run(options, {{"x", Vector({1, 2})}}, {"z"}, {}, &outputs, nullptr);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const absl::Status& s : failures) EXPECT_TRUE(s.ok()) << s;
  size_t dumps = 0;
  for (int root = 0; root < 2; ++root) {
    dumps += Dumps(absl::StrCat(::testing::TempDir(), "/session_debug_concurrent_", root)).size();
  }
  EXPECT_EQ(dumps, 2u * kThreads * kRuns);
}

// Records the names of the nodes it sees.
class NodeNames : public NodeOutputObserver {
 public:
  absl::Status OnOutput(const Node& node, int, const Tensor&) override {
    absl::MutexLock lock(&mu_);
    names_.push_back(node.name());
    return absl::OkStatus();
  }
  bool Saw(const std::string& name) {
    absl::MutexLock lock(&mu_);
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }

 private:
  absl::Mutex mu_;
  std::vector<std::string> names_ ABSL_GUARDED_BY(mu_);
};

TEST(DirectSessionDebugTest, RunWithObserverAndWatchesTogether) {
  auto session = MakeSession();
  const std::string root = FreshDir("both");
  RunOptions options;
  AddWatch(&options, "scope/y", {"DebugIdentity"}, root);
  NodeNames observer;
  std::vector<Tensor> outputs;
  const absl::Status s = session->RunWithObserver(options, {{"x", Vector({1})}}, {"z"}, {},
                                                  &outputs, nullptr, &observer);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(observer.Saw("scope/y"));
  EXPECT_TRUE(observer.Saw("z"));
  EXPECT_THAT(Dumps(root), ElementsAre("scope/y_0_DebugIdentity"));
}

}  // namespace
}  // namespace sluice
