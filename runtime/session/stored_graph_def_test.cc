#include "runtime/session/stored_graph_def.h"

#include <utility>

#include "google/protobuf/arena.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

GraphDef SmallGraph() {
  GraphDef graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
                                                              node {
                                                                name: "x"
                                                                op: "Placeholder"
                                                                attr {
                                                                  key: "dtype"
                                                                  value { type: DT_FLOAT }
                                                                }
                                                              }
                                                              node {
                                                                name: "y"
                                                                op: "Identity"
                                                                input: "x"
                                                                attr {
                                                                  key: "T"
                                                                  value { type: DT_FLOAT }
                                                                }
                                                              }
                                                              versions { producer: 1987 }
                                                            )pb",
                                                            &graph));
  return graph;
}

TEST(StoredGraphDefTest, CopyParsesBackToTheSameGraph) {
  const GraphDef graph = SmallGraph();
  auto stored = StoredGraphDef::Copy(graph);
  EXPECT_EQ(stored->node_count(), 2);
  GraphDef parsed;
  ASSERT_TRUE(stored->Parse(&parsed).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(parsed, graph));
}

TEST(StoredGraphDefTest, TakeEmptiesTheSource) {
  GraphDef graph = SmallGraph();
  const GraphDef expected = graph;
  auto stored = StoredGraphDef::Take(std::move(graph));
  EXPECT_EQ(graph.node_size(), 0);  // NOLINT(bugprone-use-after-move): specified empty
  GraphDef parsed;
  ASSERT_TRUE(stored->Parse(&parsed).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(parsed, expected));
}

TEST(StoredGraphDefTest, ParseOntoAnArena) {
  const GraphDef graph = SmallGraph();
  auto stored = StoredGraphDef::Copy(graph);
  google::protobuf::Arena arena;
  GraphDef* parsed = nullptr;
  ASSERT_TRUE(stored->ParseOnto(&arena, &parsed).ok());
  ASSERT_NE(parsed, nullptr);
  EXPECT_EQ(parsed->GetArena(), &arena);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*parsed, graph));
  // Each parse is a fresh copy.
  GraphDef* again = nullptr;
  ASSERT_TRUE(stored->ParseOnto(&arena, &again).ok());
  EXPECT_NE(again, parsed);
  EXPECT_EQ(again->node_size(), 2);
}

}  // namespace
}  // namespace sluice
