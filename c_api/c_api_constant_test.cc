// TF_TryEvaluateConstant through the public C functions, against what TensorFlow 2.21's C API
// answers for the same graphs: values of constant subgraphs (through shape-implied Shape, Size
// and Rank), false for what depends on a feed or a stateful op or fails in a kernel.
#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

class TryEvaluateConstantTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = TF_NewGraph();
    status_ = TF_NewStatus();
  }
  void TearDown() override {
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  TF_Output Finish(TF_OperationDescription* desc) {
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return {op, 0};
  }

  template <typename T>
  TF_Output Const(const char* name, TF_DataType dtype, std::vector<T> values) {
    const int64_t dims[] = {static_cast<int64_t>(values.size())};
    TF_Tensor* t = TF_AllocateTensor(dtype, dims, 1, values.size() * sizeof(T));
    std::memcpy(TF_TensorData(t), values.data(), values.size() * sizeof(T));
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Const", name);
    TF_SetAttrTensor(desc, "value", t, status_);
    TF_SetAttrType(desc, "dtype", dtype);
    TF_DeleteTensor(t);
    return Finish(desc);
  }

  TF_Output Placeholder(const char* name, std::vector<int64_t> shape) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", name);
    TF_SetAttrType(desc, "dtype", TF_FLOAT);
    TF_SetAttrShape(desc, "shape", shape.data(), static_cast<int>(shape.size()));
    return Finish(desc);
  }

  TF_Output Op(const char* type, const char* name, std::vector<TF_Output> inputs) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, type, name);
    for (const TF_Output& in : inputs) TF_AddInput(desc, in);
    return Finish(desc);
  }

  // The evaluated values (empty and *evaluated false when TF_TryEvaluateConstant says no).
  template <typename T>
  std::vector<T> Evaluate(TF_Output output, bool* evaluated) {
    TF_Tensor* result = nullptr;
    *evaluated = TF_TryEvaluateConstant(graph_, output, &result, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    std::vector<T> values;
    if (result != nullptr) {
      const T* data = static_cast<const T*>(TF_TensorData(result));
      values.assign(data, data + TF_TensorElementCount(result));
      TF_DeleteTensor(result);
    }
    EXPECT_EQ(*evaluated, result != nullptr);
    return values;
  }

  TF_Graph* graph_;
  TF_Status* status_;
};

TEST_F(TryEvaluateConstantTest, ConstantsAndTheirArithmetic) {
  bool evaluated = false;
  TF_Output a = Const<float>("a", TF_FLOAT, {1, 2});
  EXPECT_EQ(Evaluate<float>(a, &evaluated), (std::vector<float>{1, 2}));
  TF_Output sum = Op("AddV2", "add", {a, Const<float>("b", TF_FLOAT, {3, 4})});
  EXPECT_EQ(Evaluate<float>(sum, &evaluated), (std::vector<float>{4, 6}));
  EXPECT_TRUE(evaluated);
}

TEST_F(TryEvaluateConstantTest, ShapesShapeInferenceKnows) {
  bool evaluated = false;
  TF_Output p = Placeholder("p", {2, 3});
  EXPECT_EQ(Evaluate<int32_t>(Op("Shape", "shape", {p}), &evaluated), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(Evaluate<int32_t>(Op("Size", "size", {p}), &evaluated), std::vector<int32_t>{6});
  TF_Output partial = Placeholder("partial", {2, -1});
  EXPECT_EQ(Evaluate<int32_t>(Op("Rank", "rank", {partial}), &evaluated), std::vector<int32_t>{2});
  // A Shape on the way up becomes a constant too.
  TF_Output grown =
      Op("AddV2", "grown", {Op("Shape", "shape2", {p}), Const<int32_t>("one", TF_INT32, {1, 1})});
  EXPECT_EQ(Evaluate<int32_t>(grown, &evaluated), (std::vector<int32_t>{3, 4}));
  // int64 shapes.
  TF_OperationDescription* desc = TF_NewOperation(graph_, "Shape", "shape64");
  TF_AddInput(desc, p);
  TF_SetAttrType(desc, "out_type", TF_INT64);
  EXPECT_EQ(Evaluate<int64_t>(Finish(desc), &evaluated), (std::vector<int64_t>{2, 3}));
  // An unknown dimension is not a constant.
  EXPECT_TRUE(Evaluate<int32_t>(Op("Shape", "shape3", {partial}), &evaluated).empty());
  EXPECT_FALSE(evaluated);
}

TEST_F(TryEvaluateConstantTest, FedStatefulAndFailingSubgraphsAreNotConstant) {
  bool evaluated = true;
  TF_Output fed = Op("AddV2", "fed", {Placeholder("p", {2}), Const<float>("b", TF_FLOAT, {1, 2})});
  EXPECT_TRUE(Evaluate<float>(fed, &evaluated).empty());
  EXPECT_FALSE(evaluated);

  TF_OperationDescription* desc = TF_NewOperation(graph_, "RandomUniform", "random");
  TF_AddInput(desc, Const<int32_t>("shape", TF_INT32, {2}));
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  evaluated = true;
  EXPECT_TRUE(Evaluate<float>(Finish(desc), &evaluated).empty());
  EXPECT_FALSE(evaluated);

  desc = TF_NewOperation(graph_, "PlaceholderWithDefault", "with_default");
  TF_AddInput(desc, Const<float>("default", TF_FLOAT, {1}));
  const int64_t one[] = {1};
  TF_SetAttrShape(desc, "shape", one, 1);
  evaluated = true;
  EXPECT_TRUE(Evaluate<float>(Op("Identity", "read", {Finish(desc)}), &evaluated).empty());
  EXPECT_FALSE(evaluated);

  // The kernel fails: not evaluated, and no error.
  TF_Output quotient = Op("FloorDiv", "quotient",
                          {Const<int32_t>("n", TF_INT32, {1}), Const<int32_t>("d", TF_INT32, {0})});
  evaluated = true;
  EXPECT_TRUE(Evaluate<int32_t>(quotient, &evaluated).empty());
  EXPECT_FALSE(evaluated);
}

TEST_F(TryEvaluateConstantTest, BadOutputIndexIsAnError) {
  TF_Output a = Const<float>("a", TF_FLOAT, {1});
  TF_Tensor* result = nullptr;
  EXPECT_FALSE(TF_TryEvaluateConstant(graph_, {a.oper, 3}, &result, status_));
  EXPECT_EQ(TF_GetCode(status_), TF_OUT_OF_RANGE);
  EXPECT_EQ(result, nullptr);
}

}  // namespace
