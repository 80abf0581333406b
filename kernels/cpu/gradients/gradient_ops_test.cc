// Unit tests for what the TensorFlow fixture (tests/kernels/fixtures/gradients.pbtxt) cannot
// show: tensors large enough for the parallel paths (checked against small runs of the same
// kernel, or sums computed here in the kernel's order), buffer forwarding, variants, and
// ParallelDynamicStitch's choice among duplicate indices.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/types.h"
#include "graph/core/variant.h"
#include "gtest/gtest.h"
#include "kernels/cpu/gradients/eigen_row_sum.h"
#include "kernels/kernel_test_util.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;

class GradientOpsTest : public KernelTest {
 protected:
  // Runs the two-input gradient `op` on a and b (of one shape) and returns the output.
  template <typename T>
  std::vector<T> RunBinary(const std::string& op, const std::vector<T>& a,
                           const std::vector<T>& b) {
    const bool output_grad = op == "SigmoidGrad" || op == "SqrtGrad" || op == "RsqrtGrad" ||
                             op == "TanhGrad" || op == "ReciprocalGrad" || op == "InvGrad";
    NodeDefBuilder node("n", op);
    node.Input(output_grad ? "y" : "g").Input(output_grad ? "dy" : "x");
    EXPECT_TRUE(InitOp(node.Attr("T", DataTypeToEnum<T>::value).Build()).ok());
    const TensorShape shape({static_cast<int64_t>(a.size())});
    AddInputFromArray<T>(shape, a);
    AddInputFromArray<T>(shape, b);
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    return s.ok() ? Values<T>(*GetOutput(0)) : std::vector<T>();
  }

  // A tensor of n elements repeating a 64-element pattern runs over the pool; every element
  // before its scalar tail must equal the pattern's own result (64 elements: no tail), and
  // the tail that of a tensor holding the tail alone (all scalar form).
  template <typename T>
  void ExpectLongRunMatchesPattern(const std::string& op, float lo, float hi) {
    SCOPED_TRACE(op + " " + DataTypeString(DataTypeToEnum<T>::value));
    constexpr int64_t kPattern = 64;
    constexpr int64_t n = 150003;  // a tail of 3 for every packet width
    std::vector<T> a(kPattern), b(kPattern);
    for (int64_t i = 0; i < kPattern; ++i) {
      a[i] = static_cast<T>(lo + (hi - lo) * ((i * 37) % kPattern) / kPattern);
      b[i] = static_cast<T>(-3.0f + 6.0f * ((i * 11) % kPattern) / kPattern);
    }
    const std::vector<T> pattern = RunBinary(op, a, b);
    std::vector<T> long_a(n), long_b(n), tail_a, tail_b;
    for (int64_t i = 0; i < n; ++i) {
      long_a[i] = a[i % kPattern];
      long_b[i] = b[i % kPattern];
      if (i >= n - 3) {
        tail_a.push_back(long_a[i]);
        tail_b.push_back(long_b[i]);
      }
    }
    const std::vector<T> got = RunBinary(op, long_a, long_b);
    const std::vector<T> tail = RunBinary(op, tail_a, tail_b);
    ASSERT_EQ(got.size(), static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const T want = i < n - 3 ? pattern[i % kPattern] : tail[i - (n - 3)];
      ASSERT_EQ(std::memcmp(&got[i], &want, sizeof(T)), 0) << "element " << i;
    }
  }
};

TEST_F(GradientOpsTest, LongElementwiseRunsSplitLikeShortOnes) {
  ExpectLongRunMatchesPattern<float>("SigmoidGrad", 0.0f, 1.0f);
  ExpectLongRunMatchesPattern<double>("SqrtGrad", 0.1f, 8.0f);
  ExpectLongRunMatchesPattern<Eigen::half>("RsqrtGrad", 0.1f, 8.0f);
  ExpectLongRunMatchesPattern<complex64>("TanhGrad", -1.0f, 1.0f);
  ExpectLongRunMatchesPattern<float>("SoftplusGrad", -20.0f, 20.0f);
  ExpectLongRunMatchesPattern<double>("SoftplusGrad", -20.0f, 20.0f);
  ExpectLongRunMatchesPattern<bfloat16>("SoftplusGrad", -20.0f, 20.0f);
  ExpectLongRunMatchesPattern<float>("SeluGrad", -2.0f, 2.0f);
  ExpectLongRunMatchesPattern<int32_t>("Relu6Grad", -3.0f, 9.0f);
}

TEST_F(GradientOpsTest, ForwardsAnUnsharedInputBuffer) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("n", "ReluGrad").Input("g").Input("x").Attr("T", DT_FLOAT).Build())
          .ok());
  Tensor g = MakeTensor<float>(TensorShape({3}), {1, 2, 3});
  Tensor x = MakeTensor<float>(TensorShape({3}), {-1, 0, 1});
  const void* buffer = g.raw_data();
  TestInvocation run(kernel(), device(), {std::move(g), std::move(x)});
  ASSERT_TRUE(run.Compute().ok());
  Tensor* z = run.context()->mutable_output(0);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->raw_data(), buffer);
  EXPECT_THAT(Values<float>(*z), ElementsAre(0.0f, 0.0f, 3.0f));
}

TEST_F(GradientOpsTest, LargeNhwcBiasAddGradSumsEachColumnInRowOrder) {
  ASSERT_TRUE(
      InitOp(NodeDefBuilder("b", "BiasAddGrad").Input("g").Attr("T", DT_FLOAT).Build()).ok());
  const int64_t rows = 40000, cols = 300;
  std::vector<float> g(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) g[i] = 1.0f / (1 + (i * 7919) % 1013) - 0.004f;
  std::vector<float> want(cols, 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) want[c] += g[r * cols + c];
  }
  AddInputFromArray<float>(TensorShape({rows / 100, 100, cols}), g);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), want);
}

TEST_F(GradientOpsTest, LargeNchwBiasAddGradAddsEigensRowSums) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("b", "BiasAddGrad")
                         .Input("g")
                         .Attr("T", DT_FLOAT)
                         .Attr("data_format", "NCHW")
                         .Build())
                  .ok());
  const int64_t batch = 3, channels = 40, inner = 9000;
  std::vector<float> g(batch * channels * inner);
  for (size_t i = 0; i < g.size(); ++i) g[i] = 1.0f / (1 + (i * 7919) % 1013) - 0.004f;
  std::vector<float> want(channels, 0.0f);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < channels; ++c) {
      want[c] += gradients::EigenRowSum(g.data() + (b * channels + c) * inner, inner);
    }
  }
  AddInputFromArray<float>(TensorShape({batch, channels, 90, 100}), g);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<float>(*GetOutput(0)), want);
}

TEST_F(GradientOpsTest, LargeIntegerBiasAddGradWraps) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("b", "BiasAddGrad")
                         .Input("g")
                         .Attr("T", DT_INT8)
                         .Attr("data_format", "NCHW")
                         .Build())
                  .ok());
  const int64_t batch = 50, channels = 7, inner = 1001;
  std::vector<int8_t> g(batch * channels * inner);
  std::vector<int32_t> want(channels, 0);
  for (int64_t i = 0; i < static_cast<int64_t>(g.size()); ++i) {
    g[i] = static_cast<int8_t>((i * 31) % 255 - 127);
    want[(i / inner) % channels] += g[i];
  }
  AddInputFromArray<int8_t>(TensorShape({batch, channels, inner}), g);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<int8_t> got = Values<int8_t>(*GetOutput(0));
  ASSERT_EQ(got.size(), static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    EXPECT_EQ(got[c], static_cast<int8_t>(static_cast<uint8_t>(want[c] & 0xff))) << c;
  }
}

// A variant payload holding one int.
struct Tag : VariantPayload {
  explicit Tag(int v) : value(v) {}
  std::string TypeName() const override { return "Tag"; }
  std::string DebugString() const override { return std::to_string(value); }
  int value;
};

TEST_F(GradientOpsTest, StitchesVariants) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "DynamicStitch")
                         .Input("i")
                         .Input("d")
                         .Attr("N", 1)
                         .Attr("T", DT_VARIANT)
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 0});
  Tensor data(DT_VARIANT, TensorShape({2}));
  data.flat<Variant>()(0) = Variant::Make<Tag>(7);
  data.flat<Variant>()(1) = Variant::Make<Tag>(9);
  AddInput(data);
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.shape().DebugString(), "[4]");
  ASSERT_NE(out.flat<Variant>()(0).get<Tag>(), nullptr);
  EXPECT_EQ(out.flat<Variant>()(0).get<Tag>()->value, 9);
  EXPECT_TRUE(out.flat<Variant>()(1).is_empty());
  EXPECT_TRUE(out.flat<Variant>()(2).is_empty());
  // The stitched element shares the input's payload.
  EXPECT_EQ(out.flat<Variant>()(3).get<Tag>(), data.flat<Variant>()(0).get<Tag>());
}

TEST_F(GradientOpsTest, ParallelDynamicStitchTakesTheLastDuplicate) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "ParallelDynamicStitch")
                         .Input("i0")
                         .Input("i1")
                         .Input("d0")
                         .Input("d1")
                         .Attr("N", 2)
                         .Attr("T", DT_INT64)
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({3}), {0, 1, 0});
  AddInputFromArray<int32_t>(TensorShape({1}), {1});
  AddInputFromArray<int64_t>(TensorShape({3}), {10, 11, 12});
  AddInputFromArray<int64_t>(TensorShape({1}), {21});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int64_t>(*GetOutput(0)), ElementsAre(12, 21));
}

TEST_F(GradientOpsTest, LargeDynamicStitchPermutesRows) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "DynamicStitch")
                         .Input("i")
                         .Input("d")
                         .Attr("N", 1)
                         .Attr("T", DT_COMPLEX128)
                         .Build())
                  .ok());
  const int64_t rows = 100000;
  std::vector<int32_t> indices(rows);
  std::vector<complex128> data(rows * 2);
  for (int64_t i = 0; i < rows; ++i) {
    indices[i] = static_cast<int32_t>((i * 7919) % rows);  // a permutation: 7919 is prime
    data[2 * i] = complex128(i, -i);
    data[2 * i + 1] = complex128(0.5 * i, 1);
  }
  AddInputFromArray<int32_t>(TensorShape({rows}), indices);
  AddInputFromArray<complex128>(TensorShape({rows, 2}), data);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<complex128> got = Values<complex128>(*GetOutput(0));
  ASSERT_EQ(got.size(), static_cast<size_t>(2 * rows));
  for (int64_t i = 0; i < rows; ++i) {
    ASSERT_EQ(got[2 * indices[i]], data[2 * i]) << i;
    ASSERT_EQ(got[2 * indices[i] + 1], data[2 * i + 1]) << i;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
