#include <string>

#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

Tensor Strs(std::initializer_list<std::string> values) { return Vector<std::string>(values); }

TEST(RestoreV2ShapeTest, ShapesFromTheSpecs) {
  EXPECT_EQ(Infer("RestoreV2", "dtypes=[DT_FLOAT, DT_INT32]", "[];[2];[2]"), "?;?");
  EXPECT_EQ(Infer("RestoreV2", "dtypes=[DT_FLOAT, DT_INT32]", "?;?;?"), "?;?");
  EXPECT_EQ(Infer("RestoreV2", "dtypes=[DT_FLOAT, DT_INT32]", "[];[2];[2]",
                  {{2, Strs({"", "4 5 1,2:-"})}}),
            "?;[2,5]");
  EXPECT_EQ(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1];[1]", {{2, Strs({"3 -"})}}), "[3]");
  EXPECT_EQ(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1];[1]", {{2, Strs({"3 0,3"})}}), "[3]");
}

TEST(RestoreV2ShapeTest, Errors) {
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[1];[1];[1]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1,1];[1]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT, DT_INT32]", "[];[2];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(
      Infer("RestoreV2", "dtypes=[DT_FLOAT, DT_INT32]", "[];[3];[3]", {{2, Strs({"", "", ""})}}),
      IsInvalidArgument("The number of shape_and_slice doesn't match tensor outputs."));
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1];[1]", {{2, Strs({"4"})}}),
              IsInvalidArgument("Need least two elements in shape_and_slice specification"));
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1];[1]", {{2, Strs({"x -"})}}),
              IsInvalidArgument("Non numerical dimension in shape_and_slice"));
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1];[1]", {{2, Strs({"4 1,2,3"})}}),
              IsInvalidArgument("Expected a pair of numbers or '-' but got '1,2,3'"));
  EXPECT_THAT(Infer("RestoreV2", "dtypes=[DT_FLOAT]", "[];[1];[1]", {{2, Strs({"4 1,0"})}}),
              IsInvalidArgument("Expected non-negative start and positive length"));
}

TEST(SaveV2ShapeTest, NamesAndSpecsMatchTheTensors) {
  EXPECT_EQ(Infer("SaveV2", "dtypes=[DT_FLOAT, DT_INT32]", "[];[2];[2];[3];?"), "");
  EXPECT_EQ(Infer("SaveV2", "dtypes=[DT_FLOAT]", "?;?;?;?"), "");
  EXPECT_THAT(Infer("SaveV2", "dtypes=[DT_FLOAT, DT_INT32]", "[];[3];[2];[3];?"),
              IsInvalidArgument("must be 2 but is 3"));
  EXPECT_THAT(Infer("SaveV2", "dtypes=[DT_FLOAT]", "[];[1];[2];[3]"),
              IsInvalidArgument("must be 1 but is 2"));
  EXPECT_THAT(Infer("SaveV2", "dtypes=[DT_FLOAT]", "[2];[1];[1];[3]"),
              IsInvalidArgument("must be rank 0"));
}

TEST(MergeV2CheckpointsShapeTest, VectorAndScalar) {
  EXPECT_EQ(Infer("MergeV2Checkpoints", "", "[2];[]"), "");
  EXPECT_EQ(Infer("MergeV2Checkpoints", "delete_old_dirs=false", "?;?"), "");
  EXPECT_THAT(Infer("MergeV2Checkpoints", "", "[];[]"), IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("MergeV2Checkpoints", "", "[2];[1]"), IsInvalidArgument("must be rank 0"));
}

TEST(ShardedFilenameShapeTest, Scalar) {
  EXPECT_EQ(Infer("ShardedFilename", "", "[];[];[]"), "[]");
  EXPECT_EQ(Infer("ShardedFilename", "", "?;?;[]"), "[]");
  EXPECT_THAT(Infer("ShardedFilename", "", "[3];?;[]"), IsInvalidArgument("must be rank 0"));
  EXPECT_EQ(Infer("ShardedFilespec", "", "[];[]"), "[]");
  EXPECT_EQ(Infer("ShardedFilespec", "", "?;?"), "[]");
  EXPECT_THAT(Infer("ShardedFilespec", "", "?;[4]"), IsInvalidArgument("must be rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
