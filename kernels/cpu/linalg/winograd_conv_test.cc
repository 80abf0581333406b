// Winograd convolution against an exact (double) direct convolution: both tile sizes, SAME, VALID
// and uneven explicit padding, outputs that the tiles overhang, channel counts with a remainder
// past the 8-wide vectors, batches, one and two threads, and every epilogue. Also which shapes
// WinogradConv::TileSize sends to this path.
#include "kernels/cpu/linalg/winograd_conv.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cpu/linalg/winograd_convolve.h"
#include "kernels/cpu/linalg/winograd_transforms.h"

namespace sluice {
namespace {

using winograd::Activation;
using winograd::OutputEpilogue;
using winograd::TileGeometry;

struct Case {
  int64_t batch, rows, cols, in_depth, out_depth;
  int64_t pad_top, pad_bottom, pad_left, pad_right;
};

std::vector<float> Random(int64_t n, uint32_t seed, float scale) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

double Activate(Activation a, float leaky_alpha, double x) {
  switch (a) {
    case Activation::kNone:
      return x;
    case Activation::kRelu:
      return std::max(x, 0.0);
    case Activation::kRelu6:
      return std::min(std::max(x, 0.0), 6.0);
    case Activation::kLeakyRelu:
      return x < 0 ? leaky_alpha * x : x;
  }
  return x;
}

class WinogradTest : public ::testing::TestWithParam<int> {};

// Runs one case with tile size `m` on `threads` threads and compares every output with the
// double-precision result of the same epilogue; returns the largest error.
double MaxError(const Case& c, int m, int threads, const OutputEpilogue& epilogue_in,
                bool with_addend) {
  const int64_t out_rows = c.rows + c.pad_top + c.pad_bottom - 2;
  const int64_t out_cols = c.cols + c.pad_left + c.pad_right - 2;
  TileGeometry geo;
  geo.m = m;
  geo.batch = c.batch;
  geo.in_rows = c.rows;
  geo.in_cols = c.cols;
  geo.in_depth = c.in_depth;
  geo.out_rows = out_rows;
  geo.out_cols = out_cols;
  geo.out_depth = c.out_depth;
  geo.pad_top = c.pad_top;
  geo.pad_left = c.pad_left;

  const std::vector<float> input = Random(c.batch * c.rows * c.cols * c.in_depth, 1, 1.0f);
  const std::vector<float> filter =
      Random(9 * c.in_depth * c.out_depth, 2, 1.0f / std::sqrt(9.0f * c.in_depth));
  const std::vector<float> bias = Random(c.out_depth, 3, 0.5f);
  const int64_t out_size = c.batch * out_rows * out_cols * c.out_depth;
  const std::vector<float> addend = Random(out_size, 4, 1.0f);

  const int64_t stride = c.out_depth + 3;  // a padded row stride, as for 2 KiB rows
  std::vector<float> u((m + 2) * (m + 2) * c.in_depth * stride, -1.0f);
  winograd::TransformFilter(m, filter.data(), c.in_depth, c.out_depth, stride, u.data());
  std::vector<float> scratch(winograd::ScratchFloats(geo, threads));
  std::vector<float> output = with_addend ? addend : std::vector<float>(out_size, 0.0f);
  OutputEpilogue epilogue = epilogue_in;
  epilogue.bias = epilogue_in.bias != nullptr ? bias.data() : nullptr;
  epilogue.add_to_output = with_addend;
  const absl::Status s = winograd::Convolve(geo, u.data(), stride, input.data(), epilogue, threads,
                                            scratch.data(), output.data());
  EXPECT_TRUE(s.ok()) << s;

  double max_error = 0;
  for (int64_t n = 0; n < c.batch; ++n) {
    for (int64_t y = 0; y < out_rows; ++y) {
      for (int64_t x = 0; x < out_cols; ++x) {
        for (int64_t k = 0; k < c.out_depth; ++k) {
          double acc = 0;
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              const int64_t row = y + i - c.pad_top, col = x + j - c.pad_left;
              if (row < 0 || row >= c.rows || col < 0 || col >= c.cols) continue;
              const float* in = &input[((n * c.rows + row) * c.cols + col) * c.in_depth];
              const float* f = &filter[(i * 3 + j) * c.in_depth * c.out_depth + k];
              for (int64_t ch = 0; ch < c.in_depth; ++ch) {
                acc += double(in[ch]) * f[ch * c.out_depth];
              }
            }
          }
          const int64_t index = ((n * out_rows + y) * out_cols + x) * c.out_depth + k;
          if (epilogue.bias != nullptr) acc += bias[k];
          if (with_addend) acc += addend[index];
          acc = Activate(epilogue.activation, epilogue.leaky_alpha, acc);
          max_error = std::max(max_error, std::fabs(acc - output[index]));
        }
      }
    }
  }
  return max_error;
}

// Outputs are of magnitude about 1; a direct float convolution is within about 2e-6.
double Tolerance(int m) { return m == 2 ? 4e-6 : 4e-5; }

TEST_P(WinogradTest, SamePaddingMatchesDirect) {
  const int m = GetParam();
  OutputEpilogue epilogue;
  for (int threads : {1, 2}) {
    EXPECT_LT(MaxError({1, 12, 12, 16, 16, 1, 1, 1, 1}, m, threads, epilogue, false), Tolerance(m));
    EXPECT_LT(MaxError({2, 9, 11, 24, 40, 1, 1, 1, 1}, m, threads, epilogue, false), Tolerance(m));
  }
}

TEST_P(WinogradTest, ValidAndUnevenPadding) {
  const int m = GetParam();
  OutputEpilogue epilogue;
  EXPECT_LT(MaxError({1, 10, 13, 8, 8, 0, 0, 0, 0}, m, 1, epilogue, false), Tolerance(m));
  EXPECT_LT(MaxError({1, 7, 9, 8, 16, 2, 0, 0, 1}, m, 1, epilogue, false), Tolerance(m));
  EXPECT_LT(MaxError({1, 5, 5, 8, 8, 2, 2, 2, 2}, m, 2, epilogue, false), Tolerance(m));
}

TEST_P(WinogradTest, ChannelsPastTheVectorWidth) {
  const int m = GetParam();
  OutputEpilogue epilogue;
  EXPECT_LT(MaxError({1, 6, 6, 13, 11, 1, 1, 1, 1}, m, 1, epilogue, false), Tolerance(m));
  EXPECT_LT(MaxError({2, 5, 7, 3, 5, 1, 1, 1, 1}, m, 2, epilogue, false), Tolerance(m));
}

TEST_P(WinogradTest, BlocksSharedByThreadsAndPhasesSplitAmongThem) {
  // Two threads take whole blocks when there are at least four blocks per thread, and split
  // each phase of one block of all tiles otherwise; both ways must give the same result.
  const int m = GetParam();
  OutputEpilogue epilogue;
  TileGeometry many;
  many.m = m;
  many.batch = 2;
  many.out_rows = many.out_cols = 64;
  many.in_depth = many.out_depth = 32;
  ASSERT_GE(many.tiles() / winograd::BlockTiles(many), 8) << "not enough blocks";
  EXPECT_LT(MaxError({2, 64, 64, 32, 32, 1, 1, 1, 1}, m, 2, epilogue, false), Tolerance(m));
  TileGeometry few = many;
  few.batch = 1;
  few.out_rows = few.out_cols = 20;
  ASSERT_LT(few.tiles() / winograd::BlockTiles(few), 8) << "too many blocks";
  EXPECT_LT(MaxError({1, 20, 20, 32, 32, 1, 1, 1, 1}, m, 2, epilogue, false), Tolerance(m));
}

TEST_P(WinogradTest, Epilogues) {
  const int m = GetParam();
  const Case c = {1, 9, 10, 16, 24, 1, 1, 1, 1};
  static const float kBias = 0;  // any non-null pointer asks for the bias
  for (Activation a :
       {Activation::kNone, Activation::kRelu, Activation::kRelu6, Activation::kLeakyRelu}) {
    OutputEpilogue epilogue;
    epilogue.bias = &kBias;
    epilogue.activation = a;
    epilogue.leaky_alpha = 0.2f;
    for (bool addend : {false, true}) {
      EXPECT_LT(MaxError(c, m, 1, epilogue, addend), Tolerance(m))
          << "activation " << static_cast<int>(a) << " addend " << addend;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TileSizes, WinogradTest, ::testing::Values(2, 4));

// One channel, a 1x1 output of a 3x3 input, the filter's centre tap 1: the output is the input's
// centre value through the activation.
float CentreThrough(Activation activation, float centre) {
  TileGeometry geo;
  geo.m = 2;
  geo.batch = 1;
  geo.in_rows = geo.in_cols = 3;
  geo.in_depth = geo.out_depth = 1;
  geo.out_rows = geo.out_cols = 1;
  std::vector<float> input(9, 0.0f);
  input[4] = centre;
  std::vector<float> filter(9, 0.0f);
  filter[4] = 1.0f;
  std::vector<float> u(16);
  winograd::TransformFilter(2, filter.data(), 1, 1, 1, u.data());
  std::vector<float> scratch(winograd::ScratchFloats(geo, 1));
  OutputEpilogue epilogue;
  epilogue.activation = activation;
  float out = 0.0f;
  EXPECT_TRUE(
      winograd::Convolve(geo, u.data(), 1, input.data(), epilogue, 1, scratch.data(), &out).ok());
  return out;
}

TEST(WinogradTransformsTest, ReluKeepsNaNAndRelu6Clips) {
  EXPECT_TRUE(std::isnan(CentreThrough(Activation::kRelu, std::nanf(""))));
  EXPECT_TRUE(std::isnan(CentreThrough(Activation::kRelu6, std::nanf(""))));
  EXPECT_EQ(CentreThrough(Activation::kRelu, 7.5f), 7.5f);
  EXPECT_EQ(CentreThrough(Activation::kRelu6, 7.5f), 6.0f);
  EXPECT_EQ(CentreThrough(Activation::kRelu, -2.0f), 0.0f);
  EXPECT_EQ(CentreThrough(Activation::kRelu6, -2.0f), 0.0f);
}

ConvGeometry Geometry(int64_t batch, int64_t size, int64_t in_depth, int64_t out_depth) {
  ConvGeometry geo;
  geo.batch = batch;
  geo.in_rows = geo.in_cols = geo.out_rows = geo.out_cols = size;
  geo.in_depth = in_depth;
  geo.out_depth = out_depth;
  geo.filter_rows = geo.filter_cols = 3;
  geo.pad_top = geo.pad_bottom = geo.pad_left = geo.pad_right = 1;
  return geo;
}

TEST(WinogradConvTest, TileSizeFollowsTheMeasuredThresholds) {
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 56, 64, 64)), 4);
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 14, 256, 256)), 4);  // 16 tiles
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 7, 512, 512)), 2);   // 4 tiles of 4
  EXPECT_EQ(WinogradConv::TileSize(Geometry(32, 7, 512, 512)), 4);
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 3, 512, 512)), 0);  // tiles overhang
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 2, 512, 512)), 0);  // one tile of 2
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 56, 24, 32)), 4);
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 56, 16, 64)), 0);  // few channels
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 56, 64, 16)), 0);
  EXPECT_EQ(WinogradConv::TileSize(Geometry(1, 7, 32, 512)), 0);  // too few for m = 2

  ConvGeometry strided = Geometry(1, 56, 64, 64);
  strided.stride_rows = strided.stride_cols = 2;
  EXPECT_EQ(WinogradConv::TileSize(strided), 0);
  ConvGeometry dilated = Geometry(1, 56, 64, 64);
  dilated.dilation_rows = 2;
  EXPECT_EQ(WinogradConv::TileSize(dilated), 0);
  ConvGeometry nchw = Geometry(1, 56, 64, 64);
  nchw.data_format = FORMAT_NCHW;
  EXPECT_EQ(WinogradConv::TileSize(nchw), 0);
  ConvGeometry grouped = Geometry(1, 56, 64, 64);
  grouped.groups = 2;
  EXPECT_EQ(WinogradConv::TileSize(grouped), 0);
  ConvGeometry five = Geometry(1, 56, 64, 64);
  five.filter_rows = five.filter_cols = 5;
  EXPECT_EQ(WinogradConv::TileSize(five), 0);
}

TEST(WinogradConvTest, EpiloguesItCannotApplyStayOnOneDnn) {
  winograd::OutputEpilogue out;
  ConvEpilogue e;
  EXPECT_TRUE(WinogradConv::TranslateEpilogue(e, &out));
  e.activation = dnnl::algorithm::eltwise_relu;
  EXPECT_TRUE(WinogradConv::TranslateEpilogue(e, &out));
  EXPECT_EQ(out.activation, Activation::kRelu);
  e.alpha = 0.3f;
  EXPECT_TRUE(WinogradConv::TranslateEpilogue(e, &out));
  EXPECT_EQ(out.activation, Activation::kLeakyRelu);
  EXPECT_EQ(out.leaky_alpha, 0.3f);
  e = {};
  e.activation = dnnl::algorithm::eltwise_clip;
  e.beta = 6.0f;
  EXPECT_TRUE(WinogradConv::TranslateEpilogue(e, &out));
  EXPECT_EQ(out.activation, Activation::kRelu6);
  for (dnnl::algorithm a : {dnnl::algorithm::eltwise_elu, dnnl::algorithm::eltwise_swish,
                            dnnl::algorithm::eltwise_tanh, dnnl::algorithm::eltwise_logistic}) {
    e = {};
    e.activation = a;
    EXPECT_FALSE(WinogradConv::TranslateEpilogue(e, &out));
  }
}

}  // namespace
}  // namespace sluice
