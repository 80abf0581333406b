#include <string>

#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class PlaceholderOpTest : public KernelTest {
 protected:
  // The error of running an unfed placeholder of `dtype` and `shape`.
  absl::Status RunUnfed(DataType dtype, const PartialTensorShape& shape) {
    EXPECT_TRUE(
        InitOp(NodeDefBuilder("x", "Placeholder").Attr("dtype", dtype).Attr("shape", shape).Build())
            .ok());
    return RunOpKernel();
  }
};

// Texts as TensorFlow 2.21 reports them for tf.compat.v1.placeholder.
TEST_F(PlaceholderOpTest, UnfedIsInvalidArgumentNamingDtypeAndShape) {
  absl::Status s = RunUnfed(DT_FLOAT, PartialTensorShape({-1, 3}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,3]");
  EXPECT_EQ(RunUnfed(DT_INT32, PartialTensorShape({2})).message(),
            "You must feed a value for placeholder tensor 'x' with dtype int32 and shape [2]");
}

TEST_F(PlaceholderOpTest, NoShapeForUnknownRankOrScalar) {
  EXPECT_EQ(RunUnfed(DT_FLOAT, PartialTensorShape()).message(),
            "You must feed a value for placeholder tensor 'x' with dtype float");
  EXPECT_EQ(RunUnfed(DT_FLOAT, PartialTensorShape({})).message(),
            "You must feed a value for placeholder tensor 'x' with dtype float");
}

}  // namespace
}  // namespace test
}  // namespace sluice
