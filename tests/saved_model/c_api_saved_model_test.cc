// TF_LoadSessionFromSavedModel as C API clients (TensorFlow's Go and Java bindings, cppflow)
// call it: load with tags, look the signature's tensors up by operation name, run, read the
// MetaGraphDef it hands back. Values are TensorFlow's (gen_saved_models.py).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "c_api/include/tensorflow/c/c_api.h"
#include "gmock/gmock.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "tests/saved_model/saved_model_expectations.h"

namespace sluice {
namespace saved_model_test {
namespace {

using ::testing::HasSubstr;

struct Deleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
  void operator()(TF_Buffer* b) const { TF_DeleteBuffer(b); }
  void operator()(TF_SessionOptions* o) const { TF_DeleteSessionOptions(o); }
  void operator()(TF_Tensor* t) const { TF_DeleteTensor(t); }
};
template <typename T>
using Owned = std::unique_ptr<T, Deleter>;

std::string Message(TF_Status* status) { return TF_Message(status); }

// A float TF_Tensor with `value`'s shape and bytes.
TF_Tensor* ToTF(const Tensor& value) {
  std::vector<int64_t> dims;
  for (int i = 0; i < value.shape().dims(); ++i) dims.push_back(value.shape().dim_size(i));
  TF_Tensor* t = TF_AllocateTensor(static_cast<TF_DataType>(value.dtype()), dims.data(),
                                   static_cast<int>(dims.size()), value.tensor_data().size());
  std::memcpy(TF_TensorData(t), value.tensor_data().data(), value.tensor_data().size());
  return t;
}

// The fixed-size TF_Tensor as a Tensor (a copy).
Tensor FromTF(const TF_Tensor* t) {
  std::vector<int64_t> dims;
  for (int i = 0; i < TF_NumDims(t); ++i) dims.push_back(TF_Dim(t, i));
  Tensor value(static_cast<DataType>(TF_TensorType(t)), TensorShape(dims));
  std::memcpy(value.raw_data(), TF_TensorData(t), TF_TensorByteSize(t));
  return value;
}

// "name:i" as a TF_Output of `graph`.
TF_Output Output(TF_Graph* graph, const std::string& tensor_name) {
  const size_t colon = tensor_name.rfind(':');
  const std::string op = tensor_name.substr(0, colon);
  const int index = colon == std::string::npos ? 0 : std::stoi(tensor_name.substr(colon + 1));
  TF_Operation* oper = TF_GraphOperationByName(graph, op.c_str());
  EXPECT_NE(oper, nullptr) << op;
  return TF_Output{oper, index};
}

class CApiSavedModelTest : public ::testing::Test {
 protected:
  CApiSavedModelTest() : status_(TF_NewStatus()), options_(TF_NewSessionOptions()) {
    graph_ = TF_NewGraph();
  }
  ~CApiSavedModelTest() override { TF_DeleteGraph(graph_); }

  TF_Session* Load(const std::string& model, std::vector<const char*> tags,
                   TF_Buffer* meta_graph_def = nullptr, TF_Buffer* run_options = nullptr) {
    return TF_LoadSessionFromSavedModel(options_.get(), run_options, ModelDir(model).c_str(),
                                        tags.data(), static_cast<int>(tags.size()), graph_,
                                        meta_graph_def, status_.get());
  }

  Owned<TF_Status> status_;
  Owned<TF_SessionOptions> options_;
  TF_Graph* graph_;
};

TEST_F(CApiSavedModelTest, LoadsRunsAndHandsBackTheMetaGraph) {
  Owned<TF_Buffer> meta_graph_buffer(TF_NewBuffer());
  TF_Session* session = Load("tf2_dense", {"serve"}, meta_graph_buffer.get());
  ASSERT_EQ(TF_GetCode(status_.get()), TF_OK) << Message(status_.get());
  ASSERT_NE(session, nullptr);

  MetaGraphDef meta_graph;
  ASSERT_TRUE(meta_graph.ParseFromArray(meta_graph_buffer->data,
                                        static_cast<int>(meta_graph_buffer->length)));
  const SignatureDef& signature = meta_graph.signature_def().at("serving_default");
  // The MetaGraphDef is the SavedModel's own, with the object graph Sluice does not model.
  SavedModel on_disk;
  {
    std::FILE* f = std::fopen((ModelDir("tf2_dense") + "/saved_model.pb").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    std::string bytes;
    char chunk[4096];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.append(chunk, n);
    std::fclose(f);
    ASSERT_TRUE(on_disk.ParseFromString(bytes));
  }
  EXPECT_EQ(meta_graph_buffer->length, on_disk.meta_graphs(0).ByteSizeLong());

  absl::StatusOr<std::map<std::string, RecordedRun>> runs = ReadExpectations("tf2_dense");
  ASSERT_TRUE(runs.ok()) << runs.status();
  const RecordedRun& run = runs->at("serving_default");
  TF_Output input = Output(graph_, signature.inputs().at("x").name());
  TF_Output outputs[2] = {Output(graph_, signature.outputs().at("y").name()),
                          Output(graph_, signature.outputs().at("steps").name())};
  Owned<TF_Tensor> x(ToTF(run.inputs.at("x")));
  TF_Tensor* input_values[1] = {x.get()};
  TF_Tensor* output_values[2] = {nullptr, nullptr};
  TF_SessionRun(session, nullptr, &input, input_values, 1, outputs, output_values, 2, nullptr, 0,
                nullptr, status_.get());
  ASSERT_EQ(TF_GetCode(status_.get()), TF_OK) << Message(status_.get());
  EXPECT_EQ(Difference(FromTF(output_values[0]), run.outputs.at("y")), "");
  EXPECT_EQ(Difference(FromTF(output_values[1]), run.outputs.at("steps")), "");
  TF_DeleteTensor(output_values[0]);
  TF_DeleteTensor(output_values[1]);

  // An operation added after the load reaches the session through Extend: y * 2.
  TF_OperationDescription* desc = TF_NewOperation(graph_, "AddV2", "doubled");
  TF_AddInput(desc, outputs[0]);
  TF_AddInput(desc, outputs[0]);
  TF_Operation* doubled = TF_FinishOperation(desc, status_.get());
  ASSERT_EQ(TF_GetCode(status_.get()), TF_OK) << Message(status_.get());
  TF_Output doubled_output = {doubled, 0};
  TF_Tensor* doubled_value = nullptr;
  TF_SessionRun(session, nullptr, &input, input_values, 1, &doubled_output, &doubled_value, 1,
                nullptr, 0, nullptr, status_.get());
  ASSERT_EQ(TF_GetCode(status_.get()), TF_OK) << Message(status_.get());
  const Tensor expected_y = run.outputs.at("y");
  const Tensor got = FromTF(doubled_value);
  ASSERT_EQ(got.NumElements(), expected_y.NumElements());
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    EXPECT_EQ(got.flat<float>()(i), expected_y.flat<float>()(i) * 2) << i;
  }
  TF_DeleteTensor(doubled_value);

  TF_CloseSession(session, status_.get());
  TF_DeleteSession(session, status_.get());
  EXPECT_EQ(TF_GetCode(status_.get()), TF_OK);
}

TEST_F(CApiSavedModelTest, GraphMustBeEmpty) {
  TF_OperationDescription* desc = TF_NewOperation(graph_, "NoOp", "already_here");
  TF_FinishOperation(desc, status_.get());
  ASSERT_EQ(TF_GetCode(status_.get()), TF_OK);
  EXPECT_EQ(Load("tf2_dense", {"serve"}), nullptr);
  EXPECT_EQ(TF_GetCode(status_.get()), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(status_.get()), "Graph is non-empty.");
}

TEST_F(CApiSavedModelTest, ErrorsAreTensorFlows) {
  EXPECT_EQ(Load("tf2_dense", {"train"}), nullptr);
  EXPECT_EQ(TF_GetCode(status_.get()), TF_NOT_FOUND);
  EXPECT_THAT(Message(status_.get()),
              HasSubstr("Could not find meta graph def matching supplied tags: { train }"));

  EXPECT_EQ(Load("no_such_model", {"serve"}), nullptr);
  EXPECT_EQ(TF_GetCode(status_.get()), TF_NOT_FOUND);
  EXPECT_THAT(Message(status_.get()), HasSubstr("Could not find SavedModel .pb or .pbtxt"));

  const char junk[] = "\xff\xff\xff";
  Owned<TF_Buffer> run_options(TF_NewBufferFromString(junk, 3));
  EXPECT_EQ(Load("tf2_dense", {"serve"}, nullptr, run_options.get()), nullptr);
  EXPECT_EQ(TF_GetCode(status_.get()), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(status_.get()), "Unparseable RunOptions proto");

  // A failed load leaves the graph empty, so the caller may load again into it.
  TF_Session* session = Load("tf2_dense", {"serve"});
  ASSERT_EQ(TF_GetCode(status_.get()), TF_OK) << Message(status_.get());
  TF_DeleteSession(session, status_.get());
}

}  // namespace
}  // namespace saved_model_test
}  // namespace sluice
