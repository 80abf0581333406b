// Unit tests of the CTC kernels for what the fixture (tests/kernels/gen_ctc.py) cannot hold:
// the inputs TensorFlow's CTCLoss crashes on (no classes; a label of blanks only, where it
// writes outside its arrays), and batches large enough for the parallel paths (32K logits),
// whose rows must come out as when each row runs alone.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace {

using test::KernelTest;
using test::NodeDefBuilder;

class CTCLossTest : public KernelTest {
 protected:
  void Init(bool ignore_longer = false) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("loss", "CTCLoss")
                           .Input("inputs")
                           .Input("labels_indices")
                           .Input("labels_values")
                           .Input("sequence_length")
                           .Attr("T", DT_FLOAT)
                           .Attr("ignore_longer_outputs_than_inputs", ignore_longer)
                           .Build())
                    .ok());
  }
};

TEST_F(CTCLossTest, NoClassesIsInvalidArgument) {
  Init();
  AddInputFromArray<float>(TensorShape({2, 1, 0}), {});
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 0});
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  AddInputFromArray<int32_t>(TensorShape({1}), {2});
  const absl::Status s = RunOpKernel();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(std::string(s.message()).find("no classes"), std::string::npos) << s;
}

TEST_F(CTCLossTest, NoClassesAndNoComputedRowGivesZeros) {
  Init(/*ignore_longer=*/true);
  AddInputFromArray<float>(TensorShape({2, 1, 0}), {});
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 0});
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  const absl::Status s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(test::Values<float>(*GetOutput(0)), std::vector<float>{0});
}

// Labels at or past the blank end the sequence; with none before them the only path is all
// blanks: loss -sum_t log softmax(x_t)[blank], gradient softmax(x_t) - onehot(blank).
TEST_F(CTCLossTest, LabelOfBlanksOnlyIsTheAllBlankPath) {
  Init();
  const std::vector<float> x = {0.5f, -1.0f, 2.0f, 0.25f, 1.5f, -0.5f, -2.0f, 0.0f, 1.0f};
  AddInputFromArray<float>(TensorShape({3, 1, 3}), x);
  AddInputFromArray<int64_t>(TensorShape({2, 2}), {0, 0, 0, 1});
  AddInputFromArray<int32_t>(TensorShape({2}), {2, 5});
  AddInputFromArray<int32_t>(TensorShape({1}), {3});
  const absl::Status s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  double loss = 0;
  std::vector<float> grad;
  for (int t = 0; t < 3; ++t) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += std::exp(double{x[3 * t + c]});
    for (int c = 0; c < 3; ++c) {
      const double y = std::exp(double{x[3 * t + c]}) / sum;
      grad.push_back(static_cast<float>(y - (c == 2 ? 1.0 : 0.0)));
    }
    loss -= std::log(std::exp(double{x[3 * t + 2]}) / sum);
  }
  EXPECT_NEAR(test::Values<float>(*GetOutput(0))[0], loss, 1e-5);
  const std::vector<float> got = test::Values<float>(*GetOutput(1));
  ASSERT_EQ(got.size(), grad.size());
  for (size_t i = 0; i < grad.size(); ++i) EXPECT_NEAR(got[i], grad[i], 1e-6) << i;
}

std::vector<float> RandomLogits(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<float> x(n);
  for (float& v : x) v = normal(gen);
  return x;
}

// Rows [b, b + 1) of a [t, batch, c] tensor.
std::vector<float> Row(const std::vector<float>& x, int t, int batch, int c, int b) {
  std::vector<float> row;
  for (int s = 0; s < t; ++s) {
    row.insert(row.end(), x.begin() + (s * batch + b) * c, x.begin() + (s * batch + b + 1) * c);
  }
  return row;
}

class CTCGreedyDecoderTest : public KernelTest {};

TEST_F(CTCGreedyDecoderTest, LargeBatchRowsAsAlone) {
  constexpr int kT = 20, kBatch = 256, kC = 8;
  const std::vector<float> x = RandomLogits(kT * kBatch * kC, 7);
  std::vector<int32_t> lengths(kBatch);
  for (int b = 0; b < kBatch; ++b) lengths[b] = b % (kT + 1);
  auto init = [&] {
    ASSERT_TRUE(InitOp(NodeDefBuilder("greedy", "CTCGreedyDecoder")
                           .Input("inputs")
                           .Input("sequence_length")
                           .Attr("T", DT_FLOAT)
                           .Attr("merge_repeated", true)
                           .Build())
                    .ok());
  };
  init();
  AddInputFromArray<float>(TensorShape({kT, kBatch, kC}), x);
  AddInputFromArray<int32_t>(TensorShape({kBatch}), lengths);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<int64_t> indices = test::Values<int64_t>(*GetOutput(0));
  const std::vector<int64_t> values = test::Values<int64_t>(*GetOutput(1));
  const std::vector<float> scores = test::Values<float>(*GetOutput(3));
  size_t next = 0;
  for (int b = 0; b < kBatch; ++b) {
    init();
    AddInputFromArray<float>(TensorShape({kT, 1, kC}), Row(x, kT, kBatch, kC, b));
    AddInputFromArray<int32_t>(TensorShape({1}), {lengths[b]});
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(test::Values<float>(*GetOutput(3))[0], scores[b]) << b;
    for (int64_t v : test::Values<int64_t>(*GetOutput(1))) {
      ASSERT_LT(next, values.size());
      EXPECT_EQ(indices[2 * next], b);
      EXPECT_EQ(values[next++], v) << b;
    }
  }
  EXPECT_EQ(next, values.size());
}

TEST_F(CTCLossTest, LargeBatchRowsAsAlone) {
  constexpr int kT = 16, kBatch = 256, kC = 8;
  const std::vector<float> x = RandomLogits(kT * kBatch * kC, 11);
  std::vector<int32_t> lengths(kBatch);
  std::vector<std::vector<int32_t>> labels(kBatch);
  std::vector<int64_t> indices;
  std::vector<int32_t> values;
  for (int b = 0; b < kBatch; ++b) {
    lengths[b] = 1 + b % kT;
    for (int i = 0; i <= b % 5 && i < lengths[b]; ++i) {
      labels[b].push_back((b + 3 * i) % (kC - 1));
      indices.insert(indices.end(), {b, i});
      values.push_back(labels[b].back());
    }
  }
  Init();
  AddInputFromArray<float>(TensorShape({kT, kBatch, kC}), x);
  AddInputFromArray<int64_t>(TensorShape({static_cast<int64_t>(values.size()), 2}), indices);
  AddInputFromArray<int32_t>(TensorShape({static_cast<int64_t>(values.size())}), values);
  AddInputFromArray<int32_t>(TensorShape({kBatch}), lengths);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> loss = test::Values<float>(*GetOutput(0));
  const std::vector<float> grad = test::Values<float>(*GetOutput(1));
  for (int b = 0; b < kBatch; ++b) {
    Init();
    AddInputFromArray<float>(TensorShape({kT, 1, kC}), Row(x, kT, kBatch, kC, b));
    std::vector<int64_t> row_indices;
    for (size_t i = 0; i < labels[b].size(); ++i) {
      row_indices.insert(row_indices.end(), {0, static_cast<int64_t>(i)});
    }
    AddInputFromArray<int64_t>(TensorShape({static_cast<int64_t>(labels[b].size()), 2}),
                               row_indices);
    AddInputFromArray<int32_t>(TensorShape({static_cast<int64_t>(labels[b].size())}), labels[b]);
    AddInputFromArray<int32_t>(TensorShape({1}), {lengths[b]});
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(test::Values<float>(*GetOutput(0))[0], loss[b]) << b;
    EXPECT_EQ(test::Values<float>(*GetOutput(1)), Row(grad, kT, kBatch, kC, b)) << b;
  }
}

}  // namespace
}  // namespace sluice
