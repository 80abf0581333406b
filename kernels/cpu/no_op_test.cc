#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class NoOpTest : public KernelTest {};

TEST_F(NoOpTest, RunsAndProducesNothing) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "NoOp").ControlInput("x").Build()).ok());
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(kernel()->num_outputs(), 0);
  EXPECT_FALSE(kernel()->IsExpensive());
}

}  // namespace
}  // namespace test
}  // namespace sluice
