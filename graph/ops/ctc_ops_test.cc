// Shape functions of the CTC ops (ctc_ops.cc), each check re-run in TensorFlow by
// tests/op_defs/check_shape_tests_with_tf.py.
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(CTCLossShapeTest, LossPerBatchAndGradientOfTheLogits) {
  EXPECT_EQ(Infer("CTCLoss", "T=DT_FLOAT", "[5,3,4];[7,2];[7];[3]"), "[3];[5,3,4]");
  EXPECT_EQ(Infer("CTCLoss", "T=DT_DOUBLE", "[5,?,4];[?,2];[?];[3]"), "[3];[5,3,4]");
  EXPECT_EQ(Infer("CTCLoss", "T=DT_FLOAT", "?;?;?;?"), "[?];[?,?,?]");
  EXPECT_EQ(Infer("CTCLoss", "T=DT_FLOAT", "[?,?,?];[?,?];[?];[?]"), "[?];[?,?,?]");
  EXPECT_EQ(Infer("CTCLossV2", "", "[5,?,4];[7,2];[7];[2]"), "[2];[5,2,4]");
}

TEST(CTCLossShapeTest, RanksAndMatchingDims) {
  EXPECT_THAT(Infer("CTCLoss", "T=DT_FLOAT", "[5,3];[7,2];[7];[3]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("CTCLoss", "T=DT_FLOAT", "[5,3,4];[7];[7];[3]"),
              IsInvalidArgument("Shape must be rank 2 but is rank 1"));
  EXPECT_THAT(Infer("CTCLoss", "T=DT_FLOAT", "[5,3,4];[7,2];[7,1];[3]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("CTCLoss", "T=DT_FLOAT", "[5,3,4];[7,2];[7];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("CTCLoss", "T=DT_FLOAT", "[5,3,4];[7,2];[6];[3]"),
              IsInvalidArgument("Dimensions must be equal, but are 7 and 6"));
  EXPECT_THAT(Infer("CTCLoss", "T=DT_FLOAT", "[5,3,4];[7,2];[7];[2]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 2"));
  EXPECT_THAT(Infer("CTCLossV2", "", "[5,3,4];[7,2];[7];[4]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 4"));
}

TEST(CTCGreedyDecoderShapeTest, OneSparseResultAndScores) {
  EXPECT_EQ(Infer("CTCGreedyDecoder", "T=DT_FLOAT", "[5,3,4];[3]"), "[?,2];[?];[2];[3,1]");
  EXPECT_EQ(Infer("CTCGreedyDecoder", "T=DT_DOUBLE", "[5,?,4];[2]"), "[?,2];[?];[2];[2,1]");
  EXPECT_EQ(Infer("CTCGreedyDecoder", "T=DT_FLOAT", "?;?"), "[?,2];[?];[2];[?,1]");
  EXPECT_THAT(Infer("CTCGreedyDecoder", "T=DT_FLOAT", "[5,3];[3]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("CTCGreedyDecoder", "T=DT_FLOAT", "[5,3,4];[3,1]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
  EXPECT_THAT(Infer("CTCGreedyDecoder", "T=DT_FLOAT", "[5,3,4];[2]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 2"));
}

TEST(CTCBeamSearchDecoderShapeTest, TopPathsSparseResultsAndScores) {
  EXPECT_EQ(Infer("CTCBeamSearchDecoder", "T=DT_FLOAT, beam_width=4, top_paths=1", "[5,3,4];[3]"),
            "[?,2];[?];[2];[3,1]");
  EXPECT_EQ(Infer("CTCBeamSearchDecoder", "T=DT_FLOAT, beam_width=4, top_paths=2", "[5,?,4];[?]"),
            "[?,2];[?,2];[?];[?];[2];[2];[?,2]");
  EXPECT_EQ(Infer("CTCBeamSearchDecoder", "T=DT_DOUBLE, beam_width=3, top_paths=3", "?;[6]"),
            "[?,2];[?,2];[?,2];[?];[?];[?];[2];[2];[2];[6,3]");
  EXPECT_THAT(Infer("CTCBeamSearchDecoder", "T=DT_FLOAT, beam_width=4, top_paths=1", "[5,3];[3]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("CTCBeamSearchDecoder", "T=DT_FLOAT, beam_width=4, top_paths=1", "[5,3,4];[]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 0"));
  EXPECT_THAT(Infer("CTCBeamSearchDecoder", "T=DT_FLOAT, beam_width=4, top_paths=1", "[5,3,4];[4]"),
              IsInvalidArgument("Dimensions must be equal, but are 3 and 4"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
