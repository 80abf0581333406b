// What the conformance fixture cannot show: Reshape, Squeeze and ExpandDims (and the view
// paths of Slice, Split and Transpose) return the input's buffer rather than a copy.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ViewOpsTest : public KernelTest {
 protected:
  // Runs the initialized kernel on `input` plus int32 vector inputs; returns output
  // `index`, which must exist.
  Tensor Run(const Tensor& input, const std::vector<std::vector<int32_t>>& args, int index = 0,
             bool scalar_args = false) {
    AddInput(input);
    for (const auto& a : args) {
      if (scalar_args) {
        AddInputFromArray<int32_t>(TensorShape({}), a);
      } else {
        AddInputFromArray<int32_t>(TensorShape({static_cast<int64_t>(a.size())}), a);
      }
    }
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << s;
    Tensor* out = GetOutput(index);
    return out == nullptr ? Tensor() : *out;
  }

  Tensor Input() {
    std::vector<float> v(24);
    for (int i = 0; i < 24; ++i) v[i] = static_cast<float>(i);
    return MakeTensor<float>(TensorShape({2, 3, 4}), v);
  }
};

TEST_F(ViewOpsTest, ReshapeSharesTheBuffer) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("r", "Reshape")
                         .Input("x")
                         .Input("s")
                         .Attr("T", DT_FLOAT)
                         .Attr("Tshape", DT_INT32)
                         .Build())
                  .ok());
  const Tensor in = Input();
  const Tensor out = Run(in, {{-1, 4}});
  EXPECT_EQ(out.shape(), TensorShape({6, 4}));
  EXPECT_TRUE(out.SharesBufferWith(in));
  EXPECT_EQ(out.raw_data(), in.raw_data());
}

TEST_F(ViewOpsTest, SqueezeSharesTheBuffer) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Squeeze").Input("x").Attr("T", DT_FLOAT).Build()).ok());
  const Tensor in = MakeTensor<float>(TensorShape({1, 3, 1}), {1, 2, 3});
  const Tensor out = Run(in, {});
  EXPECT_EQ(out.shape(), TensorShape({3}));
  EXPECT_EQ(out.raw_data(), in.raw_data());
}

TEST_F(ViewOpsTest, ExpandDimsSharesTheBuffer) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("e", "ExpandDims")
                         .Input("x")
                         .Input("d")
                         .Attr("T", DT_FLOAT)
                         .Attr("Tdim", DT_INT32)
                         .Build())
                  .ok());
  const Tensor in = Input();
  const Tensor out = Run(in, {{-1}}, 0, /*scalar_args=*/true);
  EXPECT_EQ(out.shape(), TensorShape({2, 3, 4, 1}));
  EXPECT_EQ(out.raw_data(), in.raw_data());
}

TEST_F(ViewOpsTest, SliceOfWholeRowsIsAViewWhenAligned) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Slice")
                         .Input("x")
                         .Input("b")
                         .Input("z")
                         .Attr("T", DT_FLOAT)
                         .Attr("Index", DT_INT32)
                         .Build())
                  .ok());
  // 16 floats per row: every row starts on a 64-byte boundary.
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>(i);
  const Tensor in = MakeTensor<float>(TensorShape({4, 16}), v);
  const Tensor out = Run(in, {{1, 0}, {2, -1}});
  EXPECT_EQ(out.shape(), TensorShape({2, 16}));
  EXPECT_TRUE(out.SharesBufferWith(in));
  EXPECT_EQ(Values<float>(out)[0], 16.0f);
}

TEST_F(ViewOpsTest, UnalignedSliceIsCopied) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Slice")
                         .Input("x")
                         .Input("b")
                         .Input("z")
                         .Attr("T", DT_FLOAT)
                         .Attr("Index", DT_INT32)
                         .Build())
                  .ok());
  // Row 1 of [3, 5] floats starts 20 bytes in, off Eigen's alignment.
  const Tensor in = MakeTensor<float>(TensorShape({3, 5}), std::vector<float>(15, 1.0f));
  const Tensor out = Run(in, {{1, 0}, {1, -1}});
  EXPECT_FALSE(out.SharesBufferWith(in));
  EXPECT_TRUE(out.IsAligned());
  EXPECT_EQ(out.shape(), TensorShape({1, 5}));
}

TEST_F(ViewOpsTest, SplitAlongTheFirstAxisSharesAlignedPieces) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Split")
                         .Input("d")
                         .Input("x")
                         .Attr("T", DT_FLOAT)
                         .Attr("num_split", 2)
                         .Build())
                  .ok());
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>(i);
  const Tensor in = MakeTensor<float>(TensorShape({4, 16}), v);
  AddInputFromArray<int32_t>(TensorShape({}), {0});
  AddInput(in);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(in));
  EXPECT_TRUE(GetOutput(1)->SharesBufferWith(in));
  EXPECT_EQ(Values<float>(*GetOutput(1))[0], 32.0f);
}

TEST_F(ViewOpsTest, TransposeMovingOnlyUnitDimsSharesTheBuffer) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("t", "Transpose")
                         .Input("x")
                         .Input("p")
                         .Attr("T", DT_FLOAT)
                         .Attr("Tperm", DT_INT32)
                         .Build())
                  .ok());
  const Tensor in = MakeTensor<float>(TensorShape({1, 3, 1}), {1, 2, 3});
  const Tensor out = Run(in, {{2, 1, 0}});
  EXPECT_EQ(out.shape(), TensorShape({1, 3, 1}));
  EXPECT_EQ(out.raw_data(), in.raw_data());
}

}  // namespace
}  // namespace test
}  // namespace sluice
