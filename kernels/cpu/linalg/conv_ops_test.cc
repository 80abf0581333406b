// Conv2D / DepthwiseConv2dNative / Conv2DBackpropInput kernels: what the TensorFlow fixtures
// (tests/kernels/fixtures/linalg.pbtxt) cannot show. Attr errors TensorFlow rejects while
// building a graph, inputs its oneDNN kernels abort on, the filter cache noticing changed
// weights, and a large shape checked against a direct sum.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

class ConvOpsTest : public KernelTest {
 protected:
  absl::Status Init(const std::string& op, std::vector<int32_t> strides, const std::string& padding,
                    DataType dtype = DT_FLOAT, std::vector<int64_t> explicit_paddings = {}) {
    NodeDefBuilder b("conv", op);
    if (op == "Conv2DBackpropInput") b.Input("sizes");
    b.Input("input")
        .Input("filter")
        .Attr("T", dtype)
        .Attr("strides", strides)
        .Attr("padding", padding)
        .Attr("explicit_paddings", explicit_paddings);
    return InitOp(b.Build());
  }
};

std::vector<float> Random(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

TEST_F(ConvOpsTest, AttrErrors) {
  EXPECT_EQ(Init("Conv2D", {1, 1, 1}, "VALID").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Init("Conv2D", {1, 0, 1, 1}, "VALID").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Init("DepthwiseConv2dNative", {1, 1, 1, 1}, "EXPLICIT", DT_FLOAT, {0, 0, 1, 1}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Init("Conv2DBackpropInput", {1, 1, 1, 1}, "SAME", DT_FLOAT, {0, 0, 1, 1, 1, 1, 0, 0}).code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Init("Conv2D", {1, 1, 1, 1}, "EXPLICIT", DT_FLOAT, {0, 0, int64_t{1} << 40, 0, 0, 0, 0, 0})
          .code(),
      absl::StatusCode::kInvalidArgument);
}

// Issue 25: explicit pads are each at most INT32_MAX, but with both spatial dims padded so
// the output of a 1x1 input has about 2**32 x 2**32 positions: more elements than int64 holds.
// INVALID_ARGUMENT, where building the output shape used to abort the process.
TEST_F(ConvOpsTest, OutputTooLargeForInt64IsInvalidArgument) {
  const int64_t pad = std::numeric_limits<int32_t>::max();
  ASSERT_TRUE(
      Init("Conv2D", {1, 1, 1, 1}, "EXPLICIT", DT_FLOAT, {0, 0, pad, pad, pad, pad, 0, 0}).ok());
  AddInputFromArray<float>(TensorShape({1, 1, 1, 1}), {1});
  AddInputFromArray<float>(TensorShape({1, 1, 1, 1}), {1});
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("too large")) << s;
}

TEST_F(ConvOpsTest, WrongRanksAreInvalidArgument) {
  for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
    ASSERT_TRUE(Init(op, {1, 1, 1, 1}, "SAME").ok());
    AddInputFromArray<float>(TensorShape({2, 2, 1}), {1, 2, 3, 4});
    AddInputFromArray<float>(TensorShape({1, 1, 1, 1}), {1});
    absl::Status s = RunOpKernel();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_THAT(std::string(s.message()), HasSubstr("input must be 4-dimensional"));
  }
}

// Issue 25: a depthwise filter with a zero dim is INVALID_ARGUMENT, as TensorFlow's kernel
// says before anything else (these cases were run in TensorFlow 2.21), even where the
// output would be empty or the shapes disagree.
TEST_F(ConvOpsTest, DepthwiseZeroElementFilter) {
  const std::vector<std::pair<TensorShape, TensorShape>> cases = {
      {TensorShape({1, 3, 3, 2}), TensorShape({2, 2, 2, 0})},
      {TensorShape({0, 3, 3, 2}), TensorShape({0, 2, 2, 1})},
      {TensorShape({1, 3, 3, 0}), TensorShape({2, 2, 0, 1})},
      {TensorShape({1, 1, 1, 2}), TensorShape({2, 2, 2, 0})},
      {TensorShape({1, 3, 3, 3}), TensorShape({2, 2, 2, 0})},
      {TensorShape({3, 3, 2}), TensorShape({2, 2, 2, 0})},
  };
  for (const char* padding : {"VALID", "SAME"}) {
    for (const auto& [input, filter] : cases) {
      ASSERT_TRUE(Init("DepthwiseConv2dNative", {1, 1, 1, 1}, padding).ok());
      AddInputFromArray<float>(input, std::vector<float>(input.num_elements(), 1.0f));
      AddInputFromArray<float>(filter, {});
      absl::Status s = RunOpKernel();
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument)
          << input.DebugString() << " " << filter.DebugString() << " " << s;
      EXPECT_THAT(std::string(s.message()), HasSubstr("filter must not have zero elements"));
    }
  }
  // Neighbours: an empty batch with a real filter is an empty output; a 1x1 filter scales
  // each channel.
  ASSERT_TRUE(Init("DepthwiseConv2dNative", {1, 1, 1, 1}, "VALID").ok());
  AddInputFromArray<float>(TensorShape({0, 3, 3, 2}), {});
  AddInputFromArray<float>(TensorShape({2, 2, 2, 1}), std::vector<float>(8, 1.0f));
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({0, 2, 2, 2}));
  ASSERT_TRUE(Init("DepthwiseConv2dNative", {1, 1, 1, 1}, "VALID").ok());
  AddInputFromArray<float>(TensorShape({1, 1, 2, 2}), {1, 2, 3, 4});
  AddInputFromArray<float>(TensorShape({1, 1, 2, 1}), {10, 100});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{10, 200, 30, 400}));
}

TEST_F(ConvOpsTest, BadInputSizes) {
  const std::vector<std::vector<int32_t>> bad = {{1, -2, 2, 1}, {1, 2, 2}};
  for (const auto& sizes : bad) {
    ASSERT_TRUE(Init("Conv2DBackpropInput", {1, 1, 1, 1}, "SAME").ok());
    AddInputFromArray<int32_t>(TensorShape({static_cast<int64_t>(sizes.size())}), sizes);
    AddInputFromArray<float>(TensorShape({1, 1, 1, 1}), {1});
    AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
    EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
  }
  ASSERT_TRUE(Init("Conv2DBackpropInput", {1, 1, 1, 1}, "SAME").ok());
  AddInputFromArray<int32_t>(TensorShape({4}), {1, 2, 2, 1});
  AddInputFromArray<float>(TensorShape({1, 1, 1}), {1});
  AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
}

// The reordered filter is cached; writing new weights into the same buffer, or passing
// another buffer, must not reuse it.
TEST_F(ConvOpsTest, CachedFilterFollowsChanges) {
  ASSERT_TRUE(Init("Conv2D", {1, 1, 1, 1}, "VALID").ok());
  AddInputFromArray<float>(TensorShape({1, 1, 1, 16}), std::vector<float>(16, 1.0f));
  Tensor filter = MakeTensor<float>(TensorShape({1, 1, 16, 16}), std::vector<float>(256, 1));
  AddInput(filter);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(16, 16.0f));
  for (int64_t i = 0; i < 256; ++i) filter.flat<float>()(i) = 2.0f;
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(16, 32.0f));
}

// The same for the Winograd path's transformed filter (a stride-1 3x3 convolution with 32
// channels and 16 output tiles): an in-place change is seen.
TEST_F(ConvOpsTest, WinogradFilterCacheFollowsChanges) {
  ASSERT_TRUE(Init("Conv2D", {1, 1, 1, 1}, "SAME").ok());
  AddInputFromArray<float>(TensorShape({1, 16, 16, 32}), std::vector<float>(16 * 16 * 32, 1));
  Tensor filter = MakeTensor<float>(TensorShape({3, 3, 32, 32}), std::vector<float>(9216, 1));
  AddInput(filter);
  // Output (5, 5) sees all nine taps of 32 channels; corner (0, 0) sees four.
  const auto at = [&](int64_t row, int64_t col) {
    return GetOutput(0)->flat<float>()((row * 16 + col) * 32);
  };
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_NEAR(at(5, 5), 288.0f, 1e-3);
  EXPECT_NEAR(at(0, 0), 128.0f, 1e-3);
  for (int64_t i = 0; i < 9216; ++i) filter.flat<float>()(i) = 0.5f;
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_NEAR(at(5, 5), 144.0f, 1e-3);
  EXPECT_NEAR(at(0, 0), 64.0f, 1e-3);
}

// A shape large enough for oneDNN's blocked kernels and parallel loops, against a direct sum.
TEST_F(ConvOpsTest, LargeSameConvMatchesDirectSum) {
  const int64_t n = 2, h = 20, w = 18, c = 24, k = 3, o = 40;
  const std::vector<float> x = Random(n * h * w * c, 1);
  const std::vector<float> f = Random(k * k * c * o, 2);
  ASSERT_TRUE(Init("Conv2D", {1, 1, 1, 1}, "SAME").ok());
  AddInputFromArray<float>(TensorShape({n, h, w, c}), x);
  AddInputFromArray<float>(TensorShape({k, k, c, o}), f);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> got = Values<float>(*GetOutput(0));
  ASSERT_EQ(got.size(), static_cast<size_t>(n * h * w * o));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t i = 0; i < h; ++i) {
      for (int64_t j = 0; j < w; ++j) {
        for (int64_t oc = 0; oc < o; ++oc) {
          double sum = 0;
          for (int64_t di = 0; di < k; ++di) {
            for (int64_t dj = 0; dj < k; ++dj) {
              const int64_t ii = i + di - 1, jj = j + dj - 1;
              if (ii < 0 || ii >= h || jj < 0 || jj >= w) continue;
              for (int64_t ic = 0; ic < c; ++ic) {
                sum += double{x[((b * h + ii) * w + jj) * c + ic]} *
                       f[((di * k + dj) * c + ic) * o + oc];
              }
            }
          }
          const float want = static_cast<float>(sum);
          const float have = got[((b * h + i) * w + j) * o + oc];
          ASSERT_NEAR(have, want, 1e-4 + 1e-4 * std::fabs(want));
        }
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
