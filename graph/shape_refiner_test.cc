#include "graph/shape_refiner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference.h"
#include "graph/tensor_id.h"
#include "gtest/gtest.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// Test-only ops: one without a shape function, one that folds only through a NodeFolder,
// and one whose shape function reads a shape tensor that may be the scalar -1.
REGISTER_OP("ShapeRefinerTestNoShapeFn").Output("out: float");
REGISTER_OP("ShapeRefinerTestDouble")
    .Input("x: int32")
    .Output("y: int32")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(0));
      return absl::OkStatus();
    });
REGISTER_OP("ShapeRefinerTestShapeArg")
    .Input("shape: int32")
    .Output("out: float")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle out;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(0, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    });

// A NodeDef under construction: Def("r", "Reshape", {"x", "s"}).Attr("T", DT_FLOAT).
struct Def {
  Def(const std::string& name, const std::string& op, std::vector<std::string> inputs = {}) {
    node.set_name(name);
    node.set_op(op);
    for (std::string& input : inputs) node.add_input(std::move(input));
  }
  template <typename T>
  Def& Attr(const std::string& name, T&& value) {
    AddNodeAttr(name, std::forward<T>(value), &node);
    return *this;
  }
  NodeDef node;
};

Def Placeholder(const std::string& name, const PartialTensorShape& shape,
                DataType dtype = DT_FLOAT) {
  return Def(name, "Placeholder").Attr("dtype", dtype).Attr("shape", shape);
}

Def IntConst(const std::string& name, const std::vector<int32_t>& values, bool scalar = false) {
  TensorProto proto;
  proto.set_dtype(DT_INT32);
  if (!scalar) proto.mutable_tensor_shape()->add_dim()->set_size(values.size());
  for (int32_t v : values) proto.add_int_val(v);
  return Def(name, "Const").Attr("dtype", DT_INT32).Attr("value", proto);
}

Def FloatScalar(const std::string& name) {
  TensorProto proto;
  proto.set_dtype(DT_FLOAT);
  proto.add_float_val(1.0f);
  return Def(name, "Const").Attr("dtype", DT_FLOAT).Attr("value", proto);
}

class ShapeRefinerTest : public ::testing::Test {
 protected:
  ShapeRefinerTest() : graph_(OpRegistry::Global()), refiner_(OpRegistry::Global()) {}

  // Adds a node as the importer does: default attrs, the node, edges from the nodes already
  // added (inputs naming later nodes are loop back edges, kept for AddBackEdges), then shape
  // inference.
  absl::Status Add(const Def& def) {
    NodeDef node_def = def.node;
    const OpDef* op_def = nullptr;
    RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(node_def.op(), &op_def));
    AddDefaultsToNodeDef(*op_def, &node_def);
    ASSIGN_OR_RETURN(Node * node, graph_.AddNode(node_def));
    for (int i = 0; i < node_def.input_size(); ++i) {
      const TensorId id = ParseTensorName(node_def.input(i));
      Node* src = graph_.FindNodeByName(id.node);
      if (src == nullptr) {
        back_edges_.push_back({std::string(id.node), id.index, node, i});
      } else if (id.index == kControlSlot) {
        graph_.AddControlEdge(src, node);
      } else {
        graph_.AddEdge(src, id.index, node, i);
      }
    }
    return refiner_.AddNode(node);
  }

  void AddAll(const std::vector<Def>& defs) {
    for (const Def& def : defs) {
      const absl::Status s = Add(def);
      ASSERT_TRUE(s.ok()) << s;
    }
  }

  void AddBackEdges() {
    for (const BackEdge& e : back_edges_) {
      graph_.AddEdge(graph_.FindNodeByName(e.src), e.src_output, e.dst, e.dst_input);
    }
    back_edges_.clear();
  }

  Node* N(const std::string& name) { return graph_.FindNodeByName(name); }

  // The shape of output `port` of node `name` as "[2,?]" / "?", or the error.
  std::string Shape(const std::string& name, int port = 0) {
    PartialTensorShape shape;
    const absl::Status s = refiner_.GetOutputShape(N(name), port, &shape);
    return s.ok() ? shape.DebugString() : s.ToString();
  }

  struct BackEdge {
    std::string src;
    int src_output;
    Node* dst;
    int dst_input;
  };
  Graph graph_;
  ShapeRefiner refiner_;
  std::vector<BackEdge> back_edges_;
};

TEST_F(ShapeRefinerTest, ShapesPropagateThroughAChain) {
  AddAll({Placeholder("a", PartialTensorShape({2, 3})),
          Def("i", "Identity", {"a"}).Attr("T", DT_FLOAT),
          Def("r", "Relu", {"i"}).Attr("T", DT_FLOAT),
          Placeholder("b", PartialTensorShape({3, -1})),
          Def("m", "MatMul", {"r", "b"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("a"), "[2,3]");
  EXPECT_EQ(Shape("i"), "[2,3]");
  EXPECT_EQ(Shape("r"), "[2,3]");
  EXPECT_EQ(Shape("m"), "[2,?]");
  InferenceContext* c = refiner_.GetContext(N("m"));
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->DebugString(c->input(0)), "[2,3]");
  EXPECT_EQ(c->DebugString(c->input(1)), "[3,?]");
}

// A failing shape function leaves its node without a context and its consumers unknown;
// the rest of the graph is inferred.
TEST_F(ShapeRefinerTest, BestEffortInferenceSkipsFailures) {
  AddAll(
      {Placeholder("a", PartialTensorShape({2, 3})), Def("r", "Relu", {"a"}).Attr("T", DT_FLOAT)});
  EXPECT_FALSE(Add(Def("bad", "MatMul", {"a", "a"}).Attr("T", DT_FLOAT)).ok());
  EXPECT_TRUE(Add(Def("after", "Relu", {"bad"}).Attr("T", DT_FLOAT)).ok());

  ShapeRefiner fresh(OpRegistry::Global());
  InferShapesBestEffort(graph_, &fresh);
  PartialTensorShape shape;
  ASSERT_TRUE(fresh.GetOutputShape(N("r"), 0, &shape).ok());
  EXPECT_EQ(shape.DebugString(), "[2,3]");
  EXPECT_EQ(fresh.GetContext(N("bad")), nullptr);
  ASSERT_TRUE(fresh.GetOutputShape(N("after"), 0, &shape).ok());
  EXPECT_EQ(shape.DebugString(), "<unknown>");
}

TEST_F(ShapeRefinerTest, RemovedNodesAreForgotten) {
  AddAll({Placeholder("a", PartialTensorShape({2, 3}))});
  ASSERT_NE(refiner_.GetContext(N("a")), nullptr);
  refiner_.RemoveNode(N("a"));
  EXPECT_EQ(refiner_.GetContext(N("a")), nullptr);
  EXPECT_EQ(refiner_.GetOutputShape(N("a"), 0, nullptr).code(), absl::StatusCode::kNotFound);
  refiner_.RemoveNode(N("a"));  // Forgetting twice is harmless.
  ASSERT_TRUE(refiner_.AddNode(N("a")).ok());
  EXPECT_EQ(Shape("a"), "[2,3]");
}

TEST_F(ShapeRefinerTest, ConstShapeFeedsReshape) {
  AddAll({Placeholder("x", PartialTensorShape({2, 3})), IntConst("s", {3, -1}),
          Def("r", "Reshape", {"x", "s"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("r"), "[3,2]");
}

TEST_F(ShapeRefinerTest, ConstDimsFeedFill) {
  AddAll(
      {IntConst("d", {2, 3}), FloatScalar("v"), Def("f", "Fill", {"d", "v"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("f"), "[2,3]");
}

TEST_F(ShapeRefinerTest, PackOfConstantsIsFolded) {
  AddAll({IntConst("two", {2}, true), IntConst("five", {5}, true),
          Def("p", "Pack", {"two", "five"}).Attr("T", DT_INT32).Attr("N", 2), FloatScalar("v"),
          Def("f", "Fill", {"p", "v"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("f"), "[2,5]");
}

TEST_F(ShapeRefinerTest, IdentityConcatAndCastOfConstantsAreFolded) {
  AddAll({IntConst("a", {2}), IntConst("b", {3, 4}), IntConst("axis", {0}, true),
          Def("ia", "Identity", {"a"}).Attr("T", DT_INT32),
          Def("c", "ConcatV2", {"ia", "b", "axis"}).Attr("T", DT_INT32).Attr("N", 2),
          Def("c64", "Cast", {"c"}).Attr("SrcT", DT_INT32).Attr("DstT", DT_INT64), FloatScalar("v"),
          Def("f", "Fill", {"c64", "v"}).Attr("T", DT_FLOAT).Attr("index_type", DT_INT64)});
  EXPECT_EQ(Shape("f"), "[2,3,4]");
}

TEST_F(ShapeRefinerTest, ShapeRankAndSizeOfKnownShapesAreEvaluated) {
  AddAll({Placeholder("y", PartialTensorShape({4, 6})), Placeholder("x", PartialTensorShape({24})),
          Def("shape", "Shape", {"y"}).Attr("T", DT_FLOAT),
          Def("r", "Reshape", {"x", "shape"}).Attr("T", DT_FLOAT),
          Def("rank", "Rank", {"y"}).Attr("T", DT_FLOAT),
          Def("size", "Size", {"y"}).Attr("T", DT_FLOAT),
          Def("dims", "Pack", {"rank", "size"}).Attr("T", DT_INT32).Attr("N", 2), FloatScalar("v"),
          Def("f", "Fill", {"dims", "v"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("r"), "[4,6]");
  EXPECT_EQ(Shape("f"), "[2,24]");
}

TEST_F(ShapeRefinerTest, PartiallyKnownShapeTensorsKeepTheirKnownDims) {
  // What TensorFlow 2.21 infers for the same graphs (see tf.raw_ops.Reshape in graph mode).
  AddAll({Placeholder("y", PartialTensorShape({-1, 6})),
          Placeholder("a", PartialTensorShape({2, 3})), Placeholder("x", PartialTensorShape()),
          Def("sy", "Shape", {"y"}).Attr("T", DT_FLOAT),
          Def("sa", "Shape", {"a"}).Attr("T", DT_FLOAT), IntConst("axis", {0}, true),
          Def("cat", "ConcatV2", {"sy", "sa", "axis"}).Attr("T", DT_INT32).Attr("N", 2),
          Def("r_cat", "Reshape", {"x", "cat"}).Attr("T", DT_FLOAT), IntConst("begin", {1}),
          IntConst("end", {2}), IntConst("stride", {1}),
          Def("dim1", "StridedSlice", {"sy", "begin", "end", "stride"})
              .Attr("T", DT_INT32)
              .Attr("Index", DT_INT32)
              .Attr("shrink_axis_mask", 1),
          IntConst("minus_one", {-1}, true),
          Def("packed", "Pack", {"dim1", "minus_one"}).Attr("T", DT_INT32).Attr("N", 2),
          Def("r_pack", "Reshape", {"x", "packed"}).Attr("T", DT_FLOAT),
          Def("cast", "Cast", {"sy"}).Attr("SrcT", DT_INT32).Attr("DstT", DT_INT64),
          Def("r_cast", "Reshape", {"x", "cast"}).Attr("T", DT_FLOAT).Attr("Tshape", DT_INT64),
          Def("tail", "StridedSlice", {"sy", "begin", "end", "stride"})
              .Attr("T", DT_INT32)
              .Attr("Index", DT_INT32)
              .Attr("end_mask", 1),
          Def("r_tail", "Reshape", {"x", "tail"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("r_cat"), "[?,6,2,3]");
  EXPECT_EQ(Shape("r_pack"), "[6,?]");
  EXPECT_EQ(Shape("r_cast"), "[?,6]");
  EXPECT_EQ(Shape("r_tail"), "[6]");
}

TEST_F(ShapeRefinerTest, UnknownValuesLeaveShapesUnknown) {
  // As in TensorFlow: a fed value is unknown, while the shape a Shape denotes is still
  // partially known.
  AddAll({Placeholder("d", PartialTensorShape({2}), DT_INT32), FloatScalar("v"),
          Def("f", "Fill", {"d", "v"}).Attr("T", DT_FLOAT),
          Placeholder("y", PartialTensorShape({-1, 6})),
          Def("sy", "Shape", {"y"}).Attr("T", DT_FLOAT),
          Def("f2", "Fill", {"sy", "v"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("f"), "[?,?]");
  EXPECT_EQ(Shape("f2"), "[?,6]");
}

TEST_F(ShapeRefinerTest, NodeFolderEvaluatesOtherOps) {
  refiner_.set_node_folder([](const Node& node, int port, const std::vector<Tensor>& inputs) {
    std::optional<Tensor> result;
    if (node.type_string() != "ShapeRefinerTestDouble") return result;
    result = inputs[0].DeepCopy();
    for (int64_t i = 0; i < result->NumElements(); ++i) result->flat<int32_t>()(i) *= 2;
    return result;
  });
  AddAll({IntConst("d", {1, 2}), Def("twice", "ShapeRefinerTestDouble", {"d"}), FloatScalar("v"),
          Def("f", "Fill", {"twice", "v"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("f"), "[2,4]");
}

TEST_F(ShapeRefinerTest, OpsNoOneCanFoldStopEvaluation) {
  AddAll({IntConst("d", {1, 2}), Def("twice", "ShapeRefinerTestDouble", {"d"}), FloatScalar("v"),
          Def("f", "Fill", {"twice", "v"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("f"), "[?,?]");
}

TEST_F(ShapeRefinerTest, LongChainsAreEvaluatedWithinTheLimit) {
  std::vector<Def> defs = {IntConst("c0", {3, 4})};
  for (int i = 1; i <= 100; ++i) {
    defs.push_back(
        Def(absl::StrCat("c", i), "Identity", {absl::StrCat("c", i - 1)}).Attr("T", DT_INT32));
  }
  defs.push_back(FloatScalar("v"));
  defs.push_back(Def("f", "Fill", {"c100", "v"}).Attr("T", DT_FLOAT));
  AddAll(defs);
  EXPECT_EQ(Shape("f"), "[3,4]");
}

TEST_F(ShapeRefinerTest, ChainsPastTheLimitAreUnknownNotACrash) {
  const int n = ConstantEvaluator::kMaxNodesPerEvaluation + 10;
  std::vector<Def> defs = {IntConst("c0", {3, 4})};
  for (int i = 1; i <= n; ++i) {
    defs.push_back(
        Def(absl::StrCat("c", i), "Identity", {absl::StrCat("c", i - 1)}).Attr("T", DT_INT32));
  }
  defs.push_back(FloatScalar("v"));
  defs.push_back(Def("f", "Fill", {absl::StrCat("c", n), "v"}).Attr("T", DT_FLOAT));
  AddAll(defs);
  EXPECT_EQ(Shape("f"), "[?,?]");
}

TEST_F(ShapeRefinerTest, ScalarMinusOneDenotesAnUnknownShape) {
  AddAll({IntConst("unknown", {-1}, true), Def("u", "ShapeRefinerTestShapeArg", {"unknown"})});
  EXPECT_EQ(Shape("u"), "<unknown>");
}

TEST_F(ShapeRefinerTest, OtherScalarShapesAreRejected) {
  ASSERT_TRUE(Add(IntConst("three", {3}, true)).ok());
  absl::Status s = Add(Def("u", "ShapeRefinerTestShapeArg", {"three"}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Received an invalid shape scalar with a static value that is not "
                             "'-1': "),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("{{node u}}"), std::string::npos) << s;

  ASSERT_TRUE(Add(Placeholder("p", PartialTensorShape({}), DT_INT32)).ok());
  s = Add(Def("u2", "ShapeRefinerTestShapeArg", {"p"}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Received a shape scalar with unknown static value.  A static value "
                             "of '-1' is required to represent an unknown shape."),
            std::string::npos)
      << s;
  EXPECT_EQ(refiner_.GetContext(N("u2")), nullptr);
}

TEST_F(ShapeRefinerTest, LoopMergeBeforeItsNextIterationIsUnknown) {
  // A v1 while loop over a [2,3] value, added in the importer's order: the Merge comes
  // before the NextIteration that feeds it. TensorFlow 2.21 gives the Merge, and so the
  // whole loop body, an unknown shape; only a constant Enter keeps its input's shape.
  AddAll({Placeholder("x", PartialTensorShape({2, 3})),
          Def("enter", "Enter", {"x"}).Attr("T", DT_FLOAT).Attr("frame_name", "loop"),
          Def("enter_c", "Enter", {"x"})
              .Attr("T", DT_FLOAT)
              .Attr("frame_name", "loop")
              .Attr("is_constant", true),
          Def("merge", "Merge", {"enter", "next"}).Attr("T", DT_FLOAT).Attr("N", 2),
          Def("merge_c", "Merge", {"enter_c", "next"}).Attr("T", DT_FLOAT).Attr("N", 2),
          Placeholder("pred", PartialTensorShape({}), DT_BOOL), Def("cond", "LoopCond", {"pred"}),
          Def("switch", "Switch", {"merge", "cond"}).Attr("T", DT_FLOAT),
          Def("body", "Identity", {"switch:1"}).Attr("T", DT_FLOAT),
          Def("next", "NextIteration", {"body"}).Attr("T", DT_FLOAT),
          Def("exit", "Exit", {"switch"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("enter"), "<unknown>");
  EXPECT_EQ(Shape("enter_c"), "[2,3]");
  EXPECT_EQ(Shape("merge"), "<unknown>");
  EXPECT_EQ(Shape("merge", 1), "[]");
  EXPECT_EQ(Shape("merge_c"), "<unknown>");
  EXPECT_EQ(Shape("cond"), "[]");
  EXPECT_EQ(Shape("switch", 1), "<unknown>");
  EXPECT_EQ(Shape("exit"), "<unknown>");

  // Once the back edge exists, updating the Merge re-reads it. Two unknown shapes are not
  // known to be the same, so TensorFlow (and Sluice) report the input as refined.
  AddBackEdges();
  bool refined = false;
  ASSERT_TRUE(refiner_.UpdateNode(N("merge_c"), /*relax=*/true, &refined).ok());
  EXPECT_TRUE(refined);
  EXPECT_EQ(Shape("merge_c"), "<unknown>");
  InferenceContext* c = refiner_.GetContext(N("merge_c"));
  EXPECT_EQ(c->DebugString(c->input(0)), "[2,3]");
}

TEST_F(ShapeRefinerTest, CondMergeKeepsWhatBranchesAgreeOn) {
  AddAll({Placeholder("a", PartialTensorShape({2, 3})),
          Placeholder("b", PartialTensorShape({2, 4})),
          Def("merge", "Merge", {"a", "b"}).Attr("T", DT_FLOAT).Attr("N", 2)});
  EXPECT_EQ(Shape("merge"), "[2,?]");
}

TEST_F(ShapeRefinerTest, ShapeFunctionErrorsNameTheNodeAndInputShapes) {
  AddAll(
      {Placeholder("a", PartialTensorShape({2, 3})), Placeholder("b", PartialTensorShape({4, 5}))});
  const absl::Status s = Add(Def("m", "MatMul", {"a", "b"}).Attr("T", DT_FLOAT));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Dimensions must be equal, but are 3 and 4 for '{{node m}} = MatMul[T=DT_FLOAT, "
            "grad_a=false, grad_b=false, transpose_a=false, transpose_b=false](a, b)' with input "
            "shapes: [2,3], [4,5].");
  EXPECT_EQ(refiner_.GetContext(N("m")), nullptr);
}

TEST_F(ShapeRefinerTest, ErrorsShowTheComputedInputs) {
  AddAll({Placeholder("a", PartialTensorShape({2, 3})), IntConst("s", {4, 2})});
  const absl::Status s = Add(Def("r", "Reshape", {"a", "s"}).Attr("T", DT_FLOAT));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Cannot reshape a tensor with 6 elements to shape [4,2] (8 elements) for '{{node r}} = "
            "Reshape[T=DT_FLOAT, Tshape=DT_INT32](a, s)' with input shapes: [2,3], [2] and with "
            "input tensors computed as partial shapes: input[1] = [4,2].");
}

TEST_F(ShapeRefinerTest, MalformedConstantIsAnError) {
  TensorProto bad;
  bad.set_dtype(DT_INT32);
  bad.mutable_tensor_shape()->add_dim()->set_size(2);
  bad.set_tensor_content("abc");
  AddAll({Def("d", "Const").Attr("dtype", DT_INT32).Attr("value", bad), FloatScalar("v")});
  const absl::Status s = Add(Def("f", "Fill", {"d", "v"}).Attr("T", DT_FLOAT));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Unable to evaluate a constant node"), std::string::npos) << s;
  EXPECT_NE(s.message().find("{{node f}}"), std::string::npos) << s;
}

TEST_F(ShapeRefinerTest, Int32ShapeOverflowIsAnError) {
  AddAll({Placeholder("y", PartialTensorShape({int64_t{1} << 31, 2})),
          Def("sy", "Shape", {"y"}).Attr("T", DT_FLOAT), FloatScalar("v")});
  const absl::Status s = Add(Def("f", "Fill", {"sy", "v"}).Attr("T", DT_FLOAT));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Value is out of int32 range: 2147483648"), std::string::npos) << s;
}

TEST_F(ShapeRefinerTest, MissingShapeFunction) {
  absl::Status s = Add(Def("n", "ShapeRefinerTestNoShapeFn"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("No shape inference function exists for op "
                             "'ShapeRefinerTestNoShapeFn', did you forget to define it?"),
            std::string::npos)
      << s;
  refiner_.set_require_shape_inference_fns(false);
  EXPECT_FALSE(refiner_.require_shape_inference_fns());
  ASSERT_TRUE(refiner_.AddNode(N("n")).ok());
  EXPECT_EQ(Shape("n"), "<unknown>");
}

TEST_F(ShapeRefinerTest, SetShapeMergesIntoTheInferredShape) {
  AddAll({Placeholder("a", PartialTensorShape({2, -1})),
          Def("i", "Identity", {"a"}).Attr("T", DT_FLOAT)});
  InferenceContext* c = refiner_.GetContext(N("a"));
  ASSERT_TRUE(refiner_.SetShape(N("a"), 0, c->Matrix(-1, 5)).ok());
  EXPECT_EQ(Shape("a"), "[2,5]");

  absl::Status s = refiner_.SetShape(N("a"), 0, c->Matrix(3, 5));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Dimension 0 in both shapes must be equal"), std::string::npos) << s;
  EXPECT_NE(s.message().find("{{node a}}"), std::string::npos) << s;

  s = refiner_.SetShape(N("a"), 1, c->Scalar());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "output_port '1' is out of range, node 'a' has 1 outputs");

  // Consumers see the new shape only when updated.
  EXPECT_EQ(Shape("i"), "[2,?]");
  bool refined = false;
  ASSERT_TRUE(refiner_.UpdateNode(N("i"), /*relax=*/false, &refined).ok());
  EXPECT_TRUE(refined);
  EXPECT_EQ(Shape("i"), "[2,5]");
  refined = false;
  ASSERT_TRUE(refiner_.UpdateNode(N("i"), /*relax=*/false, &refined).ok());
  EXPECT_FALSE(refined);
}

TEST_F(ShapeRefinerTest, UpdateNodeWithRelaxWidensInputs) {
  AddAll({Placeholder("a", PartialTensorShape({2, 3})),
          Def("i", "Identity", {"a"}).Attr("T", DT_FLOAT)});
  InferenceContext* c = refiner_.GetContext(N("i"));
  c->SetInput(0, c->Matrix(2, 4));
  bool refined = false;
  ASSERT_TRUE(refiner_.UpdateNode(N("i"), /*relax=*/true, &refined).ok());
  EXPECT_TRUE(refined);
  EXPECT_EQ(Shape("i"), "[2,?]");
}

TEST_F(ShapeRefinerTest, UpdateNodeNeedsItsProducers) {
  ShapeRefiner other(OpRegistry::Global());
  AddAll(
      {Placeholder("a", PartialTensorShape({2})), Def("i", "Identity", {"a"}).Attr("T", DT_FLOAT)});
  bool refined = false;
  // Not yet added to `other`: UpdateNode adds it, which needs nothing of its producer.
  ASSERT_TRUE(other.UpdateNode(N("i"), false, &refined).ok());
  EXPECT_TRUE(refined);
  const absl::Status s = other.UpdateNode(N("i"), false, &refined);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "Input 0 ('a') for 'i' was not previously added to ShapeRefiner.");
}

TEST_F(ShapeRefinerTest, QueriesOnNodesNotAdded) {
  ShapeRefiner other(OpRegistry::Global());
  AddAll({Placeholder("a", PartialTensorShape({2}))});
  EXPECT_EQ(other.GetContext(N("a")), nullptr);
  PartialTensorShape shape;
  absl::Status s = other.GetOutputShape(N("a"), 0, &shape);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "Node 'a' was not added to the ShapeRefiner");
  s = refiner_.GetOutputShape(N("a"), 1, &shape);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Output 1 of node 'a' (op 'Placeholder') is out of range: it has 1 outputs");
  s = other.SetShape(N("a"), 0, ShapeHandle());
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
}

TEST_F(ShapeRefinerTest, ReAddingANodeReplacesItsContext) {
  AddAll(
      {Placeholder("a", PartialTensorShape({2})), Def("i", "Identity", {"a"}).Attr("T", DT_FLOAT)});
  const InferenceContext* before = refiner_.GetContext(N("a"));
  ASSERT_TRUE(refiner_.AddNode(N("a")).ok());
  EXPECT_NE(refiner_.GetContext(N("a")), before);
  // The consumer's input still reads the old context's shape, which stays alive.
  InferenceContext* i = refiner_.GetContext(N("i"));
  EXPECT_EQ(i->DebugString(i->input(0)), "[2]");
  EXPECT_EQ(Shape("a"), "[2]");
}

TEST_F(ShapeRefinerTest, ResourceHandleDataFlowsToConsumers) {
  AttrValue dtypes;
  SetAttrValue({DT_FLOAT}, &dtypes);
  AttrValue shapes;
  SetAttrValue(std::vector<PartialTensorShape>{PartialTensorShape({3})}, &shapes);
  AddAll({Def("arg", "_Arg")
              .Attr("T", DT_RESOURCE)
              .Attr("index", 0)
              .Attr("_handle_dtypes", dtypes)
              .Attr("_handle_shapes", shapes),
          Def("i", "Identity", {"arg"}).Attr("T", DT_RESOURCE)});
  InferenceContext* c = refiner_.GetContext(N("i"));
  const auto* handle_data = c->input_handle_shapes_and_types(0);
  ASSERT_NE(handle_data, nullptr);
  ASSERT_EQ(handle_data->size(), 1);
  EXPECT_EQ((*handle_data)[0].dtype, DT_FLOAT);
  EXPECT_EQ(c->DebugString((*handle_data)[0].shape), "[3]");
}

// ---- RefreshNode ------------------------------------------------------------------------

TEST_F(ShapeRefinerTest, RefreshKeepsTheContextsOfAnUnchangedGraph) {
  AddAll({Placeholder("x", PartialTensorShape({2, 3})), IntConst("s", {3, -1}),
          Def("r", "Reshape", {"x", "s"}).Attr("T", DT_FLOAT)});
  std::vector<const InferenceContext*> before;
  for (const char* name : {"x", "s", "r"}) before.push_back(refiner_.GetContext(N(name)));
  for (const char* name : {"x", "s", "r"}) ASSERT_TRUE(refiner_.RefreshNode(N(name)).ok());
  std::vector<const InferenceContext*> after;
  for (const char* name : {"x", "s", "r"}) after.push_back(refiner_.GetContext(N(name)));
  EXPECT_EQ(after, before);
  EXPECT_EQ(Shape("r"), "[3,2]");
}

// As prune replaces a fed Placeholder by an _Arg of its shape.
TEST_F(ShapeRefinerTest, RefreshKeepsConsumersOfAReplacementWithTheSameShape) {
  AddAll({Placeholder("a", PartialTensorShape({2, 3})), Def("r", "Relu", {"a"}).Attr("T", DT_FLOAT),
          Def("i", "Identity", {"r"}).Attr("T", DT_FLOAT)});
  const InferenceContext* r_before = refiner_.GetContext(N("r"));
  AddAll({Placeholder("b", PartialTensorShape({2, 3}))});
  ASSERT_TRUE(graph_.UpdateEdge(N("b"), 0, N("r"), 0).ok());
  graph_.RemoveNode(N("a"));
  for (const char* name : {"b", "r", "i"}) ASSERT_TRUE(refiner_.RefreshNode(N(name)).ok());
  EXPECT_EQ(refiner_.GetContext(N("r")), r_before);
  EXPECT_EQ(Shape("i"), "[2,3]");

  // Another shape is inferred again, and so is everything below it.
  AddAll({Placeholder("c", PartialTensorShape({4, -1}))});
  ASSERT_TRUE(graph_.UpdateEdge(N("c"), 0, N("r"), 0).ok());
  for (const char* name : {"c", "r", "i"}) ASSERT_TRUE(refiner_.RefreshNode(N(name)).ok());
  EXPECT_NE(refiner_.GetContext(N("r")), r_before);
  EXPECT_EQ(Shape("i"), "[4,?]");
}

TEST_F(ShapeRefinerTest, RefreshReinfersNodesThatReadAChangedValue) {
  // r reads the value of s through i; a new s of the same shape but another value keeps
  // i's shape, not r's.
  AddAll({Placeholder("x", PartialTensorShape({2, 3})), IntConst("s", {3, -1}),
          Def("i", "Identity", {"s"}).Attr("T", DT_INT32),
          Def("r", "Reshape", {"x", "i"}).Attr("T", DT_FLOAT)});
  EXPECT_EQ(Shape("r"), "[3,2]");
  const InferenceContext* i_before = refiner_.GetContext(N("i"));
  AddAll({IntConst("t", {6, -1})});
  ASSERT_TRUE(graph_.UpdateEdge(N("t"), 0, N("i"), 0).ok());
  for (const char* name : {"x", "t", "i", "r"}) ASSERT_TRUE(refiner_.RefreshNode(N(name)).ok());
  EXPECT_EQ(refiner_.GetContext(N("i")), i_before);
  EXPECT_EQ(Shape("r"), "[6,1]");
}

TEST_F(ShapeRefinerTest, RefreshUndoesSetShape) {
  AddAll({Placeholder("a", PartialTensorShape({2, -1}))});
  InferenceContext* c = refiner_.GetContext(N("a"));
  ASSERT_TRUE(refiner_.SetShape(N("a"), 0, c->Matrix(-1, 5)).ok());
  EXPECT_EQ(Shape("a"), "[2,5]");
  ASSERT_TRUE(refiner_.RefreshNode(N("a")).ok());
  EXPECT_EQ(Shape("a"), "[2,?]");
}

TEST_F(ShapeRefinerTest, RefreshAddsNodesNotAddedBefore) {
  AddAll({Placeholder("a", PartialTensorShape({2}))});
  ShapeRefiner other(OpRegistry::Global());
  ASSERT_TRUE(other.RefreshNode(N("a")).ok());
  PartialTensorShape shape;
  ASSERT_TRUE(other.GetOutputShape(N("a"), 0, &shape).ok());
  EXPECT_EQ(shape.DebugString(), "[2]");
}

}  // namespace
}  // namespace sluice
