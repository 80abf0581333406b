// The GPU device on a real GPU: what the session lists, cuBLAS products against the CPU's,
// Einsum, fused convolutions and elementwise chains, CUDA graphs, loops carrying lists,
// running out of device memory, large copies, callables chaining sessions on the GPU, and
// sessions sharing the GPU from many threads.
// Skipped without a GPU.
#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "runtime/device/gpu/gpu_physical_device.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/session/session.h"
#include "tests/gpu/gpu_test_util.h"

namespace sluice {
namespace {

using gpu_test::ExpectClose;
using gpu_test::NewSessionOrDie;
using gpu_test::ParseGraphOrDie;
using gpu_test::RandomTensor;
using gpu_test::RunOn;

constexpr char kGpu[] = "/device:GPU:0";
constexpr char kCpu[] = "/device:CPU:0";

TEST(GpuDeviceTest, SessionListsTheGpuAsTensorFlowDescribesIt) {
  SLUICE_SKIP_WITHOUT_GPU();
  auto session = NewSessionOrDie();
  std::vector<DeviceAttributes> devices;
  ASSERT_TRUE(session->ListDevices(&devices).ok());
  ASSERT_GE(devices.size(), 2u);
  EXPECT_EQ(devices[1].name(), "/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_EQ(devices[1].device_type(), "GPU");
  EXPECT_GT(devices[1].memory_limit(), int64_t{1} << 30);
  EXPECT_TRUE(absl::StrContains(devices[1].physical_device_desc(), "compute capability"))
      << devices[1].physical_device_desc();
}

std::string MatMulGraph(const std::string& op, DataType dtype, bool adj_x, bool adj_y) {
  const std::string t = DataType_Name(dtype);
  const bool batch = op != "MatMul";
  return absl::StrCat("node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: ", t,
                      " } } }\n",
                      "node { name: 'y' op: 'Placeholder' attr { key: 'dtype' value { type: ", t,
                      " } } }\n", "node { name: 'mm' op: '", op, "' input: 'x' input: 'y' ",
                      "attr { key: 'T' value { type: ", t, " } } ", "attr { key: '",
                      batch ? "adj_x" : "transpose_a", "' value { b: ", adj_x ? "true" : "false",
                      " } } ", "attr { key: '", batch ? "adj_y" : "transpose_b",
                      "' value { b: ", adj_y ? "true" : "false", " } } }\n");
}

struct Tolerance {
  double abs, rel;
};

Tolerance TolFor(DataType dtype, int64_t k) {
  // The GPU sums K products in another order than oneDNN; float32 error grows with K.
  switch (dtype) {
    case DT_DOUBLE:
      return {1e-12, 1e-12};
    case DT_FLOAT:
      return {1e-6 * (k + 1), 1e-5};
    case DT_HALF:
      return {2e-3 * (k + 1), 1e-2};
    default:  // bfloat16
      return {1e-2 * (k + 1), 2e-2};
  }
}

void CompareMatMul(const std::string& op, DataType dtype, const TensorShape& xs,
                   const TensorShape& ys, bool adj_x, bool adj_y, int64_t k) {
  const GraphDef graph = ParseGraphOrDie(MatMulGraph(op, dtype, adj_x, adj_y));
  const std::vector<std::pair<std::string, Tensor>> feeds = {{"x", RandomTensor(dtype, xs, 1)},
                                                             {"y", RandomTensor(dtype, ys, 2)}};
  const std::vector<Tensor> cpu = RunOn(graph, kCpu, feeds, {"mm"});
  const std::vector<Tensor> gpu = RunOn(graph, kGpu, feeds, {"mm"});
  ASSERT_EQ(cpu.size(), 1u);
  ASSERT_EQ(gpu.size(), 1u);
  const Tolerance tol = TolFor(dtype, k);
  ExpectClose(cpu[0], gpu[0], tol.abs, tol.rel,
              absl::StrCat(op, " ", DataTypeString(dtype), " ", xs.DebugString(), " x ",
                           ys.DebugString(), adj_x ? " adj_x" : "", adj_y ? " adj_y" : ""));
}

TEST(GpuDeviceTest, MatMulMatchesTheCpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  for (DataType dtype : {DT_FLOAT, DT_HALF, DT_BFLOAT16, DT_DOUBLE}) {
    CompareMatMul("MatMul", dtype, TensorShape({3, 5}), TensorShape({5, 7}), false, false, 5);
    CompareMatMul("MatMul", dtype, TensorShape({5, 3}), TensorShape({5, 7}), true, false, 5);
    CompareMatMul("MatMul", dtype, TensorShape({3, 5}), TensorShape({7, 5}), false, true, 5);
    CompareMatMul("MatMul", dtype, TensorShape({5, 3}), TensorShape({7, 5}), true, true, 5);
    CompareMatMul("MatMul", dtype, TensorShape({1, 1}), TensorShape({1, 1}), false, false, 1);
    CompareMatMul("MatMul", dtype, TensorShape({64, 257}), TensorShape({257, 96}), false, false,
                  257);
    // K == 0: zeros; empty outputs.
    CompareMatMul("MatMul", dtype, TensorShape({4, 0}), TensorShape({0, 3}), false, false, 0);
    CompareMatMul("MatMul", dtype, TensorShape({0, 5}), TensorShape({5, 3}), false, false, 5);
  }
}

TEST(GpuDeviceTest, BatchMatMulBroadcastsAsTheCpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  for (DataType dtype : {DT_FLOAT, DT_HALF}) {
    for (bool adj_x : {false, true}) {
      for (bool adj_y : {false, true}) {
        const TensorShape xs = adj_x ? TensorShape({2, 1, 4, 3}) : TensorShape({2, 1, 3, 4});
        const TensorShape ys = adj_y ? TensorShape({1, 5, 6, 4}) : TensorShape({1, 5, 4, 6});
        CompareMatMul("BatchMatMulV2", dtype, xs, ys, adj_x, adj_y, 4);
      }
    }
    // y shared by every batch entry (folded into one product), and x shared.
    CompareMatMul("BatchMatMulV2", dtype, TensorShape({2, 3, 4, 5}), TensorShape({5, 6}), false,
                  false, 5);
    CompareMatMul("BatchMatMulV2", dtype, TensorShape({4, 5}), TensorShape({3, 5, 6}), false, false,
                  5);
    CompareMatMul("BatchMatMul", dtype, TensorShape({3, 2, 4}), TensorShape({3, 4, 2}), false,
                  false, 4);
  }
}

// MatMul -> BiasAdd -> activation, which the remapper fuses into one _FusedMatMul on the GPU.
std::string DenseGraph(const std::string& activation, DataType dtype) {
  const std::string t = DataType_Name(dtype);
  const std::string attr_t = absl::StrCat("attr { key: 'T' value { type: ", t, " } } ");
  std::string graph;
  for (const char* feed : {"x", "w", "b"}) {
    absl::StrAppend(&graph, "node { name: '", feed,
                    "' op: 'Placeholder' attr { key: 'dtype' value { type: ", t, " } } }\n");
  }
  absl::StrAppend(&graph, "node { name: 'mm' op: 'MatMul' input: 'x' input: 'w' ", attr_t, "}\n",
                  "node { name: 'ba' op: 'BiasAdd' input: 'mm' input: 'b' ", attr_t, "}\n",
                  "node { name: 'act' op: '", activation, "' input: 'ba' ", attr_t,
                  activation == "LeakyRelu" ? "attr { key: 'alpha' value { f: 0.3 } } " : "",
                  "}\n");
  return graph;
}

TEST(GpuDeviceTest, FusedMatMulEpiloguesMatchTheCpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  for (DataType dtype : {DT_FLOAT, DT_HALF}) {
    for (const char* activation : {"Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid"}) {
      const GraphDef graph = ParseGraphOrDie(DenseGraph(activation, dtype));
      const std::vector<std::pair<std::string, Tensor>> feeds = {
          {"x", RandomTensor(dtype, TensorShape({8, 33}), 1, -3, 3)},
          {"w", RandomTensor(dtype, TensorShape({33, 20}), 2)},
          {"b", RandomTensor(dtype, TensorShape({20}), 3)}};
      const std::vector<Tensor> cpu = RunOn(graph, kCpu, feeds, {"act"});
      // Default optimisation: the remapper fuses the chain on the GPU.
      auto session = NewSessionOrDie(SessionOptions());
      ASSERT_TRUE(session->Create(gpu_test::PinnedTo(graph, kGpu)).ok());
      RunOptions options;
      options.set_output_partition_graphs(true);
      RunMetadata metadata;
      std::vector<Tensor> gpu;
      const absl::Status s = session->Run(options, feeds, {"act"}, {}, &gpu, &metadata);
      ASSERT_TRUE(s.ok()) << s;
      bool fused = false;
      for (const GraphDef& partition : metadata.partition_graphs()) {
        for (const NodeDef& node : partition.node()) {
          fused |= node.op() == "_FusedMatMul" && absl::StrContains(node.device(), "GPU");
        }
      }
      EXPECT_TRUE(fused) << activation;
      const Tolerance tol = TolFor(dtype, 33);
      ExpectClose(cpu[0], gpu[0], tol.abs, tol.rel,
                  absl::StrCat("fused ", activation, " ", DataTypeString(dtype)));
    }
  }
}

std::string EinsumGraph(const std::string& equation, int inputs, DataType dtype) {
  const std::string t = DataType_Name(dtype);
  std::string graph;
  std::string node = absl::StrCat("node { name: 'e' op: 'Einsum' ");
  for (int i = 0; i < inputs; ++i) {
    absl::StrAppend(&graph, "node { name: 'x", i,
                    "' op: 'Placeholder' attr { key: 'dtype' value { type: ", t, " } } }\n");
    absl::StrAppend(&node, "input: 'x", i, "' ");
  }
  absl::StrAppend(&node, "attr { key: 'T' value { type: ", t,
                  " } } attr { key: 'N' value { i: ", inputs,
                  " } } attr { key: 'equation' value { s: '", equation, "' } } }\n");
  return graph + node;
}

// Einsum on the GPU runs the CPU kernel's plan with cuBLAS and the pass kernel: attention's
// equations, transposed and broadcast operands, sums over labels, diagonals, inflated
// outputs, one input, an empty input.
TEST(GpuDeviceTest, EinsumMatchesTheCpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  struct Case {
    std::string equation;
    std::vector<TensorShape> inputs;
    int64_t k;
  };
  const std::vector<Case> cases = {
      {"bhqd,bhkd->bhqk", {TensorShape({2, 4, 16, 8}), TensorShape({2, 4, 12, 8})}, 8},
      {"bhqk,bhkd->bhqd", {TensorShape({2, 4, 16, 12}), TensorShape({2, 4, 12, 8})}, 12},
      {"abc,cde->abde", {TensorShape({2, 16, 32}), TensorShape({32, 4, 8})}, 32},
      {"abcd,cde->abe", {TensorShape({2, 16, 4, 8}), TensorShape({4, 8, 32})}, 32},
      {"aecd,abcd->acbe", {TensorShape({2, 3, 4, 5}), TensorShape({2, 6, 4, 5})}, 5},
      {"ji,jk->ik", {TensorShape({7, 3}), TensorShape({7, 5})}, 7},
      {"...ij,...jk->...ik", {TensorShape({2, 1, 3, 4}), TensorShape({5, 4, 6})}, 4},
      {"ijk,jl->il", {TensorShape({3, 4, 5}), TensorShape({4, 6})}, 20},
      {"ii,ij->j", {TensorShape({4, 4}), TensorShape({4, 3})}, 4},
      {"ij,jk->ikk", {TensorShape({2, 3}), TensorShape({3, 4})}, 3},
      {"ij->ji", {TensorShape({5, 7})}, 1},
      {"ijk->k", {TensorShape({3, 4, 5})}, 12},
      {"i->ii", {TensorShape({4})}, 1},
      {"ij,jk->ik", {TensorShape({3, 0}), TensorShape({0, 4})}, 0},
  };
  for (const DataType dtype : {DT_FLOAT, DT_HALF}) {
    for (const Case& c : cases) {
      const int n = static_cast<int>(c.inputs.size());
      const GraphDef graph = ParseGraphOrDie(EinsumGraph(c.equation, n, dtype));
      std::vector<std::pair<std::string, Tensor>> feeds;
      for (int i = 0; i < n; ++i) {
        feeds.emplace_back(absl::StrCat("x", i), RandomTensor(dtype, c.inputs[i], 10 + i));
      }
      const std::vector<Tensor> cpu = RunOn(graph, kCpu, feeds, {"e"});
      const std::vector<Tensor> gpu = RunOn(graph, kGpu, feeds, {"e"});
      ASSERT_EQ(cpu.size(), 1u) << c.equation;
      ASSERT_EQ(gpu.size(), 1u) << c.equation;
      const Tolerance tol = TolFor(dtype, c.k);
      ExpectClose(cpu[0], gpu[0], tol.abs, tol.rel,
                  absl::StrCat("Einsum ", c.equation, " ", DataTypeString(dtype)));
    }
  }
}

// A convolution with its bias, batch norm, residual add and activation, and an elementwise
// chain (Gelu), as the GPU runs them by default: the remapper's _FusedConv2D and the fusion
// pass's _FusedElementwise, placed on the GPU, with the CPU's values.
std::string ConvBlockGraph() {
  const std::string attr_t = "attr { key: 'T' value { type: DT_FLOAT } } ";
  const std::string conv_attrs =
      "attr { key: 'strides' value { list { i: 1 i: 1 i: 1 i: 1 } } } "
      "attr { key: 'padding' value { s: 'SAME' } } ";
  std::string graph;
  for (const char* feed : {"x", "w", "b", "w2", "scale", "offset", "mean", "variance"}) {
    absl::StrAppend(&graph, "node { name: '", feed,
                    "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n");
  }
  absl::StrAppend(
      &graph, "node { name: 'conv' op: 'Conv2D' input: 'x' input: 'w' ", attr_t, conv_attrs, "}\n",
      "node { name: 'bias' op: 'BiasAdd' input: 'conv' input: 'b' ", attr_t, "}\n",
      "node { name: 'relu' op: 'Relu' input: 'bias' ", attr_t, "}\n",
      "node { name: 'conv2' op: 'Conv2D' input: 'relu' input: 'w2' ", attr_t, conv_attrs, "}\n",
      "node { name: 'bn' op: 'FusedBatchNormV3' input: 'conv2' input: 'scale' input: 'offset' "
      "input: 'mean' input: 'variance' ",
      attr_t,
      "attr { key: 'U' value { type: DT_FLOAT } } attr { key: 'is_training' value { b: false } } "
      "attr { key: 'epsilon' value { f: 0.001 } } }\n",
      "node { name: 'residual' op: 'AddV2' input: 'bn' input: 'relu' ", attr_t, "}\n",
      "node { name: 'half' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 0.5 } } } "
      "}\n",
      "node { name: 'root2' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1.4142135 "
      "} } } }\n",
      "node { name: 'one' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } "
      "}\n",
      "node { name: 'scaled' op: 'Mul' input: 'half' input: 'residual' ", attr_t, "}\n",
      "node { name: 'div' op: 'RealDiv' input: 'residual' input: 'root2' ", attr_t, "}\n",
      "node { name: 'erf' op: 'Erf' input: 'div' ", attr_t, "}\n",
      "node { name: 'erf1' op: 'AddV2' input: 'one' input: 'erf' ", attr_t, "}\n",
      "node { name: 'gelu' op: 'Mul' input: 'scaled' input: 'erf1' ", attr_t, "}\n");
  return graph;
}

// The block's feeds: an input of `batch` images (seeded by `seed`) and fixed weights.
std::vector<std::pair<std::string, Tensor>> ConvBlockFeeds(int64_t batch, uint64_t seed) {
  return {{"x", RandomTensor(DT_FLOAT, TensorShape({batch, 9, 9, 8}), seed)},
          {"w", RandomTensor(DT_FLOAT, TensorShape({3, 3, 8, 16}), 2)},
          {"b", RandomTensor(DT_FLOAT, TensorShape({16}), 3)},
          {"w2", RandomTensor(DT_FLOAT, TensorShape({3, 3, 16, 16}), 4)},
          {"scale", RandomTensor(DT_FLOAT, TensorShape({16}), 5, 0.5, 1.5)},
          {"offset", RandomTensor(DT_FLOAT, TensorShape({16}), 6)},
          {"mean", RandomTensor(DT_FLOAT, TensorShape({16}), 7)},
          {"variance", RandomTensor(DT_FLOAT, TensorShape({16}), 8, 0.5, 1.5)}};
}

TEST(GpuDeviceTest, FusedConvolutionsAndElementwiseChainsRunOnTheGpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  const GraphDef graph = ParseGraphOrDie(ConvBlockGraph());
  const std::vector<std::pair<std::string, Tensor>> feeds = ConvBlockFeeds(2, 1);
  const std::vector<Tensor> cpu = RunOn(graph, kCpu, feeds, {"gelu"});
  auto session = NewSessionOrDie(SessionOptions());
  ASSERT_TRUE(session->Create(gpu_test::PinnedTo(graph, kGpu)).ok());
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> gpu;
  const absl::Status s = session->Run(options, feeds, {"gelu"}, {}, &gpu, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  int fused_convs = 0;
  bool fused_chain = false;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) {
      if (!absl::StrContains(node.device(), "GPU")) continue;
      fused_convs += node.op() == "_FusedConv2D";
      fused_chain |= node.op() == "_FusedElementwise";
    }
  }
  EXPECT_EQ(fused_convs, 2);
  EXPECT_TRUE(fused_chain);
  ExpectClose(cpu[0], gpu[0], 1e-4, 1e-4, "convolution block");
}

// SessionOptions::cuda_graphs: the convolution block becomes a _CudaGraph region, run as its
// kernels on the first step, captured on the second, replayed after (each replay copies the
// inputs into the graph's memory and the outputs out of it: device-to-device copies, which the
// kernels themselves do not make). Every step gives the values of a session without graphs on
// the same inputs, and a new batch size is captured anew.
TEST(GpuDeviceTest, CudaGraphsReplayWithTheValuesOfTheKernels) {
  SLUICE_SKIP_WITHOUT_GPU();
  const GraphDef graph = gpu_test::PinnedTo(ParseGraphOrDie(ConvBlockGraph()), kGpu);
  SessionOptions with_graphs;
  with_graphs.cuda_graphs = true;
  auto captured = NewSessionOrDie(with_graphs);
  auto plain = NewSessionOrDie(SessionOptions());
  ASSERT_TRUE(captured->Create(graph).ok());
  ASSERT_TRUE(plain->Create(graph).ok());
  auto gpu = GpuPhysicalDevice::GetOrCreate(0, GpuPhysicalDevice::Options());
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  for (int step = 0; step < 6; ++step) {
    const int64_t batch = step < 4 ? 2 : 3;
    const std::vector<std::pair<std::string, Tensor>> feeds = ConvBlockFeeds(batch, 100 + step);
    std::vector<Tensor> want, got;
    ASSERT_TRUE(plain->Run(feeds, {"gelu"}, {}, &want).ok());
    const int64_t d2d_before = (*gpu)->copy_counts().device_to_device;
    RunOptions options;
    options.set_output_partition_graphs(true);
    RunMetadata metadata;
    const absl::Status s = captured->Run(options, feeds, {"gelu"}, {}, &got, &metadata);
    ASSERT_TRUE(s.ok()) << "step " << step << ": " << s;
    const int64_t d2d = (*gpu)->copy_counts().device_to_device - d2d_before;
    bool region = false;
    for (const GraphDef& partition : metadata.partition_graphs()) {
      for (const NodeDef& node : partition.node()) region |= node.op() == "_CudaGraph";
    }
    EXPECT_TRUE(region) << step;
    // Steps 1-3 and 5 run the graph (captured on 1 and 5): inputs in, outputs out.
    const bool replayed = step == 1 || step == 2 || step == 3 || step == 5;
    if (replayed) {
      EXPECT_GT(d2d, 0) << "step " << step << " did not run a CUDA graph";
    } else {
      EXPECT_EQ(d2d, 0) << step;
    }
    ExpectClose(want[0], got[0], 1e-5, 1e-5, absl::StrCat("CUDA graph step ", step));
  }
}

// A resize keeps the tables of each geometry it has seen: one session resizing to one size,
// another and the first again gives the CPU's values each time.
TEST(GpuDeviceTest, ResizesKeepEachGeometrysTables) {
  SLUICE_SKIP_WITHOUT_GPU();
  const GraphDef graph = ParseGraphOrDie(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
      "node { name: 'size' op: 'Placeholder' attr { key: 'dtype' value { type: DT_INT32 } } }\n"
      "node { name: 'r' op: 'ResizeBilinear' input: 'x' input: 'size' "
      "attr { key: 'T' value { type: DT_FLOAT } } "
      "attr { key: 'half_pixel_centers' value { b: true } } }\n"
      "node { name: 'n' op: 'ResizeNearestNeighbor' input: 'x' input: 'size' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n");
  auto gpu = NewSessionOrDie();
  ASSERT_TRUE(gpu->Create(gpu_test::PinnedTo(graph, kGpu)).ok());
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape({2, 7, 9, 3}), 1);
  for (const std::vector<int32_t>& size :
       {std::vector<int32_t>{11, 5}, std::vector<int32_t>{3, 17}, std::vector<int32_t>{11, 5}}) {
    Tensor size_tensor(DT_INT32, TensorShape({2}));
    size_tensor.flat<int32_t>()(0) = size[0];
    size_tensor.flat<int32_t>()(1) = size[1];
    const std::vector<std::pair<std::string, Tensor>> feeds = {{"x", x}, {"size", size_tensor}};
    const std::vector<Tensor> cpu = RunOn(graph, kCpu, feeds, {"r", "n"});
    std::vector<Tensor> got;
    ASSERT_TRUE(gpu->Run(feeds, {"r", "n"}, {}, &got).ok());
    ExpectClose(cpu[0], got[0], 1e-6, 1e-6, absl::StrCat("bilinear to ", size[0], "x", size[1]));
    ExpectClose(cpu[1], got[1], 0, 0, absl::StrCat("nearest to ", size[0], "x", size[1]));
  }
}

TEST(GpuDeviceTest, RunningOutOfMemoryNamesTheNodeAndTheSessionStaysUsable) {
  SLUICE_SKIP_WITHOUT_GPU();
  auto session = NewSessionOrDie();
  ASSERT_TRUE(session
                  ->Create(gpu_test::PinnedTo(
                      ParseGraphOrDie(MatMulGraph("MatMul", DT_FLOAT, false, false)), kGpu))
                  .ok());
  // [n,1] x [1,n] with n = 200000: a 160 GB product, past any GPU's memory.
  const int64_t n = 200000;
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", RandomTensor(DT_FLOAT, TensorShape({n, 1}), 3)},
                                 {"y", RandomTensor(DT_FLOAT, TensorShape({1, n}), 4)}},
                                {"mm"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "mm")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "GPU:0")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "limit")) << s;
  s = session->Run({{"x", RandomTensor(DT_FLOAT, TensorShape({2, 1}), 3)},
                    {"y", RandomTensor(DT_FLOAT, TensorShape({1, 2}), 4)}},
                   {"mm"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].shape(), TensorShape({2, 2}));
}

TEST(GpuDeviceTest, LargeValuesCrossToTheGpuAndBackIntact) {
  SLUICE_SKIP_WITHOUT_GPU();
  const GraphDef graph = ParseGraphOrDie(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n"
      "node { name: 'y' op: 'Identity' input: 'x' device: '/device:GPU:0' "
      "attr { key: 'T' value { type: DT_FLOAT } } }\n");
  auto session = NewSessionOrDie();
  ASSERT_TRUE(session->Create(graph).ok());
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape({16 << 20}), 5);
  std::vector<Tensor> outputs;
  const absl::Status s = session->Run({{"x", x}}, {"y"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_FALSE(outputs[0].SharesBufferWith(x));
  EXPECT_EQ(outputs[0].tensor_data(), x.tensor_data());
}

// A tf.while_loop that maps Tanh over the rows of x through TensorLists (as TF2 lowers a
// TensorArray): every node in the GPU's partition, x crossing in once and the stacked rows out
// once per step, with the CPU's values.
std::string ListLoopGraph(int rows, int row_size) {
  const std::string frame = "attr { key: 'frame_name' value { s: 'loop' } } ";
  const std::string constant = frame + "attr { key: 'is_constant' value { b: true } } ";
  const std::string list = "attr { key: 'element_dtype' value { type: DT_FLOAT } } ";
  const std::string made = list + "attr { key: 'shape_type' value { type: DT_INT32 } } ";
  auto node = [](const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& type,
                 const std::string& attrs) {
    std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "' ");
    for (const std::string& input : inputs) absl::StrAppend(&text, "input: '", input, "' ");
    if (!type.empty()) absl::StrAppend(&text, "attr { key: 'T' value { type: ", type, " } } ");
    return absl::StrCat(text, attrs, "}\n");
  };
  auto int_const = [](const std::string& name, const std::string& shape,
                      const std::string& values) {
    return absl::StrCat("node { name: '", name,
                        "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } "
                        "attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape { ",
                        shape, " } ", values, " } } } }\n");
  };
  const std::string two = "attr { key: 'N' value { i: 2 } } ";
  return absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n",
      int_const("shape", "dim { size: 1 }", absl::StrCat("int_val: ", row_size)),
      int_const("n", "", absl::StrCat("int_val: ", rows)), int_const("zero", "", "int_val: 0"),
      int_const("one", "", "int_val: 1"),
      node("in", "TensorListFromTensor", {"x", "shape"}, "", made),
      node("reserved", "TensorListReserve", {"shape", "n"}, "", made),
      node("enter_in", "Enter", {"in"}, "DT_VARIANT", constant),
      node("enter_shape", "Enter", {"shape"}, "DT_INT32", constant),
      node("enter_n", "Enter", {"n"}, "DT_INT32", constant),
      node("enter_one", "Enter", {"one"}, "DT_INT32", constant),
      node("enter_out", "Enter", {"reserved"}, "DT_VARIANT", frame),
      node("enter_i", "Enter", {"zero"}, "DT_INT32", frame),
      node("merge_out", "Merge", {"enter_out", "next_out"}, "DT_VARIANT", two),
      node("merge_i", "Merge", {"enter_i", "next_i"}, "DT_INT32", two),
      node("less", "Less", {"merge_i", "enter_n"}, "DT_INT32", ""),
      node("cond", "LoopCond", {"less"}, "", ""),
      node("switch_out", "Switch", {"merge_out", "cond"}, "DT_VARIANT", ""),
      node("switch_i", "Switch", {"merge_i", "cond"}, "DT_INT32", ""),
      node("row", "TensorListGetItem", {"enter_in", "switch_i:1", "enter_shape"}, "", list),
      node("mapped", "Tanh", {"row"}, "DT_FLOAT", ""),
      node("written", "TensorListSetItem", {"switch_out:1", "switch_i:1", "mapped"}, "", list),
      node("body_i", "AddV2", {"switch_i:1", "enter_one"}, "DT_INT32", ""),
      node("next_out", "NextIteration", {"written"}, "DT_VARIANT", ""),
      node("next_i", "NextIteration", {"body_i"}, "DT_INT32", ""),
      node("exit_out", "Exit", {"switch_out"}, "DT_VARIANT", ""),
      node("stacked", "TensorListStack", {"exit_out", "shape"}, "", list));
}

TEST(GpuDeviceTest, LoopsCarryingListsRunOnTheGpu) {
  SLUICE_SKIP_WITHOUT_GPU();
  const GraphDef graph = ParseGraphOrDie(ListLoopGraph(7, 33));
  const std::vector<std::pair<std::string, Tensor>> feeds = {
      {"x", RandomTensor(DT_FLOAT, TensorShape({7, 33}), 11, -3, 3)}};
  const std::vector<Tensor> cpu = RunOn(graph, kCpu, feeds, {"stacked"});
  auto session = NewSessionOrDie();
  ASSERT_TRUE(session->Create(graph).ok());
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> gpu;
  absl::Status s = session->Run(options, feeds, {"stacked"}, {}, &gpu, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) {
      if (absl::StartsWith(node.op(), "TensorList") || node.name() == "mapped") {
        EXPECT_TRUE(absl::StrContains(node.device(), "GPU"))
            << node.name() << " on " << node.device();
      }
    }
  }
  ExpectClose(cpu[0], gpu[0], 1e-6, 1e-6, "list loop");

  auto device = GpuPhysicalDevice::GetOrCreate(0, GpuPhysicalDevice::Options());
  ASSERT_TRUE(device.ok()) << device.status();
  const GpuDeviceContext::CopyCounts before = (*device)->copy_counts();
  s = session->Run(feeds, {"stacked"}, {}, &gpu);
  ASSERT_TRUE(s.ok()) << s;
  const GpuDeviceContext::CopyCounts after = (*device)->copy_counts();
  ExpectClose(cpu[0], gpu[0], 1e-6, 1e-6, "list loop, second step");
  EXPECT_EQ(after.host_to_device - before.host_to_device, 1);
  EXPECT_EQ(after.device_to_host - before.device_to_host, 1);
}

// Device-resident data (CallableOptions.feed_devices/fetch_devices): one session's output on
// the GPU is the next session's input there; the device's copy statistics count one copy in
// (the first feed) and one out (the last fetch).
TEST(GpuDeviceTest, CallablesChainSessionsOnTheGpuWithoutHostCopies) {
  SLUICE_SKIP_WITHOUT_GPU();
  auto producer = NewSessionOrDie();
  ASSERT_TRUE(producer
                  ->Create(ParseGraphOrDie(
                      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: "
                      "DT_FLOAT } } }\n"
                      "node { name: 'y' op: 'Relu' input: 'x' device: '/device:GPU:0' "
                      "attr { key: 'T' value { type: DT_FLOAT } } }\n"))
                  .ok());
  auto consumer = NewSessionOrDie();
  ASSERT_TRUE(consumer
                  ->Create(ParseGraphOrDie(
                      "node { name: 'z' op: 'Placeholder' attr { key: 'dtype' value { type: "
                      "DT_FLOAT } } }\n"
                      "node { name: 'w' op: 'Tanh' input: 'z' device: '/device:GPU:0' "
                      "attr { key: 'T' value { type: DT_FLOAT } } }\n"))
                  .ok());
  CallableOptions produce;
  produce.add_feed("x");
  produce.add_fetch("y");
  (*produce.mutable_fetch_devices())["y"] = kGpu;
  produce.set_fetch_skip_sync(true);
  CallableOptions consume;
  consume.add_feed("z");
  consume.add_fetch("w");
  (*consume.mutable_feed_devices())["z"] = kGpu;
  Session::CallableHandle produce_handle = -1;
  Session::CallableHandle consume_handle = -1;
  ASSERT_TRUE(producer->MakeCallable(produce, &produce_handle).ok());
  ASSERT_TRUE(consumer->MakeCallable(consume, &consume_handle).ok());

  auto gpu = GpuPhysicalDevice::GetOrCreate(0, GpuPhysicalDevice::Options());
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  const GpuDeviceContext::CopyCounts before = (*gpu)->copy_counts();
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape({1000}), 9);
  for (int step = 0; step < 3; ++step) {
    std::vector<Tensor> on_gpu, on_host;
    absl::Status s = producer->RunCallable(produce_handle, {x}, &on_gpu, nullptr);
    ASSERT_TRUE(s.ok()) << s;
    s = consumer->RunCallable(consume_handle, on_gpu, &on_host, nullptr);
    ASSERT_TRUE(s.ok()) << s;
    const auto xs = x.flat<float>();
    const auto ws = on_host[0].flat<float>();
    for (int i = 0; i < 1000; ++i) {
      ASSERT_NEAR(ws(i), std::tanh(std::max(xs(i), 0.0f)), 2e-7) << "element " << i;
    }
  }
  const GpuDeviceContext::CopyCounts after = (*gpu)->copy_counts();
  EXPECT_EQ(after.host_to_device - before.host_to_device, 3);
  EXPECT_EQ(after.device_to_host - before.device_to_host, 3);
  EXPECT_EQ(after.device_to_device - before.device_to_device, 0);
}

TEST(GpuDeviceTest, SessionsShareTheGpuFromManyThreads) {
  SLUICE_SKIP_WITHOUT_GPU();
  const GraphDef graph =
      gpu_test::PinnedTo(ParseGraphOrDie(MatMulGraph("MatMul", DT_FLOAT, false, false)), kGpu);
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape({32, 48}), 6);
  const Tensor y = RandomTensor(DT_FLOAT, TensorShape({48, 16}), 7);
  const std::vector<Tensor> expected = RunOn(graph, kCpu, {{"x", x}, {"y", y}}, {"mm"});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      auto session = NewSessionOrDie();
      ASSERT_TRUE(session->Create(graph).ok());
      for (int step = 0; step < 25; ++step) {
        std::vector<Tensor> outputs;
        const absl::Status s = session->Run({{"x", x}, {"y", y}}, {"mm"}, {}, &outputs);
        ASSERT_TRUE(s.ok()) << s;
        ExpectClose(expected[0], outputs[0], 1e-4, 1e-5, "threaded MatMul");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

}  // namespace
}  // namespace sluice
