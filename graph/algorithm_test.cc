#include "graph/algorithm.h"

#include <string>
#include <unordered_set>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "graph/import/graph_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;

// a -> c, b -> c, c -> d, c -> e, ^b -> e, plus an unconnected f.
constexpr char kDiamond[] = R"pb(
  node {
    name: "b"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "a"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "c"
    op: "Mul"
    input: "a"
    input: "b"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "e"
    op: "Identity"
    input: "c"
    input: "^b"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "d"
    op: "Identity"
    input: "c"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node { name: "f" op: "NoOp" }
)pb";

std::vector<std::string> Names(const std::vector<Node*>& nodes) {
  std::vector<std::string> out;
  for (const Node* n : nodes) out.push_back(n->name());
  return out;
}

class AlgorithmTest : public ::testing::Test {
 protected:
  void Load(const char* text) { ASSERT_TRUE(GraphFromTextForTest(text, &g_).ok()); }
  Node* N(const char* name) { return g_.FindNodeByName(name); }
  // Index of each node in `order`, by name.
  int Pos(const std::vector<Node*>& order, const char* name) {
    for (size_t i = 0; i < order.size(); ++i) {
      if (order[i]->name() == name) return static_cast<int>(i);
    }
    return -1;
  }

  Graph g_{OpRegistry::Global()};
};

TEST_F(AlgorithmTest, ReversePostOrderByNameIsTopologicalAndStable) {
  Load(kDiamond);
  std::vector<Node*> order;
  GetReversePostOrder(g_, &order, NodeComparatorName());
  EXPECT_THAT(Names(order), ElementsAre("_SOURCE", "f", "b", "a", "c", "e", "d", "_SINK"));
  GetPostOrder(g_, &order, NodeComparatorName());
  EXPECT_THAT(Names(order), ElementsAre("_SINK", "d", "e", "c", "a", "b", "f", "_SOURCE"));
}

TEST_F(AlgorithmTest, ReversePostOrderIsTopologicalWithoutComparator) {
  Load(kDiamond);
  std::vector<Node*> order;
  GetReversePostOrder(g_, &order);
  ASSERT_EQ(order.size(), 8u);
  for (const Edge* e : g_.edges()) {
    EXPECT_LT(Pos(order, e->src()->name().c_str()), Pos(order, e->dst()->name().c_str()))
        << e->DebugString();
  }
}

TEST_F(AlgorithmTest, DFSCallsEnterAndLeaveOnce) {
  Load(kDiamond);
  std::vector<std::string> entered, left;
  DFS(
      g_, [&](Node* n) { entered.push_back(n->name()); },
      [&](Node* n) { left.push_back(n->name()); }, NodeComparatorName());
  EXPECT_THAT(entered, ElementsAre("_SOURCE", "_SINK", "a", "c", "d", "e", "b", "f"));
  EXPECT_THAT(left, ElementsAre("_SINK", "d", "e", "c", "a", "b", "f", "_SOURCE"));
}

TEST_F(AlgorithmTest, ComparatorById) {
  Load(kDiamond);
  std::vector<std::string> entered;
  DFS(
      g_, [&](Node* n) { entered.push_back(n->name()); }, nullptr, NodeComparatorID());
  // b (id 2) is visited before a (id 3).
  EXPECT_THAT(entered, ElementsAre("_SOURCE", "_SINK", "b", "c", "e", "d", "a", "f"));
}

TEST_F(AlgorithmTest, EdgeFilterHidesEdges) {
  Load(kDiamond);
  std::vector<std::string> entered;
  DFSFrom(
      g_, {N("b")}, [&](Node* n) { entered.push_back(n->name()); }, nullptr, NodeComparatorName(),
      [](const Edge& e) { return !e.IsControlEdge(); });
  EXPECT_THAT(entered, ElementsAre("b", "c", "d", "e"));
}

TEST_F(AlgorithmTest, ReverseDFS) {
  Load(kDiamond);
  std::vector<std::string> left;
  ReverseDFSFrom(
      g_, {N("e")}, nullptr, [&](Node* n) { left.push_back(n->name()); }, NodeComparatorName());
  EXPECT_THAT(left, ElementsAre("_SOURCE", "b", "a", "c", "e"));
  std::vector<std::string> entered;
  ReverseDFS(
      g_, [&](Node* n) { entered.push_back(n->name()); }, nullptr, NodeComparatorName());
  EXPECT_EQ(entered.size(), 8u);
  EXPECT_EQ(entered.front(), "_SINK");
}

TEST_F(AlgorithmTest, UnfixedGraphsAreStillCovered) {
  // Nodes added by hand have no source or sink edges.
  Node* x = *g_.AddNode([] {
    NodeDef d;
    d.set_name("x");
    d.set_op("NoOp");
    return d;
  }());
  Node* y = *g_.AddNode([] {
    NodeDef d;
    d.set_name("y");
    d.set_op("NoOp");
    return d;
  }());
  g_.AddControlEdge(x, y);
  std::vector<Node*> order;
  GetReversePostOrder(g_, &order, NodeComparatorName());
  EXPECT_THAT(Names(order), ElementsAre("x", "y", "_SOURCE", "_SINK"));
  std::vector<std::string> entered;
  ReverseDFS(
      g_, [&](Node* n) { entered.push_back(n->name()); }, nullptr);
  EXPECT_THAT(entered, ElementsAre("_SINK", "_SOURCE", "y", "x"));

  EXPECT_TRUE(FixupSourceAndSinkEdges(&g_));
  EXPECT_FALSE(FixupSourceAndSinkEdges(&g_));
  GetReversePostOrder(g_, &order, NodeComparatorName());
  EXPECT_THAT(Names(order), ElementsAre("_SOURCE", "x", "y", "_SINK"));
  EXPECT_EQ(x->in_edges().size(), 1u);
  EXPECT_EQ(y->out_edges().size(), 1u);
}

TEST_F(AlgorithmTest, WhileLoopOrderBreaksAtNextIteration) {
  Load(R"pb(
    node {
      name: "init"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "enter"
      op: "Enter"
      input: "init"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
      attr {
        key: "frame_name"
        value { s: "loop" }
      }
    }
    node {
      name: "merge"
      op: "Merge"
      input: "enter"
      input: "next"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
      attr {
        key: "N"
        value { i: 2 }
      }
    }
    node {
      name: "limit"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
      input: "^merge"
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_INT32
            tensor_shape {}
            int_val: 10
          }
        }
      }
    }
    node {
      name: "less"
      op: "Less"
      input: "merge"
      input: "limit"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node { name: "cond" op: "LoopCond" input: "less" }
    node {
      name: "switch"
      op: "Switch"
      input: "merge"
      input: "cond"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "body"
      op: "Identity"
      input: "switch:1"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "next"
      op: "NextIteration"
      input: "body"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "exit"
      op: "Exit"
      input: "switch"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
  )pb");
  std::vector<Node*> order;
  GetReversePostOrder(g_, &order, NodeComparatorName());
  for (const Edge* e : g_.edges()) {
    if (e->src()->IsNextIteration()) continue;
    EXPECT_LT(Pos(order, e->src()->name().c_str()), Pos(order, e->dst()->name().c_str()))
        << e->DebugString();
  }
  EXPECT_LT(Pos(order, "merge"), Pos(order, "next"));
}

TEST_F(AlgorithmTest, PruneForReverseReachability) {
  Load(kDiamond);
  EXPECT_TRUE(PruneForReverseReachability(&g_, {N("e")}));
  EXPECT_EQ(CanonicalGraphString(g_),
            "a(Placeholder);b(Placeholder);c(Mul);e(Identity)|"
            "^b->e;a->c;b->c:1;c->e");
  EXPECT_FALSE(PruneForReverseReachability(&g_, {N("e")}));
  EXPECT_TRUE(PruneForReverseReachability(&g_, {}));
  EXPECT_EQ(g_.num_op_nodes(), 0);
  EXPECT_EQ(g_.num_nodes(), 2);
}

TEST_F(AlgorithmTest, FixupConnectsSourceAndSinkOnce) {
  Load(kDiamond);
  for (int id = 0; id < g_.num_edge_ids(); ++id) {
    const Edge* e = g_.FindEdgeId(id);
    if (e != nullptr && (e->src()->IsSource() || e->dst()->IsSink())) g_.RemoveEdge(e);
  }
  EXPECT_TRUE(FixupSourceAndSinkEdges(&g_));
  // Sources: a, b, f; sinks: d, e, f.
  EXPECT_EQ(g_.source_node()->out_edges().size(), 3u);
  EXPECT_EQ(g_.sink_node()->in_edges().size(), 3u);
  EXPECT_FALSE(FixupSourceAndSinkEdges(&g_));
  EXPECT_EQ(g_.sink_node()->in_edges().size(), 3u);
}

// Every node unread, as when a step fetches every output of a 65535-way Split: fixing up used
// to search _SINK's in-edges once per node (minutes here); now it is linear.
TEST_F(AlgorithmTest, FixupOfManyUnreadNodesIsLinear) {
  NodeDef def;
  def.set_op("NoOp");
  constexpr int kNodes = 200000;
  for (int i = 0; i < kNodes; ++i) {
    def.set_name("n" + std::to_string(i));
    ASSERT_TRUE(g_.AddNode(def).ok());
  }
  const absl::Time start = absl::Now();
  EXPECT_TRUE(FixupSourceAndSinkEdges(&g_));
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  // One edge each per node, and the new graph's own _SOURCE -> _SINK edge.
  EXPECT_EQ(g_.sink_node()->in_edges().size(), static_cast<size_t>(kNodes) + 1);
  EXPECT_EQ(g_.source_node()->out_edges().size(), static_cast<size_t>(kNodes) + 1);
}

TEST_F(AlgorithmTest, DeepChainDoesNotOverflowTheStack) {
  NodeDef def;
  def.set_op("NoOp");
  def.set_name("n0");
  Node* prev = *g_.AddNode(def);
  for (int i = 1; i < 200000; ++i) {
    def.set_name("n" + std::to_string(i));
    Node* n = *g_.AddNode(def);
    g_.AddControlEdge(prev, n);
    prev = n;
  }
  std::vector<Node*> order;
  GetReversePostOrder(g_, &order);
  EXPECT_EQ(order.size(), 200002u);
  EXPECT_EQ(order[0]->name(), "n0");
}

}  // namespace
}  // namespace sluice
