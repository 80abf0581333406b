// FusedBatchNormV3 cases the TensorFlow fixtures cannot show: inference where TensorFlow's
// Eigen kernel leaves reserve_space_1/2 unwritten (half, 5-D data), and a tensor large
// enough to split over the pool, checked against a double-precision reference.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class FusedBatchNormV3Test : public KernelTest {
 protected:
  absl::Status Init(DataType t, bool is_training, const std::string& format) {
    return InitOp(NodeDefBuilder("bn", "FusedBatchNormV3")
                      .Input("x")
                      .Input("scale")
                      .Input("offset")
                      .Input("mean")
                      .Input("variance")
                      .Attr("T", t)
                      .Attr("U", DT_FLOAT)
                      .Attr("epsilon", 0.001f)
                      .Attr("is_training", is_training)
                      .Attr("data_format", format)
                      .Build());
  }
  void AddStats(const std::vector<float>& scale, const std::vector<float>& offset,
                const std::vector<float>& mean, const std::vector<float>& var) {
    const TensorShape shape({static_cast<int64_t>(scale.size())});
    AddInputFromArray<float>(shape, scale);
    AddInputFromArray<float>(shape, offset);
    AddInputFromArray<float>(shape, mean);
    AddInputFromArray<float>(shape, var);
  }
};

TEST_F(FusedBatchNormV3Test, HalfInferencePassesStatisticsThrough) {
  ASSERT_TRUE(Init(DT_HALF, false, "NHWC").ok());
  AddInputFromArray<half>(TensorShape({1, 1, 2, 2}),
                          {half(1.0f), half(2.0f), half(3.0f), half(4.0f)});
  AddStats({1, 2}, {0, 1}, {1, 2}, {4, 1});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<half> y = Values<half>(*GetOutput(0));
  const float inv0 = 1 / std::sqrt(4.001f);
  const float inv1 = 2 / std::sqrt(1.001f);
  const float want[] = {0, 1, 2 * inv0, 2 * inv1 + 1};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(static_cast<float>(y[i]), want[i], 2e-3) << i;
  EXPECT_EQ(Values<float>(*GetOutput(1)), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values<float>(*GetOutput(2)), (std::vector<float>{4, 1}));
  EXPECT_EQ(Values<float>(*GetOutput(3)), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values<float>(*GetOutput(4)), (std::vector<float>{4, 1}));
  EXPECT_EQ(GetOutput(5)->shape(), TensorShape({}));
}

TEST_F(FusedBatchNormV3Test, ChannelsFirst5dInference) {
  ASSERT_TRUE(Init(DT_FLOAT, false, "NCDHW").ok());
  std::vector<float> x(2 * 2 * 8);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  AddInputFromArray<float>(TensorShape({2, 2, 2, 2, 2}), x);
  AddStats({1, 1}, {0, 10}, {0, 8}, {1 - 0.001f, 1 - 0.001f});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> y = Values<float>(*GetOutput(0));
  for (size_t i = 0; i < x.size(); ++i) {
    const bool second_channel = (i / 8) % 2 == 1;
    EXPECT_NEAR(y[i], second_channel ? x[i] - 8 + 10 : x[i], 1e-5) << i;
  }
}

TEST_F(FusedBatchNormV3Test, LargeTrainingMatchesReference) {
  ASSERT_TRUE(Init(DT_FLOAT, true, "NHWC").ok());
  const int64_t rows = 4 * 30 * 30;
  const int64_t c = 24;
  std::mt19937 gen(7);
  std::normal_distribution<float> dist(1.0f, 3.0f);
  std::vector<float> x(rows * c);
  for (float& v : x) v = dist(gen);
  AddInputFromArray<float>(TensorShape({4, 30, 30, c}), x);
  const std::vector<float> ones(c, 1.0f);
  const std::vector<float> zeros(c, 0.0f);
  AddStats(ones, zeros, zeros, ones);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> y = Values<float>(*GetOutput(0));
  const std::vector<float> running_var = Values<float>(*GetOutput(2));
  for (int64_t ch = 0; ch < c; ++ch) {
    double sum = 0;
    double sq = 0;
    for (int64_t r = 0; r < rows; ++r) sum += x[r * c + ch];
    const double mean = sum / rows;
    for (int64_t r = 0; r < rows; ++r) sq += (x[r * c + ch] - mean) * (x[r * c + ch] - mean);
    const double var = sq / rows;
    EXPECT_NEAR(running_var[ch], var * rows / (rows - 1), 1e-4 * var);
    for (int64_t r = 0; r < rows; r += 97) {
      EXPECT_NEAR(y[r * c + ch], (x[r * c + ch] - mean) / std::sqrt(var + 0.001), 1e-4);
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
