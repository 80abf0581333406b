// The ZeroOut custom-op libraries of compat/examples/zero_out, written against TensorFlow's
// headers, loaded at run time as users load them and run three ways: from a GraphDef through
// a Session, from the C++ client API, and from the C API. Also what a library that fails to
// register leaves behind: nothing.
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/kernel_def.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/load_library.h"
#include "runtime/session/session.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/cc/client/client_session.h"
#include "tensorflow/cc/ops/standard_ops.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/graph/node_builder.h"
#include "tensorflow/core/lib/core/status_test_util.h"

namespace tensorflow {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string LibraryPath(const std::string& name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir ? srcdir : ".") + "/" + (workspace ? workspace : "sluice") +
         "/compat/examples/zero_out/" + name + ".so";
}

std::vector<std::string> OpNames(const OpList& ops) {
  std::vector<std::string> names;
  for (const OpDef& op : ops.op()) names.push_back(op.name());
  return names;
}

// Loads one of the three good libraries (a no-op after the first time) and returns its ops.
std::vector<std::string> Load(const std::string& name) {
  void* handle = nullptr;
  OpList ops;
  const Status status = LoadLibrary(LibraryPath(name).c_str(), &handle, &ops);
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_NE(handle, nullptr);
  return OpNames(ops);
}

class ZeroOutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_THAT(Load("zero_out"), ElementsAre("ZeroOut"));
    ASSERT_THAT(Load("zero_out_typed"), ElementsAre("ZeroOutTyped"));
    ASSERT_THAT(Load("zero_out_preserve_index"), ElementsAre("ZeroOutPreserveIndex"));
  }

  // Runs `graph_text` (a GraphDef in text form) with one int32 feed "x".
  Status RunGraph(const std::string& graph_text, const Tensor& x,
                  const std::vector<std::string>& fetches, std::vector<Tensor>* outputs) {
    GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(graph_text, &graph)) {
      return errors::InvalidArgument("bad test graph");
    }
    std::unique_ptr<Session> session;
    TF_RETURN_IF_ERROR(NewSession(SessionOptions(), &session));
    TF_RETURN_IF_ERROR(session->Create(graph));
    return session->Run({{"x", x}}, fetches, {}, outputs);
  }
};

Tensor Int32Vector(const std::vector<int32>& values) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<int32>()(i) = values[i];
  return t;
}

std::vector<int32> Int32Values(const Tensor& t) {
  std::vector<int32> values;
  for (int64 i = 0; i < t.NumElements(); ++i) values.push_back(t.flat<int32>()(i));
  return values;
}

TEST_F(ZeroOutTest, LoadingAgainReturnsTheSameOps) {
  EXPECT_THAT(Load("zero_out"), ElementsAre("ZeroOut"));
  const OpDef* op_def = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("ZeroOutPreserveIndex", &op_def).ok());
  ASSERT_EQ(op_def->attr_size(), 1);
  EXPECT_EQ(op_def->attr(0).name(), "preserve_index");
  EXPECT_EQ(op_def->attr(0).default_value().i(), 0);
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("ZeroOut", &op_def).ok());
  EXPECT_THAT(op_def->summary(), HasSubstr("every element but the first"));
}

TEST_F(ZeroOutTest, AConflictingLibraryRegistersNothing) {
  void* handle = nullptr;
  OpList ops;
  const Status status = LoadLibrary(LibraryPath("zero_out_conflicting").c_str(), &handle, &ops);
  EXPECT_EQ(status.code(), error::ALREADY_EXISTS);
  EXPECT_THAT(status.message(), HasSubstr("Op with name ZeroOut"));
  EXPECT_EQ(ops.op_size(), 0);
  // Its valid op and kernel were taken back, and ZeroOut keeps its first definition.
  const OpRegistrationData* data = nullptr;
  EXPECT_EQ(OpRegistry::Global()->LookUp("ZeroOutExtra", &data).code(), error::NOT_FOUND);
  EXPECT_EQ(KernelRegistry::Global()->GetRegisteredKernelsForOp("ZeroOutExtra").kernel_size(), 0);
  const OpDef* zero_out = nullptr;
  ASSERT_TRUE(OpRegistry::Global()->LookUpOpDef("ZeroOut", &zero_out).ok());
  EXPECT_EQ(zero_out->attr_size(), 0);
  EXPECT_EQ(zero_out->input_arg(0).type(), DT_INT32);
}

constexpr char kGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
  }
  node { name: "zeroed" op: "ZeroOut" input: "x" }
  node {
    name: "as_float"
    op: "Cast"
    input: "x"
    attr {
      key: "SrcT"
      value { type: DT_INT32 }
    }
    attr {
      key: "DstT"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "typed_float"
    op: "ZeroOutTyped"
    input: "as_float"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "typed_int"
    op: "ZeroOutTyped"
    input: "x"
    attr {
      key: "T"
      value { type: DT_INT32 }
    }
  }
  node { name: "kept_default" op: "ZeroOutPreserveIndex" input: "x" }
  node {
    name: "kept_2"
    op: "ZeroOutPreserveIndex"
    input: "x"
    attr {
      key: "preserve_index"
      value { i: 2 }
    }
  }
)pb";

TEST_F(ZeroOutTest, RunsFromAGraphDef) {
  std::vector<Tensor> out;
  ASSERT_TRUE(RunGraph(kGraph, Int32Vector({5, 4, 3, 2, 1}),
                       {"zeroed", "typed_float", "typed_int", "kept_default", "kept_2"}, &out)
                  .ok());
  ASSERT_EQ(out.size(), 5u);
  EXPECT_THAT(Int32Values(out[0]), ElementsAre(5, 0, 0, 0, 0));
  ASSERT_EQ(out[1].dtype(), DT_FLOAT);
  EXPECT_EQ(out[1].flat<float>()(0), 5.f);
  EXPECT_EQ(out[1].flat<float>()(4), 0.f);
  EXPECT_THAT(Int32Values(out[2]), ElementsAre(5, 0, 0, 0, 0));
  EXPECT_THAT(Int32Values(out[3]), ElementsAre(5, 0, 0, 0, 0));
  EXPECT_THAT(Int32Values(out[4]), ElementsAre(0, 0, 3, 0, 0));
}

TEST_F(ZeroOutTest, KernelsValidateAttrsAndInputs) {
  std::vector<Tensor> out;
  // The constructor rejects a negative index.
  Status s = RunGraph(R"pb(
                        node {
                          name: "x"
                          op: "Placeholder"
                          attr {
                            key: "dtype"
                            value { type: DT_INT32 }
                          }
                        }
                        node {
                          name: "z"
                          op: "ZeroOutPreserveIndex"
                          input: "x"
                          attr {
                            key: "preserve_index"
                            value { i: -1 }
                          }
                        }
                      )pb",
                      Int32Vector({1, 2}), {"z"}, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_THAT(s.message(), HasSubstr("Need preserve_index >= 0, got -1"));
  // Compute rejects an index past the input, and an input that is not a vector.
  s = RunGraph(kGraph, Int32Vector({1, 2}), {"kept_2"}, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_THAT(s.message(), HasSubstr("preserve_index out of range"));
  Tensor matrix(DT_INT32, TensorShape({2, 2}));
  s = RunGraph(kGraph, matrix, {"kept_default"}, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_THAT(s.message(), HasSubstr("ZeroOut expects a 1-D vector."));
  // The int32-only form has no float kernel: the op's definition refuses the input.
  s = RunGraph(R"pb(
                 node {
                   name: "x"
                   op: "Placeholder"
                   attr {
                     key: "dtype"
                     value { type: DT_FLOAT }
                   }
                 }
                 node { name: "z" op: "ZeroOut" input: "x" }
               )pb",
               Int32Vector({1}), {"z"}, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
}

TEST_F(ZeroOutTest, RunsFromTheCppClientApi) {
  Scope scope = Scope::NewRootScope();
  auto x = ops::Placeholder(scope.WithOpName("x"), DT_FLOAT);
  Node* node = nullptr;
  TF_ASSERT_OK(NodeBuilder(scope.GetUniqueNameForOp("ZeroOutTyped"), "ZeroOutTyped")
                   .Input(x)
                   .Finalize(scope.graph(), &node));
  TF_ASSERT_OK(scope.DoShapeInference(node));
  Output zeroed(node, 0);
  ClientSession session(scope);
  std::vector<Tensor> out;
  Tensor fed(DT_FLOAT, TensorShape({3}));
  fed.flat<float>()(0) = 1.5f;
  fed.flat<float>()(1) = 2.5f;
  fed.flat<float>()(2) = 3.5f;
  TF_ASSERT_OK(session.Run({{x, fed}}, {zeroed}, &out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].flat<float>()(0), 1.5f);
  EXPECT_EQ(out[0].flat<float>()(1), 0.f);
  EXPECT_EQ(out[0].flat<float>()(2), 0.f);
}

TEST_F(ZeroOutTest, RunsFromTheCApi) {
  TF_Status* status = TF_NewStatus();
  // A library already loaded through the C++ API loads again through the C API and reports
  // the same single op.
  TF_Library* library = TF_LoadLibrary(LibraryPath("zero_out").c_str(), status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  const TF_Buffer op_list = TF_GetOpList(library);
  OpList ops;
  ASSERT_TRUE(ops.ParseFromArray(op_list.data, static_cast<int>(op_list.length)));
  EXPECT_THAT(OpNames(ops), ElementsAre("ZeroOut"));

  TF_Graph* graph = TF_NewGraph();
  TF_OperationDescription* desc = TF_NewOperation(graph, "Placeholder", "x");
  TF_SetAttrType(desc, "dtype", TF_INT32);
  TF_Operation* x = TF_FinishOperation(desc, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  desc = TF_NewOperation(graph, "ZeroOut", "zeroed");
  TF_AddInput(desc, TF_Output{x, 0});
  TF_Operation* zeroed = TF_FinishOperation(desc, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);

  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, options, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  const int64_t dims[] = {3};
  TF_Tensor* input = TF_AllocateTensor(TF_INT32, dims, 1, 3 * sizeof(int32_t));
  int32_t* in = static_cast<int32_t*>(TF_TensorData(input));
  in[0] = 7;
  in[1] = 8;
  in[2] = 9;
  const TF_Output feed{x, 0};
  const TF_Output fetch{zeroed, 0};
  TF_Tensor* output = nullptr;
  TF_SessionRun(session, nullptr, &feed, &input, 1, &fetch, &output, 1, nullptr, 0, nullptr,
                status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  const int32_t* result = static_cast<const int32_t*>(TF_TensorData(output));
  EXPECT_EQ(result[0], 7);
  EXPECT_EQ(result[1], 0);
  EXPECT_EQ(result[2], 0);

  TF_DeleteTensor(output);
  TF_DeleteTensor(input);
  TF_CloseSession(session, status);
  TF_DeleteSession(session, status);
  TF_DeleteSessionOptions(options);
  TF_DeleteGraph(graph);
  TF_DeleteLibraryHandle(library);
  TF_DeleteStatus(status);
}

}  // namespace
}  // namespace tensorflow
