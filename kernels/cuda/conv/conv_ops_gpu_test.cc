// Conv2D, DepthwiseConv2dNative, their fused forms (_FusedConv2D, _FusedDepthwiseConv2dNative),
// MaxPool and AvgPool on a real GPU against the CPU kernels.
//
// Each case runs the node on the GPU device and on the CPU device that a session would create
// (DeviceKernelRunner, kernels/cuda/gpu_kernel_test_util.h: inputs copied to the GPU, outputs
// back, the stream synchronised so asynchronous errors surface), on random inputs, the GPU in
// NHWC and NCHW, the CPU in float32 NHWC; NCHW results are transposed back before comparing.
// 16-bit cases give the CPU the float values of their rounded inputs. Tolerances,
// |gpu - cpu| <= atol + rtol * |cpu|: float32 (TF32 off, the session default) 1e-4 + 1e-4;
// float16 1e-2 + 1e-2; bfloat16 2e-2 + 2e-2 (outputs round to 11 and 8 significant bits).
// Max pooling must match exactly. A fused convolution is checked against the CPU's float
// fused kernel (the epilogue's own arithmetic is checked bit for bit on the host,
// conv_epilogue_test.cc).
//
// Skipped, with "no CUDA device", where the process has no GPU device.
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cuda/gpu_kernel_test_util.h"
#include "kernels/kernel_test_util.h"
#include "proto/node_def.pb.h"
#include "runtime/device/device.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

struct Tolerance {
  double atol, rtol;
};
constexpr Tolerance kExact = {0, 0};

Tolerance ToleranceOf(DataType dtype) {
  switch (dtype) {
    case DT_HALF:
      return {1e-2, 1e-2};
    case DT_BFLOAT16:
      return {2e-2, 2e-2};
    default:
      return {1e-4, 1e-4};
  }
}

Tensor RandomFloats(const TensorShape& shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  Tensor t(DT_FLOAT, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<float>()(i) = dist(gen);
  return t;
}

// A float tensor converted to `dtype` (float, half or bfloat16), and back.
Tensor Convert(const Tensor& t, DataType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out(dtype, t.shape());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (dtype == DT_FLOAT) {
      out.flat<float>()(i) = t.dtype() == DT_HALF ? static_cast<float>(t.flat<half>()(i))
                                                  : static_cast<float>(t.flat<bfloat16>()(i));
    } else if (dtype == DT_HALF) {
      out.flat<half>()(i) = static_cast<half>(t.flat<float>()(i));
    } else {
      out.flat<bfloat16>()(i) = static_cast<bfloat16>(t.flat<float>()(i));
    }
  }
  return out;
}

// NHWC <-> NCHW of a float tensor.
Tensor Transpose(const Tensor& t, bool to_nchw) {
  const int64_t n = t.dim_size(0);
  const int64_t h = to_nchw ? t.dim_size(1) : t.dim_size(2);
  const int64_t w = to_nchw ? t.dim_size(2) : t.dim_size(3);
  const int64_t c = to_nchw ? t.dim_size(3) : t.dim_size(1);
  Tensor out(DT_FLOAT, to_nchw ? TensorShape({n, c, h, w}) : TensorShape({n, h, w, c}));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t y = 0; y < h; ++y) {
      for (int64_t x = 0; x < w; ++x) {
        for (int64_t k = 0; k < c; ++k) {
          const int64_t nhwc = ((b * h + y) * w + x) * c + k;
          const int64_t nchw = ((b * c + k) * h + y) * w + x;
          if (to_nchw) {
            out.flat<float>()(nchw) = t.flat<float>()(nhwc);
          } else {
            out.flat<float>()(nhwc) = t.flat<float>()(nchw);
          }
        }
      }
    }
  }
  return out;
}

// Attr lists in `format` order from their NHWC spatial values.
std::vector<int32_t> Spatial(int32_t rows, int32_t cols, bool nchw) {
  return nchw ? std::vector<int32_t>{1, 1, rows, cols} : std::vector<int32_t>{1, rows, cols, 1};
}
std::vector<int64_t> ExplicitPads(const std::vector<int64_t>& tblr, bool nchw) {
  if (tblr.empty()) return {};
  std::vector<int64_t> pads(8, 0);
  const int h = nchw ? 2 : 1;
  pads[2 * h] = tblr[0];
  pads[2 * h + 1] = tblr[1];
  pads[2 * h + 2] = tblr[2];
  pads[2 * h + 3] = tblr[3];
  return pads;
}

struct ConvCase {
  std::string name;
  std::vector<int64_t> input;   // NHWC
  std::vector<int64_t> filter;  // HWIO, or HWCM for depthwise
  int32_t stride, dilation;
  std::string padding;
  std::vector<int64_t> pads;  // top, bottom, left, right for EXPLICIT
};

struct PoolCase {
  std::string name;
  std::vector<int64_t> input;  // NHWC
  int32_t window_rows, window_cols, stride_rows, stride_cols;
  std::string padding;
  std::vector<int64_t> pads;  // MaxPool's EXPLICIT only
};

NodeDef ConvNode(const std::string& op, const ConvCase& c, DataType dtype, bool nchw) {
  return NodeDefBuilder("conv", op)
      .Input("input")
      .Input("filter")
      .Attr("T", dtype)
      .Attr("strides", Spatial(c.stride, c.stride, nchw))
      .Attr("dilations", Spatial(c.dilation, c.dilation, nchw))
      .Attr("padding", c.padding)
      .Attr("explicit_paddings", ExplicitPads(c.pads, nchw))
      .Attr("data_format", nchw ? "NCHW" : "NHWC")
      .Build();
}

// A fused convolution of `c` with `fused_ops` and `num_args` extra arguments of `dtype`.
NodeDef FusedConvNode(const std::string& op, const ConvCase& c, DataType dtype, bool nchw,
                      const std::vector<std::string>& fused_ops, int num_args) {
  NodeDefBuilder b("fused", op);
  b.Input("input").Input("filter");
  for (int i = 0; i < num_args; ++i) b.Input(absl::StrCat("arg", i));
  return b.Attr("T", dtype)
      .Attr("TArgs", std::vector<DataType>(num_args, dtype))
      .Attr("num_args", num_args)
      .Attr("strides", Spatial(c.stride, c.stride, nchw))
      .Attr("dilations", Spatial(c.dilation, c.dilation, nchw))
      .Attr("padding", c.padding)
      .Attr("explicit_paddings", ExplicitPads(c.pads, nchw))
      .Attr("data_format", nchw ? "NCHW" : "NHWC")
      .Attr("fused_ops", fused_ops)
      .Attr("epsilon", 0.001f)
      .Attr("leakyrelu_alpha", 0.3f)
      .Build();
}

NodeDef PoolNode(const std::string& op, const PoolCase& c, DataType dtype, bool nchw) {
  NodeDefBuilder b("pool", op);
  b.Input("input")
      .Attr("T", dtype)
      .Attr("ksize", Spatial(c.window_rows, c.window_cols, nchw))
      .Attr("strides", Spatial(c.stride_rows, c.stride_cols, nchw))
      .Attr("padding", c.padding)
      .Attr("data_format", nchw ? "NCHW" : "NHWC");
  if (op == "MaxPool") b.Attr("explicit_paddings", ExplicitPads(c.pads, nchw));
  return b.Build();
}

class ConvOpsGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(runner().status().ok()) << runner().status();
    if (runner().gpu() == nullptr) GTEST_SKIP() << "no CUDA device";
  }

  static DeviceKernelRunner& runner() { return SharedDeviceKernelRunner(); }

  // Output 0 of `node` run on the GPU (host copy).
  absl::Status RunOnGpu(const NodeDef& node, const std::vector<Tensor>& inputs, Tensor* output) {
    return RunOn(runner().gpu(), node, inputs, output);
  }
  absl::Status RunOnCpu(const NodeDef& node, const std::vector<Tensor>& inputs, Tensor* output) {
    return RunOn(runner().cpu(), node, inputs, output);
  }
  static absl::Status RunOn(Device* device, const NodeDef& node, const std::vector<Tensor>& inputs,
                            Tensor* output) {
    std::vector<Tensor> outputs;
    RETURN_IF_ERROR(runner().Run(device, node, inputs, &outputs));
    *output = outputs[0];
    return absl::OkStatus();
  }

  // The GPU output of `gpu_node` on `inputs` (NHWC floats; the data input is transposed for
  // NCHW, every input converted to `dtype`) against `expected`, within `tol`.
  void ExpectGpuMatches(const NodeDef& gpu_node, const std::vector<Tensor>& inputs, DataType dtype,
                        bool nchw, const Tensor& expected, Tolerance tol, const std::string& what) {
    std::vector<Tensor> gpu_inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      gpu_inputs.push_back(Convert(i == 0 && nchw ? Transpose(inputs[0], true) : inputs[i], dtype));
    }
    Tensor got;
    const absl::Status s = RunOnGpu(gpu_node, gpu_inputs, &got);
    ASSERT_TRUE(s.ok()) << what << ": " << s;
    got = Convert(got, DT_FLOAT);
    if (nchw) got = Transpose(got, false);
    ASSERT_EQ(got.shape(), expected.shape()) << what;
    int bad = 0;
    for (int64_t i = 0; i < got.NumElements() && bad < 5; ++i) {
      const float g = got.flat<float>()(i), e = expected.flat<float>()(i);
      const bool ok = tol.atol == 0 ? g == e : std::abs(g - e) <= tol.atol + tol.rtol * std::abs(e);
      if (!ok) {
        ++bad;
        ADD_FAILURE() << what << ": element " << i << " is " << g << ", the CPU gives " << e;
      }
    }
  }

  // Runs `op` for every case, dtype and format.
  void CheckConvolutions(const std::string& op, const std::vector<ConvCase>& cases) {
    uint32_t seed = 1;
    for (const ConvCase& c : cases) {
      TensorShape input_shape, filter_shape;
      ASSERT_TRUE(TensorShape::BuildTensorShape(c.input, &input_shape).ok());
      ASSERT_TRUE(TensorShape::BuildTensorShape(c.filter, &filter_shape).ok());
      const Tensor input = RandomFloats(input_shape, seed++);
      const Tensor filter = RandomFloats(filter_shape, seed++);
      for (const DataType dtype : {DT_FLOAT, DT_HALF, DT_BFLOAT16}) {
        // The CPU reference sees the values the GPU gets.
        const std::vector<Tensor> inputs = {Convert(Convert(input, dtype), DT_FLOAT),
                                            Convert(Convert(filter, dtype), DT_FLOAT)};
        Tensor expected;
        const absl::Status s = RunOnCpu(ConvNode(op, c, DT_FLOAT, false), inputs, &expected);
        ASSERT_TRUE(s.ok()) << c.name << ": " << s;
        for (const bool nchw : {false, true}) {
          ExpectGpuMatches(
              ConvNode(op, c, dtype, nchw), inputs, dtype, nchw, expected, ToleranceOf(dtype),
              absl::StrCat(op, " ", c.name, " ", DataTypeString(dtype), nchw ? " NCHW" : " NHWC"));
        }
      }
    }
  }

  void CheckPooling(const std::string& op, const std::vector<PoolCase>& cases) {
    uint32_t seed = 100;
    for (const PoolCase& c : cases) {
      TensorShape shape;
      ASSERT_TRUE(TensorShape::BuildTensorShape(c.input, &shape).ok());
      const Tensor input = RandomFloats(shape, seed++);
      for (const DataType dtype : {DT_FLOAT, DT_HALF, DT_BFLOAT16}) {
        const std::vector<Tensor> inputs = {Convert(Convert(input, dtype), DT_FLOAT)};
        Tensor expected;
        const absl::Status s = RunOnCpu(PoolNode(op, c, DT_FLOAT, false), inputs, &expected);
        ASSERT_TRUE(s.ok()) << c.name << ": " << s;
        // A max is one of the inputs, exactly representable in every dtype.
        const Tolerance tol = op == "MaxPool" ? kExact : ToleranceOf(dtype);
        for (const bool nchw : {false, true}) {
          ExpectGpuMatches(
              PoolNode(op, c, dtype, nchw), inputs, dtype, nchw, expected, tol,
              absl::StrCat(op, " ", c.name, " ", DataTypeString(dtype), nchw ? " NCHW" : " NHWC"));
        }
      }
    }
  }
};

TEST_F(ConvOpsGpuTest, Conv2DMatchesCpu) {
  CheckConvolutions(
      "Conv2D",
      {
          {"1x1 batch 1", {1, 5, 5, 3}, {1, 1, 3, 4}, 1, 1, "VALID", {}},
          {"3x3 SAME batch 3", {3, 7, 7, 4}, {3, 3, 4, 6}, 1, 1, "SAME", {}},
          // SAME pads 0 before and 1 after: the input gets the extra row and column.
          {"stride 2 SAME asymmetric", {3, 8, 8, 3}, {3, 3, 3, 5}, 2, 1, "SAME", {}},
          {"stride 2 SAME symmetric", {1, 7, 9, 3}, {3, 3, 3, 4}, 2, 1, "SAME", {}},
          {"5x5 stride 2 SAME", {1, 12, 12, 8}, {5, 5, 8, 16}, 2, 1, "SAME", {}},
          {"dilation 2 SAME", {2, 9, 9, 4}, {3, 3, 4, 6}, 1, 2, "SAME", {}},
          {"dilation 2 VALID", {1, 10, 11, 2}, {2, 3, 2, 3}, 1, 2, "VALID", {}},
          {"explicit asymmetric", {2, 6, 5, 3}, {3, 2, 3, 4}, 1, 1, "EXPLICIT", {1, 2, 2, 0}},
          {"grouped", {2, 6, 6, 4}, {3, 3, 2, 6}, 1, 1, "SAME", {}},
      });
}

TEST_F(ConvOpsGpuTest, DepthwiseConv2dNativeMatchesCpu) {
  CheckConvolutions(
      "DepthwiseConv2dNative",
      {
          {"3x3 SAME multiplier 2", {1, 6, 6, 3}, {3, 3, 3, 2}, 1, 1, "SAME", {}},
          {"stride 2 SAME asymmetric batch 3", {3, 8, 8, 4}, {3, 3, 4, 1}, 2, 1, "SAME", {}},
          {"dilation 2", {2, 9, 9, 3}, {3, 3, 3, 2}, 1, 2, "SAME", {}},
          {"1x1 VALID", {1, 4, 4, 5}, {1, 1, 5, 3}, 1, 1, "VALID", {}},
          {"explicit", {1, 5, 6, 2}, {2, 2, 2, 1}, 1, 1, "EXPLICIT", {0, 1, 1, 0}},
      });
}

// Every fusion the remapper writes, on the GPU in both formats and three dtypes, against the
// CPU's float _FusedConv2D (NHWC) on the same values. The residual addend and the data are
// transposed for NCHW; per-channel arguments are not.
TEST_F(ConvOpsGpuTest, FusedConvolutionsMatchCpu) {
  const ConvCase conv = {"3x3 stride 2 SAME", {2, 9, 9, 4}, {3, 3, 4, 6}, 2, 1, "SAME", {}};
  const ConvCase depthwise = {"depthwise", {2, 8, 8, 3}, {3, 3, 3, 2}, 1, 1, "SAME", {}};
  const TensorShape conv_out({2, 5, 5, 6}), depthwise_out({2, 8, 8, 6});
  struct Fusion {
    std::vector<std::string> ops;
    int num_args;
    bool depthwise;
  };
  const std::vector<Fusion> fusions = {
      {{"BiasAdd"}, 1, false},
      {{"BiasAdd", "Relu"}, 1, false},
      {{"BiasAdd", "Relu6"}, 1, false},
      {{"BiasAdd", "Elu"}, 1, false},
      {{"BiasAdd", "LeakyRelu"}, 1, false},
      {{"BiasAdd", "_FusedSwish"}, 1, false},
      {{"FusedBatchNorm"}, 4, false},
      {{"FusedBatchNorm", "Relu6"}, 4, false},
      {{"BiasAdd", "Add"}, 2, false},
      {{"BiasAdd", "Add", "Relu"}, 2, false},
      {{"BiasAdd", "Relu6"}, 1, true},
      {{"BiasAdd", "_FusedSwish"}, 1, true},
  };
  uint32_t seed = 300;
  for (const Fusion& f : fusions) {
    const ConvCase& c = f.depthwise ? depthwise : conv;
    const std::string op = f.depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedConv2D";
    TensorShape input_shape, filter_shape;
    ASSERT_TRUE(TensorShape::BuildTensorShape(c.input, &input_shape).ok());
    ASSERT_TRUE(TensorShape::BuildTensorShape(c.filter, &filter_shape).ok());
    const TensorShape& out_shape = f.depthwise ? depthwise_out : conv_out;
    const int64_t channels = out_shape.dim_size(3);
    std::vector<Tensor> inputs = {RandomFloats(input_shape, seed++),
                                  RandomFloats(filter_shape, seed++)};
    for (int i = 0; i < f.num_args; ++i) {
      const bool addend = f.ops.size() > 1 && f.ops[1] == "Add" && i == 1;
      Tensor t = RandomFloats(addend ? out_shape : TensorShape({channels}), seed++);
      // A positive variance.
      if (f.ops[0] == "FusedBatchNorm" && i == 3) {
        for (int64_t k = 0; k < channels; ++k) t.flat<float>()(k) = 0.5f + t.flat<float>()(k) / 4;
      }
      inputs.push_back(t);
    }
    const std::string name = absl::StrCat(op, " [", absl::StrJoin(f.ops, ","), "]");
    for (const DataType dtype : {DT_FLOAT, DT_HALF, DT_BFLOAT16}) {
      std::vector<Tensor> rounded;
      for (const Tensor& t : inputs) rounded.push_back(Convert(Convert(t, dtype), DT_FLOAT));
      Tensor expected;
      // The CPU registers _FusedDepthwiseConv2dNative for float, and _FusedConv2D too.
      const absl::Status s =
          RunOnCpu(FusedConvNode(op, c, DT_FLOAT, false, f.ops, f.num_args), rounded, &expected);
      ASSERT_TRUE(s.ok()) << name << ": " << s;
      for (const bool nchw : {false, true}) {
        std::vector<Tensor> gpu_inputs = rounded;
        const bool has_addend = f.ops.size() > 1 && f.ops[1] == "Add";
        if (nchw && has_addend) gpu_inputs[3] = Transpose(gpu_inputs[3], true);
        ExpectGpuMatches(FusedConvNode(op, c, dtype, nchw, f.ops, f.num_args), gpu_inputs, dtype,
                         nchw, expected, ToleranceOf(dtype),
                         absl::StrCat(name, " ", DataTypeString(dtype), nchw ? " NCHW" : " NHWC"));
      }
    }
  }
}

// The CPU kernel's errors: a bias of the wrong length, an addend of the wrong shape.
TEST_F(ConvOpsGpuTest, FusedConvolutionArgumentsAreChecked) {
  const ConvCase c = {"1x1", {1, 4, 4, 3}, {1, 1, 3, 2}, 1, 1, "VALID", {}};
  const Tensor input = RandomFloats(TensorShape({1, 4, 4, 3}), 1);
  const Tensor filter = RandomFloats(TensorShape({1, 1, 3, 2}), 2);
  const std::vector<std::vector<Tensor>> cases = {
      {input, filter, RandomFloats(TensorShape({3}), 3)},
      {input, filter, RandomFloats(TensorShape({2}), 3),
       RandomFloats(TensorShape({1, 4, 4, 3}), 4)},
  };
  for (const std::vector<Tensor>& inputs : cases) {
    const int num_args = static_cast<int>(inputs.size()) - 2;
    const std::vector<std::string> ops = num_args == 1 ? std::vector<std::string>{"BiasAdd"}
                                                       : std::vector<std::string>{"BiasAdd", "Add"};
    const NodeDef node = FusedConvNode("_FusedConv2D", c, DT_FLOAT, false, ops, num_args);
    Tensor cpu_out, gpu_out;
    const absl::Status cpu = RunOnCpu(node, inputs, &cpu_out);
    const absl::Status gpu = RunOnGpu(node, inputs, &gpu_out);
    ASSERT_FALSE(cpu.ok());
    EXPECT_EQ(gpu.code(), cpu.code()) << gpu;
    EXPECT_EQ(gpu.message(), cpu.message());
  }
}

const std::vector<PoolCase>& PoolCases() {
  static const auto* cases = new std::vector<PoolCase>{
      // Asymmetric SAME where cuDNN's symmetric padding would drop a window: direct kernel.
      {"3x3 stride 2 SAME asymmetric", {2, 8, 8, 3}, 3, 3, 2, 2, "SAME", {}},
      {"3x2 stride 1 SAME", {1, 5, 6, 3}, 3, 2, 1, 1, "SAME", {}},
      // Symmetric SAME and VALID: cuDNN (float, half).
      {"3x3 stride 2 SAME symmetric", {1, 7, 7, 4}, 3, 3, 2, 2, "SAME", {}},
      {"2x2 stride 2 VALID batch 3", {3, 6, 6, 2}, 2, 2, 2, 2, "VALID", {}},
      {"window as large as the input", {1, 4, 5, 2}, 4, 5, 1, 1, "SAME", {}},
  };
  return *cases;
}

TEST_F(ConvOpsGpuTest, MaxPoolMatchesCpu) {
  std::vector<PoolCase> cases = PoolCases();
  cases.push_back({"explicit", {1, 6, 6, 2}, 3, 3, 2, 2, "EXPLICIT", {1, 2, 0, 1}});
  CheckPooling("MaxPool", cases);
}

TEST_F(ConvOpsGpuTest, AvgPoolMatchesCpu) { CheckPooling("AvgPool", PoolCases()); }

TEST_F(ConvOpsGpuTest, EmptyBatchGivesTheOutputShape) {
  const ConvCase conv = {"empty", {0, 5, 5, 3}, {3, 3, 3, 2}, 2, 1, "SAME", {}};
  const PoolCase pool = {"empty", {0, 5, 5, 3}, 3, 3, 2, 2, "SAME", {}};
  for (const bool nchw : {false, true}) {
    const Tensor input(DT_FLOAT, nchw ? TensorShape({0, 3, 5, 5}) : TensorShape({0, 5, 5, 3}));
    const Tensor filter = RandomFloats(TensorShape({3, 3, 3, 2}), 7);
    Tensor out;
    ASSERT_TRUE(RunOnGpu(ConvNode("Conv2D", conv, DT_FLOAT, nchw), {input, filter}, &out).ok());
    EXPECT_EQ(out.shape(), nchw ? TensorShape({0, 2, 3, 3}) : TensorShape({0, 3, 3, 2}));
    ASSERT_TRUE(
        RunOnGpu(ConvNode("DepthwiseConv2dNative", conv, DT_FLOAT, nchw), {input, filter}, &out)
            .ok());
    EXPECT_EQ(out.shape(), nchw ? TensorShape({0, 6, 3, 3}) : TensorShape({0, 3, 3, 6}));
    for (const char* op : {"MaxPool", "AvgPool"}) {
      ASSERT_TRUE(RunOnGpu(PoolNode(op, pool, DT_FLOAT, nchw), {input}, &out).ok()) << op;
      EXPECT_EQ(out.shape(), TensorShape({0, 3, 3, 3})) << op;
    }
  }
}

// No input rows, but explicit padding makes windows of padding only: zeros, as on the CPU.
TEST_F(ConvOpsGpuTest, WindowsOfPaddingOnlyGiveZeros) {
  const ConvCase c = {"padding only", {1, 0, 2, 1}, {1, 1, 1, 1}, 1, 1, "EXPLICIT", {1, 1, 0, 0}};
  Tensor out;
  ASSERT_TRUE(RunOnGpu(ConvNode("Conv2D", c, DT_FLOAT, false),
                       {Tensor(DT_FLOAT, TensorShape({1, 0, 2, 1})),
                        MakeTensor<float>(TensorShape({1, 1, 1, 1}), {3})},
                       &out)
                  .ok());
  ASSERT_EQ(out.shape(), TensorShape({1, 2, 2, 1}));
  for (int64_t i = 0; i < out.NumElements(); ++i) EXPECT_EQ(out.flat<float>()(i), 0.0f);
}

TEST_F(ConvOpsGpuTest, BadShapesFailAsOnTheCpu) {
  const ConvCase c = {"bad depth", {1, 4, 4, 3}, {2, 2, 2, 2}, 1, 1, "SAME", {}};
  const std::vector<Tensor> inputs = {RandomFloats(TensorShape({1, 4, 4, 3}), 1),
                                      RandomFloats(TensorShape({2, 2, 2, 2}), 2)};
  for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
    Tensor cpu_out, gpu_out;
    const absl::Status cpu = RunOnCpu(ConvNode(op, c, DT_FLOAT, false), inputs, &cpu_out);
    const absl::Status gpu = RunOnGpu(ConvNode(op, c, DT_FLOAT, false), inputs, &gpu_out);
    ASSERT_FALSE(cpu.ok()) << op;
    EXPECT_EQ(gpu.code(), cpu.code()) << op << ": " << gpu;
    EXPECT_EQ(gpu.message(), cpu.message()) << op;
  }
  // Pooling over channels is the CPU's own; GPUs refuse it as TensorFlow's do.
  const NodeDef depth_pool = NodeDefBuilder("pool", "MaxPool")
                                 .Input("input")
                                 .Attr("T", DT_FLOAT)
                                 .Attr("ksize", std::vector<int32_t>{1, 1, 1, 3})
                                 .Attr("strides", std::vector<int32_t>{1, 1, 1, 3})
                                 .Attr("padding", "VALID")
                                 .Build();
  Tensor out;
  EXPECT_EQ(RunOnGpu(depth_pool, {inputs[0]}, &out).code(), absl::StatusCode::kUnimplemented);
}

// Runs `kernel` (built for `device`, a GPU) on device copies of `inputs`; *output is a host
// copy of its output 0.
absl::Status RunKernel(Device* device, OpKernel* kernel, const std::vector<Tensor>& inputs,
                       Tensor* output) {
  GpuDeviceContext* gpu = device->gpu_device_context();
  std::vector<Tensor> on_device;
  for (const Tensor& t : inputs) {
    on_device.emplace_back(device->GetAllocator(), t.dtype(), t.shape());
    RETURN_IF_ERROR(gpu->CopyHostToDevice(t, &on_device.back()));
  }
  TestInvocation call(kernel, device, std::move(on_device));
  device->Compute(kernel, call.context());
  RETURN_IF_ERROR(call.context()->status());
  const Tensor& out = *call.context()->mutable_output(0);
  *output = Tensor(out.dtype(), out.shape());
  return gpu->CopyDeviceToHost(out, output);
}

// The algorithm is chosen on a kernel's first call for a shape (cuDNN times its candidates on
// the real operands) and reused on the next: both give the same bits.
TEST_F(ConvOpsGpuTest, SecondCallReusesTheAlgorithm) {
  const ConvCase c = {"twice", {2, 9, 9, 8}, {3, 3, 8, 8}, 1, 1, "SAME", {}};
  Device* gpu = runner().gpu();
  std::unique_ptr<OpKernel> kernel;
  ASSERT_TRUE(CreateOpKernel(DEVICE_GPU, gpu, gpu->GetAllocator(),
                             ConvNode("Conv2D", c, DT_FLOAT, false), &kernel)
                  .ok());
  const std::vector<Tensor> inputs = {RandomFloats(TensorShape({2, 9, 9, 8}), 3),
                                      RandomFloats(TensorShape({3, 3, 8, 8}), 4)};
  Tensor first, second;
  ASSERT_TRUE(RunKernel(gpu, kernel.get(), inputs, &first).ok());
  ASSERT_TRUE(RunKernel(gpu, kernel.get(), inputs, &second).ok());
  ASSERT_EQ(first.shape(), second.shape());
  for (int64_t i = 0; i < first.NumElements(); ++i) {
    EXPECT_EQ(first.flat<float>()(i), second.flat<float>()(i)) << i;
  }
}

// A read-only filter (a Const's) is rewritten into cuDNN's layout once and reused; another
// read-only filter replaces the cached copy. Outputs equal a fresh kernel's each time.
TEST_F(ConvOpsGpuTest, ReadOnlyFiltersAreRewrittenOnce) {
  const ConvCase c = {"cached", {1, 6, 6, 4}, {3, 3, 4, 5}, 1, 1, "SAME", {}};
  Device* gpu = runner().gpu();
  GpuDeviceContext* context = gpu->gpu_device_context();
  const auto upload = [&](const Tensor& host) {
    Tensor device(gpu->GetAllocator(), host.dtype(), host.shape());
    EXPECT_TRUE(context->CopyHostToDevice(host, &device).ok());
    return device;
  };
  const Tensor input = upload(RandomFloats(TensorShape({1, 6, 6, 4}), 5));
  Tensor first_filter = upload(RandomFloats(TensorShape({3, 3, 4, 5}), 6));
  Tensor second_filter = upload(RandomFloats(TensorShape({3, 3, 4, 5}), 7));
  first_filter.MarkReadOnly();
  second_filter.MarkReadOnly();
  // Output 0 of `kernel` on device tensors, as a host copy.
  const auto run = [&](OpKernel* kernel, const Tensor& filter, Tensor* output) {
    TestInvocation call(kernel, gpu, {input, filter});
    gpu->Compute(kernel, call.context());
    ASSERT_TRUE(call.context()->status().ok()) << call.context()->status();
    const Tensor& out = *call.context()->mutable_output(0);
    *output = Tensor(out.dtype(), out.shape());
    ASSERT_TRUE(context->CopyDeviceToHost(out, output).ok());
  };
  const auto make = [&](std::unique_ptr<OpKernel>* kernel) {
    ASSERT_TRUE(CreateOpKernel(DEVICE_GPU, gpu, gpu->GetAllocator(),
                               ConvNode("Conv2D", c, DT_FLOAT, false), kernel)
                    .ok());
  };
  std::unique_ptr<OpKernel> cached, fresh;
  make(&cached);
  for (const Tensor* filter : {&first_filter, &first_filter, &second_filter, &first_filter}) {
    Tensor got, want;
    run(cached.get(), *filter, &got);
    make(&fresh);
    run(fresh.get(), *filter, &want);
    ASSERT_EQ(got.shape(), want.shape());
    for (int64_t i = 0; i < got.NumElements(); ++i) {
      ASSERT_NEAR(got.flat<float>()(i), want.flat<float>()(i), 1e-4) << i;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
