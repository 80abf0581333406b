#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

constexpr char kSlice[] = "T=DT_FLOAT, Index=DT_INT32";

TEST(SliceShapeTest, KnownBeginAndSize) {
  EXPECT_EQ(Infer("Slice", kSlice, "[4,5];[2];[2]", {{1, Ints({1, 2})}, {2, Ints({2, -1})}}),
            "[2,3]");
  EXPECT_EQ(Infer("Slice", kSlice, "[4,5];[2];[2]", {{1, Ints({1, 2})}, {2, Ints({2, 3})}}),
            "[2,3]");
  EXPECT_EQ(Infer("Slice", kSlice, "[4,?];[2];[2]", {{1, Ints({1, 2})}, {2, Ints({2, -1})}}),
            "[2,?]");
  EXPECT_EQ(Infer("Slice", kSlice, "?;[2];[2]", {{1, Ints({1, 2})}, {2, Ints({2, -1})}}), "[2,?]");
  EXPECT_EQ(Infer("Slice", "T=DT_FLOAT, Index=DT_INT64", "[4,5];[2];[2]",
                  {{1, Int64s({0, 0})}, {2, Int64s({4, 5})}}),
            "[4,5]");
}

TEST(SliceShapeTest, UnknownValues) {
  EXPECT_EQ(Infer("Slice", kSlice, "[4,5];[2];[2]", {{2, Ints({2, -1})}}), "[2,?]");
  EXPECT_EQ(Infer("Slice", kSlice, "[4,5];[2];[2]", {{1, Ints({1, 2})}}), "[?,?]");
  EXPECT_EQ(Infer("Slice", kSlice, "[4,5];[2];[2]"), "[?,?]");
  EXPECT_EQ(Infer("Slice", kSlice, "?;[2];[2]"), "[?,?]");
  EXPECT_EQ(Infer("Slice", kSlice, "?;?;?"), "?");
}

TEST(SliceShapeTest, RejectsBadInputs) {
  EXPECT_THAT(Infer("Slice", kSlice, "[4,5];[2];[2]", {{1, Ints({1, 2})}, {2, Ints({2, -2})}}),
              IsInvalidArgument(""));
  EXPECT_THAT(Infer("Slice", kSlice, "[4,5];[3];[3]"),
              IsInvalidArgument("Shape must be rank 3 but is rank 2"));
  EXPECT_THAT(Infer("Slice", kSlice, "[4,5];[2];[3]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
}

constexpr char kStridedSlice[] = "T=DT_FLOAT, Index=DT_INT32";

TEST(StridedSliceShapeTest, Ranges) {
  // x[1:3]
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5,6,7];[1];[1];[1]",
                  {{1, Ints({1})}, {2, Ints({3})}, {3, Ints({1})}}),
            "[2,6,7]");
  // x[1:3, ::2]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, begin_mask=2, end_mask=2",
                  "[5,6,7];[2];[2];[2]", {{1, Ints({1, 0})}, {2, Ints({3, 0})}, {3, Ints({1, 2})}}),
            "[2,3,7]");
  // x[::-1]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, begin_mask=1, end_mask=1",
                  "[5,6,7];[1];[1];[1]", {{1, Ints({0})}, {2, Ints({0})}, {3, Ints({-1})}}),
            "[5,6,7]");
  // x[-2:]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, end_mask=1", "[5,6,7];[1];[1];[1]",
                  {{1, Ints({-2})}, {2, Ints({0})}, {3, Ints({1})}}),
            "[2,6,7]");
  // x[1:10:3], clamped to the dim
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5,6,7];[1];[1];[1]",
                  {{1, Ints({1})}, {2, Ints({10})}, {3, Ints({3})}}),
            "[2,6,7]");
  // x[4:1:-2]
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5,6,7];[1];[1];[1]",
                  {{1, Ints({4})}, {2, Ints({1})}, {3, Ints({-2})}}),
            "[2,6,7]");
  // x[5:], x[3:1]: empty
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, end_mask=1", "[5,6,7];[1];[1];[1]",
                  {{1, Ints({5})}, {2, Ints({0})}, {3, Ints({1})}}),
            "[0,6,7]");
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5,6,7];[1];[1];[1]",
                  {{1, Ints({3})}, {2, Ints({1})}, {3, Ints({1})}}),
            "[0,6,7]");
  // x[-100:100]
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5];[1];[1];[1]",
                  {{1, Ints({-100})}, {2, Ints({100})}, {3, Ints({1})}}),
            "[5]");
}

TEST(StridedSliceShapeTest, ShrinkAxes) {
  // x[3]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, shrink_axis_mask=1",
                  "[5,6,7];[1];[1];[1]", {{1, Ints({3})}, {2, Ints({4})}, {3, Ints({1})}}),
            "[6,7]");
  // x[-1]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, shrink_axis_mask=1",
                  "[5,6,7];[1];[1];[1]", {{1, Ints({-1})}, {2, Ints({0})}, {3, Ints({1})}}),
            "[6,7]");
  // x[1, 2, 3]: a scalar
  EXPECT_EQ(
      Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT64, shrink_axis_mask=7", "[5,6,7];[3];[3];[3]",
            {{1, Int64s({1, 2, 3})}, {2, Int64s({2, 3, 4})}, {3, Int64s({1, 1, 1})}}),
      "[]");
}

TEST(StridedSliceShapeTest, EllipsisAndNewAxes) {
  // x[..., 1]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, ellipsis_mask=1, shrink_axis_mask=2",
                  "[5,6,7];[2];[2];[2]", {{1, Ints({0, 1})}, {2, Ints({0, 2})}, {3, Ints({1, 1})}}),
            "[5,6]");
  // x[:, tf.newaxis, 2:4]
  EXPECT_EQ(
      Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, begin_mask=1, end_mask=1, new_axis_mask=2",
            "[5,6,7];[3];[3];[3]",
            {{1, Ints({0, 0, 2})}, {2, Ints({0, 0, 4})}, {3, Ints({1, 1, 1})}}),
      "[5,1,2,7]");
  // x[tf.newaxis, ..., tf.newaxis]
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, ellipsis_mask=2, new_axis_mask=5",
                  "[5,6,7];[3];[3];[3]",
                  {{1, Ints({0, 0, 0})}, {2, Ints({0, 0, 0})}, {3, Ints({1, 1, 1})}}),
            "[1,5,6,7,1]");
  // x[1, ..., ::2]
  EXPECT_EQ(Infer("StridedSlice",
                  "T=DT_FLOAT, Index=DT_INT32, ellipsis_mask=2, shrink_axis_mask=1, "
                  "begin_mask=4, end_mask=4",
                  "[5,6,7];[3];[3];[3]",
                  {{1, Ints({1, 0, 0})}, {2, Ints({2, 0, 0})}, {3, Ints({1, 1, 2})}}),
            "[6,4]");
  // x[...] on a scalar
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, ellipsis_mask=1", "[];[1];[1];[1]",
                  {{1, Ints({0})}, {2, Ints({0})}, {3, Ints({1})}}),
            "[]");
}

TEST(StridedSliceShapeTest, UnknownInputDims) {
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[?,6,7];[1];[1];[1]",
                  {{1, Ints({1})}, {2, Ints({3})}, {3, Ints({1})}}),
            "[?,6,7]");
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, shrink_axis_mask=1",
                  "[?,6,7];[1];[1];[1]", {{1, Ints({1})}, {2, Ints({2})}, {3, Ints({1})}}),
            "[6,7]");
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "?;[1];[1];[1]",
                  {{1, Ints({1})}, {2, Ints({3})}, {3, Ints({1})}}),
            "?");
}

TEST(StridedSliceShapeTest, UnknownBeginOrEnd) {
  // x[:, b:e]: the masked dim keeps its size, the other is unknown.
  EXPECT_EQ(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, begin_mask=1, end_mask=1",
                  "[5,6,7];[2];[2];[2]", {{3, Ints({1, 1})}}),
            "[5,?,7]");
  // x[::-2, b]
  EXPECT_EQ(Infer("StridedSlice",
                  "T=DT_FLOAT, Index=DT_INT32, begin_mask=1, end_mask=1, shrink_axis_mask=2",
                  "[5,6,7];[2];[2];[2]", {{2, Ints({0, 0})}, {3, Ints({-2, 1})}}),
            "[3,7]");
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5,6,7];[2];[2];[2]",
                  {{1, Ints({0, 0})}, {2, Ints({1, 1})}}),
            "?");
  EXPECT_EQ(Infer("StridedSlice", kStridedSlice, "[5,6,7];[?];[?];[?]"), "?");
}

TEST(StridedSliceShapeTest, RejectsBadSpecs) {
  EXPECT_THAT(Infer("StridedSlice", kStridedSlice, "[5,6,7];[1];[1];[1]",
                    {{1, Ints({1})}, {2, Ints({3})}, {3, Ints({0})}}),
              IsInvalidArgument("strides[0] must be non-zero"));
  EXPECT_THAT(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, shrink_axis_mask=1",
                    "[5,6,7];[1];[1];[1]", {{1, Ints({5})}, {2, Ints({6})}, {3, Ints({1})}}),
              IsInvalidArgument("slice index 5 of dimension 0 out of bounds."));
  EXPECT_THAT(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, shrink_axis_mask=1",
                    "[5,6,7];[1];[1];[1]", {{1, Ints({-6})}, {2, Ints({0})}, {3, Ints({1})}}),
              IsInvalidArgument("out of bounds"));
  EXPECT_THAT(Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, shrink_axis_mask=1",
                    "[5,6,7];[1];[1];[1]", {{1, Ints({1})}, {2, Ints({0})}, {3, Ints({-1})}}),
              IsInvalidArgument("only stride 1 allowed on non-range indexing."));
  EXPECT_THAT(
      Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT32, ellipsis_mask=3", "[5,6,7];[2];[2];[2]",
            {{1, Ints({0, 0})}, {2, Ints({0, 0})}, {3, Ints({1, 1})}}),
      IsInvalidArgument("Multiple ellipses in slice spec not allowed"));
  EXPECT_THAT(Infer("StridedSlice", kStridedSlice, "[5,6];[3];[3];[3]",
                    {{1, Ints({0, 0, 0})}, {2, Ints({1, 1, 1})}, {3, Ints({1, 1, 1})}}),
              IsInvalidArgument("Index out of range using input dim 2; input has only 2 dims"));
  EXPECT_THAT(Infer("StridedSlice", kStridedSlice, "[5,6,7];[2];[1];[1]"),
              IsInvalidArgument("Dimension 0 in both shapes must be equal"));
  EXPECT_THAT(Infer("StridedSlice", kStridedSlice, "[5,6,7];[1,1];[1];[1]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

TEST(StridedSliceShapeTest, SmallIndexType) {
  EXPECT_EQ(
      Infer("StridedSlice", "T=DT_FLOAT, Index=DT_INT16", "[5,6,7];[1];[1];[1]",
            {{1, Vector<int16_t>({1})}, {2, Vector<int16_t>({3})}, {3, Vector<int16_t>({1})}}),
      "[2,6,7]");
}

TEST(StridedSliceGradShapeTest, OutputIsTheShapeInput) {
  constexpr char kAttrs[] = "T=DT_FLOAT, Index=DT_INT32";
  EXPECT_EQ(Infer("StridedSliceGrad", kAttrs, "[3];[2];[2];[2];[2,3]", {{0, Ints({4, 5, 6})}}),
            "[4,5,6]");
  EXPECT_EQ(Infer("StridedSliceGrad", kAttrs, "[3];[2];[2];[2];[2,3]"), "[?,?,?]");
  EXPECT_EQ(Infer("StridedSliceGrad", kAttrs, "?;[2];[2];[2];[2,3]"), "?");
  EXPECT_THAT(Infer("StridedSliceGrad", kAttrs, "[2,2];[2];[2];[2];[2,3]"),
              IsInvalidArgument("Shape must be rank 1 but is rank 2"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
