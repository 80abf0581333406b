// ExtractImagePatches with windows whose patch depth (ksize_rows * ksize_cols * depth)
// overflows int64: INVALID_ARGUMENT, never a wrapped shape.
#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ExtractImagePatchesTest : public KernelTest {};

TEST_F(ExtractImagePatchesTest, PatchDepthOverflowIsInvalidArgument) {
  const int32_t big = 1 << 30;
  ASSERT_TRUE(InitOp(NodeDefBuilder("p", "ExtractImagePatches")
                         .Input("images")
                         .Attr("T", DT_FLOAT)
                         .Attr("ksizes", std::vector<int32_t>{1, big, big, 1})
                         .Attr("strides", std::vector<int32_t>{1, 1, 1, 1})
                         .Attr("rates", std::vector<int32_t>{1, 1, 1, 1})
                         .Attr("padding", "SAME")
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({1, 1, 1, 16}), std::vector<float>(16, 1.0f));
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
}

}  // namespace
}  // namespace test
}  // namespace sluice
