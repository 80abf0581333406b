// Every GraphDef fixture that TensorFlow wrote loads in Sluice exactly as TensorFlow meant it:
// binary and text parse to the same message, binary re-serializes byte for byte, text
// re-emits to the same message, every node validates against Sluice's op registry, the
// defaults TensorFlow already filled in are the ones Sluice would fill in, and the feeds and
// fetches in the manifest have the dtypes TensorFlow gave them.
//
// "Byte for byte" allows one difference: the order of map entries (NodeDef attrs) whose keys
// are prefixes of one another, which TensorFlow's Python protobuf runtime sorts differently
// from protobuf C++ (see map_entry_order.h). TfBytesInCppOrder normalizes exactly that.
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/core/types.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "tests/fixture_manifest.h"
#include "tests/map_entry_order.h"

namespace sluice {
namespace {

using ::google::protobuf::util::MessageDifferencer;

class GraphDefConformanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fixtures::ReadFixtureManifest(fixtures::FixturesDir(), &models_).ok());
    ASSERT_GE(models_.size(), 3u);
  }

  static GraphDef ReadBinary(const fixtures::FixtureModel& model, std::string* bytes) {
    EXPECT_TRUE(ReadFileToString(model.pb_path, bytes).ok());
    GraphDef graph_def;
    absl::Status status = ParseGraphDef(*bytes, &graph_def);
    EXPECT_TRUE(status.ok()) << status;
    return graph_def;
  }

  // TensorFlow's bytes with map entries in protobuf C++'s deterministic order; the same
  // length as TensorFlow's.
  static std::string TfBytesInCppOrder(const std::string& tf_bytes) {
    std::string reordered;
    EXPECT_TRUE(fixtures::ReorderMapEntriesLikeCpp(tf_bytes, *GraphDef::descriptor(), &reordered));
    EXPECT_EQ(reordered.size(), tf_bytes.size());
    return reordered;
  }

  std::vector<fixtures::FixtureModel> models_;
};

TEST_F(GraphDefConformanceTest, BinaryReserializesByteIdentically) {
  for (const fixtures::FixtureModel& model : models_) {
    SCOPED_TRACE(model.name);
    std::string tf_bytes;
    const GraphDef graph_def = ReadBinary(model, &tf_bytes);
    EXPECT_GT(graph_def.node_size(), 5);
    std::string our_bytes;
    ASSERT_TRUE(SerializeDeterministic(graph_def, &our_bytes).ok());
    EXPECT_EQ(our_bytes, TfBytesInCppOrder(tf_bytes));

    GraphDef from_file;
    ASSERT_TRUE(ReadGraphDefFile(model.pb_path, &from_file).ok());
    EXPECT_TRUE(MessageDifferencer::Equals(from_file, graph_def));
  }
}

TEST_F(GraphDefConformanceTest, TextMatchesBinaryAndReemitsIdentically) {
  for (const fixtures::FixtureModel& model : models_) {
    SCOPED_TRACE(model.name);
    std::string tf_bytes;
    const GraphDef binary = ReadBinary(model, &tf_bytes);

    GraphDef text;
    absl::Status status = ReadGraphDefFile(model.pbtxt_path, &text);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_TRUE(MessageDifferencer::Equals(text, binary));
    std::string text_as_binary;
    ASSERT_TRUE(SerializeDeterministic(text, &text_as_binary).ok());
    EXPECT_EQ(text_as_binary, TfBytesInCppOrder(tf_bytes));

    std::string our_text;
    ASSERT_TRUE(google::protobuf::TextFormat::PrintToString(text, &our_text));
    GraphDef reparsed;
    ASSERT_TRUE(ParseTextProto(our_text, &reparsed).ok());
    MessageDifferencer differencer;
    std::string differences;
    differencer.ReportDifferencesToString(&differences);
    EXPECT_TRUE(differencer.Compare(reparsed, text)) << differences;
  }
}

TEST_F(GraphDefConformanceTest, ValidatesAgainstRegistryWithDefaultsFilled) {
  for (const fixtures::FixtureModel& model : models_) {
    SCOPED_TRACE(model.name);
    std::string tf_bytes;
    GraphDef graph_def = ReadBinary(model, &tf_bytes);
    EXPECT_TRUE(CheckGraphDefVersions(graph_def.versions()).ok());
    absl::Status status = AddDefaultAttrsToGraphDef(&graph_def, *OpRegistry::Global());
    ASSERT_TRUE(status.ok()) << status;
    status = ValidateGraphDefAgainstOpRegistry(graph_def, *OpRegistry::Global());
    EXPECT_TRUE(status.ok()) << status;

    // TensorFlow writes every attr, defaults included, so filling defaults must be a no-op:
    // an attr added here is one TensorFlow's OpDef lacks.
    std::string with_defaults;
    ASSERT_TRUE(SerializeDeterministic(graph_def, &with_defaults).ok());
    EXPECT_EQ(with_defaults, TfBytesInCppOrder(tf_bytes));
  }
}

// The node named `name`, or nullptr.
const NodeDef* FindNode(const GraphDef& graph_def, const std::string& name) {
  for (const NodeDef& node : graph_def.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

TEST_F(GraphDefConformanceTest, FeedsAndFetchesHaveManifestDtypes) {
  for (const fixtures::FixtureModel& model : models_) {
    SCOPED_TRACE(model.name);
    std::string tf_bytes;
    GraphDef graph_def = ReadBinary(model, &tf_bytes);
    ASSERT_TRUE(AddDefaultAttrsToGraphDef(&graph_def, *OpRegistry::Global()).ok());
    EXPECT_FALSE(model.feeds.empty());
    EXPECT_FALSE(model.fetches.empty());
    std::vector<const fixtures::FixtureTensor*> tensors;
    for (const auto& feed : model.feeds) tensors.push_back(&feed);
    for (const auto& fetch : model.fetches) tensors.push_back(&fetch);
    for (const fixtures::FixtureTensor* tensor : tensors) {
      SCOPED_TRACE(tensor->node);
      const NodeDef* node = FindNode(graph_def, tensor->node);
      ASSERT_NE(node, nullptr);
      const OpDef* op_def = nullptr;
      ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef(node->op(), &op_def).ok());
      DataTypeVector inputs, outputs;
      ASSERT_TRUE(InOutTypesForNode(*node, *op_def, &inputs, &outputs).ok());
      DataType expected;
      ASSERT_TRUE(fixtures::DataTypeFromNumpyName(tensor->dtype, &expected).ok());
      ASSERT_FALSE(outputs.empty());
      EXPECT_EQ(DataTypeString(outputs[0]), DataTypeString(expected));
    }
    for (const auto& feed : model.feeds) {
      EXPECT_EQ(FindNode(graph_def, feed.node)->op(), "Placeholder");
    }
  }
}

}  // namespace
}  // namespace sluice
