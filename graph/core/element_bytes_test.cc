#include "graph/core/element_bytes.h"

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "graph/core/tensor_shape.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(VisitByElementSizeTest, UnitsMatchElementSizes) {
  for (DataType dtype : {DT_BOOL, DT_INT8, DT_UINT8, DT_HALF, DT_BFLOAT16, DT_INT16, DT_FLOAT,
                         DT_INT32, DT_UINT32, DT_DOUBLE, DT_INT64, DT_COMPLEX64, DT_COMPLEX128}) {
    size_t unit_size = 0;
    EXPECT_TRUE(VisitByElementSize(dtype, [&](auto tag) {
      unit_size = sizeof(typename decltype(tag)::type);
    })) << DataTypeString(dtype);
    EXPECT_EQ(unit_size, static_cast<size_t>(DataTypeSize(dtype))) << DataTypeString(dtype);
  }
  bool is_string = false;
  EXPECT_TRUE(VisitByElementSize(DT_STRING, [&](auto tag) {
    is_string = std::is_same_v<typename decltype(tag)::type, std::string>;
  }));
  EXPECT_TRUE(is_string);
  bool is_handle = false;
  EXPECT_TRUE(VisitByElementSize(DT_RESOURCE, [&](auto tag) {
    is_handle = std::is_same_v<typename decltype(tag)::type, ResourceHandleProto>;
  }));
  EXPECT_TRUE(is_handle);
  bool is_variant = false;
  EXPECT_TRUE(VisitByElementSize(DT_VARIANT, [&](auto tag) {
    is_variant = std::is_same_v<typename decltype(tag)::type, Variant>;
  }));
  EXPECT_TRUE(is_variant);
  EXPECT_FALSE(VisitByElementSize(DT_INVALID, [](auto) { ADD_FAILURE(); }));
}

TEST(CopyElementsTest, CopiesBitsExactly) {
  // A NaN with a payload and a negative zero survive: the copy never looks at values.
  const uint32_t nan_bits = 0x7fc01234u;
  float src[3] = {-0.0f, 1.5f, 0};
  std::memcpy(&src[2], &nan_bits, sizeof(float));
  float dst[3] = {};
  EXPECT_TRUE(CopyElements(DT_FLOAT, src, dst, 3));
  EXPECT_EQ(std::memcmp(src, dst, sizeof(src)), 0);

  const std::complex<double> csrc[2] = {{1, -2}, {3e300, -0.0}};
  std::complex<double> cdst[2];
  EXPECT_TRUE(CopyElements(DT_COMPLEX128, csrc, cdst, 2));
  EXPECT_EQ(std::memcmp(csrc, cdst, sizeof(csrc)), 0);

  const std::string ssrc[2] = {"a", std::string(100, 'x')};
  std::string sdst[2];
  EXPECT_TRUE(CopyElements(DT_STRING, ssrc, sdst, 2));
  EXPECT_EQ(sdst[0], "a");
  EXPECT_EQ(sdst[1], std::string(100, 'x'));
  EXPECT_FALSE(CopyElements(DT_INVALID, ssrc, sdst, 2));
}

TEST(FillElementsTest, RepeatsOneValue) {
  const int16_t value = -5;
  int16_t dst[4] = {};
  EXPECT_TRUE(FillElements(DT_INT16, &value, dst, 4));
  for (int16_t v : dst) EXPECT_EQ(v, -5);
  const std::string word = "fill";
  std::string words[3];
  EXPECT_TRUE(FillElements(DT_STRING, &word, words, 3));
  for (const std::string& w : words) EXPECT_EQ(w, "fill");
  EXPECT_TRUE(FillElements(DT_INT16, &value, dst, 0));
}

TEST(CopyTensorElementsTest, IntoAnotherBuffer) {
  Tensor from(DT_INT64, TensorShape({2, 2}));
  for (int64_t i = 0; i < 4; ++i) from.base<int64_t>()[i] = std::numeric_limits<int64_t>::min() + i;
  Tensor to(DT_INT64, TensorShape({4}));
  CopyTensorElements(from, &to);
  EXPECT_FALSE(to.SharesBufferWith(from));
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(to.base<int64_t>()[i], from.base<int64_t>()[i]);

  const Tensor copy = from.DeepCopy();
  EXPECT_FALSE(copy.SharesBufferWith(from));
  EXPECT_EQ(copy.shape(), from.shape());
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(copy.base<int64_t>()[i], from.base<int64_t>()[i]);
}

}  // namespace
}  // namespace sluice
