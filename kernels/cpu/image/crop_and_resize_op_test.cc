// CropAndResize where TensorFlow's answer is undefined (the fixture leaves these out): box
// edges so far apart that the sample positions overflow to NaN are sampled as outside the
// image, and a large batch of boxes splits over the pool with the same result as one box.
#include <cstdint>
#include <limits>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class CropAndResizeTest : public KernelTest {
 protected:
  void Init(float extrapolation_value) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("c", "CropAndResize")
                           .Input("image")
                           .Input("boxes")
                           .Input("box_ind")
                           .Input("crop_size")
                           .Attr("T", DT_FLOAT)
                           .Attr("extrapolation_value", extrapolation_value)
                           .Build())
                    .ok());
  }
};

TEST_F(CropAndResizeTest, NanSamplePositionsExtrapolate) {
  Init(-2.0f);
  const float big = std::numeric_limits<float>::max();
  AddInputFromArray<float>(TensorShape({1, 9, 9, 1}), std::vector<float>(81, 1.0f));
  AddInputFromArray<float>(TensorShape({1, 4}), {-big, -big, big, big});
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 3});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(9, -2.0f));
}

TEST_F(CropAndResizeTest, ManyBoxesMatchOneBox) {
  std::vector<float> image(2 * 16 * 16 * 3);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>((i * 37) % 101);
  const std::vector<float> box = {0.1f, 0.2f, 0.85f, 0.7f};
  Init(0.0f);
  AddInputFromArray<float>(TensorShape({2, 16, 16, 3}), image);
  AddInputFromArray<float>(TensorShape({1, 4}), box);
  AddInputFromArray<int32_t>(TensorShape({1}), {1});
  AddInputFromArray<int32_t>(TensorShape({2}), {24, 24});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> one = Values<float>(*GetOutput(0));
  const int64_t n = 512;
  std::vector<float> boxes;
  std::vector<int32_t> index(n, 1);
  for (int64_t b = 0; b < n; ++b) boxes.insert(boxes.end(), box.begin(), box.end());
  Init(0.0f);
  AddInputFromArray<float>(TensorShape({2, 16, 16, 3}), image);
  AddInputFromArray<float>(TensorShape({n, 4}), boxes);
  AddInputFromArray<int32_t>(TensorShape({n}), index);
  AddInputFromArray<int32_t>(TensorShape({2}), {24, 24});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> many = Values<float>(*GetOutput(0));
  ASSERT_EQ(many.size(), one.size() * n);
  for (int64_t b = 0; b < n; ++b) {
    EXPECT_TRUE(std::equal(one.begin(), one.end(), many.begin() + b * one.size())) << b;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
