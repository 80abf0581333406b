// ImportGraphDef: importing into a graph that already holds nodes, and each import option.
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/import/graph_testutil.h"
#include "graph/shape_refiner.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Ph(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  return "node { name: '" + name +
         "' op: 'Placeholder' attr { key: 'dtype' value { type: " + dtype + " } } }\n";
}
std::string Unary(const std::string& name, const std::string& op, const std::string& inputs,
                  const std::string& dtype = "DT_FLOAT") {
  return "node { name: '" + name + "' op: '" + op + "' " + inputs +
         " attr { key: 'T' value { type: " + dtype + " } } }\n";
}
std::string ScalarConst(const std::string& name, float v) {
  return "node { name: '" + name +
         "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' "
         "value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: " +
         std::to_string(v) + " } } } }\n";
}

// x -> y = Identity(x), with y colocated with x.
const std::string kXY = Ph("x") +
                        "node { name: 'y' op: 'Identity' input: 'x' "
                        "attr { key: 'T' value { type: DT_FLOAT } } "
                        "attr { key: '_class' value { list { s: 'loc:@x' } } } }";

class ImportTest : public ::testing::Test {
 protected:
  ImportTest() {
    // The graph starts with an existing node "x" and "c" (a Const).
    EXPECT_TRUE(GraphFromTextForTest(Ph("x") + ScalarConst("c", 2), &g_).ok());
  }

  absl::Status Import(const std::string& text, ImportGraphDefResults* results = nullptr) {
    GraphDef gd;
    absl::Status s = ParseTextProto(text, &gd);
    if (!s.ok()) return s;
    return ImportGraphDef(opts_, gd, &g_, &refiner_, results);
  }
  void ExpectError(const std::string& text, const std::string& message,
                   ImportGraphDefResults* results = nullptr) {
    const std::string before = CanonicalGraphString(g_);
    absl::Status s = Import(text, results);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(s.message(), HasSubstr(message));
    EXPECT_EQ(CanonicalGraphString(g_), before);
  }
  std::vector<std::string> Inputs(const char* name) {
    const NodeDef& def = g_.FindNodeByName(name)->def();
    return std::vector<std::string>(def.input().begin(), def.input().end());
  }
  std::string Coloc(const char* name) {
    std::vector<std::string> groups;
    EXPECT_TRUE(GetNodeAttr(g_.FindNodeByName(name)->attrs(), "_class", &groups).ok());
    return groups.empty() ? "" : groups[0];
  }

  ImportGraphDefOptions opts_;
  Graph g_{OpRegistry::Global()};
  ShapeRefiner refiner_{OpRegistry::Global()};
};

TEST_F(ImportTest, NameCollisionsWithoutPrefix) {
  ExpectError(kXY, "Node name 'x' already exists in the Graph");
  // A name that is a prefix of an existing node's name collides too.
  opts_.prefix = "p";
  ASSERT_TRUE(Import(Ph("q")).ok());
  opts_.prefix = "";
  ExpectError(Ph("p"), "Node name 'p' already exists in the Graph");
}

TEST_F(ImportTest, Prefix) {
  opts_.prefix = "imported";
  ASSERT_TRUE(Import(kXY).ok());
  EXPECT_EQ(CanonicalGraphString(g_),
            "c(Const);imported/x(Placeholder);imported/y(Identity);x(Placeholder)|"
            "imported/x->imported/y");
  EXPECT_THAT(Inputs("imported/y"), ElementsAre("imported/x"));
  EXPECT_EQ(Coloc("imported/y"), "loc:@imported/x");
  // A trailing '/' is accepted.
  opts_.prefix = "second/";
  ASSERT_TRUE(Import(Ph("x")).ok());
  EXPECT_NE(g_.FindNodeByName("second/x"), nullptr);
}

TEST_F(ImportTest, InvalidPrefix) {
  opts_.prefix = "bad!";
  ExpectError(Ph("a"), "Imported node name prefix 'bad!/' would lead to invalid node names");
}

TEST_F(ImportTest, TakenPrefixCollides) {
  opts_.prefix = "p";
  ASSERT_TRUE(Import(Ph("a")).ok());
  ExpectError(Ph("a"), "Node name 'p/a' already exists in the Graph");
}

TEST_F(ImportTest, UniquifyPrefix) {
  opts_.prefix = "x";  // names an existing node
  opts_.uniquify_prefix = true;
  ASSERT_TRUE(Import(kXY).ok());
  EXPECT_NE(g_.FindNodeByName("x_1/y"), nullptr);
  EXPECT_THAT(Inputs("x_1/y"), ElementsAre("x_1/x"));
  ASSERT_TRUE(Import(kXY).ok());  // "x_1" is now a prefix in the graph
  EXPECT_NE(g_.FindNodeByName("x_2/y"), nullptr);
}

TEST_F(ImportTest, UniquifyNames) {
  opts_.uniquify_names = true;
  // "x" collides; "x_1" is taken by the GraphDef itself, so x becomes x_2.
  ASSERT_TRUE(Import(kXY + Ph("x_1")).ok());
  EXPECT_NE(g_.FindNodeByName("x_2"), nullptr);
  EXPECT_NE(g_.FindNodeByName("x_1"), nullptr);
  EXPECT_THAT(Inputs("y"), ElementsAre("x_2"));
  EXPECT_EQ(Coloc("y"), "loc:@x_2");
  // "c" is a node name; "c/..." nodes would clash with it only as a prefix.
  ASSERT_TRUE(Import(Ph("y")).ok());
  EXPECT_NE(g_.FindNodeByName("y_1"), nullptr);
}

TEST_F(ImportTest, InputMap) {
  opts_.prefix = "i";
  opts_.input_map[{"x", 0}] = {"c", 0};
  opts_.input_map[{"zz", 0}] = {"c", 0};  // names no node of the GraphDef
  opts_.input_map[{"x", 5}] = {"c", 0};   // names no output of x
  opts_.input_map[{"y", 0}] = {"c", 0};   // a node of the GraphDef, but nothing reads it
  opts_.return_tensors = {{"y", 0}, {"x", 0}};
  ImportGraphDefResults results;
  ASSERT_TRUE(Import(kXY, &results).ok());
  EXPECT_EQ(CanonicalGraphString(g_),
            "c(Const);i/x(Placeholder);i/y(Identity);x(Placeholder)|c->i/y");
  EXPECT_THAT(Inputs("i/y"), ElementsAre("c"));
  ASSERT_EQ(results.return_tensors.size(), 2u);
  // A remapped tensor is returned as what it maps to.
  EXPECT_EQ(results.return_tensors[0].first, g_.FindNodeByName("c"));
  EXPECT_EQ(results.return_tensors[1].first, g_.FindNodeByName("c"));
  using Key = std::pair<std::string, int>;
  EXPECT_THAT(results.missing_unused_input_map_keys, ElementsAre(Key("x", 5), Key("zz", 0)));
}

TEST_F(ImportTest, InputMapControlInputs) {
  opts_.prefix = "i";
  opts_.input_map[{"a", -1}] = {"x", -1};
  opts_.input_map[{"b", -1}] = {"x", -1};
  ASSERT_TRUE(
      Import(Ph("a") + Ph("b") + "node { name: 'n' op: 'NoOp' input: '^a' input: '^b' }").ok());
  // Both control inputs map onto x and collapse into one.
  EXPECT_THAT(Inputs("i/n"), ElementsAre("^x"));
}

TEST_F(ImportTest, InputMapErrors) {
  opts_.input_map[{"x", 0}] = {"nope", 0};
  opts_.prefix = "i";
  ExpectError(kXY,
              "node 'nope' in input_map does not exist in graph (input_map entry: x:0->nope:0)");
  opts_.input_map.clear();
  opts_.input_map[{"x", -1}] = {"c", 0};
  ExpectError(kXY, "input_map entry ^x->c:0 between control edge and non-control edge");
  opts_.input_map.clear();
  opts_.input_map[{"x", 0}] = {"c", 0};
  ExpectError(Ph("x") + Unary("y", "Identity", "input: 'x'", "DT_INT32"),
              "Input 0 of node i/y was passed float from c:0 incompatible with expected int32.");
}

TEST_F(ImportTest, SkipMappedNodes) {
  opts_.prefix = "i";
  opts_.skip_mapped_nodes = true;
  opts_.input_map[{"x", 0}] = {"c", 0};
  ImportGraphDefResults results;
  ASSERT_TRUE(Import(kXY, &results).ok());
  EXPECT_EQ(g_.FindNodeByName("i/x"), nullptr);
  EXPECT_THAT(Inputs("i/y"), ElementsAre("c"));
  EXPECT_TRUE(results.missing_unused_input_map_keys.empty());
  // A node without outputs has none mapped away: it is imported, and so is what waits on it.
  ImportGraphDefResults with_noop;
  opts_.prefix = "j";
  ASSERT_TRUE(Import(kXY + "node { name: 'n' op: 'NoOp' input: '^y' }" +
                         "node { name: 'z' op: 'Identity' input: 'y' input: '^n' "
                         "attr { key: 'T' value { type: DT_FLOAT } } }",
                     &with_noop)
                  .ok());
  EXPECT_NE(g_.FindNodeByName("j/n"), nullptr);
  EXPECT_NE(g_.FindNodeByName("j/z"), nullptr);
  opts_.prefix = "i";
  opts_.return_nodes = {"y"};
  ImportGraphDefResults more;
  ExpectError(kXY, "Requesting return_nodes with skip_mapped_nodes set is not currently supported",
              &more);
}

TEST_F(ImportTest, ControlDependencies) {
  opts_.prefix = "i";
  opts_.control_dependencies = {"c", "x"};
  opts_.input_map[{"m", 0}] = {"x", 0};
  ASSERT_TRUE(Import(Ph("a") + Ph("m") + Unary("b", "Identity", "input: 'a'") +
                     Unary("r", "Identity", "input: 'm'"))
                  .ok());
  // a has no inputs and r only a remapped one: they get the dependencies. b inherits them
  // through a.
  EXPECT_THAT(Inputs("i/a"), ElementsAre("^c", "^x"));
  EXPECT_THAT(Inputs("i/r"), ElementsAre("x", "^c", "^x"));
  EXPECT_THAT(Inputs("i/b"), ElementsAre("i/a"));
}

TEST_F(ImportTest, ControlDependencyMustExist) {
  opts_.control_dependencies = {"nope"};
  opts_.prefix = "i";
  ExpectError(Ph("a"), "node 'nope' in control_dependencies does not exist in graph");
}

TEST_F(ImportTest, ReturnTensorsAndNodes) {
  opts_.prefix = "i";
  opts_.return_tensors = {{"y", 0}, {"x", -1}};
  opts_.return_nodes = {"x"};
  ImportGraphDefResults results;
  ASSERT_TRUE(Import(kXY, &results).ok());
  ASSERT_EQ(results.return_tensors.size(), 2u);
  EXPECT_EQ(results.return_tensors[0], std::make_pair(g_.FindNodeByName("i/y"), 0));
  EXPECT_EQ(results.return_tensors[1], std::make_pair(g_.FindNodeByName("i/x"), -1));
  EXPECT_THAT(results.return_nodes, ElementsAre(g_.FindNodeByName("i/x")));
}

TEST_F(ImportTest, ReturnErrors) {
  opts_.prefix = "i";
  ImportGraphDefResults results;
  opts_.return_tensors = {{"q", 0}};
  ExpectError(kXY, "Requested return tensor 'q:0' not found in graph def", &results);
  opts_.return_tensors = {{"y", 3}};
  ExpectError(kXY, "Invalid return output 3 of node 'y', which has 1 output(s)", &results);
  opts_.return_tensors.clear();
  opts_.return_nodes = {"q"};
  ExpectError(kXY, "Requested return node 'q' not found in graph def", &results);
  EXPECT_TRUE(results.return_nodes.empty());
  EXPECT_TRUE(results.return_tensors.empty());
}

TEST_F(ImportTest, ResultsArgument) {
  opts_.prefix = "i";
  opts_.return_tensors = {{"y", 0}};
  ExpectError(kXY,
              "results argument to ImportGraphDef() must be non-null if "
              "opts.return_tensors is non-empty");
  opts_.return_tensors.clear();
  opts_.return_nodes = {"y"};
  ExpectError(kXY,
              "results argument to ImportGraphDef() must be non-null if "
              "opts.return_nodes is non-empty");
  ImportGraphDefResults dirty;
  dirty.return_nodes.push_back(nullptr);
  ExpectError(kXY, "All fields in results argument to ImportGraphDef() must be empty.", &dirty);
}

TEST_F(ImportTest, DefaultDevice) {
  opts_.prefix = "i";
  opts_.default_device = "/device:CPU:0";
  ASSERT_TRUE(Import(Ph("a") + "node { name: 'b' op: 'NoOp' device: '/device:GPU:0' }").ok());
  EXPECT_EQ(g_.FindNodeByName("i/a")->requested_device(), "/device:CPU:0");
  EXPECT_EQ(g_.FindNodeByName("i/b")->requested_device(), "/device:GPU:0");
  EXPECT_FALSE(g_.FindNodeByName("i/a")->has_assigned_device_name());
}

TEST_F(ImportTest, Colocation) {
  opts_.prefix = "i";
  ExpectError(Ph("a") +
                  "node { name: 'b' op: 'NoOp' attr { key: '_class' value { list { "
                  "s: 'loc:@z' } } } }",
              "Node 'b' expects to be colocated with unknown node 'z'");
  opts_.validate_colocation_constraints = false;
  ASSERT_TRUE(Import("node { name: 'b' op: 'NoOp' attr { key: '_class' value { list { "
                     "s: 'loc:@z' } } } }")
                  .ok());
  EXPECT_EQ(Coloc("i/b"), "loc:@i/z");
}

TEST_F(ImportTest, ShapesAreInferredAndChecked) {
  opts_.prefix = "i";
  ExpectError(ScalarConst("k", 1) + Unary("m", "MatMul", "input: 'k' input: 'k'"),
              "Shape must be rank 2 but is rank 0 for '{{node i/m}} = MatMul");
  opts_.validate_shape = false;
  ASSERT_TRUE(Import(ScalarConst("k", 1) + Unary("m", "MatMul", "input: 'k' input: 'k'")).ok());
  EXPECT_NE(g_.FindNodeByName("i/m"), nullptr);
}

TEST_F(ImportTest, RefinerSeesImportedNodes) {
  opts_.prefix = "i";
  ASSERT_TRUE(Import(ScalarConst("k", 1) + Unary("n", "Neg", "input: 'k'")).ok());
  PartialTensorShape shape;
  ASSERT_TRUE(refiner_.GetOutputShape(g_.FindNodeByName("i/n"), 0, &shape).ok());
  EXPECT_EQ(shape.dims(), 0);
}

TEST_F(ImportTest, OutputShapesAttr) {
  opts_.prefix = "i";
  const std::string with_attr =
      Ph("p") +
      "node { name: 'y' op: 'Identity' input: 'p' "
      "attr { key: 'T' value { type: DT_FLOAT } } "
      "attr { key: '_output_shapes' value { list { shape { dim { size: 3 } } } } } }";
  ASSERT_TRUE(Import(with_attr).ok());
  Node* y = g_.FindNodeByName("i/y");
  EXPECT_FALSE(HasNodeAttr(y->def(), "_output_shapes"));
  PartialTensorShape shape;
  ASSERT_TRUE(refiner_.GetOutputShape(y, 0, &shape).ok());
  EXPECT_EQ(shape.DebugString(), "[3]");

  opts_.prefix = "j";
  ExpectError(ScalarConst("k", 1) +
                  "node { name: 'y' op: 'Identity' input: 'k' "
                  "attr { key: 'T' value { type: DT_FLOAT } } "
                  "attr { key: '_output_shapes' value { list { shape { "
                  "dim { size: 3 } } } } } }",
              "Node 'j/y' has an _output_shapes attribute inconsistent with the GraphDef for "
              "output #0");
  ExpectError(ScalarConst("k", 1) +
                  "node { name: 'y' op: 'Identity' input: 'k' "
                  "attr { key: 'T' value { type: DT_FLOAT } } "
                  "attr { key: '_output_shapes' value { list { } } } }",
              "Node 'j/y' has 1 outputs but the _output_shapes attribute specifies shapes for "
              "0 outputs");
  ExpectError(ScalarConst("k", 1) +
                  "node { name: 'y' op: 'Identity' input: 'k' "
                  "attr { key: 'T' value { type: DT_FLOAT } } "
                  "attr { key: '_output_shapes' value { list { shape { "
                  "dim { size: -7 } } } } } }",
              "Node 'j/y' has an invalid _output_shapes attribute (shape #0");
}

TEST_F(ImportTest, InternalNamesAreRejected) {
  opts_.prefix = "i";
  ExpectError(Ph("_a"), "Node '_a': Node name contains invalid characters");
}

TEST_F(ImportTest, VersionsAreMerged) {
  VersionDef v;
  v.set_producer(30);
  v.set_min_consumer(3);
  v.add_bad_consumers(7);
  g_.set_versions(v);
  opts_.prefix = "i";
  ASSERT_TRUE(Import(Ph("a") + "versions { producer: 20 min_consumer: 5 bad_consumers: 9 "
                               "bad_consumers: 7 }")
                  .ok());
  EXPECT_EQ(g_.versions().producer(), 20);
  EXPECT_EQ(g_.versions().min_consumer(), 5);
  EXPECT_THAT(g_.versions().bad_consumers(), ElementsAre(7, 9));
  // A failed import restores them.
  opts_.prefix = "j";
  ExpectError(Ph("a") + Ph("a") + "versions { producer: 1 }", "Node 'a' is not unique");
  EXPECT_EQ(g_.versions().producer(), 20);
}

TEST_F(ImportTest, FailureLeavesGraphUnmodified) {
  opts_.prefix = "i";
  opts_.control_dependencies = {"x"};
  opts_.input_map[{"a", 0}] = {"c", 0};
  ExpectError(Ph("a") + Unary("b", "Identity", "input: 'a'") + Unary("d", "Neg", "input: 'b'") +
                  Unary("e", "Identity", "input: 'd'", "DT_INT32"),
              "Input 0 of node i/e was passed float from i/d:0 incompatible with expected int32.");
  EXPECT_TRUE(g_.FindNodeByName("x")->out_edges().size() == 1u);  // only x -> _SINK
  EXPECT_TRUE(g_.FindNodeByName("c")->out_edges().size() == 1u);
}

TEST_F(ImportTest, WithoutRefiner) {
  opts_.prefix = "i";
  GraphDef gd;
  ASSERT_TRUE(ParseTextProto(kXY, &gd).ok());
  ASSERT_TRUE(ImportGraphDef(opts_, gd, &g_, nullptr).ok());
  EXPECT_NE(g_.FindNodeByName("i/y"), nullptr);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

// A library function Cat(x) = ConcatV2(x, x, axis 0), called through PartitionedCall, by
// name (TF1's Defun) and through a PartitionedCall that turns inference off.
constexpr char kCalls[] = R"pb(
  node {
    name: "p"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: 3 }
          dim { size: 4 }
        }
      }
    }
  }
  node {
    name: "call"
    op: "PartitionedCall"
    input: "p"
    attr {
      key: "Tin"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "Tout"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "f"
      value { func { name: "Cat" } }
    }
  }
  node { name: "by_name" op: "Cat" input: "call" }
  node {
    name: "opaque"
    op: "PartitionedCall"
    input: "p"
    attr {
      key: "Tin"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "Tout"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "f"
      value { func { name: "Cat" } }
    }
    attr {
      key: "_disable_call_shape_inference"
      value { b: true }
    }
  }
  library {
    function {
      signature {
        name: "Cat"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      node_def {
        name: "axis"
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
      node_def {
        name: "cat"
        op: "ConcatV2"
        input: "x"
        input: "x"
        input: "axis:output:0"
        attr {
          key: "N"
          value { i: 2 }
        }
        attr {
          key: "T"
          value { type: DT_FLOAT }
        }
        attr {
          key: "Tidx"
          value { type: DT_INT32 }
        }
      }
      ret { key: "y" value: "cat:output:0" }
    }
  }
)pb";

// As TensorFlow's refiner: a call's output shapes are those its body gives for the call's
// input shapes, through nested calls too.
TEST(CallShapesTest, CallOutputsTakeTheirBodysShapes) {
  GraphDef gdef;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kCalls, &gdef));
  Graph g(OpRegistry::Global());
  ShapeRefiner refiner(g.op_registry());
  GraphConstructorOptions opts;
  opts.validate_shape = true;
  const absl::Status s = ConvertGraphDefToGraph(opts, std::move(gdef), &g, &refiner);
  ASSERT_TRUE(s.ok()) << s;
  auto shape_of = [&](const std::string& name) {
    PartialTensorShape shape;
    EXPECT_TRUE(refiner.GetOutputShape(g.FindNodeByName(name), 0, &shape).ok()) << name;
    return shape.DebugString();
  };
  EXPECT_EQ(shape_of("call"), "[6,4]");
  EXPECT_EQ(shape_of("by_name"), "[12,4]");
  EXPECT_EQ(shape_of("opaque"), "<unknown>");
}

}  // namespace
}  // namespace sluice
