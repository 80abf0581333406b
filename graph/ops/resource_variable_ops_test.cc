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

// Runs `op`'s shape function with input 0 carrying the handle data (handle_dtype,
// handle_shape) when handle_dtype is set; returns the outputs or the error as Infer does.
std::string InferWithHandle(const std::string& op, const std::string& attrs,
                            const std::string& shapes, DataType handle_dtype,
                            const std::string& handle_shape) {
  NodeDef node = OpNode(op, attrs);
  const OpRegistrationData* reg = nullptr;
  EXPECT_TRUE(OpRegistry::Global()->LookUp(op, &reg).ok());
  AddDefaultsToNodeDef(reg->op_def, &node);
  std::vector<PartialTensorShape> inputs = *shape_inference::ParseShapesForTest(shapes);
  InferenceContext c(&node, reg->op_def, inputs, {});
  EXPECT_TRUE(c.construction_status().ok()) << c.construction_status();
  if (handle_dtype != DT_INVALID) {
    PartialTensorShape variable_shape = *shape_inference::ParseShapeForTest(handle_shape);
    shape_inference::ShapeHandle handle;
    EXPECT_TRUE(c.MakeShapeFromPartialTensorShape(variable_shape, &handle).ok());
    c.set_input_handle_shapes_and_types(0, {ShapeAndType(handle, handle_dtype)});
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

TEST(VarHandleOpShapeTest, ScalarHandleCarryingTheVariableShape) {
  EXPECT_EQ(Infer("VarHandleOp", "dtype=DT_FLOAT, shape=[2,3]", ""), "[]");
  NodeDef node = OpNode("VarHandleOp", "dtype=DT_INT32, shape=[?,4]");
  const OpRegistrationData* reg = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUp("VarHandleOp", &reg).ok());
  AddDefaultsToNodeDef(reg->op_def, &node);
  InferenceContext c(&node, reg->op_def, {}, {});
  ASSERT_TRUE(c.Run(reg->shape_inference_fn).ok());
  const std::vector<ShapeAndType>* handle = c.output_handle_shapes_and_types(0);
  ASSERT_NE(handle, nullptr);
  ASSERT_EQ(handle->size(), 1u);
  EXPECT_EQ((*handle)[0].dtype, DT_INT32);
  EXPECT_EQ(c.DebugString((*handle)[0].shape), "[?,4]");
}

TEST(ReadVariableOpShapeTest, ShapeFromHandleData) {
  EXPECT_EQ(Infer("ReadVariableOp", "dtype=DT_FLOAT", "[]"), "?");
  EXPECT_EQ(InferWithHandle("ReadVariableOp", "dtype=DT_FLOAT", "[]", DT_FLOAT, "[2,?]"), "[2,?]");
  EXPECT_THAT(
      InferWithHandle("ReadVariableOp", "dtype=DT_FLOAT", "[]", DT_INT32, "[2]"),
      IsInvalidArgument("Trying to read variable with wrong dtype. Expected int32 got float"));
}

TEST(ReadVariableOpShapeTest, ShapeAnnotationWins) {
  NodeDef node = OpNode("ReadVariableOp", "dtype=DT_FLOAT");
  AttrValue shape;
  PartialTensorShape annotated({3, -1});
  annotated.AsProto(shape.mutable_shape());
  (*node.mutable_attr())["_shape"] = shape;
  const OpRegistrationData* reg = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUp("ReadVariableOp", &reg).ok());
  InferenceContext c(&node, reg->op_def, {PartialTensorShape()}, {});
  ASSERT_TRUE(c.Run(reg->shape_inference_fn).ok());
  EXPECT_EQ(c.DebugString(c.output(0)), "[3,?]");
}

TEST(AssignVariableOpShapeTest, ValueMustFitTheVariable) {
  for (const std::string op : {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}) {
    EXPECT_EQ(Infer(op, "dtype=DT_FLOAT", "[];[2,3]"), "") << op;
    EXPECT_EQ(InferWithHandle(op, "dtype=DT_FLOAT", "[];[2,3]", DT_FLOAT, "[2,?]"), "") << op;
    EXPECT_THAT(InferWithHandle(op, "dtype=DT_FLOAT", "[];[2,3]", DT_FLOAT, "[2,4]"),
                IsInvalidArgument("Dimension 1 in both shapes must be equal"))
        << op;
    EXPECT_THAT(
        InferWithHandle(op, "dtype=DT_FLOAT", "[];[2]", DT_DOUBLE, "[2]"),
        IsInvalidArgument("Trying to read variable with wrong dtype. Expected double got float"))
        << op;
  }
}

TEST(VarIsInitializedOpShapeTest, Scalar) {
  EXPECT_EQ(Infer("VarIsInitializedOp", "", "[]"), "[]");
}

TEST(DestroyResourceOpShapeTest, NoOutputs) {
  EXPECT_EQ(Infer("DestroyResourceOp", "", "[]"), "");
  EXPECT_EQ(Infer("DestroyResourceOp", "ignore_lookup_error=false", "[]"), "");
}

TEST(DisableCopyOnReadShapeTest, NoOutputs) {
  EXPECT_EQ(Infer("DisableCopyOnRead", "", "[]"), "");
  EXPECT_EQ(Infer("DisableCopyOnRead", "", "?"), "");
}

TEST(ResourceGatherShapeTest, RowsOfTheVariable) {
  EXPECT_EQ(Infer("ResourceGather", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2,2]"), "?");
  EXPECT_EQ(InferWithHandle("ResourceGather", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2,2]",
                            DT_FLOAT, "[10,3]"),
            "[2,2,3]");
  EXPECT_EQ(InferWithHandle("ResourceGather", "dtype=DT_FLOAT, Tindices=DT_INT64, batch_dims=1",
                            "[];[4,5]", DT_FLOAT, "[4,10,3]"),
            "[4,5,3]");
  EXPECT_THAT(InferWithHandle("ResourceGather", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2]",
                              DT_FLOAT, "[]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(
      InferWithHandle("ResourceGather", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2]", DT_INT32,
                      "[4]"),
      IsInvalidArgument("Trying to read variable with wrong dtype. Expected int32 got float"));
  EXPECT_THAT(Infer("ResourceGather", "dtype=DT_FLOAT, Tindices=DT_INT32, batch_dims=-1", "[];[2]"),
              IsInvalidArgument("batch_dims is negative (-1)"));
}

TEST(ResourceGatherNdShapeTest, IndexDepthSelectsVariableDims) {
  EXPECT_EQ(InferWithHandle("ResourceGatherNd", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[4,2]",
                            DT_FLOAT, "[5,6,7]"),
            "[4,7]");
  EXPECT_EQ(InferWithHandle("ResourceGatherNd", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[4,?]",
                            DT_FLOAT, "[5,6,7]"),
            "?");
  EXPECT_THAT(InferWithHandle("ResourceGatherNd", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[4,4]",
                              DT_FLOAT, "[5,6,7]"),
              IsInvalidArgument("indices.shape[-1] must be <= params.rank"));
  // Without handle data the scalar handle stands for the params, as in TensorFlow.
  EXPECT_EQ(Infer("ResourceGatherNd", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[4,0]"), "[4]");
  EXPECT_THAT(Infer("ResourceGatherNd", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[4,1]"),
              IsInvalidArgument("indices.shape[-1] must be <= params.rank"));
}

TEST(ResourceScatterShapeTest, UpdatesAreIndicesShapeThenTheRowShape) {
  EXPECT_EQ(Infer("ResourceScatterAdd", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2];[2,3]"), "");
  EXPECT_EQ(InferWithHandle("ResourceScatterUpdate", "dtype=DT_FLOAT, Tindices=DT_INT32",
                            "[];[2];[2,3]", DT_FLOAT, "[5,3]"),
            "");
  EXPECT_EQ(InferWithHandle("ResourceScatterMul", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2];[]",
                            DT_FLOAT, "[5,3]"),
            "");
  EXPECT_THAT(InferWithHandle("ResourceScatterSub", "dtype=DT_FLOAT, Tindices=DT_INT32",
                              "[];[2];[2,4]", DT_FLOAT, "[5,3]"),
              IsInvalidArgument("Dimension 1 in both shapes must be equal"));
  EXPECT_THAT(
      InferWithHandle("ResourceScatterMax", "dtype=DT_FLOAT, Tindices=DT_INT32", "[];[2];[2,3]",
                      DT_DOUBLE, "[5,3]"),
      IsInvalidArgument("Trying to read variable with wrong dtype. Expected double got float"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
