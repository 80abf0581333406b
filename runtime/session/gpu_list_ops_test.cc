// TensorFlow's list ops on GPUs, end to end through DirectSession on the fake GPU
// (fake_gpu_device.h): a loop that carries a TensorList runs in the GPU's partition with its
// elements in device memory, and a list that crosses to another device carries its elements
// there. The fake GPU counts each copy, which is how these tests see where elements live.
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "runtime/session/fake_gpu_device.h"
#include "runtime/session/fake_gpu_session.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

using fake_gpu::IntConst;
using fake_gpu::IntVector;
using fake_gpu::kGpu;
using fake_gpu::LoopNode;
using fake_gpu::MakeSession;
using fake_gpu::ParseGraph;
using fake_gpu::Placement;

// Rows of 16 floats (64 bytes), so that each row of a fed tensor is an aligned view and
// TensorListFromTensor copies nothing.
constexpr int kRowSize = 16;

const char kFloatList[] = "attr { key: 'element_dtype' value { type: DT_FLOAT } }";
const char kInt32Shape[] = "attr { key: 'shape_type' value { type: DT_INT32 } }";

std::string FloatListAttrs() { return absl::StrCat(kFloatList, " ", kInt32Shape); }

std::string Pinned(const std::string& device) { return absl::StrCat("device: '", device, "'"); }

Tensor Rows(int rows) {
  Tensor x(DT_FLOAT, TensorShape({rows, kRowSize}));
  for (int i = 0; i < rows * kRowSize; ++i) x.flat<float>()(i) = 0.5f * static_cast<float>(i);
  return x;
}

// Copies made by one call, counted by the fake GPU.
struct CopiesMade {
  int64_t host_to_device = fake_gpu::HostToDeviceCopies();
  int64_t device_to_host = fake_gpu::DeviceToHostCopies();
  int64_t device_to_device = fake_gpu::DeviceToDeviceCopies();
  void Stop() {
    host_to_device = fake_gpu::HostToDeviceCopies() - host_to_device;
    device_to_host = fake_gpu::DeviceToHostCopies() - device_to_host;
    device_to_device = fake_gpu::DeviceToDeviceCopies() - device_to_device;
  }
};

// tf.while_loop writing the rows of x into a TensorArray in reverse, as TF2 builds it: the
// rows are read from a list made by TensorListFromTensor, each written at n - 1 - i of a
// reserved list, which is stacked after the loop.
std::string ReverseRowsGraph(int n) {
  const std::string frame = "attr { key: 'frame_name' value { s: 'loop' } }";
  const std::string constant = frame + " attr { key: 'is_constant' value { b: true } }";
  const std::string two = "attr { key: 'N' value { i: 2 } }";
  return absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      IntVector("shape", {kRowSize}), IntConst("n", n), IntConst("zero", 0), IntConst("one", 1),
      IntConst("last", n - 1),
      LoopNode("rows", "TensorListFromTensor", {"x", "shape"}, "", FloatListAttrs()),
      LoopNode("reserved", "TensorListReserve", {"shape", "n"}, "", FloatListAttrs()),
      LoopNode("enter_rows", "Enter", {"rows"}, "DT_VARIANT", constant),
      LoopNode("enter_shape", "Enter", {"shape"}, "DT_INT32", constant),
      LoopNode("enter_limit", "Enter", {"n"}, "DT_INT32", constant),
      LoopNode("enter_one", "Enter", {"one"}, "DT_INT32", constant),
      LoopNode("enter_last", "Enter", {"last"}, "DT_INT32", constant),
      LoopNode("enter_out", "Enter", {"reserved"}, "DT_VARIANT", frame),
      LoopNode("enter_i", "Enter", {"zero"}, "DT_INT32", frame),
      LoopNode("merge_out", "Merge", {"enter_out", "next_out"}, "DT_VARIANT", two),
      LoopNode("merge_i", "Merge", {"enter_i", "next_i"}, "DT_INT32", two),
      LoopNode("less", "Less", {"merge_i", "enter_limit"}, "DT_INT32"),
      LoopNode("cond", "LoopCond", {"less"}, ""),
      LoopNode("switch_out", "Switch", {"merge_out", "cond"}, "DT_VARIANT"),
      LoopNode("switch_i", "Switch", {"merge_i", "cond"}, "DT_INT32"),
      LoopNode("row", "TensorListGetItem", {"enter_rows", "switch_i:1", "enter_shape"}, "",
               kFloatList),
      LoopNode("at", "Sub", {"enter_last", "switch_i:1"}, "DT_INT32"),
      LoopNode("written", "TensorListSetItem", {"switch_out:1", "at", "row"}, "", kFloatList),
      LoopNode("body_i", "AddV2", {"switch_i:1", "enter_one"}, "DT_INT32"),
      LoopNode("next_out", "NextIteration", {"written"}, "DT_VARIANT"),
      LoopNode("next_i", "NextIteration", {"body_i"}, "DT_INT32"),
      LoopNode("exit_out", "Exit", {"switch_out"}, "DT_VARIANT"),
      LoopNode("stacked", "TensorListStack", {"exit_out", "shape"}, "", kFloatList));
}

// The whole loop, lists included, is the GPU's: x crosses the bus once in, the stacked rows
// once out, and the elements move only within device memory (the stack's copies).
TEST(GpuListOpsTest, ALoopCarryingAListStaysOnTheGpu) {
  constexpr int kRows = 5;
  auto session = MakeSession();
  absl::Status s = session->Create(ParseGraph(ReverseRowsGraph(kRows)));
  ASSERT_TRUE(s.ok()) << s;
  const Tensor x = Rows(kRows);
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  // The first step creates the kernels, and GPU Consts upload their values then.
  s = session->Run(options, {{"x", x}}, {"stacked"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;

  CopiesMade copies;
  s = session->Run({{"x", x}}, {"stacked"}, {}, &outputs);
  copies.Stop();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 1u);
  ASSERT_EQ(outputs[0].shape(), TensorShape({kRows, kRowSize}));
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kRowSize; ++c) {
      EXPECT_EQ(outputs[0].matrix<float>()(r, c), x.matrix<float>()(kRows - 1 - r, c))
          << r << "," << c;
    }
  }
  EXPECT_EQ(copies.host_to_device, 1);
  EXPECT_EQ(copies.device_to_host, 1);
  EXPECT_EQ(copies.device_to_device, kRows);  // the stack's, one per element

  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node : {"rows", "reserved", "enter_rows", "enter_out", "merge_out", "switch_out",
                           "row", "written", "next_out", "exit_out", "stacked"}) {
    EXPECT_EQ(placed.at(node), kGpu) << node;
  }
  for (const auto& [node, device] : placed) {
    EXPECT_FALSE(absl::StartsWith(node, "_cloop")) << node << " on " << device;
  }
}

// Slots never set read as zeros in device memory (copied in from the host), by GetItem and
// by Stack.
TEST(GpuListOpsTest, UnsetSlotsReadAsZerosOnTheGpu) {
  auto session = MakeSession();
  const std::string gpu = Pinned("/device:GPU:0");
  absl::Status s = session->Create(ParseGraph(absl::StrCat(
      "node { name: 'item' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      IntVector("shape", {kRowSize}), IntConst("three", 3), IntConst("one", 1), IntConst("two", 2),
      LoopNode("reserved", "TensorListReserve", {"shape", "three"}, "",
               FloatListAttrs() + " " + gpu),
      LoopNode("set", "TensorListSetItem", {"reserved", "one", "item"}, "",
               std::string(kFloatList) + " " + gpu),
      LoopNode("unset", "TensorListGetItem", {"set", "two", "shape"}, "",
               std::string(kFloatList) + " " + gpu),
      LoopNode("stacked", "TensorListStack", {"set", "shape"}, "",
               std::string(kFloatList) + " " + gpu))));
  ASSERT_TRUE(s.ok()) << s;
  Tensor item(DT_FLOAT, TensorShape({kRowSize}));
  for (int i = 0; i < kRowSize; ++i) item.flat<float>()(i) = 1.0f + i;
  std::vector<Tensor> outputs;
  s = session->Run({{"item", item}}, {"unset", "stacked"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  CopiesMade copies;
  s = session->Run({{"item", item}}, {"unset", "stacked"}, {}, &outputs);
  copies.Stop();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 2u);
  for (int i = 0; i < kRowSize; ++i) EXPECT_EQ(outputs[0].flat<float>()(i), 0.0f) << i;
  ASSERT_EQ(outputs[1].shape(), TensorShape({3, kRowSize}));
  for (int i = 0; i < kRowSize; ++i) {
    EXPECT_EQ(outputs[1].matrix<float>()(0, i), 0.0f);
    EXPECT_EQ(outputs[1].matrix<float>()(1, i), 1.0f + i);
    EXPECT_EQ(outputs[1].matrix<float>()(2, i), 0.0f);
  }
  // The item, and zeros for GetItem's slot and Stack's two unset rows.
  EXPECT_EQ(copies.host_to_device, 4);
  EXPECT_EQ(copies.device_to_host, 2);  // the two fetches
}

// A list made on the GPU and stacked on the CPU (pinned there, as a kernel without a GPU
// registration would be placed) has its elements copied to host memory by the CPU kernel;
// one made on the CPU and read on the GPU has them copied to device memory.
TEST(GpuListOpsTest, AListCrossingDevicesTakesItsElementsAlong) {
  constexpr int kRows = 3;
  auto session = MakeSession();
  const std::string gpu = Pinned("/device:GPU:0");
  const std::string cpu = Pinned("/device:CPU:0");
  absl::Status s = session->Create(ParseGraph(absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      IntVector("shape", {kRowSize}), IntConst("one", 1),
      LoopNode("gpu_rows", "TensorListFromTensor", {"x", "shape"}, "",
               FloatListAttrs() + " " + gpu),
      LoopNode("on_cpu", "TensorListStack", {"gpu_rows", "shape"}, "",
               std::string(kFloatList) + " " + cpu),
      LoopNode("cpu_rows", "TensorListFromTensor", {"x", "shape"}, "",
               FloatListAttrs() + " " + cpu),
      LoopNode("on_gpu", "TensorListGetItem", {"cpu_rows", "one", "shape"}, "",
               std::string(kFloatList) + " " + gpu))));
  ASSERT_TRUE(s.ok()) << s;
  const Tensor x = Rows(kRows);
  std::vector<Tensor> outputs;
  s = session->Run({{"x", x}}, {"on_cpu"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  CopiesMade to_host;
  s = session->Run({{"x", x}}, {"on_cpu"}, {}, &outputs);
  to_host.Stop();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs[0].shape(), x.shape());
  for (int i = 0; i < kRows * kRowSize; ++i) {
    EXPECT_EQ(outputs[0].flat<float>()(i), x.flat<float>()(i)) << i;
  }
  EXPECT_EQ(to_host.host_to_device, 1);      // x
  EXPECT_EQ(to_host.device_to_host, kRows);  // each element, by the CPU's Stack
  EXPECT_EQ(to_host.device_to_device, 0);

  s = session->Run({{"x", x}}, {"on_gpu"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  CopiesMade to_device;
  s = session->Run({{"x", x}}, {"on_gpu"}, {}, &outputs);
  to_device.Stop();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs[0].shape(), TensorShape({kRowSize}));
  for (int i = 0; i < kRowSize; ++i) {
    EXPECT_EQ(outputs[0].flat<float>()(i), x.matrix<float>()(1, i)) << i;
  }
  EXPECT_EQ(to_device.host_to_device, kRows);  // each element, by the GPU's GetItem
  EXPECT_EQ(to_device.device_to_host, 1);      // the fetch
}

std::string Int64Vector(const std::string& name, const std::vector<int>& values) {
  std::string text = absl::StrCat(
      "node { name: '", name,
      "' op: 'Const' attr { key: 'dtype' value { type: DT_INT64 } } attr { key: 'value' value { "
      "tensor { dtype: DT_INT64 tensor_shape { dim { size: ",
      values.size(), " } }");
  for (int v : values) absl::StrAppend(&text, " int64_val: ", v);
  return absl::StrCat(text, " } } } }\n");
}

// The other list kernels on the GPU, each checked against the rows it should move: Split and
// ConcatV2 (elements of several rows), ScatterV2 and Gather (an unset slot among them),
// PushBack and PopBack.
TEST(GpuListOpsTest, EveryListKernelMovesTheRightRowsOnTheGpu) {
  constexpr int kRows = 4;
  auto session = MakeSession();
  const std::string gpu = Pinned("/device:GPU:0");
  const std::string on_gpu = std::string(kFloatList) + " " + gpu;
  const std::string made_on_gpu = FloatListAttrs() + " " + gpu;
  absl::Status s = session->Create(ParseGraph(absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      IntVector("row_shape", {kRowSize}), IntVector("rows_shape", {-1, kRowSize}),
      Int64Vector("lengths", {1, 3}), Int64Vector("no_leading_dims", {}),
      IntVector("scatter_at", {3, 0, 2, 1}), IntVector("gather_at", {0, 1, 4}), IntConst("five", 5),
      IntConst("zero", 0), IntConst("unlimited", -1),
      LoopNode("split", "TensorListSplit", {"x", "rows_shape", "lengths"}, "", made_on_gpu),
      LoopNode("concat", "TensorListConcatV2", {"split", "rows_shape", "no_leading_dims"}, "",
               made_on_gpu),
      LoopNode("scattered", "TensorListScatterV2", {"x", "scatter_at", "row_shape", "five"}, "",
               made_on_gpu),
      LoopNode("gathered", "TensorListGather", {"scattered", "gather_at", "row_shape"}, "", on_gpu),
      LoopNode("first", "TensorListGetItem", {"scattered", "zero", "row_shape"}, "", on_gpu),
      LoopNode("empty", "EmptyTensorList", {"row_shape", "unlimited"}, "", made_on_gpu),
      LoopNode("pushed", "TensorListPushBack", {"empty", "first"}, "", on_gpu),
      LoopNode("popped", "TensorListPopBack", {"pushed", "row_shape"}, "", on_gpu))));
  ASSERT_TRUE(s.ok()) << s;
  const Tensor x = Rows(kRows);
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  s = session->Run(options, {{"x", x}}, {"concat", "concat:1", "gathered", "popped:1"}, {},
                   &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 4u);
  // ConcatV2 of the split gives x back, with the split's lengths.
  ASSERT_EQ(outputs[0].shape(), x.shape());
  for (int i = 0; i < kRows * kRowSize; ++i) {
    EXPECT_EQ(outputs[0].flat<float>()(i), x.flat<float>()(i)) << i;
  }
  ASSERT_EQ(outputs[1].NumElements(), 2);
  EXPECT_EQ(outputs[1].flat<int64_t>()(0), 1);
  EXPECT_EQ(outputs[1].flat<int64_t>()(1), 3);
  // Slot 0 holds x's row 1 (scatter_at[1] == 0), slot 1 row 3, slot 4 was never set.
  ASSERT_EQ(outputs[2].shape(), TensorShape({3, kRowSize}));
  for (int c = 0; c < kRowSize; ++c) {
    EXPECT_EQ(outputs[2].matrix<float>()(0, c), x.matrix<float>()(1, c)) << c;
    EXPECT_EQ(outputs[2].matrix<float>()(1, c), x.matrix<float>()(3, c)) << c;
    EXPECT_EQ(outputs[2].matrix<float>()(2, c), 0.0f) << c;
  }
  ASSERT_EQ(outputs[3].shape(), TensorShape({kRowSize}));
  for (int c = 0; c < kRowSize; ++c) {
    EXPECT_EQ(outputs[3].flat<float>()(c), x.matrix<float>()(1, c)) << c;
  }
  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node :
       {"split", "concat", "scattered", "gathered", "first", "empty", "pushed", "popped"}) {
    EXPECT_EQ(placed.at(node), kGpu) << node;
  }
}

// TF1's TensorArrays on the GPU: the array's ops stay together there (the resource's
// colocation), its values in device memory, its lengths and size in host memory.
TEST(GpuListOpsTest, TensorArraysKeepTheirValuesOnTheGpu) {
  constexpr int kRows = 3;
  auto session = MakeSession();
  const std::string dtype = "attr { key: 'dtype' value { type: DT_FLOAT } }";
  const std::string t = "attr { key: 'T' value { type: DT_FLOAT } }";
  absl::Status s = session->Create(ParseGraph(absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      IntConst("size", kRows), IntVector("all", {0, 1, 2}), IntVector("some", {2, 0}),
      IntConst("one", 1),
      LoopNode("array", "TensorArrayV3", {"size"}, "",
               dtype + " attr { key: 'clear_after_read' value { b: false } }"),
      LoopNode("scattered", "TensorArrayScatterV3", {"array", "all", "x", "array:1"}, "", t),
      LoopNode("read", "TensorArrayReadV3", {"array", "one", "scattered"}, "", dtype),
      LoopNode("gathered", "TensorArrayGatherV3", {"array", "some", "scattered"}, "", dtype),
      LoopNode("concat", "TensorArrayConcatV3", {"array", "scattered"}, "", dtype),
      LoopNode("length", "TensorArraySizeV3", {"array", "scattered"}, ""))));
  ASSERT_TRUE(s.ok()) << s;
  const Tensor x = Rows(kRows);
  const std::vector<std::string> fetches = {"read", "gathered", "concat", "concat:1", "length"};
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  s = session->Run(options, {{"x", x}}, fetches, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  CopiesMade copies;
  s = session->Run({{"x", x}}, fetches, {}, &outputs);
  copies.Stop();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 5u);
  for (int c = 0; c < kRowSize; ++c) {
    EXPECT_EQ(outputs[0].flat<float>()(c), x.matrix<float>()(1, c)) << c;
    EXPECT_EQ(outputs[1].matrix<float>()(0, c), x.matrix<float>()(2, c)) << c;
    EXPECT_EQ(outputs[1].matrix<float>()(1, c), x.matrix<float>()(0, c)) << c;
  }
  // Concat of rows of [kRowSize] elements: each a vector, so their elements end to end.
  ASSERT_EQ(outputs[2].shape(), TensorShape({kRows * kRowSize}));
  for (int i = 0; i < kRows * kRowSize; ++i) {
    EXPECT_EQ(outputs[2].flat<float>()(i), x.flat<float>()(i)) << i;
  }
  for (int i = 0; i < kRows; ++i) EXPECT_EQ(outputs[3].flat<int64_t>()(i), kRowSize);
  EXPECT_EQ(outputs[4].scalar<int32_t>()(), kRows);
  // x, and the new array's zero flow.
  EXPECT_EQ(copies.host_to_device, 2);
  // The three fetches of values; the lengths and the size are in host memory.
  EXPECT_EQ(copies.device_to_host, 3);
  // Gather's two rows and Concat's three (Scatter's rows are views of x).
  EXPECT_EQ(copies.device_to_device, 5);
  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node : {"array", "scattered", "read", "gathered", "concat", "length"}) {
    EXPECT_EQ(placed.at(node), kGpu) << node;
  }
}

// An int32 array has no GPU kernels for its values: the placer keeps all of its ops on the
// CPU, Size and Close included (they have GPU kernels for any array).
TEST(GpuListOpsTest, Int32TensorArraysStayOnTheCpu) {
  auto session = MakeSession(/*num_gpus=*/1, /*soft_placement=*/true);
  const std::string dtype = "attr { key: 'dtype' value { type: DT_INT32 } }";
  absl::Status s = session->Create(ParseGraph(absl::StrCat(
      IntConst("size", 2), IntConst("one", 1), IntConst("seven", 7),
      LoopNode("array", "TensorArrayV3", {"size"}, "", dtype),
      LoopNode("written", "TensorArrayWriteV3", {"array", "one", "seven", "array:1"}, "DT_INT32"),
      LoopNode("read", "TensorArrayReadV3", {"array", "one", "written"}, "", dtype),
      LoopNode("length", "TensorArraySizeV3", {"array", "written"}, ""))));
  ASSERT_TRUE(s.ok()) << s;
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  s = session->Run(options, {}, {"read", "length"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].scalar<int32_t>()(), 7);
  EXPECT_EQ(outputs[1].scalar<int32_t>()(), 2);
  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node : {"array", "written", "read", "length"}) {
    EXPECT_EQ(placed.at(node), fake_gpu::kCpu) << node;
  }
}

// int32 lists run on the GPU with their elements in host memory, as every int32 value there:
// no copy either way. The list kernels that never touch an element (Length) take any list.
TEST(GpuListOpsTest, Int32ListsKeepTheirElementsInHostMemoryOnTheGpu) {
  auto session = MakeSession();
  const std::string int32_list =
      absl::StrCat("attr { key: 'element_dtype' value { type: DT_INT32 } } ", kInt32Shape);
  absl::Status s = session->Create(ParseGraph(absl::StrCat(
      "node { name: 'item' op: 'Placeholder' attr { key: 'dtype' value { type: DT_INT32 } } }\n",
      IntVector("shape", {2}), IntConst("three", 3), IntConst("one", 1),
      LoopNode("reserved", "TensorListReserve", {"shape", "three"}, "", int32_list),
      LoopNode("set", "TensorListSetItem", {"reserved", "one", "item"}, "",
               "attr { key: 'element_dtype' value { type: DT_INT32 } }"),
      LoopNode("stacked", "TensorListStack", {"set", "shape"}, "",
               "attr { key: 'element_dtype' value { type: DT_INT32 } }"),
      LoopNode("length", "TensorListLength", {"set"}, ""))));
  ASSERT_TRUE(s.ok()) << s;
  Tensor item(DT_INT32, TensorShape({2}));
  item.flat<int32_t>()(0) = 7;
  item.flat<int32_t>()(1) = -4;
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  s = session->Run(options, {{"item", item}}, {"stacked", "length"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  CopiesMade copies;
  s = session->Run({{"item", item}}, {"stacked", "length"}, {}, &outputs);
  copies.Stop();
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs[0].shape(), TensorShape({3, 2}));
  const std::vector<int32_t> expected = {0, 0, 7, -4, 0, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(outputs[0].flat<int32_t>()(i), expected[i]) << i;
  EXPECT_EQ(outputs[1].scalar<int32_t>()(), 3);
  EXPECT_EQ(copies.host_to_device, 0);
  EXPECT_EQ(copies.device_to_host, 0);
  EXPECT_EQ(copies.device_to_device, 0);
  const std::map<std::string, std::string> placed = Placement(metadata);
  for (const char* node : {"reserved", "set", "stacked", "length"}) {
    EXPECT_EQ(placed.at(node), kGpu) << node;
  }
}

}  // namespace
}  // namespace sluice
