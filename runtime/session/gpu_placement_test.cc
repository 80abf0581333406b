// GPU placement, partitioning and host<->device copies, end to end through DirectSession, on
// machines without a GPU: the fake GPU (fake_gpu_device.h) keeps "device memory" in a
// separate host allocator and counts its copies. Kernels that only forward buffers (Const,
// Identity, Reshape) run on it as on a real GPU; the test graphs use no kernel that would
// launch CUDA work.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "google/protobuf/text_format.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "runtime/device/bfc_allocator.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/node_output_observer.h"
#include "runtime/session/fake_gpu_device.h"
#include "runtime/session/fake_gpu_session.h"
#include "runtime/session/runtime_device_support.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

using fake_gpu::IntConst;
using fake_gpu::IntVector;
using fake_gpu::kCpu;
using fake_gpu::kGpu;
using fake_gpu::LoopNode;
using fake_gpu::MakeSession;
using fake_gpu::ParseGraph;
using fake_gpu::Placement;

// c: float [2,3] Const; id = Identity(c); shape: int32 Const [3,2]; r = Reshape(id, shape).
const char kReshapeGraph[] = R"pb(
  node {
    name: "c"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {
            dim { size: 2 }
            dim { size: 3 }
          }
          float_val: [ 1, 2, 3, 4, 5, 6 ]
        }
      }
    }
  }
  node {
    name: "id"
    op: "Identity"
    input: "c"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "shape"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT32
          tensor_shape { dim { size: 2 } }
          int_val: [ 3, 2 ]
        }
      }
    }
  }
  node {
    name: "r"
    op: "Reshape"
    input: "id"
    input: "shape"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "Tshape"
      value { type: DT_INT32 }
    }
  }
)pb";

// x: a fed float Placeholder (on the host); y = Identity(x) pinned to the GPU.
const char kFedIdentityGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "y"
    op: "Identity"
    input: "x"
    device: "/device:GPU:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

TEST(GpuPlacementTest, SessionListsTheGpuAfterTheCpu) {
  auto session = MakeSession();
  std::vector<DeviceAttributes> devices;
  ASSERT_TRUE(session->ListDevices(&devices).ok());
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].name(), kCpu);
  EXPECT_EQ(devices[1].name(), kGpu);
  EXPECT_EQ(devices[1].device_type(), "GPU");
}

TEST(GpuPlacementTest, NodesWithGpuKernelsGoToTheGpuAndValuesCrossOnce) {
  auto session = MakeSession();
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  ASSERT_TRUE(session->Create(ParseGraph(kReshapeGraph)).ok());
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  absl::Status s = session->Run(options, {}, {"r"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape(), TensorShape({3, 2}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(outputs[0].flat<float>()(i), i + 1.0f);

  const std::map<std::string, std::string> placed = Placement(metadata);
  EXPECT_EQ(placed.at("c"), kGpu);
  EXPECT_EQ(placed.at("id"), kGpu);
  EXPECT_EQ(placed.at("r"), kGpu);
  // The float Const was uploaded once, at kernel creation; the result leaves the device once.
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 1);

  // A second step copies only the fetched value again.
  s = session->Run({}, {"r"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 2);
}

// Records what it is shown: a copy of each value (by node name).
class RecordingObserver : public NodeOutputObserver {
 public:
  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override {
    absl::MutexLock lock(&mu_);
    seen_[node.name()] = value.DeepCopy();
    return absl::OkStatus();
  }
  std::map<std::string, Tensor> seen() {
    absl::MutexLock lock(&mu_);
    return seen_;
  }

 private:
  absl::Mutex mu_;
  std::map<std::string, Tensor> seen_;
};

TEST(GpuPlacementTest, ObserversSeeHostCopiesOfGpuValues) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(ParseGraph(kReshapeGraph)).ok());
  RecordingObserver observer;
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  std::vector<Tensor> outputs;
  absl::Status s =
      session->RunWithObserver(RunOptions(), {}, {"r"}, {}, &outputs, nullptr, &observer);
  ASSERT_TRUE(s.ok()) << s;
  const std::map<std::string, Tensor> seen = observer.seen();
  ASSERT_EQ(seen.count("id"), 1u);
  EXPECT_EQ(seen.at("id").shape(), TensorShape({2, 3}));
  EXPECT_EQ(seen.at("id").flat<float>()(4), 5.0f);
  ASSERT_EQ(seen.count("shape"), 1u);  // int32, in host memory: shown as it is
  EXPECT_EQ(seen.at("shape").flat<int32_t>()(0), 3);
  // c, id and r are in device memory: each shown through a copy; the fetch is one more.
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 4);
}

TEST(GpuPlacementTest, FeedsAreCopiedToTheGpuAndFetchesBack) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(ParseGraph(kFedIdentityGraph)).ok());
  Tensor x(DT_FLOAT, TensorShape({4}));
  for (int i = 0; i < 4; ++i) x.flat<float>()(i) = 0.5f * i;
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", x}}, {"y"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(outputs[0].flat<float>()(i), 0.5f * i);
  EXPECT_FALSE(outputs[0].SharesBufferWith(x));
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 1);
}

// Callables whose feeds and fetches stay in device memory (CallableOptions.feed_devices and
// fetch_devices): one session's GPU output is the next session's GPU input, with no host copy
// between the two runs.
TEST(GpuPlacementTest, CallableFeedsAndFetchesStayOnTheGpu) {
  auto producer = MakeSession();
  ASSERT_TRUE(producer->Create(ParseGraph(kFedIdentityGraph)).ok());
  CallableOptions produce;
  produce.add_feed("x");
  produce.add_fetch("y");
  (*produce.mutable_fetch_devices())["y"] = "/device:GPU:0";
  produce.set_fetch_skip_sync(true);
  produce.mutable_run_options()->set_output_partition_graphs(true);
  Session::CallableHandle produce_handle = -1;
  absl::Status s = producer->MakeCallable(produce, &produce_handle);
  ASSERT_TRUE(s.ok()) << s;

  // z is fed in device memory; w = Identity(z) on the GPU is fetched to the host.
  auto consumer = MakeSession();
  ASSERT_TRUE(consumer
                  ->Create(ParseGraph(R"pb(
                    node {
                      name: "z"
                      op: "Placeholder"
                      attr {
                        key: "dtype"
                        value { type: DT_FLOAT }
                      }
                    }
                    node {
                      name: "w"
                      op: "Identity"
                      input: "z"
                      device: "/device:GPU:0"
                      attr {
                        key: "T"
                        value { type: DT_FLOAT }
                      }
                    }
                  )pb"))
                  .ok());
  CallableOptions consume;
  consume.add_feed("z");
  consume.add_fetch("w");
  (*consume.mutable_feed_devices())["z"] = kGpu;
  consume.mutable_run_options()->set_output_partition_graphs(true);
  Session::CallableHandle consume_handle = -1;
  s = consumer->MakeCallable(consume, &consume_handle);
  ASSERT_TRUE(s.ok()) << s;

  Tensor x(DT_FLOAT, TensorShape({3}));
  for (int i = 0; i < 3; ++i) x.flat<float>()(i) = 1.5f + i;
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  std::vector<Tensor> on_gpu;
  RunMetadata produce_metadata;
  s = producer->RunCallable(produce_handle, {x}, &on_gpu, &produce_metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);  // x onto the GPU
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 0);  // y stays there
  EXPECT_EQ(Placement(produce_metadata).at("_retval_y_0_0"), kGpu);
  EXPECT_EQ(Placement(produce_metadata).at("_arg_x_0_0"), kCpu);

  std::vector<Tensor> on_host;
  RunMetadata consume_metadata;
  s = consumer->RunCallable(consume_handle, {on_gpu[0]}, &on_host, &consume_metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);  // nothing more onto the GPU
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 1);  // w back to the host
  EXPECT_EQ(Placement(consume_metadata).at("_arg_z_0_0"), kGpu);
  EXPECT_EQ(Placement(consume_metadata).at("_retval_w_0_0"), kCpu);
  ASSERT_EQ(on_host.size(), 1u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(on_host[0].flat<float>()(i), 1.5f + i);

  // Synchronising fetches (fetch_skip_sync false, which TensorFlow refuses) works as well.
  produce.set_fetch_skip_sync(false);
  s = producer->MakeCallable(produce, &produce_handle);
  ASSERT_TRUE(s.ok()) << s;
  s = producer->RunCallable(produce_handle, {x}, &on_gpu, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 1);
}

TEST(GpuPlacementTest, RunningOutOfDeviceMemoryFailsTheStepOnly) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(ParseGraph(kFedIdentityGraph)).ok());
  // 100 MiB does not fit in the device's 64.
  Tensor big(DT_FLOAT, TensorShape({25 << 20}));
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", big}}, {"y"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), kGpu)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "64.00MiB limit")) << s;
  // The session is still usable.
  Tensor small(DT_FLOAT, TensorShape({2}));
  small.flat<float>()(0) = 1;
  small.flat<float>()(1) = 2;
  s = session->Run({{"x", small}}, {"y"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(1), 2.0f);
}

TEST(GpuPlacementTest, TheShapeOfAGpuValueCostsNoCopy) {
  auto session = MakeSession();
  ASSERT_TRUE(session
                  ->Create(ParseGraph(std::string(kReshapeGraph) + R"pb(
                    node {
                      name: "s"
                      op: "Shape"
                      input: "r"
                      attr {
                        key: "T"
                        value { type: DT_FLOAT }
                      }
                      attr {
                        key: "out_type"
                        value { type: DT_INT64 }
                      }
                    }
                  )pb"))
                  .ok());
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  absl::Status s = session->Run(options, {}, {"s"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<int64_t>()(0), 3);
  EXPECT_EQ(outputs[0].flat<int64_t>()(1), 2);
  EXPECT_EQ(Placement(metadata).at("s"), kGpu);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 0);
}

TEST(GpuPlacementTest, Int32StaysInHostMemoryOnTheGpu) {
  auto session = MakeSession();
  ASSERT_TRUE(session
                  ->Create(ParseGraph(R"pb(
                    node {
                      name: "c"
                      op: "Const"
                      device: "/device:GPU:0"
                      attr {
                        key: "dtype"
                        value { type: DT_INT32 }
                      }
                      attr {
                        key: "value"
                        value {
                          tensor {
                            dtype: DT_INT32
                            tensor_shape {}
                            int_val: 7
                          }
                        }
                      }
                    }
                    node {
                      name: "id"
                      op: "Identity"
                      input: "c"
                      device: "/device:GPU:0"
                      attr {
                        key: "T"
                        value { type: DT_INT32 }
                      }
                    }
                  )pb"))
                  .ok());
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  absl::Status s = session->Run(options, {}, {"id"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<int32_t>()(0), 7);
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 0);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 0);
  // The value leaves the GPU partition through the host-memory pair.
  bool host_send = false;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) host_send |= node.op() == "_HostSend";
  }
  EXPECT_TRUE(host_send);
}

// A v1 while loop, as tf.while_loop builds it: i counts from 0 to 3 (int32, on the host) while
// the float x goes round the loop through an Identity each iteration.
std::string WhileLoopGraph() {
  const std::string frame = "attr { key: 'frame_name' value { s: 'loop' } }";
  const std::string constant = frame + " attr { key: 'is_constant' value { b: true } }";
  const std::string two = "attr { key: 'N' value { i: 2 } }";
  return absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      IntConst("zero", 0), IntConst("limit", 3), IntConst("one", 1),
      LoopNode("enter_x", "Enter", {"x"}, "DT_FLOAT", frame),
      LoopNode("enter_i", "Enter", {"zero"}, "DT_INT32", frame),
      LoopNode("enter_limit", "Enter", {"limit"}, "DT_INT32", constant),
      LoopNode("enter_one", "Enter", {"one"}, "DT_INT32", constant),
      LoopNode("merge_x", "Merge", {"enter_x", "next_x"}, "DT_FLOAT", two),
      LoopNode("merge_i", "Merge", {"enter_i", "next_i"}, "DT_INT32", two),
      LoopNode("less", "Less", {"merge_i", "enter_limit"}, "DT_INT32"),
      LoopNode("cond", "LoopCond", {"less"}, ""),
      LoopNode("switch_x", "Switch", {"merge_x", "cond"}, "DT_FLOAT"),
      LoopNode("switch_i", "Switch", {"merge_i", "cond"}, "DT_INT32"),
      LoopNode("body_x", "Identity", {"switch_x:1"}, "DT_FLOAT"),
      LoopNode("body_i", "AddV2", {"switch_i:1", "enter_one"}, "DT_INT32"),
      LoopNode("next_x", "NextIteration", {"body_x"}, "DT_FLOAT"),
      LoopNode("next_i", "NextIteration", {"body_i"}, "DT_INT32"),
      LoopNode("exit_x", "Exit", {"switch_x"}, "DT_FLOAT"),
      LoopNode("exit_i", "Exit", {"switch_i"}, "DT_INT32"));
}

// The control-flow kernels and int32 arithmetic run on GPUs (TensorFlow's registrations), so
// the whole loop is one GPU partition: the float value crosses the bus once in and once out,
// however many iterations run, while the int32 counter and the predicate stay in host memory,
// and no per-device control loop or per-iteration Send/Recv is needed.
TEST(GpuPlacementTest, AWhileLoopKeepsItsValuesOnTheGpu) {
  auto session = MakeSession();
  absl::Status s = session->Create(ParseGraph(WhileLoopGraph()));
  ASSERT_TRUE(s.ok()) << s;
  Tensor x(DT_FLOAT, TensorShape({3}));
  for (int i = 0; i < 3; ++i) x.flat<float>()(i) = 1.5f + i;
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  // The first step also creates the kernels, and a GPU Const uploads its value then (the
  // per-device control loop's trigger); count a later step's copies.
  s = session->Run(options, {{"x", x}}, {"exit_x", "exit_i"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  s = session->Run({{"x", x}}, {"exit_x", "exit_i"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 2u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(outputs[0].flat<float>()(i), 1.5f + i);
  EXPECT_EQ(outputs[1].flat<int32_t>()(0), 3);

  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node :
       {"enter_x", "merge_x", "switch_x", "body_x", "next_x", "exit_x", "cond", "enter_i",
        "merge_i", "switch_i", "next_i", "exit_i", "less", "body_i"}) {
    EXPECT_EQ(placed.at(node), kGpu) << node;
  }
  for (const auto& [node, device] : placed) {
    EXPECT_FALSE(absl::StartsWith(node, "_cloop")) << node << " on " << device;
  }
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 1);
}

// The shape arithmetic of a model with a dynamic batch (Keras' Reshape: tf.shape(x)[0] packed
// with the other dims) and more int32 ops on shapes: all of it runs in the GPU's partition,
// in host memory, as TensorFlow registers it, so the float values cross the bus once each
// way and no value goes to the CPU's partition and back. (Shape reads a GPU value: the placer
// puts a metadata op beside its input, as TensorFlow's, and the feed is on the CPU.)
TEST(GpuPlacementTest, ShapeArithmeticStaysInTheGpuPartition) {
  const std::string graph = absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      LoopNode("xi", "Identity", {"x"}, "DT_FLOAT"),
      LoopNode("shape", "Shape", {"xi"}, "DT_FLOAT",
               "attr { key: 'out_type' value { type: DT_INT32 } }"),
      IntVector("begin", {0}), IntVector("end", {1}), IntVector("stride", {1}),
      LoopNode("n", "StridedSlice", {"shape", "begin", "end", "stride"}, "DT_INT32",
               "attr { key: 'Index' value { type: DT_INT32 } } "
               "attr { key: 'shrink_axis_mask' value { i: 1 } }"),
      IntConst("two", 2),
      LoopNode("dims", "Pack", {"n", "two", "two"}, "DT_INT32", "attr { key: 'N' value { i: 3 } }"),
      LoopNode("r", "Reshape", {"xi", "dims"}, "DT_FLOAT",
               "attr { key: 'Tshape' value { type: DT_INT32 } }"),
      IntConst("zero", 0), IntConst("one", 1),
      LoopNode("size", "Prod", {"shape", "zero"}, "DT_INT32",
               "attr { key: 'Tidx' value { type: DT_INT32 } }"),
      LoopNode("iota", "Range", {"zero", "size", "one"}, "",
               "attr { key: 'Tidx' value { type: DT_INT32 } }"),
      LoopNode("total", "Sum", {"iota", "zero"}, "DT_INT32",
               "attr { key: 'Tidx' value { type: DT_INT32 } }"),
      IntVector("seven", {7}),
      LoopNode("longer", "ConcatV2", {"shape", "seven", "zero"}, "DT_INT32",
               "attr { key: 'N' value { i: 2 } } attr { key: 'Tidx' value { type: DT_INT32 } }"),
      LoopNode("filled", "Fill", {"shape", "n"}, "DT_INT32",
               "attr { key: 'index_type' value { type: DT_INT32 } }"),
      LoopNode("negated", "Neg", {"total"}, "DT_INT32"));
  auto session = MakeSession();
  absl::Status s = session->Create(ParseGraph(graph));
  ASSERT_TRUE(s.ok()) << s;
  Tensor x(DT_FLOAT, TensorShape({3, 4}));
  for (int i = 0; i < 12; ++i) x.flat<float>()(i) = static_cast<float>(i);
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  const std::vector<std::string> fetches = {"r", "total", "longer", "filled", "negated"};
  s = session->Run(options, {{"x", x}}, fetches, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  s = session->Run({{"x", x}}, fetches, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 5u);
  EXPECT_EQ(outputs[0].shape(), TensorShape({3, 2, 2}));
  EXPECT_EQ(outputs[0].flat<float>()(11), 11.0f);
  EXPECT_EQ(outputs[1].flat<int32_t>()(0), 66);  // 0 + 1 + ... + 11
  EXPECT_EQ(outputs[2].NumElements(), 3);
  EXPECT_EQ(outputs[2].flat<int32_t>()(0), 3);
  EXPECT_EQ(outputs[2].flat<int32_t>()(2), 7);
  EXPECT_EQ(outputs[3].shape(), TensorShape({3, 4}));
  EXPECT_EQ(outputs[3].flat<int32_t>()(5), 3);
  EXPECT_EQ(outputs[4].flat<int32_t>()(0), -66);

  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node :
       {"shape", "n", "dims", "r", "size", "iota", "total", "longer", "filled", "negated"}) {
    EXPECT_EQ(placed.at(node), kGpu) << node;
  }
  // The feed in, the float fetch out; the int32 values are already in host memory.
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 1);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 1);
}

// With cuda_graphs on, a region of GPU nodes becomes one _CudaGraph node. The fake GPU cannot
// capture, so its kernel runs the region's kernels one by one on every step (the first step
// as any kernel, the second trying to capture and falling back): values are the same on each
// step and for a new shape.
TEST(GpuPlacementTest, CudaGraphRegionsRunTheirKernels) {
  NodeDef probe;
  probe.set_op("_CudaGraph");
  if (!MakeKernelExists()(probe, kGpu)) GTEST_SKIP() << "this build has no _CudaGraph kernel";
  const std::string graph = absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      LoopNode("a", "Identity", {"x"}, "DT_FLOAT"), IntVector("flat", {-1}),
      LoopNode("b", "Reshape", {"a", "flat"}, "DT_FLOAT",
               "attr { key: 'Tshape' value { type: DT_INT32 } }"),
      IntConst("zero", 0),
      LoopNode("c", "ExpandDims", {"b", "zero"}, "DT_FLOAT",
               "attr { key: 'Tdim' value { type: DT_INT32 } }"),
      LoopNode("d", "Squeeze", {"c"}, "DT_FLOAT"), LoopNode("e", "Identity", {"d"}, "DT_FLOAT"),
      LoopNode("out", "Identity", {"e"}, "DT_FLOAT"));
  auto session = MakeSession(1, false, /*cuda_graphs=*/true);
  absl::Status s = session->Create(ParseGraph(graph));
  ASSERT_TRUE(s.ok()) << s;
  for (int step = 0; step < 4; ++step) {
    const int64_t n = step < 3 ? 6 : 10;
    Tensor x(DT_FLOAT, TensorShape({2, n / 2}));
    for (int64_t i = 0; i < n; ++i) x.flat<float>()(i) = static_cast<float>(step * 100 + i);
    RunOptions options;
    options.set_output_partition_graphs(true);
    RunMetadata metadata;
    std::vector<Tensor> outputs;
    s = session->Run(options, {{"x", x}}, {"out"}, {}, &outputs, &metadata);
    ASSERT_TRUE(s.ok()) << "step " << step << ": " << s;
    ASSERT_EQ(outputs[0].shape(), TensorShape({n})) << step;
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(outputs[0].flat<float>()(i), static_cast<float>(step * 100 + i)) << step;
    }
    bool region = false;
    for (const GraphDef& partition : metadata.partition_graphs()) {
      for (const NodeDef& node : partition.node()) {
        region |= node.op() == "_CudaGraph" && node.device() == kGpu;
      }
    }
    EXPECT_TRUE(region) << step;
  }
}

// A _CudaGraph node written by hand is checked when its kernel is built: a body whose kernels
// would read a buffer as another dtype, or read an output their producer does not have, is
// INVALID_ARGUMENT, not a wild read.
TEST(GpuPlacementTest, MalformedCudaGraphBodiesAreInvalidArgument) {
  NodeDef probe;
  probe.set_op("_CudaGraph");
  if (!MakeKernelExists()(probe, kGpu)) GTEST_SKIP() << "this build has no _CudaGraph kernel";
  // The body: `extra` (an Identity of `extra_type` reading `extra_inputs`, whose value nothing
  // reads) and `id`, an Identity of the input, which is the region's output.
  const auto graph_with_body = [](const std::vector<std::string>& extra_inputs,
                                  DataType extra_type) {
    GraphDef body;
    NodeDef* id = body.add_node();
    id->set_name("id");
    id->set_op("Identity");
    id->add_input("_cuda_graph_input:0");
    (*id->mutable_attr())["T"].set_type(DT_FLOAT);
    NodeDef* extra = body.add_node();
    extra->set_name("extra");
    extra->set_op("Identity");
    for (const std::string& input : extra_inputs) extra->add_input(input);
    (*extra->mutable_attr())["T"].set_type(extra_type);
    GraphDef graph = ParseGraph(
        "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }");
    NodeDef* region = graph.add_node();
    region->set_name("region");
    region->set_op("_CudaGraph");
    region->set_device("/device:GPU:0");
    region->add_input("x");
    (*region->mutable_attr())["Tin"].mutable_list()->add_type(DT_FLOAT);
    (*region->mutable_attr())["Tout"].mutable_list()->add_type(DT_FLOAT);
    (*region->mutable_attr())["body"].set_s(body.SerializeAsString());
    (*region->mutable_attr())["output_names"].mutable_list()->add_s("id:0");
    return graph;
  };
  Tensor x(DT_FLOAT, TensorShape({2}));
  x.flat<float>()(0) = 1;
  x.flat<float>()(1) = 2;
  {
    // The well-formed body runs (on the fake GPU, without a graph; Identity only forwards, so
    // it runs there).
    auto session = MakeSession();
    ASSERT_TRUE(session->Create(graph_with_body({"_cuda_graph_input:0"}, DT_FLOAT)).ok());
    std::vector<Tensor> outputs;
    const absl::Status s = session->Run({{"x", x}}, {"region"}, {}, &outputs);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(outputs[0].flat<float>()(1), 2.0f);
  }
  // A float read as half; an input the node does not have; an output its producer lacks.
  for (const auto& [inputs, type] : std::vector<std::pair<std::vector<std::string>, DataType>>{
           {{"_cuda_graph_input:0"}, DT_HALF},
           {{"_cuda_graph_input:1"}, DT_FLOAT},
           {{"id:1"}, DT_FLOAT}}) {
    auto session = MakeSession();
    ASSERT_TRUE(session->Create(graph_with_body(inputs, type)).ok());
    std::vector<Tensor> outputs;
    const absl::Status s = session->Run({{"x", x}}, {"region"}, {}, &outputs);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << inputs[0] << ": " << s;
  }
}

// An op with no GPU kernel: AsString.
const char kStringGraph[] = R"pb(
  node {
    name: "x"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {}
          float_val: 2.5
        }
      }
    }
  }
  node {
    name: "j"
    op: "AsString"
    input: "x"
    device: "/device:GPU:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

TEST(GpuPlacementTest, ExplicitGpuWithoutAGpuKernelIsTensorFlowsError) {
  auto session = MakeSession();
  absl::Status created = session->Create(ParseGraph(kStringGraph));
  ASSERT_TRUE(created.ok()) << created;
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({}, {"j"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(
      s.message(),
      "Could not satisfy explicit device specification '/device:GPU:0' because no "
      "supported kernel for GPU devices is available"))
      << s;
}

TEST(GpuPlacementTest, SoftPlacementFallsBackToTheCpu) {
  auto session = MakeSession(/*num_gpus=*/1, /*soft_placement=*/true);
  absl::Status created = session->Create(ParseGraph(kStringGraph));
  ASSERT_TRUE(created.ok()) << created;
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({}, {"j"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<std::string>()(0), "2.500000");
}

TEST(GpuPlacementTest, NoGpuDevicesMeansEverythingOnTheCpu) {
  auto session = MakeSession(/*num_gpus=*/0);
  std::vector<DeviceAttributes> devices;
  ASSERT_TRUE(session->ListDevices(&devices).ok());
  ASSERT_EQ(devices.size(), 1u);
  ASSERT_TRUE(session->Create(ParseGraph(kReshapeGraph)).ok());
  const int h2d_before = fake_gpu::HostToDeviceCopies();
  const int d2h_before = fake_gpu::DeviceToHostCopies();
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session->Run({}, {"r"}, {}, &outputs).ok());
  EXPECT_EQ(outputs[0].flat<float>()(5), 6.0f);
  EXPECT_EQ(fake_gpu::HostToDeviceCopies() - h2d_before, 0);
  EXPECT_EQ(fake_gpu::DeviceToHostCopies() - d2h_before, 0);
}

}  // namespace
}  // namespace sluice
