// A SavedModel loaded as TensorFlow's C++ API users write it (tensorflow::LoadSavedModel,
// SavedModelBundle, Session::Run with signature tensor names), compiled against the compat
// include tree: the same source builds against TensorFlow.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensorflow/cc/saved_model/loader.h"
#include "tensorflow/cc/saved_model/signature_constants.h"
#include "tensorflow/cc/saved_model/tag_constants.h"
#include "tensorflow/core/framework/tensor.h"
#include "tests/saved_model/saved_model_expectations.h"

namespace {

TEST(TfCcApiSavedModelTest, LoadAndRunTheServingSignature) {
  tensorflow::SavedModelBundle bundle;
  tensorflow::SessionOptions session_options;
  tensorflow::RunOptions run_options;
  const std::string export_dir = sluice::saved_model_test::ModelDir("keras_mlp");
  tensorflow::Status status = tensorflow::LoadSavedModel(
      session_options, run_options, export_dir, {tensorflow::kSavedModelTagServe}, &bundle);
  ASSERT_TRUE(status.ok()) << status;

  const auto& signature = bundle.GetSignatures().at(tensorflow::kDefaultServingSignatureDefKey);
  ASSERT_EQ(signature.inputs().size(), 1);
  ASSERT_EQ(signature.outputs().size(), 1);
  const std::string input_key = signature.inputs().begin()->first;
  const std::string output_key = signature.outputs().begin()->first;

  auto runs = sluice::saved_model_test::ReadExpectations("keras_mlp");
  ASSERT_TRUE(runs.ok()) << runs.status();
  const auto& run = runs->at(tensorflow::kDefaultServingSignatureDefKey);

  std::vector<tensorflow::Tensor> outputs;
  status =
      bundle.session->Run({{signature.inputs().at(input_key).name(), run.inputs.at(input_key)}},
                          {signature.outputs().at(output_key).name()}, {}, &outputs);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(sluice::saved_model_test::Difference(outputs[0], run.outputs.at(output_key),
                                                 sluice::saved_model_test::kKerasMlpFloatUlps),
            "");
}

TEST(TfCcApiSavedModelTest, NewSessionForms) {
  tensorflow::SessionOptions options;
  tensorflow::Session* session = tensorflow::NewSession(options);
  ASSERT_NE(session, nullptr);
  delete session;
  tensorflow::Session* out = nullptr;
  ASSERT_TRUE(tensorflow::NewSession(options, &out).ok());
  ASSERT_NE(out, nullptr);
  delete out;
}

}  // namespace
