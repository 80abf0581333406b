// Unit tests of ScaleAndTranslate for what the TensorFlow fixtures
// (tests/kernels/fixtures/scale_translate.pbtxt) cannot show cheaply: large shapes that take
// the parallel path, checked against values known in closed form or against batch-1 runs,
// and the scale at which TensorFlow's kernel aborts.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ScaleAndTranslateTest : public KernelTest {
 protected:
  void Init(DataType dtype, const std::string& kernel_type, bool antialias) {
    absl::Status s = InitOp(NodeDefBuilder("st", "ScaleAndTranslate")
                                .Input("images")
                                .Input("size")
                                .Input("scale")
                                .Input("translation")
                                .Attr("T", dtype)
                                .Attr("kernel_type", kernel_type)
                                .Attr("antialias", antialias)
                                .Build());
    ASSERT_TRUE(s.ok()) << s;
  }
  void AddSizes(int32_t h, int32_t w, float row_scale, float col_scale, float row_translation,
                float col_translation) {
    AddInputFromArray<int32_t>(TensorShape({2}), {h, w});
    AddInputFromArray<float>(TensorShape({2}), {row_scale, col_scale});
    AddInputFromArray<float>(TensorShape({2}), {row_translation, col_translation});
  }
};

// The box kernel at scale 1 puts weight 1 on the pixel under each sample and 0 elsewhere.
TEST_F(ScaleAndTranslateTest, LargeBoxIdentityIsExact) {
  Init(DT_INT32, "box", false);
  const int64_t h = 150, w = 120, ch = 3;
  std::vector<int32_t> x(h * w * ch);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i % 100003) - 50000;
  AddInputFromArray<int32_t>(TensorShape({1, h, w, ch}), x);
  AddSizes(h, w, 1.0f, 1.0f, 0.0f, 0.0f);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.shape(), TensorShape({1, h, w, ch}));
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(out.base<float>()[i], static_cast<float>(x[i])) << i;
  }
}

// Doubling with the triangle kernel interpolates linearly at (x + 0.5) / 2 - 0.5 (weights 3/4
// and 1/4, exact in float), clamped to the image at its edges.
TEST_F(ScaleAndTranslateTest, LargeTriangleDoublingOfARampIsExact) {
  Init(DT_FLOAT, "triangle", false);
  const int64_t h = 90, w = 110;
  std::vector<float> x(h * w);
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t c = 0; c < w; ++c) x[y * w + c] = static_cast<float>(c + 128 * y);
  }
  AddInputFromArray<float>(TensorShape({1, h, w, 1}), x);
  AddSizes(2 * h, 2 * w, 2.0f, 2.0f, 0.0f, 0.0f);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.shape(), TensorShape({1, 2 * h, 2 * w, 1}));
  auto source = [](int64_t o, int64_t size) {
    const double s = (o + 0.5) / 2 - 0.5;
    return s < 0 ? 0.0 : (s > size - 1 ? size - 1.0 : s);
  };
  for (int64_t y = 0; y < 2 * h; ++y) {
    for (int64_t c = 0; c < 2 * w; ++c) {
      const double want = source(c, w) + 128 * source(y, h);
      ASSERT_EQ(out.base<float>()[y * 2 * w + c], static_cast<float>(want)) << y << "," << c;
    }
  }
}

// Each image of a batch comes out as it does alone, however the rows are split over threads.
TEST_F(ScaleAndTranslateTest, LargeBatchMatchesSingleImages) {
  const int64_t batch = 3, h = 70, w = 80, ch = 4, oh = 45, ow = 130;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-5.0f, 5.0f);
  std::vector<float> x(batch * h * w * ch);
  for (float& v : x) v = dist(gen);
  const float row_scale = static_cast<float>(oh) / h, col_scale = static_cast<float>(ow) / w;

  Init(DT_FLOAT, "lanczos3", true);
  AddInputFromArray<float>(TensorShape({batch, h, w, ch}), x);
  AddSizes(oh, ow, row_scale, col_scale, 0.25f, -0.5f);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> all(GetOutput(0)->base<float>(),
                               GetOutput(0)->base<float>() + batch * oh * ow * ch);
  for (int64_t b = 0; b < batch; ++b) {
    Init(DT_FLOAT, "lanczos3", true);
    AddInputFromArray<float>(
        TensorShape({1, h, w, ch}),
        std::vector<float>(x.begin() + b * h * w * ch, x.begin() + (b + 1) * h * w * ch));
    AddSizes(oh, ow, row_scale, col_scale, 0.25f, -0.5f);
    ASSERT_TRUE(RunOpKernel().ok());
    const float* one = GetOutput(0)->base<float>();
    for (int64_t i = 0; i < oh * ow * ch; ++i) {
      ASSERT_EQ(one[i], all[b * oh * ow * ch + i]) << b << ":" << i;
    }
  }
}

// A lanczos3 reach of 1.2e9 pixels overflows TensorFlow's int span size (it aborts on the
// negative temp shape); Sluice refuses it.
TEST_F(ScaleAndTranslateTest, KernelReachPast2To30IsAnError) {
  Init(DT_FLOAT, "lanczos3", true);
  AddInputFromArray<float>(TensorShape({1, 4, 5, 1}), std::vector<float>(20, 1.0f));
  AddSizes(3, 3, 2.5e-9f, 1.0f, 0.5f, 0.0f);
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "the scale is too small")) << s;
}

}  // namespace
}  // namespace test
}  // namespace sluice
