// The command line's path for a SavedModel directory (tools/cli: LoadModel, DefaultOutputs,
// ModelRunner with the SavedModel restored before the first step), run on TensorFlow's
// tf2_dense model with TensorFlow's input: the serving signature's outputs, in key order,
// must be TensorFlow's.
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/saved_model/saved_model_expectations.h"
#include "tools/cli/feeds.h"
#include "tools/cli/model.h"
#include "tools/cli/runner.h"

namespace sluice {
namespace saved_model_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CliSavedModelTest, RunsTheServingSignatureOfASavedModelDirectory) {
  cli::Model model;
  const absl::Status loaded = cli::LoadModel(ModelDir("tf2_dense"), &model);
  ASSERT_TRUE(loaded.ok()) << loaded;
  ASSERT_TRUE(model.saved_model.has_value());
  EXPECT_EQ(model.saved_model->signature_key, "serving_default");
  const SignatureDef& signature =
      model.saved_model->meta_graph.signature_def().at("serving_default");
  // Outputs "steps" and "y", in key order.
  const std::vector<std::string> fetches = cli::DefaultOutputs(model);
  EXPECT_THAT(fetches, ElementsAre(signature.outputs().at("steps").name(),
                                   signature.outputs().at("y").name()));

  absl::StatusOr<std::map<std::string, RecordedRun>> runs = ReadExpectations("tf2_dense");
  ASSERT_TRUE(runs.ok()) << runs.status();
  const RecordedRun& run = runs->at("serving_default");
  std::vector<std::pair<std::string, Tensor>> feeds = {
      {signature.inputs().at("x").name(), run.inputs.at("x")}};
  std::unique_ptr<cli::ModelRunner> runner;
  const absl::Status created =
      cli::ModelRunner::Create(std::move(model.graph_def), cli::RunnerOptions(), std::move(feeds),
                               fetches, &runner, &*model.saved_model);
  ASSERT_TRUE(created.ok()) << created;
  std::vector<Tensor> outputs;
  const absl::Status ran = runner->Run(RunOptions(), &outputs, nullptr);
  ASSERT_TRUE(ran.ok()) << ran;
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(Difference(outputs[0], run.outputs.at("steps")), "");
  EXPECT_EQ(Difference(outputs[1], run.outputs.at("y")), "");
}

TEST(CliSavedModelTest, Tf1ModelDefaultOutputsComeFromItsServeSignature) {
  cli::Model model;
  const absl::Status loaded = cli::LoadModel(ModelDir("tf1_builder"), &model);
  ASSERT_TRUE(loaded.ok()) << loaded;
  const SignatureDef& signature =
      model.saved_model->meta_graph.signature_def().at("serving_default");
  EXPECT_THAT(cli::DefaultOutputs(model), ElementsAre(signature.outputs().at("counter").name(),
                                                      signature.outputs().at("seen_asset").name(),
                                                      signature.outputs().at("y").name()));
}

TEST(CliSavedModelTest, TagsAndSignatureSelectTheGraphAndTheOutputs) {
  cli::Model model;
  cli::SavedModelSelection selection;
  selection.tags = {"gpu", "serve"};
  ASSERT_TRUE(cli::LoadModel(ModelDir("tf1_builder"), &model, selection).ok());
  EXPECT_EQ(model.saved_model->meta_graph.meta_info_def().tags_size(), 2);

  selection.tags = {"serve"};
  selection.signature_key = "scale";
  ASSERT_TRUE(cli::LoadModel(ModelDir("tf2_dense"), &model, selection).ok());
  const SignatureDef& scale = model.saved_model->meta_graph.signature_def().at("scale");
  EXPECT_THAT(cli::DefaultOutputs(model), ElementsAre(scale.outputs().at("scaled").name()));

  selection.signature_key = "predict";
  const absl::Status missing = cli::LoadModel(ModelDir("tf2_dense"), &model, selection);
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("no signature 'predict' (it has: scale, "
                                           "serving_default)"));

  selection.signature_key = "";
  selection.tags = {"train"};
  const absl::Status no_tags = cli::LoadModel(ModelDir("tf2_dense"), &model, selection);
  EXPECT_EQ(no_tags.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(no_tags.message(), HasSubstr("{ train }"));
}

}  // namespace
}  // namespace saved_model_test
}  // namespace sluice
