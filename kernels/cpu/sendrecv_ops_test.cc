#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"
#include "proto/node_def.pb.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/local_rendezvous.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class SendRecvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    (*options.config.mutable_device_count())["CPU"] = 2;
    options.config.set_intra_op_parallelism_threads(1);
    ASSERT_TRUE(
        DeviceFactory::AddDevices(options, "/job:localhost/replica:0/task:0", &devices_).ok());
    ASSERT_GE(devices_.size(), 2u);
    src_ = devices_[0].get();
    dst_ = devices_[1].get();
  }

  NodeDef Def(const std::string& op, DataType dtype, const std::string& tensor_name = "edge_1_a",
              const std::string& send_device = "") {
    NodeDef def;
    def.set_name(op + "_node");
    def.set_op(op);
    const bool is_send = op == "_Send" || op == "_HostSend";
    if (is_send) def.add_input("x");
    AddNodeAttr(is_send ? "T" : "tensor_type", dtype, &def);
    AddNodeAttr("tensor_name", tensor_name, &def);
    AddNodeAttr("send_device", send_device.empty() ? src_->name() : send_device, &def);
    AddNodeAttr("send_device_incarnation", static_cast<int64_t>(src_->incarnation()), &def);
    AddNodeAttr("recv_device", dst_->name(), &def);
    AddNodeAttr("client_terminated", false, &def);
    def.set_device(is_send ? src_->name() : dst_->name());
    return def;
  }

  std::unique_ptr<OpKernel> Kernel(const NodeDef& def) {
    Device* device = def.device() == src_->name() ? src_ : dst_;
    std::unique_ptr<OpKernel> kernel;
    absl::Status status = CreateOpKernel(DEVICE_CPU, device, device->GetAllocator(), def, &kernel);
    EXPECT_TRUE(status.ok()) << status;
    return kernel;
  }

  // Runs a send kernel with `value` and returns its status.
  absl::Status RunSend(OpKernel* kernel, const Tensor& value, Rendezvous* rendezvous,
                       const std::string& frame_iter = "0:0") {
    Tensor input = value;
    TensorValue inputs[] = {TensorValue(&input)};
    OpKernelContext::Params params;
    params.op_kernel = kernel;
    params.device = src_;
    params.inputs = inputs;
    params.rendezvous = rendezvous;
    params.frame_iter = frame_iter;
    OpKernelContext ctx(&params);
    src_->Compute(kernel, &ctx);
    return ctx.status();
  }

  // A receive in flight: its context lives until the test reads it.
  struct PendingRecv {
    OpKernelContext::Params params;
    std::unique_ptr<OpKernelContext> ctx;
    absl::Notification done;
  };

  std::unique_ptr<PendingRecv> StartRecv(OpKernel* kernel, Rendezvous* rendezvous,
                                         CancellationManager* cm = nullptr,
                                         const std::string& frame_iter = "0:0") {
    auto pending = std::make_unique<PendingRecv>();
    pending->params.op_kernel = kernel;
    pending->params.device = dst_;
    pending->params.rendezvous = rendezvous;
    pending->params.cancellation_manager = cm;
    pending->params.frame_iter = frame_iter;
    pending->ctx = std::make_unique<OpKernelContext>(&pending->params);
    PendingRecv* raw = pending.get();
    dst_->ComputeAsync(kernel->AsAsync(), pending->ctx.get(), [raw] { raw->done.Notify(); });
    return pending;
  }

  std::vector<std::unique_ptr<Device>> devices_;
  Device* src_ = nullptr;
  Device* dst_ = nullptr;
};

TEST_F(SendRecvTest, SendThenRecv) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_FLOAT));
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_FLOAT));
  EXPECT_FALSE(send->IsExpensive());
  EXPECT_FALSE(recv->IsExpensive());
  ASSERT_NE(recv->AsAsync(), nullptr);
  LocalRendezvous rendezvous;
  Tensor value(DT_FLOAT, TensorShape({2}));
  value.flat<float>()(0) = 1.0f;
  value.flat<float>()(1) = 2.0f;
  ASSERT_TRUE(RunSend(send.get(), value, &rendezvous).ok());
  auto pending = StartRecv(recv.get(), &rendezvous);
  ASSERT_TRUE(pending->done.HasBeenNotified());
  ASSERT_TRUE(pending->ctx->status().ok()) << pending->ctx->status();
  Tensor* out = pending->ctx->mutable_output(0);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->flat<float>()(1), 2.0f);
  EXPECT_TRUE(out->SharesBufferWith(value));
}

TEST_F(SendRecvTest, RecvThenSendStrings) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_STRING));
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_STRING));
  LocalRendezvous rendezvous;
  auto pending = StartRecv(recv.get(), &rendezvous);
  EXPECT_FALSE(pending->done.HasBeenNotified());
  std::thread sender(
      [&] { ASSERT_TRUE(RunSend(send.get(), Tensor(std::string("hello")), &rendezvous).ok()); });
  ASSERT_TRUE(pending->done.WaitForNotificationWithTimeout(absl::Seconds(10)));
  sender.join();
  ASSERT_TRUE(pending->ctx->status().ok());
  EXPECT_EQ(pending->ctx->mutable_output(0)->flat<std::string>()(0), "hello");
}

TEST_F(SendRecvTest, HostVariants) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_HostSend", DT_INT32));
  std::unique_ptr<OpKernel> recv = Kernel(Def("_HostRecv", DT_INT32));
  EXPECT_EQ(send->input_memory_types()[0], HOST_MEMORY);
  EXPECT_EQ(recv->output_memory_types()[0], HOST_MEMORY);
  LocalRendezvous rendezvous;
  ASSERT_TRUE(RunSend(send.get(), Tensor(int32_t{42}), &rendezvous).ok());
  auto pending = StartRecv(recv.get(), &rendezvous);
  ASSERT_TRUE(pending->done.HasBeenNotified());
  EXPECT_EQ(pending->ctx->mutable_output(0)->flat<int32_t>()(0), 42);
}

TEST_F(SendRecvTest, KeyComesFromTheAttrs) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_FLOAT, "edge_7_x"));
  LocalRendezvous rendezvous;
  ASSERT_TRUE(RunSend(send.get(), Tensor(5.0f), &rendezvous).ok());
  Rendezvous::ParsedKey key;
  ASSERT_TRUE(Rendezvous::ParseKey(Rendezvous::CreateKey(src_->name(), src_->incarnation(),
                                                         dst_->name(), "edge_7_x", "0:0"),
                                   &key)
                  .ok());
  Tensor value;
  bool is_dead = true;
  ASSERT_TRUE(rendezvous.Recv(key, &value, &is_dead, 1000).ok());
  EXPECT_FALSE(is_dead);
  EXPECT_EQ(value.flat<float>()(0), 5.0f);
}

TEST_F(SendRecvTest, FramesHaveTheirOwnKeys) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_FLOAT));
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_FLOAT));
  LocalRendezvous rendezvous;
  ASSERT_TRUE(RunSend(send.get(), Tensor(1.0f), &rendezvous, "4:2").ok());
  auto top_level = StartRecv(recv.get(), &rendezvous);
  EXPECT_FALSE(top_level->done.HasBeenNotified());
  auto in_frame = StartRecv(recv.get(), &rendezvous, nullptr, "4:2");
  ASSERT_TRUE(in_frame->done.HasBeenNotified());
  EXPECT_EQ(in_frame->ctx->mutable_output(0)->flat<float>()(0), 1.0f);
  rendezvous.StartAbort(absl::CancelledError("done"));
  EXPECT_TRUE(top_level->done.HasBeenNotified());
}

TEST_F(SendRecvTest, AbortWakesPendingRecv) {
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_FLOAT));
  LocalRendezvous rendezvous;
  CancellationManager cm;
  auto pending = StartRecv(recv.get(), &rendezvous, &cm);
  EXPECT_FALSE(pending->done.HasBeenNotified());
  std::thread aborter([&] { rendezvous.StartAbort(absl::AbortedError("step failed")); });
  ASSERT_TRUE(pending->done.WaitForNotificationWithTimeout(absl::Seconds(10)));
  aborter.join();
  EXPECT_EQ(pending->ctx->status(), absl::AbortedError("step failed"));
  EXPECT_EQ(pending->ctx->mutable_output(0), nullptr);
  // The kernel deregistered: cancelling now runs nothing that touches the finished recv.
  cm.StartCancel();
}

TEST_F(SendRecvTest, CancellationFailsPendingRecv) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_FLOAT));
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_FLOAT));
  LocalRendezvous rendezvous;
  CancellationManager cm;
  auto pending = StartRecv(recv.get(), &rendezvous, &cm);
  EXPECT_FALSE(pending->done.HasBeenNotified());
  std::thread canceller([&] { cm.StartCancel(); });
  ASSERT_TRUE(pending->done.WaitForNotificationWithTimeout(absl::Seconds(10)));
  canceller.join();
  EXPECT_EQ(pending->ctx->status(), absl::CancelledError("RecvAsync is cancelled."));
  // A value arriving afterwards is dropped without touching the finished kernel.
  pending.reset();
  EXPECT_TRUE(RunSend(send.get(), Tensor(1.0f), &rendezvous).ok());
}

TEST_F(SendRecvTest, AlreadyCancelledStepFailsAtOnce) {
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_FLOAT));
  LocalRendezvous rendezvous;
  CancellationManager cm;
  cm.StartCancel();
  auto pending = StartRecv(recv.get(), &rendezvous, &cm);
  ASSERT_TRUE(pending->done.HasBeenNotified());
  EXPECT_EQ(pending->ctx->status(), absl::CancelledError("RecvAsync is cancelled."));
}

TEST_F(SendRecvTest, MissingRendezvousIsInternal) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_FLOAT));
  std::unique_ptr<OpKernel> recv = Kernel(Def("_Recv", DT_FLOAT));
  const absl::Status expected =
      absl::InternalError("Op kernel context needs to provide a rendezvous.");
  EXPECT_EQ(RunSend(send.get(), Tensor(1.0f), nullptr), expected);
  auto pending = StartRecv(recv.get(), nullptr);
  ASSERT_TRUE(pending->done.HasBeenNotified());
  EXPECT_EQ(pending->ctx->status(), expected);
}

TEST_F(SendRecvTest, SendAfterAbortFails) {
  std::unique_ptr<OpKernel> send = Kernel(Def("_Send", DT_FLOAT));
  LocalRendezvous rendezvous;
  rendezvous.StartAbort(absl::CancelledError("gone"));
  EXPECT_EQ(RunSend(send.get(), Tensor(1.0f), &rendezvous), absl::CancelledError("gone"));
}

TEST_F(SendRecvTest, BadKeyAttrsFailConstruction) {
  for (const char* op : {"_Send", "_Recv"}) {
    NodeDef def = Def(op, DT_FLOAT, "edge", "not a device");
    def.set_device(std::string(op) == "_Send" ? src_->name() : dst_->name());
    std::unique_ptr<OpKernel> kernel;
    absl::Status status = CreateOpKernel(DEVICE_CPU, src_, src_->GetAllocator(), def, &kernel);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_NE(status.message().find("Invalid rendezvous key: not a device;"),
              absl::string_view::npos)
        << status;
    EXPECT_EQ(kernel, nullptr);

    NodeDef empty_name = Def(op, DT_FLOAT, "");
    status = CreateOpKernel(DEVICE_CPU, src_, src_->GetAllocator(), empty_name, &kernel);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << op;
  }
}

}  // namespace
}  // namespace sluice
