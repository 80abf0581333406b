#include "runtime/device/device_mgr.h"

#include <memory>
#include <set>
#include <vector>

#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "proto/tensor.pb.h"
#include "runtime/device/device.h"

namespace sluice {
namespace {

std::unique_ptr<Device> MakeDevice(const std::string& name, const std::string& type) {
  return std::make_unique<Device>(
      Device::BuildDeviceAttributes(name, type, 1 << 20, DeviceLocality(), "test device"),
      DefaultCpuAllocator());
}

std::unique_ptr<DeviceMgr> MakeMgr() {
  std::vector<std::unique_ptr<Device>> devices;
  devices.push_back(MakeDevice("/job:localhost/replica:0/task:0/device:GPU:0", "GPU"));
  devices.push_back(MakeDevice("/job:localhost/replica:0/task:0/device:CPU:0", "CPU"));
  devices.push_back(MakeDevice("/job:localhost/replica:0/task:0/device:CPU:1", "CPU"));
  return std::make_unique<DeviceMgr>(std::move(devices));
}

TEST(DeviceTest, Attributes) {
  std::unique_ptr<Device> device =
      MakeDevice("/job:localhost/replica:0/task:0/device:CPU:3", "CPU");
  EXPECT_EQ(device->name(), "/job:localhost/replica:0/task:0/device:CPU:3");
  EXPECT_EQ(device->device_type(), DeviceType(DEVICE_CPU));
  EXPECT_EQ(device->attributes().memory_limit(), 1 << 20);
  EXPECT_EQ(device->attributes().physical_device_desc(), "test device");
  EXPECT_NE(device->incarnation(), 0u);
  EXPECT_EQ(device->parsed_name().type, "CPU");
  EXPECT_EQ(device->parsed_name().id, 3);
  EXPECT_EQ(device->GetAllocator(), DefaultCpuAllocator());
  EXPECT_TRUE(device->Sync().ok());
}

TEST(DeviceTest, IncarnationsAreDistinct) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t incarnation = Device::NewIncarnation();
    EXPECT_NE(incarnation, 0u);
    seen.insert(incarnation);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(DeviceTest, MakeTensorFromProto) {
  std::unique_ptr<Device> device =
      MakeDevice("/job:localhost/replica:0/task:0/device:CPU:0", "CPU");
  TensorProto proto;
  proto.set_dtype(DT_FLOAT);
  proto.mutable_tensor_shape()->add_dim()->set_size(2);
  proto.add_float_val(1.5f);
  Tensor tensor;
  ASSERT_TRUE(device->MakeTensorFromProto(proto, &tensor).ok());
  ASSERT_EQ(tensor.NumElements(), 2);
  EXPECT_EQ(tensor.flat<float>()(1), 1.5f);  // padded with the last value

  proto.add_float_val(2.0f);
  proto.add_float_val(3.0f);
  EXPECT_EQ(device->MakeTensorFromProto(proto, &tensor).code(), absl::StatusCode::kInvalidArgument);
}

TEST(DeviceMgrTest, ListsDevicesInOrder) {
  std::unique_ptr<DeviceMgr> mgr = MakeMgr();
  std::vector<Device*> devices = mgr->ListDevices();
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(mgr->NumDevices(), 3);
  EXPECT_EQ(devices[0]->name(), "/job:localhost/replica:0/task:0/device:GPU:0");
  std::vector<DeviceAttributes> attributes;
  mgr->ListDeviceAttributes(&attributes);
  ASSERT_EQ(attributes.size(), 3u);
  EXPECT_EQ(attributes[2].name(), "/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_EQ(attributes[2].incarnation(), devices[2]->incarnation());
  EXPECT_EQ(mgr->DebugString(),
            "/job:localhost/replica:0/task:0/device:GPU:0 (GPU)\n"
            "/job:localhost/replica:0/task:0/device:CPU:0 (CPU)\n"
            "/job:localhost/replica:0/task:0/device:CPU:1 (CPU)\n");
}

TEST(DeviceMgrTest, HostCpuIsTheFirstCpu) {
  std::unique_ptr<DeviceMgr> mgr = MakeMgr();
  ASSERT_NE(mgr->HostCPU(), nullptr);
  EXPECT_EQ(mgr->HostCPU()->name(), "/job:localhost/replica:0/task:0/device:CPU:0");

  std::vector<std::unique_ptr<Device>> gpus;
  gpus.push_back(MakeDevice("/job:localhost/replica:0/task:0/device:GPU:0", "GPU"));
  DeviceMgr no_cpu(std::move(gpus));
  EXPECT_EQ(no_cpu.HostCPU(), nullptr);
}

TEST(DeviceMgrTest, LookupByEveryNameForm) {
  std::unique_ptr<DeviceMgr> mgr = MakeMgr();
  for (const char* name :
       {"/job:localhost/replica:0/task:0/device:CPU:1", "CPU:1", "/device:CPU:1", "/cpu:1", "cpu:1",
        "/job:localhost/replica:0/task:0/cpu:1", "/job:localhost/replica:0/task:0/CPU:1"}) {
    Device* device = nullptr;
    ASSERT_TRUE(mgr->LookupDevice(name, &device).ok()) << name;
    EXPECT_EQ(device->name(), "/job:localhost/replica:0/task:0/device:CPU:1") << name;
  }
  Device* gpu = nullptr;
  ASSERT_TRUE(mgr->LookupDevice("/gpu:0", &gpu).ok());
  EXPECT_EQ(gpu->device_type(), DeviceType(DEVICE_GPU));
}

TEST(DeviceMgrTest, UnknownDeviceIsNotFound) {
  std::unique_ptr<DeviceMgr> mgr = MakeMgr();
  for (const char* name :
       {"CPU:2", "/device:GPU:1", "", "/job:other/replica:0/task:0/cpu:0", "garbage"}) {
    Device* device = nullptr;
    absl::Status status = mgr->LookupDevice(name, &device);
    EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << name;
    EXPECT_EQ(status.message(), std::string(name) + " unknown device.");
    EXPECT_EQ(device, nullptr);
  }
}

}  // namespace
}  // namespace sluice
