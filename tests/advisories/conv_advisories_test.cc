// Advisories of the convolution ops (Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput,
// Conv2DBackpropFilter, DepthwiseConv2dNativeBackpropFilter, Conv3D, Conv3DBackpropInputV2,
// Conv3DBackpropFilterV2). Expectations are TensorFlow 2.21's, from
// check_with_tensorflow.py.
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

AdvisoryCase Conv(const char* op, const std::vector<int64_t>& input,
                  const std::vector<int64_t>& filter, std::vector<int64_t> strides,
                  const char* padding = "SAME") {
  AdvisoryCase c(op);
  c.Input(Zeros(DT_FLOAT, input)).Input(Zeros(DT_FLOAT, filter));
  c.Attr("T", DT_FLOAT).Attr("strides", strides).Attr("padding", padding);
  return c;
}

AdvisoryCase ConvBackpropInput(const char* op, const std::vector<int32_t>& input_sizes,
                               const std::vector<int64_t>& filter,
                               const std::vector<int64_t>& out_backprop,
                               std::vector<int64_t> strides) {
  AdvisoryCase c(op);
  c.Input(Values<int32_t>(input_sizes))
      .Input(Zeros(DT_FLOAT, filter))
      .Input(Zeros(DT_FLOAT, out_backprop));
  c.Attr("T", DT_FLOAT).Attr("strides", strides).Attr("padding", "SAME");
  if (std::string(op) == "Conv3DBackpropInputV2") c.Attr("Tshape", DT_INT32);
  return c;
}

TEST(Advisories, Tfsa2021_006_Conv3DZeroFilterDepth) {
  // A filter whose input-depth dimension is 0 made the kernel take in_depth % 0.
  ExpectFailsBothWays(Conv("Conv3D", {1, 2, 2, 2, 3}, {1, 1, 1, 0, 2}, {1, 1, 1, 1, 1}), kInvalid);
  ExpectFailsBothWays(Conv("Conv3D", {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {1, 56, 56, 56, 1}, "VALID"),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_006_Conv3DEmptyInputDepthAndFilter) {
  // Input depth 0 with a filter of input depth 6: shapes that break the op's constraints
  // reached an Eigen assertion.
  ExpectFailsBothWays(Conv("Conv3D", {2, 2, 2, 2, 0}, {0, 0, 2, 6, 2}, {1, 56, 39, 34, 1}, "VALID"),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_010_Conv3DBackpropInputDepthMismatch) {
  // input_sizes of depth 2 with a filter of input depth 1: the kernel read past the filter.
  ExpectFailsBothWays(ConvBackpropInput("Conv3DBackpropInputV2", {1, 1, 1, 1, 2}, {4, 1, 6, 1, 1},
                                        {1, 1, 1, 1, 1}, {1, 89, 29, 89, 1}),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_011_Conv3DBackpropInputEmpty) {
  // All-empty input_sizes, filter and out_backprop divided by zero. TensorFlow's own kernel
  // now rejects the depth mismatch (0 vs 1); its oneDNN kernel returns the empty gradient.
  ExpectFailsBothWays(ConvBackpropInput("Conv3DBackpropInputV2", {0, 0, 0, 0, 0}, {0, 0, 0, 1, 0},
                                        {0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}),
                      kInvalid, "same number of channels");
}

TEST(Advisories, Tfsa2021_014_Conv2DBackpropInputEmptyFilter) {
  // A filter with 0 input and output channels divided by zero in the work-size arithmetic;
  // TensorFlow now returns zeros of input_sizes.
  const AdvisoryCase c = ConvBackpropInput("Conv2DBackpropInput", {52, 1, 1, 5}, {0, 1, 5, 0},
                                           {52, 1, 1, 0}, {1, 1, 1, 1});
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({52, 1, 1, 5}));
    EXPECT_EQ(Elements<float>(out[0]), std::vector<float>(52 * 5, 0.0f));
  }
}

TEST(Advisories, Tfsa2021_015_Conv2DAllEmpty) {
  // Empty input and filter: in_depth % filter_depth with a filter depth of 0. TFSA-2021-150
  // is the same graph's division by zero in the shape function, which the Const variant runs.
  ExpectFailsBothWays(Conv("Conv2D", {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}), kInvalid);
}

TEST(Advisories, Tfsa2021_187_ConvolutionsWithEmptyFilter) {
  // A filter with a zero dimension (no output channels, no rows, a depth multiplier of 0)
  // divided by zero. TensorFlow's oneDNN kernels reject every filter with no elements, as
  // Sluice does; its own kernels reject only Conv2D's with no rows and return empty outputs
  // (or, depthwise, zeros) for the others.
  ExpectFailsBothWays(Conv("Conv2D", {1, 3, 3, 2}, {1, 1, 2, 0}, {1, 1, 1, 1}), kInvalid);
  ExpectFailsBothWays(Conv("Conv2D", {1, 3, 3, 2}, {0, 1, 2, 2}, {1, 1, 1, 1}), kInvalid);
  ExpectFailsBothWays(Conv("DepthwiseConv2dNative", {1, 3, 3, 2}, {1, 1, 2, 0}, {1, 1, 1, 1}),
                      kInvalid);
  ExpectFailsBothWays(Conv("DepthwiseConv2dNative", {1, 3, 3, 2}, {0, 1, 2, 1}, {1, 1, 1, 1}),
                      kInvalid);
}

TEST(Advisories, Tfsa2022_121_Conv2DBackpropInputEmptyOutBackprop) {
  // An empty out_backprop ([3, 1, 0, 3]) failed a CHECK in the oneDNN kernel; the gradient
  // is zeros of input_sizes.
  AdvisoryCase c("Conv2DBackpropInput");
  c.Input(Values<int32_t>({3, 1, 1, 2}))
      .Input(Values<float>(std::vector<float>(18, 1.0f), {1, 3, 2, 3}))
      .Input(Zeros(DT_FLOAT, {3, 1, 0, 3}));
  c.Attr("T", DT_FLOAT).Attr("strides", std::vector<int64_t>{1, 1, 2, 1}).Attr("padding", "VALID");
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({3, 1, 1, 2}));
    EXPECT_EQ(Elements<float>(out[0]), std::vector<float>(6, 0.0f));
  }
}

TEST(Advisories, Tfsa2022_124_Conv2DEmptyInputExplicitPadding) {
  // An empty input whose explicit padding makes a non-empty output divided by zero; the
  // output is zeros.
  AdvisoryCase c("Conv2D");
  c.Input(Zeros(DT_FLOAT, {1, 0, 2, 1})).Input(Values<float>({1.0f}, {1, 1, 1, 1}));
  c.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "EXPLICIT")
      .Attr("explicit_paddings", std::vector<int64_t>{0, 0, 1, 1, 1, 1, 0, 0});
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({1, 2, 4, 1}));
    EXPECT_EQ(Elements<float>(out[0]), std::vector<float>(8, 0.0f));
  }
}

TEST(Advisories, Tfsa2022_101_Conv2DBackpropInputShortInputSizes) {
  // input_sizes of two entries (not four) with a scalar out_backprop failed a CHECK.
  AdvisoryCase c("Conv2DBackpropInput");
  c.Input(Values<int32_t>({65534, 65534}))
      .Input(Zeros(DT_FLOAT, {3, 3, 2, 2}))
      .Input(Scalar<float>(0.0f));
  c.Attr("T", DT_FLOAT).Attr("strides", {1, 1, 1, 1}).Attr("padding", "SAME");
  ExpectFailsBothWays(c, kInvalid);
}

AdvisoryCase ConvBackpropFilter(const char* op, const Tensor& input, const Tensor& filter_sizes,
                                const Tensor& out_backprop, std::vector<int64_t> strides,
                                const char* padding) {
  AdvisoryCase c(op);
  c.Input(input).Input(filter_sizes).Input(out_backprop);
  c.Attr("T", input.dtype()).Attr("strides", strides).Attr("padding", padding);
  return c;
}

TEST(Advisories, Tfsa2021_013_Conv2DBackpropFilterEmptyInputDepth) {
  // An input of depth 0 with filter_sizes [1, 1, 1, 1] took in_depth % 0. TensorFlow's own
  // kernel refuses filter_sizes with more elements than the input's depth makes; oneDNN's
  // returns a zero filter gradient.
  ExpectFailsBothWays(ConvBackpropFilter("Conv2DBackpropFilter", Zeros(DT_FLOAT, {0, 0, 1, 0}),
                                         Values<int32_t>({1, 1, 1, 1}),
                                         Zeros(DT_FLOAT, {0, 0, 1, 1}), {1, 66, 18, 1}, "SAME"),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_027_Conv2DBackpropFilterAllEmpty) {
  // All-empty shapes made a work-unit size of 0 to divide by.
  ExpectFailsBothWays(ConvBackpropFilter("Conv2DBackpropFilter", Zeros(DT_FLOAT, {0, 0, 0, 0}),
                                         Values<int32_t>({0, 0, 0, 0}),
                                         Zeros(DT_FLOAT, {0, 0, 0, 0}), {1, 1, 1, 1}, "SAME"),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_028_Conv2DBackpropFilterSizesDisagree) {
  // filter_sizes that disagree with the input's depth (1 against 2; 1 against 5 on an empty
  // batch) sized a buffer that was then written as the input's.
  ExpectFailsBothWays(
      ConvBackpropFilter("Conv2DBackpropFilter",
                         Values<float>({386.078431372549f, 386.07843139643234f}, {1, 1, 1, 2}),
                         Values<int32_t>({1, 1, 1, 1}),
                         Values<float>({386.078431372549f}, {1, 1, 1, 1}), {1, 66, 49, 1}, "VALID"),
      kInvalid);
  ExpectFailsBothWays(ConvBackpropFilter("Conv2DBackpropFilter", Zeros(DT_FLOAT, {0, 1, 1, 5}),
                                         Values<int32_t>({3, 8, 1, 1}),
                                         Zeros(DT_FLOAT, {0, 1, 1, 1}), {1, 66, 49, 1}, "VALID"),
                      kInvalid);
}

TEST(Advisories, Tfsa2022_070_Conv3DBackpropFilterScalarFilterSizes) {
  // A scalar filter_sizes was read as a shape vector (a CHECK).
  std::vector<half> ones(16, half(.5053710941f));
  ExpectFailsBothWays(
      ConvBackpropFilter("Conv3DBackpropFilterV2", Values<half>(ones, {2, 2, 2, 2, 1}),
                         Scalar<int32_t>(0), Values<half>(ones, {2, 2, 2, 2, 1}), {1, 1, 1, 1, 1},
                         "VALID"),
      kInvalid, "rank");
}

TEST(Advisories, Tfsa2022_071_DepthwiseBackpropFilterSizesOverflow) {
  // filter_sizes of thirteen entries of 1879048192 overflowed the element count (a CHECK).
  ExpectFailsBothWays(ConvBackpropFilter("DepthwiseConv2dNativeBackpropFilter",
                                         Values<float>(std::vector<float>(48, 1.0f), {1, 4, 4, 3}),
                                         Values<int32_t>(std::vector<int32_t>(13, 1879048192)),
                                         Values<float>(std::vector<float>(48, 1.0f), {1, 4, 4, 3}),
                                         {1, 1, 1, 1}, "SAME"),
                      kInvalid);
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
