#include "tools/board/board.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>

#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "io/event_writer.h"
#include "proto/summary.pb.h"
#include "tools/board/json_value.h"

namespace sluice {
namespace board {
namespace {

namespace fs = std::filesystem;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Summary Captured(const std::string& node, const Tensor& tensor) {
  Summary summary;
  Summary::Value* v = summary.add_value();
  v->set_tag(node + ":0");
  auto* plugin = v->mutable_metadata()->mutable_plugin_data();
  plugin->set_plugin_name("sluice.capture");
  plugin->set_content("{\"node\":\"" + node + "\",\"op\":\"Log\",\"output\":0}");
  TensorToProtoContent(tensor, v->mutable_tensor());
  return summary;
}

// log:0 at step s: float [2, 3, 4] holding i - 4 + s for i = 0..23, then log'd by hand so
// negative values are NaN and zero is -Inf; step 1 also has +Inf at [1, 2, 3].
Tensor LogValues(int step) {
  Tensor t(DT_FLOAT, TensorShape({2, 3, 4}));
  for (int i = 0; i < 24; ++i) {
    const float x = static_cast<float>(i - 4 + step);
    t.flat<float>()(i) = x < 0 ? kNaN : (x == 0 ? -kInf : x);
  }
  if (step == 1) t.flat<float>()(23) = kInf;
  return t;
}

class BoardTest : public testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::path(testing::TempDir()) /
            testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(base_);
    root_ = base_ / "logs";
    // capture/: two steps of log:0.
    capture_ = Writer(root_ / "capture");
    ASSERT_TRUE(capture_->WriteSummary(0, Captured("log", LogValues(0))).ok());
    ASSERT_TRUE(capture_->WriteSummary(1, Captured("log", LogValues(1))).ok());
    ASSERT_TRUE(capture_->Flush().ok());
    // train/: loss 1/(s+1) for s = 0..2, a weights histogram at steps 0 and 1, an image.
    std::unique_ptr<EventWriter> train = Writer(root_ / "train");
    for (int s = 0; s < 3; ++s) {
      Summary summary;
      Summary::Value* loss = summary.add_value();
      loss->set_tag("loss");
      loss->set_simple_value(s == 2 ? kNaN : 1.0f / (s + 1));
      if (s < 2) {
        Summary::Value* weights = summary.add_value();
        weights->set_tag("weights");
        HistogramProto* h = weights->mutable_histo();
        h->set_min(s);
        h->set_max(s + 2);
        for (double limit : {s + 1.0, s + 2.0}) h->add_bucket_limit(limit);
        for (double count : {3.0, 1.0}) h->add_bucket(count);
        Summary::Value* image = summary.add_value();
        image->set_tag("picture");
        image->mutable_image()->set_encoded_image_string(std::string("\x89PNG\r\n\x1a\nDATA", 12));
      }
      ASSERT_TRUE(train->WriteSummary(s, summary).ok());
    }
    ASSERT_TRUE(train->Close().ok());
    // A run outside the log folder, and a link to it from inside.
    std::unique_ptr<EventWriter> outside = Writer(base_ / "outside");
    ASSERT_TRUE(outside->Close().ok());
    fs::create_directory_symlink(base_ / "outside", root_ / "escape");
    absl::StatusOr<std::unique_ptr<Board>> board = Board::Open(root_.string());
    ASSERT_TRUE(board.ok()) << board.status();
    board_ = *std::move(board);
  }

  static std::unique_ptr<EventWriter> Writer(const fs::path& dir) {
    absl::StatusOr<std::unique_ptr<EventWriter>> writer = EventWriter::Create(dir.string());
    EXPECT_TRUE(writer.ok()) << writer.status();
    return writer.ok() ? *std::move(writer) : nullptr;
  }

  // The JSON document of a request that must answer `status`.
  JsonValue Get(const std::string& path, const Query& query, int status = 200) {
    Response response = board_->Handle(path, query);
    EXPECT_EQ(response.status, status) << path << ": " << response.body;
    absl::StatusOr<JsonValue> json = ParseJson(response.body);
    EXPECT_TRUE(json.ok()) << response.body;
    return json.ok() ? *json : JsonValue();
  }

  std::string Error(const std::string& path, const Query& query, int status) {
    std::string message;
    Get(path, query, status).Find("error").AsString(&message);
    return message;
  }

  static std::string Str(const JsonValue& value) {
    std::string text;
    EXPECT_TRUE(value.AsString(&text));
    return text;
  }
  static double Num(const JsonValue& value) {
    double number = -12345;
    EXPECT_TRUE(value.AsDouble(&number));
    return number;
  }

  fs::path base_, root_;
  std::unique_ptr<EventWriter> capture_;
  std::unique_ptr<Board> board_;
};

TEST_F(BoardTest, RunsAndTags) {
  const JsonValue runs = Get("/api/runs", {});
  ASSERT_EQ(runs.Find("runs").elements().size(), 2u);
  EXPECT_EQ(Str(runs.Find("runs").elements()[0].Find("name")), "capture");
  EXPECT_EQ(Str(runs.Find("runs").elements()[1].Find("name")), "train");

  const JsonValue tags = Get("/api/tags", {{"run", "capture"}});
  ASSERT_EQ(tags.Find("tags").elements().size(), 1u);
  const JsonValue& log = tags.Find("tags").elements()[0];
  EXPECT_EQ(Str(log.Find("tag")), "log:0");
  EXPECT_EQ(Str(log.Find("kind")), "tensor");
  EXPECT_EQ(Str(log.Find("dtype")), "float");
  EXPECT_EQ(Str(log.Find("node")), "log");
  EXPECT_EQ(Str(log.Find("op")), "Log");
  EXPECT_EQ(Num(log.Find("steps")), 2);
  EXPECT_EQ(log.Find("shape").elements().size(), 3u);

  const JsonValue train = Get("/api/tags", {{"run", "train"}});
  ASSERT_EQ(train.Find("tags").elements().size(), 3u);
  EXPECT_EQ(Str(train.Find("tags").elements()[0].Find("kind")), "scalar");
  EXPECT_EQ(Str(train.Find("tags").elements()[1].Find("kind")), "histogram");
  EXPECT_EQ(Str(train.Find("tags").elements()[2].Find("kind")), "image");
  EXPECT_TRUE(train.Find("warnings").type() == JsonValue::Type::kArray);
}

TEST_F(BoardTest, StepsAndScalars) {
  const JsonValue steps = Get("/api/steps", {{"run", "capture"}, {"tag", "log:0"}});
  ASSERT_EQ(steps.Find("steps").elements().size(), 2u);
  EXPECT_EQ(Num(steps.Find("steps").elements()[1].Find("step")), 1);
  EXPECT_GT(Num(steps.Find("steps").elements()[1].Find("wall_time")), 1e9);

  const JsonValue scalars = Get("/api/scalars", {{"run", "train"}, {"tag", "loss"}});
  const auto& points = scalars.Find("points").elements();
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(Num(points[1].Find("value")), 0.5);
  EXPECT_EQ(Str(points[2].Find("value")), "NaN");
  EXPECT_EQ(Error("/api/scalars", {{"run", "capture"}, {"tag", "log:0"}}, 400),
            "tag 'log:0' is a tensor, not a scalar");
}

TEST_F(BoardTest, StatisticsComputedOrFromIndexJson) {
  JsonValue stats = Get("/api/statistics", {{"run", "capture"}, {"tag", "log:0"}, {"step", "1"}});
  ASSERT_EQ(stats.Find("steps").elements().size(), 1u);
  const JsonValue& s = stats.Find("steps").elements()[0];
  EXPECT_EQ(Str(s.Find("source")), "tensor");
  EXPECT_EQ(Num(s.Find("elements")), 24);
  EXPECT_EQ(Num(s.Find("nan")), 3);      // i - 3 < 0 for i = 0, 1, 2
  EXPECT_EQ(Num(s.Find("neg_inf")), 1);  // i = 3
  EXPECT_EQ(Num(s.Find("pos_inf")), 1);
  EXPECT_EQ(Num(s.Find("min")), 1);
  EXPECT_EQ(Num(s.Find("max")), 19);
  EXPECT_EQ(Get("/api/statistics", {{"run", "capture"}, {"tag", "log:0"}})
                .Find("steps")
                .elements()
                .size(),
            2u);

  const std::string file = fs::path(capture_->path()).filename().string();
  std::ofstream(root_ / "capture" / "index.json")
      << R"({"event_file":")" << file << R"(","tensors":[{"tag":"log:0","dtype":"float",)"
      << R"("steps":[{"step":1,"shape":[2,3,4],"elements":24,"min":1,"max":19,"mean":10,)"
      << R"("std":5,"nan":3,"pos_inf":1,"neg_inf":1,"zeros":0}]}]})";
  stats = Get("/api/statistics", {{"run", "capture"}, {"tag", "log:0"}, {"step", "1"}});
  EXPECT_EQ(Str(stats.Find("steps").elements()[0].Find("source")), "index.json");
  EXPECT_EQ(Num(stats.Find("steps").elements()[0].Find("std")), 5);
}

TEST_F(BoardTest, SlicesOfATensor) {
  const JsonValue slice =
      Get("/api/slice",
          {{"run", "capture"}, {"tag", "log:0"}, {"step", "1"}, {"index", "[1, :, 2:4]"}});
  EXPECT_EQ(Str(slice.Find("selection")), "[1, :, 2:4]");
  ASSERT_EQ(slice.Find("values").elements().size(), 3u);
  const auto& last_row = slice.Find("values").elements()[2].elements();
  ASSERT_EQ(last_row.size(), 2u);
  EXPECT_EQ(Num(last_row[0]), 19);  // [1, 2, 2]: i = 22, 22 - 3
  EXPECT_EQ(Str(last_row[1]), "Infinity");
  const JsonValue first =
      Get("/api/slice", {{"run", "capture"}, {"tag", "log:0"}, {"step", "0"}, {"index", "0, 0"}});
  const auto& values = first.Find("values").elements();
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(Str(values[0]), "NaN");
  EXPECT_EQ(Str(values[3]), "NaN");
  EXPECT_EQ(Error("/api/slice", {{"run", "capture"}, {"tag", "log:0"}, {"step", "0"}}, 400),
            "the selection [:, :, :] has 3 dimensions (shape [2,3,4]); the table shows at most "
            "2: pick single positions of the others with integers, e.g. [0, :, :]");
  EXPECT_EQ(Error("/api/slice",
                  {{"run", "capture"}, {"tag", "log:0"}, {"step", "0"}, {"index", "[0, 7]"}}, 400),
            "index 7 is out of range for dimension 1 of size 3");
  EXPECT_EQ(Error("/api/slice",
                  {{"run", "capture"}, {"tag", "log:0"}, {"step", "0"}, {"index", "[0, x]"}}, 400),
            "'x' is not an index: expected an integer, a slice such as 2:5 or ::2, or '...'");
  EXPECT_EQ(Error("/api/slice", {{"run", "capture"}, {"tag", "log:0"}, {"step", "5"}}, 404),
            "tag 'log:0' has no step 5 (its steps run from 0 to 1)");
  EXPECT_EQ(Error("/api/slice", {{"run", "capture"}, {"tag", "log:0"}}, 400), "step= is required");
  EXPECT_EQ(Error("/api/slice", {{"run", "capture"}, {"tag", "log:0"}, {"step", "1.5"}}, 400),
            "step='1.5' is not an integer");
  EXPECT_EQ(Error("/api/slice", {{"run", "train"}, {"tag", "loss"}, {"step", "0"}}, 400),
            "tag 'loss' is a scalar summary without tensors, which has no table");
}

TEST_F(BoardTest, RefusesSlicesPastTheLimit) {
  Tensor big(DT_FLOAT, TensorShape({1001, 1000}));
  big.flat<float>().setZero();
  ASSERT_TRUE(capture_->WriteSummary(2, Captured("big", big)).ok());
  ASSERT_TRUE(capture_->Flush().ok());
  EXPECT_EQ(Error("/api/slice", {{"run", "capture"}, {"tag", "big:0"}, {"step", "2"}}, 400),
            "the selection [:, :] holds 1001000 values; the board sends at most 1000000 at "
            "once: narrow it with integers or shorter slices");
  EXPECT_EQ(
      Get("/api/slice", {{"run", "capture"}, {"tag", "big:0"}, {"step", "2"}, {"index", "0:1000"}})
          .Find("values")
          .elements()
          .size(),
      1000u);
}

TEST_F(BoardTest, HistogramsOverSharedBuckets) {
  JsonValue h = Get("/api/histograms", {{"run", "capture"}, {"tag", "log:0"}, {"buckets", "4"}});
  EXPECT_EQ(Str(h.Find("source")), "values");
  ASSERT_EQ(h.Find("edges").elements().size(), 5u);
  EXPECT_EQ(Num(h.Find("edges").elements()[0]), 1);   // the smallest finite value of any step
  EXPECT_EQ(Num(h.Find("edges").elements()[4]), 19);  // the largest
  for (const JsonValue& step : h.Find("steps").elements()) {
    double total = 0;
    for (const JsonValue& count : step.Find("counts").elements()) total += Num(count);
    EXPECT_EQ(total,
              24 - Num(step.Find("nan")) - Num(step.Find("pos_inf")) - Num(step.Find("neg_inf")));
  }
  EXPECT_EQ(Num(h.Find("steps").elements()[1].Find("pos_inf")), 1);

  h = Get("/api/histograms", {{"run", "train"}, {"tag", "weights"}, {"buckets", "3"}});
  EXPECT_EQ(Str(h.Find("source")), "histograms");
  ASSERT_EQ(h.Find("edges").elements().size(), 4u);
  EXPECT_EQ(Num(h.Find("edges").elements()[0]), 0);
  EXPECT_EQ(Num(h.Find("edges").elements()[3]), 3);
  const auto& step0 = h.Find("steps").elements()[0].Find("counts").elements();
  EXPECT_EQ(Num(step0[0]), 3);
  EXPECT_EQ(Num(step0[1]), 1);
  EXPECT_EQ(Num(step0[2]), 0);
  EXPECT_EQ(Error("/api/histograms", {{"run", "train"}, {"tag", "loss"}}, 400),
            "tag 'loss' is a scalar, which has no histograms");
  EXPECT_EQ(Error("/api/histograms", {{"run", "train"}, {"tag", "weights"}, {"buckets", "0"}}, 400),
            "buckets must be between 1 and 500, got 0");
}

TEST_F(BoardTest, Images) {
  Response image =
      board_->Handle("/api/image", {{"run", "train"}, {"tag", "picture"}, {"step", "1"}});
  EXPECT_EQ(image.status, 200);
  EXPECT_EQ(image.content_type, "image/png");
  EXPECT_EQ(image.body.size(), 12u);
}

TEST_F(BoardTest, NothingOutsideTheLogFolder) {
  const std::string outside = (base_ / "outside").string();
  for (const std::string& run :
       {std::string("../outside"), outside, std::string("escape"), std::string("/etc"),
        std::string("capture/.."), std::string("nope")}) {
    EXPECT_EQ(Error("/api/tags", {{"run", run}}, 404), "no run '" + run + "' in the log folder");
    EXPECT_EQ(Get("/api/steps", {{"run", run}, {"tag", "log:0"}}, 404).type(),
              JsonValue::Type::kObject);
  }
  EXPECT_EQ(Error("/api/../etc/passwd", {}, 404), "nothing at /api/../etc/passwd");
  EXPECT_EQ(Error("/etc/passwd", {}, 404), "nothing at /etc/passwd");
  EXPECT_EQ(Error("/api/tags", {}, 400), "run= is required");
  EXPECT_EQ(Error("/api/steps", {{"run", "capture"}, {"tag", "nope"}}, 404),
            "no tag 'nope' in run 'capture'");
}

TEST_F(BoardTest, ServesThePageAndSeesNewSteps) {
  Response page = board_->Handle("/", {});
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<html"), std::string::npos);

  ASSERT_TRUE(capture_->WriteSummary(7, Captured("log", LogValues(7))).ok());
  ASSERT_TRUE(capture_->Flush().ok());
  const JsonValue steps = Get("/api/steps", {{"run", "capture"}, {"tag", "log:0"}});
  ASSERT_EQ(steps.Find("steps").elements().size(), 3u);
  EXPECT_EQ(Num(steps.Find("steps").elements()[2].Find("step")), 7);
}

}  // namespace
}  // namespace board
}  // namespace sluice
