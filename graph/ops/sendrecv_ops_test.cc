#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

constexpr char kSendAttrs[] =
    "T=DT_FLOAT, tensor_name='edge_1_a', "
    "send_device='/job:localhost/replica:0/task:0/device:CPU:0', "
    "send_device_incarnation=1, recv_device='/job:localhost/replica:0/task:0/device:CPU:1'";
constexpr char kRecvAttrs[] =
    "tensor_type=DT_FLOAT, tensor_name='edge_1_a', "
    "send_device='/job:localhost/replica:0/task:0/device:CPU:0', send_device_incarnation=1, "
    "recv_device='/job:localhost/replica:0/task:0/device:CPU:1'";

TEST(SendShapeTest, NoOutputs) {
  EXPECT_EQ(Infer("_Send", kSendAttrs, "[2,3]"), "");
  EXPECT_EQ(Infer("_HostSend", kSendAttrs, "?"), "");
}

TEST(RecvShapeTest, UnknownShape) {
  EXPECT_EQ(Infer("_Recv", kRecvAttrs, ""), "?");
  EXPECT_EQ(Infer("_HostRecv", kRecvAttrs, ""), "?");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
