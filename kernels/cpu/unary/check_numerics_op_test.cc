// What the conformance fixture cannot show about CheckNumerics: a NaN or Inf anywhere in a
// tensor large enough for the parallel scan is found, and the input is forwarded.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

class CheckNumericsOpTest : public KernelTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InitOp(NodeDefBuilder("check", "CheckNumerics")
                           .Input("x")
                           .Attr("T", DT_FLOAT)
                           .Attr("message", std::string("in layer 3"))
                           .Build())
                    .ok());
  }
};

constexpr int64_t kLarge = 100003;

TEST_F(CheckNumericsOpTest, FindsNanAndInfAnywhereInALargeTensor) {
  std::vector<float> x(kLarge, 1.0f);
  x[kLarge - 1] = std::numeric_limits<float>::quiet_NaN();
  x[7] = -std::numeric_limits<float>::infinity();
  AddInputFromArray<float>(TensorShape({kLarge}), x);
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("in layer 3 : Tensor had Inf and NaN values"));
}

TEST_F(CheckNumericsOpTest, ForwardsFiniteInput) {
  const Tensor x = MakeTensor<float>(TensorShape({kLarge}), std::vector<float>(kLarge, 2.0f));
  AddInput(x);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_TRUE(GetOutput(0)->SharesBufferWith(x));
}

}  // namespace
}  // namespace test
}  // namespace sluice
