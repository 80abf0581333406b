#include "tools/board/capture_index.h"

#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

// As tools/cli/capture.cc writes it (one line there; spread here to read).
constexpr char kIndex[] = R"({"event_file":"events.out.tfevents.1.host","steps":[0,1],
  "tensors":[
    {"tag":"log:0","node":"log","op":"Log","output":0,"dtype":"float","steps":[
      {"step":0,"shape":[2,3],"elements":6,"min":-1,"max":4,"mean":0.5,"std":1.25,
       "nan":1,"pos_inf":0,"neg_inf":2,"zeros":1},
      {"step":1,"shape":[2,3],"elements":6,"min":null,"max":null,"mean":null,"std":null,
       "nan":6,"pos_inf":0,"neg_inf":0,"zeros":0}]},
    {"tag":"names:0","node":"names","op":"Const","output":0,"dtype":"string","steps":[
      {"step":0,"shape":[2],"elements":2}]},
    {"tag":"bad:0","dtype":"float","steps":[
      {"step":0,"shape":[-1],"elements":1,"nan":0,"pos_inf":0,"neg_inf":0,"zeros":0},
      {"step":1,"shape":[1],"elements":1,"nan":5,"pos_inf":0,"neg_inf":0,"zeros":0},
      {"step":2,"shape":[1],"elements":1,"nan":0,"pos_inf":0,"neg_inf":0,"zeros":0},
      {"step":3,"shape":[1],"elements":1,"min":0,"max":0,"mean":0,"std":0,
       "nan":0,"pos_inf":0,"neg_inf":0,"zeros":1}]},
    {"tag":"unknown:0","dtype":"float7","steps":[{"step":0,"shape":[],"elements":1}]}]})";

TEST(CaptureIndexTest, ReadsStatisticsByTagAndStep) {
  absl::StatusOr<CaptureIndex> index = ParseCaptureIndex(kIndex);
  ASSERT_TRUE(index.ok()) << index.status();
  EXPECT_EQ(index->event_file, "events.out.tfevents.1.host");
  const cli::TensorStatistics* s = index->Find("log:0", 0);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->dtype, DT_FLOAT);
  EXPECT_EQ(s->shape, TensorShape({2, 3}));
  EXPECT_TRUE(s->has_values);
  EXPECT_EQ(s->elements, 6);
  EXPECT_EQ(s->nans, 1);
  EXPECT_EQ(s->negative_infinities, 2);
  EXPECT_EQ(s->zeros, 1);
  EXPECT_EQ(s->finite, 3);
  EXPECT_EQ(s->min, -1);
  EXPECT_EQ(s->max, 4);
  EXPECT_EQ(s->mean, 0.5);
  EXPECT_EQ(s->std, 1.25);
  const cli::TensorStatistics* all_nan = index->Find("log:0", 1);
  ASSERT_NE(all_nan, nullptr);
  EXPECT_EQ(all_nan->finite, 0);
  EXPECT_EQ(all_nan->nans, 6);
  const cli::TensorStatistics* names = index->Find("names:0", 0);
  ASSERT_NE(names, nullptr);
  EXPECT_FALSE(names->has_values);
  EXPECT_EQ(names->dtype, DT_STRING);
  EXPECT_EQ(index->Find("log:0", 2), nullptr);
  EXPECT_EQ(index->Find("absent:0", 0), nullptr);
}

TEST(CaptureIndexTest, SkipsEntriesItCannotRead) {
  absl::StatusOr<CaptureIndex> index = ParseCaptureIndex(kIndex);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->Find("bad:0", 0), nullptr);  // a negative dimension
  EXPECT_EQ(index->Find("bad:0", 1), nullptr);  // more NaN than elements
  EXPECT_EQ(index->Find("bad:0", 2), nullptr);  // a finite element but no min
  EXPECT_NE(index->Find("bad:0", 3), nullptr);
  EXPECT_EQ(index->Find("unknown:0", 0), nullptr);  // no such dtype
}

TEST(CaptureIndexTest, RejectsWhatIsNotAnIndex) {
  EXPECT_EQ(ParseCaptureIndex("{").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseCaptureIndex("[]").status().message(),
            "not a capture index: no \"event_file\" and \"tensors\"");
}

}  // namespace
}  // namespace board
}  // namespace sluice
