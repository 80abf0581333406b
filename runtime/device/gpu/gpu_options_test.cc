#include "runtime/device/gpu/gpu_options.h"

#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGiB = int64_t{1} << 30;

TEST(ParseVisibleDeviceListTest, EmptyMeansEveryDeviceInOrder) {
  std::vector<int> ordinals;
  ASSERT_TRUE(ParseVisibleDeviceList("", 3, &ordinals).ok());
  EXPECT_EQ(ordinals, (std::vector<int>{0, 1, 2}));
  ASSERT_TRUE(ParseVisibleDeviceList("", 0, &ordinals).ok());
  EXPECT_TRUE(ordinals.empty());
}

TEST(ParseVisibleDeviceListTest, KeepsTheListedOrder) {
  std::vector<int> ordinals;
  ASSERT_TRUE(ParseVisibleDeviceList("2,0", 4, &ordinals).ok());
  EXPECT_EQ(ordinals, (std::vector<int>{2, 0}));
}

TEST(ParseVisibleDeviceListTest, TensorFlowErrors) {
  std::vector<int> ordinals;
  absl::Status status = ParseVisibleDeviceList("0,x", 2, &ordinals);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "Could not parse entry in 'visible_device_list': 'x'. visible_device_list = 0,x");
  status = ParseVisibleDeviceList("1", 1, &ordinals);
  EXPECT_EQ(status.message(),
            "'visible_device_list' listed an invalid Device id '1' but visible device count is 1");
  status = ParseVisibleDeviceList("0,0", 2, &ordinals);
  EXPECT_EQ(status.message(), "visible_device_list contained a duplicate entry: 0,0");
  EXPECT_EQ(ParseVisibleDeviceList("-1", 2, &ordinals).code(), absl::StatusCode::kInvalidArgument);
}

TEST(GpuMemoryLimitTest, FractionOfTotalCappedAtFree) {
  GPUOptions options;
  options.set_per_process_gpu_memory_fraction(0.5);
  int64_t limit = 0;
  ASSERT_TRUE(GpuMemoryLimit(options, 80 * kGiB, 79 * kGiB, &limit).ok());
  EXPECT_EQ(limit, 40 * kGiB);
  options.set_per_process_gpu_memory_fraction(2.0);
  ASSERT_TRUE(GpuMemoryLimit(options, 80 * kGiB, 79 * kGiB, &limit).ok());
  EXPECT_EQ(limit, 79 * kGiB);
  options.set_per_process_gpu_memory_fraction(-0.1);
  EXPECT_EQ(GpuMemoryLimit(options, 80 * kGiB, 79 * kGiB, &limit).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GpuMemoryLimitTest, DefaultLeavesTensorFlowsReserve) {
  GPUOptions options;
  int64_t limit = 0;
  ASSERT_TRUE(GpuMemoryLimit(options, 80 * kGiB, 40 * kGiB, &limit).ok());
  EXPECT_EQ(limit, 40 * kGiB - 2 * kGiB);  // 5% of 40 GiB is above 300 MiB
  ASSERT_TRUE(GpuMemoryLimit(options, 8 * kGiB, 4 * kGiB, &limit).ok());
  EXPECT_EQ(limit, 4 * kGiB - 300 * kMiB);
  ASSERT_TRUE(GpuMemoryLimit(options, 2 * kGiB, 1 * kGiB, &limit).ok());
  EXPECT_EQ(limit, 1 * kGiB - 225 * kMiB);
  ASSERT_TRUE(GpuMemoryLimit(options, 2 * kGiB, 100 * kMiB, &limit).ok());
  EXPECT_EQ(limit, 0);
}

TEST(AllowGrowthTest, EnvironmentOverridesTheOption) {
  GPUOptions options;
  EXPECT_FALSE(AllowGrowth(options, nullptr));
  EXPECT_TRUE(AllowGrowth(options, "true"));
  options.set_allow_growth(true);
  EXPECT_TRUE(AllowGrowth(options, nullptr));
  EXPECT_FALSE(AllowGrowth(options, "false"));
  EXPECT_TRUE(AllowGrowth(options, "yes"));  // ignored
}

}  // namespace
}  // namespace sluice
