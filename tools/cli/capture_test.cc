#include "tools/cli/capture.h"

#include <limits>
#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "graph/core/tensor_proto.h"
#include "graph/graph.h"
#include "graph/import/graph_def_io.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "io/event_reader.h"

namespace sluice {
namespace cli {
namespace {

using ::testing::HasSubstr;

Tensor Floats(std::initializer_list<float> values) {
  Tensor t(DT_FLOAT, TensorShape({static_cast<int64_t>(values.size())}));
  int i = 0;
  for (float v : values) t.base<float>()[i++] = v;
  return t;
}

class TensorCaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = std::make_unique<Graph>(OpRegistry::Global());
    ASSERT_TRUE(GraphFromTextForTest(
                    "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: "
                    "DT_FLOAT } } }"
                    "node { name: 'block/relu' op: 'Relu' input: 'x' attr { key: 'T' value { "
                    "type: DT_FLOAT } } }",
                    graph_.get())
                    .ok());
    for (Node* node : graph_->op_nodes()) {
      if (node->name() == "x") x_ = node;
      if (node->name() == "block/relu") relu_ = node;
    }
    dir_ = ::testing::TempDir() + "/capture_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }

  std::unique_ptr<Graph> graph_;
  Node* x_ = nullptr;
  Node* relu_ = nullptr;
  std::string dir_;
};

TEST_F(TensorCaptureTest, RecordsMatchingOutputsOfChosenStepsAndTheirStatistics) {
  CaptureOptions options;
  options.dir = dir_;
  options.nodes = "relu$";
  options.every = 2;
  absl::StatusOr<std::unique_ptr<TensorCapture>> made = TensorCapture::Create(options);
  ASSERT_TRUE(made.ok()) << made.status();
  TensorCapture& capture = **made;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int64_t step = 0; step < 3; ++step) {
    capture.BeginStep(step);
    ASSERT_TRUE(capture.OnOutput(*x_, 0, Floats({-1, 2})).ok());  // not matched
    ASSERT_TRUE(capture.OnOutput(*relu_, 0, Floats({0, 2, static_cast<float>(step), nan})).ok());
    ASSERT_TRUE(capture.EndStep().ok());
  }
  ASSERT_TRUE(capture.Finish().ok());
  EXPECT_EQ(capture.recorded(), 2);  // steps 0 and 2

  // The event file: the version record, then one value per recorded step.
  std::vector<Event> events;
  ASSERT_TRUE(ReadEventFile(capture.event_file(), &events).ok());
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].file_version(), "brain.Event:2");
  EXPECT_EQ(events[1].step(), 0);
  EXPECT_EQ(events[2].step(), 2);
  const Summary::Value& value = events[2].summary().value(0);
  EXPECT_EQ(value.tag(), "block/relu:0");
  EXPECT_EQ(value.metadata().plugin_data().plugin_name(), "sluice.capture");
  EXPECT_EQ(value.metadata().plugin_data().content(),
            R"({"node":"block/relu","op":"Relu","output":0})");
  Tensor recorded;
  ASSERT_TRUE(TensorFromProto(value.tensor(), &recorded).ok());
  ASSERT_EQ(recorded.NumElements(), 4);
  EXPECT_EQ(recorded.base<float>()[2], 2.0f);

  std::string index;
  ASSERT_TRUE(ReadFileToString(dir_ + "/index.json", &index).ok());
  EXPECT_THAT(index, HasSubstr(R"("steps":[0,2])"));
  EXPECT_THAT(index, HasSubstr(R"("tag":"block/relu:0","node":"block/relu","op":"Relu")"));
  EXPECT_THAT(index, HasSubstr(R"({"step":2,"shape":[4],"elements":4,"min":0,"max":2,)"));
  EXPECT_THAT(index, HasSubstr(R"("nan":1,"pos_inf":0,"neg_inf":0,"zeros":1})"));
  EXPECT_THAT(index, ::testing::Not(HasSubstr(R"("tag":"x:0")")));
}

TEST_F(TensorCaptureTest, BadOptionsAreInvalidArgument) {
  CaptureOptions options;
  options.dir = dir_;
  options.nodes = "conv(";
  absl::StatusOr<std::unique_ptr<TensorCapture>> made = TensorCapture::Create(options);
  EXPECT_EQ(made.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(made.status().message(), HasSubstr("'conv(' is not a regular expression"));
  options.nodes = "";
  options.every = 0;
  EXPECT_EQ(TensorCapture::Create(options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TensorCaptureTest, UnwritableFolderIsTheErrnoStatus) {
  CaptureOptions options;
  options.dir = "/proc/capture_here";
  absl::StatusOr<std::unique_ptr<TensorCapture>> made = TensorCapture::Create(options);
  EXPECT_FALSE(made.ok());
  EXPECT_THAT(made.status().message(), HasSubstr("--capture: "));
}

}  // namespace
}  // namespace cli
}  // namespace sluice
