// What one recorded run cannot show: a stateful kernel's later runs (each moves its stream on
// by 256 blocks per output, as TensorFlow's), and the V2 counter TensorFlow reads past.
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

std::vector<uint32_t> FloatBits(const Tensor& t) {
  std::vector<uint32_t> bits(t.NumElements());
  std::memcpy(bits.data(), t.flat<float>().data(), bits.size() * sizeof(uint32_t));
  return bits;
}

class RandomOpsTest : public KernelTest {};

// Values from TensorFlow 2.21: one session running the node three times.
TEST_F(RandomOpsTest, RandomUniformRunsContinueTheStream) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("u", "RandomUniform")
                         .Input("shape")
                         .Attr("dtype", DT_FLOAT)
                         .Attr("T", DT_INT32)
                         .Attr("seed", int64_t{87654321})
                         .Attr("seed2", int64_t{-3})
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({1}), {6});
  const std::vector<std::vector<uint32_t>> expected = {
      {0x3f0f2c7e, 0x3eb181a8, 0x3df5e110, 0x3f067486, 0x3f4c2f56, 0x3efe49ac},
      {0x3f439900, 0x3df9c0d0, 0x3e97cc08, 0x3f759536, 0x3f1c8856, 0x3ed8c600},
      {0x3f2347f0, 0x3f2e41f2, 0x3f74d872, 0x3f062d66, 0x3b31a600, 0x3e9eafcc}};
  for (const auto& run : expected) {
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(FloatBits(*GetOutput(0)), run);
  }
}

TEST_F(RandomOpsTest, TruncatedNormalRunsContinueTheStream) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("t", "TruncatedNormal")
                         .Input("shape")
                         .Attr("dtype", DT_FLOAT)
                         .Attr("T", DT_INT32)
                         .Attr("seed", int64_t{5})
                         .Attr("seed2", int64_t{6})
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({1}), {5});
  const std::vector<std::vector<uint32_t>> expected = {
      {0x3f3409ba, 0xbedf24c2, 0xbf52855b, 0xbe9363bd, 0xbf5131f2},
      {0xbd910c82, 0xbec0ab5a, 0xbf59d155, 0xbf8469f5, 0x3f088284},
      {0x3f8df540, 0x3d330b56, 0x3e0e57d2, 0xbf97909e, 0x3f9a3177}};
  for (const auto& run : expected) {
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(FloatBits(*GetOutput(0)), run);
  }
}

TEST_F(RandomOpsTest, RandomUniformIntRunsContinueTheStream) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("i", "RandomUniformInt")
                         .Input("shape")
                         .Input("minval")
                         .Input("maxval")
                         .Attr("Tout", DT_INT64)
                         .Attr("T", DT_INT32)
                         .Attr("seed", int64_t{3})
                         .Attr("seed2", int64_t{4})
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({1}), {3});
  AddInputFromArray<int64_t>(TensorShape({}), {-100});
  AddInputFromArray<int64_t>(TensorShape({}), {100});
  const std::vector<std::vector<int64_t>> expected = {{21, -35, 59}, {-51, 47, -66}, {68, -15, 13}};
  for (const auto& run : expected) {
    ASSERT_TRUE(RunOpKernel().ok());
    const Tensor& out = *GetOutput(0);
    EXPECT_EQ(std::vector<int64_t>(out.flat<int64_t>().data(),
                                   out.flat<int64_t>().data() + out.NumElements()),
              run);
  }
}

TEST_F(RandomOpsTest, UnseededKernelsDrawDifferentStreams) {
  std::vector<uint32_t> first;
  for (int kernel = 0; kernel < 2; ++kernel) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("u", "RandomUniform")
                           .Input("shape")
                           .Attr("dtype", DT_FLOAT)
                           .Attr("T", DT_INT32)
                           .Build())
                    .ok());
    AddInputFromArray<int32_t>(TensorShape({1}), {64});
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<uint32_t> bits = FloatBits(*GetOutput(0));
    for (uint32_t b : bits) {
      float value;
      std::memcpy(&value, &b, sizeof(value));
      EXPECT_GE(value, 0.0f);
      EXPECT_LT(value, 1.0f);
    }
    if (kernel == 0) {
      first = bits;
    } else {
      EXPECT_NE(bits, first);
    }
  }
}

// TensorFlow 2.21 accepts a one-word counter with alg 1 and reads a second word past it.
TEST_F(RandomOpsTest, OneWordCounterIsRefused) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("v2", "StatelessRandomUniformV2")
                         .Input("shape")
                         .Input("key")
                         .Input("counter")
                         .Input("alg")
                         .Attr("dtype", DT_FLOAT)
                         .Attr("Tshape", DT_INT32)
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({1}), {4});
  AddInputFromArray<uint64_t>(TensorShape({1}), {7});
  AddInputFromArray<uint64_t>(TensorShape({1}), {1});
  AddInputFromArray<int32_t>(TensorShape({}), {1});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("counter must be a vector with length at least 2"),
            std::string::npos);
}

}  // namespace
}  // namespace test
}  // namespace sluice
