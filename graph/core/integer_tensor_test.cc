#include "graph/core/integer_tensor.h"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_shape.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;

template <typename T>
Tensor Make(const TensorShape& shape, std::initializer_list<T> values) {
  Tensor t(DataTypeToEnum<T>::value, shape);
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.NumElements());
  int64_t i = 0;
  for (T v : values) t.base<T>()[i++] = v;
  return t;
}

template <typename T>
Tensor Vector(std::initializer_list<T> values) {
  return Make<T>(TensorShape({static_cast<int64_t>(values.size())}), values);
}

template <typename T>
Tensor Scalar(T value) {
  return Make<T>(TensorShape({}), {value});
}

std::vector<int64_t> Values(const IntegerValues& values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

TEST(IntegerTensorValuesTest, ReadsEveryIntegerDtype) {
  IntegerValues values;
  ASSERT_TRUE(IntegerTensorValues(Vector<int32_t>({3, -1}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(3, -1));
  ASSERT_TRUE(IntegerTensorValues(Vector<int64_t>({INT64_MIN, INT64_MAX}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(INT64_MIN, INT64_MAX));
  ASSERT_TRUE(IntegerTensorValues(Vector<int8_t>({-128, 127}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(-128, 127));
  ASSERT_TRUE(IntegerTensorValues(Vector<int16_t>({-32768}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(-32768));
  ASSERT_TRUE(IntegerTensorValues(Vector<uint8_t>({255}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(255));
  ASSERT_TRUE(IntegerTensorValues(Vector<uint16_t>({65535}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(65535));
  ASSERT_TRUE(IntegerTensorValues(Vector<uint32_t>({4294967295u}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(4294967295));
  ASSERT_TRUE(IntegerTensorValues(Vector<uint64_t>({uint64_t{INT64_MAX}}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(INT64_MAX));
  ASSERT_TRUE(IntegerTensorValues(Make<int32_t>(TensorShape({2, 2}), {1, 2, 3, 4}), &values).ok());
  EXPECT_THAT(Values(values), ElementsAre(1, 2, 3, 4));
  ASSERT_TRUE(IntegerTensorValues(Vector<int32_t>({}), &values).ok());
  EXPECT_TRUE(values.empty());
}

TEST(IntegerTensorValuesTest, RejectsOtherDtypesAndHugeUnsigned) {
  IntegerValues values;
  EXPECT_TRUE(absl::IsInvalidArgument(IntegerTensorValues(Scalar<float>(1.0f), &values)));
  EXPECT_TRUE(absl::IsInvalidArgument(IntegerTensorValues(Scalar<bool>(true), &values)));
  const absl::Status huge = IntegerTensorValues(Vector<uint64_t>({1, uint64_t{1} << 63}), &values);
  EXPECT_TRUE(absl::IsInvalidArgument(huge));
  EXPECT_EQ(huge.message(), "Value 9223372036854775808 does not fit in int64");
}

TEST(IntegerTensorScalarTest, NeedsExactlyOneElement) {
  int64_t value = 0;
  ASSERT_TRUE(IntegerTensorScalar(Scalar<int16_t>(-7), &value).ok());
  EXPECT_EQ(value, -7);
  ASSERT_TRUE(IntegerTensorScalar(Vector<int32_t>({9}), &value).ok());
  EXPECT_EQ(value, 9);
  EXPECT_TRUE(absl::IsInvalidArgument(IntegerTensorScalar(Vector<int32_t>({1, 2}), &value)));
  EXPECT_TRUE(absl::IsInvalidArgument(IntegerTensorScalar(Vector<int32_t>({}), &value)));
  EXPECT_TRUE(absl::IsInvalidArgument(IntegerTensorScalar(Scalar<double>(1.0), &value)));
}

TEST(VisitIndexTypeTest, IndexDtypesOnly) {
  for (DataType dtype : {DT_INT8, DT_UINT8, DT_INT16, DT_INT32, DT_INT64}) {
    int calls = 0;
    EXPECT_TRUE(VisitIndexType(dtype, [&](auto tag) {
      using I = typename decltype(tag)::type;
      EXPECT_EQ(DataTypeToEnum<I>::value, dtype);
      ++calls;
    }));
    EXPECT_EQ(calls, 1);
  }
  EXPECT_FALSE(VisitIndexType(DT_UINT64, [](auto) { ADD_FAILURE(); }));
  EXPECT_FALSE(VisitIndexType(DT_FLOAT, [](auto) { ADD_FAILURE(); }));
}

TEST(IndexElementTest, WidensEachIndexDtype) {
  EXPECT_EQ(IndexElement(Vector<int8_t>({5, -3}), 1), -3);
  EXPECT_EQ(IndexElement(Vector<uint8_t>({200}), 0), 200);
  EXPECT_EQ(IndexElement(Vector<int64_t>({INT64_MIN}), 0), INT64_MIN);
  EXPECT_EQ(MaxIndexValue(DT_INT16), 32767);
  EXPECT_EQ(MaxIndexValue(DT_UINT8), 255);
  EXPECT_EQ(MaxIndexValue(DT_INT64), std::numeric_limits<int64_t>::max());
}

}  // namespace
}  // namespace sluice
