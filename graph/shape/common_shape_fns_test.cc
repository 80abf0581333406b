// Tests of the common shape functions over known and unknown ranks and dims. Expected shapes
// and messages were produced by TensorFlow 2.21 in graph mode (tf.raw_ops on placeholders),
// except where a comment says otherwise.
#include "graph/shape/common_shape_fns.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace shape_inference {
namespace {

// Test-only ops mirroring TensorFlow's OpDefs; "SiTest" keeps them apart from real ops.
REGISTER_OP("SiTestUnchanged").Input("x: float").Output("y: float").SetShapeFn(UnchangedShape);
REGISTER_OP("SiTestRank2").Input("x: float").Output("y: float").SetShapeFn([](InferenceContext* c) {
  return UnchangedShapeWithRank(c, 2);
});
REGISTER_OP("SiTestRankAtLeast2")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn([](InferenceContext* c) { return UnchangedShapeWithRankAtLeast(c, 2); });
REGISTER_OP("SiTestRankAtMost2")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn([](InferenceContext* c) { return UnchangedShapeWithRankAtMost(c, 2); });
REGISTER_OP("SiTestNoOutputs").Input("x: float").SetShapeFn(NoOutputs);
REGISTER_OP("SiTestScalar").Input("x: float").Output("y: float").SetShapeFn(ScalarShape);
REGISTER_OP("SiTestUnknown").Output("y: float").Output("z: float").SetShapeFn(UnknownShape);
REGISTER_OP("SiTestMergeBoth")
    .Input("x: float")
    .Input("y: float")
    .Output("z: float")
    .SetShapeFn(MergeBothInputsShapeFn);
REGISTER_OP("SiTestExplicitShape")
    .Output("y: float")
    .Attr("shape: shape")
    .SetShapeFn(ExplicitShape);
REGISTER_OP("SiTestExplicitShapes")
    .Output("y: N * float")
    .Attr("N: int >= 1")
    .Attr("shapes: list(shape)")
    .SetShapeFn(ExplicitShapes);
REGISTER_OP("SiTestRandom")
    .Input("shape: T")
    .Output("y: float")
    .Attr("T: {int32, int64}")
    .SetShapeFn(RandomShape);

REGISTER_OP("SiTestAdd")
    .Input("x: float")
    .Input("y: float")
    .Output("z: float")
    .SetShapeFn(BroadcastBinaryOpShapeFn);
REGISTER_OP("SiTestMatMul")
    .Input("a: float")
    .Input("b: float")
    .Output("product: float")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .SetShapeFn(MatMulShape);
REGISTER_OP("SiTestBatchMatMul")
    .Input("x: float")
    .Input("y: float")
    .Output("output: float")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .SetShapeFn(BatchMatMulShape);
REGISTER_OP("SiTestBatchMatMulV2")
    .Input("x: float")
    .Input("y: float")
    .Output("output: float")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .SetShapeFn(BatchMatMulV2Shape);
REGISTER_OP("SiTestBiasAdd")
    .Input("value: float")
    .Input("bias: float")
    .Output("output: float")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(BiasAddShape);
REGISTER_OP("SiTestBiasAddGrad")
    .Input("out_backprop: float")
    .Output("output: float")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(BiasAddGradShape);

REGISTER_OP("SiTestConv2D")
    .Input("input: float")
    .Input("filter: float")
    .Output("output: float")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(Conv2DShapeWithExplicitPadding);
REGISTER_OP("SiTestConv2DNoExplicit")
    .Input("input: float")
    .Input("filter: float")
    .Output("output: float")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(Conv2DShape);
REGISTER_OP("SiTestConv3D")
    .Input("input: float")
    .Input("filter: float")
    .Output("output: float")
    .Attr("strides: list(int) >= 5")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1, 1]")
    .SetShapeFn(Conv3DShape);
REGISTER_OP("SiTestDepthwise")
    .Input("input: float")
    .Input("filter: float")
    .Output("output: float")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dilations: list(int) = [1, 1, 1, 1]")
    .SetShapeFn(DepthwiseConv2DNativeShapeWithExplicitPadding);
REGISTER_OP("SiTestConv2DBackpropInput")
    .Input("input_sizes: int32")
    .Input("filter: float")
    .Input("out_backprop: float")
    .Output("output: float")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(Conv2DBackpropInputShape);
REGISTER_OP("SiTestConv2DBackpropFilter")
    .Input("input: float")
    .Input("filter_sizes: int32")
    .Input("out_backprop: float")
    .Output("output: float")
    .SetShapeFn(Conv2DBackpropFilterShape);

REGISTER_OP("SiTestAvgPool")
    .Input("value: float")
    .Output("output: float")
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(AvgPoolShape);
REGISTER_OP("SiTestMaxPool")
    .Input("input: float")
    .Output("output: float")
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
    .Attr("explicit_paddings: list(int) = []")
    .Attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
    .SetShapeFn(MaxPoolShapeWithExplicitPadding);
REGISTER_OP("SiTestMaxPoolV2")
    .Input("input: float")
    .Input("ksize: int32")
    .Input("strides: int32")
    .Output("output: float")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn([](InferenceContext* c) { return MaxPoolV2Shape(c, 3); });
REGISTER_OP("SiTestMaxPoolV1ViaV2")
    .Input("input: float")
    .Output("output: float")
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .SetShapeFn([](InferenceContext* c) { return MaxPoolV2Shape(c, 3); });
REGISTER_OP("SiTestPool3D")
    .Input("input: float")
    .Output("output: float")
    .Attr("ksize: list(int)")
    .Attr("strides: list(int)")
    .Attr("padding: {'SAME', 'VALID'}")
    .Attr("data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'")
    .SetShapeFn(Pool3DShape);
REGISTER_OP("SiTestAvgPoolGrad")
    .Input("orig_input_shape: int32")
    .Input("grad: float")
    .Output("output: float")
    .SetShapeFn(AvgPoolGradShape);
REGISTER_OP("SiTestMaxPoolGrad")
    .Input("orig_input: float")
    .Output("output: float")
    .SetShapeFn(MaxPoolGradShape);

REGISTER_OP("SiTestFusedBatchNormV3")
    .Input("x: float")
    .Input("scale: float")
    .Input("offset: float")
    .Input("mean: float")
    .Input("variance: float")
    .Output("y: float")
    .Output("batch_mean: float")
    .Output("batch_variance: float")
    .Output("reserve_space_1: float")
    .Output("reserve_space_2: float")
    .Output("reserve_space_3: float")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormV3Shape);
REGISTER_OP("SiTestFusedBatchNormGrad")
    .Input("y_backprop: float")
    .Input("x: float")
    .Input("scale: float")
    .Input("reserve_space_1: float")
    .Input("reserve_space_2: float")
    .Output("x_backprop: float")
    .Output("scale_backprop: float")
    .Output("offset_backprop: float")
    .Output("reserve_space_3: float")
    .Output("reserve_space_4: float")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(FusedBatchNormGradShape);

REGISTER_OP("SiTestSum")
    .Input("input: float")
    .Input("reduction_indices: Tidx")
    .Output("output: float")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);
REGISTER_OP("SiTestConcatV2")
    .Input("values: N * float")
    .Input("axis: Tidx")
    .Output("output: float")
    .Attr("N: int >= 2")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ConcatV2Shape);
REGISTER_OP("SiTestConcat")
    .Input("concat_dim: int32")
    .Input("values: N * float")
    .Output("output: float")
    .Attr("N: int >= 2")
    .SetShapeFn([](InferenceContext* c) { return ConcatShape(c, c->num_inputs() - 1); });
REGISTER_OP("SiTestSlice")
    .Input("input: float")
    .Input("begin: int32")
    .Input("size: int32")
    .Output("output: float")
    .SetShapeFn(SliceShape);
REGISTER_OP("SiTestGatherNd")
    .Input("params: float")
    .Input("indices: int32")
    .Output("output: float")
    .SetShapeFn(GatherNdShape);

Tensor Int32Vector(const std::vector<int32_t>& values) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<int32_t>()(i) = values[i];
  return t;
}

// Builds a NodeDef for an op and runs its shape function.
class Node {
 public:
  explicit Node(const std::string& op) {
    node_.set_name("n");
    node_.set_op(op);
  }
  Node& Str(const std::string& name, const std::string& value) {
    AddNodeAttr(name, value, &node_);
    return *this;
  }
  Node& Ints(const std::string& name, const std::vector<int64_t>& values) {
    AddNodeAttr(name, absl::Span<const int64_t>(values), &node_);
    return *this;
  }
  Node& Int(const std::string& name, int64_t value) {
    AddNodeAttr(name, value, &node_);
    return *this;
  }
  Node& Bool(const std::string& name, bool value) {
    AddNodeAttr(name, value, &node_);
    return *this;
  }
  Node& Float(const std::string& name, float value) {
    AddNodeAttr(name, value, &node_);
    return *this;
  }
  Node& Type(const std::string& name, DataType value) {
    AddNodeAttr(name, value, &node_);
    return *this;
  }

  // Output shapes joined by ';', or "error: <message without the node context>".
  std::string Infer(const std::string& shapes, const std::vector<const Tensor*>& tensors = {}) {
    auto result = InferShapesForTest(node_, shapes, tensors);
    if (result.ok()) return *result;
    const std::string message(result.status().message());
    return "error: " + message.substr(0, message.find(" for '{{node"));
  }

 private:
  NodeDef node_;
};

Node Conv(const std::string& padding, const std::vector<int64_t>& strides) {
  Node n("SiTestConv2D");
  n.Str("padding", padding).Ints("strides", strides);
  return n;
}

// ---- Trivial shape functions -----------------------------------------------------------

TEST(CommonShapeFnsTest, UnchangedAndRankChecks) {
  EXPECT_EQ(Node("SiTestUnchanged").Infer("[1,?]"), "[1,?]");
  EXPECT_EQ(Node("SiTestUnchanged").Infer("?"), "?");
  EXPECT_EQ(Node("SiTestRank2").Infer("?"), "[?,?]");
  EXPECT_EQ(Node("SiTestRank2").Infer("[3]"), "error: Shape must be rank 2 but is rank 1");
  EXPECT_EQ(Node("SiTestRankAtLeast2").Infer("[1,2,3]"), "[1,2,3]");
  EXPECT_EQ(Node("SiTestRankAtLeast2").Infer("?"), "?");
  EXPECT_EQ(Node("SiTestRankAtLeast2").Infer("[3]"),
            "error: Shape must be at least rank 2 but is rank 1");
  EXPECT_EQ(Node("SiTestRankAtMost2").Infer("[]"), "[]");
  EXPECT_EQ(Node("SiTestRankAtMost2").Infer("[1,2,3]"),
            "error: Shape must be at most rank 2 but is rank 3");
  EXPECT_EQ(Node("SiTestNoOutputs").Infer("[1]"), "");
  EXPECT_EQ(Node("SiTestScalar").Infer("[1,2]"), "[]");
  EXPECT_EQ(Node("SiTestUnknown").Infer(""), "?;?");
  EXPECT_EQ(Node("SiTestMergeBoth").Infer("[1,?];[?,2]"), "[1,2]");
  EXPECT_EQ(Node("SiTestMergeBoth").Infer("[1,?];?"), "[1,?]");
  EXPECT_EQ(Node("SiTestMergeBoth").Infer("[1];[2]"),
            "error: Dimension 0 in both shapes must be equal, but are 1 and 2. Shapes are [1] "
            "and [2].");
}

TEST(CommonShapeFnsTest, ExplicitAndRandomShapes) {
  NodeDef node;
  node.set_op("SiTestExplicitShape");
  AddNodeAttr("shape", PartialTensorShape({2, -1}), &node);
  EXPECT_EQ(*InferShapesForTest(node, ""), "[2,?]");
  NodeDef nodes;
  nodes.set_op("SiTestExplicitShapes");
  AddNodeAttr("N", int64_t{2}, &nodes);
  AddNodeAttr("shapes", std::vector<PartialTensorShape>{PartialTensorShape(), {3}}, &nodes);
  EXPECT_EQ(*InferShapesForTest(nodes, ""), "?;[3]");
  AddNodeAttr("N", int64_t{1}, &nodes);
  EXPECT_FALSE(InferShapesForTest(nodes, "").ok());

  Tensor shape = Int32Vector({2, -1, 3});
  Node random("SiTestRandom");
  random.Type("T", DT_INT32);
  EXPECT_EQ(random.Infer("[3]", {&shape}), "[2,?,3]");
  EXPECT_EQ(random.Infer("[3]"), "[?,?,?]");
  Tensor bad = Int32Vector({2, -2, 3});
  EXPECT_EQ(random.Infer("[3]", {&bad}), "error: Invalid value in tensor used for shape: -2");
}

// ---- Broadcasting ----------------------------------------------------------------------

TEST(CommonShapeFnsTest, BroadcastBinaryOp) {
  Node add("SiTestAdd");
  EXPECT_EQ(add.Infer("[2,1,3];[4,1]"), "[2,4,3]");
  EXPECT_EQ(add.Infer("[?,1,3];[4,?]"), "[?,4,3]");
  EXPECT_EQ(add.Infer("[?,5];[?]"), "[?,5]");
  EXPECT_EQ(add.Infer("[?,0];[2,?]"), "[2,?]");
  EXPECT_EQ(add.Infer("[2,3];[4]"), "error: Dimensions must be equal, but are 3 and 4");
  EXPECT_EQ(add.Infer("[2,3];?"), "?");
  EXPECT_EQ(add.Infer("[];[2,3]"), "[2,3]");
  EXPECT_EQ(add.Infer("[1];[]"), "[1]");
  EXPECT_EQ(add.Infer("[0];[1]"), "[0]");
  EXPECT_EQ(add.Infer("[?];[?]"), "[?]");
}

TEST(CommonShapeFnsTest, BroadcastKeepsSameUnknownDim) {
  NodeDef node;
  node.set_op("SiTestAdd");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestAdd", &op_def).ok());
  InferenceContext c(&node, *op_def, {PartialTensorShape({-1}), PartialTensorShape({-1})}, {});
  ASSERT_TRUE(c.construction_status().ok());
  const ShapeHandle x = c.input(0);
  ShapeHandle out;
  ASSERT_TRUE(BroadcastBinaryOpOutputShapeFnHelper(&c, x, x, true, &out).ok());
  EXPECT_TRUE(c.Dim(out, 0).SameHandle(c.Dim(x, 0)));
  // Without incompatible_shape_error, doubtful pairs give an unknown shape instead.
  ASSERT_TRUE(BroadcastBinaryOpOutputShapeFnHelper(&c, c.Vector(3), c.Vector(4), false, &out).ok());
  EXPECT_EQ(c.DebugString(out), "[]");
  ASSERT_TRUE(BroadcastBinaryOpOutputShapeFnHelper(&c, c.Vector(3), c.input(0), false, &out).ok());
  EXPECT_EQ(c.DebugString(out), "?");
  ASSERT_TRUE(BroadcastBinaryOpOutputShapeFn(&c, 0).ok());
  EXPECT_EQ(c.DebugString(c.output(0)), "[?]");
}

// ---- Matrix products and bias ----------------------------------------------------------

TEST(CommonShapeFnsTest, MatMul) {
  EXPECT_EQ(Node("SiTestMatMul").Infer("[2,3];[3,4]"), "[2,4]");
  EXPECT_EQ(Node("SiTestMatMul").Bool("transpose_b", true).Infer("[2,3];[4,3]"), "[2,4]");
  EXPECT_EQ(Node("SiTestMatMul").Bool("transpose_a", true).Infer("[3,2];[3,?]"), "[2,?]");
  EXPECT_EQ(Node("SiTestMatMul").Infer("?;?"), "[?,?]");
  EXPECT_EQ(Node("SiTestMatMul").Infer("[2,3];[4,3]"),
            "error: Dimensions must be equal, but are 3 and 4");
  EXPECT_EQ(Node("SiTestMatMul").Infer("[2,3,4];[3,4]"),
            "error: Shape must be rank 2 but is rank 3");
}

TEST(CommonShapeFnsTest, BatchMatMul) {
  Node v2("SiTestBatchMatMulV2");
  EXPECT_EQ(v2.Infer("[5,1,2,3];[4,3,7]"), "[5,4,2,7]");
  EXPECT_EQ(v2.Infer("[2,3];[3,7]"), "[2,7]");
  EXPECT_EQ(v2.Infer("?;[3,7]"), "?");
  EXPECT_EQ(v2.Infer("[2,3];[4,7]"), "error: Dimensions must be equal, but are 3 and 4");
  EXPECT_EQ(v2.Infer("[2,2,3];[3,3,7]"), "error: Dimensions must be equal, but are 2 and 3");
  EXPECT_EQ(
      Node("SiTestBatchMatMulV2").Bool("adj_x", true).Bool("adj_y", true).Infer("[3,2];[6,7,3]"),
      "[6,2,7]");
  EXPECT_EQ(v2.Infer("[3];[3,7]"), "error: Shape must be at least rank 2 but is rank 1");

  Node v1("SiTestBatchMatMul");
  EXPECT_EQ(v1.Infer("[5,2,3];[5,3,7]"), "[5,2,7]");
  EXPECT_EQ(v1.Infer("[?,2,3];[5,3,?]"), "[5,2,?]");
  EXPECT_EQ(v1.Infer("[5,2,3];[4,3,7]"),
            "error: Dimension 0 in both shapes must be equal, but are 5 and 4. Shapes are [5] "
            "and [4].");
  EXPECT_EQ(v1.Infer("[5,2,3];[3,7]"), "error: Shapes must be equal rank, but are 1 and 0");
}

TEST(CommonShapeFnsTest, BiasAdd) {
  EXPECT_EQ(Node("SiTestBiasAdd").Infer("[2,3,?];[5]"), "[2,3,5]");
  EXPECT_EQ(Node("SiTestBiasAdd").Str("data_format", "NCHW").Infer("[2,?,4];[5]"), "[2,5,4]");
  EXPECT_EQ(Node("SiTestBiasAdd").Infer("[2,3,4];[5]"),
            "error: Dimensions must be equal, but are 4 and 5");
  EXPECT_EQ(Node("SiTestBiasAdd").Infer("?;[5]"), "?");
  EXPECT_EQ(Node("SiTestBiasAdd").Str("data_format", "NCHW").Infer("[2,3];[3]"),
            "error: Shape must be at least rank 3 but is rank 2");
  EXPECT_EQ(Node("SiTestBiasAdd").Infer("[2,3];[3,1]"),
            "error: Shape must be rank 1 but is rank 2");
  EXPECT_EQ(Node("SiTestBiasAddGrad").Infer("[2,3,4]"), "[4]");
  EXPECT_EQ(Node("SiTestBiasAddGrad").Str("data_format", "NCHW").Infer("[2,3,4]"), "[3]");
  EXPECT_EQ(Node("SiTestBiasAddGrad").Infer("?"), "[?]");
}

// ---- Windowed sizes --------------------------------------------------------------------

TEST(CommonShapeFnsTest, GetWindowedOutputSize) {
  NodeDef node;
  node.set_op("SiTestUnknown");
  const OpDef* op_def;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("SiTestUnknown", &op_def).ok());
  InferenceContext c(&node, *op_def, {}, {});
  auto size = [&](int64_t input, int64_t filter, int64_t dilation, int64_t stride, Padding padding,
                  int64_t before, int64_t after) -> std::string {
    DimensionHandle out;
    const absl::Status s = GetWindowedOutputSizeFromDimsV2(&c, c.MakeDim(input), filter, dilation,
                                                           stride, padding, before, after, &out);
    return s.ok() ? c.DebugString(out) : std::string(s.message());
  };
  EXPECT_EQ(size(10, 3, 1, 2, VALID, 0, 0), "4");
  EXPECT_EQ(size(10, 3, 1, 2, SAME, -1, -1), "5");
  EXPECT_EQ(size(11, 3, 2, 3, VALID, 0, 0), "3");
  EXPECT_EQ(size(10, 3, 1, 2, EXPLICIT, 1, 2), "6");
  EXPECT_EQ(size(-1, 3, 1, 2, VALID, 0, 0), "?");
  EXPECT_EQ(size(10, -1, 1, 1, VALID, 0, 0), "?");
  EXPECT_EQ(size(2, 3, 1, 1, VALID, 0, 0),
            "Negative dimension size caused by subtracting 3 from 2");
  EXPECT_EQ(size(10, 3, 1, 0, SAME, 0, 0), "Stride must be > 0, but got 0");
  EXPECT_EQ(size(10, 3, 0, 1, VALID, 0, 0), "Dilation rate must be >= 1, but got 0");
  EXPECT_EQ(size(10, 3, int64_t{1} << 62, 1, VALID, 0, 0),
            "Negative dimension size caused by overflow when multiplying 2 and "
            "4611686018427387904");
  DimensionHandle out;
  EXPECT_TRUE(
      errors::IsInternal(GetWindowedOutputSizeFromDims(&c, c.MakeDim(4), 2, 1, EXPLICIT, &out)));
  ASSERT_TRUE(GetWindowedOutputSizeFromDims(&c, c.MakeDim(4), 2, 1, VALID, &out).ok());
  EXPECT_EQ(c.DebugString(out), "3");

  ShapeHandle shape;
  ASSERT_TRUE(MakeShapeFromFormat(FORMAT_NCHW, 2, {3, 4}, 5, &shape, &c).ok());
  EXPECT_EQ(c.DebugString(shape), "[2,5,3,4]");
  ASSERT_TRUE(MakeShapeFromFormat(FORMAT_NCHW_VECT_C, 2, {3, 4}, 5, &shape, &c).ok());
  EXPECT_EQ(c.DebugString(shape), "[2,5,3,4,4]");
  ASSERT_TRUE(MakeShapeFromFormat(FORMAT_NHWC, c.UnknownDim(), {3}, 5, &shape, &c).ok());
  EXPECT_EQ(c.DebugString(shape), "[?,3,5]");
}

// ---- Convolution -----------------------------------------------------------------------

TEST(CommonShapeFnsTest, Conv2DPaddingsStridesDilations) {
  EXPECT_EQ(Conv("SAME", {1, 2, 2, 1}).Infer("[1,10,11,3];[3,3,3,8]"), "[1,5,6,8]");
  EXPECT_EQ(
      Conv("VALID", {1, 2, 3, 1}).Ints("dilations", {1, 2, 2, 1}).Infer("[1,10,11,3];[3,3,3,8]"),
      "[1,3,3,8]");
  EXPECT_EQ(Conv("EXPLICIT", {1, 2, 2, 1})
                .Ints("explicit_paddings", {0, 0, 1, 2, 3, 4, 0, 0})
                .Infer("[1,10,11,3];[3,3,3,8]"),
            "[1,6,8,8]");
  EXPECT_EQ(Conv("SAME", {1, 1, 2, 2})
                .Str("data_format", "NCHW")
                .Ints("dilations", {1, 1, 2, 1})
                .Infer("[2,3,10,11];[3,3,3,8]"),
            "[2,8,5,6]");
  EXPECT_EQ(Conv("EXPLICIT", {1, 1, 2, 2})
                .Str("data_format", "NCHW")
                .Ints("explicit_paddings", {0, 0, 0, 0, 1, 1, 2, 2})
                .Infer("[2,3,10,11];[3,3,3,8]"),
            "[2,8,5,7]");
  EXPECT_EQ(Conv("SAME", {1, 2, 2, 1}).Infer("[?,?,11,3];?"), "[?,?,6,?]");
  EXPECT_EQ(Conv("SAME", {1, 2, 2, 1}).Infer("?;?"), "[?,?,?,?]");
}

TEST(CommonShapeFnsTest, Conv2DGroupsAndErrors) {
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1}).Infer("[2,10,11,6];[3,3,3,8]"), "[2,8,9,8]");
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1}).Infer("[2,10,11,6];[3,3,4,8]"),
            "error: Depth of input (6) is not a multiple of input depth of filter (4)");
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1}).Infer("[2,10,11,6];[3,3,3,7]"),
            "error: Depth of output (7) is not a multiple of the number of groups (2)");
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1}).Infer("[2,10,11,6];[3,3,0,7]"),
            "error: Depth of filter must not be 0");
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1}).Infer("[2,2,2,3];[3,3,3,8]"),
            "error: Negative dimension size caused by subtracting 3 from 2");
  EXPECT_EQ(Conv("SAME", {1, 2, 1}).Infer("[1,10,11,3];[3,3,3,8]"),
            "error: Conv2D on data format NHWC requires the stride attribute to contain 4 "
            "values, but got: 3");
  EXPECT_EQ(Conv("SAME", {1, 0, 1, 1}).Infer("[1,10,11,3];[3,3,3,8]"),
            "error: Stride must be > 0, but got 0");
  EXPECT_EQ(Conv("SAME", {1, 1, 1, 1}).Ints("dilations", {1, 1}).Infer("[1,10,11,3];[3,3,3,8]"),
            "error: Conv2D requires the dilation attribute to contain 4 values, but got: 2");
  EXPECT_EQ(
      Conv("SAME", {1, 1, 1, 1}).Ints("dilations", {1, 0, 1, 1}).Infer("[1,10,11,3];[3,3,3,8]"),
      "error: Dilation rate must be >= 1, but got 0");
  EXPECT_EQ(Conv("SAME", {1, 1, 1, 1}).Infer("[10,11,3];[3,3,3,8]"),
            "error: Shape must be rank 4 but is rank 3");
  EXPECT_EQ(Conv("SAME", {1, 1, 1, 1}).Str("data_format", "NXYZ").Infer("?;?"),
            "error: Invalid data format string: NXYZ");
}

TEST(CommonShapeFnsTest, Conv2DExplicitPaddingChecks) {
  const std::string shapes = "[1,10,11,3];[3,3,3,8]";
  EXPECT_EQ(Conv("EXPLICIT", {1, 1, 1, 1}).Ints("explicit_paddings", {0, 0, 1, 1}).Infer(shapes),
            "error: explicit_paddings attribute must contain 8 values, but got: 4");
  EXPECT_EQ(Conv("EXPLICIT", {1, 1, 1, 1})
                .Ints("explicit_paddings", {0, 0, 1, -1, 0, 0, 0, 0})
                .Infer(shapes),
            "error: All elements of explicit_paddings must be nonnegative");
  EXPECT_EQ(Conv("EXPLICIT", {1, 1, 1, 1})
                .Ints("explicit_paddings", {1, 0, 0, 0, 0, 0, 0, 0})
                .Infer(shapes),
            "error: Nonzero explicit padding in the batch or depth dimensions is not supported");
  EXPECT_EQ(
      Conv("SAME", {1, 1, 1, 1}).Ints("explicit_paddings", {0, 0, 0, 0, 0, 0, 0, 0}).Infer(shapes),
      "error: explicit_paddings attribute must be empty if the padding attribute is not "
      "EXPLICIT");
  EXPECT_EQ(Node("SiTestConv2DNoExplicit")
                .Str("padding", "EXPLICIT")
                .Ints("strides", {1, 1, 1, 1})
                .Infer(shapes),
            "error: Expected non-explicit padding but got explicit padding");
  EXPECT_EQ(Node("SiTestConv2DNoExplicit")
                .Str("padding", "VALID")
                .Ints("strides", {1, 1, 1, 1})
                .Infer(shapes),
            "[1,8,9,8]");
}

TEST(CommonShapeFnsTest, Conv2DNchwVectC) {
  // Input [N, C/4, H, W, 4], filter OIHW_VECT_I [O, I/4, H, W, 4]: 8 input channels, 12 out.
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1})
                .Str("data_format", "NCHW_VECT_C")
                .Infer("[1,2,10,11,4];[12,2,3,3,4]"),
            "[1,3,8,9,4]");
  EXPECT_EQ(Conv("VALID", {1, 1, 1, 1})
                .Str("data_format", "NCHW_VECT_C")
                .Infer("[1,2,10,11,3];[12,2,3,3,4]"),
            "error: VECT_C dimension must be 4 or 32, but is 3");
}

TEST(CommonShapeFnsTest, Conv3D) {
  EXPECT_EQ(Node("SiTestConv3D")
                .Str("padding", "SAME")
                .Ints("strides", {1, 1, 2, 2, 3})
                .Str("data_format", "NCDHW")
                .Infer("[1,3,10,12,14];[2,3,3,3,8]"),
            "[1,8,5,6,5]");
  // TensorFlow 2.21 infers [1,9,6,10,8] here: its Conv3D shape function swaps the row and
  // column dilations. We keep each dilation on its own dim, as the kernels compute.
  EXPECT_EQ(Node("SiTestConv3D")
                .Str("padding", "VALID")
                .Ints("strides", {1, 1, 1, 1, 1})
                .Ints("dilations", {1, 1, 2, 3, 1})
                .Infer("[1,10,12,14,3];[2,3,3,3,8]"),
            "[1,9,8,8,8]");
  EXPECT_EQ(Node("SiTestConv3D")
                .Str("padding", "SAME")
                .Ints("strides", {1, 1, 1, 1})
                .Infer("[1,10,12,14,3];[2,3,3,3,8]"),
            "error: Conv3D requires the stride attribute to contain 5 values, but got: 4");
  EXPECT_EQ(Node("SiTestConv3D")
                .Str("padding", "SAME")
                .Ints("strides", {1, 1, 1, 1, 1})
                .Infer("[1,10,12,14,4];[2,3,3,3,8]"),
            "error: Depth of input (4) is not a multiple of input depth of filter (3)");
}

TEST(CommonShapeFnsTest, DepthwiseConv2D) {
  EXPECT_EQ(Node("SiTestDepthwise")
                .Str("padding", "SAME")
                .Ints("strides", {1, 2, 2, 1})
                .Infer("[1,10,11,3];[3,3,3,2]"),
            "[1,5,6,6]");
  EXPECT_EQ(Node("SiTestDepthwise")
                .Str("padding", "VALID")
                .Ints("strides", {1, 1, 2, 2})
                .Str("data_format", "NCHW")
                .Ints("dilations", {1, 1, 2, 2})
                .Infer("[1,3,10,11];[3,3,3,2]"),
            "[1,6,3,4]");
  EXPECT_EQ(Node("SiTestDepthwise")
                .Str("padding", "EXPLICIT")
                .Ints("strides", {1, 1, 1, 1})
                .Ints("explicit_paddings", {0, 0, 1, 1, 2, 2, 0, 0})
                .Infer("[1,10,11,3];[3,3,?,2]"),
            "[1,10,13,6]");
  EXPECT_EQ(Node("SiTestDepthwise")
                .Str("padding", "SAME")
                .Ints("strides", {1, 2, 2, 1})
                .Infer("[1,10,11,4];[3,3,3,2]"),
            "error: Dimensions must be equal, but are 4 and 3");
  EXPECT_EQ(Node("SiTestDepthwise")
                .Str("padding", "SAME")
                .Ints("strides", {1, 2})
                .Infer("[1,10,11,3];[3,3,3,2]"),
            "error: DepthwiseConv2D requires the stride attribute to contain 4 values, but got: 2");
}

TEST(CommonShapeFnsTest, Conv2DBackprop) {
  Tensor sizes = Int32Vector({1, 10, 11, 3});
  Node input_grad("SiTestConv2DBackpropInput");
  input_grad.Str("padding", "SAME").Ints("strides", {1, 2, 2, 1});
  EXPECT_EQ(input_grad.Infer("[4];[3,3,3,8];[1,5,6,8]", {&sizes}), "[1,10,11,3]");
  Tensor spatial = Int32Vector({10, 11});
  EXPECT_EQ(input_grad.Infer("[2];[3,3,3,8];[1,5,6,8]", {&spatial}), "[1,10,11,3]");
  EXPECT_EQ(input_grad.Infer("[4];[3,3,3,8];[1,5,6,8]"), "[1,?,?,?]");
  EXPECT_EQ(input_grad.Infer("[4];[3,3,3,8];[1,5,6,7]"),
            "error: Dimensions must be equal, but are 7 and 8");
  Tensor three = Int32Vector({1, 2, 3});
  EXPECT_EQ(input_grad.Infer("[3];[3,3,3,8];[1,5,6,8]", {&three}),
            "error: Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
            "but got: 3");
  Tensor filter_sizes = Int32Vector({3, 3, 3, 8});
  EXPECT_EQ(Node("SiTestConv2DBackpropFilter").Infer("?;[4];?", {nullptr, &filter_sizes}),
            "[3,3,3,8]");
  EXPECT_EQ(Node("SiTestConv2DBackpropFilter").Infer("?;[?];?"), "[?,?,?,?]");
}

// ---- Pooling ---------------------------------------------------------------------------

Node Pool(const std::string& op, const std::string& padding, const std::vector<int64_t>& ksize,
          const std::vector<int64_t>& strides) {
  Node n(op);
  n.Str("padding", padding).Ints("ksize", ksize).Ints("strides", strides);
  return n;
}

TEST(CommonShapeFnsTest, MaxPoolAndAvgPool) {
  EXPECT_EQ(Pool("SiTestMaxPool", "VALID", {1, 3, 3, 1}, {1, 2, 2, 1}).Infer("[1,10,11,3]"),
            "[1,4,5,3]");
  EXPECT_EQ(Pool("SiTestMaxPool", "SAME", {1, 1, 3, 3}, {1, 1, 2, 2})
                .Str("data_format", "NCHW")
                .Infer("[1,3,10,11]"),
            "[1,3,5,6]");
  EXPECT_EQ(Pool("SiTestMaxPool", "VALID", {1, 1, 1, 2}, {1, 1, 1, 2}).Infer("[1,10,11,6]"),
            "[1,10,11,3]");
  EXPECT_EQ(Pool("SiTestMaxPool", "EXPLICIT", {1, 3, 3, 1}, {1, 2, 2, 1})
                .Ints("explicit_paddings", {0, 0, 1, 1, 2, 2, 0, 0})
                .Infer("[1,10,11,3]"),
            "[1,5,7,3]");
  // For NCHW_VECT_C, ksize and strides are laid out as NCHW.
  EXPECT_EQ(Pool("SiTestMaxPool", "VALID", {1, 1, 3, 3}, {1, 1, 2, 2})
                .Str("data_format", "NCHW_VECT_C")
                .Infer("[1,2,10,11,4]"),
            "[1,2,4,5,4]");
  EXPECT_EQ(Pool("SiTestAvgPool", "SAME", {1, 3, 3, 1}, {1, 2, 2, 1}).Infer("[1,10,11,3]"),
            "[1,5,6,3]");
  EXPECT_EQ(Pool("SiTestAvgPool", "SAME", {1, 3, 3, 1}, {1, 2, 2, 1}).Infer("?"), "[?,?,?,?]");
  EXPECT_EQ(Pool("SiTestAvgPool", "SAME", {1, 3, 3}, {1, 2, 2, 1}).Infer("[1,10,11,3]"),
            "error: AvgPool requires the ksize attribute to contain 4 values, but got: 3");
  EXPECT_EQ(Pool("SiTestAvgPool", "SAME", {1, 3, 3, 1}, {1, 2}).Infer("[1,10,11,3]"),
            "error: AvgPool requires the stride attribute to contain 4 values, but got: 2");
  EXPECT_EQ(Pool("SiTestAvgPool", "EXPLICIT", {1, 3, 3, 1}, {1, 2, 2, 1}).Infer("[1,10,11,3]"),
            "error: Expected non-explicit padding but got explicit padding");
  EXPECT_EQ(Pool("SiTestMaxPool", "VALID", {1, 3, 3, 1}, {1, 0, 2, 1}).Infer("[1,10,11,3]"),
            "error: Stride must be > 0, but got 0");
  EXPECT_EQ(Pool("SiTestMaxPool", "VALID", {1, 30, 3, 1}, {1, 1, 1, 1}).Infer("[1,10,11,3]"),
            "error: Negative dimension size caused by subtracting 30 from 10");
}

TEST(CommonShapeFnsTest, MaxPoolV2) {
  Node pool("SiTestMaxPoolV2");
  pool.Str("padding", "VALID");
  Tensor ksize = Int32Vector({1, 3, 3, 1});
  Tensor strides = Int32Vector({1, 2, 2, 1});
  EXPECT_EQ(pool.Infer("[1,10,11,3];[4];[4]", {nullptr, &ksize, &strides}), "[1,4,5,3]");
  EXPECT_EQ(pool.Infer("[1,10,11,3];[4];[4]", {nullptr, &ksize}), "?");
  EXPECT_EQ(pool.Infer("[1,10,11,3];[3];[4]"), "error: Dimension must be 4 but is 3");
  EXPECT_EQ(Pool("SiTestMaxPoolV1ViaV2", "SAME", {1, 3, 3, 1}, {1, 2, 2, 1}).Infer("[1,10,11,3]"),
            "[1,5,6,3]");
}

TEST(CommonShapeFnsTest, Pool3D) {
  EXPECT_EQ(Pool("SiTestPool3D", "VALID", {1, 2, 3, 3, 1}, {1, 2, 2, 3, 1}).Infer("[1,10,11,12,3]"),
            "[1,5,5,4,3]");
  EXPECT_EQ(Pool("SiTestPool3D", "SAME", {1, 1, 2, 2, 2}, {1, 1, 2, 2, 2})
                .Str("data_format", "NCDHW")
                .Infer("[1,3,10,11,12]"),
            "[1,3,5,6,6]");
  EXPECT_EQ(Pool("SiTestPool3D", "SAME", {1, 2, 2, 1}, {1, 1, 1, 1, 1}).Infer("[1,10,11,12,3]"),
            "error: Pool3D requires the ksize attribute to contain 5 values, but got: 4");
  EXPECT_EQ(Pool("SiTestPool3D", "SAME", {1, 2, 2, 2, 1}, {1, 1, 1, 1}).Infer("[1,10,11,12,3]"),
            "error: Pool3D ops require the stride attribute to contain 5 values, but got: 4");
}

TEST(CommonShapeFnsTest, PoolGrads) {
  Tensor shape = Int32Vector({1, 10, 11, 3});
  EXPECT_EQ(Node("SiTestAvgPoolGrad").Infer("[4];?", {&shape}), "[1,10,11,3]");
  Tensor short_shape = Int32Vector({10, 11, 3});
  EXPECT_EQ(Node("SiTestAvgPoolGrad").Infer("[3];?", {&short_shape}),
            "error: Shape must be rank 4 but is rank 3");
  EXPECT_EQ(Node("SiTestMaxPoolGrad").Infer("?"), "[?,?,?,?]");
}

// ---- Fused batch normalization ---------------------------------------------------------

TEST(CommonShapeFnsTest, FusedBatchNorm) {
  EXPECT_EQ(Node("SiTestFusedBatchNormV3").Infer("[2,5,6,3];[?];[3];[0];[0]"),
            "[2,5,6,3];[3];[3];[3];[3];?");
  EXPECT_EQ(Node("SiTestFusedBatchNormV3")
                .Bool("is_training", false)
                .Str("data_format", "NCHW")
                .Infer("[2,?,6,3];[4];[?];[?];[4]"),
            "[2,4,6,3];[4];[4];[4];[4];?");
  EXPECT_EQ(Node("SiTestFusedBatchNormV3").Infer("[2,5,6,3];[4];[3];[0];[0]"),
            "error: Dimensions must be equal, but are 3 and 4");
  // With exponential averaging the mean and variance are read too.
  EXPECT_EQ(Node("SiTestFusedBatchNormV3")
                .Float("exponential_avg_factor", 0.5f)
                .Infer("[2,5,6,3];[3];[3];[0];[0]"),
            "error: Dimensions must be equal, but are 3 and 0");
  EXPECT_EQ(Node("SiTestFusedBatchNormV3")
                .Str("data_format", "NCDHW")
                .Infer("[2,3,4,5,6];[3];[3];[3];[3]"),
            "[2,3,4,5,6];[3];[3];[3];[3];?");
  EXPECT_EQ(Node("SiTestFusedBatchNormGrad").Infer("[2,5,6,3];[2,5,6,?];[3];[3];[?]"),
            "[2,5,6,3];[3];[3];[0];[0]");
  EXPECT_EQ(Node("SiTestFusedBatchNormGrad").Infer("[2,5,6,3];[2,5,6,4];[3];[3];[3]"),
            "error: Dimensions must be equal, but are 3 and 4");
}

// ---- Reductions, concatenation, slicing ------------------------------------------------

TEST(CommonShapeFnsTest, Reduction) {
  Tensor axes = Int32Vector({-1, 0});
  EXPECT_EQ(Node("SiTestSum").Bool("keep_dims", true).Infer("[2,3,4];[2]", {nullptr, &axes}),
            "[1,3,1]");
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3,4];[2]", {nullptr, &axes}), "[3]");
  Tensor scalar_axis(int32_t{1});
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3,4];[]", {nullptr, &scalar_axis}), "[2,4]");
  Tensor repeated = Int32Vector({1, -2});
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3,4];[2]", {nullptr, &repeated}), "[2,4]");
  Tensor bad = Int32Vector({3});
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3,4];[1]", {nullptr, &bad}),
            "error: Invalid reduction dimension 3 for input with 3 dimensions.");
  Tensor too_negative = Int32Vector({-4});
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3,4];[1]", {nullptr, &too_negative}),
            "error: Invalid reduction dimension -4 for input with 3 dimensions.");
  EXPECT_EQ(Node("SiTestSum").Bool("keep_dims", true).Infer("[2,3,4];[?]"), "[?,?,?]");
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3,4];[?]"), "?");
  EXPECT_EQ(Node("SiTestSum").Infer("?;[2]", {nullptr, &axes}), "?");
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3];[1,1]"),
            "error: Shape must be at most rank 1 but is rank 2");
  Tensor empty = Int32Vector({});
  EXPECT_EQ(Node("SiTestSum").Infer("[2,3];[0]", {nullptr, &empty}), "[2,3]");
}

TEST(CommonShapeFnsTest, ConcatV2) {
  Node concat("SiTestConcatV2");
  concat.Int("N", 3);
  Tensor one(int32_t{1});
  EXPECT_EQ(concat.Infer("[2,3];[?,4];[2,?];[]", {nullptr, nullptr, nullptr, &one}), "[2,?]");
  EXPECT_EQ(concat.Infer("[2,3];[?,4];[2,5];[]", {nullptr, nullptr, nullptr, &one}), "[2,12]");
  Node two("SiTestConcatV2");
  two.Int("N", 2);
  Tensor minus_two(int32_t{-2});
  EXPECT_EQ(two.Infer("[2,3];[5,3];[]", {nullptr, nullptr, &minus_two}), "[7,3]");
  Tensor zero(int32_t{0});
  EXPECT_EQ(two.Infer("[2,3];[5,4];[]", {nullptr, nullptr, &zero}),
            "error: Dimension 0 in both shapes must be equal, but are 3 and 4. Shapes are [3] "
            "and [4].");
  Tensor two_axis(int32_t{2});
  EXPECT_EQ(two.Infer("[2,3];[5,3];[]", {nullptr, nullptr, &two_axis}),
            "error: Shape must be at least rank 3 but is rank 2");
  EXPECT_EQ(two.Infer("?;[5,3];[]"), "[?,?]");
  EXPECT_EQ(two.Infer("?;?;[]"), "?");
  EXPECT_EQ(two.Infer("[];[];[]"), "error: Can't concatenate scalars (use tf.stack instead)");
  EXPECT_EQ(two.Infer("[2,3];[5,3,1];[]"), "error: Shape must be rank 2 but is rank 3");
  EXPECT_EQ(two.Infer("[2,3];[5,3];[2]"), "error: Shape must be rank 0 but is rank 1");
  // Issue 25 (found by array_kernels_fuzzer): axis + 1 and -axis overflowed at the extremes.
  Node wide("SiTestConcatV2");
  wide.Int("N", 2).Type("Tidx", DT_INT64);
  for (const int64_t extreme :
       {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    Tensor axis(extreme);
    EXPECT_EQ(wide.Infer("[2,3];[5,3];[]", {nullptr, nullptr, &axis}),
              absl::StrCat("error: Concat axis ", extreme, " is out of range"));
  }
}

TEST(CommonShapeFnsTest, ConcatV1) {
  Node concat("SiTestConcat");
  concat.Int("N", 2);
  Tensor zero(int32_t{0});
  EXPECT_EQ(concat.Infer("[];[2,3];[5,3]", {&zero}), "[7,3]");
  EXPECT_EQ(concat.Infer("[];[2,3];[?,3]", {&zero}), "[?,3]");
}

TEST(CommonShapeFnsTest, Slice) {
  Tensor begin = Int32Vector({1, 2, 3});
  Tensor size = Int32Vector({2, -1, 3});
  Node slice("SiTestSlice");
  EXPECT_EQ(slice.Infer("[5,6,7];[3];[3]", {nullptr, &begin, &size}), "[2,4,3]");
  EXPECT_EQ(slice.Infer("[5,?,7];[3];[3]", {nullptr, &begin, &size}), "[2,?,3]");
  EXPECT_EQ(slice.Infer("[5,6,7];[3];[3]", {nullptr, nullptr, &size}), "[2,?,3]");
  EXPECT_EQ(slice.Infer("[5,6,7];[3];[3]"), "[?,?,?]");
  EXPECT_EQ(slice.Infer("?;[?];[?]"), "?");
  EXPECT_EQ(slice.Infer("[5,6];[3];[3]"), "error: Shape must be rank 3 but is rank 2");
  EXPECT_EQ(slice.Infer("[5,6,7];[3];[2]"),
            "error: Dimension 0 in both shapes must be equal, "
            "but are 3 and 2. Shapes are [3] and [2].");
  // TensorFlow reports this through graph construction's constant folding instead
  // ("Invalid value in tensor used for shape: -2").
  Tensor bad_size = Int32Vector({2, -2, 3});
  EXPECT_EQ(slice.Infer("[5,6,7];[3];[3]", {nullptr, &begin, &bad_size}),
            "error: Out of bounds slicing on dimension 1 of length 6: sizes vector cannot be < "
            "-1, but was -2");
}

TEST(CommonShapeFnsTest, GatherNd) {
  EXPECT_EQ(Node("SiTestGatherNd").Infer("[5,6,7];[4,3,2]"), "[4,3,7]");
  EXPECT_EQ(Node("SiTestGatherNd").Infer("[5,6,7];[4,?]"), "?");
  EXPECT_EQ(Node("SiTestGatherNd").Infer("[5,6];[4,3]"),
            "error: indices.shape[-1] must be <= params.rank, but saw indices shape: [4,3] and "
            "params shape: [5,6]");
  EXPECT_EQ(Node("SiTestGatherNd").Infer("[5,6];[]"),
            "error: Shape must be at least rank 1 but is rank 0");
}

// ---- Padding and tensor formats --------------------------------------------------------

TEST(PaddingTest, ParsesAndChecks) {
  Padding padding;
  ASSERT_TRUE(GetPaddingFromString("SAME", &padding).ok());
  EXPECT_EQ(padding, SAME);
  ASSERT_TRUE(GetPaddingFromString("EXPLICIT", &padding).ok());
  EXPECT_EQ(padding, EXPLICIT);
  EXPECT_EQ(GetPaddingFromString("FULL", &padding).message(),
            "FULL is not an allowed padding type");
  EXPECT_TRUE(CheckValidPadding(VALID, {}, 4, FORMAT_NHWC).ok());
  EXPECT_TRUE(CheckValidPadding(EXPLICIT, {0, 0, 1, 2, 3, 4, 0, 0}, 4, FORMAT_NHWC).ok());
  EXPECT_FALSE(CheckValidPadding(EXPLICIT, {0, 0, 1, 2, 3, 4, 0, 0}, 4, FORMAT_NCHW).ok());
  EXPECT_EQ(GetPaddingAttrStringWithExplicit(), "padding: {'SAME', 'VALID', 'EXPLICIT'}");
}

TEST(TensorFormatTest, IndicesOfEachFormat) {
  TensorFormat format;
  ASSERT_TRUE(FormatFromString("NCDHW", &format));
  EXPECT_EQ(format, FORMAT_NCHW);
  EXPECT_FALSE(FormatFromString("CHWN", &format));
  EXPECT_EQ(ToString(FORMAT_NCHW_VECT_C), "NCHW_VECT_C");
  EXPECT_EQ(ToString(static_cast<TensorFormat>(42)), "INVALID_FORMAT");
  EXPECT_EQ(GetTensorDimIndex(FORMAT_NHWC, 'H', 4), 1);
  EXPECT_EQ(GetTensorDimIndex(FORMAT_NCHW, 'W', 4), 3);
  EXPECT_EQ(GetTensorDimIndex(FORMAT_NHWC, 'H', 5), 2);  // NDHWC: H is the 2nd spatial dim
  EXPECT_EQ(GetTensorDimIndex(FORMAT_NCHW, '0', 5), 2);
  EXPECT_EQ(GetTensorDimIndex(FORMAT_NCHW_VECT_C, 'C', 5), 1);
  EXPECT_EQ(GetTensorDimIndex(FORMAT_HWCN, 'N', 4), 3);
  EXPECT_EQ(GetTensorDimIndex(FORMAT_NHWC, 'X', 4), -1);
  EXPECT_EQ(GetTensorSpatialDimIndex(4, FORMAT_NHWC, 2), -1);
  EXPECT_EQ(GetTensorSpatialDims(5, FORMAT_NCHW_VECT_C), 2);
  EXPECT_EQ(GetTensorSpatialDims(4, static_cast<TensorFormat>(42)), -1);
  FilterTensorFormat filter;
  ASSERT_TRUE(FilterFormatFromString("OHWI", &filter));
  EXPECT_EQ(GetFilterTensorInputChannelsDimIndex(4, filter), 3);
  EXPECT_EQ(GetFilterTensorOutputChannelsDimIndex(4, FORMAT_HWIO), 3);
  EXPECT_EQ(GetFilterTensorSpatialDimIndex(5, FORMAT_OIHW_VECT_I, 1), 3);
  EXPECT_EQ(GetConvnetDataFormatAttrString(), "data_format: { 'NHWC', 'NCHW' } = 'NHWC' ");
}

}  // namespace
}  // namespace shape_inference
}  // namespace sluice
