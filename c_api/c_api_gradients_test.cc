// TF_AddGradients and TF_AddGradientsWithPrefix through the public C functions only: values
// of simple gradients, seeds, the names of the added operations, prefixes and the errors
// TensorFlow 2.21 gives (codes and messages).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

class GradientsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = TF_NewGraph();
    status_ = TF_NewStatus();
  }
  void TearDown() override {
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  TF_Output Const(const char* name, std::vector<float> values, std::vector<int64_t> dims) {
    TF_Tensor* value = TF_AllocateTensor(TF_FLOAT, dims.data(), static_cast<int>(dims.size()),
                                         values.size() * sizeof(float));
    std::copy(values.begin(), values.end(), static_cast<float*>(TF_TensorData(value)));
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Const", name);
    TF_SetAttrTensor(desc, "value", value, status_);
    TF_SetAttrType(desc, "dtype", TF_FLOAT);
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    TF_DeleteTensor(value);
    return {op, 0};
  }

  TF_Output Op(const char* type, const char* name, std::vector<TF_Output> inputs) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, type, name);
    for (const TF_Output& in : inputs) TF_AddInput(desc, in);
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return {op, 0};
  }

  // Runs `fetch` in a new session; the values as floats (empty on failure).
  std::vector<float> Run(TF_Output fetch) {
    TF_SessionOptions* options = TF_NewSessionOptions();
    TF_Session* session = TF_NewSession(graph_, options, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    TF_Tensor* result = nullptr;
    TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &fetch, &result, 1, nullptr, 0, nullptr,
                  status_);
    std::vector<float> values;
    if (TF_GetCode(status_) == TF_OK && result != nullptr) {
      const float* data = static_cast<const float*>(TF_TensorData(result));
      values.assign(data, data + TF_TensorElementCount(result));
    } else {
      ADD_FAILURE() << TF_Message(status_);
    }
    TF_DeleteTensor(result);
    TF_CloseSession(session, status_);
    TF_DeleteSession(session, status_);
    TF_DeleteSessionOptions(options);
    return values;
  }

  TF_Graph* graph_;
  TF_Status* status_;
};

TEST_F(GradientsTest, MatMulSeededWithOnesUnderGradientsScope) {
  TF_Output a = Const("A", {1, 2, 3, 4}, {2, 2});
  TF_Output b = Const("B", {5, 6, 7, 8}, {2, 2});
  TF_Output y = Op("MatMul", "y", {a, b});
  TF_Output xs[] = {a, b};
  TF_Output grads[2];
  TF_AddGradients(graph_, &y, 1, xs, 2, nullptr, status_, grads);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  // d(sum AB)/dA = ones B^T, d(sum AB)/dB = A^T ones.
  EXPECT_EQ(Run(grads[0]), (std::vector<float>{11, 15, 11, 15}));
  EXPECT_EQ(Run(grads[1]), (std::vector<float>{4, 4, 6, 6}));
  EXPECT_EQ(std::string(TF_OperationName(grads[0].oper)).rfind("gradients/", 0), 0u)
      << TF_OperationName(grads[0].oper);

  // A second call makes its own scope, as TensorFlow's name uniquing does.
  TF_Output again[2];
  TF_AddGradients(graph_, &y, 1, xs, 2, nullptr, status_, again);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(std::string(TF_OperationName(again[0].oper)).rfind("gradients_1/", 0), 0u)
      << TF_OperationName(again[0].oper);
}

TEST_F(GradientsTest, GivenSeedsAndPathsThatMeet) {
  TF_Output a = Const("A", {1, 2, 3, 4}, {2, 2});
  TF_Output b = Const("B", {5, 6, 7, 8}, {2, 2});
  TF_Output y = Op("MatMul", "y", {a, b});
  TF_Output seed = Const("seed", {1, 0, 0, 2}, {2, 2});
  TF_Output xs[] = {a, b};
  TF_Output grads[2];
  TF_AddGradients(graph_, &y, 1, xs, 2, &seed, status_, grads);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(Run(grads[0]), (std::vector<float>{5, 7, 12, 16}));  // seed B^T
  EXPECT_EQ(Run(grads[1]), (std::vector<float>{1, 6, 2, 8}));    // A^T seed

  // z = x * x + x: the two paths' gradients are summed, 2x + 1.
  TF_Output x = Const("x", {0.5f, -3}, {2});
  TF_Output z = Op("AddV2", "z", {Op("Mul", "xx", {x, x}), x});
  TF_Output dx;
  TF_AddGradients(graph_, &z, 1, &x, 1, nullptr, status_, &dx);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(Run(dx), (std::vector<float>{2, -5}));
}

TEST_F(GradientsTest, PrefixesMustBeNew) {
  TF_Output a = Const("A", {1, 2}, {2});
  TF_Output y = Op("Square", "y", {a});
  TF_Output dx;
  TF_AddGradientsWithPrefix(graph_, "my_grads", &y, 1, &a, 1, nullptr, status_, &dx);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(std::string(TF_OperationName(dx.oper)).rfind("my_grads/", 0), 0u);
  EXPECT_EQ(Run(dx), (std::vector<float>{2, 4}));

  TF_AddGradientsWithPrefix(graph_, "my_grads", &y, 1, &a, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(
      std::string(TF_Message(status_))
          .rfind("prefix [my_grads] conflicts with existing node in the graph named [my_grads/", 0),
      0u)
      << TF_Message(status_);
  TF_AddGradientsWithPrefix(graph_, "y", &y, 1, &a, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_),
               "prefix [y] conflicts with existing node in the graph named [y]");
  // A prefix that only starts like an existing name is new.
  TF_AddGradientsWithPrefix(graph_, "my", &y, 1, &a, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
}

TEST_F(GradientsTest, ErrorsAsTensorFlow) {
  TF_Output a = Const("A", {1, 2}, {2});
  TF_Output b = Const("B", {3, 4}, {2});
  TF_Output y = Op("Square", "y", {a});
  TF_Output dx;
  TF_AddGradients(graph_, &y, 1, &b, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_),
               "Cannot compute the partial derivative for node 'B' as it's unreachable from the "
               "output node(s).");

  // An op with no gradient function on the path.
  TF_OperationDescription* desc = TF_NewOperation(graph_, "Cumprod", "c");
  TF_AddInput(desc, a);
  int32_t zero = 0;
  TF_Tensor* axis_value = TF_AllocateTensor(TF_INT32, nullptr, 0, sizeof(zero));
  *static_cast<int32_t*>(TF_TensorData(axis_value)) = zero;
  TF_OperationDescription* axis = TF_NewOperation(graph_, "Const", "axis");
  TF_SetAttrTensor(axis, "value", axis_value, status_);
  TF_SetAttrType(axis, "dtype", TF_INT32);
  TF_Output axis_out = {TF_FinishOperation(axis, status_), 0};
  TF_DeleteTensor(axis_value);
  TF_AddInput(desc, axis_out);
  TF_Output c = {TF_FinishOperation(desc, status_), 0};
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  TF_AddGradients(graph_, &c, 1, &a, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_NOT_FOUND);
  EXPECT_EQ(std::string(TF_Message(status_)).rfind("No gradient defined for op: Cumprod.", 0), 0u)
      << TF_Message(status_);

  // An op registered as having no gradient gives a null operation, not an error.
  TF_Output f = Op("Floor", "f", {a});
  TF_AddGradients(graph_, &f, 1, &a, 1, nullptr, status_, &dx);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(dx.oper, nullptr);

  // Missing arrays are errors, not crashes.
  TF_AddGradients(graph_, &y, 1, &a, 1, nullptr, status_, nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_AddGradients(graph_, &y, 1, nullptr, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_AddGradients(nullptr, &y, 1, &a, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);

  // An output index the operation does not have.
  TF_Output bad = {y.oper, 3};
  TF_AddGradients(graph_, &bad, 1, &a, 1, nullptr, status_, &dx);
  EXPECT_EQ(TF_GetCode(status_), TF_OUT_OF_RANGE);
}

}  // namespace
