#include "runtime/device/retaining_allocator.h"

#include <memory>

#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(RetainingAllocatorTest, ForwardsAndCounts) {
  std::unique_ptr<RetainingAllocator, RetainingAllocator::Releaser> allocator(
      new RetainingAllocator(std::make_unique<CpuAllocator>()));
  void* p = allocator->AllocateRaw(64, 100);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 100);
  EXPECT_EQ(allocator->Name(), "cpu");
  allocator->DeallocateRaw(p);
  EXPECT_EQ(allocator->GetStats().bytes_in_use, 0);
  allocator->DeallocateRaw(nullptr);  // ignored, does not drop the owner's reference
  EXPECT_EQ(allocator->GetStats().num_allocs, 1);
}

// The case it exists for (run under ASan): a tensor outlives the allocator's owner.
TEST(RetainingAllocatorTest, BuffersOutliveTheOwner) {
  Tensor survivor;
  {
    std::unique_ptr<RetainingAllocator, RetainingAllocator::Releaser> allocator(
        new RetainingAllocator(std::make_unique<CpuAllocator>()));
    survivor = Tensor(allocator.get(), DT_FLOAT, TensorShape({4}));
    survivor.flat<float>()(3) = 7;
  }
  EXPECT_EQ(survivor.flat<float>()(3), 7);
  survivor = Tensor();  // the last buffer: frees it and then the allocator
}

TEST(RetainingAllocatorTest, FailedAllocationsTakeNoReference) {
  std::unique_ptr<RetainingAllocator, RetainingAllocator::Releaser> allocator(
      new RetainingAllocator(std::make_unique<CpuAllocator>(/*max_allocation_bytes=*/16)));
  EXPECT_EQ(allocator->AllocateRaw(64, 1 << 20), nullptr);
}

}  // namespace
}  // namespace sluice
