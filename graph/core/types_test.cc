#include "graph/core/types.h"

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(TypesTest, NamesMatchTensorFlow) {
  EXPECT_EQ(DataTypeString(DT_FLOAT), "float");
  EXPECT_EQ(DataTypeString(DT_INT32), "int32");
  EXPECT_EQ(DataTypeString(DT_HALF), "half");
  EXPECT_EQ(DataTypeString(DT_BFLOAT16), "bfloat16");
  EXPECT_EQ(DataTypeString(DT_COMPLEX128), "complex128");
  EXPECT_EQ(DataTypeString(DT_FLOAT_REF), "float_ref");
  EXPECT_EQ(DataTypeString(DT_INVALID), "INVALID");
  EXPECT_EQ(DataTypeString(DataType(77)), "unknown dtype enum (77)");
  EXPECT_EQ(DataTypeEnumName(DT_INT64_REF), "DT_INT64_REF");
  EXPECT_EQ(DataTypeSliceString({DT_FLOAT, DT_INT32}), "[float, int32]");
}

TEST(TypesTest, ParsesEveryName) {
  for (DataType dt : AllTypes()) {
    DataType parsed = DT_INVALID;
    ASSERT_TRUE(DataTypeFromString(DataTypeString(dt), &parsed)) << DataTypeString(dt);
    EXPECT_EQ(parsed, dt);
    ASSERT_TRUE(DataTypeFromString(DataTypeString(MakeRefType(dt)), &parsed));
    EXPECT_EQ(parsed, MakeRefType(dt));
  }
  DataType parsed;
  EXPECT_FALSE(DataTypeFromString("float32", &parsed));
  EXPECT_FALSE(DataTypeFromString("", &parsed));
  EXPECT_FALSE(DataTypeFromString("_ref", &parsed));
}

TEST(TypesTest, RefTypes) {
  EXPECT_TRUE(IsRefType(DT_FLOAT_REF));
  EXPECT_FALSE(IsRefType(DT_FLOAT));
  EXPECT_EQ(MakeRefType(DT_INT32), DT_INT32_REF);
  EXPECT_EQ(MakeRefType(DT_INT32_REF), DT_INT32_REF);
  EXPECT_EQ(RemoveRefType(DT_INT32_REF), DT_INT32);
  EXPECT_EQ(BaseType(DT_HALF_REF), DT_HALF);
  EXPECT_TRUE(IsValidDataType(DT_UINT4_REF));
  EXPECT_FALSE(IsValidDataType(DT_INVALID));
  EXPECT_FALSE(IsValidDataType(DataType(50)));
}

TEST(TypesTest, Sizes) {
  EXPECT_EQ(DataTypeSize(DT_FLOAT), 4);
  EXPECT_EQ(DataTypeSize(DT_DOUBLE), 8);
  EXPECT_EQ(DataTypeSize(DT_HALF), 2);
  EXPECT_EQ(DataTypeSize(DT_BFLOAT16), 2);
  EXPECT_EQ(DataTypeSize(DT_BOOL), 1);
  EXPECT_EQ(DataTypeSize(DT_COMPLEX64), 8);
  EXPECT_EQ(DataTypeSize(DT_COMPLEX128), 16);
  EXPECT_EQ(DataTypeSize(DT_QINT32), 4);
  EXPECT_EQ(DataTypeSize(DT_INT64_REF), 8);
  EXPECT_EQ(DataTypeSize(DT_STRING), 0);
  EXPECT_EQ(DataTypeSize(DT_RESOURCE), 0);
  EXPECT_FALSE(DataTypeCanUseMemcpy(DT_STRING));
  EXPECT_TRUE(DataTypeCanUseMemcpy(DT_UINT64));
}

TEST(TypesTest, Classes) {
  EXPECT_TRUE(DataTypeIsFloating(DT_BFLOAT16));
  EXPECT_FALSE(DataTypeIsFloating(DT_INT32));
  EXPECT_TRUE(DataTypeIsComplex(DT_COMPLEX64));
  EXPECT_TRUE(DataTypeIsInteger(DT_UINT16));
  EXPECT_FALSE(DataTypeIsInteger(DT_QINT8));
  EXPECT_TRUE(DataTypeIsQuantized(DT_QINT8));
  EXPECT_TRUE(DataTypeIsUnsigned(DT_UINT64));
  EXPECT_FALSE(DataTypeIsSigned(DT_UINT8));
  EXPECT_EQ(RealNumberTypes().size(), 12u);
  EXPECT_EQ(NumberTypes().size(), 19u);
  EXPECT_EQ(QuantizedTypes().size(), 5u);
}

TEST(TypesTest, Traits) {
  static_assert(DataTypeToEnum<float>::value == DT_FLOAT);
  static_assert(DataTypeToEnum<half>::value == DT_HALF);
  static_assert(DataTypeToEnum<bfloat16>::value == DT_BFLOAT16);
  static_assert(DataTypeToEnum<complex64>::value == DT_COMPLEX64);
  static_assert(DataTypeToEnum<std::string>::value == DT_STRING);
  static_assert(DataTypeToEnum<qint8>::value == DT_QINT8);
  static_assert(DataTypeToEnum<int64_t>::ref() == DT_INT64_REF);
  static_assert(std::is_same_v<EnumToDataType<DT_UINT16>::Type, uint16_t>);
  static_assert(std::is_same_v<EnumToDataType<DT_BOOL>::Type, bool>);
  int count = 0;
#define SLUICE_COUNT(T) ++count;
  SLUICE_CALL_REAL_NUMBER_TYPES(SLUICE_COUNT)
#undef SLUICE_COUNT
  EXPECT_EQ(count, 12);
}

}  // namespace
}  // namespace sluice
