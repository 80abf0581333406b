#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(SwitchShapeTest, BothOutputsCarryData) {
  EXPECT_EQ(Infer("Switch", "T=DT_FLOAT", "[2,?];[]"), "[2,?];[2,?]");
  EXPECT_EQ(Infer("Switch", "T=DT_INT32", "?;?"), "?;?");
  EXPECT_EQ(Infer("RefSwitch", "T=DT_FLOAT", "[3];[]"), "[3];[3]");
}

TEST(SwitchShapeTest, PredicateMustBeScalar) {
  EXPECT_THAT(Infer("Switch", "T=DT_FLOAT", "[2];[2]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("RefSwitch", "T=DT_FLOAT", "[2];[1,1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 2"));
}

TEST(MergeShapeTest, KeepsWhatAllInputsAgreeOn) {
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "[2,3];[2,3]"), "[2,3];[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "[2,3];[2,4]"), "[2,?];[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=3", "[2,3];[5,3];[2,3]"), "[?,3];[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "[?,3];[2,3]"), "[?,3];[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=1", "[7]"), "[7];[]");
  EXPECT_EQ(Infer("RefMerge", "T=DT_FLOAT, N=2", "[4];[5]"), "[?];[]");
}

TEST(MergeShapeTest, UnknownOrDifferentRankGivesUnknownShape) {
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "?;[2,3]"), "?;[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "[2,3];?"), "?;[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "[2,3];[2]"), "?;[]");
  EXPECT_EQ(Infer("Merge", "T=DT_FLOAT, N=2", "[];[]"), "[];[]");
}

TEST(EnterShapeTest, OnlyConstantEnterKeepsItsShape) {
  EXPECT_EQ(Infer("Enter", "T=DT_FLOAT, frame_name='f'", "[2,3]"), "?");
  EXPECT_EQ(Infer("Enter", "T=DT_FLOAT, frame_name='f', is_constant=true", "[2,3]"), "[2,3]");
  EXPECT_EQ(Infer("Enter", "T=DT_INT32, frame_name='f', is_constant=false", "[]"), "?");
  EXPECT_EQ(Infer("RefEnter", "T=DT_FLOAT, frame_name='f'", "[2,3]"), "[2,3]");
}

TEST(LoopShapeTest, ExitAndNextIterationForward) {
  EXPECT_EQ(Infer("Exit", "T=DT_FLOAT", "[2,?]"), "[2,?]");
  EXPECT_EQ(Infer("RefExit", "T=DT_FLOAT", "[1]"), "[1]");
  EXPECT_EQ(Infer("NextIteration", "T=DT_INT32", "[]"), "[]");
  EXPECT_EQ(Infer("RefNextIteration", "T=DT_INT32", "?"), "?");
}

TEST(LoopCondShapeTest, ScalarOnly) {
  EXPECT_EQ(Infer("LoopCond", "", "[]"), "[]");
  EXPECT_EQ(Infer("LoopCond", "", "?"), "[]");
  EXPECT_THAT(Infer("LoopCond", "", "[1]"),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
}

TEST(ControlOnlyOpsTest, NoOutputs) {
  EXPECT_EQ(Infer("ControlTrigger", "", ""), "");
  EXPECT_EQ(Infer("Abort", "error_msg='stop'", ""), "");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
