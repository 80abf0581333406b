// Shape functions of the fused recurrent-cell ops (rnn_ops.cc), each check re-run in
// TensorFlow by tests/op_defs/check_shape_tests_with_tf.py.
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(GRUBlockCellShapeTest, BatchOfXAndCellOfHPrev) {
  EXPECT_EQ(Infer("GRUBlockCell", "T=DT_FLOAT", "[2,3];[2,4];?;?;?;?"), "[2,4];[2,4];[2,4];[2,4]");
  EXPECT_EQ(Infer("GRUBlockCell", "T=DT_FLOAT", "?;?;?;?;?;?"), "[?,?];[?,?];[?,?];[?,?]");
  EXPECT_THAT(Infer("GRUBlockCell", "T=DT_FLOAT", "[2];[2,4];?;?;?;?"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
  EXPECT_THAT(Infer("GRUBlockCell", "T=DT_FLOAT", "[2,3];[2,4,1];?;?;?;?"),
              IsInvalidArgument("Shape must be rank 2 but is rank 3"));
}

TEST(LSTMBlockCellShapeTest, BatchOfXAndCellOfCsPrev) {
  EXPECT_EQ(Infer("LSTMBlockCell", "T=DT_FLOAT", "[2,3];[2,5];?;?;?;?;?;?"),
            "[2,5];[2,5];[2,5];[2,5];[2,5];[2,5];[2,5]");
  EXPECT_EQ(Infer("LSTMBlockCell", "T=DT_HALF", "?;[?,5];?;?;?;?;?;?"),
            "[?,5];[?,5];[?,5];[?,5];[?,5];[?,5];[?,5]");
  EXPECT_THAT(Infer("LSTMBlockCell", "T=DT_FLOAT", "[2,3,1];[2,5];?;?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 2 but is rank 3"));
  EXPECT_THAT(Infer("LSTMBlockCell", "T=DT_FLOAT", "[2,3];[5];?;?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
}

TEST(BlockLSTMShapeTest, TimeAndBatchOfXAndAQuarterOfB) {
  EXPECT_EQ(Infer("BlockLSTM", "T=DT_FLOAT", "[];[7,2,3];?;?;?;?;?;?;[20]"),
            "[7,2,5];[7,2,5];[7,2,5];[7,2,5];[7,2,5];[7,2,5];[7,2,5]");
  EXPECT_EQ(Infer("BlockLSTMV2", "T=DT_FLOAT", "?;?;?;?;?;?;?;?;?"),
            "[?,?,?];[?,?,?];[?,?,?];[?,?,?];[?,?,?];[?,?,?];[?,?,?]");
  EXPECT_EQ(Infer("BlockLSTMV2", "T=DT_HALF", "?;[?,4,3];?;?;?;?;?;?;[8]"),
            "[?,4,2];[?,4,2];[?,4,2];[?,4,2];[?,4,2];[?,4,2];[?,4,2]");
  EXPECT_THAT(Infer("BlockLSTM", "T=DT_FLOAT", "[];[2,3];?;?;?;?;?;?;[20]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("BlockLSTM", "T=DT_FLOAT", "[];[7,2,3];?;?;?;?;?;?;[4,5]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("BlockLSTMV2", "T=DT_FLOAT", "[];[7,2,3];?;?;?;?;?;?;[18]"),
              IsInvalidArgument("Dimension size must be evenly divisible by 4 but is 18"));
}

TEST(GRUBlockCellGradShapeTest, XAndBatchByCellAndBatchByWRuColumns) {
  EXPECT_EQ(Infer("GRUBlockCellGrad", "T=DT_FLOAT", "[2,3];[2,4];[7,8];?;?;?;?;?;?;?"),
            "[2,3];[2,4];[2,4];[2,8]");
  EXPECT_EQ(Infer("GRUBlockCellGrad", "T=DT_FLOAT", "?;?;?;?;?;?;?;?;?;?"),
            "[?,?];[?,?];[?,?];[?,?]");
  EXPECT_THAT(Infer("GRUBlockCellGrad", "T=DT_FLOAT", "[2,3];[2,4];[7];?;?;?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
}

TEST(LSTMBlockCellGradShapeTest, GatesAreFourCells) {
  EXPECT_EQ(Infer("LSTMBlockCellGrad", "T=DT_FLOAT, use_peephole=false",
                  "[2,3];[2,5];?;?;?;?;?;?;?;?;?;?;?;?;?;?"),
            "[2,5];[2,20];[5];[5];[5]");
  EXPECT_EQ(
      Infer("LSTMBlockCellGrad", "T=DT_HALF, use_peephole=true", "?;?;?;?;?;?;?;?;?;?;?;?;?;?;?;?"),
      "[?,?];[?,?];[?];[?];[?]");
  EXPECT_THAT(Infer("LSTMBlockCellGrad", "T=DT_FLOAT, use_peephole=false",
                    "[2,3];[5];?;?;?;?;?;?;?;?;?;?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
}

TEST(BlockLSTMGradShapeTest, EachGradientHasItsInputsShape) {
  EXPECT_EQ(Infer("BlockLSTMGrad", "T=DT_FLOAT, use_peephole=true",
                  "[];[7,2,3];[2,4];[2,4];[7,16];[4];[5];[6];[16];?;?;?;?;?;?;?;?;?"),
            "[7,2,3];[2,4];[2,4];[7,16];[4];[5];[6];[16]");
  EXPECT_EQ(Infer("BlockLSTMGradV2", "T=DT_HALF, use_peephole=false",
                  "?;?;?;?;?;?;?;?;?;?;?;?;?;?;?;?;?;?"),
            "[?,?,?];[?,?];[?,?];[?,?];[?];[?];[?];[?]");
  EXPECT_THAT(Infer("BlockLSTMGrad", "T=DT_FLOAT, use_peephole=true",
                    "[];[7,2,3];[2,4];[2,4];[7,16];[4];[4,1];[4];[16];?;?;?;?;?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("BlockLSTMGradV2", "T=DT_FLOAT, use_peephole=false",
                    "[];[7,2];[2,4];[2,4];[7,16];[4];[4];[4];[16];?;?;?;?;?;?;?;?;?"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
