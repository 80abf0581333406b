// Unit tests for what the TensorFlow fixture (tests/kernels/fixtures/scatter.pbtxt) cannot
// show: that a shared input is copied, and shapes on which TensorFlow's kernel aborts.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class ScatterNdOpTest : public KernelTest {
 protected:
  void InitTensorScatter(const char* op) {
    absl::Status s = InitOp(NodeDefBuilder("s", op)
                                .Input("t")
                                .Input("i")
                                .Input("u")
                                .Attr("T", DT_FLOAT)
                                .Attr("Tindices", DT_INT32)
                                .Build());
    ASSERT_TRUE(s.ok()) << s;
  }
};

// A tensor someone else holds is copied, never written.
TEST_F(ScatterNdOpTest, TensorScatterAddLeavesASharedTensorAlone) {
  InitTensorScatter("TensorScatterAdd");
  Tensor t = MakeTensor<float>(TensorShape({4}), {1, 2, 3, 4});
  AddInput(t);
  AddInputFromArray<int32_t>(TensorShape({2, 1}), {3, 3});
  AddInputFromArray<float>(TensorShape({2}), {10, 20});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_FALSE(GetOutput(0)->SharesBufferWith(t));
  EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{1, 2, 3, 34}));
  EXPECT_EQ(Values<float>(t), (std::vector<float>{1, 2, 3, 4}));
}

// TensorFlow's kernel aborts the process when updates has fewer dims than indices' outer
// dims; Sluice refuses the shapes.
TEST_F(ScatterNdOpTest, UpdatesOfTooLowRankAreRefused) {
  InitTensorScatter("TensorScatterUpdate");
  AddInputFromArray<float>(TensorShape({4}), {0, 0, 0, 0});
  AddInputFromArray<int32_t>(TensorShape({2, 2, 1}), {0, 1, 2, 3});
  AddInputFromArray<float>(TensorShape({2}), {1, 2});
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace test
}  // namespace sluice
