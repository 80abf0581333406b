// The kernel-registry adapters: device types per node for placement, host memory per
// input/output for partitioning.
#include "runtime/session/runtime_device_support.h"

#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "gtest/gtest.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

REGISTER_OP("RdsTestOp")
    .Input("a: float")
    .Input("shape: int32")
    .Output("b: float")
    .Output("c: int32")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("RdsTestGpuOnly").Input("a: float").SetShapeFn(shape_inference::NoOutputs);

class RdsNothingOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("RdsTestOp").Device(DEVICE_CPU).HostMemory("shape").HostMemory("c"),
                        RdsNothingOp);
REGISTER_KERNEL_BUILDER(Name("RdsTestOp").Device(DEVICE_GPU).Priority(1), RdsNothingOp);
REGISTER_KERNEL_BUILDER(Name("RdsTestGpuOnly").Device(DEVICE_GPU), RdsNothingOp);

constexpr char kGraph[] = R"pb(
  node {
    name: "a"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "s"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
  }
  node { name: "op" op: "RdsTestOp" input: "a" input: "s" }
  node { name: "gpu" op: "RdsTestGpuOnly" input: "op" }
)pb";

TEST(RuntimeDeviceSupportTest, SupportedTypesFollowKernelsAndPriority) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(kGraph, &g).ok());
  DeviceSupport support = MakeDeviceSupport({DEVICE_CPU, DEVICE_GPU});
  std::vector<std::string> types;
  ASSERT_TRUE(support.supported_device_types(*g.FindNodeByName("op"), &types).ok());
  // The GPU kernel's higher priority wins over the list's order.
  EXPECT_EQ(types, (std::vector<std::string>{"GPU", "CPU"}));
  ASSERT_TRUE(support.supported_device_types(*g.FindNodeByName("gpu"), &types).ok());
  EXPECT_EQ(types, (std::vector<std::string>{"GPU"}));
  DeviceSupport cpu_only = MakeDeviceSupport({DEVICE_CPU});
  ASSERT_TRUE(cpu_only.supported_device_types(*g.FindNodeByName("gpu"), &types).ok());
  EXPECT_TRUE(types.empty());
}

TEST(RuntimeDeviceSupportTest, KernelExistsByDeviceName) {
  const auto kernel_exists = MakeKernelExists();
  NodeDef gpu_only;
  gpu_only.set_name("g");
  gpu_only.set_op("RdsTestGpuOnly");
  EXPECT_TRUE(kernel_exists(gpu_only, "/job:localhost/replica:0/task:0/device:GPU:0"));
  EXPECT_FALSE(kernel_exists(gpu_only, "/job:localhost/replica:0/task:0/device:CPU:0"));
  EXPECT_FALSE(kernel_exists(gpu_only, "not a device"));
  NodeDef unknown = gpu_only;
  unknown.set_op("RdsNoSuchOp");
  EXPECT_FALSE(kernel_exists(unknown, "/job:localhost/replica:0/task:0/device:GPU:0"));
}

TEST(RuntimeDeviceSupportTest, MemoryTypesOnTheAssignedDevice) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(kGraph, &g).ok());
  Node* op = g.FindNodeByName("op");
  PartitionOptions opts;
  SetMemoryTypeCallbacks(&opts);
  // A node without a (parsable) assigned device is taken to use device memory.
  EXPECT_FALSE(opts.input_in_host_memory(*op, 1));
  Graph g2(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(kGraph, &g2).ok());
  Node* placed = g2.FindNodeByName("op");
  placed->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  PartitionOptions fresh;
  SetMemoryTypeCallbacks(&fresh);
  EXPECT_FALSE(fresh.input_in_host_memory(*placed, 0));
  EXPECT_TRUE(fresh.input_in_host_memory(*placed, 1));
  EXPECT_FALSE(fresh.output_in_host_memory(*placed, 0));
  EXPECT_TRUE(fresh.output_in_host_memory(*placed, 1));
  // Ports out of range are device memory, never a crash.
  EXPECT_FALSE(fresh.output_in_host_memory(*placed, 7));
  EXPECT_FALSE(fresh.input_in_host_memory(*placed, -1));
}

}  // namespace
}  // namespace sluice
