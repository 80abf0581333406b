#include "tools/board/run_index.h"

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <string>

#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "io/event_writer.h"

namespace sluice {
namespace board {
namespace {

namespace fs = std::filesystem;

Summary Scalar(const std::string& tag, float value) {
  Summary summary;
  Summary::Value* v = summary.add_value();
  v->set_tag(tag);
  v->set_simple_value(value);
  return summary;
}

Summary Captured(const std::string& node, const Tensor& tensor) {
  Summary summary;
  Summary::Value* v = summary.add_value();
  v->set_tag(node + ":0");
  auto* plugin = v->mutable_metadata()->mutable_plugin_data();
  plugin->set_plugin_name(kCapturePlugin);
  plugin->set_content("{\"node\":\"" + node + "\",\"op\":\"Log\",\"output\":0}");
  TensorToProtoContent(tensor, v->mutable_tensor());
  return summary;
}

Tensor Floats(std::initializer_list<float> values) {
  Tensor tensor(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
  int i = 0;
  for (float v : values) tensor.flat<float>()(i++) = v;
  return tensor;
}

class RunIndexTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(testing::TempDir()) /
            testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
    absl::StatusOr<LogFolder> folder = LogFolder::Open(root_.string());
    ASSERT_TRUE(folder.ok());
    folder_ = std::make_unique<LogFolder>(*folder);
  }

  std::unique_ptr<EventWriter> Writer(const std::string& suffix) {
    EventWriterOptions options;
    options.filename_suffix = suffix;
    absl::StatusOr<std::unique_ptr<EventWriter>> writer =
        EventWriter::Create(root_.string(), options);
    EXPECT_TRUE(writer.ok()) << writer.status();
    return writer.ok() ? *std::move(writer) : nullptr;
  }

  void Refresh() {
    absl::StatusOr<RunFiles> run = folder_->FindRun(".");
    ASSERT_TRUE(run.ok()) << run.status();
    index_.Refresh(*run, *folder_);
  }

  fs::path root_;
  std::unique_ptr<LogFolder> folder_;
  RunIndex index_;
};

TEST_F(RunIndexTest, ClassifiesTagsByTheirFirstValue) {
  std::unique_ptr<EventWriter> writer = Writer("");
  ASSERT_NE(writer, nullptr);
  ASSERT_TRUE(writer->WriteSummary(0, Scalar("loss", 2.5f)).ok());
  Summary more;
  Summary::Value* h = more.add_value();
  h->set_tag("weights");
  h->mutable_histo()->set_num(3);
  Summary::Value* image = more.add_value();
  image->set_tag("picture");
  image->mutable_image()->set_encoded_image_string("\x89PNG");
  Summary::Value* accuracy = more.add_value();
  accuracy->set_tag("accuracy");
  accuracy->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
  Tensor half_value(DT_DOUBLE, TensorShape({}));
  half_value.scalar<double>()() = 0.5;
  TensorToProtoContent(half_value, accuracy->mutable_tensor());
  ASSERT_TRUE(writer->WriteSummary(1, more).ok());
  ASSERT_TRUE(writer->WriteSummary(1, Captured("log", Floats({1, 2, 3}))).ok());
  ASSERT_TRUE(writer->Close().ok());
  Refresh();

  ASSERT_EQ(index_.series().size(), 5u);
  const TagSeries* loss = index_.Find("loss");
  ASSERT_NE(loss, nullptr);
  EXPECT_EQ(loss->kind, TagKind::kScalar);
  ASSERT_EQ(loss->steps.size(), 1u);
  EXPECT_EQ(loss->steps[0].scalar, 2.5);
  EXPECT_EQ(index_.Find("weights")->kind, TagKind::kHistogram);
  EXPECT_EQ(index_.Find("picture")->kind, TagKind::kImage);
  const TagSeries* acc = index_.Find("accuracy");
  EXPECT_EQ(acc->kind, TagKind::kScalar);
  EXPECT_EQ(acc->steps[0].scalar, 0.5);
  const TagSeries* log = index_.Find("log:0");
  ASSERT_NE(log, nullptr);
  EXPECT_EQ(log->kind, TagKind::kTensor);
  EXPECT_EQ(log->plugin, kCapturePlugin);
  EXPECT_EQ(log->node, "log");
  EXPECT_EQ(log->op, "Log");
  EXPECT_EQ(log->output, 0);
  EXPECT_EQ(log->dtype, DT_FLOAT);
  ASSERT_EQ(log->steps.size(), 1u);
  EXPECT_EQ(log->steps[0].step, 1);
  EXPECT_EQ(log->steps[0].shape, std::vector<int64_t>{3});
  EXPECT_TRUE(index_.warnings().empty());

  absl::StatusOr<Summary::Value> value =
      ReadValue(index_.file(log->steps[0].file), log->steps[0], "log:0");
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(value->tensor().tensor_shape().dim(0).size(), 3);
  EXPECT_EQ(ReadValue(index_.file(log->steps[0].file), log->steps[0], "loss").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_STREQ(TagKindName(TagKind::kHistogram), "histogram");
}

TEST_F(RunIndexTest, ReadsWhatWasAppendedAndKeepsTheLastValueOfAStep) {
  std::unique_ptr<EventWriter> writer = Writer("");
  ASSERT_NE(writer, nullptr);
  ASSERT_TRUE(writer->WriteSummary(2, Scalar("loss", 1)).ok());
  ASSERT_TRUE(writer->Flush().ok());
  Refresh();
  ASSERT_EQ(index_.Find("loss")->steps.size(), 1u);
  ASSERT_TRUE(writer->WriteSummary(0, Scalar("loss", 3)).ok());
  ASSERT_TRUE(writer->WriteSummary(2, Scalar("loss", 4)).ok());
  ASSERT_TRUE(writer->WriteSummary(5, Scalar("loss", 5)).ok());
  ASSERT_TRUE(writer->Flush().ok());
  Refresh();
  const TagSeries* loss = index_.Find("loss");
  ASSERT_EQ(loss->steps.size(), 3u);
  EXPECT_EQ(loss->steps[0].step, 0);
  EXPECT_EQ(loss->steps[0].scalar, 3);
  EXPECT_EQ(loss->steps[1].step, 2);
  EXPECT_EQ(loss->steps[1].scalar, 4);
  EXPECT_EQ(loss->steps[2].step, 5);
  // A second file in the same run.
  std::unique_ptr<EventWriter> other = Writer(".eval");
  ASSERT_TRUE(other->WriteSummary(7, Scalar("loss", 7)).ok());
  ASSERT_TRUE(other->Close().ok());
  Refresh();
  EXPECT_EQ(index_.Find("loss")->steps.size(), 4u);
}

TEST_F(RunIndexTest, StartsAgainWhenAFileShrinks) {
  std::unique_ptr<EventWriter> writer = Writer("");
  ASSERT_TRUE(writer->WriteSummary(0, Scalar("loss", 1)).ok());
  ASSERT_TRUE(writer->WriteSummary(1, Scalar("gone", 1)).ok());
  ASSERT_TRUE(writer->Close().ok());
  const std::string path = writer->path();
  Refresh();
  ASSERT_NE(index_.Find("gone"), nullptr);
  // Cut before the second summary, as a file rewritten from the start would be.
  const uint64_t second = index_.Find("gone")->steps[0].offset;
  fs::resize_file(path, second);
  Refresh();
  EXPECT_EQ(index_.Find("gone"), nullptr);
  ASSERT_NE(index_.Find("loss"), nullptr);
  EXPECT_EQ(index_.Find("loss")->steps.size(), 1u);
}

TEST_F(RunIndexTest, NamesCorruptAndIncompleteRecords) {
  std::unique_ptr<EventWriter> writer = Writer("");
  ASSERT_TRUE(writer->WriteSummary(0, Scalar("loss", 1)).ok());
  ASSERT_TRUE(writer->Close().ok());
  {
    std::ofstream out(writer->path(), std::ios::binary | std::ios::app);
    out << std::string(20, '\x01');  // a header whose length checksum is wrong
  }
  Refresh();
  EXPECT_EQ(index_.Find("loss")->steps.size(), 1u);
  ASSERT_EQ(index_.warnings().size(), 1u);
  const std::string warning = index_.warnings()[0];
  const std::string name = fs::path(writer->path()).filename().string();
  EXPECT_EQ(warning.rfind("corrupted record at ", 0), 0u) << warning;
  EXPECT_NE(warning.find("mismatch in " + name), std::string::npos) << warning;
  EXPECT_EQ(warning.find(root_.string()), std::string::npos) << "no absolute paths: " << warning;
}

TEST_F(RunIndexTest, UsesIndexJsonForItsOwnEventFileOnly) {
  std::unique_ptr<EventWriter> writer = Writer("");
  ASSERT_TRUE(writer->WriteSummary(0, Captured("log", Floats({1, 2}))).ok());
  ASSERT_TRUE(writer->Close().ok());
  const std::string name = fs::path(writer->path()).filename().string();
  Refresh();
  const TagSeries* log = index_.Find("log:0");
  EXPECT_EQ(index_.CapturedStatistics(*log, log->steps[0]), nullptr);
  std::ofstream(root_ / "index.json")
      << R"({"event_file":")" << name
      << R"(","tensors":[{"tag":"log:0","dtype":"float","steps":[{"step":0,"shape":[2],)"
      << R"("elements":2,"min":1,"max":2,"mean":1.5,"std":0.5,"nan":0,"pos_inf":0,"neg_inf":0,)"
      << R"("zeros":0}]}]})";
  Refresh();
  log = index_.Find("log:0");
  const cli::TensorStatistics* stats = index_.CapturedStatistics(*log, log->steps[0]);
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->mean, 1.5);
  std::ofstream(root_ / "index.json") << R"({"event_file":"another","tensors":[]})";
  Refresh();
  EXPECT_EQ(index_.CapturedStatistics(*log, log->steps[0]), nullptr);
  std::ofstream(root_ / "index.json") << "{broken";
  Refresh();
  ASSERT_EQ(index_.warnings().size(), 1u);
  EXPECT_EQ(index_.warnings()[0],
            "index.json: JSON: expected a member name at byte 1 (statistics are computed "
            "instead)");
}

}  // namespace
}  // namespace board
}  // namespace sluice
