// MaxPoolGrad, AvgPoolGrad and FusedBatchNormGrad: what the TensorFlow fixtures
// (tests/kernels/fixtures/nn_grad.pbtxt) cannot show. Shapes large enough to split over the
// pool, checked against direct computations; AvgPoolGrad's windows larger than the input in
// float64 and half (where TensorFlow's own kernel is not AvgPool's derivative); and the
// inputs TensorFlow aborts on or reads out of step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

std::vector<float> Random(int64_t n, uint32_t seed, float step = 0) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-2, 2);
  std::vector<float> v(n);
  // With a step, values are multiples of it: windows then hold ties.
  for (float& x : v) x = step > 0 ? std::round(dist(gen) / step) * step : dist(gen);
  return v;
}

// A pooling of NHWC images with SAME padding.
struct Pool {
  int64_t n, h, w, c, kh, kw, sh, sw;
  int64_t oh() const { return (h + sh - 1) / sh; }
  int64_t ow() const { return (w + sw - 1) / sw; }
  int64_t pad_top() const { return std::max<int64_t>((oh() - 1) * sh + kh - h, 0) / 2; }
  int64_t pad_left() const { return std::max<int64_t>((ow() - 1) * sw + kw - w, 0) / 2; }
  // Calls fn(out_offset, in_offsets) for every output element, in output order.
  template <typename Fn>
  void ForEachWindow(Fn fn) const {
    for (int64_t b = 0; b < n; ++b)
      for (int64_t y = 0; y < oh(); ++y)
        for (int64_t x = 0; x < ow(); ++x)
          for (int64_t k = 0; k < c; ++k) {
            std::vector<int64_t> in;
            for (int64_t i = y * sh - pad_top(); i < y * sh - pad_top() + kh; ++i)
              for (int64_t j = x * sw - pad_left(); j < x * sw - pad_left() + kw; ++j)
                if (i >= 0 && i < h && j >= 0 && j < w) in.push_back(((b * h + i) * w + j) * c + k);
            fn(((b * oh() + y) * ow() + x) * c + k, in);
          }
  }
};

class NnGradTest : public KernelTest {
 protected:
  absl::Status InitPool(const std::string& op, const Pool& p, DataType dtype,
                        const std::string& format = "NHWC") {
    const bool nhwc = format == "NHWC";
    const auto k = static_cast<int32_t>(p.kh), l = static_cast<int32_t>(p.kw);
    const auto s = static_cast<int32_t>(p.sh), t = static_cast<int32_t>(p.sw);
    NodeDefBuilder b("pool_grad", op);
    b.Input("a").Input("b");
    if (op == "MaxPoolGrad") b.Input("g");
    return InitOp(b.Attr("T", dtype)
                      .Attr("ksize", nhwc ? std::vector<int32_t>{1, k, l, 1}
                                          : std::vector<int32_t>{1, 1, k, l})
                      .Attr("strides", nhwc ? std::vector<int32_t>{1, s, t, 1}
                                            : std::vector<int32_t>{1, 1, s, t})
                      .Attr("padding", std::string("SAME"))
                      .Attr("data_format", format)
                      .Build());
  }

  absl::Status InitBatchNorm(DataType dtype, const std::string& format, bool is_training) {
    return InitOp(NodeDefBuilder("bn_grad", "FusedBatchNormGradV3")
                      .Input("dy")
                      .Input("x")
                      .Input("scale")
                      .Input("mean")
                      .Input("variance")
                      .Input("reserve")
                      .Attr("T", dtype)
                      .Attr("U", DT_FLOAT)
                      .Attr("epsilon", 0.001f)
                      .Attr("data_format", format)
                      .Attr("is_training", is_training)
                      .Build());
  }
};

TEST_F(NnGradTest, LargeMaxPoolGradMatchesReference) {
  const Pool p{4, 30, 28, 16, 3, 3, 2, 2};
  // Values on a coarse grid, so that many windows hold ties (the first element wins).
  const std::vector<float> x = Random(p.n * p.h * p.w * p.c, 1, 0.5f);
  const std::vector<float> g = Random(p.n * p.oh() * p.ow() * p.c, 2);
  std::vector<float> want(x.size(), 0.0f);
  p.ForEachWindow([&](int64_t out, const std::vector<int64_t>& in) {
    int64_t best = in[0];
    for (int64_t i : in) best = x[i] > x[best] ? i : best;
    want[best] += g[out];
  });
  ASSERT_TRUE(InitPool("MaxPoolGrad", p, DT_FLOAT).ok());
  AddInputFromArray<float>(TensorShape({p.n, p.h, p.w, p.c}), x);
  AddInputFromArray<float>(TensorShape({p.n, p.oh(), p.ow(), p.c}), std::vector<float>(g.size()));
  AddInputFromArray<float>(TensorShape({p.n, p.oh(), p.ow(), p.c}), g);
  ASSERT_TRUE(RunOpKernel().ok());
  // The same maxima, the same additions in the same order: equal, not near.
  EXPECT_EQ(Values<float>(*GetOutput(0)), want);
}

TEST_F(NnGradTest, MaxPoolGradRejectsWhatTensorFlowDoesNotCheck) {
  // A window of no element has no maximum (TensorFlow checks only the output's shape).
  EXPECT_EQ(InitPool("MaxPoolGrad", Pool{1, 4, 4, 1, 0, 2, 1, 1}, DT_FLOAT).code(),
            absl::StatusCode::kInvalidArgument);
  // An empty output (a window taller than the VALID input) gives zeros, not garbage.
  ASSERT_TRUE(InitOp(NodeDefBuilder("g", "MaxPoolGrad")
                         .Input("a")
                         .Input("b")
                         .Input("g")
                         .Attr("T", DT_INT32)
                         .Attr("ksize", std::vector<int32_t>{1, 3, 1, 1})
                         .Attr("strides", std::vector<int32_t>{1, 1, 1, 1})
                         .Attr("padding", std::string("VALID"))
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  AddInputFromArray<int32_t>(TensorShape({1, 0, 2, 1}), {});
  AddInputFromArray<int32_t>(TensorShape({1, 0, 2, 1}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{0, 0, 0, 0}));
}

// AvgPool's derivative: each output's gradient over the count of the elements it covers.
std::vector<double> AvgPoolGradReference(const Pool& p, const std::vector<float>& g) {
  std::vector<double> want(p.n * p.h * p.w * p.c, 0.0);
  p.ForEachWindow([&](int64_t out, const std::vector<int64_t>& in) {
    for (int64_t i : in) want[i] += g[out] / static_cast<double>(in.size());
  });
  return want;
}

TEST_F(NnGradTest, LargeAvgPoolGradMatchesReferenceInBothLayouts) {
  const Pool p{4, 30, 28, 16, 3, 3, 2, 2};
  const std::vector<float> g = Random(p.n * p.oh() * p.ow() * p.c, 3);
  const std::vector<double> want = AvgPoolGradReference(p, g);
  ASSERT_TRUE(InitPool("AvgPoolGrad", p, DT_FLOAT).ok());
  AddInputFromArray<int32_t>(TensorShape({4}), {4, 30, 28, 16});
  AddInputFromArray<float>(TensorShape({p.n, p.oh(), p.ow(), p.c}), g);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> nhwc = Values<float>(*GetOutput(0));
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(nhwc[i], want[i], 1e-5) << i;

  std::vector<float> g_nchw(g.size());
  for (int64_t b = 0; b < p.n; ++b)
    for (int64_t y = 0; y < p.oh(); ++y)
      for (int64_t x = 0; x < p.ow(); ++x)
        for (int64_t k = 0; k < p.c; ++k)
          g_nchw[((b * p.c + k) * p.oh() + y) * p.ow() + x] =
              g[((b * p.oh() + y) * p.ow() + x) * p.c + k];
  ASSERT_TRUE(InitPool("AvgPoolGrad", p, DT_FLOAT, "NCHW").ok());
  AddInputFromArray<int32_t>(TensorShape({4}), {4, 16, 30, 28});
  AddInputFromArray<float>(TensorShape({p.n, p.c, p.oh(), p.ow()}), g_nchw);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> nchw = Values<float>(*GetOutput(0));
  for (int64_t b = 0; b < p.n; ++b)
    for (int64_t y = 0; y < p.h; ++y)
      for (int64_t x = 0; x < p.w; ++x)
        for (int64_t k = 0; k < p.c; ++k)
          ASSERT_EQ(nchw[((b * p.c + k) * p.h + y) * p.w + x],
                    nhwc[((b * p.h + y) * p.w + x) * p.c + k]);
}

TEST_F(NnGradTest, AvgPoolGradOfWindowsLargerThanTheInputIsTheDerivative) {
  // 4 rows and 3 columns pooled 5 x 5 with SAME padding: windows stick out on both sides.
  // TensorFlow's float64 and half kernels divide by min(size, window) there.
  const Pool p{1, 4, 3, 2, 5, 5, 1, 1};
  const std::vector<float> g = Random(p.n * p.oh() * p.ow() * p.c, 4, 0.25f);
  const std::vector<double> want = AvgPoolGradReference(p, g);
  ASSERT_TRUE(InitPool("AvgPoolGrad", p, DT_DOUBLE).ok());
  AddInputFromArray<int32_t>(TensorShape({4}), {1, 4, 3, 2});
  AddInputFromArray<double>(TensorShape({1, 4, 3, 2}), std::vector<double>(g.begin(), g.end()));
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<double> got = Values<double>(*GetOutput(0));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;

  std::vector<half> g_half;
  for (float v : g) g_half.push_back(static_cast<half>(v));
  ASSERT_TRUE(InitPool("AvgPoolGrad", p, DT_HALF).ok());
  AddInputFromArray<int32_t>(TensorShape({4}), {1, 4, 3, 2});
  AddInputFromArray<half>(TensorShape({1, 4, 3, 2}), g_half);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<half> got_half = Values<half>(*GetOutput(0));
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(static_cast<float>(got_half[i]), want[i], 1e-2) << i;
  }
}

TEST_F(NnGradTest, AvgPoolGradRejectsGradsOfAnotherShape) {
  // TensorFlow reads such grads with the strides of the wrong shape (or aborts, in float).
  const Pool p{2, 4, 4, 3, 2, 2, 2, 2};
  for (DataType dtype : {DT_FLOAT, DT_DOUBLE}) {
    ASSERT_TRUE(InitPool("AvgPoolGrad", p, dtype).ok());
    AddInputFromArray<int32_t>(TensorShape({4}), {2, 4, 4, 3});
    AddInput(Tensor(dtype, TensorShape({2, 3, 2, 3})));
    const absl::Status status = RunOpKernel();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(status.message()),
                HasSubstr("Expected grad shape to be [2,2,2,3], but got [2,3,2,3]"));

    ASSERT_TRUE(InitPool("AvgPoolGrad", p, dtype).ok());
    AddInputFromArray<int32_t>(TensorShape({3}), {2, 4, 4});
    AddInput(Tensor(dtype, TensorShape({2, 2, 2, 3})));
    EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);

    ASSERT_TRUE(InitPool("AvgPoolGrad", p, dtype).ok());
    AddInputFromArray<int32_t>(TensorShape({4}), {2, 4, 4, 3});
    AddInput(Tensor(dtype, TensorShape({2, 2, 3})));
    EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
  }
  // A ksize of 0: TensorFlow's float64 kernel returns zeros.
  EXPECT_EQ(InitPool("AvgPoolGrad", Pool{1, 4, 4, 1, 0, 2, 1, 1}, DT_DOUBLE).code(),
            absl::StatusCode::kInvalidArgument);
}

// FusedBatchNormGrad's outputs in double, from the float inputs, data as [outer, C, inner].
struct BatchNormGrads {
  std::vector<double> x, scale, offset;
};
BatchNormGrads BatchNormGradReference(const std::vector<float>& dy, const std::vector<float>& x,
                                      const std::vector<float>& scale,
                                      const std::vector<float>& mean, const std::vector<float>& var,
                                      int64_t outer, int64_t channels, int64_t inner,
                                      bool is_training) {
  BatchNormGrads r{std::vector<double>(x.size()), std::vector<double>(channels),
                   std::vector<double>(channels)};
  const double n = static_cast<double>(outer * inner);
  for (int64_t c = 0; c < channels; ++c) {
    const double inv = 1 / std::sqrt(static_cast<double>(var[c]) + 0.001f);
    double sum_dy = 0, sum_dy_xc = 0;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t e = (o * channels + c) * inner + i;
        sum_dy += dy[e];
        sum_dy_xc += dy[e] * (x[e] - mean[c]);
      }
    r.offset[c] = sum_dy;
    r.scale[c] = sum_dy_xc * inv;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t e = (o * channels + c) * inner + i;
        const double centered = x[e] - mean[c];
        r.x[e] = is_training
                     ? scale[c] * inv * (dy[e] - sum_dy / n - centered * inv * r.scale[c] / n)
                     : dy[e] * scale[c] * inv;
      }
  }
  return r;
}

TEST_F(NnGradTest, LargeFusedBatchNormGradMatchesReference) {
  constexpr int64_t kN = 8, kH = 16, kW = 16, kC = 32;
  const int64_t size = kN * kH * kW * kC;
  const std::vector<float> dy = Random(size, 5);
  const std::vector<float> x = Random(size, 6);
  const std::vector<float> scale = Random(kC, 7);
  const std::vector<float> mean = Random(kC, 8);
  std::vector<float> var = Random(kC, 9);
  for (float& v : var) v = std::fabs(v) + 0.1f;
  for (const char* format : {"NHWC", "NCHW"}) {
    const bool nhwc = std::string(format) == "NHWC";
    for (bool is_training : {true, false}) {
      SCOPED_TRACE(std::string(format) + (is_training ? " training" : " inference"));
      const BatchNormGrads want =
          nhwc ? BatchNormGradReference(dy, x, scale, mean, var, kN * kH * kW, kC, 1, is_training)
               : BatchNormGradReference(dy, x, scale, mean, var, kN, kC, kH * kW, is_training);
      ASSERT_TRUE(InitBatchNorm(DT_FLOAT, format, is_training).ok());
      const TensorShape shape =
          nhwc ? TensorShape({kN, kH, kW, kC}) : TensorShape({kN, kC, kH, kW});
      AddInputFromArray<float>(shape, dy);
      AddInputFromArray<float>(shape, x);
      AddInputFromArray<float>(TensorShape({kC}), scale);
      AddInputFromArray<float>(TensorShape({kC}), mean);
      AddInputFromArray<float>(TensorShape({kC}), var);
      AddInputFromArray<float>(TensorShape({0}), {});
      ASSERT_TRUE(RunOpKernel().ok());
      const std::vector<float> dx = Values<float>(*GetOutput(0));
      const std::vector<float> ds = Values<float>(*GetOutput(1));
      const std::vector<float> doff = Values<float>(*GetOutput(2));
      for (int64_t i = 0; i < size; ++i) ASSERT_NEAR(dx[i], want.x[i], 1e-5) << i;
      for (int64_t c = 0; c < kC; ++c) {
        EXPECT_NEAR(ds[c], want.scale[c], 1e-6 * (1 + std::fabs(want.scale[c])));
        EXPECT_NEAR(doff[c], want.offset[c], 1e-6 * (1 + std::fabs(want.offset[c])));
      }
      // The placeholders: scalars, as TensorFlow's oneDNN kernel gives them for float NHWC/NCHW.
      EXPECT_EQ(GetOutput(3)->shape(), TensorShape({}));
      EXPECT_EQ(GetOutput(4)->shape(), TensorShape({}));
    }
  }
}

TEST_F(NnGradTest, FusedBatchNormGradOfHalfIn5DChannelsLast) {
  // TensorFlow's Eigen kernel (half) takes 5-D data whatever the 2-D data_format says.
  constexpr int64_t kOuter = 2 * 3 * 4 * 5, kC = 6;
  const std::vector<float> dy = Random(kOuter * kC, 10, 1.0f / 64);
  const std::vector<float> x = Random(kOuter * kC, 11, 1.0f / 64);
  const std::vector<float> scale = Random(kC, 12);
  const std::vector<float> mean = Random(kC, 13);
  const std::vector<float> var(kC, 0.75f);
  const BatchNormGrads want = BatchNormGradReference(dy, x, scale, mean, var, kOuter, kC, 1, true);
  ASSERT_TRUE(InitBatchNorm(DT_HALF, "NHWC", true).ok());
  std::vector<half> dy_h, x_h;
  for (float v : dy) dy_h.push_back(static_cast<half>(v));
  for (float v : x) x_h.push_back(static_cast<half>(v));
  AddInputFromArray<half>(TensorShape({2, 3, 4, 5, kC}), dy_h);
  AddInputFromArray<half>(TensorShape({2, 3, 4, 5, kC}), x_h);
  AddInputFromArray<float>(TensorShape({kC}), scale);
  AddInputFromArray<float>(TensorShape({kC}), mean);
  AddInputFromArray<float>(TensorShape({kC}), var);
  AddInputFromArray<float>(TensorShape({0}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<half> dx = Values<half>(*GetOutput(0));
  for (size_t i = 0; i < dx.size(); ++i) {
    ASSERT_NEAR(static_cast<float>(dx[i]), want.x[i], 2e-3 * (1 + std::fabs(want.x[i]))) << i;
  }
  const std::vector<float> ds = Values<float>(*GetOutput(1));
  for (int64_t c = 0; c < kC; ++c) EXPECT_NEAR(ds[c], want.scale[c], 1e-5);
  EXPECT_EQ(GetOutput(3)->shape(), TensorShape({0}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
