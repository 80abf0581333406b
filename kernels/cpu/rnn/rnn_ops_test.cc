// Unit tests of the fused recurrent-cell kernels for what the fixture (tests/kernels/gen_rnn.py)
// cannot hold: inputs on which TensorFlow reads past an array or aborts (LSTMBlockCell inputs
// of the wrong rank, short peephole vectors, a BlockLSTM seq_len_max outside [0, time]).
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

}  // namespace
}  // namespace sluice
