#include "graph/ops/shape_fn_util.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace shape_fn_util {
namespace {

using ::testing::ElementsAre;

TEST(IntTensorValuesTest, ReadsEveryIntegerDtype) {
  std::vector<int64_t> values;
  ASSERT_TRUE(IntTensorValues(ops_test::Ints({3, -1}), &values).ok());
  EXPECT_THAT(values, ElementsAre(3, -1));
  ASSERT_TRUE(IntTensorValues(ops_test::Int64s({INT64_MIN}), &values).ok());
  EXPECT_THAT(values, ElementsAre(INT64_MIN));
  ASSERT_TRUE(IntTensorValues(ops_test::Vector<int8_t>({-128, 127}), &values).ok());
  EXPECT_THAT(values, ElementsAre(-128, 127));
  ASSERT_TRUE(IntTensorValues(ops_test::Vector<uint16_t>({65535}), &values).ok());
  EXPECT_THAT(values, ElementsAre(65535));
  ASSERT_TRUE(IntTensorValues(ops_test::IntMatrix({{1, 2}, {3, 4}}), &values).ok());
  EXPECT_THAT(values, ElementsAre(1, 2, 3, 4));
}

TEST(IntTensorValuesTest, RejectsOtherDtypesAndHugeUnsigned) {
  std::vector<int64_t> values;
  EXPECT_TRUE(absl::IsInvalidArgument(IntTensorValues(ops_test::Scalar<float>(1.0f), &values)));
  EXPECT_TRUE(absl::IsInvalidArgument(
      IntTensorValues(ops_test::Vector<uint64_t>({uint64_t{1} << 63}), &values)));
}

TEST(IntTensorScalarTest, NeedsOneElement) {
  int64_t value = 0;
  ASSERT_TRUE(IntTensorScalar(ops_test::Scalar<int16_t>(-7), &value).ok());
  EXPECT_EQ(value, -7);
  ASSERT_TRUE(IntTensorScalar(ops_test::Ints({9}), &value).ok());
  EXPECT_EQ(value, 9);
  EXPECT_TRUE(absl::IsInvalidArgument(IntTensorScalar(ops_test::Ints({1, 2}), &value)));
}

}  // namespace
}  // namespace shape_fn_util
}  // namespace sluice
