// _MlirCluster against the ops' own kernels: every program here is also evaluated one op at a
// time with each op's registered kernel (reductions over the last axis with keep_dims), and
// the two results must be equal bit for bit (any NaN matching any NaN) — on random values with NaN,
// infinities, signed zeros and a subnormal mixed in, rows that are not a multiple of the vector
// width, every input kind, and the shapes where the kernel evaluates unfused.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/cpu/compiled/compiled_cluster_cache.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

bool IsReduction(const std::string& op) {
  return op == "Sum" || op == "Mean" || op == "Max" || op == "Min";
}

bool IsUnary(const std::string& op) {
  for (const char* u : {"Neg", "Abs", "Square", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Log", "Tanh",
                        "Sigmoid", "Erf", "Erfc", "Relu", "Relu6"}) {
    if (op == u) return true;
  }
  return false;
}

class MlirClusterTest : public KernelTest {
 protected:
  Tensor RunOne(const std::string& op, const std::vector<Tensor>& inputs) {
    NodeDefBuilder b("single", op);
    for (size_t i = 0; i < inputs.size(); ++i) b.Input("in" + std::to_string(i));
    if (IsReduction(op)) b.Input("axis").Attr("keep_dims", true).Attr("Tidx", DT_INT32);
    EXPECT_TRUE(InitOp(b.Attr("T", DT_FLOAT).Build()).ok()) << op;
    for (const Tensor& t : inputs) AddInput(t);
    if (IsReduction(op)) AddInputFromArray<int32_t>(TensorShape({1}), {-1});
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << op << ": " << s;
    return *GetOutput(0);
  }

  Tensor RunUnfused(const std::vector<std::string>& ops, const std::vector<int64_t>& operands,
                    const std::vector<Tensor>& inputs) {
    std::vector<Tensor> values = inputs;
    size_t next = 0;
    for (const std::string& op : ops) {
      const int arity = IsReduction(op) || IsUnary(op) ? 1 : 2;
      std::vector<Tensor> args;
      for (int j = 0; j < arity; ++j) args.push_back(values[operands[next++]]);
      values.push_back(RunOne(op, args));
    }
    return values.back();
  }

  absl::Status RunCluster(const std::vector<std::string>& ops, const std::vector<int64_t>& operands,
                          const std::vector<Tensor>& inputs) {
    NodeDefBuilder b("cluster", "_MlirCluster");
    for (size_t i = 0; i < inputs.size(); ++i) b.Input("in" + std::to_string(i));
    RETURN_IF_ERROR(InitOp(b.Attr("T", DT_FLOAT)
                               .Attr("N", static_cast<int64_t>(inputs.size()))
                               .Attr("ops", ops)
                               .Attr("operands", operands)
                               .Build()));
    for (const Tensor& t : inputs) AddInput(t);
    return RunOpKernel();
  }

  void ExpectSameAsUnfused(const std::vector<std::string>& ops,
                           const std::vector<int64_t>& operands,
                           const std::vector<Tensor>& inputs) {
    const Tensor expected = RunUnfused(ops, operands, inputs);
    const absl::Status s = RunCluster(ops, operands, inputs);
    ASSERT_TRUE(s.ok()) << s;
    // The comparison is of compiled code: a program that fell back to unfused evaluation
    // would match trivially.
    ASSERT_EQ(GetClusterCompileStats().failed, 0) << ::testing::PrintToString(ops);
    const Tensor& got = *GetOutput(0);
    ASSERT_EQ(got.shape(), expected.shape()) << ::testing::PrintToString(ops);
    const std::vector<float> g = Values<float>(got);
    const std::vector<float> e = Values<float>(expected);
    for (size_t i = 0; i < g.size(); ++i) {
      // Which NaN comes out where two meet (its sign) is the instruction order's, which LLVM
      // and GCC choose differently; every other value is equal to the bit.
      if (std::isnan(g[i]) && std::isnan(e[i])) continue;
      ASSERT_EQ(std::memcmp(&g[i], &e[i], sizeof(float)), 0)
          << ::testing::PrintToString(ops) << " " << got.shape().DebugString() << " at " << i
          << ": " << g[i] << " vs " << e[i];
    }
  }

  // Values in [lo, hi] with NaN, infinities, zeros of both signs and a subnormal mixed in.
  Tensor Random(const TensorShape& shape, float lo, float hi, bool specials = true) {
    std::vector<float> v(shape.num_elements());
    std::uniform_real_distribution<float> dist(lo, hi);
    for (float& x : v) x = dist(rng_);
    const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(),
                             0.0f,
                             -0.0f,
                             std::numeric_limits<float>::denorm_min()};
    if (specials) {
      for (size_t i = 0; i < v.size() && i < 6 * 97; i += 97) v[i] = special[(i / 97) % 6];
    }
    return MakeTensor<float>(shape, v);
  }

  std::mt19937 rng_{20261205};
};

// A layer normalisation as Keras writes it: mean, variance, (x - mean) * rsqrt(var + eps) *
// gamma + beta, over the last axis.
const std::vector<std::string> kLayerNormOps = {
    "Mean", "SquaredDifference", "Mean", "AddV2", "Rsqrt", "Mul", "Mul", "Mul", "Sub", "AddV2"};
// Inputs: 0 x, 1 eps, 2 gamma, 3 beta. Values 4 mean, 5 sq, 6 var, 7 var+eps, 8 rsqrt,
// 9 scale, 10 x*scale, 11 mean*scale, 12 beta - 11, 13 out.
const std::vector<int64_t> kLayerNormOperands = {0, 0, 4, 5, 6, 1,  7,  8, 2,
                                                 0, 9, 4, 9, 3, 11, 10, 12};

TEST_F(MlirClusterTest, LayerNormIsTheUnfusedGraph) {
  for (const TensorShape& shape :
       {TensorShape({2, 5, 256}), TensorShape({7, 13}), TensorShape({3, 8}),
        TensorShape({1, 1, 31}), TensorShape({65, 3})}) {
    const int64_t cols = shape.dim_size(shape.dims() - 1);
    ExpectSameAsUnfused(
        kLayerNormOps, kLayerNormOperands,
        {Random(shape, -3.f, 5.f, /*specials=*/false), MakeTensor<float>(TensorShape({}), {1e-3f}),
         Random(TensorShape({cols}), 0.5f, 1.5f, false),
         Random(TensorShape({cols}), -1.f, 1.f, false)});
    // With NaN and infinities in x.
    ExpectSameAsUnfused(kLayerNormOps, kLayerNormOperands,
                        {Random(shape, -3.f, 5.f), MakeTensor<float>(TensorShape({}), {1e-3f}),
                         Random(TensorShape({cols}), 0.5f, 1.5f, false),
                         Random(TensorShape({cols}), -1.f, 1.f, false)});
  }
}

TEST_F(MlirClusterTest, SoftmaxWrittenOutIsTheUnfusedGraph) {
  // exp(x - max(x)) / sum(exp(x - max(x))), and log-softmax's x - max - log(sum(exp)).
  const std::vector<std::string> softmax = {"Max", "Sub", "Exp", "Sum", "RealDiv"};
  const std::vector<int64_t> softmax_operands = {0, 0, 1, 2, 3, 3, 4};
  const std::vector<std::string> log_softmax = {"Max", "Sub", "Exp", "Sum", "Log", "Sub"};
  const std::vector<int64_t> log_softmax_operands = {0, 0, 1, 2, 3, 4, 2, 5};
  for (const TensorShape& shape :
       {TensorShape({4, 128, 128}), TensorShape({3, 17}), TensorShape({5, 1000})}) {
    const Tensor x = Random(shape, -20.f, 20.f);
    ExpectSameAsUnfused(softmax, softmax_operands, {x});
    ExpectSameAsUnfused(log_softmax, log_softmax_operands, {x});
  }
}

TEST_F(MlirClusterTest, EveryOpInAClusterIsItsOwnKernel) {
  // Each unary op on a full value, on a row value (after a reduction) and on a column value;
  // each binary op with every operand kind; each reduction.
  const Tensor x = Random(TensorShape({3, 9, 37}), -4.f, 4.f);
  const Tensor column = Random(TensorShape({37}), -2.f, 2.f);
  const Tensor row = Random(TensorShape({3, 9, 1}), -2.f, 2.f);
  const Tensor scalar = MakeTensor<float>(TensorShape({}), {0.75f});
  for (const char* op : {"Neg", "Abs", "Square", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Log",
                         "Tanh", "Sigmoid", "Erf", "Erfc", "Relu", "Relu6"}) {
    ExpectSameAsUnfused({op, "Sum", "Sub"}, {0, 1, 1, 2}, {x});
    ExpectSameAsUnfused({"Max", op, "Mul"}, {0, 1, 0, 2}, {x});
    ExpectSameAsUnfused({op, "Mean", "Mul"}, {1, 0, 2, 3}, {x, column});
  }
  for (const char* op : {"Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "Maximum", "Minimum",
                         "SquaredDifference"}) {
    for (const Tensor& y : {x, column, row, scalar}) {
      ExpectSameAsUnfused({op, "Min"}, {0, 1, 2}, {x, y});
      ExpectSameAsUnfused({op, "Max"}, {1, 0, 2}, {x, y});
    }
    // Row with column makes a full value.
    ExpectSameAsUnfused({op, "Sum", "Mul"}, {0, 1, 2, 3, 1}, {row, column});
  }
}

TEST_F(MlirClusterTest, ErfAndTanhWrittenOutAreTheKernelsOwn) {
  // Erf is Eigen's rational approximation, Tanh TensorFlow's (numerics/sigmoid_tanh_float.h):
  // across their clamps (4 and about 7.9), tiny inputs, and a row long enough for vectors and a
  // tail.
  for (const auto& [lo, hi] : {std::pair<float, float>{-12.f, 12.f}, {-1e-3f, 1e-3f}}) {
    const Tensor x = Random(TensorShape({5, 203}), lo, hi);
    for (const char* op : {"Erf", "Tanh"}) {
      ExpectSameAsUnfused({op, "Max", "Sub"}, {0, 1, 1, 2}, {x});
      ExpectSameAsUnfused({"Mean", op, "Mul"}, {0, 1, 0, 2}, {x});
    }
  }
}

TEST_F(MlirClusterTest, ExpAndSigmoidWrittenOutAreTheKernelsOwn) {
  // Exp across its clamps (88.723: infinity above; subnormal results below -87.3, zero below
  // -104) and Sigmoid across its (1 from 16.64, 0 below -104); sizes whose last total % 8
  // elements take the scalar forms (std::exp), here through the callback: full values of
  // 5 x 203, rows of 5, columns of 203.
  for (const auto& [lo, hi] :
       {std::pair<float, float>{-110.f, 100.f}, {-20.f, 20.f}, {-89.f, -86.f}, {-1e-3f, 1e-3f}}) {
    const Tensor x = Random(TensorShape({5, 203}), lo, hi);
    const Tensor column = Random(TensorShape({203}), lo, hi);
    for (const char* op : {"Exp", "Sigmoid"}) {
      ExpectSameAsUnfused({op, "Max", "Sub"}, {0, 1, 1, 2}, {x});
      ExpectSameAsUnfused({"Mean", op, "Mul"}, {0, 1, 0, 2}, {x});
      ExpectSameAsUnfused({op, "Mean", "Mul"}, {1, 0, 2, 3}, {x, column});
    }
  }
  // Log across its range: subnormal inputs (read as zero: -inf), zeros, negatives, infinities
  // and NaN, over the same kinds, the tails (total % 8) through the callback.
  std::vector<float> wide(5 * 203);
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any_bits;
  for (float& v : wide) {
    const uint32_t bits = any_bits(rng);
    std::memcpy(&v, &bits, sizeof(v));
  }
  wide[3] = 1e-40f;
  wide[40] = -0.0f;
  wide[41] = 0.0f;
  for (const Tensor& x :
       {MakeTensor<float>(TensorShape({5, 203}), wide), Random(TensorShape({5, 203}), 0.f, 4.f)}) {
    ExpectSameAsUnfused({"Log", "Max", "Sub"}, {0, 1, 1, 2}, {x});
    ExpectSameAsUnfused({"Abs", "Mean", "Log", "Mul"}, {0, 1, 2, 0, 3}, {x});
    ExpectSameAsUnfused({"Abs", "Log", "Mean", "Mul"}, {1, 2, 0, 3, 4},
                        {x, Random(TensorShape({203}), -1.f, 1.f)});
  }
  // Elementwise alone: a swish, x * sigmoid(x), over rows of 37 and 1000.
  for (const TensorShape& shape : {TensorShape({3, 37}), TensorShape({2, 7, 1000})}) {
    ExpectSameAsUnfused({"Sigmoid", "Mul"}, {0, 0, 1}, {Random(shape, -30.f, 30.f)});
  }
}

TEST_F(MlirClusterTest, ErfcWrittenOutIsTheKernelsOwn) {
  // Erfc is numerics::ErfcFloat in both: across its whole range (2 below -4, subnormal
  // results from 9.2, 0 above 10.06), near 0, and at every float of a range in the tail.
  for (const auto& [lo, hi] :
       {std::pair<float, float>{-12.f, 12.f}, {8.5f, 10.2f}, {-1e-3f, 1e-3f}}) {
    const Tensor x = Random(TensorShape({5, 203}), lo, hi);
    ExpectSameAsUnfused({"Erfc", "Max", "Sub"}, {0, 1, 1, 2}, {x});
    ExpectSameAsUnfused({"Mean", "Erfc", "Mul"}, {0, 1, 0, 2}, {x});
  }
  std::vector<float> consecutive(4096);
  float v = 9.99f;
  for (float& c : consecutive) {
    c = v;
    v = std::nextafter(v, 11.0f);
  }
  const Tensor tail = MakeTensor<float>(TensorShape({32, 128}), consecutive);
  ExpectSameAsUnfused({"Erfc", "Neg", "Erfc"}, {0, 1, 2}, {tail});
}

TEST_F(MlirClusterTest, ElementwiseOpsAloneAreTheUnfusedGraph) {
  // A Gelu, 0.5 * x * (1 + erf(x * 0.7071)), and a tanh-approximated one with a bias.
  const Tensor half = MakeTensor<float>(TensorShape({}), {0.5f});
  const Tensor one = MakeTensor<float>(TensorShape({}), {1.0f});
  const Tensor scale = MakeTensor<float>(TensorShape({}), {0.70710678f});
  for (const TensorShape& shape : {TensorShape({2, 64, 1024}), TensorShape({3, 37})}) {
    const Tensor x = Random(shape, -6.f, 6.f);
    ExpectSameAsUnfused({"Mul", "Erf", "AddV2", "Mul", "Mul"}, {0, 3, 4, 2, 5, 1, 0, 7, 6},
                        {x, half, one, scale});
    const Tensor bias = Random(TensorShape({shape.dim_size(shape.dims() - 1)}), -1.f, 1.f);
    ExpectSameAsUnfused({"AddV2", "Tanh", "Relu6", "Minimum"}, {0, 1, 2, 3, 4, 0}, {x, bias});
    // Keras 3's exact Gelu after a Dense: b = x + bias; 0.5 * b * erfc(-b * 0.7071).
    ExpectSameAsUnfused({"AddV2", "Mul", "Neg", "Mul", "Erfc", "Mul"},
                        {0, 1, 2, 4, 4, 6, 3, 7, 5, 8}, {x, bias, half, scale});
  }
}

TEST_F(MlirClusterTest, BatchNormTailsAndResidualAddsAreTheUnfusedGraph) {
  // A frozen batch norm's tail, x * scale + offset per channel, then Relu6; a residual add of
  // two full values, then Relu; and a bias with a swish, over odd sizes with NaN and infinities.
  for (const TensorShape& shape : {TensorShape({2, 5, 5, 24}), TensorShape({3, 17})}) {
    const int64_t channels = shape.dim_size(shape.dims() - 1);
    const Tensor x = Random(shape, -8.f, 8.f);
    const Tensor y = Random(shape, -8.f, 8.f);
    const Tensor scale = Random(TensorShape({channels}), 0.5f, 2.f, false);
    const Tensor offset = Random(TensorShape({channels}), -1.f, 1.f, false);
    ExpectSameAsUnfused({"Mul", "AddV2", "Relu6"}, {0, 1, 3, 2, 4}, {x, scale, offset});
    ExpectSameAsUnfused({"AddV2", "Relu"}, {0, 1, 2}, {x, y});
    ExpectSameAsUnfused({"AddV2", "Sigmoid", "Mul"}, {0, 1, 2, 2, 3}, {x, offset});
  }
}

TEST_F(MlirClusterTest, SqueezeAndExcitationGatesAreTheUnfusedGraph) {
  // The gate of a squeeze-and-excitation block, x * sigmoid(s) with s of shape [N, 1, 1, C]
  // (one column per image, a batch-column value): s's ops run once per image. Sizes where the
  // two threads' row ranges start inside an image (3 x 28 x 28), where N * C leaves Eigen's
  // scalar tail to Sigmoid (2 x 37), where s is a plain column (N = 1), and rows of one
  // column (evaluated unfused).
  for (const TensorShape& shape : {TensorShape({3, 28, 28, 96}), TensorShape({2, 5, 7, 37}),
                                   TensorShape({1, 4, 4, 24}), TensorShape({2, 3, 3, 1})}) {
    const int64_t n = shape.dim_size(0);
    const int64_t c = shape.dim_size(3);
    const Tensor x = Random(shape, -8.f, 8.f);
    const Tensor gate = Random(TensorShape({n, 1, 1, c}), -20.f, 20.f);
    const Tensor bias = Random(TensorShape({c}), -1.f, 1.f, false);
    ExpectSameAsUnfused({"Sigmoid", "Mul"}, {1, 0, 2}, {x, gate});
    // The gate with a bias first, and read by two ops.
    ExpectSameAsUnfused({"AddV2", "Sigmoid", "Mul", "Mul"}, {1, 2, 3, 0, 4, 5, 4}, {x, gate, bias});
    // The input itself as a batch-column operand, and a batch-column value read in a later
    // phase than the one it was computed for: (x - mean(x)) * sigmoid(s).
    ExpectSameAsUnfused({"Mul", "Relu"}, {0, 1, 2}, {x, gate});
    ExpectSameAsUnfused({"Mean", "Sub", "Sigmoid", "Mul"}, {0, 0, 2, 1, 3, 4}, {x, gate});
  }
}

TEST_F(MlirClusterTest, AFullInputNothingElseHoldsBecomesTheOutput) {
  // A layer norm in place: x is read in all three phases of a row and overwritten in the
  // last; the squeeze-and-excitation gate too. Rows split over the two threads.
  const TensorShape shape({64, 300});
  const Tensor x = Random(shape, -3.f, 5.f);
  const std::vector<float> x_values = Values<float>(x);
  const std::vector<Tensor> others = {MakeTensor<float>(TensorShape({}), {1e-3f}),
                                      Random(TensorShape({300}), 0.5f, 1.5f, false),
                                      Random(TensorShape({300}), -1.f, 1.f, false)};
  const Tensor expected =
      RunUnfused(kLayerNormOps, kLayerNormOperands, {x, others[0], others[1], others[2]});
  NodeDefBuilder b("cluster", "_MlirCluster");
  for (int i = 0; i < 4; ++i) b.Input("in" + std::to_string(i));
  ASSERT_TRUE(InitOp(b.Attr("T", DT_FLOAT)
                         .Attr("N", int64_t{4})
                         .Attr("ops", kLayerNormOps)
                         .Attr("operands", kLayerNormOperands)
                         .Build())
                  .ok());
  Tensor only = MakeTensor<float>(shape, x_values);  // a buffer of its own
  const float* const buffer = only.base<float>();
  AddInput(only);
  only = Tensor();  // now held by the kernel's input alone
  for (const Tensor& t : others) AddInput(t);
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->base<float>(), buffer);
  const std::vector<float> got = Values<float>(*GetOutput(0));
  const std::vector<float> want = Values<float>(expected);
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i]) && std::isnan(want[i])) continue;
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(float)), 0) << "at " << i;
  }
  // Held elsewhere too (x, here): a new buffer, and x is untouched.
  ASSERT_TRUE(
      RunCluster(kLayerNormOps, kLayerNormOperands, {x, others[0], others[1], others[2]}).ok());
  EXPECT_NE(GetOutput(0)->base<float>(), x.base<float>());
  EXPECT_EQ(std::memcmp(x.base<float>(), x_values.data(), x_values.size() * sizeof(float)), 0);
}

TEST_F(MlirClusterTest, LongRowsThatTheReductionKernelsSplitStillMatch) {
  // One row of 40000: the reduction kernels split it over the two threads; so does the
  // cluster (unfused). A row of one element: the reduction kernels copy it (-0 stays -0).
  ExpectSameAsUnfused({"Mean", "Sub", "Square", "Sum"}, {0, 0, 1, 2, 3},
                      {Random(TensorShape({1, 40000}), -1.f, 1.f, false)});
  ExpectSameAsUnfused({"Sum", "Mul"}, {0, 1, 0},
                      {MakeTensor<float>(TensorShape({4, 1}), {-0.0f, 1.0f, -2.0f, 0.0f})});
}

TEST_F(MlirClusterTest, EmptyValues) {
  ExpectSameAsUnfused({"Mean", "Sub"}, {0, 0, 1}, {Random(TensorShape({0, 8}), -1.f, 1.f)});
  // Rows of no elements: Max is -inf and Mean NaN, as the reduction kernels give.
  ExpectSameAsUnfused({"Max", "Neg"}, {0, 1}, {Random(TensorShape({3, 0}), -1.f, 1.f)});
  ExpectSameAsUnfused({"Mean", "Neg"}, {0, 1}, {Random(TensorShape({3, 0}), -1.f, 1.f)});
}

TEST_F(MlirClusterTest, BadInputsAreInvalidArgument) {
  // An input that is none of the kinds: [3, 1] against [3, 4] is a row, but [2, 4] is not.
  absl::Status s = RunCluster(
      {"Sum", "Mul"}, {0, 2, 1},
      {Random(TensorShape({3, 4}), -1.f, 1.f), Random(TensorShape({3, 2, 4}), -1.f, 1.f)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("_MlirCluster"));
  s = RunCluster({"Sum", "Mul"}, {0, 2, 1},
                 {Random(TensorShape({3, 4}), -1.f, 1.f), Random(TensorShape({3, 5}), -1.f, 1.f)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("does not broadcast"));
  // A program that reads an operand that does not exist.
  s = RunCluster({"Sum"}, {3}, {Random(TensorShape({3, 4}), -1.f, 1.f)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace test
}  // namespace sluice
