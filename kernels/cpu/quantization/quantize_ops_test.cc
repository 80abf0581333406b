// Unit tests of the QuantizeV2, Dequantize and QuantizeAndDequantize kernels for what the
// fixture (tests/kernels/gen_quantize.py) cannot show: inputs on which TensorFlow's kernels
// crash or that its shape functions refuse when the node is built, and tensors large enough
// for the kernels' parallel loops.
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/match.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class QuantizeOpsTest : public KernelTest {
 protected:
  // The status of running `node` on a 2x3 float input and the given ranges.
  absl::Status RunOnRanges(const NodeDef& node, const Tensor& min, const Tensor& max) {
    absl::Status status = InitOp(node);
    if (!status.ok()) return status;
    AddInputFromArray<float>(TensorShape({2, 3}), {-1, 0.5f, 2, 3, 4, 5});
    AddInput(min);
    AddInput(max);
    return RunOpKernel();
  }
};

void ExpectInvalidArgument(const absl::Status& status, const char* substring) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), substring)) << status;
}

// TensorFlow's V3 kernel reads one element of any given range and CHECK-fails on other sizes.
TEST_F(QuantizeOpsTest, V3GivenRangeOfTwoElementsIsAnError) {
  for (int which = 0; which < 2; ++which) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("q", "QuantizeAndDequantizeV3")
                           .Input("x")
                           .Input("min")
                           .Input("max")
                           .Input("bits")
                           .Attr("T", DT_FLOAT)
                           .Build())
                    .ok());
    AddInputFromArray<float>(TensorShape({2}), {0.5f, 1});
    AddInputFromArray<float>(which == 0 ? TensorShape({2}) : TensorShape({}),
                             which == 0 ? std::vector<float>{-1, 1} : std::vector<float>{-1});
    AddInputFromArray<float>(which == 1 ? TensorShape({0}) : TensorShape({}),
                             which == 1 ? std::vector<float>{} : std::vector<float>{2});
    AddInputFromArray<int32_t>(TensorShape({}), {8});
    ExpectInvalidArgument(RunOpKernel(), which == 0 ? "input_min must hold one element"
                                                    : "input_max must hold one element");
  }
}

// Axes below -1 never reach TensorFlow's kernels (the shape functions refuse them); Sluice's
// kernels answer without reading out of bounds.
TEST_F(QuantizeOpsTest, AxisBelowMinusOne) {
  const Tensor scalar_min = MakeTensor<float>(TensorShape({}), {-1});
  const Tensor scalar_max = MakeTensor<float>(TensorShape({}), {5});
  for (const char* op : {"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"}) {
    ExpectInvalidArgument(RunOnRanges(NodeDefBuilder("q", op)
                                          .Input("x")
                                          .Input("min")
                                          .Input("max")
                                          .Attr("T", DT_FLOAT)
                                          .Attr("axis", -2)
                                          .Build(),
                                      scalar_min, scalar_max),
                          "Axis must be at least -1. Found -2");
  }
  ASSERT_TRUE(InitOp(NodeDefBuilder("q", "QuantizeAndDequantizeV3")
                         .Input("x")
                         .Input("min")
                         .Input("max")
                         .Input("bits")
                         .Attr("T", DT_FLOAT)
                         .Attr("axis", -3)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({2}), {0.5f, 1});
  AddInput(scalar_min);
  AddInput(scalar_max);
  AddInputFromArray<int32_t>(TensorShape({}), {8});
  ExpectInvalidArgument(RunOpKernel(), "Axis must be at least -1. Found -3");

  ASSERT_TRUE(InitOp(NodeDefBuilder("g", "QuantizeAndDequantizeV4Grad")
                         .Input("g")
                         .Input("x")
                         .Input("min")
                         .Input("max")
                         .Attr("T", DT_FLOAT)
                         .Attr("axis", -2)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({2}), {1, 1});
  AddInputFromArray<float>(TensorShape({2}), {0.5f, 1});
  AddInput(scalar_min);
  AddInput(scalar_max);
  ExpectInvalidArgument(RunOpKernel(), "Axis must be at least -1. Found -2");

  // QuantizeV2 and Dequantize take such an axis as no axis, as TensorFlow's kernels do.
  ASSERT_TRUE(RunOnRanges(NodeDefBuilder("q", "QuantizeV2")
                              .Input("x")
                              .Input("min")
                              .Input("max")
                              .Attr("T", DT_QINT8)
                              .Attr("axis", -2)
                              .Build(),
                          scalar_min, scalar_max)
                  .ok());
  const std::vector<int8_t> want = {-128, -64, -1, 42, 85, 127};
  const Tensor& out = *GetOutput(0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out.flat<qint8>()(i).value, want[i]) << i;
}

// Dequantize's shape function refuses an axis past the input's rank; the kernel answers as
// TensorFlow's does when run without one.
TEST_F(QuantizeOpsTest, DequantizeAxisPastTheRank) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "Dequantize")
                         .Input("x")
                         .Input("min")
                         .Input("max")
                         .Attr("T", DT_QINT8)
                         .Attr("axis", 1)
                         .Build())
                  .ok());
  AddInput(MakeTensor<qint8>(TensorShape({2}), {qint8(1), qint8(2)}));
  AddInputFromArray<float>(TensorShape({}), {-1});
  AddInputFromArray<float>(TensorShape({}), {5});
  ExpectInvalidArgument(RunOpKernel(), "Axis must be less than input dimension(1), got 1");
}

// TensorFlow's Dequantize reads several slices' ranges as vectors and CHECK-fails on a matrix.
TEST_F(QuantizeOpsTest, DequantizeAxisRangeMatrix) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "Dequantize")
                         .Input("x")
                         .Input("min")
                         .Input("max")
                         .Attr("T", DT_QINT8)
                         .Attr("axis", 0)
                         .Build())
                  .ok());
  AddInput(MakeTensor<qint8>(TensorShape({2, 2}), {qint8(1), qint8(2), qint8(3), qint8(4)}));
  AddInputFromArray<float>(TensorShape({1, 2}), {-1, 0});
  AddInputFromArray<float>(TensorShape({2}), {5, 6});
  ExpectInvalidArgument(RunOpKernel(), "must be vectors when axis is specified");
}

// A per-channel QuantizeV2 over a tensor the pool splits gives, channel by channel, what one
// range over that channel's values gives.
TEST_F(QuantizeOpsTest, LargePerChannelMatchesPerTensor) {
  const int64_t outer = 40, channels = 3, inner = 500;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-8, 8);
  std::vector<float> x(outer * channels * inner);
  for (float& v : x) v = dist(gen);
  const std::vector<float> mins = {-6, -1, 0.3f};
  const std::vector<float> maxs = {6, 5, 5};
  for (const char* mode : {"MIN_COMBINED", "SCALED"}) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("q", "QuantizeV2")
                           .Input("x")
                           .Input("min")
                           .Input("max")
                           .Attr("T", DT_QUINT8)
                           .Attr("mode", mode)
                           .Attr("axis", 1)
                           .Build())
                    .ok());
    AddInputFromArray<float>(TensorShape({outer, channels, inner}), x);
    AddInputFromArray<float>(TensorShape({channels}), mins);
    AddInputFromArray<float>(TensorShape({channels}), maxs);
    ASSERT_TRUE(RunOpKernel().ok());
    const Tensor per_channel = *GetOutput(0);
    for (int64_t c = 0; c < channels; ++c) {
      std::vector<float> channel;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) channel.push_back(x[(o * channels + c) * inner + i]);
      }
      ASSERT_TRUE(InitOp(NodeDefBuilder("q", "QuantizeV2")
                             .Input("x")
                             .Input("min")
                             .Input("max")
                             .Attr("T", DT_QUINT8)
                             .Attr("mode", mode)
                             .Build())
                      .ok());
      AddInputFromArray<float>(TensorShape({outer * inner}), channel);
      AddInputFromArray<float>(TensorShape({}), {mins[c]});
      AddInputFromArray<float>(TensorShape({}), {maxs[c]});
      ASSERT_TRUE(RunOpKernel().ok());
      const Tensor& single = *GetOutput(0);
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          ASSERT_EQ(per_channel.flat<quint8>()((o * channels + c) * inner + i).value,
                    single.flat<quint8>()(o * inner + i).value)
              << mode << " channel " << c;
        }
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
