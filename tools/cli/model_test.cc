// Loading graphs whose ops are not all registered, and feeds for only what the fetches need.
#include "tools/cli/model.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "io/npy.h"
#include "tools/cli/feeds.h"

namespace sluice {
namespace cli {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Writes `text` to a fresh file under the test's temporary directory; returns its path.
std::string WriteGraph(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/" + name;
  std::FILE* file = std::fopen(path.c_str(), "w");
  EXPECT_NE(file, nullptr) << path;
  if (file == nullptr) return path;
  std::fputs(text.c_str(), file);
  std::fclose(file);
  return path;
}

const char kVersions[] = "versions { producer: 1087 }\n";

std::string Placeholder(const std::string& name, const std::string& dtype = "DT_FLOAT",
                        const std::string& shape = "") {
  std::string text = "node { name: '" + name + "' op: 'Placeholder' attr { key: 'dtype' value { " +
                     "type: " + dtype + " } }";
  if (!shape.empty()) text += " attr { key: 'shape' value { shape { " + shape + " } } }";
  return text + " }\n";
}

std::string Identity(const std::string& name, const std::string& input) {
  return "node { name: '" + name + "' op: 'Identity' input: '" + input +
         "' attr { key: 'T' value { type: DT_FLOAT } } }\n";
}

std::string Unregistered(const std::string& name, const std::string& op, const std::string& input) {
  return "node { name: '" + name + "' op: '" + op + "' input: '" + input +
         "' attr { key: 'element_dtype' value { type: DT_FLOAT } } }\n";
}

// x feeds out; three unused_control_flow_input Placeholders (unknown rank, a resource, one
// read only by a NoOp) do not.
std::string UnusedInputsGraph() {
  return Placeholder("x", "DT_FLOAT", "dim { size: -1 } dim { size: 3 }") +
         Placeholder("unused_control_flow_input_0") +
         Placeholder("unused_control_flow_input_1", "DT_RESOURCE") +
         Placeholder("unused_control_flow_input_2", "DT_INT32", "unknown_rank: true") +
         "node { name: 'keep' op: 'NoOp' input: '^unused_control_flow_input_2' }\n" +
         Identity("out", "x") + kVersions;
}

TEST(LoadModelTest, NamesEachUnregisteredOpAndItsNodes) {
  std::string text = Placeholder("x");
  for (int i = 0; i < 7; ++i) {
    text += Unregistered("set_" + std::to_string(i), "Skipgram", "x");
  }
  text += Unregistered("reserve", "NegTrain", "x") + Identity("y", "x") + kVersions;
  Model model;
  absl::Status status = LoadModel(WriteGraph("two_ops.pbtxt", text), &model);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("2 op types not registered in binary running on this host: "
                        "'NegTrain' (node reserve), 'Skipgram' (nodes set_0, "
                        "set_1, set_2, set_3, set_4 and 2 more); Sluice cannot run this graph"));

  status = LoadModel(
      WriteGraph("one_op.pbtxt", Placeholder("x") + Unregistered("r", "NegTrain", "x") + kVersions),
      &model);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("Op type not registered 'NegTrain' (node r) in binary running on "
                        "this host"));
}

// A node whose op names a function of the graph's library calls it: the graph loads, checked
// against the function's signature, and nothing is listed as unregistered.
TEST(LoadModelTest, CallsOfTheGraphsFunctionsLoad) {
  const std::string library =
      "library { function { signature { name: 'double_it' input_arg { name: 'a' type: DT_FLOAT }"
      " output_arg { name: 'b' type: DT_FLOAT } }"
      " node_def { name: 'add' op: 'AddV2' input: 'a' input: 'a'"
      " attr { key: 'T' value { type: DT_FLOAT } } } ret { key: 'b' value: 'add:z:0' } } }\n";
  const std::string path =
      WriteGraph("function_call.pbtxt", Placeholder("x") +
                                            "node { name: 'call' op: 'double_it' input: 'x' }\n" +
                                            library + kVersions);
  Model model;
  absl::Status status = LoadModel(path, &model);
  EXPECT_TRUE(status.ok()) << status;
  // The call's output is the function's.
  EXPECT_THAT(LikelyOutputs(model.graph_def), ElementsAre("call"));
  std::string tensor;
  DataType dtype = DT_INVALID;
  ASSERT_TRUE(ResolveOutput(model.graph_def, "call", &tensor, &dtype).ok());
  EXPECT_EQ(dtype, DT_FLOAT);
  std::vector<UnregisteredOp> unregistered;
  ASSERT_TRUE(LoadModelForInspection(path, &model, &unregistered).ok());
  EXPECT_THAT(unregistered, IsEmpty());
  // A call that does not match the signature is refused, naming the node.
  const std::string bad = WriteGraph(
      "bad_call.pbtxt", Placeholder("x") +
                            "node { name: 'call' op: 'double_it' input: 'x' input: 'x' }\n" +
                            library + kVersions);
  status = LoadModel(bad, &model);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr("call"));
}

TEST(LoadModelForInspectionTest, LoadsTheRestAndListsTheUnregistered) {
  const std::string path = WriteGraph(
      "inspect.pbtxt", Placeholder("x") + Unregistered("r1", "NegTrain", "x") + Identity("y", "x") +
                           Unregistered("r2", "NegTrain", "y") + kVersions);
  Model model;
  std::vector<UnregisteredOp> unregistered;
  ASSERT_TRUE(LoadModelForInspection(path, &model, &unregistered).ok());
  ASSERT_EQ(unregistered.size(), 1u);
  EXPECT_EQ(unregistered[0].op, "NegTrain");
  EXPECT_THAT(unregistered[0].nodes, ElementsAre("r1", "r2"));
  // Every node in its place; the registered ones got their default attrs, the others are as
  // read.
  const GraphDef& graph_def = model.graph_def;
  ASSERT_EQ(graph_def.node_size(), 4);
  EXPECT_EQ(graph_def.node(0).name(), "x");
  EXPECT_TRUE(graph_def.node(0).attr().contains("shape"));
  EXPECT_EQ(graph_def.node(1).name(), "r1");
  EXPECT_EQ(graph_def.node(1).attr_size(), 1);
  EXPECT_EQ(graph_def.node(2).name(), "y");
  EXPECT_EQ(graph_def.node(3).name(), "r2");
  EXPECT_THAT(graph_def.node(3).input(), ElementsAre("y"));
  EXPECT_EQ(graph_def.versions().producer(), 1087);

  // What can be resolved still describes itself; the rest is set aside.
  std::vector<std::string> unresolved;
  EXPECT_THAT(LikelyOutputs(graph_def, &unresolved), IsEmpty());
  EXPECT_THAT(unresolved, ElementsAre("r1", "r2"));

  // A graph without unregistered ops loads as LoadModel loads it.
  ASSERT_TRUE(
      LoadModelForInspection(WriteGraph("plain.pbtxt", UnusedInputsGraph()), &model, &unregistered)
          .ok());
  EXPECT_THAT(unregistered, IsEmpty());
}

// Nodes inside a loop's frame that nothing reads (a lowered loop leaves some) are not
// outputs: their values exist per iteration. What follows the frame's Exit is.
TEST(LikelyOutputsTest, LeavesOutNodesInsideLoops) {
  GraphDef graph_def;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      Placeholder("x") +
          "node { name: 'enter' op: 'Enter' input: 'x' attr { key: 'T' value { type: DT_FLOAT } }"
          " attr { key: 'frame_name' value { s: 'f' } } }\n"
          "node { name: 'inner_enter' op: 'Enter' input: 'enter' "
          "attr { key: 'T' value { type: DT_FLOAT } } "
          "attr { key: 'frame_name' value { s: 'g' } } }\n" +
          Identity("dangling_inner", "inner_enter") +
          "node { name: 'inner_exit' op: 'Exit' input: 'inner_enter' "
          "attr { key: 'T' value { type: DT_FLOAT } } }\n" +
          Identity("dangling_outer", "inner_exit") +
          "node { name: 'exit' op: 'Exit' input: 'enter' "
          "attr { key: 'T' value { type: DT_FLOAT } } }\n" +
          Identity("result", "exit"),
      &graph_def));
  EXPECT_THAT(LikelyOutputs(graph_def), ElementsAre("result"));
}

TEST(LoadModelForInspectionTest, RegisteredNodesAreStillValidated) {
  // y lacks Identity's T attr.
  const std::string path =
      WriteGraph("invalid.pbtxt", Placeholder("x") + Unregistered("r", "NegTrain", "x") +
                                      "node { name: 'y' op: 'Identity' input: 'x' }\n" + kVersions);
  Model model;
  std::vector<UnregisteredOp> unregistered;
  const absl::Status status = LoadModelForInspection(path, &model, &unregistered);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("y"));
}

class BuildFeedsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(LoadModel(WriteGraph("unused.pbtxt", UnusedInputsGraph()), &model_).ok());
  }
  Model model_;
};

TEST_F(BuildFeedsTest, OnlyTheNeededPlaceholdersAreGenerated) {
  std::vector<Feed> feeds;
  std::vector<std::string> unneeded;
  ASSERT_TRUE(BuildFeeds(model_.graph_def, {"out"}, FeedOptions(), &feeds, &unneeded).ok());
  ASSERT_EQ(feeds.size(), 1u);
  EXPECT_EQ(feeds[0].tensor, "x");
  EXPECT_EQ(feeds[0].description, "random float [1,3]");
  EXPECT_THAT(unneeded, IsEmpty());
  // No fetches: nothing is needed.
  ASSERT_TRUE(BuildFeeds(model_.graph_def, {}, FeedOptions(), &feeds).ok());
  EXPECT_THAT(feeds, IsEmpty());
}

TEST_F(BuildFeedsTest, NeededInputsAreStillRequired) {
  // Fetching x's consumer and a Placeholder of unknown rank: that one needs --shape.
  std::vector<Feed> feeds;
  absl::Status status =
      BuildFeeds(model_.graph_def, {"out", "unused_control_flow_input_0"}, FeedOptions(), &feeds);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("input 'unused_control_flow_input_0' has an unknown shape"));
  FeedOptions options;
  options.shapes = {"unused_control_flow_input_0=2"};
  ASSERT_TRUE(
      BuildFeeds(model_.graph_def, {"out", "unused_control_flow_input_0"}, options, &feeds).ok());
  ASSERT_EQ(feeds.size(), 2u);
  EXPECT_EQ(feeds[0].tensor, "unused_control_flow_input_0");
  EXPECT_EQ(feeds[1].tensor, "x");
}

TEST_F(BuildFeedsTest, StepBatchCutsRowsIntoStepsAndCountsThemFirst) {
  Tensor rows(DT_FLOAT, TensorShape({5, 3}));
  for (int i = 0; i < 15; ++i) rows.base<float>()[i] = static_cast<float>(i);
  const std::string path = ::testing::TempDir() + "/five_rows.npy";
  ASSERT_TRUE(WriteNpyFile(path, rows).ok());
  FeedOptions options;
  options.inputs = {"x=" + path};
  options.step_batch = 2;
  std::vector<Feed> feeds;
  ASSERT_TRUE(BuildFeeds(model_.graph_def, {"out"}, options, &feeds).ok());
  ASSERT_EQ(feeds.size(), 1u);
  ASSERT_EQ(feeds[0].step_values.size(), 3u);  // rows 0-1, 2-3, 4
  EXPECT_EQ(feeds[0].ValueAt(2).shape(), TensorShape({1, 3}));
  EXPECT_EQ(feeds[0].ValueAt(2).base<float>()[0], 12.0f);
  int64_t steps = 0;
  ASSERT_TRUE(StepCount(feeds, &steps).ok());
  EXPECT_EQ(steps, 3);
  // Refused before any batch is made.
  options.step_batch = 1;
  options.max_steps = 4;
  const absl::Status status = BuildFeeds(model_.graph_def, {"out"}, options, &feeds);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("--step-batch 1 makes more than 4 steps"));
}

TEST_F(BuildFeedsTest, FlagsForUnneededInputs) {
  FeedOptions options;
  options.shapes = {"unused_control_flow_input_2=4", "unused_control_flow_input_0=1"};
  options.inputs = {"unused_control_flow_input_0=zeros", "x=zeros"};
  std::vector<Feed> feeds;
  std::vector<std::string> unneeded;
  ASSERT_TRUE(BuildFeeds(model_.graph_def, {"out"}, options, &feeds, &unneeded).ok());
  // An --input is fed even so, and says so; a --shape alone generates nothing.
  ASSERT_EQ(feeds.size(), 2u);
  EXPECT_EQ(feeds[0].tensor, "unused_control_flow_input_0");
  EXPECT_EQ(feeds[0].description, "zeros float [1] (not needed by the outputs)");
  EXPECT_EQ(feeds[1].tensor, "x");
  EXPECT_EQ(feeds[1].description, "zeros float [1,3]");
  EXPECT_THAT(unneeded, ElementsAre("unused_control_flow_input_2"));
}

TEST_F(BuildFeedsTest, UnknownNamesListTheNeededInputsFirst) {
  FeedOptions options;
  options.shapes = {"nosuch=1"};
  std::vector<Feed> feeds;
  absl::Status status = BuildFeeds(model_.graph_def, {"out"}, options, &feeds);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_EQ(status.message(),
            "--shape: unknown input 'nosuch'; the model's inputs are: x (float [?,3]); besides 3 "
            "Placeholder(s) the outputs do not need: unused_control_flow_input_0, "
            "unused_control_flow_input_1, unused_control_flow_input_2");
  status = BuildFeeds(model_.graph_def, {}, options, &feeds);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("the model's inputs are: none that the outputs need; besides 4"));
}

TEST_F(BuildFeedsTest, FeedingAnIntermediateTensorCutsTheWalk) {
  FeedOptions options;
  options.inputs = {"out=zeros"};
  options.shapes = {"out=2,3"};
  std::vector<Feed> feeds;
  ASSERT_TRUE(BuildFeeds(model_.graph_def, {"out:0"}, options, &feeds).ok());
  ASSERT_EQ(feeds.size(), 1u);
  EXPECT_EQ(feeds[0].tensor, "out");
  EXPECT_EQ(feeds[0].description, "zeros float [2,3]");
}

}  // namespace
}  // namespace cli
}  // namespace sluice
