// conv_index.h on the host: the filter layouts and the zero padding against plain loops, the
// padding plan against TensorFlow's window arithmetic over many sizes, and PoolOutput against
// the CPU pooling kernels (bit for bit, on float16, whose CPU kernels use the plain loops).
#include "kernels/cuda/conv/conv_index.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace cuda {
namespace {

// Filter element values that name their HWIO position.
std::vector<int64_t> Iota(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

std::vector<int64_t> Rewrite(const std::vector<int64_t>& hwio, const FilterDims& f,
                             FilterLayout layout) {
  std::vector<int64_t> out(hwio.size());
  for (int64_t i = 0; i < static_cast<int64_t>(out.size()); ++i) {
    out[i] = hwio[HwioSourceIndex(i, f, layout)];
  }
  return out;
}

TEST(ConvIndexTest, FilterLayoutsMatchPlainLoops) {
  for (const FilterDims f : {FilterDims{3, 3, 4, 5}, FilterDims{1, 1, 3, 2}, FilterDims{2, 5, 1, 7},
                             FilterDims{4, 1, 6, 1}}) {
    const std::vector<int64_t> hwio = Iota(f.rows * f.cols * f.in_depth * f.out_depth);
    std::vector<int64_t> ohwi, oihw;
    for (int64_t o = 0; o < f.out_depth; ++o) {
      for (int64_t r = 0; r < f.rows; ++r) {
        for (int64_t s = 0; s < f.cols; ++s) {
          for (int64_t c = 0; c < f.in_depth; ++c) {
            ohwi.push_back(hwio[((r * f.cols + s) * f.in_depth + c) * f.out_depth + o]);
          }
        }
      }
      for (int64_t c = 0; c < f.in_depth; ++c) {
        for (int64_t r = 0; r < f.rows; ++r) {
          for (int64_t s = 0; s < f.cols; ++s) {
            oihw.push_back(hwio[((r * f.cols + s) * f.in_depth + c) * f.out_depth + o]);
          }
        }
      }
    }
    EXPECT_EQ(Rewrite(hwio, f, FilterLayout::kOhwi), ohwi);
    EXPECT_EQ(Rewrite(hwio, f, FilterLayout::kOihw), oihw);
  }
}

// A depthwise filter [H, W, C, M] read as the HWIO filter [H, W, 1, C*M]: output channel
// c*M + m (TensorFlow's numbering, group c) holds filter[:, :, c, m].
TEST(ConvIndexTest, DepthwiseFilterIsAGroupedHwioFilter) {
  const int64_t rows = 3, cols = 2, channels = 4, multiplier = 3;
  const std::vector<int64_t> hwcm = Iota(rows * cols * channels * multiplier);
  const FilterDims grouped = {rows, cols, 1, channels * multiplier};
  for (const FilterLayout layout : {FilterLayout::kOhwi, FilterLayout::kOihw}) {
    const std::vector<int64_t> out = Rewrite(hwcm, grouped, layout);
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t m = 0; m < multiplier; ++m) {
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t s = 0; s < cols; ++s) {
            // With one input channel per group both layouts are [out, rows, cols].
            const int64_t o = c * multiplier + m;
            EXPECT_EQ(out[(o * rows + r) * cols + s],
                      hwcm[((r * cols + s) * channels + c) * multiplier + m]);
          }
        }
      }
    }
  }
}

TEST(ConvIndexTest, PadSourceIndexMatchesPlainLoops) {
  PadDims p;
  const int64_t in[4] = {2, 3, 4, 2};
  const int64_t before[4] = {0, 1, 2, 0};
  const int64_t after[4] = {0, 2, 0, 1};
  for (int d = 0; d < 4; ++d) {
    p.in[d] = in[d];
    p.before[d] = before[d];
    p.out[d] = in[d] + before[d] + after[d];
  }
  int64_t i = 0;
  for (int64_t a = 0; a < p.out[0]; ++a) {
    for (int64_t b = 0; b < p.out[1]; ++b) {
      for (int64_t c = 0; c < p.out[2]; ++c) {
        for (int64_t d = 0; d < p.out[3]; ++d, ++i) {
          const int64_t x[4] = {a - before[0], b - before[1], c - before[2], d - before[3]};
          bool inside = true;
          for (int k = 0; k < 4; ++k) inside &= x[k] >= 0 && x[k] < in[k];
          const int64_t expected =
              inside ? ((x[0] * in[1] + x[1]) * in[2] + x[2]) * in[3] + x[3] : -1;
          EXPECT_EQ(PadSourceIndex(i, p), expected) << i;
        }
      }
    }
  }
}

// For every small size, window, dilation and stride, SAME and explicit paddings: the plan
// gives TensorFlow's output size and starts every window where TensorFlow does.
TEST(ConvIndexTest, PaddingPlanKeepsTensorFlowsWindows) {
  int checked = 0;
  for (int64_t size = 1; size <= 12; ++size) {
    for (int64_t filter = 1; filter <= 4; ++filter) {
      for (int64_t dilation = 1; dilation <= 3; ++dilation) {
        for (int64_t stride = 1; stride <= 3; ++stride) {
          const int64_t window = (filter - 1) * dilation + 1;
          for (int64_t pads = 0; pads <= 16; ++pads) {
            // pads 0..15: explicit (before, after) in 0..3; 16: SAME.
            const Padding padding = pads == 16 ? SAME : EXPLICIT;
            int64_t before = pads % 4, after = pads / 4 % 4, out = 0;
            if (pads == 16) before = after = 0;
            // Explicit pads too small for the window give no output (an error): skipped.
            if (!WindowedOutputSize(size, filter, dilation, stride, padding, &out, &before, &after)
                     .ok() ||
                out <= 0) {
              continue;
            }
            const SpatialPadding plan =
                PlanSpatialPadding(size, window, stride, before, after, out);
            const std::string where = "size " + std::to_string(size) + " window " +
                                      std::to_string(window) + " stride " + std::to_string(stride) +
                                      " pads " + std::to_string(before) + "/" +
                                      std::to_string(after);
            EXPECT_GE(plan.symmetric, 0) << where;
            EXPECT_GE(plan.extra_before, 0) << where;
            EXPECT_GE(plan.extra_after, 0) << where;
            const int64_t padded = size + plan.extra_before + plan.extra_after;
            EXPECT_EQ(SymmetricOutputSize(padded, window, stride, plan.symmetric), out) << where;
            // Window k starts at k * stride - (symmetric + extra_before) in the input's terms.
            EXPECT_EQ(plan.symmetric + plan.extra_before, before) << where;
            // cuDNN's padding never reaches past TensorFlow's on the far side.
            EXPECT_LE(plan.extra_after, after) << where;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(ConvIndexTest, PaddingPlanCases) {
  // SAME, 3 wide, stride 2 over 8: TensorFlow pads 0 before and 1 after, and cuDNN padding
  // nothing makes only 3 windows of the 4: the input gets the extra element.
  SpatialPadding p = PlanSpatialPadding(8, 3, 2, 0, 1, 4);
  EXPECT_EQ(p.symmetric, 0);
  EXPECT_EQ(p.extra_before, 0);
  EXPECT_EQ(p.extra_after, 1);
  // Over 7 it pads 1 and 1: symmetric.
  p = PlanSpatialPadding(7, 3, 2, 1, 1, 4);
  EXPECT_EQ(p.symmetric, 1);
  EXPECT_EQ(p.extra_before + p.extra_after, 0);
  // SAME, 2 wide, stride 2 over 8: TensorFlow pads nothing; a pad after that no window
  // reaches needs nothing either.
  p = PlanSpatialPadding(8, 2, 2, 0, 1, 4);
  EXPECT_EQ(p.symmetric, 0);
  EXPECT_EQ(p.extra_before + p.extra_after, 0);
  // Explicit 2 before, 0 after over 5 with a 3-wide window: 5 windows; padding 2 on both
  // sides would make 7, so cuDNN pads nothing and the input gets 2 before.
  p = PlanSpatialPadding(5, 3, 1, 2, 0, 5);
  EXPECT_EQ(p.symmetric, 0);
  EXPECT_EQ(p.extra_before, 2);
  EXPECT_EQ(p.extra_after, 0);
}

// PoolOutput against the CPU MaxPool and AvgPool kernels on float16 (loops that sum in float,
// as PoolOutput does), for symmetric and asymmetric paddings. (NCHW is only a different
// PoolGeometry, made by the CPU kernels' own pool_params; the GPU test covers it.)
class PoolOutputTest : public test::KernelTest {};

TEST_F(PoolOutputTest, MatchesTheCpuKernelsBitForBit) {
  struct Case {
    std::vector<int64_t> shape;  // NHWC
    std::vector<int32_t> ksize, strides;
    const char* padding;
  };
  const Case cases[] = {
      {{2, 8, 8, 3}, {1, 3, 3, 1}, {1, 2, 2, 1}, "SAME"},
      {{1, 7, 9, 2}, {1, 3, 2, 1}, {1, 2, 3, 1}, "SAME"},
      {{3, 6, 6, 4}, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID"},
      {{1, 5, 4, 1}, {1, 5, 4, 1}, {1, 1, 1, 1}, "SAME"},
      // One-cell windows: the NaN and the -inf below are whole windows, where max pooling
      // gives the lowest finite value.
      {{1, 3, 3, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, "VALID"},
  };
  std::mt19937 gen(17);
  std::uniform_real_distribution<float> dist(-4, 4);
  for (const Case& c : cases) {
    TensorShape shape;
    ASSERT_TRUE(TensorShape::BuildTensorShape(c.shape, &shape).ok());
    Tensor input(DT_HALF, shape);
    auto x = input.flat<half>();
    for (int64_t i = 0; i < shape.num_elements(); ++i) x(i) = static_cast<half>(dist(gen));
    // A NaN, which max pooling never takes, and a -inf.
    x(1) = std::numeric_limits<half>::quiet_NaN();
    x(4) = -std::numeric_limits<half>::infinity();
    std::vector<float> values(shape.num_elements());
    for (int64_t i = 0; i < shape.num_elements(); ++i) values[i] = static_cast<float>(x(i));

    PoolWindow window;
    window.ksize = c.ksize;
    window.strides = c.strides;
    ASSERT_TRUE(GetPaddingFromString(c.padding, &window.padding).ok());
    PoolGeometry g;
    ASSERT_TRUE(ComputePoolGeometry(shape, window, &g).ok());
    PoolDims d;
    d.batch = g.batch;
    d.in_rows = g.in_rows;
    d.in_cols = g.in_cols;
    d.depth = g.depth;
    d.window_rows = g.window_rows;
    d.window_cols = g.window_cols;
    d.row_stride = g.row_stride;
    d.col_stride = g.col_stride;
    d.pad_top = g.pad_top;
    d.pad_left = g.pad_left;
    d.out_rows = g.out_rows;
    d.out_cols = g.out_cols;
    const auto load = [&](int64_t j) { return values[j]; };
    for (const PoolMode mode : {PoolMode::kMax, PoolMode::kAverage}) {
      const char* op = mode == PoolMode::kMax ? "MaxPool" : "AvgPool";
      ASSERT_TRUE(InitOp(test::NodeDefBuilder("pool", op)
                             .Input("x")
                             .Attr("T", DT_HALF)
                             .Attr("ksize", c.ksize)
                             .Attr("strides", c.strides)
                             .Attr("padding", c.padding)
                             .Build())
                      .ok());
      AddInput(input);
      ASSERT_TRUE(RunOpKernel().ok());
      const Tensor& expected = *GetOutput(0);
      ASSERT_EQ(expected.NumElements(), g.batch * g.out_rows * g.out_cols * g.depth);
      for (int64_t i = 0; i < expected.NumElements(); ++i) {
        const half want = expected.flat<half>()(i);
        const half got = static_cast<half>(PoolOutput(d, i, mode, -65504.0f, load));
        if (Eigen::numext::isnan(want) && Eigen::numext::isnan(got)) continue;
        EXPECT_EQ(Eigen::numext::bit_cast<uint16_t>(got), Eigen::numext::bit_cast<uint16_t>(want))
            << op << " " << c.padding << " output " << i << ": " << static_cast<float>(got)
            << " vs " << static_cast<float>(want);
      }
    }
  }
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
