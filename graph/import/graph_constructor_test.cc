// ConvertGraphDefToGraph, CopyGraph and GraphFromTextForTest; ImportGraphDef's own options
// are in graph_constructor_import_test.cc.
#include "graph/import/graph_constructor.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/graph.h"
#include "graph/import/graph_def_io.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/graph_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// Text NodeDefs used throughout.
std::string Ph(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  return "node { name: '" + name +
         "' op: 'Placeholder' attr { key: 'dtype' value { type: " + dtype + " } } }\n";
}
std::string Unary(const std::string& name, const std::string& op, const std::string& inputs,
                  const std::string& dtype = "DT_FLOAT") {
  return "node { name: '" + name + "' op: '" + op + "' " + inputs +
         " attr { key: 'T' value { type: " + dtype + " } } }\n";
}

class ConvertTest : public ::testing::Test {
 protected:
  absl::Status Convert(const std::string& text) {
    GraphDef gd;
    absl::Status s = ParseTextProto(text, &gd);
    if (!s.ok()) return s;
    return ConvertGraphDefToGraph(opts_, gd, &g_);
  }
  void ExpectError(const std::string& text, absl::StatusCode code, const std::string& message) {
    absl::Status s = Convert(text);
    EXPECT_EQ(s.code(), code) << s;
    EXPECT_THAT(s.message(), HasSubstr(message));
    // A failed conversion leaves the graph as it was.
    EXPECT_EQ(g_.num_op_nodes(), 0);
    EXPECT_EQ(g_.num_edges(), 1);
  }

  GraphConstructorOptions opts_;
  Graph g_{OpRegistry::Global()};
};

TEST_F(ConvertTest, BuildsNodesEdgesAndSourceSinkEdges) {
  ASSERT_TRUE(Convert(Ph("a") + Ph("b") +
                      Unary("c", "Mul", "input: 'a' input: 'b:0' input: '^a' input: '^a'"))
                  .ok());
  EXPECT_EQ(CanonicalGraphString(g_), "a(Placeholder);b(Placeholder);c(Mul)|^a->c;a->c;b->c:1");
  Node* c = g_.FindNodeByName("c");
  EXPECT_THAT(c->def().input(), ElementsAre("a", "b", "^a"));  // duplicates collapse
  // a and b hang off _SOURCE, c feeds _SINK.
  EXPECT_EQ(g_.FindNodeByName("a")->in_edges().size(), 1u);
  EXPECT_EQ(c->out_edges().size(), 1u);
  EXPECT_EQ((*c->out_edges().begin())->dst(), g_.sink_node());
  // Default attrs are added: Placeholder's shape.
  EXPECT_TRUE(HasNodeAttr(g_.FindNodeByName("a")->def(), "shape"));
}

TEST_F(ConvertTest, NodesMayComeBeforeTheirInputs) {
  ASSERT_TRUE(
      Convert(Unary("c", "Identity", "input: 'b'") + Unary("b", "Identity", "input: 'a'") + Ph("a"))
          .ok());
  EXPECT_EQ(CanonicalGraphString(g_), "a(Placeholder);b(Identity);c(Identity)|a->b;b->c");
  // Ids follow the conversion (topological) order.
  EXPECT_EQ(g_.FindNodeByName("a")->id(), 2);
  EXPECT_EQ(g_.FindNodeByName("c")->id(), 4);
}

TEST_F(ConvertTest, MovedGraphDef) {
  GraphDef gd;
  ASSERT_TRUE(ParseTextProto(Ph("a") + Unary("b", "Identity", "input: 'a'"), &gd).ok());
  ASSERT_TRUE(ConvertGraphDefToGraph(opts_, std::move(gd), &g_).ok());
  EXPECT_EQ(CanonicalGraphString(g_), "a(Placeholder);b(Identity)|a->b");
}

// A GraphDef on the graph's own arena gives the graph its NodeDefs: no copy is made, and the
// GraphDef is left without nodes, so that nothing but the graph refers to them.
TEST_F(ConvertTest, GraphDefOnTheGraphsArenaGivesUpItsNodeDefs) {
  auto* gd = google::protobuf::Arena::CreateMessage<GraphDef>(g_.arena());
  ASSERT_TRUE(ParseTextProto(Ph("a") + Unary("b", "Identity", "input: 'a'"), gd).ok());
  const NodeDef* a = &gd->node(0);
  const NodeDef* b = &gd->node(1);
  ASSERT_TRUE(ConvertGraphDefToGraph(opts_, std::move(*gd), &g_).ok());
  EXPECT_EQ(gd->node_size(), 0);
  EXPECT_EQ(&g_.FindNodeByName("a")->def(), a);
  EXPECT_EQ(&g_.FindNodeByName("b")->def(), b);
  EXPECT_EQ(g_.FindNodeByName("b")->def().GetArena(), g_.arena());
  EXPECT_EQ(CanonicalGraphString(g_), "a(Placeholder);b(Identity)|a->b");
  // Defaults were added to the very NodeDef.
  EXPECT_TRUE(HasNodeAttr(*a, "shape"));
}

// The same when the import fails: the GraphDef still gives up the NodeDefs it lent, and the
// graph is left as it was.
TEST_F(ConvertTest, FailedImportFromTheGraphsArena) {
  auto* gd = google::protobuf::Arena::CreateMessage<GraphDef>(g_.arena());
  ASSERT_TRUE(ParseTextProto(Ph("a") + Unary("b", "Identity", "input: 'a:3'"), gd).ok());
  EXPECT_EQ(ConvertGraphDefToGraph(opts_, std::move(*gd), &g_).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(gd->node_size(), 0);
  EXPECT_EQ(g_.num_op_nodes(), 0);
  EXPECT_EQ(g_.num_edges(), 1);
}

TEST_F(ConvertTest, TakesVersionsAndLibrary) {
  ASSERT_TRUE(Convert(Ph("a") + "versions { producer: 27 min_consumer: 12 } "
                                "library { function { signature { name: 'F' } } }")
                  .ok());
  EXPECT_EQ(g_.versions().producer(), 27);
  EXPECT_EQ(g_.versions().min_consumer(), 12);
  EXPECT_EQ(g_.library().function_size(), 1);
}

TEST_F(ConvertTest, DuplicateNode) {
  ExpectError(Ph("a") + Ph("a"), absl::StatusCode::kInvalidArgument, "Node 'a' is not unique");
}

TEST_F(ConvertTest, UnknownInputNode) {
  ExpectError(Unary("y", "Identity", "input: 'x'"), absl::StatusCode::kInvalidArgument,
              "Node 'y': Unknown input node 'x'");
  ExpectError(Ph("x") + Unary("y", "Identity", "input: 'x:a'"), absl::StatusCode::kInvalidArgument,
              "Node 'y': Unknown input node 'x:a'");
  ExpectError(Ph("x") + Unary("y", "Identity", "input: ''"), absl::StatusCode::kInvalidArgument,
              "Node 'y': Unknown input node ''");
  ExpectError(Ph("x") + "node { name: 'y' op: 'NoOp' input: '^x:1' }",
              absl::StatusCode::kInvalidArgument, "Node 'y': Unknown input node '^x:1'");
}

TEST_F(ConvertTest, InvalidOutput) {
  ExpectError(Ph("x") + Unary("y", "Identity", "input: 'x:3'"), absl::StatusCode::kInvalidArgument,
              "Node 'y': Connecting to invalid output 3 of source node x which has 1 outputs.");
}

TEST_F(ConvertTest, TypeMismatch) {
  ExpectError(Ph("x") + Unary("y", "Identity", "input: 'x'", "DT_INT32"),
              absl::StatusCode::kInvalidArgument,
              "Input 0 of node y was passed float from x:0 incompatible with expected int32.");
}

TEST_F(ConvertTest, Cycle) {
  ExpectError(Ph("p") + Unary("a", "Identity", "input: 'b'") +
                  Unary("b", "Identity", "input: 'a'") + Unary("c", "Identity", "input: 'b'"),
              absl::StatusCode::kInvalidArgument, "3 nodes in a cycle");
  absl::Status s =
      Convert(Unary("a", "Identity", "input: 'b'") + Unary("b", "Identity", "input: 'a'"));
  EXPECT_THAT(s.message(), HasSubstr("'a', 'b'"));
  ExpectError("node { name: 'n' op: 'NoOp' input: '^n' }", absl::StatusCode::kInvalidArgument,
              "1 nodes in a cycle");
}

TEST_F(ConvertTest, UnknownOpSuggestsCloseNames) {
  ExpectError("node { name: 'a' op: 'Idenity' }", absl::StatusCode::kNotFound,
              "Op type not registered 'Idenity'");
  absl::Status s = Convert("node { name: 'a' op: 'Idenity' }");
  EXPECT_THAT(s.message(), HasSubstr("Did you mean one of 'Identity', 'IdentityN'?"));
  EXPECT_THAT(s.message(), HasSubstr("{{node a}}"));
  s = Convert("node { name: 'a' op: 'MatMull' }");
  EXPECT_THAT(s.message(), HasSubstr("Did you mean 'MatMul'?"));
  s = Convert("node { name: 'a' op: 'Zzqxv' }");
  EXPECT_THAT(s.message(), Not(HasSubstr("Did you mean")));
}

TEST_F(ConvertTest, NodeNames) {
  ExpectError(Ph("y!"), absl::StatusCode::kInvalidArgument,
              "Node 'y!': Node name contains invalid characters");
  ExpectError(Ph("a>"), absl::StatusCode::kInvalidArgument, "Node name contains invalid");
  ExpectError(Ph(""), absl::StatusCode::kInvalidArgument, "Node name contains invalid");
  opts_.allow_internal_ops = false;
  ExpectError(Ph("_x"), absl::StatusCode::kInvalidArgument,
              "Node '_x': Node name contains invalid characters");
  opts_.allow_internal_ops = true;
  ASSERT_TRUE(Convert(Ph("_x") + Ph("a/b.c-d_e>f")).ok());
  EXPECT_NE(g_.FindNodeByName("a/b.c-d_e>f"), nullptr);
}

TEST_F(ConvertTest, NodeDefShape) {
  ExpectError("node { name: 'a' op: '' }", absl::StatusCode::kInvalidArgument,
              "Node 'a' does not specify an operation");
  ExpectError(Ph("x") + Unary("y", "Identity", "input: '^x' input: 'x'"),
              absl::StatusCode::kInvalidArgument,
              "Node 'y': Control dependencies must come after regular dependencies");
  ExpectError(Ph("x") + Unary("y", "Identity", "input: 'x' input: 'x'"),
              absl::StatusCode::kInvalidArgument,
              "NodeDef expected inputs 'float' do not match 2 inputs specified");
  ExpectError(Ph("x") + "node { name: 'y' op: 'Identity' input: 'x' }",
              absl::StatusCode::kInvalidArgument, "NodeDef missing attr 'T' from Op<name=Identity");
}

TEST_F(ConvertTest, UnknownAttrsAreDropped) {
  ASSERT_TRUE(Convert(Ph("x") + "node { name: 'y' op: 'Identity' input: 'x' "
                                "attr { key: 'T' value { type: DT_FLOAT } } "
                                "attr { key: 'from_the_future' value { i: 1 } } "
                                "attr { key: '_internal' value { i: 2 } } }")
                  .ok());
  const NodeDef& y = g_.FindNodeByName("y")->def();
  EXPECT_FALSE(HasNodeAttr(y, "from_the_future"));
  EXPECT_TRUE(HasNodeAttr(y, "_internal"));
}

TEST_F(ConvertTest, WithoutDefaultsOrValidation) {
  opts_.add_default_attributes = false;
  ASSERT_TRUE(Convert(Ph("a")).ok());
  EXPECT_FALSE(HasNodeAttr(g_.FindNodeByName("a")->def(), "shape"));
  // Without validation, attrs the OpDef does not know are kept.
  opts_.validate_nodes = false;
  ASSERT_TRUE(
      Convert(Ph("p") + Unary("b", "Identity", "input: 'p' attr { key: 'odd' value { i: 1 } }"))
          .ok());
  EXPECT_TRUE(HasNodeAttr(g_.FindNodeByName("b")->def(), "odd"));
}

TEST_F(ConvertTest, Versions) {
  ExpectError(Ph("a") + "versions { producer: -1 }", absl::StatusCode::kInvalidArgument,
              "GraphDef producer version -1 below min producer 0");
  ExpectError(Ph("a") + "versions { producer: 10 min_consumer: 5000 }",
              absl::StatusCode::kInvalidArgument,
              "GraphDef min consumer version 5000 above current version 2474");
  ExpectError(Ph("a") + "versions { producer: 10 bad_consumers: 2474 }",
              absl::StatusCode::kInvalidArgument, "GraphDef disallows consumer version 2474");
}

TEST_F(ConvertTest, DeprecatedOp) {
  OpRegistry registry;
  ASSERT_TRUE(registry.Register(OpDefBuilder("Old").Deprecated(5, "Use New")).ok());
  Graph g(&registry);
  GraphDef gd;
  ASSERT_TRUE(ParseTextProto("node { name: 'o' op: 'Old' } versions { producer: 5 }", &gd).ok());
  absl::Status s = ConvertGraphDefToGraph(opts_, gd, &g);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(s.message(), HasSubstr("Op Old is not available in GraphDef version 5. It has "
                                     "been removed in version 5. Use New."));
  gd.mutable_versions()->set_producer(4);
  EXPECT_TRUE(ConvertGraphDefToGraph(opts_, gd, &g).ok());
}

TEST_F(ConvertTest, ExpectDeviceSpec) {
  opts_.expect_device_spec = true;
  ExpectError(Ph("a"), absl::StatusCode::kInvalidArgument,
              "Node 'a' is missing a device specification");
  ASSERT_TRUE(Convert("node { name: 'a' op: 'NoOp' device: '/job:localhost/replica:0/task:0/"
                      "device:CPU:0' }")
                  .ok());
  EXPECT_EQ(g_.FindNodeByName("a")->assigned_device_name(),
            "/job:localhost/replica:0/task:0/device:CPU:0");
}

TEST_F(ConvertTest, ShapeValidationIsOptional) {
  const std::string text =
      "node { name: 'x' op: 'Const' attr { key: 'dtype' value { type: "
      "DT_FLOAT } } attr { key: 'value' value { tensor { dtype: DT_FLOAT "
      "tensor_shape {} float_val: 1 } } } }" +
      Unary("y", "MatMul", "input: 'x' input: 'x'");
  ASSERT_TRUE(Convert(text).ok());  // TensorFlow's ConvertGraphDefToGraph skips shape functions
  Graph g(OpRegistry::Global());
  opts_.validate_shape = true;
  GraphDef gd;
  ASSERT_TRUE(ParseTextProto(text, &gd).ok());
  absl::Status s = ConvertGraphDefToGraph(opts_, gd, &g);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Shape must be rank 2 but is rank 0 for '{{node y}} = "
                                     "MatMul"));
  EXPECT_THAT(s.message(), HasSubstr("with input shapes: [], []"));
  EXPECT_EQ(g.num_op_nodes(), 0);
}

// A while loop: i = 0; while (i < 10) i = i + 1.
constexpr char kWhileLoop[] = R"pb(
  node {
    name: "zero"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT32
          tensor_shape {}
          int_val: 0
        }
      }
    }
  }
  node {
    name: "enter"
    op: "Enter"
    input: "zero"
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
    input: "^merge"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
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
    name: "one"
    op: "Const"
    input: "^switch:1"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT32
          tensor_shape {}
          int_val: 1
        }
      }
    }
  }
  node {
    name: "add"
    op: "Add"
    input: "switch:1"
    input: "one"
    attr {
      key: "T"
      value { type: DT_INT32 }
    }
  }
  node {
    name: "next"
    op: "NextIteration"
    input: "add"
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
)pb";

TEST_F(ConvertTest, WhileLoop) {
  opts_.validate_shape = true;
  absl::Status s = Convert(kWhileLoop);
  // "^switch:1" is not a valid control input.
  EXPECT_THAT(s.message(), HasSubstr("Unknown input node '^switch:1'"));
  std::string fixed = kWhileLoop;
  fixed.replace(fixed.find("^switch:1"), 9, "^switch");
  ASSERT_TRUE(Convert(fixed).ok()) << Convert(fixed);
  EXPECT_EQ(CanonicalGraphString(g_),
            "add(Add);cond(LoopCond);enter(Enter);exit(Exit);less(Less);limit(Const);"
            "merge(Merge);next(NextIteration);one(Const);switch(Switch);zero(Const)|"
            "^merge->limit;^switch->one;add->next;cond->switch:1;enter->merge;less->cond;"
            "limit->less:1;merge->less;merge->switch;next->merge:1;one->add:1;switch->exit;"
            "switch:1->add;zero->enter");
  EXPECT_THAT(g_.FindNodeByName("merge")->def().input(), ElementsAre("enter", "next"));
}

TEST_F(ConvertTest, LoopWithoutMergeIsACycle) {
  ExpectError(Ph("p") +
                  "node { name: 'm' op: 'Merge' input: 'p' input: 'n' "
                  "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'N' value { i: 2 } } }"
                  "node { name: 'n' op: 'NextIteration' input: 'i' "
                  "attr { key: 'T' value { type: DT_FLOAT } } }" +
                  Unary("i", "Identity", "input: 'n'"),
              absl::StatusCode::kInvalidArgument, "nodes in a cycle");
}

TEST_F(ConvertTest, BackEdgesAreChecked) {
  const std::string merge =
      Ph("p") +
      "node { name: 'm' op: 'Merge' input: 'p' input: 'n:BACK' "
      "attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'N' value { i: 2 } } }" +
      Unary("i", "Identity", "input: 'm'") + Unary("n", "NextIteration", "input: 'i'");
  auto with = [&merge](const std::string& back) {
    std::string text = merge;
    return text.replace(text.find("n:BACK"), 6, back);
  };
  ASSERT_TRUE(Convert(with("n")).ok());
  EXPECT_EQ(CanonicalGraphString(g_),
            "i(Identity);m(Merge);n(NextIteration);p(Placeholder)|i->n;m->i;n->m:1;p->m");
  Graph g(OpRegistry::Global());
  GraphDef gd;
  ASSERT_TRUE(ParseTextProto(with("n:2"), &gd).ok());
  absl::Status s = ConvertGraphDefToGraph(opts_, gd, &g);
  EXPECT_THAT(s.message(),
              HasSubstr("Output 2 of node n does not exist. Node only has 1 outputs."));
  EXPECT_EQ(g.num_op_nodes(), 0);
}

TEST_F(ConvertTest, UnvalidatedExtraInputs) {
  opts_.validate_nodes = false;
  ExpectError(Ph("x") + Unary("y", "Identity", "input: 'x' input: 'x'"),
              absl::StatusCode::kInvalidArgument,
              "Input 1 of node y does not exist. Node only has 1 inputs.");
}

TEST_F(ConvertTest, FailureUndoesEverything) {
  ASSERT_TRUE(Convert(Ph("keep")).ok());
  const VersionDef versions = g_.versions();
  GraphDef gd;
  ASSERT_TRUE(ParseTextProto(Ph("a") + Unary("b", "Identity", "input: 'a'") +
                                 Unary("c", "Identity", "input: 'b'", "DT_INT32") +
                                 "versions { producer: 3 }",
                             &gd)
                  .ok());
  absl::Status s = ConvertGraphDefToGraph(opts_, gd, &g_);
  EXPECT_THAT(s.message(), HasSubstr("Input 0 of node c was passed float"));
  EXPECT_EQ(CanonicalGraphString(g_), "keep(Placeholder)|");
  EXPECT_EQ(g_.versions().producer(), versions.producer());
}

// A library with "square_it" (x: T) -> (y: T), T in {float, int32}, y = x * x.
const char kSquareLibrary[] = R"pb(
  library {
    function {
      signature {
        name: "square_it"
        input_arg { name: "x" type_attr: "T" }
        output_arg { name: "y" type_attr: "T" }
        attr { name: "T" type: "type" }
      }
      node_def {
        name: "m"
        op: "Mul"
        input: "x"
        input: "x"
        attr {
          key: "T"
          value { placeholder: "T" }
        }
      }
      ret { key: "y" value: "m:z:0" }
    }
  })pb";

TEST_F(ConvertTest, NodeCallingALibraryFunctionHasItsSignature) {
  opts_.validate_shape = true;
  ASSERT_TRUE(Convert(Ph("a", "DT_INT32") +
                      Unary("c", "square_it", "input: 'a' input: '^a'", "DT_INT32") +
                      Unary("d", "Identity", "input: 'c'", "DT_INT32") + kSquareLibrary)
                  .ok());
  const Node* c = g_.FindNodeByName("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->op_def().name(), "square_it");
  EXPECT_EQ(c->num_inputs(), 1);
  ASSERT_EQ(c->num_outputs(), 1);
  EXPECT_EQ(c->output_type(0), DT_INT32);
  EXPECT_TRUE(g_.IsFunction("square_it"));
  EXPECT_FALSE(g_.IsFunction("Mul"));
  EXPECT_EQ(CanonicalGraphString(g_), "a(Placeholder);c(square_it);d(Identity)|^a->c;a->c;c->d");
  // Graph::AddNode resolves it too.
  NodeDef e;
  e.set_name("e");
  e.set_op("square_it");
  AddNodeAttr("T", DT_FLOAT, &e);
  ASSERT_TRUE(g_.AddNode(e).ok());
}

TEST_F(ConvertTest, BadCallsOfLibraryFunctions) {
  // Too many inputs for the signature.
  ExpectError(Ph("a") + Unary("c", "square_it", "input: 'a' input: 'a'") + kSquareLibrary,
              absl::StatusCode::kInvalidArgument, "{{node c}}");
  // An input of the wrong type.
  ExpectError(Ph("a") + Unary("c", "square_it", "input: 'a'", "DT_INT32") + kSquareLibrary,
              absl::StatusCode::kInvalidArgument, "Input 0 of node c was passed float");
  // The function's type attr not set.
  ExpectError(Ph("a") + "node { name: 'c' op: 'square_it' input: 'a' }" + kSquareLibrary,
              absl::StatusCode::kInvalidArgument, "{{node c}}");
  // A function named like a registered op.
  ExpectError(Ph("a") + "library { function { signature { name: 'Identity' } } }",
              absl::StatusCode::kInvalidArgument, "Cannot add function 'Identity'");
  // Each failure took the library it added away again.
  EXPECT_EQ(g_.library().function_size(), 0);
  EXPECT_FALSE(g_.IsFunction("square_it"));
  const OpDef* op_def = nullptr;
  EXPECT_EQ(g_.op_registry()->LookUpOpDef("square_it", &op_def).code(),
            absl::StatusCode::kNotFound);
}

TEST_F(ConvertTest, FailureKeepsTheLibraryTheGraphHad) {
  ASSERT_TRUE(Convert(Ph("keep", "DT_INT32") +
                      Unary("sq", "square_it", "input: 'keep'", "DT_INT32") + kSquareLibrary)
                  .ok());
  absl::Status s = Convert(Ph("a") + Unary("b", "Cube", "input: 'a'", "DT_INT32") +
                           "library { function { signature { name: 'Cube' "
                           "input_arg { name: 'x' type_attr: 'T' } "
                           "output_arg { name: 'y' type_attr: 'T' } "
                           "attr { name: 'T' type: 'type' } } } }");
  EXPECT_THAT(s.message(), HasSubstr("Input 0 of node b was passed float"));
  EXPECT_EQ(CanonicalGraphString(g_), "keep(Placeholder);sq(square_it)|keep->sq");
  ASSERT_EQ(g_.library().function_size(), 1);
  EXPECT_TRUE(g_.IsFunction("square_it"));
  EXPECT_FALSE(g_.IsFunction("Cube"));
}

TEST_F(ConvertTest, GraphFromTextForTestReportsParseErrors) {
  Graph g(OpRegistry::Global());
  absl::Status s = GraphFromTextForTest("node { name: ", &g);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  // Internal ops are allowed by default in tests.
  EXPECT_TRUE(GraphFromTextForTest(Ph("_a"), &g).ok());
}

TEST(CanonicalGraphStringTest, ShowsSlotsAndDevices) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(
      GraphFromTextForTest(Ph("x") +
                               "node { name: 'd' op: 'Const' attr { key: 'dtype' value { type: "
                               "DT_INT32 } } attr { key: 'value' value { tensor { dtype: DT_INT32 "
                               "tensor_shape {} int_val: 0 } } } }"
                               "node { name: 's' op: 'Split' input: 'd' input: 'x' "
                               "attr { key: 'T' value { type: DT_FLOAT } } "
                               "attr { key: 'num_split' value { i: 2 } } }" +
                               Unary("m", "Mul", "input: 's:1' input: 's' input: '^x'"),
                           &g)
          .ok());
  g.FindNodeByName("m")->set_assigned_device_name("/device:CPU:0");
  EXPECT_EQ(CanonicalGraphString(g),
            "d(Const);m(Mul)@/device:CPU:0;s(Split);x(Placeholder)|"
            "^x->m;d->s;s->m:1;s:1->m;x->s:1");
}

// Reads a fixture and checks GraphDef -> Graph -> GraphDef: the same nodes, each with the
// same op, device, attrs (after defaults) and inputs (data inputs in order, control inputs
// sorted).
void CheckRoundTrip(const std::string& file) {
  SCOPED_TRACE(file);
  GraphDef in;
  ASSERT_TRUE(ReadGraphDefFile("tests/fixtures/" + file, &in).ok());
  Graph g(OpRegistry::Global());
  GraphConstructorOptions opts;
  opts.validate_shape = true;
  absl::Status s = ConvertGraphDefToGraph(opts, in, &g);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(g.num_op_nodes(), in.node_size());
  GraphDef out;
  g.ToGraphDef(&out);
  GraphDef expected = in;
  ASSERT_TRUE(AddDefaultAttrsToGraphDef(&expected, *OpRegistry::Global()).ok());
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& n : out.node()) by_name[n.name()] = &n;
  ASSERT_EQ(by_name.size(), static_cast<size_t>(expected.node_size()));
  for (NodeDef n : expected.node()) {
    auto data_end = std::stable_partition(n.mutable_input()->begin(), n.mutable_input()->end(),
                                          [](const std::string& s) { return s[0] != '^'; });
    std::sort(data_end, n.mutable_input()->end());
    for (std::string& input : *n.mutable_input()) {
      if (absl::EndsWith(input, ":0")) input.resize(input.size() - 2);
    }
    ASSERT_EQ(by_name.count(n.name()), 1u) << n.name();
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(n, *by_name[n.name()]))
        << n.DebugString() << "\nvs\n"
        << by_name[n.name()]->DebugString();
  }
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(in.versions(), out.versions()));
  // And Graph -> GraphDef -> Graph gives the same graph.
  Graph again(OpRegistry::Global());
  ASSERT_TRUE(ConvertGraphDefToGraph(opts, out, &again).ok());
  EXPECT_EQ(CanonicalGraphString(again), CanonicalGraphString(g));
}

TEST(RoundTripTest, Fixtures) {
  CheckRoundTrip("mlp.pb");
  CheckRoundTrip("cnn.pb");
  CheckRoundTrip("array_ops.pb");
}

TEST(CopyGraphTest, CopiesNodesEdgesVersionsAndLibrary) {
  Graph src(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(Ph("a") + Ph("b") +
                                       Unary("c", "Mul", "input: 'a' input: 'b' input: '^a'") +
                                       "versions { producer: 21 } "
                                       "library { function { signature { name: 'F' } } }",
                                   &src)
                  .ok());
  src.FindNodeByName("c")->set_assigned_device_name("/device:CPU:0");
  Graph dest(OpRegistry::Global());
  CopyGraph(src, &dest);
  EXPECT_EQ(CanonicalGraphString(dest), CanonicalGraphString(src));
  EXPECT_EQ(dest.num_edges(), src.num_edges());
  GraphDef a, b;
  src.ToGraphDef(&a);
  dest.ToGraphDef(&b);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a, b));
}

TEST(CopyGraphTest, CallsOfFunctionsOutliveTheSource) {
  Graph dest(OpRegistry::Global());
  {
    Graph src(OpRegistry::Global());
    ASSERT_TRUE(
        GraphFromTextForTest(Ph("a") + Unary("c", "square_it", "input: 'a'") + kSquareLibrary, &src)
            .ok());
    CopyGraph(src, &dest);
  }
  const Node* c = dest.FindNodeByName("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->op_def().name(), "square_it");
  EXPECT_EQ(c->op_def().input_arg(0).name(), "x");
  EXPECT_TRUE(dest.IsFunction("square_it"));
}

}  // namespace
}  // namespace sluice
