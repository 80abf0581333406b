#include "graph/graph.h"

#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/import/graph_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

NodeDef MakeDef(const std::string& name, const std::string& op, DataType t = DT_FLOAT) {
  NodeDef def;
  def.set_name(name);
  def.set_op(op);
  if (op == "Placeholder" || op == "Const") AddNodeAttr("dtype", t, &def);
  if (op == "Mul" || op == "Identity" || op == "AddN" || op == "Add") AddNodeAttr("T", t, &def);
  if (op == "AddN") AddNodeAttr("N", 3, &def);
  return def;
}

class GraphTest : public ::testing::Test {
 protected:
  Node* Add(const std::string& name, const std::string& op) {
    absl::StatusOr<Node*> n = g_.AddNode(MakeDef(name, op));
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : nullptr;
  }
  std::vector<std::string> Inputs(const Node* n) {
    return std::vector<std::string>(n->def().input().begin(), n->def().input().end());
  }
  // Checks that every edge is in its src's out-set and its dst's in-set, and nowhere else.
  void CheckEdgeBookkeeping() {
    int live = 0;
    for (const Edge* e : g_.edges()) {
      ++live;
      EXPECT_EQ(g_.FindEdgeId(e->id()), e);
      EXPECT_EQ(std::count(e->src()->out_edges().begin(), e->src()->out_edges().end(), e), 1);
      EXPECT_EQ(std::count(e->dst()->in_edges().begin(), e->dst()->in_edges().end(), e), 1);
    }
    EXPECT_EQ(live, g_.num_edges());
    size_t in_total = 0, out_total = 0;
    for (const Node* n : g_.nodes()) {
      in_total += n->in_edges().size();
      out_total += n->out_edges().size();
      for (const Edge* e : n->in_edges()) EXPECT_EQ(e->dst(), n);
      for (const Edge* e : n->out_edges()) EXPECT_EQ(e->src(), n);
    }
    EXPECT_EQ(in_total, static_cast<size_t>(live));
    EXPECT_EQ(out_total, static_cast<size_t>(live));
  }

  Graph g_{OpRegistry::Global()};
};

TEST_F(GraphTest, NewGraphHasSourceAndSink) {
  EXPECT_EQ(g_.num_nodes(), 2);
  EXPECT_EQ(g_.num_op_nodes(), 0);
  EXPECT_EQ(g_.num_node_ids(), 2);
  EXPECT_EQ(g_.num_edges(), 1);
  EXPECT_EQ(g_.source_node()->id(), 0);
  EXPECT_EQ(g_.sink_node()->id(), 1);
  EXPECT_EQ(g_.source_node()->name(), "_SOURCE");
  EXPECT_EQ(g_.sink_node()->name(), "_SINK");
  EXPECT_TRUE(g_.source_node()->IsSource());
  EXPECT_TRUE(g_.sink_node()->IsSink());
  EXPECT_FALSE(g_.source_node()->IsOp());
  EXPECT_TRUE(g_.source_node()->IsNoOp());
  EXPECT_EQ(g_.FindNodeByName("_SOURCE"), g_.source_node());
  const Edge* e = *g_.source_node()->out_edges().begin();
  EXPECT_TRUE(e->IsControlEdge());
  EXPECT_EQ(e->dst(), g_.sink_node());
  EXPECT_EQ(e->src_output(), Graph::kControlSlot);
  EXPECT_EQ(e->dst_input(), Graph::kControlSlot);
  EXPECT_EQ(e->DebugString(), "[id=0 _SOURCE:-1 -> _SINK:-1]");
  EXPECT_EQ(g_.versions().producer(), 2474);
  // The graph's registry is the one it was made with, then its library's functions.
  const auto* registry = dynamic_cast<const LibraryOpRegistry*>(g_.op_registry());
  ASSERT_NE(registry, nullptr);
  EXPECT_EQ(registry->base(), OpRegistry::Global());
  std::vector<Node*> ops(g_.op_nodes().begin(), g_.op_nodes().end());
  EXPECT_TRUE(ops.empty());
}

TEST_F(GraphTest, AddNodeComputesTypesAndDropsInputs) {
  NodeDef def = MakeDef("m", "Mul");
  def.add_input("x");
  def.add_input("y");
  def.set_device("/device:CPU:0");
  absl::StatusOr<Node*> n = g_.AddNode(def);
  ASSERT_TRUE(n.ok()) << n.status();
  Node* m = *n;
  EXPECT_EQ(m->id(), 2);
  EXPECT_EQ(m->name(), "m");
  EXPECT_EQ(m->type_string(), "Mul");
  EXPECT_EQ(m->op_def().name(), "Mul");
  EXPECT_EQ(m->num_inputs(), 2);
  EXPECT_EQ(m->num_outputs(), 1);
  EXPECT_EQ(m->input_type(1), DT_FLOAT);
  EXPECT_EQ(m->output_type(0), DT_FLOAT);
  EXPECT_THAT(m->input_types(), ElementsAre(DT_FLOAT, DT_FLOAT));
  EXPECT_THAT(m->output_types(), ElementsAre(DT_FLOAT));
  EXPECT_THAT(Inputs(m), ElementsAre("", ""));  // no edges yet
  EXPECT_EQ(m->requested_device(), "/device:CPU:0");
  EXPECT_FALSE(m->has_assigned_device_name());
  EXPECT_TRUE(m->IsOp());
  EXPECT_FALSE(m->IsStateful());
  EXPECT_EQ(g_.num_op_nodes(), 1);
  EXPECT_EQ(g_.FindNodeByName("m"), m);
  EXPECT_EQ(g_.FindNodeId(2), m);
  DataType t;
  EXPECT_TRUE(GetNodeAttr(m->attrs(), "T", &t).ok());
  EXPECT_EQ(t, DT_FLOAT);
}

TEST_F(GraphTest, AddNodeErrors) {
  Add("a", "Placeholder");
  absl::StatusOr<Node*> dup = g_.AddNode(MakeDef("a", "Placeholder"));
  EXPECT_EQ(dup.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(dup.status().message(), HasSubstr("Node 'a' is not unique"));

  absl::StatusOr<Node*> unknown = g_.AddNode(MakeDef("u", "NoSuchOp"));
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(unknown.status().message(), HasSubstr("Op type not registered 'NoSuchOp'"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("{{node u}}"));

  NodeDef no_type = MakeDef("i", "Identity");
  no_type.mutable_attr()->erase("T");
  absl::StatusOr<Node*> bad = g_.AddNode(no_type);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("{{node i}}"));
  EXPECT_EQ(g_.num_op_nodes(), 1);
  EXPECT_EQ(g_.FindNodeByName("u"), nullptr);
}

TEST_F(GraphTest, DefInputsFollowEdges) {
  Node* a = Add("a", "Placeholder");
  Node* b = Add("b", "Placeholder");
  Node* c = Add("c", "Mul");
  Node* z = Add("z", "NoOp");
  g_.AddEdge(b, 0, c, 1);
  EXPECT_THAT(Inputs(c), ElementsAre("", "b"));
  g_.AddEdge(a, 0, c, 0);
  g_.AddControlEdge(z, c);
  g_.AddControlEdge(b, c);
  EXPECT_THAT(Inputs(c), ElementsAre("a", "b", "^b", "^z"));
  // Edges with _SOURCE/_SINK are structural, not inputs.
  g_.AddControlEdge(g_.source_node(), c);
  g_.AddControlEdge(c, g_.sink_node());
  EXPECT_THAT(Inputs(c), ElementsAre("a", "b", "^b", "^z"));
  EXPECT_TRUE(g_.sink_node()->def().input().empty());

  const Edge* bc = nullptr;
  for (const Edge* e : c->in_edges()) {
    if (e->IsControlEdge() && e->src() == b) bc = e;
  }
  ASSERT_NE(bc, nullptr);
  g_.RemoveControlEdge(bc);
  EXPECT_THAT(Inputs(c), ElementsAre("a", "b", "^z"));

  const Edge* ac = nullptr;
  ASSERT_TRUE(c->input_edge(0, &ac).ok());
  g_.RemoveEdge(ac);
  EXPECT_THAT(Inputs(c), ElementsAre("", "b", "^z"));
  CheckEdgeBookkeeping();
}

TEST_F(GraphTest, OutputSlotsAreSpelled) {
  NodeDef split;
  split.set_name("s");
  split.set_op("Split");
  AddNodeAttr("T", DT_FLOAT, &split);
  AddNodeAttr("num_split", 2, &split);
  Node* s = *g_.AddNode(split);
  Node* c = Add("c", "Mul");
  g_.AddEdge(s, 1, c, 0);
  g_.AddEdge(s, 0, c, 1);
  EXPECT_THAT(Inputs(c), ElementsAre("s:1", "s"));
}

TEST_F(GraphTest, SetNameRewritesConsumersAndIndex) {
  Node* a = Add("a", "Placeholder");
  Node* c = Add("c", "Mul");
  Node* d = Add("d", "NoOp");
  Node* e = Add("e", "NoOp");
  g_.AddEdge(a, 0, c, 0);
  g_.AddEdge(a, 0, c, 1);
  g_.AddControlEdge(a, d);
  g_.AddControlEdge(e, d);
  a->set_name("zz");
  EXPECT_EQ(a->name(), "zz");
  EXPECT_EQ(g_.FindNodeByName("a"), nullptr);
  EXPECT_EQ(g_.FindNodeByName("zz"), a);
  EXPECT_THAT(Inputs(c), ElementsAre("zz", "zz"));
  EXPECT_THAT(Inputs(d), ElementsAre("^e", "^zz"));  // still sorted
  a->set_name("zz");                                 // no-op
  EXPECT_EQ(g_.FindNodeByName("zz"), a);
}

TEST_F(GraphTest, SetNameToTakenNameDies) {
  Add("a", "Placeholder");
  Node* b = Add("b", "Placeholder");
  EXPECT_DEATH(b->set_name("a"), "another node");
}

TEST_F(GraphTest, AddEdgeChecksSlots) {
  Node* a = Add("a", "Placeholder");
  Node* c = Add("c", "Mul");
  EXPECT_DEATH(g_.AddEdge(a, 1, c, 0), "no output 1");
  EXPECT_DEATH(g_.AddEdge(a, 0, c, 2), "no input 2");
  EXPECT_DEATH(g_.AddEdge(a, -1, c, 0), "mixes a control slot");
}

TEST_F(GraphTest, ControlEdgeDuplicates) {
  Node* a = Add("a", "NoOp");
  Node* b = Add("b", "NoOp");
  const Edge* first = g_.AddControlEdge(a, b);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(g_.AddControlEdge(a, b), nullptr);
  EXPECT_NE(g_.AddControlEdge(a, b, /*allow_duplicates=*/true), nullptr);
  EXPECT_EQ(b->in_edges().size(), 2u);
  EXPECT_THAT(Inputs(b), ElementsAre("^a", "^a"));
  g_.RemoveControlEdge(first);
  EXPECT_THAT(Inputs(b), ElementsAre("^a"));
  CheckEdgeBookkeeping();
}

TEST_F(GraphTest, RemoveNodeKeepsIdsAndBookkeeping) {
  Node* a = Add("a", "Placeholder");
  Node* b = Add("b", "Identity");
  Node* c = Add("c", "Mul");
  Node* d = Add("d", "NoOp");
  g_.AddEdge(a, 0, b, 0);
  g_.AddEdge(b, 0, c, 0);
  g_.AddEdge(a, 0, c, 1);
  g_.AddControlEdge(b, d);
  g_.AddControlEdge(g_.source_node(), a);
  const int b_id = b->id();
  const int edges_before = g_.num_edge_ids();
  g_.RemoveNode(b);
  EXPECT_EQ(g_.FindNodeId(b_id), nullptr);
  EXPECT_EQ(g_.FindNodeByName("b"), nullptr);
  EXPECT_EQ(g_.num_op_nodes(), 3);
  EXPECT_EQ(g_.num_node_ids(), 6);
  EXPECT_EQ(g_.num_edge_ids(), edges_before);
  EXPECT_EQ(g_.num_edges(), 3);  // source->sink, source->a, a->c:1
  EXPECT_THAT(Inputs(c), ElementsAre("", "a"));
  EXPECT_TRUE(Inputs(d).empty());
  CheckEdgeBookkeeping();
  // New ids continue after the largest one ever given.
  Node* e = Add("e", "NoOp");
  EXPECT_EQ(e->id(), 6);
  Node* b2 = Add("b", "NoOp");  // the name is free again
  EXPECT_EQ(g_.FindNodeByName("b"), b2);
  std::vector<int> ids;
  for (Node* n : g_.nodes()) ids.push_back(n->id());
  EXPECT_THAT(ids, ElementsAre(0, 1, 2, 4, 5, 6, 7));
  ids.clear();
  for (Node* n : g_.op_nodes()) ids.push_back(n->id());
  EXPECT_THAT(ids, ElementsAre(2, 4, 5, 6, 7));
}

// Every NodeDef of a graph is on its arena. One added from elsewhere is copied there, but
// its tensor's bytes move; once the node is removed, they are released, though the NodeDef
// itself stays until the arena goes.
TEST_F(GraphTest, NodeDefsLiveOnTheArenaAndTensorBytesMove) {
  NodeDef def = MakeDef("w", "Const");
  TensorProto* value = (*def.mutable_attr())["value"].mutable_tensor();
  value->set_dtype(DT_FLOAT);
  value->mutable_tensor_shape()->add_dim()->set_size(256);
  value->mutable_tensor_content()->assign(256 * sizeof(float), '\x01');
  const char* bytes = value->tensor_content().data();
  Node* w = g_.AddNode(std::move(def)).value();
  EXPECT_EQ(w->def().GetArena(), g_.arena());
  const TensorProto& kept = w->def().attr().at("value").tensor();
  EXPECT_EQ(kept.tensor_content().data(), bytes);
  EXPECT_EQ(kept.tensor_content().size(), 256 * sizeof(float));
  EXPECT_EQ(kept.tensor_shape().dim(0).size(), 256);
  // A copy of the node copies the bytes.
  Node* copy = g_.CopyNode(w);
  EXPECT_NE(copy->def().attr().at("value").tensor().tensor_content().data(), bytes);
  const NodeDef* removed = &w->def();
  g_.RemoveNode(w);
  EXPECT_EQ(removed->name(), "w");
  EXPECT_TRUE(removed->attr().at("value").tensor().tensor_content().empty());
  EXPECT_EQ(copy->def().attr().at("value").tensor().tensor_content().size(), 256 * sizeof(float));
}

TEST_F(GraphTest, ManyRemovalsKeepEdgeSetsConsistent) {
  Node* hub = Add("hub", "NoOp");
  std::vector<Node*> leaves;
  for (int i = 0; i < 20; ++i) {
    leaves.push_back(Add("n" + std::to_string(i), "NoOp"));
    g_.AddControlEdge(hub, leaves.back());
    g_.AddControlEdge(leaves.back(), hub, true);
  }
  for (int i = 0; i < 20; i += 3) g_.RemoveNode(leaves[i]);
  CheckEdgeBookkeeping();
  EXPECT_EQ(hub->out_edges().size(), 13u);
  EXPECT_EQ(hub->in_edges().size(), 13u);
  EXPECT_EQ(hub->def().input_size(), 13);
  EXPECT_TRUE(std::is_sorted(hub->def().input().begin(), hub->def().input().end()));
}

TEST_F(GraphTest, InputEdgeAccessors) {
  Node* a = Add("a", "Placeholder");
  Node* c = Add("c", "Mul");
  g_.AddEdge(a, 0, c, 1);
  const Edge* e = nullptr;
  absl::Status s = c->input_edge(2, &e);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Invalid input_edge index: 2, Node c only has 2 inputs."));
  s = c->input_edge(0, &e);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr("Could not find input edge 0 for c"));
  std::vector<const Edge*> edges;
  s = c->input_edges(&edges);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr("Missing edge input number: 0"));
  EXPECT_TRUE(edges.empty());
  g_.AddEdge(a, 0, c, 0);
  ASSERT_TRUE(c->input_edges(&edges).ok());
  ASSERT_EQ(edges.size(), 2u);
  EXPECT_EQ(edges[0]->dst_input(), 0);
  EXPECT_EQ(edges[1]->dst_input(), 1);
  const Node* in = nullptr;
  ASSERT_TRUE(c->input_node(1, &in).ok());
  EXPECT_EQ(in, a);
  EXPECT_EQ(c->input_node(-1, &in).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(GraphTest, UpdateEdge) {
  Node* a = Add("a", "Placeholder");
  Node* b = Add("b", "Placeholder");
  Node* c = Add("c", "Mul");
  g_.AddEdge(a, 0, c, 0);
  ASSERT_TRUE(g_.UpdateEdge(b, 0, c, 0).ok());
  EXPECT_THAT(Inputs(c), ElementsAre("b", ""));
  EXPECT_TRUE(a->out_edges().empty());
  absl::Status s = g_.UpdateEdge(b, 1, c, 0);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Node 'b' (type: 'Placeholder', num of outputs: 1) does "
                                     "not have output 1"));
  s = g_.UpdateEdge(b, 0, c, 5);
  EXPECT_THAT(s.message(), HasSubstr("does not have input 5"));
  s = g_.UpdateEdge(b, 0, c, 1);
  EXPECT_THAT(s.message(), HasSubstr("Couldn't find edge to {{node c}}"));
  CheckEdgeBookkeeping();
}

TEST_F(GraphTest, CopyNode) {
  Node* a = Add("a", "Placeholder");
  a->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  a->AddAttr("_extra", 7);
  Graph other(OpRegistry::Global());
  Node* copy = other.CopyNode(a);
  EXPECT_EQ(copy->name(), "a");
  EXPECT_EQ(copy->graph(), &other);
  EXPECT_EQ(copy->assigned_device_name(), a->assigned_device_name());
  EXPECT_TRUE(HasNodeAttr(copy->def(), "_extra"));
  EXPECT_THAT(copy->output_types(), ElementsAre(DT_FLOAT));
  Node* same_graph = g_.CopyNode(a);
  EXPECT_NE(same_graph->name(), "a");
  EXPECT_EQ(g_.FindNodeByName(same_graph->name()), same_graph);
  EXPECT_TRUE(same_graph->in_edges().empty());
}

TEST_F(GraphTest, NewNameIsUnique) {
  Add("x/_0", "NoOp");
  std::set<std::string> names;
  for (int i = 0; i < 5; ++i) {
    std::string name = g_.NewName("x");
    EXPECT_EQ(g_.FindNodeByName(name), nullptr);
    EXPECT_TRUE(names.insert(name).second);
    Add(name, "NoOp");
  }
  EXPECT_EQ(names.count("x/_0"), 0u);
  EXPECT_EQ(names.count("x/_1"), 1u);
}

TEST_F(GraphTest, AttrsAndDevices) {
  Node* a = Add("a", "Placeholder");
  a->AddAttr("_marker", std::string("hi"));
  std::string marker;
  EXPECT_TRUE(GetNodeAttr(a->attrs(), "_marker", &marker).ok());
  EXPECT_EQ(marker, "hi");
  a->ClearAttr("_marker");
  EXPECT_FALSE(HasNodeAttr(a->def(), "_marker"));
  a->set_requested_device("/device:CPU:0");
  EXPECT_EQ(a->requested_device(), "/device:CPU:0");
  a->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(a->has_assigned_device_name());
  EXPECT_THAT(a->DebugString(), HasSubstr("{name:'a' id:2 op:'Placeholder'"));
  EXPECT_THAT(a->DebugString(),
              HasSubstr("assigned:'/job:localhost/replica:0/task:0/device:CPU:0'"));
  EXPECT_EQ(g_.source_node()->DebugString(), "{name:'_SOURCE' id:0 source}");
  EXPECT_EQ(g_.sink_node()->DebugString(), "{name:'_SINK' id:1 sink}");
}

TEST_F(GraphTest, NodeClasses) {
  ASSERT_TRUE(GraphFromTextForTest(R"pb(
                                     node {
                                       name: "k"
                                       op: "Const"
                                       attr {
                                         key: "dtype"
                                         value { type: DT_BOOL }
                                       }
                                       attr {
                                         key: "value"
                                         value {
                                           tensor {
                                             dtype: DT_BOOL
                                             tensor_shape {}
                                             bool_val: true
                                           }
                                         }
                                       }
                                     }
                                     node {
                                       name: "p"
                                       op: "Placeholder"
                                       attr {
                                         key: "dtype"
                                         value { type: DT_FLOAT }
                                       }
                                     }
                                     node {
                                       name: "i"
                                       op: "Identity"
                                       input: "p"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                     }
                                     node { name: "n" op: "NoOp" }
                                     node {
                                       name: "sw"
                                       op: "Switch"
                                       input: "p"
                                       input: "k"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                     }
                                     node {
                                       name: "en"
                                       op: "Enter"
                                       input: "p"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                       attr {
                                         key: "frame_name"
                                         value { s: "f" }
                                       }
                                     }
                                     node {
                                       name: "mg"
                                       op: "Merge"
                                       input: "en"
                                       input: "ni"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                       attr {
                                         key: "N"
                                         value { i: 2 }
                                       }
                                     }
                                     node {
                                       name: "ni"
                                       op: "NextIteration"
                                       input: "mg"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                     }
                                     node {
                                       name: "ex"
                                       op: "Exit"
                                       input: "mg"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                     }
                                     node { name: "lc" op: "LoopCond" input: "k" }
                                     node { name: "ct" op: "ControlTrigger" }
                                     node {
                                       name: "snd"
                                       op: "_Send"
                                       input: "p"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                                       attr {
                                         key: "tensor_name"
                                         value { s: "t" }
                                       }
                                       attr {
                                         key: "send_device"
                                         value { s: "a" }
                                       }
                                       attr {
                                         key: "send_device_incarnation"
                                         value { i: 1 }
                                       }
                                       attr {
                                         key: "recv_device"
                                         value { s: "b" }
                                       }
                                     }
                                     node {
                                       name: "rcv"
                                       op: "_Recv"
                                       attr {
                                         key: "tensor_type"
                                         value { type: DT_FLOAT }
                                       }
                                       attr {
                                         key: "tensor_name"
                                         value { s: "t" }
                                       }
                                       attr {
                                         key: "send_device"
                                         value { s: "a" }
                                       }
                                       attr {
                                         key: "send_device_incarnation"
                                         value { i: 1 }
                                       }
                                       attr {
                                         key: "recv_device"
                                         value { s: "b" }
                                       }
                                     }
                                   )pb",
                                   &g_)
                  .ok());
  auto n = [this](const char* name) { return g_.FindNodeByName(name); };
  EXPECT_TRUE(n("k")->IsConstant());
  EXPECT_TRUE(n("p")->IsPlaceholder());
  EXPECT_TRUE(n("i")->IsIdentity());
  EXPECT_TRUE(n("n")->IsNoOp());
  EXPECT_TRUE(n("sw")->IsSwitch());
  EXPECT_TRUE(n("en")->IsEnter());
  EXPECT_TRUE(n("mg")->IsMerge());
  EXPECT_TRUE(n("ni")->IsNextIteration());
  EXPECT_TRUE(n("ex")->IsExit());
  EXPECT_TRUE(n("lc")->IsLoopCond());
  EXPECT_TRUE(n("ct")->IsControlTrigger());
  EXPECT_TRUE(n("snd")->IsSend());
  EXPECT_TRUE(n("rcv")->IsRecv());
  EXPECT_FALSE(n("rcv")->IsHostRecv());
  for (const char* cf : {"sw", "en", "mg", "ni", "ex"}) EXPECT_TRUE(n(cf)->IsControlFlow()) << cf;
  for (const char* other : {"k", "p", "i", "n", "lc", "ct", "snd"}) {
    EXPECT_FALSE(n(other)->IsControlFlow()) << other;
  }
  EXPECT_TRUE(n("rcv")->IsStateful());
  EXPECT_FALSE(n("i")->IsStateful());
  EXPECT_FALSE(n("i")->IsConstant());
}

TEST_F(GraphTest, ToGraphDefRegeneratesInputsAndDevices) {
  Node* a = Add("a", "Placeholder");
  Node* b = Add("b", "Placeholder");
  Node* c = Add("c", "Mul");
  Node* z = Add("z", "NoOp");
  Node* y = Add("y", "NoOp");
  g_.AddEdge(b, 0, c, 1);
  g_.AddEdge(a, 0, c, 0);
  g_.AddControlEdge(z, c);
  g_.AddControlEdge(y, c);
  g_.AddControlEdge(g_.source_node(), a);
  c->set_requested_device("/device:CPU:*");
  b->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  FunctionDefLibrary lib;
  lib.add_function()->mutable_signature()->set_name("MyFn");
  ASSERT_TRUE(g_.AddFunctionLibrary(lib).ok());
  GraphDef gd;
  g_.ToGraphDef(&gd);
  ASSERT_EQ(gd.node_size(), 5);
  std::vector<std::string> names;
  for (const NodeDef& n : gd.node()) names.push_back(n.name());
  EXPECT_THAT(names, ElementsAre("a", "b", "c", "z", "y"));
  EXPECT_THAT(gd.node(2).input(), ElementsAre("a", "b", "^y", "^z"));
  EXPECT_EQ(gd.node(2).device(), "/device:CPU:*");
  EXPECT_EQ(gd.node(1).device(), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(gd.node(0).input().empty());
  EXPECT_EQ(gd.versions().producer(), 2474);
  EXPECT_EQ(gd.library().function_size(), 1);
}

TEST_F(GraphTest, AddFunctionLibrary) {
  FunctionDefLibrary lib;
  FunctionDef* f = lib.add_function();
  f->mutable_signature()->set_name("F");
  GradientDef* grad = lib.add_gradient();
  grad->set_function_name("F");
  grad->set_gradient_func("G");
  ASSERT_TRUE(g_.AddFunctionLibrary(lib).ok());
  ASSERT_TRUE(g_.AddFunctionLibrary(lib).ok());  // identical: skipped
  EXPECT_EQ(g_.library().function_size(), 1);
  EXPECT_EQ(g_.library().gradient_size(), 1);

  FunctionDefLibrary different = lib;
  different.mutable_function(0)->mutable_signature()->set_description("changed");
  absl::Status s = g_.AddFunctionLibrary(different);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Cannot add function 'F' because a different function"));

  FunctionDefLibrary regrad;
  *regrad.add_gradient() = *grad;
  regrad.mutable_gradient(0)->set_gradient_func("H");
  s = g_.AddFunctionLibrary(regrad);
  EXPECT_THAT(s.message(), HasSubstr("Cannot assign gradient function 'H' to 'F' because it "
                                     "already has gradient function 'G'"));

  FunctionDefLibrary shadow;
  shadow.add_function()->mutable_signature()->set_name("MatMul");
  shadow.add_function()->mutable_signature()->set_name("New");
  s = g_.AddFunctionLibrary(shadow);
  EXPECT_THAT(s.message(), HasSubstr("Cannot add function 'MatMul' because an op with the same "
                                     "name already exists."));
  EXPECT_EQ(g_.library().function_size(), 1);  // failures change nothing
  EXPECT_TRUE(g_.IsFunction("F"));
  EXPECT_FALSE(g_.IsFunction("New"));
  EXPECT_FALSE(g_.IsFunction("MatMul"));
}

TEST_F(GraphTest, NodesMayCallTheLibrarysFunctions) {
  FunctionDefLibrary lib;
  OpDef* signature = lib.add_function()->mutable_signature();
  signature->set_name("twice");
  OpDef::ArgDef* x = signature->add_input_arg();
  x->set_name("x");
  x->set_type(DT_FLOAT);
  *signature->add_output_arg() = *x;
  signature->mutable_output_arg(0)->set_name("y");
  NodeDef call = MakeDef("c", "twice");
  EXPECT_EQ(g_.AddNode(call).status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(g_.AddFunctionLibrary(lib).ok());
  absl::StatusOr<Node*> c = g_.AddNode(call);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ((*c)->op_def().name(), "twice");
  EXPECT_EQ((*c)->num_inputs(), 1);
  EXPECT_EQ((*c)->output_type(0), DT_FLOAT);
  // A graph made over this one's registry resolves the call too, and its copy of the node
  // keeps an OpDef that lives as long as it does.
  Graph scratch(g_.op_registry());
  EXPECT_EQ(scratch.CopyNode(*c)->op_def().name(), "twice");
}

TEST_F(GraphTest, EdgeIterationIsInIdOrder) {
  Node* a = Add("a", "NoOp");
  Node* b = Add("b", "NoOp");
  const Edge* e1 = g_.AddControlEdge(a, b);
  const Edge* e2 = g_.AddControlEdge(b, a);
  g_.RemoveEdge(e1);
  std::vector<int> ids;
  for (const Edge* e : g_.edges()) ids.push_back(e->id());
  EXPECT_THAT(ids, ElementsAre(0, e2->id()));
  EXPECT_EQ(g_.FindEdgeId(1), nullptr);
  EXPECT_EQ(g_.FindEdgeId(-1), nullptr);
  EXPECT_EQ(g_.FindEdgeId(100), nullptr);
  EXPECT_EQ(g_.FindNodeId(-1), nullptr);
  EXPECT_EQ(g_.FindNodeId(100), nullptr);
}

}  // namespace
}  // namespace sluice
