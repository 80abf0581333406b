#include "tools/cli/graph_needs.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/op/op_def_builder.h"
#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

GraphDef Parse(const std::string& text) {
  GraphDef graph_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph_def)) << text;
  return graph_def;
}

// "node { name: 'NAME' op: 'OP' input: ... }"
std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs = {}) {
  std::string text = "node { name: '" + name + "' op: '" + op + "'";
  for (const std::string& input : inputs) text += " input: '" + input + "'";
  return text + " }\n";
}

// What a lowered Keras LSTM leaves behind, in small: x feeds the output; two
// unused_control_flow_input Placeholders (one read by a node no fetch needs) do not.
GraphDef LstmLike() {
  return Parse(Node("unused_control_flow_input_0", "Placeholder") + Node("x", "Placeholder") +
               Node("unused_control_flow_input_1", "Placeholder") +
               Node("side", "Identity", {"unused_control_flow_input_1"}) +
               Node("h", "Identity", {"x"}) + Node("out", "Identity", {"h"}));
}

TEST(FindFetchNeedsTest, OnlyThePlaceholdersOnThePathToTheFetches) {
  // needs.nodes views the GraphDef's names, so the graph outlives it.
  const GraphDef graph_def = LstmLike();
  const FetchNeeds needs = FindFetchNeeds(graph_def, {"out"}, {});
  EXPECT_THAT(needs.placeholders, ElementsAre("x"));
  EXPECT_THAT(needs.nodes, UnorderedElementsAre("h", "out", "x"));
  EXPECT_THAT(needs.fed_tensors, IsEmpty());
  // Fetching what reads the unused input needs it too.
  EXPECT_THAT(FindFetchNeeds(graph_def, {"out:0", "side"}, {}).placeholders,
              ElementsAre("x", "unused_control_flow_input_1"));
  EXPECT_THAT(FindFetchNeeds(graph_def, {}, {}).placeholders, IsEmpty());
}

TEST(FindFetchNeedsTest, PlaceholdersComeInGraphOrder) {
  const GraphDef graph_def =
      Parse(Node("b", "Placeholder") + Node("a", "PlaceholderWithDefault", {"d"}) +
            Node("d", "Const") + Node("c", "Placeholder") + Node("sum", "AddN", {"c", "a", "b"}));
  EXPECT_THAT(FindFetchNeeds(graph_def, {"sum"}, {}).placeholders, ElementsAre("b", "a", "c"));
}

TEST(FindFetchNeedsTest, ControlEdgesCount) {
  // out waits for p through a NoOp; q only through a node nobody fetches.
  const GraphDef graph_def =
      Parse(Node("p", "Placeholder") + Node("q", "Placeholder") + Node("x", "Placeholder") +
            Node("wait", "NoOp", {"^p"}) + Node("out", "Identity", {"x", "^wait"}) +
            Node("other", "NoOp", {"^q"}));
  EXPECT_THAT(FindFetchNeeds(graph_def, {"out"}, {}).placeholders, ElementsAre("p", "x"));
  // A target node (a NoOp) as the fetch.
  EXPECT_THAT(FindFetchNeeds(graph_def, {"other"}, {}).placeholders, ElementsAre("q"));
}

TEST(FindFetchNeedsTest, FeedsStopTheWalk) {
  const GraphDef graph_def = LstmLike();
  FetchNeeds needs = FindFetchNeeds(graph_def, {"out"}, {"h"});
  EXPECT_THAT(needs.placeholders, IsEmpty());
  EXPECT_THAT(needs.nodes, UnorderedElementsAre("out"));
  EXPECT_THAT(needs.fed_tensors, ElementsAre("h:0"));
  // A fed Placeholder is not needed as a node; a feed the fetches do not read is not reached.
  needs = FindFetchNeeds(graph_def, {"out"}, {"x:0", "unused_control_flow_input_0"});
  EXPECT_THAT(needs.placeholders, IsEmpty());
  EXPECT_THAT(needs.nodes, UnorderedElementsAre("h", "out"));
  EXPECT_THAT(needs.fed_tensors, ElementsAre("x:0"));
  // Fetching a fed tensor returns the feed: nothing before it runs.
  needs = FindFetchNeeds(graph_def, {"h"}, {"h:0"});
  EXPECT_THAT(needs.nodes, IsEmpty());
  EXPECT_THAT(needs.fed_tensors, ElementsAre("h:0"));
}

TEST(FindFetchNeedsTest, FeedsCutOnlyTheFedOutput) {
  // split has two outputs; out reads output 1. Feeding output 0 leaves split (and x) needed.
  const GraphDef graph_def = Parse(Node("x", "Placeholder") + Node("split", "Split2", {"x"}) +
                                   Node("out", "Identity", {"split:1"}));
  FetchNeeds needs = FindFetchNeeds(graph_def, {"out"}, {"split:0"});
  EXPECT_THAT(needs.placeholders, ElementsAre("x"));
  EXPECT_THAT(needs.fed_tensors, IsEmpty());
  needs = FindFetchNeeds(graph_def, {"out"}, {"split:1"});
  EXPECT_THAT(needs.placeholders, IsEmpty());
  EXPECT_THAT(needs.fed_tensors, ElementsAre("split:1"));
}

TEST(FindFetchNeedsTest, ControlEdgeFromAFedPlaceholderMovesToTheFeed) {
  // As pruning does: a fed Placeholder's control consumers wait for the feed instead, while a
  // fed PlaceholderWithDefault still runs for its control consumers (and needs its default).
  const GraphDef graph_def =
      Parse(Node("p", "Placeholder") + Node("d", "Placeholder") +
            Node("pd", "PlaceholderWithDefault", {"d"}) + Node("x", "Placeholder") +
            Node("out", "Identity", {"x", "^p", "^pd"}));
  const FetchNeeds needs = FindFetchNeeds(graph_def, {"out"}, {"p", "pd", "x"});
  EXPECT_THAT(needs.fed_tensors, ElementsAre("p:0", "x:0"));
  EXPECT_THAT(needs.placeholders, ElementsAre("d", "pd"));
}

TEST(FindFetchNeedsTest, UnknownNamesCyclesAndDuplicatesAreHarmless) {
  // A loop (as NextIteration makes), an input naming a node the graph lacks, a malformed
  // input, a duplicated node name.
  const GraphDef graph_def =
      Parse(Node("x", "Placeholder") + Node("merge", "Merge", {"x", "next"}) +
            Node("next", "NextIteration", {"merge", "^ghost", "bad:x"}) + Node("x", "Placeholder") +
            Node("out", "Identity", {"merge"}));
  const FetchNeeds needs = FindFetchNeeds(graph_def, {"out", "nosuch", "^weird", ""}, {"^x"});
  EXPECT_THAT(needs.placeholders, ElementsAre("x"));
  EXPECT_THAT(needs.nodes, UnorderedElementsAre("merge", "next", "out", "x"));
}

TEST(FedTensorKeyTest, Canonical) {
  EXPECT_EQ(FedTensorKey("x"), "x:0");
  EXPECT_EQ(FedTensorKey("x:0"), "x:0");
  EXPECT_EQ(FedTensorKey("split:2"), "split:2");
}

class FindUnregisteredOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(registry_.Register(OpDefBuilder("Placeholder").Output("y: float")).ok());
    ASSERT_TRUE(
        registry_.Register(OpDefBuilder("Identity").Input("x: float").Output("y: float")).ok());
  }
  OpRegistry registry_;
};

TEST_F(FindUnregisteredOpsTest, ListsEachMissingOpWithItsNodes) {
  GraphDef graph_def =
      Parse(Node("x", "Placeholder") + Node("stack", "TensorListStack", {"reserve"}) +
            Node("reserve", "TensorListReserve") + Node("y", "Identity", {"x"}) +
            Node("stack_1", "TensorListStack", {"reserve"}) + Node("call", "my_function") +
            "library { function { signature { name: 'my_function' } } }");
  const std::vector<UnregisteredOp> ops = FindUnregisteredOps(graph_def, registry_);
  // The call of the library's function is no missing op.
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].op, "TensorListReserve");
  EXPECT_THAT(ops[0].nodes, ElementsAre("reserve"));
  EXPECT_EQ(ops[1].op, "TensorListStack");
  EXPECT_THAT(ops[1].nodes, ElementsAre("stack", "stack_1"));
}

// A functional While keeps its body in the library: the ops missing there are listed too,
// named by function and node, after the graph's own nodes of the same op. A body's call of
// another library function is no missing op.
TEST_F(FindUnregisteredOpsTest, LooksInsideLibraryFunctions) {
  GraphDef graph_def =
      Parse(Node("reserve", "TensorListReserve") + Node("loop", "While", {"reserve"}) +
            "library {\n"
            "  function { signature { name: 'while_body' }\n"
            "    node_def { name: 'get' op: 'TensorListGetItem' }\n"
            "    node_def { name: 'id' op: 'Identity' input: 'get:item:0' }\n"
            "    node_def { name: 'cell' op: 'lstm_cell' }\n"
            "    node_def { name: 'set' op: 'TensorListSetItem' }\n"
            "    node_def { name: 'reserve_inner' op: 'TensorListReserve' } }\n"
            "  function { signature { name: 'lstm_cell' }\n"
            "    node_def { name: 'get_2' op: 'TensorListGetItem' } }\n"
            "}\n");
  const std::vector<UnregisteredOp> ops = FindUnregisteredOps(graph_def, registry_);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops[0].op, "TensorListGetItem");
  EXPECT_THAT(ops[0].nodes, ElementsAre("while_body/get", "lstm_cell/get_2"));
  EXPECT_EQ(ops[1].op, "TensorListReserve");
  EXPECT_THAT(ops[1].nodes, ElementsAre("reserve", "while_body/reserve_inner"));
  EXPECT_EQ(ops[2].op, "TensorListSetItem");
  EXPECT_THAT(ops[2].nodes, ElementsAre("while_body/set"));
  EXPECT_EQ(ops[3].op, "While");
  EXPECT_THAT(ops[3].nodes, ElementsAre("loop"));
}

TEST_F(FindUnregisteredOpsTest, EmptyWhenEveryOpIsRegistered) {
  EXPECT_THAT(FindUnregisteredOps(Parse(Node("x", "Placeholder") + Node("y", "Identity", {"x"})),
                                  registry_),
              IsEmpty());
  EXPECT_THAT(FindUnregisteredOps(GraphDef(), registry_), IsEmpty());
}

TEST(FirstNamesTest, ShowsTheFirstFewThenHowManyMore) {
  EXPECT_EQ(FirstNames({}, 5), "");
  EXPECT_EQ(FirstNames({"a"}, 5), "a");
  EXPECT_EQ(FirstNames({"a", "b", "c"}, 3), "a, b, c");
  EXPECT_EQ(FirstNames({"a", "b", "c", "d", "e", "f", "g"}, 3), "a, b, c and 4 more");
  EXPECT_EQ(FirstNames({"a", "b"}, 0), "a and 1 more");
}

}  // namespace
}  // namespace cli
}  // namespace sluice
