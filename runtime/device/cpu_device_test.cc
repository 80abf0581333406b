#include "runtime/device/cpu_device.h"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "runtime/device/core_budget.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/device_mgr.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {
namespace {

constexpr char kPrefix[] = "/job:localhost/replica:0/task:0";

// A device type of this test only, with a higher priority than CPU: AddDevices must still
// put the CPU devices first.
class FakeAcceleratorFactory : public DeviceFactory {
 public:
  absl::Status CreateDevices(const SessionOptions& options, const std::string& name_prefix,
                             std::vector<std::unique_ptr<Device>>* devices) override {
    int count = 0;
    RETURN_IF_ERROR(DeviceCount(options, "FAKEACC", /*default_count=*/0, &count));
    for (int i = 0; i < count; ++i) {
      devices->push_back(std::make_unique<Device>(
          Device::BuildDeviceAttributes(absl::StrCat(name_prefix, "/device:FAKEACC:", i), "FAKEACC",
                                        0, DeviceLocality(), ""),
          DefaultCpuAllocator()));
    }
    return absl::OkStatus();
  }
};
const DeviceFactoryRegistrar<FakeAcceleratorFactory> fake_registrar("FAKEACC", 300);

SessionOptions Options(int cpus, int intra_op_threads) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = cpus;
  options.config.set_intra_op_parallelism_threads(intra_op_threads);
  return options;
}

std::vector<std::unique_ptr<Device>> AddDevicesOrDie(const SessionOptions& options) {
  std::vector<std::unique_ptr<Device>> devices;
  absl::Status status = DeviceFactory::AddDevices(options, kPrefix, &devices);
  EXPECT_TRUE(status.ok()) << status;
  return devices;
}

TEST(DeviceFactoryTest, TypesByPriority) {
  std::vector<std::string> types = DeviceFactory::DeviceTypes();
  ASSERT_GE(types.size(), 2u);
  EXPECT_EQ(types[0], "FAKEACC");
  EXPECT_NE(std::find(types.begin(), types.end(), "CPU"), types.end());
  EXPECT_NE(DeviceFactory::GetFactory("CPU"), nullptr);
  EXPECT_EQ(DeviceFactory::GetFactory("NOPE"), nullptr);
}

TEST(DeviceFactoryTest, TwoCpuDevices) {
  SessionOptions options = Options(2, 2);
  (*options.config.mutable_device_count())["FAKEACC"] = 1;
  std::vector<std::unique_ptr<Device>> devices = AddDevicesOrDie(options);
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[0]->name(), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(devices[1]->name(), "/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_EQ(devices[2]->name(), "/job:localhost/replica:0/task:0/device:FAKEACC:0");
  EXPECT_NE(devices[0]->incarnation(), 0u);
  EXPECT_NE(devices[0]->incarnation(), devices[1]->incarnation());
  EXPECT_EQ(devices[0]->attributes().device_type(), "CPU");
  EXPECT_EQ(devices[0]->attributes().memory_limit(), 268435456);

  DeviceMgr mgr(std::move(devices));
  EXPECT_EQ(mgr.HostCPU()->name(), "/job:localhost/replica:0/task:0/device:CPU:0");
  Device* device = nullptr;
  ASSERT_TRUE(mgr.LookupDevice("/cpu:1", &device).ok());
  EXPECT_EQ(device->name(), "/job:localhost/replica:0/task:0/device:CPU:1");
}

TEST(DeviceFactoryTest, DefaultsToOneCpuAndZeroMeansNone) {
  EXPECT_EQ(AddDevicesOrDie(SessionOptions()).size(), 1u);
  EXPECT_TRUE(AddDevicesOrDie(Options(0, 1)).empty());
}

TEST(DeviceFactoryTest, InvalidOptions) {
  std::vector<std::unique_ptr<Device>> devices;
  absl::Status status = DeviceFactory::AddDevices(Options(-1, 1), kPrefix, &devices);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Invalid device_count for CPU: -1 (must be at least 0)");

  status = DeviceFactory::AddDevices(Options(1, -2), kPrefix, &devices);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(devices.empty());

  status = DeviceFactory::AddDevices(Options(1, 1), "/bogus:prefix", &devices);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Invalid device name prefix: '/bogus:prefix'");
}

TEST(CpuDeviceTest, AllocatorStatsArePerDevice) {
  std::vector<std::unique_ptr<Device>> devices = AddDevicesOrDie(Options(2, 1));
  auto* cpu0 = static_cast<CpuDevice*>(devices[0].get());
  auto* cpu1 = static_cast<CpuDevice*>(devices[1].get());
  EXPECT_NE(cpu0->GetAllocator(), cpu1->GetAllocator());
  EXPECT_NE(cpu0->GetAllocator(), DefaultCpuAllocator());
  EXPECT_EQ(cpu0->GetHostAllocator(), cpu0->GetAllocator());
  {
    Tensor tensor(cpu0->GetAllocator(), DT_FLOAT, TensorShape({1000}));
    EXPECT_EQ(cpu0->GetAllocatorStats().bytes_in_use, 4000);
    EXPECT_EQ(cpu1->GetAllocatorStats().bytes_in_use, 0);
  }
  EXPECT_EQ(cpu0->GetAllocatorStats().bytes_in_use, 0);
  EXPECT_EQ(cpu0->GetAllocatorStats().peak_bytes_in_use, 4000);
  EXPECT_EQ(cpu0->GetAllocatorStats().num_allocs, 1);
}

TEST(CpuDeviceTest, ThreadPoolSizeFromOptions) {
  std::vector<std::unique_ptr<Device>> devices = AddDevicesOrDie(Options(2, 3));
  auto* cpu0 = static_cast<CpuDevice*>(devices[0].get());
  auto* cpu1 = static_cast<CpuDevice*>(devices[1].get());
  EXPECT_EQ(cpu0->intra_op_parallelism_threads(), 3);
  EXPECT_EQ(cpu0->intra_op_thread_pool()->NumThreads(), 3);
  ASSERT_NE(cpu0->eigen_cpu_device(), nullptr);
  EXPECT_EQ(cpu0->eigen_cpu_device()->numThreads(), 3);
  // Devices asking for the same size share the pool.
  EXPECT_EQ(cpu0->intra_op_thread_pool(), cpu1->intra_op_thread_pool());

  std::vector<std::unique_ptr<Device>> other = AddDevicesOrDie(Options(1, 2));
  EXPECT_EQ(static_cast<CpuDevice*>(other[0].get())->intra_op_thread_pool()->NumThreads(), 2);
}

TEST(CpuDeviceTest, SpinningAndSleepingPoolsAreNotShared) {
  std::vector<std::unique_ptr<Device>> spinning = AddDevicesOrDie(Options(1, 3));
  SessionOptions options = Options(1, 3);
  options.config.mutable_experimental()->set_disable_thread_spinning(true);
  EXPECT_FALSE(ThreadSpinningFromOptions(options));
  EXPECT_TRUE(ThreadSpinningFromOptions(Options(1, 3)));
  std::vector<std::unique_ptr<Device>> sleeping = AddDevicesOrDie(options);
  auto* a = static_cast<CpuDevice*>(spinning[0].get());
  auto* b = static_cast<CpuDevice*>(sleeping[0].get());
  EXPECT_NE(a->intra_op_thread_pool(), b->intra_op_thread_pool());
  EXPECT_EQ(b->intra_op_thread_pool()->NumThreads(), 3);
}

TEST(CpuDeviceTest, EigenDeviceRunsParallelWork) {
  std::vector<std::unique_ptr<Device>> devices = AddDevicesOrDie(Options(1, 2));
  Eigen::Tensor<float, 1> a(1024);
  a.setConstant(2.0f);
  Eigen::Tensor<float, 1> b(1024);
  b.device(*devices[0]->eigen_cpu_device()) = a * a;
  EXPECT_EQ(b(1023), 4.0f);
}

// Records the OpenMP thread count and the intra-op team its Compute sees.
REGISTER_OP("CpuDeviceTestOmpProbe").Output("threads: int32").Output("team: int32");
class OmpProbeOp : public OpKernel {
 public:
  explicit OmpProbeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    out->flat<int32_t>()(0) = omp_get_max_threads();
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &out));
    out->flat<int32_t>()(0) = ctx->intra_op_threads();
  }
};
REGISTER_KERNEL_BUILDER(Name("CpuDeviceTestOmpProbe").Device(DEVICE_CPU), OmpProbeOp);

// The probe's (OpenMP threads, team) when run through `device`.
std::pair<int, int> Probe(Device* device) {
  NodeDef def;
  def.set_name("probe");
  def.set_op("CpuDeviceTestOmpProbe");
  std::unique_ptr<OpKernel> kernel;
  EXPECT_TRUE(CreateOpKernel(DEVICE_CPU, device, device->GetAllocator(), def, &kernel).ok());
  OpKernelContext::Params params;
  params.op_kernel = kernel.get();
  params.device = device;
  OpKernelContext ctx(&params);
  device->Compute(kernel.get(), &ctx);
  EXPECT_TRUE(ctx.status().ok()) << ctx.status();
  return {ctx.mutable_output(0)->flat<int32_t>()(0), ctx.mutable_output(1)->flat<int32_t>()(0)};
}

TEST(CpuDeviceTest, ComputeSetsOpenMpThreadsToTheTeam) {
  CoreBudget& budget = CoreBudget::Get();
  for (int threads : {3, 1}) {
    std::vector<std::unique_ptr<Device>> devices = AddDevicesOrDie(Options(1, threads));
    budget.set_busy_elsewhere(0);
    // As many as the device has, as long as the machine has the cores.
    const int team = std::min(threads, budget.usable_cores());
    EXPECT_EQ(Probe(devices[0].get()), std::make_pair(team, team));
    // Another process keeps all cores but one busy: a team of one, whatever the device has.
    budget.set_busy_elsewhere(budget.usable_cores() - 1);
    EXPECT_EQ(Probe(devices[0].get()), std::make_pair(1, 1));
    budget.set_busy_elsewhere(0);
  }
}

TEST(CpuDeviceTest, DefaultThreadsAreTheUsableCores) {
  std::vector<std::unique_ptr<Device>> devices = AddDevicesOrDie(Options(1, 0));
  EXPECT_EQ(static_cast<CpuDevice*>(devices[0].get())->intra_op_parallelism_threads(),
            CoreBudget::Get().usable_cores());
}

}  // namespace
}  // namespace sluice
