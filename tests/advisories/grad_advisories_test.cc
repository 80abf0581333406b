// Advisories of the backprop kernels: MaxPoolGrad, AvgPoolGrad, AvgPool3DGrad,
// FusedBatchNormGrad(V3), the same-shape cwise gradients (SqrtGrad and the others, ReluGrad),
// ResizeNearestNeighborGrad, LRNGrad and MirrorPadGrad. Expectations are TensorFlow 2.21's, from
// check_with_tensorflow.py.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

AdvisoryCase MaxPoolGrad(const std::vector<int64_t>& orig_input,
                         const std::vector<int64_t>& orig_output, const std::vector<int64_t>& grad,
                         std::vector<int64_t> ksize, std::vector<int64_t> strides,
                         const char* padding) {
  AdvisoryCase c("MaxPoolGrad");
  c.Input(Zeros(DT_FLOAT, orig_input))
      .Input(Zeros(DT_FLOAT, orig_output))
      .Input(Zeros(DT_FLOAT, grad));
  c.Attr("T", DT_FLOAT).Attr("ksize", ksize).Attr("strides", strides).Attr("padding", padding);
  return c;
}

TEST(Advisories, Tfsa2021_068_MaxPoolGradEmptyGrad) {
  // An empty grad for a one-element output was read at the output's arg-max.
  ExpectFailsBothWays(
      MaxPoolGrad({1, 1, 1, 1}, {1, 1, 1, 1}, {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}, "SAME"),
      kInvalid, "Expected grad shape to be [1,1,1,1], but got [0,0,0,0]");
}

TEST(Advisories, Tfsa2021_148_MaxPoolGradExplicitPaddingEmptyOrigOutput) {
  // With explicit padding the output is [3, 1, 1, 2], but orig_output and grad were empty
  // (the incomplete fix of TFSA-2021-068).
  AdvisoryCase c = MaxPoolGrad({3, 0, 0, 2}, {3, 0, 0, 2}, {3, 0, 0, 2}, {1, 16, 16, 1},
                               {1, 16, 18, 1}, "EXPLICIT");
  c.Attr("explicit_paddings", std::vector<int64_t>{0, 0, 14, 3, 15, 5, 0, 0});
  ExpectFailsBothWays(c, kInvalid, "Expected orig_output shape to be [3,1,1,2], but got [3,0,0,2]");
}

AdvisoryCase AvgPoolGrad(const char* op, const Tensor& orig_input_shape, const Tensor& grad,
                         std::vector<int64_t> ksize, std::vector<int64_t> strides,
                         const char* padding) {
  AdvisoryCase c(op);
  c.Input(orig_input_shape).Input(grad);
  c.Attr("T", grad.dtype()).Attr("ksize", ksize).Attr("strides", strides).Attr("padding", padding);
  return c;
}

TEST(Advisories, Tfsa2021_065_AvgPool3DGradBatchMismatch) {
  // A grad of batch 3 for an input of batch 10 was written past its end.
  ExpectFailsBothWays(AvgPoolGrad("AvgPool3DGrad", Values<int32_t>({10, 6, 3, 7, 7}),
                                  Values<float>({0.01f, 0, 0}, {3, 1, 1, 1, 1}), {1, 1, 1, 1, 1},
                                  {1, 1, 1, 1, 1}, "SAME"),
                      kInvalid, "first dimension");
}

TEST(Advisories, Tfsa2022_100_AvgPoolGradNegativeOrigInputShape) {
  // orig_input_shape of -536870912 four times failed a CHECK building the output shape.
  // TFSA-2022-094 is the same graph (titled AvgPool3DGrad); the second case is its 3-D form.
  ExpectFailsBothWays(
      AvgPoolGrad("AvgPoolGrad", Values<int32_t>(std::vector<int32_t>(4, -536870912)),
                  Values<double>(std::vector<double>(35, .0890338004362538), {1, 5, 7, 1}),
                  {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID"),
      kInvalid);
  ExpectFailsBothWays(
      AvgPoolGrad("AvgPool3DGrad", Values<int32_t>(std::vector<int32_t>(5, -536870912)),
                  Values<float>(std::vector<float>(105, .0890338004362538f), {1, 5, 7, 3, 1}),
                  {1, 2, 2, 2, 1}, {1, 2, 2, 2, 1}, "VALID"),
      kInvalid);
}

// A [16, 16, 16, 16] grad of the integers -128..128 (the advisory's random values, made
// deterministic).
Tensor Grad16() {
  std::vector<float> v(16 * 16 * 16 * 16);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i % 257) - 128);
  return Values<float>(v, {16, 16, 16, 16});
}

TEST(Advisories, Tfsa2023_010_AvgPoolGradGradLargerThanOutput) {
  // A [16, 16, 16, 16] grad for an [11, 9, 78, 9] input whose pooled output is [11, 1, 1, 9]
  // was read past the window.
  for (int64_t depth_stride : {30, 1}) {
    ExpectFailsBothWays(AvgPoolGrad("AvgPoolGrad", Values<int32_t>({11, 9, 78, 9}), Grad16(),
                                    {1, 40, 128, 1}, {1, 128, 128, depth_stride}, "SAME"),
                        kInvalid);
  }
}

TEST(Advisories, Tfsa2023_010_AvgPoolGradDepthStrideIgnored) {
  // The advisory's depth stride of 30 with a grad of the right shape: TensorFlow's
  // AvgPoolGrad ignores the depth stride (it refuses only a depth window), and so does Sluice
  // since this case (it refused the stride as non-spatial pooling before).
  const AdvisoryCase c = AvgPoolGrad("AvgPoolGrad", Values<int32_t>({1, 4, 4, 2}),
                                     Values<float>(std::vector<float>(8, 1.0f), {1, 2, 2, 2}),
                                     {1, 2, 2, 1}, {1, 2, 2, 30}, "SAME");
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({1, 4, 4, 2}));
    EXPECT_EQ(Elements<float>(out[0]), std::vector<float>(32, 0.25f));
  }
}

TEST(Advisories, Tfsa2023_019_AvgPoolGradZeroWindow) {
  // ksize and strides of 0 divided by zero (the advisory's XLA path; this is the CPU kernel).
  AdvisoryCase nchw =
      AvgPoolGrad("AvgPoolGrad", Values<int32_t>({1, 0, 0, 0}),
                  Values<float>({0.39117979f}, {1, 1, 1, 1}), {1, 0, 0, 0}, {1, 0, 0, 0}, "SAME");
  nchw.Attr("data_format", "NCHW");
  ExpectFailsBothWays(nchw, kInvalid);
  ExpectFailsBothWays(
      AvgPoolGrad("AvgPoolGrad", Values<int32_t>({1, 0, 0, 0}),
                  Values<float>({0.39117979f}, {1, 1, 1, 1}), {1, 0, 0, 0}, {1, 0, 0, 0}, "SAME"),
      kInvalid);
}

TEST(Advisories, Tfsa2021_169_FusedBatchNormGradShortReserveSpace) {
  // reserve_space_2 of three elements and y_backprop of [1, 1, 3, 3] for an x of [1, 1, 1, 2]
  // (NCHW: one channel against scale's two) were read past their ends.
  for (const char* op : {"FusedBatchNormGrad", "FusedBatchNormGradV3"}) {
    std::vector<float> y(9);
    for (int i = 0; i < 9; ++i) y[i] = static_cast<float>(i);
    AdvisoryCase c(op);
    c.Input(Values<float>(y, {1, 1, 3, 3}))
        .Input(Values<float>({0, 1}, {1, 1, 1, 2}))
        .Input(Values<float>({1, 1}))
        .Input(Values<float>({1, 1}))
        .Input(Values<float>({1, 1, 1}));
    c.Attr("T", DT_FLOAT).Attr("epsilon", 1.0f).Attr("data_format", "NCHW");
    c.Attr("is_training", true);
    if (std::string(op) == "FusedBatchNormGradV3") {
      c.Input(Values<float>({0})).Attr("U", DT_FLOAT);
    }
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2021_133_SameShapeCwiseGradsOfDifferentSizes) {
  // The gradients of unary cwise ops took their two inputs to be the same size: an empty dy
  // for a y of two elements read through a null pointer.
  for (const char* op : {"SqrtGrad", "RsqrtGrad", "TanhGrad", "SigmoidGrad", "ReciprocalGrad"}) {
    AdvisoryCase c(op);
    c.Input(Values<float>({4, 16})).Input(Values<float>({}));
    c.Attr("T", DT_FLOAT);
    ExpectFailsBothWays(c, kInvalid);
  }
  AdvisoryCase relu("ReluGrad");
  relu.Input(Values<float>({})).Input(Values<float>({4, 16}));
  relu.Attr("T", DT_FLOAT);
  ExpectFailsBothWays(relu, kInvalid);
}

TEST(Advisories, Tfsa2022_149_ResizeNearestNeighborGradHugeSize) {
  // A size of 1879048192 x 1879048192 overflowed the output's element count.
  std::vector<half> grads(8 * 16 * 3, half(1.0f));
  AdvisoryCase c("ResizeNearestNeighborGrad");
  c.Input(Values<half>(grads, {1, 8, 16, 3})).Input(Values<int32_t>({1879048192, 1879048192}));
  c.Attr("T", DT_HALF).Attr("align_corners", true).Attr("half_pixel_centers", false);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_116_LRNGradRank6OutputImage) {
  // An output_image of rank 6 failed a CHECK reading it as a 4-D tensor.
  AdvisoryCase c("LRNGrad");
  c.Input(Values<float>(std::vector<float>(256, 1.0f), {4, 4, 4, 4}))
      .Input(Values<float>(std::vector<float>(256, 1.0f), {4, 4, 4, 4}))
      .Input(Values<float>(std::vector<float>(4096, 1.0f), {4, 4, 4, 4, 4, 4}));
  c.Attr("T", DT_FLOAT).Attr("depth_radius", int64_t{1}).Attr("bias", 1.59018219f);
  c.Attr("alpha", 0.117728651f).Attr("beta", 0.404427052f);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_157_MirrorPadGradHugePaddings) {
  // Paddings [0x77f00000, 0xa000000] on a one-element input: the output size went negative and
  // the kernel read outside the input.
  AdvisoryCase c("MirrorPadGrad");
  c.Input(Values<int32_t>({1})).Input(Values<int32_t>({0x77f00000, 0xa000000}, {1, 2}));
  c.Attr("T", DT_INT32).Attr("Tpaddings", DT_INT32).Attr("mode", "REFLECT");
  ExpectFailsBothWays(c, kInvalid);
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
