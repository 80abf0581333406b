// _FusedElementwise against the ops' own kernels: every program here is also evaluated one op
// at a time with each op's registered kernel, and the two results must be equal bit for bit
// (the fusion pass relies on that to leave a graph's values unchanged).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using ::testing::HasSubstr;

class FusedElementwiseTest : public KernelTest {
 protected:
  // Runs `op` alone on `inputs` with its own kernel.
  Tensor RunOne(const std::string& op, const std::vector<Tensor>& inputs, DataType dtype) {
    NodeDefBuilder b("single", op);
    for (size_t i = 0; i < inputs.size(); ++i) b.Input("in" + std::to_string(i));
    EXPECT_TRUE(InitOp(b.Attr("T", dtype).Build()).ok()) << op;
    for (const Tensor& t : inputs) AddInput(t);
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << op << ": " << s;
    return *GetOutput(0);
  }

  // The program evaluated op by op with the registered kernels.
  Tensor RunUnfused(const std::vector<std::string>& ops, const std::vector<int64_t>& operands,
                    const std::vector<Tensor>& inputs, DataType dtype) {
    std::vector<Tensor> values = inputs;
    size_t next = 0;
    for (const std::string& op : ops) {
      const bool binary = op != "Neg" && op != "Abs" && op != "Square" && op != "Reciprocal" &&
                          op != "Sqrt" && op != "Rsqrt" && op != "Exp" && op != "Log" &&
                          op != "Tanh" && op != "Sigmoid" && op != "Erf" && op != "Erfc" &&
                          op != "Relu" && op != "Relu6";
      std::vector<Tensor> args;
      for (int j = 0; j < (binary ? 2 : 1); ++j) args.push_back(values[operands[next++]]);
      values.push_back(RunOne(op, args, dtype));
    }
    return values.back();
  }

  absl::Status RunFused(const std::vector<std::string>& ops, const std::vector<int64_t>& operands,
                        const std::vector<Tensor>& inputs, DataType dtype,
                        bool share_inputs = true) {
    NodeDefBuilder b("fused", "_FusedElementwise");
    for (size_t i = 0; i < inputs.size(); ++i) b.Input("in" + std::to_string(i));
    RETURN_IF_ERROR(InitOp(b.Attr("T", dtype)
                               .Attr("N", static_cast<int64_t>(inputs.size()))
                               .Attr("ops", ops)
                               .Attr("operands", operands)
                               .Build()));
    for (const Tensor& t : inputs) {
      // An input only the harness holds may become the output's buffer.
      AddInput(share_inputs ? t : t.DeepCopy());
    }
    return RunOpKernel();
  }

  // Fused and unfused results, equal to the bit.
  template <typename T>
  void ExpectSameAsUnfused(const std::vector<std::string>& ops,
                           const std::vector<int64_t>& operands, const std::vector<Tensor>& inputs,
                           bool share_inputs = true) {
    const DataType dtype = DataTypeToEnum<T>::value;
    const Tensor expected = RunUnfused(ops, operands, inputs, dtype);
    ASSERT_TRUE(RunFused(ops, operands, inputs, dtype, share_inputs).ok());
    const Tensor& got = *GetOutput(0);
    ASSERT_EQ(got.shape(), expected.shape());
    const std::vector<T> g = Values<T>(got);
    const std::vector<T> e = Values<T>(expected);
    for (size_t i = 0; i < g.size(); ++i) {
      ASSERT_EQ(std::memcmp(&g[i], &e[i], sizeof(T)), 0)
          << ::testing::PrintToString(ops) << " at " << i << ": " << g[i] << " vs " << e[i];
    }
  }

  // Values in [-lo, hi] with NaN, infinities, zeros of both signs and a subnormal mixed in.
  template <typename T>
  Tensor Random(const TensorShape& shape, T lo, T hi) {
    std::vector<T> v(shape.num_elements());
    std::uniform_real_distribution<T> dist(lo, hi);
    for (T& x : v) x = dist(rng_);
    const T specials[] = {std::numeric_limits<T>::quiet_NaN(),
                          std::numeric_limits<T>::infinity(),
                          -std::numeric_limits<T>::infinity(),
                          T(0),
                          -T(0),
                          std::numeric_limits<T>::denorm_min()};
    for (size_t i = 0; i < v.size() && i < 6 * 97; i += 97) v[i] = specials[(i / 97) % 6];
    return MakeTensor<T>(shape, v);
  }

  std::mt19937 rng_{20261130};
};

const std::vector<std::string> kUnaryOps = {"Neg",   "Abs",  "Square", "Reciprocal", "Sqrt",
                                            "Rsqrt", "Exp",  "Log",    "Tanh",       "Sigmoid",
                                            "Erf",   "Erfc", "Relu",   "Relu6"};
const std::vector<std::string> kBinaryOps = {
    "Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "Maximum", "Minimum", "SquaredDifference"};

TEST_F(FusedElementwiseTest, EveryUnaryOpIsItsOwnKernel) {
  // Several tiles and a tail of 3 elements; then a value through two ops, so that the second
  // reads the first's tile buffer.
  const Tensor x = Random<float>(TensorShape({3, 1025}), -8.f, 8.f);
  for (const std::string& op : kUnaryOps) {
    ExpectSameAsUnfused<float>({op}, {0}, {x});
    ExpectSameAsUnfused<float>({"Mul", op}, {0, 0, 1}, {x});
  }
  const Tensor xd = Random<double>(TensorShape({2, 700}), -8.0, 8.0);
  for (const std::string& op : kUnaryOps) ExpectSameAsUnfused<double>({op}, {0}, {xd});
}

TEST_F(FusedElementwiseTest, EveryBinaryOpAndBroadcastFormIsItsOwnKernel) {
  const Tensor x = Random<float>(TensorShape({4, 3, 257}), -4.f, 4.f);
  const Tensor same = Random<float>(TensorShape({4, 3, 257}), -4.f, 4.f);
  const Tensor scalar = MakeTensor<float>(TensorShape({}), {1.5f});
  const Tensor one_element = MakeTensor<float>(TensorShape({1, 1}), {-0.75f});
  const Tensor row = Random<float>(TensorShape({257}), -2.f, 2.f);
  const Tensor rows = Random<float>(TensorShape({1, 3, 257}), -2.f, 2.f);
  const Tensor run = Random<float>(TensorShape({4, 3, 1}), -2.f, 2.f);
  const Tensor runs = Random<float>(TensorShape({4, 1, 1}), -2.f, 2.f);
  for (const std::string& op : kBinaryOps) {
    for (const Tensor& y : {same, scalar, one_element, row, rows, run, runs}) {
      ExpectSameAsUnfused<float>({op}, {0, 1}, {x, y});
      // The broadcast operand first, as in 1 + x.
      ExpectSameAsUnfused<float>({op, "Neg"}, {1, 0, 2}, {x, y});
    }
  }
}

// A unary op's own kernel on a smaller value meets that value's last elements (Eigen's
// scalar path) elsewhere than the fused tiles would, so such a program is refused.
TEST_F(FusedElementwiseTest, UnaryOpOfABroadcastValueIsRefused) {
  const Tensor x = Random<float>(TensorShape({5, 300}), -3.f, 3.f);
  const Tensor c = MakeTensor<float>(TensorShape({}), {0.3f});
  const absl::Status s = RunFused({"Exp", "Mul"}, {1, 0, 2}, {x, c}, DT_FLOAT);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("op 0 (Exp) is unary and reads a value that is broadcast"));
  // After a binary op that brings the value to the output's shape, it is fine.
  ExpectSameAsUnfused<float>({"Mul", "Exp"}, {0, 1, 2}, {x, c});
}

// The Gelu of a transformer's dense layer, bias first, large enough for the harness's
// two-thread pool; once with the data input free to become the output's buffer.
TEST_F(FusedElementwiseTest, GeluWithBiasSplitOverThreads) {
  const Tensor x = Random<float>(TensorShape({64, 3 * 1024 + 5}), -5.f, 5.f);
  const Tensor bias = Random<float>(TensorShape({3 * 1024 + 5}), -1.f, 1.f);
  const Tensor half = MakeTensor<float>(TensorShape({}), {0.5f});
  const Tensor sqrt2 = MakeTensor<float>(TensorShape({}), {1.4142135f});
  const Tensor one = MakeTensor<float>(TensorShape({}), {1.f});
  const std::vector<std::string> ops = {"AddV2", "Mul", "RealDiv", "Erf", "AddV2", "Mul"};
  // in: x 0, bias 1, half 2, sqrt2 3, one 4; steps 5..10
  const std::vector<int64_t> operands = {0, 1, 2, 5, 5, 3, 7, 4, 8, 6, 9};
  ExpectSameAsUnfused<float>(ops, operands, {x, bias, half, sqrt2, one});
  ExpectSameAsUnfused<float>(ops, operands, {x, bias, half, sqrt2, one},
                             /*share_inputs=*/false);
}

// The tail of a layer normalisation: (x - mean) * rsqrt(var + eps) * gamma + beta, with the
// statistics per row ([.., 1]) and gamma/beta per column.
TEST_F(FusedElementwiseTest, LayerNormTail) {
  const Tensor x = Random<float>(TensorShape({8, 50, 96}), -3.f, 3.f);
  const Tensor mean = Random<float>(TensorShape({8, 50, 1}), -1.f, 1.f);
  const Tensor inv_std = Random<float>(TensorShape({8, 50, 1}), 0.5f, 2.f);
  const Tensor gamma = Random<float>(TensorShape({96}), 0.5f, 1.5f);
  const Tensor beta = Random<float>(TensorShape({96}), -0.5f, 0.5f);
  ExpectSameAsUnfused<float>({"Sub", "Mul", "Mul", "AddV2"}, {0, 1, 5, 2, 6, 3, 7, 4},
                             {x, mean, inv_std, gamma, beta}, /*share_inputs=*/false);
}

// Keras' input normalisation of an RGB image: per-channel rows of 3 elements, read at an
// offset into a repeated copy; large enough for the two-thread pool.
TEST_F(FusedElementwiseTest, PerChannelNormalisationOfAnImage) {
  const Tensor image = Random<float>(TensorShape({4, 64, 65, 3}), 0.f, 255.f);
  const Tensor scale = MakeTensor<float>(TensorShape({}), {1.f / 255.f});
  const Tensor mean = MakeTensor<float>(TensorShape({3}), {0.485f, 0.456f, 0.406f});
  const Tensor stddev = MakeTensor<float>(TensorShape({1, 1, 1, 3}), {0.229f, 0.224f, 0.225f});
  ExpectSameAsUnfused<float>({"Mul", "Sub", "RealDiv"}, {0, 1, 4, 2, 5, 3},
                             {image, scale, mean, stddev});
}

TEST_F(FusedElementwiseTest, EmptyOutput) {
  ASSERT_TRUE(RunFused({"Exp", "AddV2"}, {0, 2, 1},
                       {MakeTensor<float>(TensorShape({0, 4}), {}),
                        MakeTensor<float>(TensorShape({4}), {1, 2, 3, 4})},
                       DT_FLOAT)
                  .ok());
  EXPECT_EQ(GetOutput(0)->shape(), TensorShape({0, 4}));
}

TEST_F(FusedElementwiseTest, InputThatDoesNotBroadcastIsInvalidArgument) {
  const absl::Status s = RunFused({"Mul"}, {0, 1},
                                  {MakeTensor<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6}),
                                   MakeTensor<float>(TensorShape({2}), {1, 2})},
                                  DT_FLOAT);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("'fused'"));
  EXPECT_THAT(s.message(), HasSubstr("input 1 of shape [2] does not broadcast"));
  // A broadcast the kernel does not take (both dims of input 1 differ from the output's in
  // different ways) is refused the same way rather than computed wrongly.
  const absl::Status t = RunFused({"Mul"}, {0, 1},
                                  {MakeTensor<float>(TensorShape({2, 1, 3}), {1, 2, 3, 4, 5, 6}),
                                   MakeTensor<float>(TensorShape({1, 2, 1}), {1, 2})},
                                  DT_FLOAT);
  EXPECT_EQ(t.code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(FusedElementwiseTest, MalformedProgramFailsAtConstruction) {
  const absl::Status s =
      RunFused({"Erf"}, {3}, {MakeTensor<float>(TensorShape({1}), {1})}, DT_FLOAT);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("reads operand 3"));
}

}  // namespace
}  // namespace test
}  // namespace sluice
