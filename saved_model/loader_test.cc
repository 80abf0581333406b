#include "saved_model/loader.h"

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/saved_model.pb.h"
#include "saved_model/constants.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string NewDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/", name);
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

MetaGraphDef ParseMetaGraph(const std::string& text) {
  MetaGraphDef meta_graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &meta_graph)) << text;
  return meta_graph;
}

// A TF1-style model without a checkpoint: y = x + v, where the init op sets the reference
// variable v to 2 and the string variable `asset` to the path it is fed for asset "vocab.txt".
constexpr char kModelWithInitAndAsset[] = R"pb(
  meta_info_def { tags: "serve" }
  graph_def {
    node {
      name: "x"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "v"
      op: "VariableV2"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "shape"
        value { shape {} }
      }
    }
    node {
      name: "two"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape {}
            float_val: 2
          }
        }
      }
    }
    node {
      name: "set_v"
      op: "Assign"
      input: "v"
      input: "two"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "asset_path"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_STRING }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_STRING
            tensor_shape {}
            string_val: "original/vocab.txt"
          }
        }
      }
    }
    node {
      name: "asset"
      op: "VariableV2"
      attr {
        key: "dtype"
        value { type: DT_STRING }
      }
      attr {
        key: "shape"
        value { shape {} }
      }
    }
    node {
      name: "set_asset"
      op: "Assign"
      input: "asset"
      input: "asset_path"
      attr {
        key: "T"
        value { type: DT_STRING }
      }
    }
    node { name: "init" op: "NoOp" input: "^set_v" input: "^set_asset" }
    node {
      name: "y"
      op: "AddV2"
      input: "x"
      input: "v"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "read_asset"
      op: "Identity"
      input: "asset"
      attr {
        key: "T"
        value { type: DT_STRING }
      }
    }
  }
  collection_def {
    key: "legacy_init_op"
    value { node_list { value: "init" } }
  }
  asset_file_def {
    tensor_info { name: "asset_path:0" dtype: DT_STRING }
    filename: "vocab.txt"
  }
  signature_def {
    key: "serving_default"
    value {
      inputs {
        key: "x"
        value { name: "x:0" dtype: DT_FLOAT }
      }
      outputs {
        key: "y"
        value { name: "y:0" dtype: DT_FLOAT }
      }
      method_name: "tensorflow/serving/predict"
    }
  }
)pb";

void WriteSavedModel(const std::string& dir, const MetaGraphDef& meta_graph) {
  SavedModel saved_model;
  saved_model.set_saved_model_schema_version(1);
  *saved_model.add_meta_graphs() = meta_graph;
  ASSERT_TRUE(WriteStringToFile(dir + "/saved_model.pb", saved_model.SerializeAsString()).ok());
}

TEST(SavedModelLoaderTest, RunsTheInitOpWithAssetPathsFed) {
  const std::string dir = NewDir("init_and_asset");
  WriteSavedModel(dir, ParseMetaGraph(kModelWithInitAndAsset));
  SavedModelBundle bundle;
  const absl::Status loaded =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  ASSERT_TRUE(loaded.ok()) << loaded;
  EXPECT_EQ(bundle.GetSignatures().at("serving_default").method_name(),
            "tensorflow/serving/predict");

  Tensor x(DT_FLOAT, TensorShape({2}));
  x.flat<float>()(0) = 1.5f;
  x.flat<float>()(1) = -4.0f;
  std::vector<Tensor> outputs;
  const absl::Status ran = bundle.session->Run({{"x:0", x}}, {"y:0", "read_asset:0"}, {}, &outputs);
  ASSERT_TRUE(ran.ok()) << ran;
  EXPECT_EQ(outputs[0].flat<float>()(0), 3.5f);
  EXPECT_EQ(outputs[0].flat<float>()(1), -2.0f);
  EXPECT_EQ(outputs[1].scalar<std::string>()(), dir + "/assets/vocab.txt");
}

TEST(SavedModelLoaderTest, WithoutACheckpointTheRestoreIsSkipped) {
  const std::string dir = NewDir("saver_without_checkpoint");
  MetaGraphDef meta_graph = ParseMetaGraph(kModelWithInitAndAsset);
  // The restore op does not exist: running it would fail, so success shows it was not run.
  meta_graph.mutable_saver_def()->set_filename_tensor_name("save/Const:0");
  meta_graph.mutable_saver_def()->set_restore_op_name("save/restore_all");
  WriteSavedModel(dir, meta_graph);
  SavedModelBundle bundle;
  const absl::Status loaded =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  EXPECT_TRUE(loaded.ok()) << loaded;
}

TEST(SavedModelLoaderTest, WithACheckpointTheRestoreOpRunsFedWithItsPrefix) {
  const std::string dir = NewDir("saver_with_checkpoint");
  ::mkdir((dir + "/variables").c_str(), 0755);
  ASSERT_TRUE(WriteStringToFile(dir + "/variables/variables.index", "").ok());
  MetaGraphDef meta_graph = ParseMetaGraph(kModelWithInitAndAsset);
  // A "restore op" that copies the fed prefix into the string variable: the test reads it
  // back (the init op, which runs after, overwrites `asset`, so it restores into `prefix`).
  ASSERT_TRUE(google::protobuf::TextFormat::MergeFromString(
      R"pb(
        graph_def {
          node {
            name: "filename"
            op: "PlaceholderWithDefault"
            input: "asset_path"
            attr {
              key: "dtype"
              value { type: DT_STRING }
            }
            attr {
              key: "shape"
              value { shape {} }
            }
          }
          node {
            name: "prefix"
            op: "VariableV2"
            attr {
              key: "dtype"
              value { type: DT_STRING }
            }
            attr {
              key: "shape"
              value { shape {} }
            }
          }
          node {
            name: "restore"
            op: "Assign"
            input: "prefix"
            input: "filename"
            attr {
              key: "T"
              value { type: DT_STRING }
            }
          }
        }
        saver_def { filename_tensor_name: "filename:0" restore_op_name: "restore" version: V2 }
      )pb",
      &meta_graph));
  WriteSavedModel(dir, meta_graph);
  SavedModelBundle bundle;
  const absl::Status loaded =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  ASSERT_TRUE(loaded.ok()) << loaded;
  std::vector<Tensor> outputs;
  ASSERT_TRUE(bundle.session->Run({}, {"prefix:0"}, {}, &outputs).ok());
  EXPECT_EQ(outputs[0].scalar<std::string>()(), dir + "/variables/variables");
}

TEST(SavedModelLoaderTest, InitOpComesFromTheSignatureThenMainOpThenLegacyInitOp) {
  std::string name;
  MetaGraphDef meta_graph = ParseMetaGraph(R"pb(
    collection_def {
      key: "legacy_init_op"
      value { node_list { value: "legacy" } }
    }
  )pb");
  ASSERT_TRUE(GetInitOp("/m", meta_graph, &name).ok());
  EXPECT_EQ(name, "legacy");
  (*meta_graph.mutable_collection_def())[kSavedModelMainOpKey].mutable_node_list()->add_value(
      "main");
  ASSERT_TRUE(GetInitOp("/m", meta_graph, &name).ok());
  EXPECT_EQ(name, "main");
  (*(*meta_graph.mutable_signature_def())[kSavedModelInitOpSignatureKey]
        .mutable_outputs())[kSavedModelInitOpSignatureKey]
      .set_name("NoOp");
  ASSERT_TRUE(GetInitOp("/m", meta_graph, &name).ok());
  EXPECT_EQ(name, "NoOp");

  ASSERT_TRUE(GetInitOp("/m", MetaGraphDef(), &name).ok());
  EXPECT_EQ(name, "");
}

TEST(SavedModelLoaderTest, MalformedInitOpsAreFailedPrecondition) {
  std::string name;
  const absl::Status two = GetInitOp("/export", ParseMetaGraph(R"pb(
                                       collection_def {
                                         key: "saved_model_main_op"
                                         value { node_list { value: "a" value: "b" } }
                                       }
                                     )pb"),
                                     &name);
  EXPECT_EQ(two.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(two.message(), "Expected exactly one main op in : /export");

  const absl::Status no_output = GetInitOp("/export", ParseMetaGraph(R"pb(
                                             signature_def {
                                               key: "__saved_model_init_op"
                                               value { method_name: "x" }
                                             }
                                           )pb"),
                                           &name);
  EXPECT_EQ(no_output.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(no_output.message(), "Could not find output __saved_model_init_op");
}

TEST(SavedModelLoaderTest, AssetsComeFromTheFieldOrThePackedCollection) {
  std::vector<AssetFileDef> assets;
  MetaGraphDef meta_graph = ParseMetaGraph(R"pb(
    collection_def {
      key: "saved_model_assets"
      value { any_list { value { type_url: "type.googleapis.com/tensorflow.AssetFileDef" } } }
    }
  )pb");
  // The packed value: what TensorFlow's builder writes for an asset.
  AssetFileDef packed;
  packed.mutable_tensor_info()->set_name("asset_ph:0");
  packed.set_filename("a.txt");
  auto* any = (*meta_graph.mutable_collection_def())[kSavedModelAssetsKey]
                  .mutable_any_list()
                  ->mutable_value(0);
  any->set_value(packed.SerializeAsString());
  ASSERT_TRUE(GetAssetFileDefs(meta_graph, &assets).ok());
  ASSERT_EQ(assets.size(), 1u);
  EXPECT_EQ(assets[0].tensor_info().name(), "asset_ph:0");
  EXPECT_EQ(assets[0].filename(), "a.txt");

  // The field, when set, wins over the collection.
  AssetFileDef* direct = meta_graph.add_asset_file_def();
  direct->set_filename("b.txt");
  ASSERT_TRUE(GetAssetFileDefs(meta_graph, &assets).ok());
  ASSERT_EQ(assets.size(), 1u);
  EXPECT_EQ(assets[0].filename(), "b.txt");

  meta_graph.clear_asset_file_def();
  any->set_type_url("type.googleapis.com/tensorflow.TensorInfo");
  const absl::Status wrong = GetAssetFileDefs(meta_graph, &assets);
  EXPECT_EQ(wrong.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(wrong.message(), HasSubstr("tensorflow.TensorInfo"));
}

TEST(SavedModelLoaderTest, ConstWithoutValueIsRefusedBeforeTheSession) {
  const std::string dir = NewDir("const_without_value");
  WriteSavedModel(dir, ParseMetaGraph(R"pb(
                    meta_info_def { tags: "serve" }
                    graph_def {
                      node {
                        name: "c"
                        op: "Const"
                        attr {
                          key: "dtype"
                          value { type: DT_FLOAT }
                        }
                      }
                    }
                  )pb"));
  SavedModelBundle bundle;
  const absl::Status status =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "Saved model contains node \"c\" which is a constant tensor but no value has been "
            "provided");
}

TEST(SavedModelLoaderTest, ConstValueOfUnknownShapeIsRefused) {
  const std::string dir = NewDir("const_unknown_shape");
  WriteSavedModel(dir, ParseMetaGraph(R"pb(
                    meta_info_def { tags: "serve" }
                    graph_def {
                      node {
                        name: "c"
                        op: "Const"
                        attr {
                          key: "dtype"
                          value { type: DT_FLOAT }
                        }
                        attr {
                          key: "value"
                          value {
                            tensor {
                              dtype: DT_FLOAT
                              tensor_shape { dim { size: -1 } }
                            }
                          }
                        }
                      }
                    }
                  )pb"));
  SavedModelBundle bundle;
  const absl::Status status =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("Saved model contains node \"c\" (op \"Const\")"));
}

TEST(SavedModelLoaderTest, SelfRecursiveFunctionIsRefused) {
  const std::string dir = NewDir("recursive_function");
  WriteSavedModel(dir, ParseMetaGraph(R"pb(
                    meta_info_def { tags: "serve" }
                    graph_def {
                      library {
                        function {
                          signature { name: "f" }
                          node_def { name: "again" op: "f" }
                        }
                      }
                    }
                  )pb"));
  SavedModelBundle bundle;
  const absl::Status status =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "Function f is self recursive and TensorFlow does not support this scenario.");
}

TEST(SavedModelLoaderTest, AFailingInitOpFailsTheLoad) {
  const std::string dir = NewDir("failing_init");
  MetaGraphDef meta_graph = ParseMetaGraph(kModelWithInitAndAsset);
  (*meta_graph.mutable_collection_def())[kSavedModelLegacyInitOpKey].mutable_node_list()->set_value(
      0, "no_such_node");
  WriteSavedModel(dir, meta_graph);
  SavedModelBundle bundle;
  const absl::Status status =
      LoadSavedModel(SessionOptions(), RunOptions(), dir, {"serve"}, &bundle);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("no_such_node"));
}

TEST(SavedModelLoaderTest, RecognisesSavedModelDirectories) {
  const std::string dir = NewDir("recognised");
  EXPECT_FALSE(MaybeSavedModelDirectory(dir));
  WriteSavedModel(dir, MetaGraphDef());
  EXPECT_TRUE(MaybeSavedModelDirectory(dir));
}

}  // namespace
}  // namespace sluice
