// Tests of InferenceContext: construction, inputs and outputs, Run's error context, the shape
// algebra, shape tensors and dimension arithmetic. Expected messages are TensorFlow's.
#include "graph/shape/shape_inference.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace shape_inference {
namespace {

// Test-only ops; the "SiTest" prefix keeps them apart from the real registrations.
REGISTER_OP("SiTestTwo").Input("a: T").Input("b: int32").Output("o: T").Attr("T: type");

REGISTER_OP("SiTestLists")
    .Input("xs: N * float")
    .Input("y: float")
    .Output("outs: M * float")
    .Output("z: float")
    .Attr("N: int >= 1")
    .Attr("M: int >= 0");

REGISTER_OP("SiTestNoInputs").Output("o: float");

REGISTER_OP("SiTestRank2")
    .Input("a: T")
    .Input("b: T")
    .Output("o: T")
    .Attr("T: type")
    .Attr("flag: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle a;
      RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &a));
      c->set_output(0, a);
      return absl::OkStatus();
    });

// Reads input 1 as a shape tensor and requires it to merge with input 0.
REGISTER_OP("SiTestShapeTensor")
    .Input("a: float")
    .Input("shape: int32")
    .Output("o: float")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle s;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &s));
      RETURN_IF_ERROR(c->Merge(c->input(0), s, &s));
      c->set_output(0, s);
      return absl::OkStatus();
    });

// Reads input 1 as a scalar dimension and requires input 0's dim 0 to equal it.
REGISTER_OP("SiTestScalarInput")
    .Input("a: float")
    .Input("n: int32")
    .Output("o: float")
    .SetShapeFn([](InferenceContext* c) {
      DimensionHandle n;
      RETURN_IF_ERROR(c->MakeDimForScalarInput(1, &n));
      ShapeHandle a;
      RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &a));
      RETURN_IF_ERROR(c->Merge(c->Dim(a, 0), n, &n));
      c->set_output(0, c->Vector(n));
      return absl::OkStatus();
    });

REGISTER_OP("SiTestForgetsOutput")
    .Input("a: float")
    .Output("o: float")
    .Output("p: float")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(0));
      return absl::OkStatus();
    });

Tensor Int32Vector(const std::vector<int32_t>& values) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<int32_t>()(i) = values[i];
  return t;
}

Tensor Int64Vector(const std::vector<int64_t>& values) {
  Tensor t(DT_INT64, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<int64_t>()(i) = values[i];
  return t;
}

// Owns a NodeDef, its OpDef and a context over them.
class ShapeInferenceTest : public ::testing::Test {
 protected:
  // Builds a context for `node_text` (see NodeDefFromTextForTest) with `shapes` in the
  // test notation.
  InferenceContext* Make(const std::string& node_text, const std::string& shapes,
                         const std::vector<const Tensor*>& tensors = {}) {
    node_ = NodeDefFromTextForTest(node_text);
    const OpRegistrationData* reg;
    EXPECT_TRUE(OpRegistry::Global()->LookUp(node_.op(), &reg).ok());
    AddDefaultsToNodeDef(reg->op_def, &node_);
    op_def_ = reg->op_def;
    auto parsed = ParseShapesForTest(shapes);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    c_ = std::make_unique<InferenceContext>(&node_, op_def_, *parsed, tensors);
    EXPECT_TRUE(c_->construction_status().ok()) << c_->construction_status();
    return c_.get();
  }

  // A context for SiTestTwo with input shapes `shapes` ("a;b").
  InferenceContext* MakeTwo(const std::string& shapes,
                            const std::vector<const Tensor*>& tensors = {}) {
    return Make("name: 'n' op: 'SiTestTwo' attr { key: 'T' value { type: DT_FLOAT } }", shapes,
                tensors);
  }

  std::string S(ShapeHandle s) { return c_->DebugString(s); }
  std::string D(DimensionHandle d) { return c_->DebugString(d); }

  NodeDef node_;
  OpDef op_def_;
  std::unique_ptr<InferenceContext> c_;
};

// ---- Construction and ports ------------------------------------------------------------

TEST_F(ShapeInferenceTest, WrongNumberOfInputsIsAConstructionError) {
  NodeDef node =
      NodeDefFromTextForTest("op: 'SiTestTwo' attr { key: 'T' value { type: DT_FLOAT } }");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestTwo", &op_def).ok());
  InferenceContext c(&node, *op_def, {PartialTensorShape({2})}, {});
  EXPECT_EQ(c.construction_status().message(),
            "Wrong number of inputs passed: 1 while 2 expected based on NodeDef");
  EXPECT_TRUE(errors::IsInvalidArgument(c.Run(nullptr)));
  // Accessors stay safe on a failed context.
  EXPECT_FALSE(InferenceContext::RankKnown(c.input(1)));
  EXPECT_EQ(c.input_tensor(1), nullptr);
}

TEST_F(ShapeInferenceTest, TooManyInputTensorsAndNullNodeDef) {
  NodeDef node =
      NodeDefFromTextForTest("op: 'SiTestTwo' attr { key: 'T' value { type: DT_FLOAT } }");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestTwo", &op_def).ok());
  Tensor t(int32_t{1});
  InferenceContext c(&node, *op_def, {PartialTensorShape(), PartialTensorShape()}, {&t, &t, &t});
  EXPECT_TRUE(errors::IsInvalidArgument(c.construction_status()));
  InferenceContext null_node(nullptr, *op_def, {}, {});
  EXPECT_TRUE(errors::IsInvalidArgument(null_node.construction_status()));
}

TEST_F(ShapeInferenceTest, MissingNumberAttrIsAConstructionError) {
  NodeDef node;
  node.set_name("n");
  node.set_op("SiTestLists");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestLists", &op_def).ok());
  InferenceContext c(&node, *op_def, {}, {});
  EXPECT_FALSE(c.construction_status().ok());
}

TEST_F(ShapeInferenceTest, InputsAndOutputsByIndexAndName) {
  InferenceContext* c =
      Make("op: 'SiTestLists' attr { key: 'N' value { i: 2 } } attr { key: 'M' value { i: 3 } }",
           "[1];[2,?];?");
  EXPECT_EQ(c->num_inputs(), 3);
  EXPECT_EQ(c->num_outputs(), 4);
  EXPECT_EQ(S(c->input(1)), "[2,?]");
  EXPECT_EQ(S(c->input(7)), "?");  // out of range reads as unknown
  EXPECT_EQ(S(c->input(-1)), "?");

  std::vector<ShapeHandle> xs;
  ASSERT_TRUE(c->input("xs", &xs).ok());
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_TRUE(xs[1].SameHandle(c->input(1)));
  ASSERT_TRUE(c->input("y", &xs).ok());
  ASSERT_EQ(xs.size(), 1u);
  EXPECT_EQ(c->input("nope", &xs).message(), "Unknown input name: nope");

  EXPECT_FALSE(c->output(0).IsSet());
  ASSERT_TRUE(c->set_output("outs", {c->Scalar(), c->Vector(2), c->UnknownShape()}).ok());
  EXPECT_EQ(S(c->output(1)), "[2]");
  EXPECT_EQ(c->set_output("outs", {c->Scalar()}).message(), "Must have exactly 3 shapes.");
  EXPECT_EQ(c->set_output("nope", {}).message(), "Unknown output name: nope");
  c->set_output(3, c->Matrix(1, 2));
  c->set_output(9, c->Scalar());  // ignored
  std::vector<ShapeHandle> outs;
  ASSERT_TRUE(c->output("z", &outs).ok());
  EXPECT_EQ(S(outs[0]), "[1,2]");
  EXPECT_FALSE(c->output(9).IsSet());
  EXPECT_EQ(c->output("nope", &outs).message(), "Unknown output name: nope");
}

// The constructor for validated nodes: handles from another context, unset ones unknown,
// and the arg-name ranges (built on first use) agree with the ones built up front.
TEST_F(ShapeInferenceTest, ConstructorFromHandlesForValidatedNodes) {
  InferenceContext* producer = MakeTwo("[2,3];[4]");
  NodeDef node = NodeDefFromTextForTest(
      "name: 'l' op: 'SiTestLists' attr { key: 'N' value { i: 2 } } "
      "attr { key: 'M' value { i: 1 } }");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestLists", &op_def).ok());
  InferenceContext c(node, *op_def, 2, {producer->input(0), ShapeHandle(), producer->input(1)});
  ASSERT_TRUE(c.construction_status().ok());
  EXPECT_EQ(c.num_inputs(), 3);
  EXPECT_EQ(c.num_outputs(), 2);
  EXPECT_TRUE(c.input(0).SameHandle(producer->input(0)));
  EXPECT_EQ(c.DebugString(c.input(0)), "[2,3]");
  EXPECT_TRUE(c.input(1).IsSet());
  EXPECT_FALSE(InferenceContext::RankKnown(c.input(1)));
  EXPECT_EQ(c.input_tensor(2), nullptr);
  EXPECT_TRUE(c.requested_input_tensor(2));

  std::vector<ShapeHandle> xs;
  ASSERT_TRUE(c.input("xs", &xs).ok());
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_TRUE(xs[0].SameHandle(c.input(0)));
  ASSERT_TRUE(c.input("y", &xs).ok());
  EXPECT_EQ(c.DebugString(xs[0]), "[4]");
  EXPECT_EQ(c.input("nope", &xs).message(), "Unknown input name: nope");
  ASSERT_TRUE(c.set_output("outs", {c.Scalar()}).ok());
  EXPECT_EQ(c.set_output("outs", {}).message(), "Must have exactly 1 shapes.");
  c.set_output(1, c.Vector(5));
  std::vector<ShapeHandle> outs;
  ASSERT_TRUE(c.output("z", &outs).ok());
  EXPECT_EQ(c.DebugString(outs[0]), "[5]");
  EXPECT_EQ(c.output("nope", &outs).message(), "Unknown output name: nope");
}

// More shapes and dims than the arena holds inline: earlier handles stay valid.
TEST_F(ShapeInferenceTest, ManyShapesKeepTheirHandles) {
  InferenceContext* c = MakeTwo("?;?");
  std::vector<ShapeHandle> shapes;
  std::vector<DimensionHandle> dims;
  for (int i = 0; i < 100; ++i) {
    dims.push_back(c->MakeDim(i));
    shapes.push_back(c->MakeShape({dims.back(), i + 1}));
  }
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(InferenceContext::Value(dims[i]), i);
    EXPECT_EQ(S(shapes[i]), absl::StrCat("[", i, ",", i + 1, "]"));
    EXPECT_TRUE(InferenceContext::DimKnownRank(shapes[i], 0).SameHandle(dims[i]));
  }
}

TEST_F(ShapeInferenceTest, GetAttrReadsTheNode) {
  InferenceContext* c = Make("op: 'SiTestRank2' attr { key: 'T' value { type: DT_INT32 } }", "?;?");
  DataType t;
  ASSERT_TRUE(c->GetAttr("T", &t).ok());
  EXPECT_EQ(t, DT_INT32);
  bool flag = true;
  ASSERT_TRUE(c->GetAttr("flag", &flag).ok());  // default added
  EXPECT_FALSE(flag);
  std::string missing;
  EXPECT_TRUE(errors::IsNotFound(c->GetAttr("missing", &missing)));
  EXPECT_EQ(c->node_def().name(), "n");
  EXPECT_NE(c->attrs().Find("T"), nullptr);
}

TEST_F(ShapeInferenceTest, InputTensorRecordsRequests) {
  Tensor t = Int32Vector({1, 2});
  InferenceContext* c = MakeTwo("?;[2]", {nullptr, &t});
  EXPECT_FALSE(c->requested_input_tensor(1));
  EXPECT_EQ(c->input_tensor(0), nullptr);
  EXPECT_EQ(c->input_tensor(1), &t);
  EXPECT_TRUE(c->requested_input_tensor(0));
  EXPECT_TRUE(c->requested_input_tensor(1));
  EXPECT_EQ(c->input_tensor(5), nullptr);
  EXPECT_FALSE(c->requested_input_tensor(5));
  c->set_input_tensors({});
  EXPECT_EQ(c->input_tensor(1), nullptr);
}

TEST_F(ShapeInferenceTest, HandleShapesAndTypes) {
  InferenceContext* c = MakeTwo("?;?");
  EXPECT_EQ(c->input_handle_shapes_and_types(0), nullptr);
  c->set_input_handle_shapes_and_types(0, {ShapeAndType(c->Vector(3), DT_FLOAT)});
  ASSERT_NE(c->input_handle_shapes_and_types(0), nullptr);
  EXPECT_EQ((*c->input_handle_shapes_and_types(0))[0].dtype, DT_FLOAT);
  c->set_output_handle_shapes_and_types(0, {ShapeAndType(c->Scalar(), DT_INT32)});
  EXPECT_EQ(S((*c->output_handle_shapes_and_types(0))[0].shape), "[]");
  EXPECT_EQ(c->output_handle_shapes_and_types(3), nullptr);
  c->set_input_handle_shapes_and_types(7, {});  // ignored
}

TEST_F(ShapeInferenceTest, SetMergeAndRelaxInput) {
  InferenceContext* c = MakeTwo("[2,?];?");
  EXPECT_TRUE(c->MergeInput(0, c->Matrix(c->UnknownDim(), 3)));
  EXPECT_EQ(S(c->input(0)), "[2,3]");
  EXPECT_FALSE(c->MergeInput(0, c->UnknownShape()));
  EXPECT_FALSE(c->MergeInput(0, c->Vector(1)));  // incompatible: unchanged
  EXPECT_TRUE(c->RelaxInput(0, c->Matrix(2, 4)));
  EXPECT_EQ(S(c->input(0)), "[2,?]");
  c->SetInput(1, c->Scalar());
  EXPECT_EQ(S(c->input(1)), "[]");
  EXPECT_FALSE(c->MergeInput(9, c->Scalar()));
}

// ---- Run -------------------------------------------------------------------------------

TEST_F(ShapeInferenceTest, RunAttachesNodeAndInputShapes) {
  NodeDef node = NodeDefFromTextForTest(
      "name: 'm' op: 'SiTestRank2' input: 'a' input: 'b' "
      "attr { key: 'T' value { type: DT_FLOAT } }");
  auto result = InferShapesForTest(node, "[2,3,4];[3,4]");
  EXPECT_EQ(result.status().message(),
            "Shape must be rank 2 but is rank 3 for '{{node m}} = SiTestRank2[T=DT_FLOAT, "
            "flag=false](a, b)' with input shapes: [2,3,4], [3,4].");
  EXPECT_EQ(*InferShapesForTest(node, "?;?"), "[?,?]");
}

TEST_F(ShapeInferenceTest, RunReportsComputedInputTensors) {
  NodeDef node = NodeDefFromTextForTest("name: 's' op: 'SiTestScalarInput' input: 'a' input: 'n'");
  Tensor n(int32_t{3});
  EXPECT_EQ(InferShapesForTest(node, "[4];[]", {nullptr, &n}).status().message(),
            "Dimensions must be equal, but are 4 and 3 for '{{node s}} = SiTestScalarInput[](a, "
            "n)' with input shapes: [4], [] and with computed input tensors: input[1] = <3>.");
  EXPECT_EQ(*InferShapesForTest(node, "[3];[]", {nullptr, &n}), "[3]");
  EXPECT_EQ(*InferShapesForTest(node, "[3];[]"), "[3]");
  Tensor negative(int32_t{-2});
  EXPECT_TRUE(absl::StartsWith(
      InferShapesForTest(node, "[3];[]", {nullptr, &negative}).status().message(),
      "Dimension size, given by scalar input 1, must be non-negative but is -2 for"));
}

TEST_F(ShapeInferenceTest, RunReportsShapeTensorsAsPartialShapes) {
  NodeDef node = NodeDefFromTextForTest("name: 'r' op: 'SiTestShapeTensor' input: 'x' input: 's'");
  Tensor shape = Int32Vector({5, -1});
  EXPECT_EQ(InferShapesForTest(node, "[2,3];[2]", {nullptr, &shape}).status().message(),
            "Dimension 0 in both shapes must be equal, but are 2 and 5. Shapes are [2,3] and "
            "[5,?]. for '{{node r}} = SiTestShapeTensor[](x, s)' with input shapes: [2,3], [2] "
            "and with input tensors computed as partial shapes: input[1] = [5,?].");
  EXPECT_EQ(*InferShapesForTest(node, "[5,3];[2]", {nullptr, &shape}), "[5,3]");
}

TEST_F(ShapeInferenceTest, RunWithoutShapeFnGivesUnknownOutputs) {
  InferenceContext* c =
      Make("op: 'SiTestLists' attr { key: 'N' value { i: 1 } } attr { key: 'M' value { i: 2 } }",
           "[1];[2]");
  ASSERT_TRUE(c->Run(nullptr).ok());
  for (int i = 0; i < c->num_outputs(); ++i) EXPECT_EQ(S(c->output(i)), "?");
}

TEST_F(ShapeInferenceTest, RunFailsWhenAnOutputIsNotSet) {
  NodeDef node = NodeDefFromTextForTest("op: 'SiTestForgetsOutput'");
  auto result = InferShapesForTest(node, "[1]");
  EXPECT_TRUE(errors::IsInternal(result.status()));
  EXPECT_TRUE(absl::StrContains(result.status().message(), "did not set output 1"));
}

TEST_F(ShapeInferenceTest, OpWithoutInputs) {
  InferenceContext* c = Make("op: 'SiTestNoInputs'", "");
  EXPECT_EQ(c->num_inputs(), 0);
  EXPECT_EQ(c->num_outputs(), 1);
}

// ---- Reading shapes --------------------------------------------------------------------

TEST_F(ShapeInferenceTest, RankDimAndValue) {
  InferenceContext* c = MakeTwo("[2,?,4];?");
  const ShapeHandle s = c->input(0);
  const ShapeHandle u = c->input(1);
  EXPECT_TRUE(InferenceContext::RankKnown(s));
  EXPECT_FALSE(InferenceContext::RankKnown(u));
  EXPECT_FALSE(InferenceContext::RankKnown(ShapeHandle()));
  EXPECT_EQ(InferenceContext::Rank(s), 3);
  EXPECT_EQ(InferenceContext::Rank(u), InferenceContext::kUnknownRank);
  EXPECT_EQ(InferenceContext::Value(c->Dim(s, 0)), 2);
  EXPECT_EQ(InferenceContext::Value(c->Dim(s, -1)), 4);
  EXPECT_FALSE(InferenceContext::ValueKnown(c->Dim(s, 1)));
  EXPECT_TRUE(c->Dim(s, -3).SameHandle(c->Dim(s, 0)));
  EXPECT_TRUE(InferenceContext::DimKnownRank(s, 2).SameHandle(c->Dim(s, 2)));
  EXPECT_FALSE(InferenceContext::ValueKnown(c->Dim(u, 0)));
  // Out of range (a caller's bug) reads as unknown instead of crashing.
  EXPECT_FALSE(InferenceContext::ValueKnown(c->Dim(s, 3)));
  EXPECT_FALSE(InferenceContext::ValueKnown(InferenceContext::DimKnownRank(s, -4)));
  EXPECT_FALSE(InferenceContext::ValueKnown(InferenceContext::DimKnownRank(u, 0)));
  EXPECT_EQ(InferenceContext::Value(DimensionHandle()), InferenceContext::kUnknownDim);
  EXPECT_EQ(InferenceContext::Value(7), 7);
}

TEST_F(ShapeInferenceTest, FullyDefinedNumElementsAndDebugString) {
  InferenceContext* c = MakeTwo("[2,3];?");
  EXPECT_TRUE(InferenceContext::FullyDefined(c->input(0)));
  EXPECT_FALSE(InferenceContext::FullyDefined(c->input(1)));
  EXPECT_FALSE(InferenceContext::FullyDefined(c->Matrix(1, c->UnknownDim())));
  EXPECT_TRUE(InferenceContext::FullyDefined(c->Scalar()));
  EXPECT_EQ(InferenceContext::Value(c->NumElements(c->input(0))), 6);
  EXPECT_EQ(InferenceContext::Value(c->NumElements(c->Scalar())), 1);
  EXPECT_FALSE(InferenceContext::ValueKnown(c->NumElements(c->input(1))));
  EXPECT_FALSE(InferenceContext::ValueKnown(c->NumElements(c->Vector(c->UnknownDim()))));
  const int64_t big = int64_t{1} << 40;
  EXPECT_FALSE(InferenceContext::ValueKnown(c->NumElements(c->Matrix(big, big))));
  // A 0 dim makes the count 0 even beside unknown dims or an overflowing product.
  EXPECT_EQ(InferenceContext::Value(c->NumElements(c->Matrix(c->UnknownDim(), 0))), 0);
  EXPECT_EQ(InferenceContext::Value(c->NumElements(c->MakeShape({big, big, 0}))), 0);
  EXPECT_EQ(S(c->Matrix(1, c->UnknownDim())), "[1,?]");
  EXPECT_EQ(S(c->UnknownShape()), "?");
  EXPECT_EQ(S(c->Scalar()), "[]");
  EXPECT_EQ(D(c->MakeDim(5)), "5");
  EXPECT_EQ(D(c->UnknownDim()), "?");
}

// Issue 25: shape functions can make shapes of any rank (Fill of a 300-entry shape); their
// conversion for constant folding's size check must fail, not CHECK-fail.
TEST_F(ShapeInferenceTest, AsPartialTensorShapeRejectsRanksAbove254) {
  InferenceContext* c = MakeTwo("[2,?];?");
  PartialTensorShape partial({7});
  std::vector<DimensionHandle> dims(TensorShape::kMaxDims, c->MakeDim(1));
  ASSERT_TRUE(c->AsPartialTensorShape(c->MakeShape(dims), &partial).ok());
  EXPECT_EQ(partial.dims(), TensorShape::kMaxDims);
  dims.push_back(c->UnknownDim());
  const absl::Status s = c->AsPartialTensorShape(c->MakeShape(dims), &partial);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("must have rank at most 254 but has rank 255"), std::string::npos)
      << s;
  EXPECT_EQ(partial.dims(), TensorShape::kMaxDims);  // unchanged
}

TEST_F(ShapeInferenceTest, AsPartialTensorShapeAndProto) {
  InferenceContext* c = MakeTwo("[2,?];?");
  PartialTensorShape partial;
  ASSERT_TRUE(c->AsPartialTensorShape(c->input(0), &partial).ok());
  EXPECT_EQ(ShapeStringForTest(partial), "[2,?]");
  ASSERT_TRUE(c->AsPartialTensorShape(c->input(1), &partial).ok());
  EXPECT_TRUE(partial.unknown_rank());
  const int64_t big = int64_t{1} << 40;
  ASSERT_TRUE(c->AsPartialTensorShape(c->Matrix(big, big), &partial).ok());
  EXPECT_EQ(ShapeStringForTest(partial), "[?,?]");
  TensorShapeProto proto;
  c->ShapeHandleToProto(c->input(0), &proto);
  ASSERT_EQ(proto.dim_size(), 2);
  EXPECT_EQ(proto.dim(0).size(), 2);
  EXPECT_EQ(proto.dim(1).size(), -1);
  c->ShapeHandleToProto(c->input(1), &proto);
  EXPECT_TRUE(proto.unknown_rank());
  EXPECT_EQ(proto.dim_size(), 0);
}

// ---- Rank checks -----------------------------------------------------------------------

TEST_F(ShapeInferenceTest, WithRank) {
  InferenceContext* c = MakeTwo("[2,3];?");
  ShapeHandle out;
  ASSERT_TRUE(c->WithRank(c->input(0), 2, &out).ok());
  EXPECT_TRUE(out.SameHandle(c->input(0)));
  ASSERT_TRUE(c->WithRank(c->input(1), 3, &out).ok());
  EXPECT_EQ(S(out), "[?,?,?]");
  ASSERT_TRUE(c->WithRank(c->input(1), 0, &out).ok());
  EXPECT_EQ(S(out), "[]");
  EXPECT_EQ(c->WithRank(c->input(0), 3, &out).message(), "Shape must be rank 3 but is rank 2");
  EXPECT_FALSE(out.IsSet());
  EXPECT_EQ(c->WithRank(c->input(1), int64_t{1} << 40, &out).message(),
            "Rank cannot exceed kint32max");
  EXPECT_FALSE(c->WithRank(c->input(1), -2, &out).ok());
  EXPECT_FALSE(c->WithRank(c->input(1), 1000000000, &out).ok());
  EXPECT_EQ(S(c->UnknownShapeOfRank(1000000000)), "?");
}

TEST_F(ShapeInferenceTest, WithRankAtLeastAndAtMost) {
  InferenceContext* c = MakeTwo("[2,3];?");
  ShapeHandle out;
  ASSERT_TRUE(c->WithRankAtLeast(c->input(0), 2, &out).ok());
  EXPECT_TRUE(out.SameHandle(c->input(0)));
  ASSERT_TRUE(c->WithRankAtLeast(c->input(1), 5, &out).ok());
  EXPECT_TRUE(out.SameHandle(c->input(1)));
  EXPECT_EQ(c->WithRankAtLeast(c->input(0), 3, &out).message(),
            "Shape must be at least rank 3 but is rank 2");
  ASSERT_TRUE(c->WithRankAtMost(c->input(0), 2, &out).ok());
  EXPECT_TRUE(out.SameHandle(c->input(0)));
  ASSERT_TRUE(c->WithRankAtMost(c->input(1), 0, &out).ok());
  EXPECT_EQ(c->WithRankAtMost(c->input(0), 1, &out).message(),
            "Shape must be at most rank 1 but is rank 2");
  EXPECT_EQ(c->WithRankAtMost(c->input(0), int64_t{1} << 40, &out).message(),
            "Rank cannot exceed kint32max");
  EXPECT_EQ(c->WithRankAtLeast(c->input(0), int64_t{1} << 40, &out).message(),
            "Rank cannot exceed kint32max");
}

TEST_F(ShapeInferenceTest, WithValue) {
  InferenceContext* c = MakeTwo("[2,?];?");
  DimensionHandle out;
  ASSERT_TRUE(c->WithValue(c->Dim(c->input(0), 0), 2, &out).ok());
  EXPECT_TRUE(out.SameHandle(c->Dim(c->input(0), 0)));
  ASSERT_TRUE(c->WithValue(c->Dim(c->input(0), 1), 7, &out).ok());
  EXPECT_EQ(D(out), "7");
  EXPECT_EQ(c->WithValue(c->Dim(c->input(0), 0), 3, &out).message(),
            "Dimension must be 3 but is 2");
}

// ---- Merge and relax -------------------------------------------------------------------

TEST_F(ShapeInferenceTest, MergeDimensions) {
  InferenceContext* c = MakeTwo("[2,?,2,3];?");
  const ShapeHandle s = c->input(0);
  DimensionHandle out;
  ASSERT_TRUE(c->Merge(c->Dim(s, 0), c->Dim(s, 1), &out).ok());
  EXPECT_TRUE(out.SameHandle(c->Dim(s, 0)));
  ASSERT_TRUE(c->Merge(c->Dim(s, 1), c->Dim(s, 0), &out).ok());
  EXPECT_TRUE(out.SameHandle(c->Dim(s, 0)));
  ASSERT_TRUE(c->Merge(c->Dim(s, 0), c->Dim(s, 2), &out).ok());
  EXPECT_TRUE(out.SameHandle(c->Dim(s, 0)));
  EXPECT_EQ(c->Merge(c->Dim(s, 0), c->Dim(s, 3), &out).message(),
            "Dimensions must be equal, but are 2 and 3");
  const DimensionHandle unknown = c->UnknownDim();
  ASSERT_TRUE(c->Merge(unknown, c->UnknownDim(), &out).ok());
  EXPECT_TRUE(out.SameHandle(unknown));
}

TEST_F(ShapeInferenceTest, MergeShapes) {
  InferenceContext* c = MakeTwo("[2,?];?");
  const ShapeHandle s = c->input(0);
  ShapeHandle out;
  ASSERT_TRUE(c->Merge(s, c->input(1), &out).ok());
  EXPECT_TRUE(out.SameHandle(s));
  ASSERT_TRUE(c->Merge(c->input(1), s, &out).ok());
  EXPECT_TRUE(out.SameHandle(s));
  const ShapeHandle more = c->Matrix(2, 5);
  ASSERT_TRUE(c->Merge(s, more, &out).ok());
  EXPECT_TRUE(out.SameHandle(more));
  // Each side knows something the other does not: a new shape.
  const ShapeHandle other = c->Matrix(c->UnknownDim(), 5);
  ASSERT_TRUE(c->Merge(s, other, &out).ok());
  EXPECT_EQ(S(out), "[2,5]");
  EXPECT_FALSE(out.SameHandle(s) || out.SameHandle(other));
  EXPECT_EQ(c->Merge(s, c->Vector(2), &out).message(),
            "Shapes must be equal rank, but are 2 and 1");
  EXPECT_EQ(c->Merge(s, c->Matrix(3, 1), &out).message(),
            "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2,?] and "
            "[3,1].");
}

TEST_F(ShapeInferenceTest, MergePrefix) {
  InferenceContext* c = MakeTwo("[2,?,4];?");
  ShapeHandle s_out;
  ShapeHandle prefix_out;
  ASSERT_TRUE(c->MergePrefix(c->input(0), c->Matrix(c->UnknownDim(), 3), &s_out, &prefix_out).ok());
  EXPECT_EQ(S(s_out), "[2,3,4]");
  EXPECT_EQ(S(prefix_out), "[2,3]");
  ASSERT_TRUE(c->MergePrefix(c->input(1), c->Vector(1), &s_out, &prefix_out).ok());
  EXPECT_TRUE(s_out.SameHandle(c->input(1)));
  EXPECT_EQ(c->MergePrefix(c->input(0), c->Vector(3), &s_out, &prefix_out).message(),
            "Dimensions must be equal, but are 2 and 3");
  EXPECT_EQ(c->MergePrefix(c->Vector(1), c->Matrix(1, 1), &s_out, &prefix_out).message(),
            "Shape must be at least rank 2 but is rank 1");
}

TEST_F(ShapeInferenceTest, Relax) {
  InferenceContext* c = MakeTwo("[2,3];?");
  const ShapeHandle s = c->input(0);
  ShapeHandle out;
  c->Relax(s, c->Matrix(2, 3), &out);
  EXPECT_TRUE(out.SameHandle(s));
  c->Relax(s, c->Matrix(2, 4), &out);
  EXPECT_EQ(S(out), "[2,?]");
  c->Relax(s, c->Vector(2), &out);
  EXPECT_EQ(S(out), "?");
  c->Relax(s, c->input(1), &out);
  EXPECT_EQ(S(out), "?");
  DimensionHandle d;
  c->Relax(c->Dim(s, 0), c->MakeDim(2), &d);
  EXPECT_TRUE(d.SameHandle(c->Dim(s, 0)));
  c->Relax(c->Dim(s, 0), c->Dim(s, 1), &d);
  EXPECT_EQ(D(d), "?");
}

// ---- Subshape, Concatenate, ReplaceDim -------------------------------------------------

TEST_F(ShapeInferenceTest, Subshape) {
  InferenceContext* c = MakeTwo("[1,2,3,4,5];?");
  const ShapeHandle s = c->input(0);
  ShapeHandle out;
  ASSERT_TRUE(c->Subshape(s, 0, &out).ok());
  EXPECT_TRUE(out.SameHandle(s));
  ASSERT_TRUE(c->Subshape(s, 0, 9, &out).ok());
  EXPECT_TRUE(out.SameHandle(s));
  ASSERT_TRUE(c->Subshape(s, 2, &out).ok());
  EXPECT_EQ(S(out), "[3,4,5]");
  EXPECT_TRUE(c->Dim(out, 0).SameHandle(c->Dim(s, 2)));
  ASSERT_TRUE(c->Subshape(s, 1, -1, &out).ok());
  EXPECT_EQ(S(out), "[2,3,4]");
  ASSERT_TRUE(c->Subshape(s, -2, &out).ok());
  EXPECT_EQ(S(out), "[4,5]");
  ASSERT_TRUE(c->Subshape(s, 7, &out).ok());
  EXPECT_EQ(S(out), "[]");
  ASSERT_TRUE(c->Subshape(s, 0, 5, 2, &out).ok());
  EXPECT_EQ(S(out), "[1,3,5]");
  ASSERT_TRUE(c->Subshape(s, -1, -5, -2, &out).ok());
  EXPECT_EQ(S(out), "[5,3]");
  // As in TensorFlow, a negative end cannot reach past the first dim.
  EXPECT_FALSE(c->Subshape(s, -1, -6, -2, &out).ok());
  ASSERT_TRUE(c->Subshape(s, 5, 1, -1, &out).ok());
  EXPECT_EQ(S(out), "[5,4,3]");
  ASSERT_TRUE(c->Subshape(c->input(1), 1, 3, &out).ok());
  EXPECT_EQ(S(out), "?");
  ASSERT_TRUE(c->Subshape(c->input(1), 0, &out).ok());
  EXPECT_TRUE(out.SameHandle(c->input(1)));

  EXPECT_EQ(c->Subshape(s, -6, &out).message(),
            "Subshape start out of bounds: -6, for shape with rank 5");
  EXPECT_EQ(c->Subshape(s, 0, -6, &out).message(),
            "Subshape end out of bounds: -6, for shape with rank 5");
  EXPECT_EQ(c->Subshape(s, 3, 2, &out).message(),
            "Subshape must have computed start <= end, but is 3 and 2 (computed from start 3 "
            "and end 2 over shape with rank 5)");
  EXPECT_EQ(c->Subshape(s, 1, 3, -1, &out).message(),
            "Subshape must have computed start >= end since stride is negative, but is 1 and 3 "
            "(computed from start 1 and end 3 over shape with rank 5 and stride-1)");
  EXPECT_EQ(c->Subshape(s, 1, 3, 0, &out).message(), "Subshape stride must be non-zero");
}

TEST_F(ShapeInferenceTest, ConcatenateAndReplaceDim) {
  InferenceContext* c = MakeTwo("[1,2];?");
  ShapeHandle out;
  ASSERT_TRUE(c->Concatenate(c->input(0), c->Vector(3), &out).ok());
  EXPECT_EQ(S(out), "[1,2,3]");
  EXPECT_TRUE(c->Dim(out, 1).SameHandle(c->Dim(c->input(0), 1)));
  ASSERT_TRUE(c->Concatenate(c->input(0), c->input(1), &out).ok());
  EXPECT_EQ(S(out), "?");
  ASSERT_TRUE(c->ReplaceDim(c->input(0), -1, c->MakeDim(7), &out).ok());
  EXPECT_EQ(S(out), "[1,7]");
  ASSERT_TRUE(c->ReplaceDim(c->input(0), 0, c->UnknownDim(), &out).ok());
  EXPECT_EQ(S(out), "[?,2]");
  ASSERT_TRUE(c->ReplaceDim(c->input(1), 5, c->MakeDim(7), &out).ok());
  EXPECT_EQ(S(out), "?");
  EXPECT_EQ(c->ReplaceDim(c->input(0), 2, c->MakeDim(7), &out).message(),
            "Out of range dim_index 2 for shape with 2 dimensions");
  EXPECT_EQ(c->ReplaceDim(c->input(0), -3, c->MakeDim(7), &out).message(),
            "Out of range dim_index -3 for shape with 2 dimensions");
}

// ---- Making shapes ---------------------------------------------------------------------

TEST_F(ShapeInferenceTest, MakeShapes) {
  InferenceContext* c = MakeTwo("[4];?");
  const DimensionHandle d = c->Dim(c->input(0), 0);
  const ShapeHandle s = c->MakeShape({d, 3, c->UnknownDim()});
  EXPECT_EQ(S(s), "[4,3,?]");
  EXPECT_TRUE(c->Dim(s, 0).SameHandle(d));
  EXPECT_EQ(S(c->MakeShape(std::vector<DimensionHandle>{d, DimensionHandle()})), "[4,?]");
  EXPECT_EQ(S(c->UnknownShapeOfRank(2)), "[?,?]");
  EXPECT_EQ(S(c->UnknownShapeOfRank(InferenceContext::kUnknownRank)), "?");
  EXPECT_EQ(S(c->Vector(d)), "[4]");
  EXPECT_EQ(S(c->Matrix(1, d)), "[1,4]");
  EXPECT_TRUE(c->MakeDim(d).SameHandle(d));
  EXPECT_EQ(D(c->MakeDim(-5)), "?");  // below -1 reads as unknown
}

TEST_F(ShapeInferenceTest, MakeShapeFromProtoPartialAndTensorShape) {
  InferenceContext* c = MakeTwo("?;?");
  ShapeHandle out;
  TensorShapeProto proto;
  proto.add_dim()->set_size(3);
  proto.add_dim()->set_size(-1);
  ASSERT_TRUE(c->MakeShapeFromShapeProto(proto, &out).ok());
  EXPECT_EQ(S(out), "[3,?]");
  proto.set_unknown_rank(true);
  EXPECT_TRUE(errors::IsInvalidArgument(c->MakeShapeFromShapeProto(proto, &out)));
  proto.clear_dim();
  ASSERT_TRUE(c->MakeShapeFromShapeProto(proto, &out).ok());
  EXPECT_EQ(S(out), "?");
  TensorShapeProto negative;
  negative.add_dim()->set_size(-2);
  EXPECT_TRUE(errors::IsInvalidArgument(c->MakeShapeFromShapeProto(negative, &out)));

  ASSERT_TRUE(c->MakeShapeFromPartialTensorShape(PartialTensorShape({-1, 2}), &out).ok());
  EXPECT_EQ(S(out), "[?,2]");
  ASSERT_TRUE(c->MakeShapeFromPartialTensorShape(PartialTensorShape(), &out).ok());
  EXPECT_EQ(S(out), "?");
  ASSERT_TRUE(c->MakeShapeFromTensorShape(TensorShape({5, 0}), &out).ok());
  EXPECT_EQ(S(out), "[5,0]");
}

// ---- Shape tensors and scalar inputs ---------------------------------------------------

TEST_F(ShapeInferenceTest, MakeShapeFromShapeTensorKnownValues) {
  Tensor int32_shape = Int32Vector({3, -1, 0});
  InferenceContext* c = MakeTwo("?;[3]", {nullptr, &int32_shape});
  ShapeHandle out;
  ASSERT_TRUE(c->MakeShapeFromShapeTensor(1, &out).ok());
  EXPECT_EQ(S(out), "[3,?,0]");
  EXPECT_TRUE(c->requested_input_tensor(1));
  EXPECT_TRUE(c->requested_input_tensor_as_partial_shape(1));

  Tensor int64_shape = Int64Vector({int64_t{1} << 40, 2});
  c = MakeTwo("?;[2]", {nullptr, &int64_shape});
  ASSERT_TRUE(c->MakeShapeFromShapeTensor(1, &out).ok());
  EXPECT_EQ(S(out), "[1099511627776,2]");
}

TEST_F(ShapeInferenceTest, MakeShapeFromShapeTensorUnknownValues) {
  InferenceContext* c = MakeTwo("?;[3]");
  ShapeHandle out;
  ASSERT_TRUE(c->MakeShapeFromShapeTensor(1, &out).ok());
  EXPECT_EQ(S(out), "[?,?,?]");
  c = MakeTwo("?;[?]");
  ASSERT_TRUE(c->MakeShapeFromShapeTensor(1, &out).ok());
  EXPECT_EQ(S(out), "?");
  c = MakeTwo("?;?");
  ASSERT_TRUE(c->MakeShapeFromShapeTensor(1, &out).ok());
  EXPECT_EQ(S(out), "?");
  c = MakeTwo("?;[100000000]");
  EXPECT_TRUE(errors::IsInvalidArgument(c->MakeShapeFromShapeTensor(1, &out)));
}

TEST_F(ShapeInferenceTest, MakeShapeFromShapeTensorErrors) {
  ShapeHandle out;
  InferenceContext* c = MakeTwo("?;[2,2]");
  EXPECT_EQ(c->MakeShapeFromShapeTensor(1, &out).message(), "Shape must be rank 1 but is rank 2");
  Tensor negative = Int32Vector({2, -2});
  c = MakeTwo("?;[2]", {nullptr, &negative});
  EXPECT_EQ(c->MakeShapeFromShapeTensor(1, &out).message(),
            "Invalid value in tensor used for shape: -2");
  Tensor floats(DT_FLOAT, TensorShape({2}));
  c = MakeTwo("?;[2]", {nullptr, &floats});
  EXPECT_EQ(c->MakeShapeFromShapeTensor(1, &out).message(),
            "Input tensor must be int32 or int64, but was float");
  Tensor matrix(DT_INT32, TensorShape({1, 2}));
  EXPECT_EQ(c->MakeShapeFromTensor(&matrix, c->Vector(2), &out).message(),
            "Input tensor must be rank 1, but was rank 2. Saw tensor shape [1,2]");
}

TEST_F(ShapeInferenceTest, MakeShapeFromShapeTensorUsesPartialShapes) {
  NodeDef node =
      NodeDefFromTextForTest("op: 'SiTestTwo' attr { key: 'T' value { type: DT_FLOAT } }");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestTwo", &op_def).ok());
  InferenceContext c(&node, *op_def, {PartialTensorShape(), PartialTensorShape({2})}, {},
                     {PartialTensorShape(), PartialTensorShape({-1, 4})});
  ASSERT_TRUE(c.construction_status().ok());
  ShapeHandle out;
  ASSERT_TRUE(c.MakeShapeFromShapeTensor(1, &out).ok());
  EXPECT_EQ(c.DebugString(out), "[?,4]");
  EXPECT_FALSE(c.requested_input_tensor(1));
  EXPECT_TRUE(c.requested_input_tensor_as_partial_shape(1));
}

TEST_F(ShapeInferenceTest, TreatScalarAsUnknownShape) {
  ShapeHandle out;
  Tensor minus_one(int32_t{-1});
  InferenceContext* c = MakeTwo("?;[]", {nullptr, &minus_one});
  ASSERT_TRUE(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(1, &out).ok());
  EXPECT_EQ(S(out), "?");
  Tensor five(int32_t{5});
  c = MakeTwo("?;[]", {nullptr, &five});
  EXPECT_EQ(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(1, &out).message(),
            "Input tensor must be rank 1, or if its rank 0 it must have value -1 (representing "
            "an unknown shape).  Saw value: 5");
  c = MakeTwo("?;[]");
  ASSERT_TRUE(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(1, &out).ok());
  EXPECT_EQ(S(out), "?");
  Tensor vector = Int32Vector({2, 3});
  c = MakeTwo("?;[2]", {nullptr, &vector});
  ASSERT_TRUE(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(1, &out).ok());
  EXPECT_EQ(S(out), "[2,3]");
  c = MakeTwo("?;[2,2]");
  EXPECT_EQ(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(1, &out).message(),
            "Shape must be at most rank 1 but is rank 2");
}

TEST_F(ShapeInferenceTest, GetScalarFromTensor) {
  InferenceContext* c = MakeTwo("?;?");
  int64_t value;
  Tensor i32(int32_t{7});
  ASSERT_TRUE(c->GetScalarFromTensor(&i32, &value).ok());
  EXPECT_EQ(value, 7);
  Tensor i64(int64_t{1} << 40);
  ASSERT_TRUE(c->GetScalarFromTensor(&i64, &value).ok());
  EXPECT_EQ(value, int64_t{1} << 40);
  Tensor vec = Int32Vector({1, 2});
  EXPECT_EQ(c->GetScalarFromTensor(&vec, &value).message(), "Input must be scalar but has rank 1");
  Tensor f(1.0f);
  EXPECT_EQ(c->GetScalarFromTensor(&f, &value).message(), "Scalar input must be int32 or int64.");
  EXPECT_TRUE(errors::IsInvalidArgument(c->GetScalarFromTensor(nullptr, &value)));

  ASSERT_TRUE(c->GetScalarFromTensor(&vec, 1, &value).ok());
  EXPECT_EQ(value, 2);
  EXPECT_EQ(c->GetScalarFromTensor(&vec, 2, &value).message(),
            "Invalid index 2 for Tensor of size 2");
  EXPECT_EQ(c->GetScalarFromTensor(&i32, 0, &value).message(), "Input must be 1D but has rank 0");
}

TEST_F(ShapeInferenceTest, MakeDimForScalarInputWithNegativeIndexing) {
  Tensor minus_one(int32_t{-1});
  InferenceContext* c = MakeTwo("?;[]", {nullptr, &minus_one});
  DimensionHandle out;
  ASSERT_TRUE(c->MakeDimForScalarInputWithNegativeIndexing(1, 3, &out).ok());
  EXPECT_EQ(D(out), "2");
  ASSERT_TRUE(c->MakeDimForScalarInputWithNegativeIndexing(1, -1, &out).ok());
  EXPECT_EQ(D(out), "?");
  EXPECT_EQ(c->MakeDimForScalarInputWithNegativeIndexing(1, 0, &out).message(),
            "Dimension size, given by scalar input -1 must be in range [-0, 0)");
  Tensor three(int32_t{3});
  c = MakeTwo("?;[]", {nullptr, &three});
  EXPECT_EQ(c->MakeDimForScalarInputWithNegativeIndexing(1, 3, &out).message(),
            "Dimension size, given by scalar input 3 must be in range [-3, 3)");
  c = MakeTwo("?;[]");
  ASSERT_TRUE(c->MakeDimForScalarInputWithNegativeIndexing(1, 3, &out).ok());
  EXPECT_EQ(D(out), "?");
}

// ---- Dimension arithmetic --------------------------------------------------------------

TEST_F(ShapeInferenceTest, AddAndSubtract) {
  InferenceContext* c = MakeTwo("[0,5,?];?");
  const ShapeHandle s = c->input(0);
  const DimensionHandle zero = c->Dim(s, 0);
  const DimensionHandle five = c->Dim(s, 1);
  const DimensionHandle unknown = c->Dim(s, 2);
  DimensionHandle out;
  ASSERT_TRUE(c->Add(five, 3, &out).ok());
  EXPECT_EQ(D(out), "8");
  ASSERT_TRUE(c->Add(five, 0, &out).ok());
  EXPECT_TRUE(out.SameHandle(five));
  ASSERT_TRUE(c->Add(zero, five, &out).ok());
  EXPECT_TRUE(out.SameHandle(five));
  ASSERT_TRUE(c->Add(five, unknown, &out).ok());
  EXPECT_EQ(D(out), "?");
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(c->Add(five, max, &out).message(),
            "Dimension size overflow from adding 5 and 9223372036854775807");

  ASSERT_TRUE(c->Subtract(five, 2, &out).ok());
  EXPECT_EQ(D(out), "3");
  ASSERT_TRUE(c->Subtract(five, 0, &out).ok());
  EXPECT_TRUE(out.SameHandle(five));
  ASSERT_TRUE(c->Subtract(unknown, 2, &out).ok());
  EXPECT_EQ(D(out), "?");
  EXPECT_EQ(c->Subtract(five, 6, &out).message(),
            "Negative dimension size caused by subtracting 6 from 5");
}

TEST_F(ShapeInferenceTest, MultiplyAndDivide) {
  InferenceContext* c = MakeTwo("[0,1,6,?];?");
  const ShapeHandle s = c->input(0);
  const DimensionHandle zero = c->Dim(s, 0);
  const DimensionHandle one = c->Dim(s, 1);
  const DimensionHandle six = c->Dim(s, 2);
  const DimensionHandle unknown = c->Dim(s, 3);
  DimensionHandle out;
  ASSERT_TRUE(c->Multiply(six, 7, &out).ok());
  EXPECT_EQ(D(out), "42");
  ASSERT_TRUE(c->Multiply(zero, unknown, &out).ok());
  EXPECT_TRUE(out.SameHandle(zero));
  ASSERT_TRUE(c->Multiply(unknown, 0, &out).ok());
  EXPECT_EQ(D(out), "0");
  ASSERT_TRUE(c->Multiply(one, unknown, &out).ok());
  EXPECT_TRUE(out.SameHandle(unknown));
  ASSERT_TRUE(c->Multiply(unknown, 1, &out).ok());
  EXPECT_TRUE(out.SameHandle(unknown));
  ASSERT_TRUE(c->Multiply(six, unknown, &out).ok());
  EXPECT_EQ(D(out), "?");
  const int64_t big = int64_t{1} << 62;
  EXPECT_EQ(c->Multiply(six, big, &out).message(),
            "Negative dimension size caused by overflow when multiplying 6 and "
            "4611686018427387904");

  ASSERT_TRUE(c->Divide(six, 4, false, &out).ok());
  EXPECT_EQ(D(out), "1");
  ASSERT_TRUE(c->Divide(six, 3, true, &out).ok());
  EXPECT_EQ(D(out), "2");
  ASSERT_TRUE(c->Divide(six, 1, true, &out).ok());
  EXPECT_TRUE(out.SameHandle(six));
  ASSERT_TRUE(c->Divide(unknown, 4, true, &out).ok());
  EXPECT_EQ(D(out), "?");
  ASSERT_TRUE(c->Divide(six, unknown, true, &out).ok());
  EXPECT_EQ(D(out), "?");
  EXPECT_EQ(c->Divide(six, 4, true, &out).message(),
            "Dimension size must be evenly divisible by 4 but is 6");
  EXPECT_EQ(c->Divide(six, 0, false, &out).message(), "Divisor must be positive but is 0");
  EXPECT_EQ(c->Divide(six, -1, false, &out).message(), "Divisor must be positive but is -1");
}

TEST_F(ShapeInferenceTest, MinAndMax) {
  InferenceContext* c = MakeTwo("[0,3,?];?");
  const ShapeHandle s = c->input(0);
  const DimensionHandle zero = c->Dim(s, 0);
  const DimensionHandle three = c->Dim(s, 1);
  const DimensionHandle unknown = c->Dim(s, 2);
  DimensionHandle out;
  ASSERT_TRUE(c->Min(three, 5, &out).ok());
  EXPECT_TRUE(out.SameHandle(three));
  ASSERT_TRUE(c->Min(three, 2, &out).ok());
  EXPECT_EQ(D(out), "2");
  ASSERT_TRUE(c->Min(zero, unknown, &out).ok());
  EXPECT_TRUE(out.SameHandle(zero));
  ASSERT_TRUE(c->Min(unknown, 0, &out).ok());
  EXPECT_EQ(D(out), "0");
  ASSERT_TRUE(c->Min(three, unknown, &out).ok());
  EXPECT_EQ(D(out), "?");
  ASSERT_TRUE(c->Max(three, 5, &out).ok());
  EXPECT_EQ(D(out), "5");
  ASSERT_TRUE(c->Max(three, 2, &out).ok());
  EXPECT_TRUE(out.SameHandle(three));
  ASSERT_TRUE(c->Max(zero, unknown, &out).ok());
  EXPECT_EQ(D(out), "?");
}

// ---- The test helper itself ------------------------------------------------------------

TEST(ShapeInferenceTestutilTest, ParsesAndFormatsShapes) {
  EXPECT_EQ(ShapeStringForTest(*ParseShapeForTest(" [ 2 , ? ] ")), "[2,?]");
  EXPECT_EQ(ShapeStringForTest(*ParseShapeForTest("[]")), "[]");
  EXPECT_TRUE(ParseShapeForTest("?")->unknown_rank());
  EXPECT_FALSE(ParseShapeForTest("[2").ok());
  EXPECT_FALSE(ParseShapeForTest("[-2]").ok());
  EXPECT_FALSE(ParseShapeForTest("[x]").ok());
  EXPECT_EQ(ParseShapesForTest("[1];?;[]")->size(), 3u);
  EXPECT_TRUE(ParseShapesForTest("")->empty());
  NodeDef node =
      NodeDefFromTextForTest("op: 'SiTestTwo' attr { key: 'T' value { type: DT_FLOAT } }");
  EXPECT_EQ(node.name(), "n");
  ASSERT_EQ(node.input_size(), 2);
  EXPECT_EQ(node.input(1), "in1");
  EXPECT_TRUE(errors::IsNotFound(
      InferShapesForTest(NodeDefFromTextForTest("op: 'SiTestNope'"), "").status()));
  EXPECT_FALSE(InferShapesForTest(node, "[1]").ok());
}

}  // namespace
}  // namespace shape_inference
}  // namespace sluice
