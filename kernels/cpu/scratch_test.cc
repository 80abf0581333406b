#include "kernels/cpu/scratch.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

class ScratchTestOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};

REGISTER_OP("ScratchTestOp");
REGISTER_KERNEL_BUILDER(Name("ScratchTestOp").Device(DEVICE_CPU), ScratchTestOp);

// A kernel's context on a device whose allocator holds at most 1 MiB.
class ScratchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    allocator_ = CpuAllocator::WithBytesLimit(1 << 20);
    device_ = std::make_unique<test::CpuTestDevice>(allocator_.get(), allocator_.get());
    const absl::Status status =
        CreateOpKernel(DEVICE_CPU, device_.get(), allocator_.get(),
                       test::MakeNodeDef("scratchy", "ScratchTestOp"), &kernel_);
    ASSERT_TRUE(status.ok()) << status;
    invocation_ =
        std::make_unique<test::TestInvocation>(kernel_.get(), device_.get(), std::vector<Tensor>{});
  }
  OpKernelContext* ctx() { return invocation_->context(); }
  int64_t InUse() { return allocator_->GetStats().bytes_in_use; }

  std::unique_ptr<CpuAllocator> allocator_;
  std::unique_ptr<test::CpuTestDevice> device_;
  std::unique_ptr<OpKernel> kernel_;
  std::unique_ptr<test::TestInvocation> invocation_;
};

struct Taps {
  int64_t index = -1;
  float weight = 0.5f;
};

TEST_F(ScratchTest, ValueInitialisedAlignedAndCounted) {
  {
    ScratchArray<double> sums;
    ASSERT_TRUE(sums.Allocate(ctx(), 1000).ok());
    ASSERT_EQ(sums.size(), 1000);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(sums.data()) % kAllocatorAlignment, 0u);
    for (double v : sums) EXPECT_EQ(v, 0.0);
    EXPECT_GE(InUse(), 8000);
    ScratchArray<Taps> taps;
    ASSERT_TRUE(taps.Allocate(ctx(), 3).ok());
    EXPECT_EQ(taps[2].index, -1);
    EXPECT_EQ(taps[2].weight, 0.5f);
  }
  EXPECT_EQ(InUse(), 0);  // released with the arrays
}

TEST_F(ScratchTest, EmptyArrayHasNoElements) {
  ScratchArray<int> none;
  ASSERT_TRUE(none.Allocate(ctx(), 0).ok());
  EXPECT_EQ(none.size(), 0);
  EXPECT_EQ(none.begin(), none.end());
}

TEST_F(ScratchTest, PastTheLimitIsResourceExhausted) {
  ScratchArray<float> big;
  const absl::Status status = big.Allocate(ctx(), 1 << 20);  // 4 MiB of a 1 MiB limit
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_EQ(big.size(), 0);
  EXPECT_EQ(InUse(), 0);
}

TEST_F(ScratchTest, OverflowingSizeIsResourceExhaustedNamingTheNode) {
  ScratchArray<double> huge;
  const absl::Status status = huge.Allocate(ctx(), std::numeric_limits<int64_t>::max() / 4);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_THAT(status.message(), HasSubstr("scratchy"));
  EXPECT_THAT(status.message(), HasSubstr("ScratchTestOp"));
}

TEST_F(ScratchTest, ParallelForWithScratchGivesEveryCallItsOwnArray) {
  std::vector<int> seen(100, 0);
  const absl::Status status =
      ParallelForWithScratch<int64_t>(ctx(), 100, 100, Eigen::TensorOpCost(8, 8, 1), 16,
                                      [&](int64_t first, int64_t last, int64_t* scratch) {
                                        for (int i = 0; i < 16; ++i) EXPECT_EQ(scratch[i], 0);
                                        for (int64_t k = first; k < last; ++k) ++seen[k];
                                      });
  ASSERT_TRUE(status.ok()) << status;
  for (int k = 0; k < 100; ++k) EXPECT_EQ(seen[k], 1);
}

TEST_F(ScratchTest, ParallelForWithScratchRefusedRunsNothing) {
  bool ran = false;
  const absl::Status status =
      ParallelForWithScratch<double>(ctx(), 10, 10, Eigen::TensorOpCost(8, 8, 1), int64_t{1} << 40,
                                     [&](int64_t, int64_t, double*) { ran = true; });
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace sluice
