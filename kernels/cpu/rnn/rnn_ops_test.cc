// Unit tests of the fused recurrent-cell kernels for what the fixture (tests/kernels/gen_rnn.py)
// cannot hold: inputs on which TensorFlow reads past an array or aborts (LSTMBlockCell and
// LSTMBlockCellGrad inputs of the wrong rank, short peephole vectors, a BlockLSTM or
// BlockLSTMGrad seq_len_max outside [0, time], BlockLSTMGrad activations, gradients and states
// of other sizes than x and w give).
#include <cstdint>
#include <string>
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

std::vector<float> Ramp(int64_t n, float scale) {
  std::vector<float> v(n);
  for (int64_t k = 0; k < n; ++k) v[k] = scale * static_cast<float>((k % 7) - 3);
  return v;
}

void ExpectInvalidArgument(const absl::Status& s, const std::string& message) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(std::string(s.message()).find(message), std::string::npos) << s;
}

// batch 2, input 3, cell 4.
class LSTMBlockCellTest : public KernelTest {
 protected:
  void Init(bool use_peephole) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("cell", "LSTMBlockCell")
                           .Input("x")
                           .Input("cs_prev")
                           .Input("h_prev")
                           .Input("w")
                           .Input("wci")
                           .Input("wcf")
                           .Input("wco")
                           .Input("b")
                           .Attr("T", DT_FLOAT)
                           .Attr("use_peephole", use_peephole)
                           .Build())
                    .ok());
  }
  // The inputs, with input `bad` of shape `bad_shape` instead.
  void AddInputs(int bad = -1, const TensorShape& bad_shape = TensorShape({})) {
    const TensorShape shapes[] = {TensorShape({2, 3}),  TensorShape({2, 4}), TensorShape({2, 4}),
                                  TensorShape({7, 16}), TensorShape({4}),    TensorShape({4}),
                                  TensorShape({4}),     TensorShape({16})};
    for (int k = 0; k < 8; ++k) {
      const TensorShape& shape = k == bad ? bad_shape : shapes[k];
      AddInputFromArray<float>(shape, Ramp(shape.num_elements(), 0.125f));
    }
  }
};

TEST_F(LSTMBlockCellTest, WrongRanksAreReportedBeforeTheirDimsAreRead) {
  Init(false);
  AddInputs(0, TensorShape({6}));
  ExpectInvalidArgument(RunOpKernel(), "x_tensor must be rank 2 but is rank 1.");
}

TEST_F(LSTMBlockCellTest, CsPrevOfRankOne) {
  Init(false);
  AddInputs(1, TensorShape({4}));
  ExpectInvalidArgument(RunOpKernel(), "cs_prev_tensor must be rank 2 but is rank 1.");
}

TEST_F(LSTMBlockCellTest, WOfRankThree) {
  Init(false);
  AddInputs(3, TensorShape({7, 16, 1}));
  ExpectInvalidArgument(RunOpKernel(), "w_tensor must be rank 2 but is rank 3.");
}

TEST_F(LSTMBlockCellTest, BiasMatrix) {
  Init(false);
  AddInputs(7, TensorShape({4, 4}));
  ExpectInvalidArgument(RunOpKernel(), "b_tensor must be rank 1 but is rank 2.");
}

TEST_F(LSTMBlockCellTest, PeepholeVectorOfAScalar) {
  Init(false);
  AddInputs(5, TensorShape({}));
  ExpectInvalidArgument(RunOpKernel(), "wcf_tensor must be rank 1 but is rank 0.");
}

TEST_F(LSTMBlockCellTest, ShortPeepholeVectorWithPeepholes) {
  Init(true);
  AddInputs(6, TensorShape({3}));
  ExpectInvalidArgument(RunOpKernel(), "wco.dim_size(0) != cell_size: 3 vs. 4");
}

// Without peepholes the vectors are not read, and TensorFlow takes any length.
TEST_F(LSTMBlockCellTest, ShortPeepholeVectorWithoutPeepholesIsUnread) {
  Init(false);
  AddInputs(4, TensorShape({1}));
  const absl::Status s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(GetOutput(6)->shape(), TensorShape({2, 4}));
}

// time 3, batch 2, input 3, cell 4.
class BlockLSTMTest : public KernelTest {
 protected:
  void Run(const std::string& op, int64_t seq_len_max) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("block", op)
                           .Input("seq_len_max")
                           .Input("x")
                           .Input("cs_prev")
                           .Input("h_prev")
                           .Input("w")
                           .Input("wci")
                           .Input("wcf")
                           .Input("wco")
                           .Input("b")
                           .Attr("T", DT_FLOAT)
                           .Build())
                    .ok());
    AddInputFromArray<int64_t>(TensorShape({}), {seq_len_max});
    const TensorShape shapes[] = {TensorShape({3, 2, 3}), TensorShape({2, 4}), TensorShape({2, 4}),
                                  TensorShape({7, 16}),   TensorShape({4}),    TensorShape({4}),
                                  TensorShape({4}),       TensorShape({16})};
    for (const TensorShape& shape : shapes) {
      AddInputFromArray<float>(shape, Ramp(shape.num_elements(), 0.25f));
    }
    status_ = RunOpKernel();
  }
  absl::Status status_;
};

TEST_F(BlockLSTMTest, SeqLenMaxPastTheTimeDimension) {
  for (const char* op : {"BlockLSTM", "BlockLSTMV2"}) {
    Run(op, 4);
    ExpectInvalidArgument(status_, "seq_len_max must be between 0 and 3 but is 4");
  }
}

TEST_F(BlockLSTMTest, NegativeSeqLenMax) {
  for (const char* op : {"BlockLSTM", "BlockLSTMV2"}) {
    Run(op, -1);
    ExpectInvalidArgument(status_, "seq_len_max must be between 0 and 3 but is -1");
  }
}

// Every output's rows past seq_len_max are zero (TensorFlow zeroes cs and h only).
TEST_F(BlockLSTMTest, RowsPastSeqLenMaxAreZero) {
  Run("BlockLSTM", 1);
  ASSERT_TRUE(status_.ok()) << status_;
  for (int k = 0; k < 7; ++k) {
    const std::vector<float> v = test::Values<float>(*GetOutput(k));
    ASSERT_EQ(v.size(), 24u);
    bool computed_nonzero = false;
    for (int e = 0; e < 8; ++e) computed_nonzero |= v[e] != 0.0f;
    EXPECT_TRUE(computed_nonzero) << "output " << k;
    for (int e = 8; e < 24; ++e) EXPECT_EQ(v[e], 0.0f) << "output " << k << " element " << e;
  }
}

class LSTMBlockCellGradTest : public KernelTest {
 protected:
  // batch 2, input 3, cell 4; input `bad` of shape `bad_shape` instead.
  absl::Status Run(bool use_peephole, int bad, const TensorShape& bad_shape) {
    NodeDefBuilder builder("grad", "LSTMBlockCellGrad");
    for (int k = 0; k < 16; ++k) builder.Input("in" + std::to_string(k));
    EXPECT_TRUE(
        InitOp(builder.Attr("T", DT_FLOAT).Attr("use_peephole", use_peephole).Build()).ok());
    for (int k = 0; k < 16; ++k) {
      TensorShape shape({2, 4});
      if (k == 0) shape = TensorShape({2, 3});
      if (k == 3) shape = TensorShape({7, 16});
      if (k >= 4 && k < 7) shape = TensorShape({4});
      if (k == 7) shape = TensorShape({16});
      if (k == bad) shape = bad_shape;
      AddInputFromArray<float>(shape, Ramp(shape.num_elements(), 0.125f));
    }
    return RunOpKernel();
  }
};

TEST_F(LSTMBlockCellGradTest, RanksAreCheckedBeforeDimsAreRead) {
  ExpectInvalidArgument(Run(false, 0, TensorShape({6})), "x must be rank 2 but is rank 1");
  ExpectInvalidArgument(Run(false, 9, TensorShape({2, 4, 1})), "cs must be rank 2 but is rank 3");
  ExpectInvalidArgument(Run(false, 15, TensorShape({})), "h_grad must be rank 2 but is rank 0");
  ExpectInvalidArgument(Run(false, 7, TensorShape({4, 4})), "b must be rank 1 but is rank 2");
}

TEST_F(LSTMBlockCellGradTest, PeepholeLengthsWithPeepholesOnly) {
  ExpectInvalidArgument(Run(true, 5, TensorShape({3})), "wcf.dim_size(0) != cell_size: 3 vs. 4");
  const absl::Status s = Run(false, 5, TensorShape({3}));
  ASSERT_TRUE(s.ok()) << s;
  // Without peepholes each peephole gradient is zeros of its vector's shape.
  EXPECT_EQ(test::Values<float>(*GetOutput(3)), std::vector<float>(3, 0.0f));
}

class BlockLSTMGradTest : public KernelTest {
 protected:
  // time 3, batch 2, input 3, cell 4; input `bad` of shape `bad_shape` instead.
  absl::Status Run(const std::string& op, int64_t seq_len_max, bool use_peephole, int bad = -1,
                   const TensorShape& bad_shape = TensorShape({})) {
    NodeDefBuilder builder("grad", op);
    for (int k = 0; k < 18; ++k) builder.Input("in" + std::to_string(k));
    EXPECT_TRUE(
        InitOp(builder.Attr("T", DT_FLOAT).Attr("use_peephole", use_peephole).Build()).ok());
    AddInputFromArray<int64_t>(TensorShape({}), {seq_len_max});
    for (int k = 1; k < 18; ++k) {
      TensorShape shape({3, 2, 4});
      if (k == 1) shape = TensorShape({3, 2, 3});
      if (k == 2 || k == 3) shape = TensorShape({2, 4});
      if (k == 4) shape = TensorShape({7, 16});
      if (k >= 5 && k < 8) shape = TensorShape({4});
      if (k == 8) shape = TensorShape({16});
      if (k == bad) shape = bad_shape;
      AddInputFromArray<float>(shape, Ramp(shape.num_elements(), 0.125f));
    }
    return RunOpKernel();
  }
};

TEST_F(BlockLSTMGradTest, SeqLenMaxOutsideTheTimeDimension) {
  for (const char* op : {"BlockLSTMGrad", "BlockLSTMGradV2"}) {
    ExpectInvalidArgument(Run(op, 4, false), "seq_len_max must be between 0 and 3 but is 4");
    ExpectInvalidArgument(Run(op, -2, false), "seq_len_max must be between 0 and 3 but is -2");
  }
}

TEST_F(BlockLSTMGradTest, StatesOfOtherSizes) {
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, false, 2, TensorShape({3, 4})),
                        "cs_prev must be [batch_size, cell_size] = [2,4] but is [3,4]");
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, false, 3, TensorShape({2, 5})),
                        "h_prev must be [batch_size, cell_size] = [2,4] but is [2,5]");
}

TEST_F(BlockLSTMGradTest, SequencesOfOtherSizes) {
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, false, 9, TensorShape({3, 2, 5})),
                        "i must be [time, batch_size, cell_size]");
  ExpectInvalidArgument(Run("BlockLSTMGradV2", 3, false, 15, TensorShape({2, 2, 4})),
                        "h must be [time, batch_size, cell_size]");
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, false, 16, TensorShape({3, 2})),
                        "cs_grad must be [time, batch_size, cell_size]");
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, false, 17, TensorShape({3, 1, 4})),
                        "h_grad must be [time, batch_size, cell_size]");
  // Only the rows up to seq_len_max are read, as in TensorFlow.
  const absl::Status s = Run("BlockLSTMGrad", 2, false, 12, TensorShape({2, 2, 4}));
  EXPECT_TRUE(s.ok()) << s;
}

TEST_F(BlockLSTMGradTest, PeepholeLengthsWithPeepholesOnly) {
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, true, 7, TensorShape({5})),
                        "wco.dim_size(0) != cell_size: 5 vs. 4");
  const absl::Status s = Run("BlockLSTMGrad", 3, false, 7, TensorShape({5}));
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(test::Values<float>(*GetOutput(6)), std::vector<float>(5, 0.0f));
}

TEST_F(BlockLSTMGradTest, BiasOfAFewMoreThanTheGates) {
  ExpectInvalidArgument(Run("BlockLSTMGrad", 3, false, 8, TensorShape({17})),
                        "w and b cell_size don't match: 4 vs. 17");
}

// A product over an empty batch adds nothing: w_grad and b_grad are zeros (TensorFlow's Eigen
// contraction leaves garbage in w_grad).
TEST_F(KernelTest, BlockLSTMGradOfAnEmptyBatchIsZero) {
  NodeDefBuilder builder("grad", "BlockLSTMGrad");
  for (int k = 0; k < 18; ++k) builder.Input("in" + std::to_string(k));
  ASSERT_TRUE(InitOp(builder.Attr("T", DT_FLOAT).Attr("use_peephole", true).Build()).ok());
  AddInputFromArray<int64_t>(TensorShape({}), {3});
  for (int k = 1; k < 18; ++k) {
    TensorShape shape({3, 0, 4});
    if (k == 1) shape = TensorShape({3, 0, 2});
    if (k == 2 || k == 3) shape = TensorShape({0, 4});
    if (k == 4) shape = TensorShape({6, 16});
    if (k >= 5 && k < 8) shape = TensorShape({4});
    if (k == 8) shape = TensorShape({16});
    AddInputFromArray<float>(shape, Ramp(shape.num_elements(), 0.5f));
  }
  const absl::Status s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(test::Values<float>(*GetOutput(3)), std::vector<float>(96, 0.0f));
  EXPECT_EQ(test::Values<float>(*GetOutput(4)), std::vector<float>(4, 0.0f));
  EXPECT_EQ(test::Values<float>(*GetOutput(7)), std::vector<float>(16, 0.0f));
}

// With no cells nothing flows back to x (TensorFlow returns garbage there).
TEST_F(KernelTest, GRUBlockCellGradWithNoCellsIsZero) {
  NodeDefBuilder builder("grad", "GRUBlockCellGrad");
  for (int k = 0; k < 10; ++k) builder.Input("in" + std::to_string(k));
  ASSERT_TRUE(InitOp(builder.Attr("T", DT_FLOAT).Build()).ok());
  AddInputFromArray<float>(TensorShape({2, 3}), Ramp(6, 0.5f));
  AddInputFromArray<float>(TensorShape({2, 0}), {});
  AddInputFromArray<float>(TensorShape({3, 0}), {});
  AddInputFromArray<float>(TensorShape({3, 0}), {});
  AddInputFromArray<float>(TensorShape({0}), {});
  AddInputFromArray<float>(TensorShape({0}), {});
  for (int k = 0; k < 4; ++k) AddInputFromArray<float>(TensorShape({2, 0}), {});
  const absl::Status s = RunOpKernel();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(test::Values<float>(*GetOutput(0)), std::vector<float>(6, 0.0f));
}

}  // namespace
}  // namespace sluice
