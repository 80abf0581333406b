#include "tests/map_entry_order.h"

#include <string>
#include <vector>

#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace fixtures {
namespace {

// The bytes of attr entry `key` (an int attr), as a NodeDef field.
std::string AttrEntry(const std::string& key) {
  NodeDef only;
  (*only.mutable_attr())[key].set_i(static_cast<int64_t>(key.size()));
  return only.SerializeAsString();
}

std::string Cpp(const google::protobuf::Message& message) {
  std::string bytes;
  EXPECT_TRUE(SerializeDeterministic(message, &bytes).ok());
  return bytes;
}

NodeDef NodeWithAttrs(const std::vector<std::string>& keys) {
  NodeDef node;
  node.set_name("n");
  node.set_op("ConcatV2");
  for (const std::string& key : keys) (*node.mutable_attr())[key].set_i(key.size());
  return node;
}

TEST(MapEntryOrderTest, SortsPrefixKeysLikeCpp) {
  const NodeDef node = NodeWithAttrs({"T", "Tidx", "N"});
  NodeDef name_and_op;
  name_and_op.set_name("n");
  name_and_op.set_op("ConcatV2");
  // upb's order: a key before its prefixes.
  const std::string upb_order =
      name_and_op.SerializeAsString() + AttrEntry("N") + AttrEntry("Tidx") + AttrEntry("T");
  ASSERT_NE(upb_order, Cpp(node));
  std::string reordered;
  ASSERT_TRUE(ReorderMapEntriesLikeCpp(upb_order, *NodeDef::descriptor(), &reordered));
  EXPECT_EQ(reordered, Cpp(node));
}

TEST(MapEntryOrderTest, RecursesIntoNestedMessages) {
  GraphDef graph_def;
  *graph_def.add_node() = NodeWithAttrs({"T", "Tidx"});
  graph_def.mutable_versions()->set_producer(7);
  const std::string cpp = Cpp(graph_def);

  NodeDef name_and_op = NodeWithAttrs({});
  const std::string node_bytes =
      name_and_op.SerializeAsString() + AttrEntry("Tidx") + AttrEntry("T");
  GraphDef versions_only;
  versions_only.mutable_versions()->set_producer(7);
  std::string upb_order("\x0a", 1);
  upb_order.push_back(static_cast<char>(node_bytes.size()));
  upb_order += node_bytes + versions_only.SerializeAsString();

  std::string reordered;
  ASSERT_TRUE(ReorderMapEntriesLikeCpp(upb_order, *GraphDef::descriptor(), &reordered));
  EXPECT_EQ(reordered, cpp);
}

TEST(MapEntryOrderTest, IntegerKeysSortNumerically) {
  FunctionDef function;
  (*function.mutable_resource_arg_unique_id())[10] = 1;
  (*function.mutable_resource_arg_unique_id())[2] = 1;
  FunctionDef ten, two;
  (*ten.mutable_resource_arg_unique_id())[10] = 1;
  (*two.mutable_resource_arg_unique_id())[2] = 1;
  std::string reordered;
  ASSERT_TRUE(ReorderMapEntriesLikeCpp(ten.SerializeAsString() + two.SerializeAsString(),
                                       *FunctionDef::descriptor(), &reordered));
  EXPECT_EQ(reordered, Cpp(function));
}

TEST(MapEntryOrderTest, CanonicalBytesAreUnchanged) {
  const std::string cpp = Cpp(NodeWithAttrs({"b", "a", "T", "Tidx", "Tperm"}));
  std::string reordered;
  ASSERT_TRUE(ReorderMapEntriesLikeCpp(cpp, *NodeDef::descriptor(), &reordered));
  EXPECT_EQ(reordered, cpp);
}

TEST(MapEntryOrderTest, RejectsMalformedBytes) {
  std::string reordered;
  EXPECT_FALSE(ReorderMapEntriesLikeCpp(std::string("\x0a\x05"
                                                    "ab",
                                                    4),
                                        *NodeDef::descriptor(), &reordered));
  EXPECT_FALSE(
      ReorderMapEntriesLikeCpp(std::string("\x0f", 1), *NodeDef::descriptor(), &reordered));
}

}  // namespace
}  // namespace fixtures
}  // namespace sluice
