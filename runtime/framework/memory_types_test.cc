#include "runtime/framework/memory_types.h"

#include "gmock/gmock.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class NothingOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};

REGISTER_OP("MemoryTypesTestOp")
    .Input("a: float")
    .Input("b: N * int32")
    .Input("c: string")
    .Output("d: int32")
    .Output("e: resource")
    .Output("f: float")
    .Attr("N: int");
REGISTER_KERNEL_BUILDER(Name("MemoryTypesTestOp").Device(DEVICE_CPU).HostMemory("b"), NothingOp);
REGISTER_KERNEL_BUILDER(Name("MemoryTypesTestOp").Device(DEVICE_GPU).HostMemory("f"), NothingOp);

REGISTER_OP("MemoryTypesTestBadHostArg").Input("x: float");
REGISTER_KERNEL_BUILDER(Name("MemoryTypesTestBadHostArg").Device(DEVICE_CPU).HostMemory("nope"),
                        NothingOp);

NodeDef TestNode() {
  NodeDef node;
  node.set_name("n");
  node.set_op("MemoryTypesTestOp");
  for (const char* input : {"a", "b0", "b1", "c"}) node.add_input(input);
  AddNodeAttr("N", int64_t{2}, &node);
  return node;
}

TEST(MemoryTypesTest, HostMemoryArgsAndHostOnlyDtypes) {
  MemoryTypeVector inputs;
  MemoryTypeVector outputs;
  ASSERT_TRUE(MemoryTypesForNode(DEVICE_CPU, TestNode(), &inputs, &outputs).ok());
  EXPECT_THAT(inputs, ElementsAre(DEVICE_MEMORY, HOST_MEMORY, HOST_MEMORY, HOST_MEMORY));
  // int32 stays in device memory when a kernel exists; resources live on the host.
  EXPECT_THAT(outputs, ElementsAre(DEVICE_MEMORY, HOST_MEMORY, DEVICE_MEMORY));
}

TEST(MemoryTypesTest, OtherDeviceOtherKernel) {
  MemoryTypeVector inputs;
  MemoryTypeVector outputs;
  ASSERT_TRUE(MemoryTypesForNode(DEVICE_GPU, TestNode(), &inputs, &outputs).ok());
  EXPECT_THAT(inputs, ElementsAre(DEVICE_MEMORY, DEVICE_MEMORY, DEVICE_MEMORY, HOST_MEMORY));
  EXPECT_THAT(outputs, ElementsAre(DEVICE_MEMORY, HOST_MEMORY, HOST_MEMORY));
}

TEST(MemoryTypesTest, WithoutKernelInt32IsOnHost) {
  MemoryTypeVector inputs;
  MemoryTypeVector outputs;
  ASSERT_TRUE(MemoryTypesForNode("TPU", TestNode(), &inputs, &outputs).ok());
  EXPECT_THAT(inputs, ElementsAre(DEVICE_MEMORY, HOST_MEMORY, HOST_MEMORY, HOST_MEMORY));
  EXPECT_THAT(outputs, ElementsAre(HOST_MEMORY, HOST_MEMORY, DEVICE_MEMORY));
}

TEST(MemoryTypesTest, UnknownHostMemoryArgIsAnError) {
  NodeDef node;
  node.set_name("bad");
  node.set_op("MemoryTypesTestBadHostArg");
  node.add_input("x");
  MemoryTypeVector inputs;
  MemoryTypeVector outputs;
  absl::Status status = MemoryTypesForNode(DEVICE_CPU, node, &inputs, &outputs);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("HostMemory args 'nope' not found in OpDef: "));
}

TEST(MemoryTypesTest, UnknownOp) {
  NodeDef node;
  node.set_name("x");
  node.set_op("MemoryTypesTestNoSuchOp");
  MemoryTypeVector inputs;
  MemoryTypeVector outputs;
  EXPECT_EQ(MemoryTypesForNode(DEVICE_CPU, node, &inputs, &outputs).code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace sluice
