// What the TensorFlow fixtures (binary_conformance_test) cannot show: buffer forwarding and
// the thread-pool split of large operands, for BinaryOp and the ternary kernels.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class BinaryOpTest : public KernelTest {
 protected:
  void Init(const char* op, DataType dtype) {
    ASSERT_TRUE(
        InitOp(NodeDefBuilder("n", op).Input("x").Input("y").Attr("T", dtype).Build()).ok());
  }
};

TEST_F(BinaryOpTest, ForwardsAnUnsharedInputOfTheOutputShape) {
  Init("Mul", DT_FLOAT);
  Tensor y = MakeTensor<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<float>(TensorShape({3}), {2, 2, 2});  // broadcast: never forwarded
  AddInput(y);                                            // shared with this test
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(y));
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(2, 4, 6, 8, 10, 12));

  Init("Sub", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({}), {10});
  AddInputFromArray<int32_t>(TensorShape({3}), {1, 2, 3});  // only the harness holds it
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<int32_t>(*GetOutput(0)), ElementsAre(9, 8, 7));
}

TEST_F(BinaryOpTest, ComparisonsNeverForward) {
  Init("Less", DT_INT8);
  AddInputFromArray<int8_t>(TensorShape({3}), {1, 2, 3});
  AddInputFromArray<int8_t>(TensorShape({3}), {2, 2, 2});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->dtype(), DT_BOOL);
  EXPECT_THAT(Values<bool>(*GetOutput(0)), ElementsAre(true, false, false));
}

// Short rows broadcast over many rows take the tiled path (the repeated row copied into a
// buffer); each shape here is checked element by element against the broadcast definition,
// with the repeating operand on either side, whole tiles and a remainder, and the leading
// dim making several runs.
TEST_F(BinaryOpTest, ShortBroadcastRowsMatchTheDefinition) {
  struct Case {
    std::vector<int64_t> x, y;
  };
  const std::vector<Case> cases = {
      {{2, 301, 3}, {3}},         // normalisation of RGB pixels: rows of 3
      {{3, 97, 16}, {3, 1, 16}},  // squeeze-excite rescale: [N,HW,C] * [N,1,C]
      {{1, 1}, {5000, 1}},        // broadcast both ways: no tiling
      {{7}, {4, 50, 7}},          // x repeats
      {{2, 40, 64}, {64}},        // the largest row that is tiled
      {{2, 40, 65}, {65}},        // and the smallest that is not
  };
  for (const Case& c : cases) {
    Init("Sub", DT_FLOAT);
    const TensorShape xs(c.x), ys(c.y);
    std::vector<float> x(xs.num_elements()), y(ys.num_elements());
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1013) * 0.5f;
    for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(i % 101) * 0.25f - 3;
    AddInputFromArray<float>(xs, x);
    AddInputFromArray<float>(ys, y);
    ASSERT_TRUE(RunOpKernel().ok());
    const Tensor& z = *GetOutput(0);
    const std::vector<float> got = Values<float>(z);
    // Right-aligned numpy broadcasting, by index arithmetic.
    const int rank = z.dims();
    std::vector<int64_t> index(rank);
    for (int64_t i = 0; i < z.NumElements(); ++i) {
      int64_t rest = i;
      for (int d = rank - 1; d >= 0; --d) {
        index[d] = rest % z.dim_size(d);
        rest /= z.dim_size(d);
      }
      auto offset = [&](const std::vector<int64_t>& dims) {
        int64_t off = 0;
        const int lead = rank - static_cast<int>(dims.size());
        for (size_t d = 0; d < dims.size(); ++d) {
          off = off * dims[d] + (dims[d] == 1 ? 0 : index[lead + d]);
        }
        return off;
      };
      ASSERT_EQ(got[i], x[offset(c.x)] - y[offset(c.y)])
          << xs.DebugString() << " - " << ys.DebugString() << " at " << i;
    }
  }
}

// Large enough to be split over the harness's two-thread pool; every path of the engine.
TEST_F(BinaryOpTest, LargeOperandsAreSplitCorrectly) {
  const int64_t n = 70000;
  std::vector<int32_t> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<int32_t>(i * 7919 % 20001) - 10000;

  Init("FloorDiv", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({n}), x);
  AddInputFromArray<int32_t>(TensorShape({}), {-7});
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int32_t> z = Values<int32_t>(*GetOutput(0));
  for (int64_t i = 0; i < n; ++i) {
    int32_t q = x[i] / -7;
    if (x[i] % -7 != 0 && x[i] > 0) --q;
    ASSERT_EQ(z[i], q) << i;
  }

  Init("FloorMod", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({n / 10, 10}), x);
  AddInputFromArray<int32_t>(TensorShape({n / 10, 1}), std::vector<int32_t>(n / 10, 3));
  ASSERT_TRUE(RunOpKernel().ok());
  z = Values<int32_t>(*GetOutput(0));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], ((x[i] % 3) + 3) % 3) << i;

  Init("Maximum", DT_INT32);
  AddInputFromArray<int32_t>(TensorShape({n / 2, 1, 2}), x);
  AddInputFromArray<int32_t>(TensorShape({3, 1}), {0, -5000, 5000});
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->shape(), TensorShape({n / 2, 3, 2}));
  z = Values<int32_t>(*GetOutput(0));
  const int32_t bounds[] = {0, -5000, 5000};
  for (int64_t r = 0; r < n / 2; ++r)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 2; ++c)
        ASSERT_EQ(z[(r * 3 + b) * 2 + c], std::max(x[r * 2 + c], bounds[b]));
}

TEST_F(BinaryOpTest, LargeClipAndSelect) {
  const int64_t n = 50000;
  std::vector<float> t(n);
  std::vector<float> hi(n);
  for (int64_t i = 0; i < n; ++i) {
    t[i] = static_cast<float>(i % 101) - 50;
    hi[i] = static_cast<float>(i % 7) * 5;
  }
  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "ClipByValue")
                         .Input("t")
                         .Input("lo")
                         .Input("hi")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({n}), t);
  AddInputFromArray<float>(TensorShape({}), {-10});
  AddInputFromArray<float>(TensorShape({n}), hi);
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<float> z = Values<float>(*GetOutput(0));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], std::max(std::min(t[i], hi[i]), -10.0f));

  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Select")
                         .Input("c")
                         .Input("t")
                         .Input("e")
                         .Attr("T", DT_FLOAT)
                         .Build())
                  .ok());
  std::vector<bool> cond(n / 100);
  for (size_t i = 0; i < cond.size(); ++i) cond[i] = i % 3 == 0;
  AddInputFromArray<bool>(TensorShape({n / 100}), cond);
  AddInputFromArray<float>(TensorShape({n / 100, 100}), t);
  AddInputFromArray<float>(TensorShape({n / 100, 100}), hi);
  ASSERT_TRUE(RunOpKernel().ok());
  z = Values<float>(*GetOutput(0));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], cond[i / 100] ? t[i] : hi[i]) << i;
}

TEST_F(BinaryOpTest, SelectWithScalarConditionSharesTheChosenInput) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "Select")
                         .Input("c")
                         .Input("t")
                         .Input("e")
                         .Attr("T", DT_INT64)
                         .Build())
                  .ok());
  Tensor e = MakeTensor<int64_t>(TensorShape({2}), {3, 4});
  AddInputFromArray<bool>(TensorShape({}), {false});
  AddInputFromArray<int64_t>(TensorShape({2}), {1, 2});
  AddInput(e);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(e));
  EXPECT_THAT(Values<int64_t>(*GetOutput(0)), ElementsAre(3, 4));
}

TEST_F(BinaryOpTest, BiasAddForwardsItsValue) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("b", "BiasAdd")
                         .Input("v")
                         .Input("b")
                         .Attr("T", DT_FLOAT)
                         .Attr("data_format", "NCHW")
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({1, 2, 2}), {1, 2, 3, 4});
  AddInputFromArray<float>(TensorShape({2}), {10, 20});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_THAT(Values<float>(*GetOutput(0)), ElementsAre(11, 12, 23, 24));
}

TEST_F(BinaryOpTest, DtypesTensorFlowDoesNotRegisterAreNotFound) {
  absl::Status s =
      InitOp(NodeDefBuilder("m", "TruncateMod").Input("x").Input("y").Attr("T", DT_HALF).Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("No registered 'TruncateMod' OpKernel"));
}

}  // namespace
}  // namespace test
}  // namespace sluice
