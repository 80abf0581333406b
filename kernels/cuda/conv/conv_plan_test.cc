// PlanCudnnConv on the host: for each convolution, the input padded as planned, the filter
// rewritten as planned and a plain-loop model of what cuDNN computes (cross-correlation with
// groups, symmetric zero padding, its documented filter layouts) give the CPU kernels'
// outputs, NHWC and NCHW. What this cannot check is cuDNN itself; the GPU test does.
#include "kernels/cuda/conv/conv_plan.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cuda/conv/conv_index.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace cuda {
namespace {

// What cuDNN's forward convolution computes over x and w laid out as `s` says.
std::vector<float> CudnnModel(const CudnnConvShape& s, const std::vector<float>& x,
                              const std::vector<float>& w) {
  const bool nhwc = s.format == FORMAT_NHWC;
  const int64_t group_in = s.in_depth / s.groups, group_out = s.out_depth / s.groups;
  const auto x_at = [&](int64_t n, int64_t c, int64_t h, int64_t v) {
    return nhwc ? ((n * s.in_rows + h) * s.in_cols + v) * s.in_depth + c
                : ((n * s.in_depth + c) * s.in_rows + h) * s.in_cols + v;
  };
  const auto w_at = [&](int64_t k, int64_t c, int64_t r, int64_t q) {
    return nhwc ? ((k * s.filter_rows + r) * s.filter_cols + q) * group_in + c
                : ((k * group_in + c) * s.filter_rows + r) * s.filter_cols + q;
  };
  const auto y_at = [&](int64_t n, int64_t k, int64_t h, int64_t v) {
    return nhwc ? ((n * s.out_rows + h) * s.out_cols + v) * s.out_depth + k
                : ((n * s.out_depth + k) * s.out_rows + h) * s.out_cols + v;
  };
  std::vector<float> y(s.batch * s.out_depth * s.out_rows * s.out_cols, 0.0f);
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t k = 0; k < s.out_depth; ++k) {
      const int64_t g = k / group_out;
      for (int64_t oh = 0; oh < s.out_rows; ++oh) {
        for (int64_t ow = 0; ow < s.out_cols; ++ow) {
          double sum = 0;
          for (int64_t c = 0; c < group_in; ++c) {
            for (int64_t r = 0; r < s.filter_rows; ++r) {
              for (int64_t q = 0; q < s.filter_cols; ++q) {
                const int64_t h = oh * s.stride_rows - s.pad_rows + r * s.dilation_rows;
                const int64_t v = ow * s.stride_cols - s.pad_cols + q * s.dilation_cols;
                if (h < 0 || h >= s.in_rows || v < 0 || v >= s.in_cols) continue;
                sum += x[x_at(n, g * group_in + c, h, v)] * w[w_at(k, c, r, q)];
              }
            }
          }
          y[y_at(n, k, oh, ow)] = static_cast<float>(sum);
        }
      }
    }
  }
  return y;
}

struct Case {
  std::string op;
  std::vector<int64_t> input;  // in the case's format
  std::vector<int64_t> filter;
  int32_t stride, dilation;
  std::string padding;
  std::vector<int64_t> pads;  // top, bottom, left, right for EXPLICIT
  bool nchw;
};

class ConvPlanTest : public test::KernelTest {};

TEST_F(ConvPlanTest, PlansReproduceTheCpuKernels) {
  const Case cases[] = {
      {"Conv2D", {1, 5, 5, 3}, {1, 1, 3, 4}, 1, 1, "VALID", {}, false},
      {"Conv2D", {3, 8, 8, 3}, {3, 3, 3, 5}, 2, 1, "SAME", {}, false},
      {"Conv2D", {3, 3, 8, 8}, {3, 3, 3, 5}, 2, 1, "SAME", {}, true},
      {"Conv2D", {1, 7, 9, 3}, {3, 3, 3, 4}, 2, 1, "SAME", {}, false},
      {"Conv2D", {1, 8, 12, 12}, {5, 5, 8, 6}, 2, 1, "SAME", {}, true},
      {"Conv2D", {2, 9, 9, 4}, {3, 3, 4, 6}, 1, 2, "SAME", {}, false},
      {"Conv2D", {1, 11, 10, 2}, {2, 3, 2, 3}, 2, 2, "SAME", {}, false},
      {"Conv2D", {2, 6, 5, 3}, {3, 2, 3, 4}, 1, 1, "EXPLICIT", {1, 2, 2, 0}, false},
      {"Conv2D", {2, 3, 6, 5}, {3, 2, 3, 4}, 1, 1, "EXPLICIT", {3, 0, 0, 1}, true},
      {"Conv2D", {2, 6, 6, 4}, {3, 3, 2, 6}, 1, 1, "SAME", {}, false},
      {"Conv2D", {2, 4, 6, 6}, {3, 3, 2, 6}, 2, 1, "SAME", {}, true},
      {"DepthwiseConv2dNative", {1, 6, 6, 3}, {3, 3, 3, 2}, 1, 1, "SAME", {}, false},
      {"DepthwiseConv2dNative", {3, 4, 8, 8}, {3, 3, 4, 1}, 2, 1, "SAME", {}, true},
      {"DepthwiseConv2dNative", {2, 9, 9, 3}, {3, 3, 3, 2}, 1, 2, "SAME", {}, false},
      {"DepthwiseConv2dNative", {1, 2, 5, 6}, {2, 2, 2, 3}, 1, 1, "EXPLICIT", {0, 1, 1, 0}, true},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    const std::string what = absl::StrCat(c.op, " ", c.input[0], "x", c.input[1], "x", c.input[2],
                                          "x", c.input[3], " ", c.padding, c.nchw ? " NCHW" : "");
    Conv2DAttrs attrs;
    attrs.data_format = c.nchw ? FORMAT_NCHW : FORMAT_NHWC;
    attrs.strides = c.nchw ? std::vector<int32_t>{1, 1, c.stride, c.stride}
                           : std::vector<int32_t>{1, c.stride, c.stride, 1};
    attrs.dilations = c.nchw ? std::vector<int32_t>{1, 1, c.dilation, c.dilation}
                             : std::vector<int32_t>{1, c.dilation, c.dilation, 1};
    ASSERT_TRUE(GetPaddingFromString(c.padding, &attrs.padding).ok());
    if (!c.pads.empty()) {
      attrs.explicit_paddings.assign(8, 0);
      const int h = c.nchw ? 2 : 1;
      for (int i = 0; i < 4; ++i) attrs.explicit_paddings[2 * h + i] = c.pads[i];
    }
    TensorShape input_shape, filter_shape;
    ASSERT_TRUE(TensorShape::BuildTensorShape(c.input, &input_shape).ok());
    ASSERT_TRUE(TensorShape::BuildTensorShape(c.filter, &filter_shape).ok());
    std::mt19937 gen(seed++);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> x(input_shape.num_elements()), w(filter_shape.num_elements());
    for (float& v : x) v = dist(gen);
    for (float& v : w) v = dist(gen);

    // The CPU kernel.
    ASSERT_TRUE(InitOp(test::NodeDefBuilder("conv", c.op)
                           .Input("input")
                           .Input("filter")
                           .Attr("T", DT_FLOAT)
                           .Attr("strides", attrs.strides)
                           .Attr("dilations", attrs.dilations)
                           .Attr("padding", c.padding)
                           .Attr("explicit_paddings", attrs.explicit_paddings)
                           .Attr("data_format", c.nchw ? "NCHW" : "NHWC")
                           .Build())
                    .ok())
        << what;
    AddInputFromArray<float>(input_shape, x);
    AddInputFromArray<float>(filter_shape, w);
    ASSERT_TRUE(RunOpKernel().ok()) << what;
    const Tensor& expected = *GetOutput(0);

    // The plan and the model of cuDNN.
    ConvGeometry geo;
    ASSERT_TRUE(
        ForwardConvGeometry(attrs, input_shape, filter_shape, c.op == "DepthwiseConv2dNative", &geo)
            .ok())
        << what;
    CudnnConvPlan plan;
    ASSERT_TRUE(PlanCudnnConv(geo, input_shape, &plan).ok()) << what;
    std::vector<float> padded = x;
    if (plan.pad_input) {
      ASSERT_EQ(plan.padded.num_elements(),
                plan.shape.batch * plan.shape.in_depth * plan.shape.in_rows * plan.shape.in_cols)
          << what;
      padded.assign(plan.padded.num_elements(), 0.0f);
      for (int64_t i = 0; i < plan.padded.num_elements(); ++i) {
        const int64_t source = PadSourceIndex(i, plan.pad);
        padded[i] = source < 0 ? 0.0f : x[source];
      }
    }
    std::vector<float> filter(w.size());
    for (int64_t i = 0; i < static_cast<int64_t>(w.size()); ++i) {
      filter[i] = w[HwioSourceIndex(i, plan.filter, plan.filter_layout)];
    }
    const std::vector<float> got = CudnnModel(plan.shape, padded, filter);
    ASSERT_EQ(static_cast<int64_t>(got.size()), expected.NumElements()) << what;
    int bad = 0;
    for (int64_t i = 0; i < expected.NumElements() && bad < 5; ++i) {
      const float e = expected.flat<float>()(i);
      if (std::abs(got[i] - e) > 1e-4f * (1 + std::abs(e))) {
        ++bad;
        ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", the CPU gives " << e;
      }
    }
  }
}

// The padding the plan adds: only where cuDNN's symmetric padding falls short.
TEST(ConvPlanCases, PadsTheInputOnlyWhereCudnnCannot) {
  Conv2DAttrs attrs;
  attrs.strides = {1, 2, 2, 1};
  attrs.dilations = {1, 1, 1, 1};
  attrs.padding = SAME;
  ConvGeometry geo;
  CudnnConvPlan plan;
  // 8 wide, 3x3, stride 2: TensorFlow pads 0 before, 1 after.
  ASSERT_TRUE(
      ForwardConvGeometry(attrs, TensorShape({1, 8, 8, 2}), TensorShape({3, 3, 2, 4}), false, &geo)
          .ok());
  ASSERT_TRUE(PlanCudnnConv(geo, TensorShape({1, 8, 8, 2}), &plan).ok());
  EXPECT_TRUE(plan.pad_input);
  EXPECT_EQ(plan.padded, TensorShape({1, 9, 9, 2}));
  EXPECT_EQ(plan.shape.pad_rows, 0);
  // 7 wide: 1 and 1, which cuDNN pads itself.
  ASSERT_TRUE(
      ForwardConvGeometry(attrs, TensorShape({1, 7, 7, 2}), TensorShape({3, 3, 2, 4}), false, &geo)
          .ok());
  ASSERT_TRUE(PlanCudnnConv(geo, TensorShape({1, 7, 7, 2}), &plan).ok());
  EXPECT_FALSE(plan.pad_input);
  EXPECT_EQ(plan.shape.pad_rows, 1);
  EXPECT_EQ(plan.shape.pad_cols, 1);
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
