// Imports the GraphDefs gen_import_fixtures.py made with TensorFlow 2.21 and checks that
// each is either imported whole (every node and every edge of the GraphDef in the Graph,
// and what the features need preserved) or rejected with a clear error.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/op_registry.h"
#include "graph/shape_refiner.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

constexpr char kDir[] = "tests/import/";

GraphDef Load(const std::string& name, const std::string& extension = ".pb") {
  GraphDef graph_def;
  const absl::Status s = ReadGraphDefFile(kDir + name + extension, &graph_def);
  EXPECT_TRUE(s.ok()) << s;
  return graph_def;
}

// Data and control inputs of all nodes: the edges the Graph must hold between op nodes.
int GraphDefEdges(const GraphDef& graph_def) {
  int edges = 0;
  for (const NodeDef& node : graph_def.node()) edges += node.input_size();
  return edges;
}

int OpEdges(const Graph& g) {
  int edges = 0;
  for (const Edge* e : g.edges()) {
    if (e->src()->IsOp() && e->dst()->IsOp()) ++edges;
  }
  return edges;
}

// Converts `name` into a fresh graph, expecting success and a node and edge per GraphDef
// node and input.
void ExpectImportsWhole(const std::string& name, Graph* g) {
  const GraphDef graph_def = Load(name);
  const absl::Status s = ConvertGraphDefToGraph(GraphConstructorOptions(), graph_def, g);
  ASSERT_TRUE(s.ok()) << name << ": " << s;
  EXPECT_EQ(g->num_op_nodes(), graph_def.node_size()) << name;
  EXPECT_EQ(OpEdges(*g), GraphDefEdges(graph_def)) << name;
  for (const NodeDef& node : graph_def.node()) {
    EXPECT_NE(g->FindNodeByName(node.name()), nullptr) << name << ": " << node.name();
  }
}

std::string ShapeOf(const ShapeRefiner& refiner, const Graph& g, const std::string& node,
                    int port = 0) {
  PartialTensorShape shape;
  const absl::Status s = refiner.GetOutputShape(g.FindNodeByName(node), port, &shape);
  return s.ok() ? shape.DebugString() : s.ToString();
}

TEST(ImportFixturesTest, TextAndBinaryFormsAgree) {
  for (const char* name : {"function_call", "while_v1", "while_v2", "colocation", "devices"}) {
    std::string binary;
    std::string text;
    ASSERT_TRUE(SerializeDeterministic(Load(name, ".pb"), &binary).ok());
    ASSERT_TRUE(SerializeDeterministic(Load(name, ".pbtxt"), &text).ok());
    EXPECT_EQ(binary, text) << name;
  }
}

TEST(ImportTest, FunctionCallsAndTheirLibrary) {
  Graph g(OpRegistry::Global());
  ExpectImportsWhole("function_call", &g);
  ASSERT_EQ(g.library().function_size(), 2);
  for (const char* call : {"PartitionedCall", "StatefulPartitionedCall"}) {
    const Node* node = g.FindNodeByName(call);
    ASSERT_NE(node, nullptr) << call;
    EXPECT_EQ(node->type_string(), call);
    const AttrValue* f = node->attrs().Find("f");
    ASSERT_NE(f, nullptr) << call;
    bool in_library = false;
    for (const FunctionDef& fn : g.library().function()) {
      in_library |= fn.signature().name() == f->func().name();
    }
    EXPECT_TRUE(in_library) << call << " calls " << f->func().name();
  }
}

TEST(ImportTest, FunctionCallShapes) {
  Graph g(OpRegistry::Global());
  ShapeRefiner refiner(g.op_registry());
  ASSERT_TRUE(ImportGraphDef(ImportGraphDefOptions(), Load("function_call"), &g, &refiner).ok());
  EXPECT_EQ(ShapeOf(refiner, g, "x"), "[2,3]");
  // As TensorFlow, which infers the function body for the call's input shapes.
  EXPECT_EQ(ShapeOf(refiner, g, "scaled"), "[2,3]");
}

TEST(ImportTest, WhileLoopV1) {
  Graph g(OpRegistry::Global());
  ExpectImportsWhole("while_v1", &g);
  // Each Merge is fed by its Enter and, through the back edge, its NextIteration.
  for (const char* merge : {"loop/Merge", "loop/Merge_1"}) {
    const Node* node = g.FindNodeByName(merge);
    ASSERT_NE(node, nullptr) << merge;
    ASSERT_TRUE(node->IsMerge());
    const Edge* back = nullptr;
    ASSERT_TRUE(node->input_edge(1, &back).ok()) << merge;
    EXPECT_TRUE(back->src()->IsNextIteration()) << merge;
  }
}

TEST(ImportTest, WhileLoopV1ShapesMatchTensorFlow) {
  Graph g(OpRegistry::Global());
  ShapeRefiner refiner(g.op_registry());
  ASSERT_TRUE(ImportGraphDef(ImportGraphDefOptions(), Load("while_v1"), &g, &refiner).ok());
  // TensorFlow 2.21's import_graph_def infers the same.
  EXPECT_EQ(ShapeOf(refiner, g, "x"), "[2,3]");
  EXPECT_EQ(ShapeOf(refiner, g, "loop/Enter_1"), "<unknown>");
  EXPECT_EQ(ShapeOf(refiner, g, "loop/Merge_1"), "<unknown>");
  EXPECT_EQ(ShapeOf(refiner, g, "loop/Merge_1", 1), "[]");
  EXPECT_EQ(ShapeOf(refiner, g, "loop/LoopCond"), "[]");
  EXPECT_EQ(ShapeOf(refiner, g, "loop/Less/y"), "[]");
  EXPECT_EQ(ShapeOf(refiner, g, "result"), "<unknown>");
}

// A TF2 loop imports with its cond and body functions in the graph's library (a session
// lowers it before running, passes/lower_functional_ops.h).
TEST(ImportTest, WhileLoopV2ImportsWithItsFunctions) {
  Graph g(OpRegistry::Global());
  const absl::Status s = ConvertGraphDefToGraph(GraphConstructorOptions(), Load("while_v2"), &g);
  ASSERT_TRUE(s.ok()) << s;
  int loops = 0;
  for (const Node* n : g.op_nodes()) {
    loops += n->type_string() == "While" || n->type_string() == "StatelessWhile";
  }
  EXPECT_EQ(loops, 1);
  EXPECT_EQ(g.library().function_size(), 2);
}

TEST(ImportTest, ColocationAttrsArePreserved) {
  Graph g(OpRegistry::Global());
  ExpectImportsWhole("colocation", &g);
  for (const char* name : {"c", "d/y", "d"}) {
    const Node* node = g.FindNodeByName(name);
    ASSERT_NE(node, nullptr) << name;
    const AttrValue* group = node->attrs().Find("_class");
    ASSERT_NE(group, nullptr) << name;
    ASSERT_EQ(group->list().s_size(), 1) << name;
    EXPECT_EQ(group->list().s(0), "loc:@a") << name;
  }
  EXPECT_EQ(g.FindNodeByName("e")->attrs().Find("_class"), nullptr);
}

TEST(ImportTest, ColocationWithAnUnknownNodeIsRejected) {
  GraphDef graph_def = Load("colocation");
  for (NodeDef& node : *graph_def.mutable_node()) {
    if (node.name() == "c") {
      (*node.mutable_attr())["_class"].mutable_list()->set_s(0, "loc:@missing");
    }
  }
  Graph g(OpRegistry::Global());
  const absl::Status s = ImportGraphDef(ImportGraphDefOptions(), graph_def, &g, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("Node 'c' expects to be colocated with unknown node 'missing'"),
            std::string::npos)
      << s;
  EXPECT_EQ(g.num_op_nodes(), 0);
}

TEST(ImportTest, DeviceStringsArePreserved) {
  Graph g(OpRegistry::Global());
  ExpectImportsWhole("devices", &g);
  EXPECT_EQ(g.FindNodeByName("a")->requested_device(), "/device:CPU:0");
  EXPECT_EQ(g.FindNodeByName("b")->requested_device(),
            "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(g.FindNodeByName("c")->requested_device(), "/device:GPU:0");
  EXPECT_EQ(g.FindNodeByName("d")->requested_device(), "");
  // Nothing is placed by import.
  EXPECT_FALSE(g.FindNodeByName("b")->has_assigned_device_name());
}

}  // namespace
}  // namespace sluice
