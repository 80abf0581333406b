// Shape functions of the training ops (training_ops.cc): the variable and its slots must
// agree, hyperparameters are scalars, grad has the variable's shape (dense) or its rows'
// (sparse, with a vector of indices); the ref forms output the variable's shape.
#include <string>
#include <vector>

#include "graph/core/partial_tensor_shape.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/ops/ops_test_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape/shape_inference_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;

TEST(ApplyShapeTest, VariableShapeMergedWithItsSlotsAndGrad) {
  EXPECT_EQ(Infer("ApplyGradientDescent", "T=DT_FLOAT", "[2,?];[];[?,3]"), "[2,3]");
  EXPECT_EQ(Infer("ApplyGradientDescent", "T=DT_DOUBLE", "?;?;[4]"), "[4]");
  EXPECT_EQ(Infer("ApplyAdam", "T=DT_FLOAT", "[2,?];[?,3];?;[];[];[];[];[];[];?"), "[2,3]");
  EXPECT_EQ(Infer("ApplyCenteredRMSProp", "T=DT_HALF", "?;?;?;[5];[];[];[];[];?"), "[5]");
  EXPECT_EQ(Infer("ApplyFtrlV2", "T=DT_FLOAT", "[3];?;?;?;[];[];[];[];[]"), "[3]");
  EXPECT_EQ(Infer("ApplyAdagradDA", "T=DT_FLOAT", "[3];?;?;[3];[];[];[];[]"), "[3]");
  EXPECT_EQ(Infer("ApplyMomentum", "T=DT_FLOAT, use_nesterov=true", "[2];[2];[];[2];[]"), "[2]");
  EXPECT_THAT(Infer("ApplyAdagrad", "T=DT_FLOAT", "[2];[3];[];[2]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("ApplyRMSProp", "T=DT_FLOAT", "[2];[2];[2];[];[];[];[];[2,1]"),
              IsInvalidArgument("Shapes must be equal rank"));
  EXPECT_THAT(Infer("ApplyAdadelta", "T=DT_FLOAT", "[2];[2];[2,2];[];[];[];[2]"),
              IsInvalidArgument("Shapes must be equal rank"));
}

TEST(ApplyShapeTest, HyperparametersAreScalars) {
  EXPECT_THAT(Infer("ApplyGradientDescent", "T=DT_FLOAT", "[2];[1];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("ApplyAdam", "T=DT_FLOAT", "[2];[2];[2];[];[];[];[];[];[2];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("ApplyFtrl", "T=DT_FLOAT", "[2];[2];[2];[2];[];[];[];[1,1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 2"));
  EXPECT_THAT(Infer("ApplyAdagradDA", "T=DT_DOUBLE", "[2];[2];[2];[2];[];[];[];[3]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("ApplyPowerSign", "T=DT_FLOAT", "[2];[2];[];[];[2];[];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
}

TEST(ApplyShapeTest, ResourceFormsHaveNoOutputAndUnknownVariables) {
  EXPECT_EQ(Infer("ResourceApplyGradientDescent", "T=DT_FLOAT", "[];[];[2,3]"), "");
  EXPECT_EQ(Infer("ResourceApplyAdam", "T=DT_FLOAT", "[];[];[];[];[];[];[];[];[];[7]"), "");
  EXPECT_EQ(Infer("ResourceApplyKerasMomentum", "T=DT_FLOAT", "[];[];[];[4];[]"), "");
  EXPECT_THAT(Infer("ResourceApplyMomentum", "T=DT_FLOAT", "[];[];[];[4];[4]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  // TensorFlow's shape function of this one reads its resource inputs as refs: the handles'
  // scalar shape stands for the variable's.
  EXPECT_THAT(Infer("ResourceApplyProximalAdagrad", "T=DT_FLOAT", "[];[];[];[];[];[3]"),
              IsInvalidArgument("Shapes must be equal rank"));
  EXPECT_EQ(Infer("ResourceApplyProximalAdagrad", "T=DT_FLOAT", "[];[];[];[];[];[]"), "");
}

TEST(SparseApplyShapeTest, GradRowsMatchIndicesAndVariableRows) {
  EXPECT_EQ(
      Infer("SparseApplyAdagrad", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[5,?];[];[2,?];[2]"),
      "[5,3]");
  EXPECT_EQ(
      Infer("SparseApplyMomentum", "T=DT_FLOAT, Tindices=DT_INT64", "[?,4];?;[];[?,?];[7];[]"),
      "[?,4]");
  EXPECT_EQ(Infer("SparseApplyFtrlV2", "T=DT_FLOAT, Tindices=DT_INT32",
                  "[5];[5];[5];[3];[3];[];[];[];[];[]"),
            "[5]");
  EXPECT_EQ(Infer("ResourceSparseApplyAdagradV2", "T=DT_FLOAT, Tindices=DT_INT32",
                  "[];[];[];[];[2,8];[2]"),
            "");
  EXPECT_THAT(
      Infer("SparseApplyAdagrad", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[5,3];[];[2,3];[3]"),
      IsInvalidArgument("Dimensions must be equal, but are 3 and 2"));
  EXPECT_THAT(
      Infer("SparseApplyAdagrad", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[5,3];[];[2,4];[2]"),
      IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(
      Infer("SparseApplyAdagrad", "T=DT_FLOAT, Tindices=DT_INT32", "[5,3];[5,3];[];[2,3];[2,1]"),
      IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("SparseApplyRMSProp", "T=DT_FLOAT, Tindices=DT_INT32",
                    "[5];[5];[5];[];[];[];[];[];[1]"),
              IsInvalidArgument("Argument grad must not be a scalar"));
  EXPECT_THAT(
      Infer("SparseApplyFtrl", "T=DT_FLOAT, Tindices=DT_INT32", "[5];[5];[5];[3];[3];[];[];[1];[]"),
      IsInvalidArgument("Shape must be rank 0 but is rank 1"));
}

// Runs `op`'s shape function with every input in `handles` carrying handle data of `dtype`
// and the given shape; returns the outputs or the error as Infer does.
std::string InferWithHandles(const std::string& op, const std::string& attrs,
                             const std::string& shapes, DataType dtype,
                             const std::vector<std::string>& handles) {
  NodeDef node = OpNode(op, attrs);
  const OpRegistrationData* reg = nullptr;
  EXPECT_TRUE(OpRegistry::Global()->LookUp(op, &reg).ok());
  AddDefaultsToNodeDef(reg->op_def, &node);
  std::vector<PartialTensorShape> inputs = *shape_inference::ParseShapesForTest(shapes);
  InferenceContext c(&node, reg->op_def, inputs, {});
  EXPECT_TRUE(c.construction_status().ok()) << c.construction_status();
  for (int i = 0; i < static_cast<int>(handles.size()); ++i) {
    ShapeHandle shape;
    EXPECT_TRUE(
        c.MakeShapeFromPartialTensorShape(*shape_inference::ParseShapeForTest(handles[i]), &shape)
            .ok());
    c.set_input_handle_shapes_and_types(i, {ShapeAndType(shape, dtype)});
  }
  absl::Status s = c.Run(reg->shape_inference_fn);
  if (!s.ok()) return "INVALID_ARGUMENT: " + std::string(s.message());
  std::string out;
  for (int i = 0; i < c.num_outputs(); ++i) {
    if (i > 0) out += ";";
    out += c.DebugString(c.output(i));
  }
  return out;
}

TEST(ResourceApplyShapeTest, HandleDataGivesTheVariableShapes) {
  EXPECT_EQ(InferWithHandles("ResourceApplyAdagrad", "T=DT_FLOAT", "[];[];[];[2,3]", DT_FLOAT,
                             {"[2,?]", "[?,3]"}),
            "");
  EXPECT_THAT(InferWithHandles("ResourceApplyAdagrad", "T=DT_FLOAT", "[];[];[];[2,4]", DT_FLOAT,
                               {"[2,3]", "[2,3]"}),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(InferWithHandles("ResourceApplyAdam", "T=DT_FLOAT", "[];[];[];[];[];[];[];[];[];[2]",
                               DT_FLOAT, {"[2]", "[3]", "[2]"}),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(InferWithHandles("ResourceSparseApplyMomentum", "T=DT_FLOAT, Tindices=DT_INT32",
                               "[];[];[];[2,4];[2];[]", DT_FLOAT, {"[10,3]", "[10,3]"}),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  // With handle data, ResourceApplyProximalAdagrad sees the variables' shapes too.
  EXPECT_EQ(InferWithHandles("ResourceApplyProximalAdagrad", "T=DT_FLOAT", "[];[];[];[];[];[3]",
                             DT_FLOAT, {"[3]", "[3]"}),
            "");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
