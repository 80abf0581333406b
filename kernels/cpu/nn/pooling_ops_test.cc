// Pooling on tensors large enough to split over the pool (the fixtures keep to small ones):
// AvgPool against a direct reference, and NCHW MaxPool against NHWC on transposed data.
#include <algorithm>
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

class PoolingTest : public KernelTest {
 protected:
  absl::Status Init(const char* op, const std::string& format, std::vector<int> ksize,
                    std::vector<int> strides) {
    return InitOp(NodeDefBuilder("p", op)
                      .Input("x")
                      .Attr("T", DT_FLOAT)
                      .Attr("ksize", ksize)
                      .Attr("strides", strides)
                      .Attr("padding", std::string("SAME"))
                      .Attr("data_format", format)
                      .Build());
  }
};

constexpr int64_t kN = 2, kH = 40, kW = 36, kC = 16;

std::vector<float> RandomImage() {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> x(kN * kH * kW * kC);
  for (float& v : x) v = dist(gen);
  return x;
}

TEST_F(PoolingTest, LargeAvgPoolSameMatchesReference) {
  const std::vector<float> x = RandomImage();
  ASSERT_TRUE(Init("AvgPool", "NHWC", {1, 3, 3, 1}, {1, 1, 1, 1}).ok());
  AddInputFromArray<float>(TensorShape({kN, kH, kW, kC}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> y = Values<float>(*GetOutput(0));
  for (int64_t b = 0; b < kN; ++b) {
    for (int64_t h = 0; h < kH; h += 7) {
      for (int64_t w = 0; w < kW; ++w) {
        for (int64_t c = 0; c < kC; ++c) {
          double sum = 0;
          int count = 0;
          for (int64_t i = std::max<int64_t>(h - 1, 0); i <= std::min(h + 1, kH - 1); ++i) {
            for (int64_t j = std::max<int64_t>(w - 1, 0); j <= std::min(w + 1, kW - 1); ++j) {
              sum += x[((b * kH + i) * kW + j) * kC + c];
              ++count;
            }
          }
          EXPECT_NEAR(y[((b * kH + h) * kW + w) * kC + c], sum / count, 1e-5);
        }
      }
    }
  }
}

TEST_F(PoolingTest, LargeMaxPoolNchwMatchesNhwc) {
  const std::vector<float> x = RandomImage();
  ASSERT_TRUE(Init("MaxPool", "NHWC", {1, 3, 2, 1}, {1, 2, 1, 1}).ok());
  AddInputFromArray<float>(TensorShape({kN, kH, kW, kC}), x);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor nhwc = *GetOutput(0);
  std::vector<float> x_nchw(x.size());
  for (int64_t b = 0; b < kN; ++b)
    for (int64_t h = 0; h < kH; ++h)
      for (int64_t w = 0; w < kW; ++w)
        for (int64_t c = 0; c < kC; ++c)
          x_nchw[((b * kC + c) * kH + h) * kW + w] = x[((b * kH + h) * kW + w) * kC + c];
  ASSERT_TRUE(Init("MaxPool", "NCHW", {1, 1, 3, 2}, {1, 1, 2, 1}).ok());
  AddInputFromArray<float>(TensorShape({kN, kC, kH, kW}), x_nchw);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& nchw = *GetOutput(0);
  const int64_t oh = nhwc.dim_size(1);
  const int64_t ow = nhwc.dim_size(2);
  ASSERT_EQ(nchw.shape(), TensorShape({kN, kC, oh, ow}));
  const std::vector<float> a = Values<float>(nhwc);
  const std::vector<float> b = Values<float>(nchw);
  for (int64_t n = 0; n < kN; ++n)
    for (int64_t h = 0; h < oh; ++h)
      for (int64_t w = 0; w < ow; ++w)
        for (int64_t c = 0; c < kC; ++c)
          ASSERT_EQ(a[((n * oh + h) * ow + w) * kC + c], b[((n * kC + c) * oh + h) * ow + w]);
}

}  // namespace
}  // namespace test
}  // namespace sluice
