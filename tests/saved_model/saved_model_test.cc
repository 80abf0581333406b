// SavedModels written by TensorFlow 2.21 (gen_saved_models.py), loaded with LoadSavedModel
// and run through their signatures: every output must be TensorFlow's, bit for bit.
//
//  - tf2_dense: a tf.Module with resource variables (restored by the SavedModel's restore
//    function, a StatefulPartitionedCall of RestoreV2 and AssignVariableOp) and two signatures;
//  - tf2_no_variables: a function of its input only (its checkpoint holds no variables);
//  - tf2_vocabulary: lookup tables filled by the init op, one from an asset file;
//  - keras_mlp: a Keras 3 model exported with model.export (Dense, BatchNormalization, softmax);
//  - tf1_builder: a TF1 SavedModel (tf.compat.v1.saved_model.Builder) with reference variables,
//    a legacy init op fed an asset's path, and three meta graphs of different tag sets;
//  - tf2_train_regression: a tf.Module trained through a `train` signature (a GradientTape's
//    gradients applied to its variables), run step after step in one session.
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"
#include "saved_model/loader.h"
#include "tests/saved_model/saved_model_expectations.h"

namespace sluice {
namespace saved_model_test {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

// Loads `model` with `tags`, runs signature `signature_key` on the recorded run's inputs and
// compares every output with TensorFlow's.
void ExpectSignatureMatches(const std::string& model, const std::unordered_set<std::string>& tags,
                            const std::string& signature_key, const std::string& run_name,
                            int float_ulps = 0) {
  SCOPED_TRACE(model + " " + run_name);
  absl::StatusOr<std::map<std::string, RecordedRun>> runs = ReadExpectations(model);
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_EQ(runs->count(run_name), 1u);
  const RecordedRun& run = runs->at(run_name);

  SavedModelBundle bundle;
  const absl::Status loaded =
      LoadSavedModel(SessionOptions(), RunOptions(), ModelDir(model), tags, &bundle);
  ASSERT_TRUE(loaded.ok()) << loaded;
  ASSERT_EQ(bundle.GetSignatures().count(signature_key), 1u);
  const SignatureDef& signature = bundle.GetSignatures().at(signature_key);

  std::vector<std::pair<std::string, Tensor>> feeds;
  for (const auto& [key, value] : run.inputs) {
    ASSERT_EQ(signature.inputs().count(key), 1u) << key;
    feeds.emplace_back(signature.inputs().at(key).name(), value);
  }
  std::vector<std::string> fetches;
  std::vector<std::string> keys;
  for (const auto& [key, unused] : run.outputs) {
    ASSERT_EQ(signature.outputs().count(key), 1u) << key;
    fetches.push_back(signature.outputs().at(key).name());
    keys.push_back(key);
  }
  // Twice: the restored variables persist across runs and the second run sees the same values.
  for (int step = 0; step < 2; ++step) {
    std::vector<Tensor> outputs;
    const absl::Status ran = bundle.session->Run(feeds, fetches, {}, &outputs);
    ASSERT_TRUE(ran.ok()) << ran;
    ASSERT_EQ(outputs.size(), keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      EXPECT_EQ(Difference(outputs[i], run.outputs.at(keys[i]), float_ulps), "") << keys[i];
    }
  }
}

TEST(SavedModelTest, Tf2ModuleServingDefault) {
  ExpectSignatureMatches("tf2_dense", {"serve"}, "serving_default", "serving_default");
}

TEST(SavedModelTest, Tf2ModuleSecondSignature) {
  ExpectSignatureMatches("tf2_dense", {"serve"}, "scale", "scale");
}

TEST(SavedModelTest, Tf2ModuleWithoutVariables) {
  ExpectSignatureMatches("tf2_no_variables", {"serve"}, "serving_default", "serving_default");
}

// A table filled from an asset file by the init op (tf.lookup.TextFileInitializer over a
// tf.saved_model.Asset) and a Keras StringLookup's table: the asset's path comes from
// asset_file_def, fed to the init op.
TEST(SavedModelTest, Tf2TablesFromAnAssetAndAKerasStringLookup) {
  ExpectSignatureMatches("tf2_vocabulary", {"serve"}, "serving_default", "serving_default");
}

// Within kKerasMlpFloatUlps (saved_model_expectations.h says why).
TEST(SavedModelTest, KerasExportedModel) {
  ExpectSignatureMatches("keras_mlp", {"serve"}, "serving_default", "serving_default",
                         kKerasMlpFloatUlps);
}

// The TF1 model's signature returns the path its init op was fed for the asset; the recorded
// value keeps only the file name (TensorFlow loaded it from elsewhere), so it is checked here.
void ExpectTf1Model(const std::unordered_set<std::string>& tags, const std::string& run_name) {
  SCOPED_TRACE(run_name);
  absl::StatusOr<std::map<std::string, RecordedRun>> runs = ReadExpectations("tf1_builder");
  ASSERT_TRUE(runs.ok()) << runs.status();
  const RecordedRun& run = runs->at(run_name);
  SavedModelBundle bundle;
  const absl::Status loaded =
      LoadSavedModel(SessionOptions(), RunOptions(), ModelDir("tf1_builder"), tags, &bundle);
  ASSERT_TRUE(loaded.ok()) << loaded;
  const SignatureDef& signature = bundle.GetSignatures().at("serving_default");
  std::vector<Tensor> outputs;
  const absl::Status ran = bundle.session->Run(
      {{signature.inputs().at("x").name(), run.inputs.at("x")}},
      {signature.outputs().at("y").name(), signature.outputs().at("counter").name(),
       signature.outputs().at("seen_asset").name()},
      {}, &outputs);
  ASSERT_TRUE(ran.ok()) << ran;
  EXPECT_EQ(Difference(outputs[0], run.outputs.at("y")), "");
  // The counter was restored (10) and then moved on by the init op (+5), in that order.
  EXPECT_EQ(Difference(outputs[1], run.outputs.at("counter")), "");
  EXPECT_EQ(
      outputs[2].scalar<std::string>()(),
      ModelDir("tf1_builder") + "/assets/" + run.outputs.at("seen_asset").scalar<std::string>()());
}

// The `train` signature runs three times in one session, each run updating the variables the
// next one reads, then `predict` reads the trained variables: every loss and the prediction
// are TensorFlow's (TensorFlow's gradient graph of the tape, run by Sluice's gradient
// kernels) within 4 ulps. TensorFlow itself gives two answers on one machine: the first loss
// is 0.695021868 with its oneDNN rewrites off (TF_ENABLE_ONEDNN_OPTS=0), which is Sluice's,
// and 0.695021927 (1 ulp more) with them on, as recorded.
TEST(SavedModelTest, Tf2TrainSignatureUpdatesTheVariablesStepByStep) {
  absl::StatusOr<std::map<std::string, RecordedRun>> runs =
      ReadExpectations("tf2_train_regression");
  ASSERT_TRUE(runs.ok()) << runs.status();
  SavedModelBundle bundle;
  const absl::Status loaded = LoadSavedModel(SessionOptions(), RunOptions(),
                                             ModelDir("tf2_train_regression"), {"serve"}, &bundle);
  ASSERT_TRUE(loaded.ok()) << loaded;
  for (const std::string& name : {"train.0", "train.1", "train.2", "predict"}) {
    SCOPED_TRACE(name);
    const RecordedRun& run = runs->at(name);
    const SignatureDef& signature =
        bundle.GetSignatures().at(name == "predict" ? "serving_default" : "train");
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const auto& [key, value] : run.inputs) {
      feeds.emplace_back(signature.inputs().at(key).name(), value);
    }
    const std::string key = run.outputs.begin()->first;
    std::vector<Tensor> outputs;
    const absl::Status ran =
        bundle.session->Run(feeds, {signature.outputs().at(key).name()}, {}, &outputs);
    ASSERT_TRUE(ran.ok()) << ran;
    EXPECT_EQ(Difference(outputs[0], run.outputs.at(key), /*float_ulps=*/4), "");
  }
}

TEST(SavedModelTest, Tf1BuilderServe) { ExpectTf1Model({"serve"}, "serve"); }
TEST(SavedModelTest, Tf1BuilderTrain) { ExpectTf1Model({"train"}, "train"); }
TEST(SavedModelTest, Tf1BuilderServeGpuTagSet) { ExpectTf1Model({"gpu", "serve"}, "gpu"); }

TEST(SavedModelTest, UnknownTagSetIsNotFound) {
  SavedModelBundle bundle;
  const absl::Status status =
      LoadSavedModel(SessionOptions(), RunOptions(), ModelDir("tf1_builder"), {"gpu"}, &bundle);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("{ gpu serve }"));
}

TEST(SavedModelTest, MissingCheckpointKeyFailsTheRestore) {
  // tf2_dense restores three variables; a checkpoint from another model lacks their keys.
  // The loader's restore step must fail with RestoreV2's NOT_FOUND, not leave them unset.
  MetaGraphDef dense;
  {
    SavedModelBundle reference;
    ASSERT_TRUE(
        LoadSavedModel(SessionOptions(), RunOptions(), ModelDir("tf2_dense"), {"serve"}, &reference)
            .ok());
    dense = reference.meta_graph_def;
  }
  std::unique_ptr<Session> session;
  ASSERT_TRUE(LoadMetagraphIntoSession(SessionOptions(), dense, &session).ok());
  const absl::Status restored =
      RestoreSession(RunOptions(), dense, ModelDir("tf2_no_variables"), &session);
  EXPECT_EQ(restored.code(), absl::StatusCode::kNotFound) << restored;
}

}  // namespace
}  // namespace saved_model_test
}  // namespace sluice
