#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(TensorListShapeTest, ListsAreScalars) {
  EXPECT_EQ(Infer("TensorListReserve", "element_dtype=DT_FLOAT, shape_type=DT_INT32", "[2];[]"),
            "[]");
  EXPECT_EQ(
      Infer("TensorListFromTensor", "element_dtype=DT_FLOAT, shape_type=DT_INT32", "[5,3];[1]"),
      "[]");
  EXPECT_EQ(Infer("TensorListSetItem", "element_dtype=DT_FLOAT", "[];[];[3]"), "[]");
  EXPECT_EQ(Infer("TensorListPushBack", "element_dtype=DT_FLOAT", "[];[3]"), "[]");
  EXPECT_EQ(Infer("TensorListLength", "", "[]"), "[]");
}

TEST(TensorListGetItemShapeTest, FromTheElementShapeInput) {
  EXPECT_EQ(Infer("TensorListGetItem", "element_dtype=DT_FLOAT", "[];[];[2]", {{2, Ints({4, -1})}}),
            "[4,?]");
  EXPECT_EQ(Infer("TensorListGetItem", "element_dtype=DT_FLOAT", "[];[];[]", {{2, Int(-1)}}), "?");
}

TEST(TensorListStackShapeTest, NumElementsThenElementShape) {
  EXPECT_EQ(Infer("TensorListStack", "element_dtype=DT_FLOAT, num_elements=7", "[];[2]",
                  {{1, Ints({2, 3})}}),
            "[7,2,3]");
  EXPECT_EQ(Infer("TensorListStack", "element_dtype=DT_FLOAT", "[];[1]", {{1, Ints({8})}}),
            "[?,8]");
}

TEST(TensorListGatherShapeTest, IndicesThenElementShape) {
  EXPECT_EQ(Infer("TensorListGather", "element_dtype=DT_FLOAT", "[];[3];[1]", {{2, Ints({5})}}),
            "[3,5]");
}

// TensorFlow takes the popped element's shape from the list's handle data, which Sluice's
// refiner does not track: unknown, as TensorFlow's is without it.
TEST(TensorListPopBackShapeTest, ListAndUnknownElement) {
  EXPECT_EQ(Infer("TensorListPopBack", "element_dtype=DT_FLOAT", "[];[1]", {{1, Ints({6})}}),
            "[];?");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
