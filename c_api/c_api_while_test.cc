// TF_NewWhile, TF_FinishWhile and TF_AbortWhile through the public C functions: the nodes a
// loop adds (names, ops, inputs), the values it computes and the errors, each as TensorFlow
// 2.21's C API gives them for the same calls (c_api/tools/while_reference.py prints those).
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

class WhileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = TF_NewGraph();
    status_ = TF_NewStatus();
  }
  void TearDown() override {
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  static TF_Output Op(TF_Graph* g, TF_Status* s, const char* type, const char* name,
                      std::vector<TF_Output> inputs) {
    TF_OperationDescription* desc = TF_NewOperation(g, type, name);
    for (const TF_Output& in : inputs) TF_AddInput(desc, in);
    TF_Operation* op = TF_FinishOperation(desc, s);
    EXPECT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
    return {op, 0};
  }

  static TF_Output Int(TF_Graph* g, TF_Status* s, const char* name, int32_t v) {
    TF_Tensor* value = TF_AllocateTensor(TF_INT32, nullptr, 0, sizeof(int32_t));
    *static_cast<int32_t*>(TF_TensorData(value)) = v;
    TF_OperationDescription* desc = TF_NewOperation(g, "Const", name);
    TF_SetAttrTensor(desc, "value", value, s);
    TF_SetAttrType(desc, "dtype", TF_INT32);
    TF_Operation* op = TF_FinishOperation(desc, s);
    EXPECT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
    TF_DeleteTensor(value);
    return {op, 0};
  }

  TF_Output Placeholder(const char* name) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", name);
    TF_SetAttrType(desc, "dtype", TF_INT32);
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return {op, 0};
  }

  sluice::GraphDef ToGraphDef() {
    TF_Buffer* buffer = TF_NewBuffer();
    TF_GraphToGraphDef(graph_, buffer, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    sluice::GraphDef def;
    EXPECT_TRUE(def.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
    TF_DeleteBuffer(buffer);
    return def;
  }

  // "name op input..." for each node not in `before`, in the GraphDef's order.
  std::vector<std::string> NewNodes(const std::set<std::string>& before) {
    std::vector<std::string> lines;
    const sluice::GraphDef def = ToGraphDef();
    for (const auto& node : def.node()) {
      if (before.count(node.name())) continue;
      std::string line = node.name() + " " + node.op();
      for (const std::string& in : node.input()) line += " " + in;
      lines.push_back(line);
    }
    return lines;
  }

  std::set<std::string> NodeNames() {
    std::set<std::string> names;
    const sluice::GraphDef def = ToGraphDef();
    for (const auto& node : def.node()) names.insert(node.name());
    return names;
  }

  // Runs `fetches` with int32 scalar `feeds`; the int32 scalar results.
  std::vector<int32_t> Run(const std::vector<std::pair<TF_Output, int32_t>>& feeds,
                           const std::vector<TF_Output>& fetches) {
    TF_SessionOptions* options = TF_NewSessionOptions();
    TF_Session* session = TF_NewSession(graph_, options, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    std::vector<TF_Output> inputs;
    std::vector<TF_Tensor*> values;
    for (const auto& [output, v] : feeds) {
      inputs.push_back(output);
      values.push_back(TF_AllocateTensor(TF_INT32, nullptr, 0, sizeof(int32_t)));
      *static_cast<int32_t*>(TF_TensorData(values.back())) = v;
    }
    std::vector<TF_Tensor*> results(fetches.size(), nullptr);
    TF_SessionRun(session, nullptr, inputs.data(), values.data(), static_cast<int>(inputs.size()),
                  fetches.data(), results.data(), static_cast<int>(fetches.size()), nullptr, 0,
                  nullptr, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    std::vector<int32_t> out;
    for (TF_Tensor* t : results) {
      if (t != nullptr) out.push_back(*static_cast<const int32_t*>(TF_TensorData(t)));
      TF_DeleteTensor(t);
    }
    for (TF_Tensor* t : values) TF_DeleteTensor(t);
    TF_CloseSession(session, status_);
    TF_DeleteSession(session, status_);
    TF_DeleteSessionOptions(options);
    return out;
  }

  TF_Graph* graph_;
  TF_Status* status_;
};

TEST_F(WhileTest, CountsToTenWithTensorFlowsNodes) {
  TF_Output x = Placeholder("x");
  const std::set<std::string> before = NodeNames();
  TF_WhileParams p = TF_NewWhile(graph_, &x, 1, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  ASSERT_EQ(p.ninputs, 1);
  // The placeholders standing for the loop input in each graph.
  EXPECT_STREQ(TF_OperationName(p.cond_inputs[0].oper), "cond_input0");
  EXPECT_STREQ(TF_OperationName(p.body_inputs[0].oper), "body_input0");
  EXPECT_EQ(TF_OperationOutputType(p.cond_inputs[0]), TF_INT32);
  p.cond_output = Op(p.cond_graph, status_, "Less", "less",
                     {p.cond_inputs[0], Int(p.cond_graph, status_, "ten", 10)});
  p.body_outputs[0] = Op(p.body_graph, status_, "AddV2", "add",
                         {p.body_inputs[0], Int(p.body_graph, status_, "one", 1)});
  p.name = "test_loop";
  TF_Output out;
  TF_FinishWhile(&p, status_, &out);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_STREQ(TF_OperationName(out.oper), "test_loop/Exit");
  const std::vector<std::string> want = {
      "test_loop/Enter Enter x",
      "test_loop/Merge Merge test_loop/Enter test_loop/NextIteration",
      "test_loop/cond/ten Const ^test_loop/Merge",
      "test_loop/cond/less Less test_loop/Merge test_loop/cond/ten",
      "test_loop/LoopCond LoopCond test_loop/cond/less",
      "test_loop/Switch Switch test_loop/Merge test_loop/LoopCond",
      "test_loop/body/one Const ^test_loop/Switch",
      "test_loop/body/add AddV2 test_loop/Switch:1 test_loop/body/one",
      "test_loop/NextIteration NextIteration test_loop/body/add",
      "test_loop/Exit Exit test_loop/Switch",
  };
  std::vector<std::string> got = NewNodes(before);
  std::sort(got.begin(), got.end());
  std::vector<std::string> sorted_want = want;
  std::sort(sorted_want.begin(), sorted_want.end());
  EXPECT_EQ(got, sorted_want);
  EXPECT_EQ(Run({{x, 3}}, {out}), std::vector<int32_t>{10});
  EXPECT_EQ(Run({{x, 12}}, {out}), std::vector<int32_t>{12});
}

TEST_F(WhileTest, TwoLoopVariables) {
  TF_Output i = Placeholder("i");
  TF_Output total = Int(graph_, status_, "total", 0);
  const std::set<std::string> before = NodeNames();
  TF_Output inputs[] = {i, total};
  TF_WhileParams p = TF_NewWhile(graph_, inputs, 2, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  p.cond_output = Op(p.cond_graph, status_, "Less", "less",
                     {p.cond_inputs[0], Int(p.cond_graph, status_, "five", 5)});
  p.body_outputs[0] = Op(p.body_graph, status_, "AddV2", "next_i",
                         {p.body_inputs[0], Int(p.body_graph, status_, "one", 1)});
  p.body_outputs[1] =
      Op(p.body_graph, status_, "AddV2", "next_total", {p.body_inputs[1], p.body_inputs[0]});
  p.name = "sum";
  TF_Output outs[2];
  TF_FinishWhile(&p, status_, outs);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  std::vector<std::string> want = {
      "sum/Enter Enter i",
      "sum/Enter_1 Enter total",
      "sum/Merge Merge sum/Enter sum/NextIteration",
      "sum/Merge_1 Merge sum/Enter_1 sum/NextIteration_1",
      "sum/cond/five Const ^sum/Merge",
      "sum/cond/less Less sum/Merge sum/cond/five",
      "sum/LoopCond LoopCond sum/cond/less",
      "sum/Switch Switch sum/Merge sum/LoopCond",
      "sum/Switch_1 Switch sum/Merge_1 sum/LoopCond",
      "sum/body/one Const ^sum/Switch",
      "sum/body/next_i AddV2 sum/Switch:1 sum/body/one",
      // Its inputs are all loop values, so it takes the body's control dependency too.
      "sum/body/next_total AddV2 sum/Switch_1:1 sum/Switch:1 ^sum/Switch",
      "sum/NextIteration NextIteration sum/body/next_i",
      "sum/NextIteration_1 NextIteration sum/body/next_total",
      "sum/Exit Exit sum/Switch",
      "sum/Exit_1 Exit sum/Switch_1",
  };
  std::vector<std::string> got = NewNodes(before);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(Run({{i, 0}}, {outs[0], outs[1]}), (std::vector<int32_t>{5, 10}));
}

TEST_F(WhileTest, BodyConstantsRunEveryIteration) {
  TF_Output x = Placeholder("x");
  TF_WhileParams p = TF_NewWhile(graph_, &x, 1, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  p.cond_output = Op(p.cond_graph, status_, "Less", "less",
                     {p.cond_inputs[0], Int(p.cond_graph, status_, "hundred", 100)});
  p.body_outputs[0] = Op(p.body_graph, status_, "Mul", "double",
                         {p.body_inputs[0], Int(p.body_graph, status_, "two", 2)});
  p.name = "double";
  TF_Output out;
  TF_FinishWhile(&p, status_, &out);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(Run({{x, 3}}, {out}), std::vector<int32_t>{192});
}

// TensorFlow's INVALID_ARGUMENT messages; the params are freed either way.
TEST_F(WhileTest, UnfilledParamsAreErrors) {
  TF_Output x = Placeholder("x");
  {
    TF_WhileParams p = TF_NewWhile(graph_, &x, 1, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK);
    p.body_outputs[0] = p.body_inputs[0];
    p.name = "loop";
    TF_Output out;
    TF_FinishWhile(&p, status_, &out);
    EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
    EXPECT_STREQ(TF_Message(status_), "TF_WhileParams `cond_output` field isn't set");
  }
  TF_Output y = Placeholder("y");
  {
    TF_Output inputs[] = {x, y};
    TF_WhileParams p = TF_NewWhile(graph_, inputs, 2, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK);
    p.cond_output = Op(p.cond_graph, status_, "Less", "less", {p.cond_inputs[0], p.cond_inputs[1]});
    p.body_outputs[0] = p.body_inputs[0];
    p.name = "loop";
    TF_Output outs[2];
    TF_FinishWhile(&p, status_, outs);
    EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
    EXPECT_STREQ(TF_Message(status_), "TF_WhileParams `body_outputs[1]` field isn't set");
  }
  {
    TF_WhileParams p = TF_NewWhile(graph_, &x, 1, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK);
    p.cond_output = Op(p.cond_graph, status_, "Less", "less", {p.cond_inputs[0], p.cond_inputs[0]});
    p.body_outputs[0] = p.body_inputs[0];
    TF_Output out;
    TF_FinishWhile(&p, status_, &out);
    EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
    EXPECT_STREQ(TF_Message(status_), "TF_WhileParams `name` field is null");
  }
  {
    TF_WhileParams p = TF_NewWhile(graph_, &x, 1, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK);
    p.cond_output = p.cond_inputs[0];
    p.body_outputs[0] = p.body_inputs[0];
    p.name = "loop";
    TF_Output out;
    TF_FinishWhile(&p, status_, &out);
    EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
    EXPECT_STREQ(TF_Message(status_),
                 "BuildWhileLoop: 'cond' argument must return a boolean output, got int32");
    // Unlike TensorFlow, which leaves the half-built loop behind, the graph is as before.
    EXPECT_EQ(NodeNames(), (std::set<std::string>{"x", "y"}));
  }
}

TEST_F(WhileTest, NoInputsAndForeignParamsAreErrors) {
  TF_WhileParams p = TF_NewWhile(graph_, nullptr, 0, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_), "TF_NewWhile() must be passed at least one input");
  EXPECT_EQ(p.cond_graph, nullptr);
  // Params not made by TF_NewWhile are refused, and nothing is freed.
  TF_Output out;
  TF_FinishWhile(&p, status_, &out);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_),
               "TF_WhileParams must be created by successful TF_NewWhile() call");
}

TEST_F(WhileTest, AnInputWithoutOperationIsAnError) {
  TF_Output missing = {nullptr, 0};
  TF_WhileParams p = TF_NewWhile(graph_, &missing, 1, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_), "TF_NewWhile() input 0 is not an operation's output");
  EXPECT_EQ(p.cond_graph, nullptr);
}

TEST_F(WhileTest, AbortFreesTheGraphsAndAddsNothing) {
  TF_Output x = Placeholder("x");
  const std::set<std::string> before = NodeNames();
  TF_WhileParams p = TF_NewWhile(graph_, &x, 1, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  p.cond_output = Op(p.cond_graph, status_, "Less", "less", {p.cond_inputs[0], p.cond_inputs[0]});
  TF_AbortWhile(&p);
  EXPECT_TRUE(NewNodes(before).empty());
}

}  // namespace
