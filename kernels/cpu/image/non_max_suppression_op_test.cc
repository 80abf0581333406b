// NonMaxSuppressionV3/V4/V5 beyond the fixtures (tests/kernels/fixtures/nms.pbtxt): values
// recorded from TensorFlow 2.21 on its own test boxes, thresholds of another dtype than the
// boxes, and a large input whose selection order is known.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

// Two clusters of overlapping boxes (0-2 and 3-4) and a lone box (5).
const std::vector<float> kBoxes = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                   0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
const std::vector<float> kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

class NonMaxSuppressionOpTest : public KernelTest {
 protected:
  void Init(const std::string& op, bool pad = false, DataType threshold_type = DT_FLOAT) {
    NodeDefBuilder builder("n", op);
    builder.Input("boxes").Input("scores").Input("max_output_size").Input("iou_threshold");
    builder.Input("score_threshold").Attr("T", DT_FLOAT);
    if (op == "NonMaxSuppressionV5") {
      builder.Input("soft_nms_sigma");
    } else {
      builder.Attr("T_threshold", threshold_type);
    }
    if (op != "NonMaxSuppressionV3") builder.Attr("pad_to_max_output_size", pad);
    ASSERT_TRUE(InitOp(builder.Build()).ok());
  }
  void AddBoxes(int32_t max_output_size) {
    AddInputFromArray<float>(TensorShape({6, 4}), kBoxes);
    AddInputFromArray<float>(TensorShape({6}), kScores);
    AddInputFromArray<int32_t>(TensorShape({}), {max_output_size});
  }
};

TEST_F(NonMaxSuppressionOpTest, V3SelectsTheBestOfEachCluster) {
  Init("NonMaxSuppressionV3");
  AddBoxes(3);
  AddInputFromArray<float>(TensorShape({}), {0.5f});
  AddInputFromArray<float>(TensorShape({}), {-std::numeric_limits<float>::infinity()});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{3, 0, 5}));
}

TEST_F(NonMaxSuppressionOpTest, V4PadsWithZeros) {
  Init("NonMaxSuppressionV4", /*pad=*/true);
  AddBoxes(5);
  AddInputFromArray<float>(TensorShape({}), {0.5f});
  AddInputFromArray<float>(TensorShape({}), {0.0f});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{3, 0, 5, 0, 0}));
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{3}));
}

TEST_F(NonMaxSuppressionOpTest, V4HalfThresholdsForFloatBoxes) {
  Init("NonMaxSuppressionV4", /*pad=*/false, DT_HALF);
  AddBoxes(6);
  AddInputFromArray<half>(TensorShape({}), {half(0.5f)});
  AddInputFromArray<half>(TensorShape({}), {half(0.55f)});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{3, 0}));
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{2}));
}

TEST_F(NonMaxSuppressionOpTest, V5SoftNmsDecaysOverlappingScores) {
  Init("NonMaxSuppressionV5");
  AddBoxes(6);
  AddInputFromArray<float>(TensorShape({}), {1.0f});
  AddInputFromArray<float>(TensorShape({}), {0.0f});
  AddInputFromArray<float>(TensorShape({}), {0.5f});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{3, 0, 1, 5, 4, 2}));
  const std::vector<float> want = {0.95f, 0.9f, 0.38400355f, 0.3f, 0.2560026f, 0.19697244f};
  const std::vector<float> got = Values<float>(*GetOutput(1));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6f) << i;
  EXPECT_EQ(Values<int32_t>(*GetOutput(2)), (std::vector<int32_t>{6}));
}

TEST_F(NonMaxSuppressionOpTest, NegativeMaxOutputSizeIsInvalid) {
  Init("NonMaxSuppressionV3");
  AddBoxes(-1);
  AddInputFromArray<float>(TensorShape({}), {0.5f});
  AddInputFromArray<float>(TensorShape({}), {0.0f});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("output size must be non-negative"), std::string::npos);
}

// Disjoint boxes on a grid: nothing is suppressed, so the output is every box with a score
// above the threshold, by descending score and then ascending index.
TEST_F(NonMaxSuppressionOpTest, LargeDisjointBoxesComeOutInScoreOrder) {
  const int64_t n = 4000;
  std::vector<float> boxes(4 * n);
  std::vector<float> scores(n);
  for (int64_t i = 0; i < n; ++i) {
    const float y = static_cast<float>(i / 100) * 2;
    const float x = static_cast<float>(i % 100) * 2;
    boxes[4 * i + 0] = y;
    boxes[4 * i + 1] = x;
    boxes[4 * i + 2] = y + 1;
    boxes[4 * i + 3] = x + 1;
    scores[i] = static_cast<float>((i * 37) % 101) / 100;
  }
  Init("NonMaxSuppressionV4", /*pad=*/true);
  AddInputFromArray<float>(TensorShape({n, 4}), boxes);
  AddInputFromArray<float>(TensorShape({n}), scores);
  AddInputFromArray<int32_t>(TensorShape({}), {static_cast<int32_t>(n)});
  AddInputFromArray<float>(TensorShape({}), {0.0f});
  AddInputFromArray<float>(TensorShape({}), {0.2f});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> want;
  for (int32_t i = 0; i < n; ++i) {
    if (scores[i] > 0.2f) want.push_back(i);
  }
  std::stable_sort(want.begin(), want.end(),
                   [&](int32_t a, int32_t b) { return scores[a] > scores[b]; });
  const int32_t valid = static_cast<int32_t>(want.size());
  want.resize(n, 0);
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), want);
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{valid}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
