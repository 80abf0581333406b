// Unit tests of Conv3D's input gradient for what the TensorFlow fixtures
// (tests/kernels/fixtures/conv3d_backprop.pbtxt) cannot show: Conv3DBackpropInput (version
// 1), which TensorFlow 2.x no longer builds, against V2; and shapes large enough for the
// parallel paths, checked as the adjoint of Conv3D (<conv(x), dy> = <x, backprop(dy)>).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class Conv3DBackpropInputTest : public KernelTest {
 protected:
  void Init(const std::string& op, DataType dtype, const std::vector<int32_t>& strides,
            const std::string& padding) {
    absl::Status s = InitOp(NodeDefBuilder("c", op)
                                .Input("a")
                                .Input("f")
                                .Input("dy")
                                .Attr("T", dtype)
                                .Attr("strides", strides)
                                .Attr("padding", padding)
                                .Build());
    ASSERT_TRUE(s.ok()) << s;
  }
};

std::vector<float> Random(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist;
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

TEST_F(Conv3DBackpropInputTest, Version1MatchesVersion2) {
  const std::vector<int32_t> strides = {1, 2, 1, 2, 1};
  const TensorShape in({2, 5, 4, 6, 3}), filter({3, 2, 3, 3, 4}), dy({2, 3, 4, 3, 4});
  const std::vector<float> f = Random(filter.num_elements(), 1);
  const std::vector<float> g = Random(dy.num_elements(), 2);

  Init("Conv3DBackpropInputV2", DT_FLOAT, strides, "SAME");
  AddInputFromArray<int32_t>(TensorShape({5}), {2, 5, 4, 6, 3});
  AddInputFromArray<float>(filter, f);
  AddInputFromArray<float>(dy, g);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor v2 = *GetOutput(0);

  Init("Conv3DBackpropInput", DT_FLOAT, strides, "SAME");
  AddInputFromArray<float>(in, std::vector<float>(in.num_elements(), 7.0f));
  AddInputFromArray<float>(filter, f);
  AddInputFromArray<float>(dy, g);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& v1 = *GetOutput(0);
  ASSERT_EQ(v1.shape(), in);
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    ASSERT_EQ(v1.base<float>()[i], v2.base<float>()[i]) << i;
  }
}

TEST_F(Conv3DBackpropInputTest, Version1ChecksTheInputShape) {
  Init("Conv3DBackpropInput", DT_DOUBLE, {1, 1, 1, 1, 1}, "VALID");
  AddInputFromArray<double>(TensorShape({4, 4, 4, 3}), std::vector<double>(192, 0.0));
  AddInputFromArray<double>(TensorShape({2, 2, 2, 3, 1}), std::vector<double>(24, 1.0));
  AddInputFromArray<double>(TensorShape({1, 3, 3, 3, 1}), std::vector<double>(27, 1.0));
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(s.message(), "input tensor must have 5 dimensions") << s;
}

// No output channels: nothing reaches the input, whose gradient is zero (TensorFlow returns
// uninitialised memory there).
TEST_F(Conv3DBackpropInputTest, NoOutputChannelsGiveZeros) {
  Init("Conv3DBackpropInputV2", DT_FLOAT, {1, 1, 1, 1, 1}, "VALID");
  AddInputFromArray<int32_t>(TensorShape({5}), {1, 4, 5, 5, 3});
  AddInputFromArray<float>(TensorShape({2, 3, 3, 3, 0}), {});
  AddInputFromArray<float>(TensorShape({1, 3, 3, 3, 0}), {});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.shape(), TensorShape({1, 4, 5, 5, 3}));
  for (int64_t i = 0; i < out.NumElements(); ++i) ASSERT_EQ(out.base<float>()[i], 0.0f) << i;
}

// Large enough that both the GEMM blocks and the input-cell gather split over the pool.
TEST_F(Conv3DBackpropInputTest, LargeGradientIsTheAdjointOfConv3D) {
  const std::vector<int32_t> strides = {1, 2, 2, 2, 1};
  const TensorShape in({2, 24, 24, 23, 4}), filter({3, 3, 3, 4, 5}), dy({2, 12, 12, 12, 5});
  const std::vector<float> x = Random(in.num_elements(), 3);
  const std::vector<float> f = Random(filter.num_elements(), 4);
  const std::vector<float> g = Random(dy.num_elements(), 5);

  ASSERT_TRUE(InitOp(NodeDefBuilder("conv", "Conv3D")
                         .Input("x")
                         .Input("f")
                         .Attr("T", DT_FLOAT)
                         .Attr("strides", strides)
                         .Attr("padding", "SAME")
                         .Build())
                  .ok());
  AddInputFromArray<float>(in, x);
  AddInputFromArray<float>(filter, f);
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->shape(), dy);
  double forward = 0;
  for (int64_t i = 0; i < dy.num_elements(); ++i) {
    forward += static_cast<double>(GetOutput(0)->base<float>()[i]) * g[i];
  }

  Init("Conv3DBackpropInputV2", DT_FLOAT, strides, "SAME");
  AddInputFromArray<int32_t>(TensorShape({5}), {2, 24, 24, 23, 4});
  AddInputFromArray<float>(filter, f);
  AddInputFromArray<float>(dy, g);
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->shape(), in);
  double backward = 0;
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    backward += static_cast<double>(GetOutput(0)->base<float>()[i]) * x[i];
  }
  EXPECT_NEAR(backward, forward, 1e-4 * std::abs(forward) + 1e-2);
}

}  // namespace
}  // namespace test
}  // namespace sluice
