// The tfdbg dump files: names and Event contents as TensorFlow 2.21's DirectSession writes
// them (measured: its dumps parsed with event_pb2), collisions, and write failures.
#include "runtime/debug/dump_files.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::MatchesRegex;

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";

std::string FreshDir(const std::string& name) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/dump_files_", name);
  fs::remove_all(dir);
  return dir;
}

// Every file under `dir`, relative to it, sorted.
std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Event ReadEvent(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  Event event;
  EXPECT_TRUE(event.ParseFromString(bytes.str())) << path;
  return event;
}

TEST(DumpFilesTest, DeviceFolder) {
  EXPECT_EQ(DeviceDumpFolder(kCpu), "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0");
}

TEST(DumpFilesTest, CoreMetadata) {
  RunCoreMetadata metadata;
  metadata.global_step = 7;
  metadata.session_run_index = 1;
  metadata.input_names = {"x:0"};
  metadata.output_names = {"z:0", "w"};
  const Event event = CoreMetadataEvent(metadata, 1234);
  EXPECT_EQ(event.wall_time(), 1234.0);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // tfdbg's Event.log_message
  EXPECT_EQ(event.log_message().message(),
            "{\"global_step\":7,\"session_run_index\":1,\"executor_step_index\":0,"
            "\"input_names\":[\"x:0\"],\"output_names\":[\"z:0\",\"w\"],\"target_nodes\":[]}");
#pragma GCC diagnostic pop

  const std::string root = FreshDir("metadata");
  metadata.session_run_index = 42;
  ASSERT_TRUE(WriteCoreMetadata(root, metadata).ok());
  const std::vector<std::string> files = Files(root);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_THAT(files[0], MatchesRegex("_tfdbg_core_metadata_sessionrun00000000000042_[0-9]+"));
  const Event written = ReadEvent(root + "/" + files[0]);
  EXPECT_EQ(absl::StrCat(static_cast<int64_t>(written.wall_time())),
            files[0].substr(files[0].rfind('_') + 1));
}

TEST(DumpFilesTest, Graph) {
  GraphDef graph;
  graph.add_node()->set_name("a");
  const std::string root = FreshDir("graph");
  ASSERT_TRUE(WriteGraph(root, kCpu, graph).ok());
  const std::vector<std::string> files = Files(root);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_THAT(files[0], MatchesRegex("_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0/"
                                     "_tfdbg_graph_hash[0-9]+_[0-9]+"));
  GraphDef read;
  ASSERT_TRUE(read.ParseFromString(ReadEvent(root + "/" + files[0]).graph_def()));
  ASSERT_EQ(read.node_size(), 1);
  EXPECT_EQ(read.node(0).name(), "a");
}

TEST(DumpFilesTest, TensorEvent) {
  Tensor value(DT_INT32, TensorShape({3}));
  value.flat<int32_t>()(0) = 1;
  value.flat<int32_t>()(1) = -2;
  value.flat<int32_t>()(2) = 0;
  const Event event = TensorDumpEvent("scope/y", 1, "DebugIdentity", kCpu, value, 99);
  EXPECT_EQ(event.wall_time(), 99.0);
  ASSERT_EQ(event.summary().value_size(), 1);
  const Summary::Value& v = event.summary().value(0);
  EXPECT_EQ(v.tag(), "scope/y");
  EXPECT_EQ(v.node_name(), "scope/y:1:DebugIdentity");
  EXPECT_EQ(v.metadata().plugin_data().plugin_name(), "debugger");
  EXPECT_EQ(v.metadata().plugin_data().content(),
            "{\"device\":\"/job:localhost/replica:0/task:0/device:CPU:0\",\"outputSlot\":1,"
            "\"numChunks\":1,\"chunkIndex\":0}");
  EXPECT_EQ(v.tensor().dtype(), DT_INT32);
  ASSERT_EQ(v.tensor().tensor_shape().dim_size(), 1);
  EXPECT_EQ(v.tensor().tensor_shape().dim(0).size(), 3);
  EXPECT_EQ(v.tensor().tensor_content().size(), 12u);

  Tensor text(DT_STRING, TensorShape({}));
  text.flat<std::string>()(0) = "hello";
  const Event strings = TensorDumpEvent("s", 0, "DebugIdentity", kCpu, text, 1);
  EXPECT_THAT(strings.summary().value(0).tensor().string_val(), ElementsAre("hello"));
}

TEST(DumpFilesTest, TensorFilesNestNodeNamesAndNeverOverwrite) {
  const std::string root = FreshDir("tensors");
  Tensor value(DT_FLOAT, TensorShape({}));
  value.flat<float>()(0) = 5;
  // The same name at the same microsecond is likely for back-to-back writes; any collision
  // gets a "-k" suffix, so three writes make three files.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(WriteTensorDump(root, kCpu, "scope/y", 0, "DebugIdentity", value).ok());
  }
  const std::vector<std::string> files = Files(root);
  ASSERT_EQ(files.size(), 3u);
  for (const std::string& file : files) {
    EXPECT_THAT(file, MatchesRegex("_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0/"
                                   "scope/y_0_DebugIdentity_[0-9]+(-[0-9]+)?"));
    const Event event = ReadEvent(root + "/" + file);
    std::string micros = file.substr(file.rfind('_') + 1);
    micros = micros.substr(0, micros.find('-'));
    EXPECT_EQ(absl::StrCat(static_cast<int64_t>(event.wall_time())), micros);
  }
}

TEST(DumpFilesTest, FailuresHaveTheirCodes) {
  Tensor value(DT_FLOAT, TensorShape({}));
  // A folder under a regular file cannot be made: TensorFlow's FAILED_PRECONDITION.
  const std::string root = FreshDir("failures");
  fs::create_directories(root);
  std::ofstream(root + "/file") << "x";
  const absl::Status folder = WriteTensorDump(root + "/file", kCpu, "n", 0, "DebugIdentity", value);
  EXPECT_EQ(folder.code(), absl::StatusCode::kFailedPrecondition) << folder;
  EXPECT_TRUE(absl::StartsWith(folder.message(), "Failed to create directory " + root + "/file/"))
      << folder;
  // A file that cannot be created: the errno's code (ENAMETOOLONG for a node name longer
  // than a file name may be).
  const absl::Status file =
      WriteTensorDump(root, kCpu, std::string(300, 'n'), 0, "DebugIdentity", value);
  EXPECT_EQ(file.code(), absl::ErrnoToStatus(ENAMETOOLONG, "").code()) << file;
  EXPECT_TRUE(absl::StrContains(file.message(), "cannot create the debug dump")) << file;
}

}  // namespace
}  // namespace sluice
