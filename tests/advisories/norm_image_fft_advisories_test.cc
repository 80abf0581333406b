// Advisories of FusedBatchNorm(V3), NonMaxSuppressionV4/V5, the resize ops, CropAndResize,
// MaxPool, MaxPool3D, AvgPool and RFFT/IRFFT/RFFT2D.
// Expectations are TensorFlow 2.21's, from check_with_tensorflow.py.
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// FusedBatchNorm(V3) in inference mode on zeros: x of `x_dims`, scale/offset/variance of
// `channels` elements, mean of `mean_channels`.
AdvisoryCase BatchNorm(const char* op, const std::vector<int64_t>& x_dims, int64_t channels,
                       int64_t mean_channels) {
  AdvisoryCase c(op);
  c.Input(Zeros(DT_FLOAT, x_dims))
      .Input(Zeros(DT_FLOAT, {channels}))
      .Input(Zeros(DT_FLOAT, {channels}))
      .Input(Zeros(DT_FLOAT, {mean_channels}))
      .Input(Zeros(DT_FLOAT, {channels}));
  c.Attr("T", DT_FLOAT).Attr("epsilon", 0.0f).Attr("is_training", false);
  if (std::string(op) == "FusedBatchNormV3") c.Attr("U", DT_FLOAT);
  return c;
}

TEST(Advisories, Tfsa2021_043_FusedBatchNormZeroChannels) {
  // x with 0 channels divided its size by its depth; TensorFlow now returns the empty y.
  const AdvisoryCase c = BatchNorm("FusedBatchNorm", {1, 1, 1, 0}, 0, 0);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({1, 1, 1, 0}));
  }
}

TEST(Advisories, Tfsa2021_072_FusedBatchNormVectorsShorterThanChannels) {
  // scale/offset/mean/variance with fewer elements than x has channels were read past their
  // end (or, empty, through a null pointer).
  ExpectFailsBothWays(BatchNorm("FusedBatchNorm", {10, 10, 10, 6}, 1, 1), kInvalid);
  ExpectFailsBothWays(BatchNorm("FusedBatchNorm", {10, 10, 10, 1}, 0, 0), kInvalid);
  ExpectFailsBothWays(BatchNorm("FusedBatchNormV3", {3, 2, 4, 2}, 2, 0), kInvalid);
}

AdvisoryCase Nms(const char* op, int32_t max_output_size) {
  AdvisoryCase c(op);
  c.Input(Values<float>({0.1f, 0.1f, 0.1f, 0.1f, 0.2f, 0.2f, 0.2f, 0.2f, 0.3f, 0.3f, 0.3f, 0.3f},
                        {3, 4}))
      .Input(Values<float>({1, 2, 3}))
      .Input(Scalar<int32_t>(max_output_size))
      .Input(Scalar<float>(0.5f))
      .Input(Scalar<float>(0.5f));
  if (std::string(op) == "NonMaxSuppressionV5") c.Input(Scalar<float>(1.0f));
  c.Attr("T", DT_FLOAT).Attr("pad_to_max_output_size", true);
  if (std::string(op) == "NonMaxSuppressionV4") c.Attr("T_threshold", DT_FLOAT);
  return c;
}

TEST(Advisories, Tfsa2021_143_NonMaxSuppressionNegativeMaxOutputSize) {
  // A negative max_output_size with padding resized a vector to a huge unsigned size.
  ExpectFailsBothWays(Nms("NonMaxSuppressionV5", -1), kInvalid);
  ExpectFailsBothWays(Nms("NonMaxSuppressionV4", -1), kInvalid);
}

TEST(Advisories, Tfsa2021_195_ResizeOutputOverflow) {
  // A size whose output element count overflows int64 failed a CHECK.
  for (const char* op : {"ResizeNearestNeighbor", "ResizeBilinear"}) {
    AdvisoryCase c(op);
    c.Input(Zeros(DT_FLOAT, {5, 1, 1, 1})).Input(Values<int32_t>({1610637938, 1610637938}));
    c.Attr("T", DT_FLOAT);
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2022_120_MaxPoolWindowLargerThanInput) {
  // A window larger than the input failed a CHECK (on the GPU). With Consts TensorFlow's
  // shape function rejects the negative output size; fed, its own kernel returns an empty
  // output (its oneDNN kernel dies of SIGFPE).
  AdvisoryCase c("MaxPool");
  c.Input(Values<float>({1.0f}, {1, 1, 1, 1}));
  c.Attr("T", DT_FLOAT)
      .Attr("ksize", std::vector<int64_t>{1, 2, 2, 1})
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "VALID");
  const absl::Status s = c.Run(Feed::kConst);
  EXPECT_EQ(s.code(), kInvalid) << s;
  std::vector<Tensor> out;
  ASSERT_TRUE(c.Run(Feed::kPlaceholder, &out).ok()) << c.Run(Feed::kPlaceholder);
  EXPECT_EQ(out[0].shape(), TensorShape({1, 0, 0, 1}));
}

// Runs `c` both ways and expects an empty output of `dims`.
void ExpectEmptyOutput(const AdvisoryCase& c, const TensorShape& dims) {
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), dims);
  }
}

TEST(Advisories, Tfsa2021_050_IrfftZeroFftLength) {
  // fft_length 0 ran the FFT on an empty matrix. TensorFlow 2.21 aborts here (its DUCC
  // backend asserts "no zero-sized FFTs"); Sluice returns the empty signal (fft_ops.cc).
  AdvisoryCase c("IRFFT");
  c.Input(Zeros(DT_COMPLEX64, {10, 13})).Input(Values<int32_t>({0}));
  c.Attr("Treal", DT_FLOAT).Attr("Tcomplex", DT_COMPLEX64);
  ExpectEmptyOutput(c, TensorShape({10, 0}));
}

TEST(Advisories, Tfsa2021_051_RfftZeroFftLength) {
  // The same for RFFT of a one-element signal. TensorFlow 2.21 aborts ("axis length
  // mismatch"); Sluice returns the empty spectrum.
  AdvisoryCase c("RFFT");
  c.Input(Values<float>({1.0f})).Input(Values<int32_t>({0}));
  c.Attr("Treal", DT_FLOAT).Attr("Tcomplex", DT_COMPLEX64);
  ExpectEmptyOutput(c, TensorShape({0}));
}

TEST(Advisories, Tfsa2022_082_Rfft2dNegativeFftLength) {
  // A negative fft_length entry (on an empty input, and on a non-empty one) made a negative
  // output dimension and failed a CHECK.
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int32_t>>> cases = {
      {{6, 0}, {1, -1}}, {{2, 3}, {-2, -3}}};
  for (const auto& [dims, fft_length] : cases) {
    AdvisoryCase c("RFFT2D");
    c.Input(Zeros(DT_FLOAT, dims)).Input(Values<int32_t>(fft_length));
    c.Attr("Treal", DT_FLOAT).Attr("Tcomplex", DT_COMPLEX64);
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2022_091_AvgPoolNonPositiveOrHugeWindow) {
  // A ksize entry that is zero, negative or beyond the input's reach was not checked and
  // failed a CHECK sizing the output.
  for (int64_t k : {int64_t{0}, int64_t{-5}, int64_t{1} << 40}) {
    AdvisoryCase c("AvgPool");
    c.Input(Values<float>({1}, {1, 1, 1, 1}));
    c.Attr("T", DT_FLOAT)
        .Attr("ksize", std::vector<int64_t>{1, k, 1, 1})
        .Attr("strides", {1, 1, 1, 1})
        .Attr("padding", "SAME");
    SCOPED_TRACE(k);
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2021_199_MaxPool3DNonPositiveWindow) {
  // A window dimension of 0 or less (Keras' MaxPooling3D passed it through) was not checked
  // and crashed the pooling loop.
  for (const std::vector<int64_t>& ksize :
       {std::vector<int64_t>{1, 2, 2, 0, 1}, std::vector<int64_t>{1, 2, -2, 2, 1}}) {
    AdvisoryCase c("MaxPool3D");
    c.Input(Zeros(DT_FLOAT, {3, 4, 10, 11, 12}));
    c.Attr("T", DT_FLOAT)
        .Attr("ksize", ksize)
        .Attr("strides", {1, 1, 1, 1, 1})
        .Attr("padding", "VALID");
    SCOPED_TRACE(ksize[2] + ksize[3]);
    ExpectFailsBothWays(c, kInvalid);
  }
}

TEST(Advisories, Tfsa2020_028_CropAndResizeNonFiniteBox) {
  // A box coordinate too large for float (infinite) or NaN was cast to an integer index; boxes
  // must be finite.
  for (float y1 :
       {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    AdvisoryCase c("CropAndResize");
    c.Input(Values<float>({1, 1, 1, 1}, {1, 2, 2, 1}))
        .Input(Values<float>({y1, 0, 1, 1}, {1, 4}))
        .Input(Values<int32_t>({0}))
        .Input(Values<int32_t>({2, 2}));
    c.Attr("T", DT_FLOAT);
    ExpectFailsBothWays(c, kInvalid, "Boxes contains at least one element that is not finite");
  }
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
