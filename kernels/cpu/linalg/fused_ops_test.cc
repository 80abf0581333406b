// _FusedConv2D / _FusedDepthwiseConv2dNative / _FusedMatMul: what the TensorFlow fixtures
// (tests/kernels/fixtures/fused.pbtxt) cannot show — batch norm folded once and refolded when
// its arguments change, the oneDNN path against the plain-loop one on a shape large enough
// to run in parallel, attrs TensorFlow rejects while building a graph, and buffer reuse.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/winograd_conv.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

std::vector<float> Random(int64_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

std::vector<double> ToDouble(const std::vector<float>& v) {
  return std::vector<double>(v.begin(), v.end());
}

class FusedOpsTest : public KernelTest {
 protected:
  absl::Status InitConv(DataType dtype, std::vector<std::string> fused_ops, int num_args) {
    NodeDefBuilder b("fused", "_FusedConv2D");
    b.Input("input").Input("filter");
    for (int i = 0; i < num_args; ++i) b.Input("arg" + std::to_string(i));
    return InitOp(b.Attr("T", dtype)
                      .Attr("TArgs", std::vector<DataType>(num_args, dtype))
                      .Attr("num_args", num_args)
                      .Attr("strides", std::vector<int32_t>{1, 1, 1, 1})
                      .Attr("padding", "SAME")
                      .Attr("fused_ops", fused_ops)
                      .Attr("epsilon", 0.001f)
                      .Build());
  }
};

// y = (conv - mean) * scale / sqrt(var + eps) + offset, then Relu, per output channel.
TEST_F(FusedOpsTest, BatchNormIsRefoldedWhenItsArgumentsChange) {
  ASSERT_TRUE(InitConv(DT_FLOAT, {"FusedBatchNorm", "Relu"}, 4).ok());
  const Tensor input = MakeTensor<float>(TensorShape({1, 1, 1, 1}), {2});
  const Tensor filter = MakeTensor<float>(TensorShape({1, 1, 1, 2}), {1, -1});
  const Tensor offset = MakeTensor<float>(TensorShape({2}), {0.5f, 10});
  const Tensor mean = MakeTensor<float>(TensorShape({2}), {1, 0});
  const Tensor var = MakeTensor<float>(TensorShape({2}), {3.999f, 0.999f});
  for (const float s : {1.0f, 2.0f}) {
    const Tensor scale = MakeTensor<float>(TensorShape({2}), {s, s});
    for (int run = 0; run < 2; ++run) {
      for (const Tensor* t : {&input, &filter, &scale, &offset, &mean, &var}) AddInput(*t);
      ASSERT_TRUE(RunOpKernel().ok());
      const std::vector<float> got = Values<float>(*GetOutput(0));
      EXPECT_NEAR(got[0], (2 - 1) * s / 2 + 0.5f, 1e-5);
      EXPECT_NEAR(got[1], std::max(0.0f, -2 * s + 10), 1e-5);
      InitConv(DT_FLOAT, {"FusedBatchNorm", "Relu"}, 4).IgnoreError();
    }
  }
}

// The same convolution in float (oneDNN, folded batch norm) and in double (plain loops and
// the epilogue loop) on an output large enough for ParallelFor to split.
TEST_F(FusedOpsTest, OneDnnAgreesWithPlainLoopsOnLargeShapes) {
  const TensorShape in_shape({2, 24, 24, 16}), f_shape({3, 3, 16, 32});
  const std::vector<float> in = Random(in_shape.num_elements(), 1);
  const std::vector<float> f = Random(f_shape.num_elements(), 2);
  const std::vector<std::vector<float>> args = {Random(32, 3, 0.5, 2), Random(32, 4), Random(32, 5),
                                                Random(32, 6, 0.1, 1)};
  for (const char* act : {"Relu6", "Elu", "LeakyRelu", "_FusedSwish"}) {
    ASSERT_TRUE(InitConv(DT_FLOAT, {"FusedBatchNorm", act}, 4).ok());
    AddInputFromArray<float>(in_shape, in);
    AddInputFromArray<float>(f_shape, f);
    for (const auto& a : args) AddInputFromArray<float>(TensorShape({32}), a);
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<float> got = Values<float>(*GetOutput(0));

    ASSERT_TRUE(InitConv(DT_DOUBLE, {"FusedBatchNorm", act}, 4).ok());
    AddInputFromArray<double>(in_shape, ToDouble(in));
    AddInputFromArray<double>(f_shape, ToDouble(f));
    for (const auto& a : args) AddInputFromArray<double>(TensorShape({32}), ToDouble(a));
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<double> want = Values<double>(*GetOutput(0));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << act << " at " << i;
    }
  }
}

// Stride-1 3x3 convolutions with 32 channels take the Winograd path (F(4x4, 3x3)) for the
// epilogues it applies, and oneDNN's for the others (Elu, Swish); every one must agree with
// the double plain loops.
TEST_F(FusedOpsTest, WinogradPathAgreesWithPlainLoops) {
  const TensorShape in_shape({2, 16, 15, 32}), f_shape({3, 3, 32, 32});
  const TensorShape out_shape({2, 16, 15, 32});
  ConvGeometry geo;
  geo.batch = 2;
  geo.in_rows = geo.out_rows = 16;
  geo.in_cols = geo.out_cols = 15;
  geo.in_depth = geo.out_depth = 32;
  geo.filter_rows = geo.filter_cols = 3;
  geo.pad_top = geo.pad_bottom = geo.pad_left = geo.pad_right = 1;
  ASSERT_EQ(WinogradConv::TileSize(geo), 4) << "the shape no longer takes the Winograd path";

  const std::vector<float> in = Random(in_shape.num_elements(), 21);
  const std::vector<float> f = Random(f_shape.num_elements(), 22, -0.2f, 0.2f);
  const std::vector<float> addend = Random(out_shape.num_elements(), 23, -2, 2);
  const std::vector<std::vector<float>> bn_args = {Random(32, 24, 0.5, 2), Random(32, 25),
                                                   Random(32, 26), Random(32, 27, 0.1, 1)};
  const std::vector<std::vector<std::string>> fusions = {
      {"BiasAdd"},
      {"BiasAdd", "Relu"},
      {"BiasAdd", "Add", "Relu"},
      {"BiasAdd", "Add", "Relu6"},
      {"FusedBatchNorm", "Relu6"},
      {"FusedBatchNorm", "LeakyRelu"},
      {"BiasAdd", "Elu"},
      {"FusedBatchNorm", "_FusedSwish"},
  };
  for (const std::vector<std::string>& ops : fusions) {
    const bool batch_norm = ops[0] == "FusedBatchNorm";
    const bool add = ops.size() > 1 && ops[1] == "Add";
    const int num_args = batch_norm ? 4 : (add ? 2 : 1);
    SCOPED_TRACE(ops.back());
    std::vector<double> want;
    std::vector<float> got;
    for (DataType dtype : {DT_DOUBLE, DT_FLOAT}) {
      ASSERT_TRUE(InitConv(dtype, ops, num_args).ok());
      const auto add_input = [&](const TensorShape& shape, const std::vector<float>& v) {
        if (dtype == DT_FLOAT) {
          AddInputFromArray<float>(shape, v);
        } else {
          AddInputFromArray<double>(shape, ToDouble(v));
        }
      };
      add_input(in_shape, in);
      add_input(f_shape, f);
      if (batch_norm) {
        for (const auto& a : bn_args) add_input(TensorShape({32}), a);
      } else {
        add_input(TensorShape({32}), bn_args[1]);
        if (add) add_input(out_shape, addend);
      }
      ASSERT_TRUE(RunOpKernel().ok());
      if (dtype == DT_FLOAT) {
        got = Values<float>(*GetOutput(0));
      } else {
        want = Values<double>(*GetOutput(0));
      }
    }
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << i;
    }
  }
}

// The residual fusion: relu(conv + bias + addend), the float path (oneDNN's sum post-op)
// against the double one (plain loops), with the addend's buffer taken over when the kernel
// holds the only reference and copied when someone else holds it too.
TEST_F(FusedOpsTest, ResidualAddMatchesPlainLoops) {
  const TensorShape in_shape({2, 7, 7, 8}), f_shape({3, 3, 8, 16}), out_shape({2, 7, 7, 16});
  const std::vector<float> in = Random(in_shape.num_elements(), 11);
  const std::vector<float> f = Random(f_shape.num_elements(), 12);
  const std::vector<float> bias = Random(16, 13);
  const std::vector<float> addend = Random(out_shape.num_elements(), 14, -3, 3);
  for (const char* act : {"", "Relu", "Relu6", "LeakyRelu"}) {
    std::vector<std::string> ops = {"BiasAdd", "Add"};
    if (*act != '\0') ops.push_back(act);
    ASSERT_TRUE(InitConv(DT_DOUBLE, ops, 2).ok());
    AddInputFromArray<double>(in_shape, ToDouble(in));
    AddInputFromArray<double>(f_shape, ToDouble(f));
    AddInputFromArray<double>(TensorShape({16}), ToDouble(bias));
    AddInputFromArray<double>(out_shape, ToDouble(addend));
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<double> want = Values<double>(*GetOutput(0));

    for (const bool shared : {false, true}) {
      SCOPED_TRACE(std::string(act) + (shared ? ", shared addend" : ", own addend"));
      ASSERT_TRUE(InitConv(DT_FLOAT, ops, 2).ok());
      AddInputFromArray<float>(in_shape, in);
      AddInputFromArray<float>(f_shape, f);
      AddInputFromArray<float>(TensorShape({16}), bias);
      Tensor addend_tensor = MakeTensor<float>(out_shape, addend);
      AddInput(addend_tensor);
      if (!shared) addend_tensor = Tensor();
      ASSERT_TRUE(RunOpKernel().ok());
      const std::vector<float> got = Values<float>(*GetOutput(0));
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << i;
      }
      // A tensor someone else holds is never written.
      if (shared) EXPECT_EQ(Values<float>(addend_tensor), addend);
    }
  }
}

// A read-only b [k, 1024] (a Const's value) is multiplied as a copy with padded rows; small
// integers keep the float sums exact, so the result equals relu(a * b + bias) exactly.
TEST_F(FusedOpsTest, MatMulOnReadOnlyWeightsWithRowsOf4KiB) {
  constexpr int64_t kM = 9, kK = 20, kN = 1024;
  std::vector<float> a(kM * kK), b(kK * kN), bias(kN);
  std::mt19937 gen(31);
  std::uniform_int_distribution<int> dist(-4, 4);
  for (float& x : a) x = dist(gen);
  for (float& x : b) x = dist(gen);
  for (float& x : bias) x = dist(gen);
  ASSERT_TRUE(InitOp(NodeDefBuilder("fused", "_FusedMatMul")
                         .Input("a")
                         .Input("b")
                         .Input("bias")
                         .Attr("T", DT_FLOAT)
                         .Attr("num_args", 1)
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "Relu"})
                         .Build())
                  .ok());
  Tensor weights = MakeTensor<float>(TensorShape({kK, kN}), b);
  weights.MarkReadOnly();
  AddInputFromArray<float>(TensorShape({kM, kK}), a);
  AddInput(weights);
  AddInputFromArray<float>(TensorShape({kN}), bias);
  for (int run = 0; run < 2; ++run) {  // the second run reuses the copy
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<float> got = Values<float>(*GetOutput(0));
    ASSERT_EQ(got.size(), static_cast<size_t>(kM * kN));
    for (int64_t i = 0; i < kM; ++i) {
      for (int64_t j = 0; j < kN; ++j) {
        double sum = bias[j];
        for (int64_t l = 0; l < kK; ++l) sum += double(a[i * kK + l]) * b[l * kN + j];
        ASSERT_EQ(got[i * kN + j], std::max(sum, 0.0)) << i << ", " << j << " run " << run;
      }
    }
  }
}

TEST_F(FusedOpsTest, ResidualAddErrors) {
  // Wrong num_args, an activation the fusion does not take, or Add without BiasAdd first.
  EXPECT_EQ(InitConv(DT_FLOAT, {"BiasAdd", "Add", "Relu"}, 1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InitConv(DT_FLOAT, {"BiasAdd", "Add", "_FusedSwish"}, 2).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(InitConv(DT_FLOAT, {"FusedBatchNorm", "Add"}, 5).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(InitConv(DT_FLOAT, {"BiasAdd", "Add", "Relu", "Relu"}, 2).code(),
            absl::StatusCode::kUnimplemented);
  // An addend that would need broadcasting.
  for (const TensorShape& shape :
       {TensorShape({2}), TensorShape({1, 2, 2, 1}), TensorShape({2, 2, 2, 2})}) {
    ASSERT_TRUE(InitConv(DT_FLOAT, {"BiasAdd", "Add"}, 2).ok());
    AddInputFromArray<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
    AddInputFromArray<float>(TensorShape({1, 1, 1, 2}), {1, 2});
    AddInputFromArray<float>(TensorShape({2}), {0, 0});
    AddInputFromArray<float>(shape, std::vector<float>(shape.num_elements(), 1.0f));
    const absl::Status s = RunOpKernel();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_NE(std::string(s.message()).find("addend"), std::string::npos) << s;
  }
}

TEST_F(FusedOpsTest, AttrErrors) {
  EXPECT_EQ(InitConv(DT_FLOAT, {}, 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InitConv(DT_FLOAT, {"BiasAdd", "Tanh"}, 1).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(InitConv(DT_FLOAT, {"BiasAdd", "Relu", "Relu"}, 1).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(InitConv(DT_FLOAT, {"FusedBatchNorm"}, 1).code(), absl::StatusCode::kInvalidArgument);
  const absl::Status s =
      InitOp(NodeDefBuilder("fused", "_FusedMatMul")
                 .Input("a")
                 .Input("b")
                 .Input("bias")
                 .Attr("T", DT_HALF)
                 .Attr("num_args", 1)
                 .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "GeluExact"})
                 .Build());
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
}

// Inputs TensorFlow's oneDNN kernels abort on or do not check, so the fixtures lack them.
TEST_F(FusedOpsTest, BadInputsAreInvalidArgument) {
  const Tensor input = MakeTensor<float>(TensorShape({1, 2, 2, 1}), {1, 2, 3, 4});
  const Tensor filter = MakeTensor<float>(TensorShape({1, 1, 1, 2}), {1, 2});
  const Tensor two = MakeTensor<float>(TensorShape({2}), {1, 1});
  const Tensor three = MakeTensor<float>(TensorShape({3}), {1, 1, 1});
  const Tensor row = MakeTensor<float>(TensorShape({1, 2}), {1, 1});
  const std::vector<std::vector<Tensor>> bias_cases = {
      {input, filter, three},
      {input, filter, row},
      {MakeTensor<float>(TensorShape({2, 2, 1}), {1, 2, 3, 4}), filter, two}};
  for (const auto& inputs : bias_cases) {
    ASSERT_TRUE(InitConv(DT_FLOAT, {"BiasAdd", "Relu"}, 1).ok());
    for (const Tensor& t : inputs) AddInput(t);
    const absl::Status s = RunOpKernel();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  }
  // TArgs may name another type than T; the kernels would read its bytes as T.
  ASSERT_TRUE(InitOp(NodeDefBuilder("fused", "_FusedConv2D")
                         .Input("input")
                         .Input("filter")
                         .Input("bias")
                         .Attr("T", DT_FLOAT)
                         .Attr("TArgs", std::vector<DataType>{DT_DOUBLE})
                         .Attr("num_args", 1)
                         .Attr("strides", std::vector<int32_t>{1, 1, 1, 1})
                         .Attr("padding", "SAME")
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd"})
                         .Build())
                  .ok());
  AddInput(input);
  AddInput(filter);
  AddInput(MakeTensor<double>(TensorShape({2}), {1, 1}));
  const absl::Status wrong_type = RunOpKernel();
  EXPECT_EQ(wrong_type.code(), absl::StatusCode::kInvalidArgument) << wrong_type;
  EXPECT_NE(wrong_type.message().find("bias must be float, got double"), std::string::npos)
      << wrong_type;
  for (int bad = 0; bad < 4; ++bad) {
    ASSERT_TRUE(InitConv(DT_FLOAT, {"FusedBatchNorm"}, 4).ok());
    AddInput(input);
    AddInput(filter);
    for (int i = 0; i < 4; ++i) AddInput(i == bad ? three : two);
    EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
  }
  NodeDefBuilder b("fused", "_FusedMatMul");
  ASSERT_TRUE(InitOp(b.Input("a")
                         .Input("b")
                         .Input("x")
                         .Input("y")
                         .Attr("T", DT_FLOAT)
                         .Attr("num_args", 2)
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd"})
                         .Build())
                  .code() == absl::StatusCode::kInvalidArgument);
}

// Issue 25: a [2**53, 0] by [0, 1024] product has no input element but an output of 2**63
// elements, more than int64 holds. INVALID_ARGUMENT, where building the output shape used to
// abort the process.
TEST_F(FusedOpsTest, MatMulOutputTooLargeForInt64IsInvalidArgument) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("fused", "_FusedMatMul")
                         .Input("a")
                         .Input("b")
                         .Input("bias")
                         .Attr("T", DT_FLOAT)
                         .Attr("num_args", 1)
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd"})
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({int64_t{1} << 53, 0}), {});
  AddInputFromArray<float>(TensorShape({0, 1024}), {});
  AddInputFromArray<float>(TensorShape({1024}), std::vector<float>(1024, 1.0f));
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(std::string(s.message()).find("too large"), std::string::npos) << s;
}

// Swish is x * sigmoid(x) of the biased product, as TensorFlow's Sigmoid then Mul give.
TEST_F(FusedOpsTest, SwishOnMatMulAndDepthwise) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("fused", "_FusedMatMul")
                         .Input("a")
                         .Input("b")
                         .Input("bias")
                         .Attr("T", DT_FLOAT)
                         .Attr("num_args", 1)
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "_FusedSwish"})
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({1, 2}), {1, 2});
  AddInputFromArray<float>(TensorShape({2, 3}), {1, -1, 0.5f, 2, -3, 0});
  AddInputFromArray<float>(TensorShape({3}), {0, 1, -0.5f});
  ASSERT_TRUE(RunOpKernel().ok());
  auto swish = [](double x) { return x / (1 + std::exp(-x)); };
  std::vector<float> got = Values<float>(*GetOutput(0));
  const double pre[] = {5, -6, 0};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], swish(pre[i]), 1e-6) << i;

  ASSERT_TRUE(InitOp(NodeDefBuilder("fused", "_FusedDepthwiseConv2dNative")
                         .Input("input")
                         .Input("filter")
                         .Input("bias")
                         .Attr("T", DT_FLOAT)
                         .Attr("num_args", 1)
                         .Attr("strides", std::vector<int32_t>{1, 1, 1, 1})
                         .Attr("padding", "VALID")
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "_FusedSwish"})
                         .Build())
                  .ok());
  AddInputFromArray<float>(TensorShape({1, 1, 2, 2}), {1, -2, 3, 4});
  AddInputFromArray<float>(TensorShape({1, 1, 2, 1}), {2, 0.5f});
  AddInputFromArray<float>(TensorShape({2}), {-1, 1});
  ASSERT_TRUE(RunOpKernel().ok());
  got = Values<float>(*GetOutput(0));
  const double dw[] = {1, 0, 5, 3};  // x * filter[c] + bias[c]
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], swish(dw[i]), 1e-6) << i;
}

// A half matmul is computed in float and rounded once.
TEST_F(FusedOpsTest, HalfMatMulWithSigmoid) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("fused", "_FusedMatMul")
                         .Input("a")
                         .Input("b")
                         .Input("bias")
                         .Attr("T", DT_HALF)
                         .Attr("num_args", 1)
                         .Attr("transpose_b", true)
                         .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "Sigmoid"})
                         .Build())
                  .ok());
  AddInputFromArray<half>(TensorShape({1, 2}), {half(1), half(2)});
  AddInputFromArray<half>(TensorShape({2, 2}), {half(1), half(1), half(-1), half(0.5f)});
  AddInputFromArray<half>(TensorShape({2}), {half(-3), half(0)});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<half> got = Values<half>(*GetOutput(0));
  EXPECT_NEAR(static_cast<float>(got[0]), 0.5f, 1e-3);
  EXPECT_NEAR(static_cast<float>(got[1]), 0.5f, 1e-3);
}

}  // namespace
}  // namespace test
}  // namespace sluice
