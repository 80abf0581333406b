#include "graph/import/graph_def_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
}

GraphDef SmallGraph() {
  GraphDef graph_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
                                                              node {
                                                                name: "x"
                                                                op: "Placeholder"
                                                                attr {
                                                                  key: "dtype"
                                                                  value { type: DT_FLOAT }
                                                                }
                                                                attr {
                                                                  key: "shape"
                                                                  value {
                                                                    shape {
                                                                      dim { size: -1 }
                                                                      dim { size: 3 }
                                                                    }
                                                                  }
                                                                }
                                                              }
                                                              node {
                                                                name: "y"
                                                                op: "Relu"
                                                                input: "x"
                                                                attr {
                                                                  key: "T"
                                                                  value { type: DT_FLOAT }
                                                                }
                                                              }
                                                              versions { producer: 2474 }
                                                            )pb",
                                                            &graph_def));
  return graph_def;
}

void WriteRaw(const std::string& path, const std::string& bytes) {
  FILE* f = fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  fclose(f);
}

TEST(GraphDefIoTest, BinaryAndTextRoundTrip) {
  const GraphDef original = SmallGraph();
  const std::string pb = TempPath("round_trip.pb");
  const std::string pbtxt = TempPath("round_trip.pbtxt");
  ASSERT_TRUE(WriteBinaryProtoFile(pb, original).ok());
  ASSERT_TRUE(WriteTextProtoFile(pbtxt, original).ok());

  GraphDef from_binary, from_text, from_either_binary, from_either_text;
  ASSERT_TRUE(ReadBinaryProtoFile(pb, &from_binary).ok());
  ASSERT_TRUE(ReadTextProtoFile(pbtxt, &from_text).ok());
  ASSERT_TRUE(ReadGraphDefFile(pb, &from_either_binary).ok());
  ASSERT_TRUE(ReadGraphDefFile(pbtxt, &from_either_text).ok());
  for (const GraphDef* read : {&from_binary, &from_text, &from_either_binary, &from_either_text}) {
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*read, original));
  }
}

// TensorFlow annotates Shape-like nodes with full types; a text GraphDef names them.
TEST(GraphDefIoTest, TextFullTypesParse) {
  GraphDef graph_def;
  const absl::Status s = ParseGraphDef(R"pb(
                                         node {
                                           name: "shape"
                                           op: "Shape"
                                           experimental_type {
                                             type_id: TFT_PRODUCT
                                             args {
                                               type_id: TFT_SHAPE_TENSOR
                                               args { type_id: TFT_INT32 }
                                             }
                                           }
                                         }
                                       )pb",
                                       &graph_def);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(graph_def.node(0).experimental_type().args(0).type_id(), TFT_SHAPE_TENSOR);
}

TEST(GraphDefIoTest, SerializationIsDeterministic) {
  GraphDef a = SmallGraph();
  GraphDef b;
  // Build the same attrs in the opposite insertion order.
  *b.mutable_versions() = a.versions();
  for (const NodeDef& node : a.node()) {
    NodeDef* copy = b.add_node();
    copy->set_name(node.name());
    copy->set_op(node.op());
    *copy->mutable_input() = node.input();
    std::vector<std::string> keys;
    for (const auto& attr : node.attr()) keys.push_back(attr.first);
    std::sort(keys.rbegin(), keys.rend());
    for (const std::string& key : keys) (*copy->mutable_attr())[key] = node.attr().at(key);
  }
  std::string bytes_a, bytes_b;
  ASSERT_TRUE(SerializeDeterministic(a, &bytes_a).ok());
  ASSERT_TRUE(SerializeDeterministic(b, &bytes_b).ok());
  EXPECT_EQ(bytes_a, bytes_b);
}

TEST(GraphDefIoTest, MissingFileIsNotFound) {
  GraphDef graph_def;
  absl::Status status = ReadGraphDefFile("/nonexistent/model.pb", &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("/nonexistent/model.pb"));
  EXPECT_EQ(ReadBinaryProtoFile("/nonexistent/x", &graph_def).code(), absl::StatusCode::kNotFound);
}

TEST(GraphDefIoTest, DirectoryIsInvalidArgument) {
  const std::string dir = TempPath("plain_dir");
  mkdir(dir.c_str(), 0755);
  GraphDef graph_def;
  absl::Status status = ReadGraphDefFile(dir, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("is a directory"));
  EXPECT_THAT(status.message(), ::testing::Not(HasSubstr("SavedModel")));
}

TEST(GraphDefIoTest, SavedModelDirectoryIsRecognised) {
  const std::string dir = TempPath("saved_model_dir");
  mkdir(dir.c_str(), 0755);
  WriteRaw(dir + "/saved_model.pb", "");
  GraphDef graph_def;
  absl::Status status = ReadGraphDefFile(dir, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("SavedModel"));
}

TEST(GraphDefIoTest, DeviceFileIsRejected) {
  GraphDef graph_def;
  absl::Status status = ReadGraphDefFile("/dev/zero", &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("not a regular file"));
}

// A FIFO with no writer is rejected at once, not waited on.
TEST(GraphDefIoTest, FifoIsRejectedWithoutBlocking) {
  const std::string fifo = TempPath("model_fifo");
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  GraphDef graph_def;
  absl::Status status = ReadGraphDefFile(fifo, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("not a regular file"));
  EXPECT_THAT(status.message(), HasSubstr(fifo));
  unlink(fifo.c_str());
}

TEST(GraphDefIoTest, TfLiteFlatbufferIsRecognised) {
  std::string bytes("\x1c\x00\x00\x00TFL3\x00\x00\x12\x00", 12);
  GraphDef graph_def;
  absl::Status status = ParseGraphDef(bytes, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("TensorFlow Lite"));
}

TEST(GraphDefIoTest, OnnxModelIsRecognised) {
  // ir_version: 8, producer_name: "pytorch", graph { name: "g" }, opset_import { version: 17 }
  std::string bytes("\x08\x08\x12\x07pytorch\x3a\x03\x52\x01g\x42\x02\x10\x11", 20);
  GraphDef graph_def;
  absl::Status status = ParseGraphDef(bytes, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("ONNX"));
}

TEST(GraphDefIoTest, SavedModelProtoIsRecognised) {
  // saved_model_schema_version: 1, meta_graphs { graph_def { } }
  std::string bytes("\x08\x01\x12\x02\x12\x00", 6);
  GraphDef graph_def;
  absl::Status status = ParseGraphDef(bytes, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("SavedModel"));
}

TEST(GraphDefIoTest, GarbageBytesAreDataLoss) {
  std::string bytes("\xff\xff\xff\xff\x00\x01\x02garbage", 14);
  GraphDef graph_def;
  absl::Status status = ParseGraphDef(bytes, &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(graph_def.node_size(), 0);
}

TEST(GraphDefIoTest, OnlyUnknownFieldsIsNotAGraphDef) {
  // Field 15, varint 1: valid wire format, but nothing a GraphDef has.
  GraphDef graph_def;
  EXPECT_FALSE(ParseGraphDef(std::string("\x78\x01", 2), &graph_def).ok());
}

TEST(GraphDefIoTest, BadTextReportsLineAndColumn) {
  GraphDef graph_def;
  absl::Status status = ParseGraphDef("node {\n  name: \"a\"\n  bogus: 1\n}\n", &graph_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("3:"));
  EXPECT_THAT(status.message(), HasSubstr("bogus"));
}

TEST(GraphDefIoTest, EmptyInputIsEmptyGraph) {
  GraphDef graph_def;
  EXPECT_TRUE(ParseGraphDef("", &graph_def).ok());
  EXPECT_TRUE(ParseGraphDef("  # just a comment\n", &graph_def).ok());
  EXPECT_EQ(graph_def.node_size(), 0);
}

TEST(GraphDefIoTest, InvalidUtf8IsSilentDataLoss) {
  GraphDef graph_def = SmallGraph();
  graph_def.mutable_node(0)->set_name("bad\xff\xfe");
  std::string bytes;
  {
    // Serializing an invalid string field logs; that is the test's own doing, not ours.
    google::protobuf::LogSilencer silence;
    bytes = graph_def.SerializeAsString();
  }
  ::testing::internal::CaptureStderr();
  GraphDef parsed;
  absl::Status status = ParseGraphDef(bytes, &parsed);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(status.ok());
}

// Builds a GraphDef whose attrs nest `depth` levels deep through AttrValue.func.
GraphDef DeeplyNested(int depth) {
  GraphDef graph_def;
  NodeDef* node = graph_def.add_node();
  node->set_name("n");
  node->set_op("NoOp");
  AttrValue* value = &(*node->mutable_attr())["f"];
  for (int i = 0; i < depth; ++i) {
    NameAttrList* func = value->mutable_func();
    func->set_name("f");
    value = &(*func->mutable_attr())["f"];
  }
  value->set_i(1);
  return graph_def;
}

TEST(GraphDefIoTest, RecursionIsBounded) {
  const GraphDef deep = DeeplyNested(kProtoRecursionLimit);
  std::string bytes;
  ASSERT_TRUE(SerializeDeterministic(deep, &bytes).ok());
  std::string text;
  ASSERT_TRUE(google::protobuf::TextFormat::PrintToString(deep, &text));
  ::testing::internal::CaptureStderr();
  GraphDef parsed;
  EXPECT_EQ(ParseBinaryProto(bytes, &parsed).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ParseTextProto(text, &parsed).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(ParseGraphDef(bytes, &parsed).ok());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");

  const GraphDef shallow = DeeplyNested(10);
  ASSERT_TRUE(SerializeDeterministic(shallow, &bytes).ok());
  EXPECT_TRUE(ParseGraphDef(bytes, &parsed).ok());
}

TEST(GraphDefIoTest, WriteToMissingDirectoryFails) {
  absl::Status status = WriteBinaryProtoFile("/nonexistent/dir/out.pb", SmallGraph());
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("/nonexistent/dir/out.pb"));
}

}  // namespace
}  // namespace sluice
