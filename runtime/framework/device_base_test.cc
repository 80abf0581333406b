#include "runtime/framework/device_base.h"

#include "graph/core/allocator.h"
#include "gtest/gtest.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

TEST(DeviceTypeTest, ComparesByName) {
  DeviceType cpu = DEVICE_CPU;
  EXPECT_EQ(cpu, DeviceType("CPU"));
  EXPECT_NE(cpu, DeviceType(DEVICE_GPU));
  EXPECT_LT(cpu, DeviceType(DEVICE_GPU));
  EXPECT_EQ(DeviceTypeString(cpu), "CPU");
  EXPECT_STREQ(DeviceType(absl::string_view("GPU")).type(), "GPU");
}

TEST(DeviceBaseTest, Accessors) {
  CpuAllocator allocator;
  DeviceBase device("/job:localhost/replica:0/task:0/device:CPU:0", DEVICE_CPU, &allocator);
  EXPECT_EQ(device.name(), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(device.device_type(), DeviceType(DEVICE_CPU));
  EXPECT_EQ(device.GetAllocator(), &allocator);
  EXPECT_EQ(device.GetHostAllocator(), &allocator);
  EXPECT_EQ(device.eigen_cpu_device(), nullptr);

  Eigen::ThreadPool pool(2);
  Eigen::ThreadPoolDevice eigen_device(&pool, 2);
  device.set_eigen_cpu_device(&eigen_device);
  EXPECT_EQ(device.eigen_cpu_device(), &eigen_device);
  EXPECT_EQ(device.eigen_cpu_device()->numThreads(), 2);
}

}  // namespace
}  // namespace sluice
