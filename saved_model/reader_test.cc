#include "saved_model/reader.h"

#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/saved_model.pb.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// A fresh directory under the test's temporary directory.
std::string NewDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/", name);
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

SavedModel TwoMetaGraphs() {
  SavedModel saved_model;
  EXPECT_TRUE(
      google::protobuf::TextFormat::ParseFromString(R"pb(
                                                      saved_model_schema_version: 1
                                                      meta_graphs {
                                                        meta_info_def { tags: "serve" }
                                                        graph_def { node { name: "a" op: "NoOp" } }
                                                      }
                                                      meta_graphs {
                                                        meta_info_def { tags: "gpu" tags: "serve" }
                                                        graph_def { node { name: "b" op: "NoOp" } }
                                                      }
                                                    )pb",
                                                    &saved_model));
  return saved_model;
}

void WriteBinary(const std::string& dir, const SavedModel& saved_model) {
  ASSERT_TRUE(WriteStringToFile(dir + "/saved_model.pb", saved_model.SerializeAsString()).ok());
}

TEST(SavedModelReaderTest, FindsTheMetaGraphWhoseTagsAreExactlyTheSet) {
  const std::string dir = NewDir("two_meta_graphs");
  WriteBinary(dir, TwoMetaGraphs());
  MetaGraphDef serve;
  ASSERT_TRUE(ReadMetaGraphDefFromSavedModel(dir, {"serve"}, &serve).ok());
  EXPECT_EQ(serve.graph_def().node(0).name(), "a");
  MetaGraphDef gpu;
  ASSERT_TRUE(ReadMetaGraphDefFromSavedModel(dir, {"serve", "gpu"}, &gpu).ok());
  EXPECT_EQ(gpu.graph_def().node(0).name(), "b");
}

TEST(SavedModelReaderTest, NoMatchingTagSetIsNotFoundAndListsTheTagSets) {
  const std::string dir = NewDir("tag_mismatch");
  WriteBinary(dir, TwoMetaGraphs());
  MetaGraphDef meta_graph;
  // A subset of a meta graph's tags does not select it: TensorFlow compares whole sets.
  const absl::Status status = ReadMetaGraphDefFromSavedModel(dir, {"gpu"}, &meta_graph);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(),
              HasSubstr("Could not find meta graph def matching supplied tags: { gpu }. To "
                        "inspect available tag-sets in the SavedModel, please use the "
                        "SavedModel CLI: `saved_model_cli`"));
  EXPECT_THAT(status.message(), HasSubstr("(the SavedModel has { serve }, { gpu serve })"));
}

TEST(SavedModelReaderTest, MissingDirectoryIsNotFound) {
  SavedModel saved_model;
  const absl::Status status = ReadSavedModel("/nonexistent/model", &saved_model);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(),
              HasSubstr("Could not find SavedModel .pb or .pbtxt at supplied export directory "
                        "path: /nonexistent/model"));
}

TEST(SavedModelReaderTest, CorruptBinaryIsDataLossNamingTheFile) {
  const std::string dir = NewDir("corrupt");
  ASSERT_TRUE(WriteStringToFile(dir + "/saved_model.pb", "\x12\xff\xff\xff\x0f").ok());
  SavedModel saved_model;
  const absl::Status status = ReadSavedModel(dir, &saved_model);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("saved_model.pb"));
}

TEST(SavedModelReaderTest, ReadsTextWhenThereIsNoBinary) {
  const std::string dir = NewDir("text_only");
  // TF2 SavedModels carry an object graph and signatures may name composite tensors; Sluice
  // does not model either, and a text SavedModel that has them still reads.
  ASSERT_TRUE(WriteStringToFile(dir + "/saved_model.pbtxt", R"pb(
                saved_model_schema_version: 1
                meta_graphs {
                  meta_info_def { tags: "serve" }
                  graph_def { node { name: "t" op: "NoOp" } }
                  signature_def {
                    key: "s"
                    value {
                      outputs {
                        key: "o"
                        value { composite_tensor { components { name: "t:0" } } }
                      }
                    }
                  }
                  object_graph_def { nodes { children { node_id: 1 local_name: "w" } } }
                }
              )pb")
                  .ok());
  MetaGraphDef meta_graph;
  const absl::Status status = ReadMetaGraphDefFromSavedModel(dir, {"serve"}, &meta_graph);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(meta_graph.graph_def().node(0).name(), "t");
  EXPECT_EQ(meta_graph.signature_def().at("s").outputs().count("o"), 1);
}

TEST(SavedModelReaderTest, BinaryIsPreferredToText) {
  const std::string dir = NewDir("both");
  WriteBinary(dir, TwoMetaGraphs());
  ASSERT_TRUE(WriteStringToFile(dir + "/saved_model.pbtxt", "not text format {").ok());
  SavedModel saved_model;
  ASSERT_TRUE(ReadSavedModel(dir, &saved_model).ok());
  EXPECT_EQ(saved_model.meta_graphs_size(), 2);
}

TEST(SavedModelReaderTest, UnknownFieldsOfABinaryMetaGraphSurviveARoundTrip) {
  // object_graph_def (field 7) is not modelled; its bytes stay, so a MetaGraphDef handed back
  // to a client (TF_LoadSessionFromSavedModel's meta_graph_def) still has them.
  MetaGraphDef meta_graph;
  meta_graph.mutable_meta_info_def()->add_tags("serve");
  std::string bytes = meta_graph.SerializeAsString();
  bytes += std::string("\x3a\x03\x0a\x01\x08", 5);  // field 7, 3 bytes: a nested message
  MetaGraphDef parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(parsed.SerializeAsString(), bytes);
}

}  // namespace
}  // namespace sluice
