#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

// Every summary op outputs a scalar string and leaves its inputs' shapes to the kernel.
TEST(ScalarSummaryShapeTest, ScalarWhateverTheInputs) {
  EXPECT_EQ(Infer("ScalarSummary", "T=DT_FLOAT", "[2];[2]"), "[]");
  EXPECT_EQ(Infer("ScalarSummary", "T=DT_INT64", "[2];[3]"), "[]");
  EXPECT_EQ(Infer("ScalarSummary", "T=DT_HALF", "?;?"), "[]");
}

TEST(HistogramSummaryShapeTest, ScalarWhateverTheInputs) {
  EXPECT_EQ(Infer("HistogramSummary", "", "[];[2,3]"), "[]");
  EXPECT_EQ(Infer("HistogramSummary", "T=DT_UINT8", "[4];?"), "[]");
}

TEST(TensorSummaryShapeTest, ScalarWhateverTheInputs) {
  EXPECT_EQ(Infer("TensorSummaryV2", "T=DT_STRING", "[];[2,?];[]"), "[]");
  EXPECT_EQ(Infer("TensorSummaryV2", "T=DT_BOOL", "[3];?;[2]"), "[]");
  EXPECT_EQ(Infer("TensorSummary", "T=DT_INT32", "[5]"), "[]");
}

TEST(ImageSummaryShapeTest, ScalarWhateverTheInputs) {
  EXPECT_EQ(Infer("ImageSummary", "", "[];[2,4,4,3]"), "[]");
  EXPECT_EQ(Infer("ImageSummary", "T=DT_UINT8, max_images=1", "[];[4,4]"), "[]");
}

TEST(AudioSummaryShapeTest, ScalarWhateverTheInputs) {
  EXPECT_EQ(Infer("AudioSummaryV2", "", "[];[2,100];[]"), "[]");
  EXPECT_EQ(Infer("AudioSummaryV2", "max_outputs=1", "?;[7];[3]"), "[]");
}

TEST(MergeSummaryShapeTest, ScalarWhateverTheInputs) {
  EXPECT_EQ(Infer("MergeSummary", "N=1", "[]"), "[]");
  EXPECT_EQ(Infer("MergeSummary", "N=3", "[];[2];?"), "[]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
