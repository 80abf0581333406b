// StridedCopy's paths on shapes above the parallel threshold, for every element unit, through
// the kernels that use it (Transpose: tiles; ReverseV2: strided rows; Tile and BroadcastTo:
// zero strides), checked against index arithmetic written out here. Also Concat's and
// Fill's parallel loops.
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

template <typename T>
T ValueAt(int64_t i) {
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("v", i);
  } else if constexpr (std::is_same_v<T, complex128>) {
    return complex128(static_cast<double>(i), -static_cast<double>(i));
  } else {
    return static_cast<T>(i % 1000);
  }
}

template <typename T>
Tensor Iota(const TensorShape& shape) {
  std::vector<T> v(shape.num_elements());
  for (int64_t i = 0; i < shape.num_elements(); ++i) v[i] = ValueAt<T>(i);
  return MakeTensor<T>(shape, v);
}

class StridedCopyTest : public KernelTest {
 protected:
  template <typename T>
  void CheckTranspose(int64_t b, int64_t r, int64_t c) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("t", "Transpose")
                           .Input("x")
                           .Input("p")
                           .Attr("T", DataTypeToEnum<T>::value)
                           .Attr("Tperm", DT_INT32)
                           .Build())
                    .ok());
    AddInput(Iota<T>(TensorShape({b, r, c})));
    AddInputFromArray<int32_t>(TensorShape({3}), {0, 2, 1});
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<T> got = Values<T>(*GetOutput(0));
    ASSERT_EQ(GetOutput(0)->shape(), TensorShape({b, c, r}));
    for (int64_t i = 0; i < b; ++i) {
      for (int64_t j = 0; j < c; ++j) {
        for (int64_t k = 0; k < r; ++k) {
          ASSERT_EQ(got[(i * c + j) * r + k], ValueAt<T>((i * r + k) * c + j))
              << i << "," << j << "," << k;
        }
      }
    }
  }
};

TEST_F(StridedCopyTest, LargeTransposeFloat) { CheckTranspose<float>(3, 130, 97); }
TEST_F(StridedCopyTest, LargeTransposeInt8) { CheckTranspose<int8_t>(2, 200, 90); }
TEST_F(StridedCopyTest, LargeTransposeHalfWidth) { CheckTranspose<int16_t>(1, 180, 190); }
TEST_F(StridedCopyTest, LargeTransposeComplex128) { CheckTranspose<complex128>(2, 150, 111); }
TEST_F(StridedCopyTest, LargeTransposeString) { CheckTranspose<std::string>(1, 190, 180); }
TEST_F(StridedCopyTest, SmallTransposeWithoutTiles) { CheckTranspose<double>(4, 3, 5); }

TEST_F(StridedCopyTest, LargeReverseDouble) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("r", "ReverseV2")
                         .Input("x")
                         .Input("a")
                         .Attr("T", DT_DOUBLE)
                         .Attr("Tidx", DT_INT32)
                         .Build())
                  .ok());
  const int64_t rows = 150, cols = 300;
  AddInput(Iota<double>(TensorShape({rows, cols})));
  AddInputFromArray<int32_t>(TensorShape({2}), {0, -1});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<double> got = Values<double>(*GetOutput(0));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      ASSERT_EQ(got[i * cols + j], ValueAt<double>((rows - 1 - i) * cols + (cols - 1 - j)));
    }
  }
}

TEST_F(StridedCopyTest, LargeTileFloat) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("t", "Tile")
                         .Input("x")
                         .Input("m")
                         .Attr("T", DT_FLOAT)
                         .Attr("Tmultiples", DT_INT32)
                         .Build())
                  .ok());
  AddInput(Iota<float>(TensorShape({3, 50})));
  AddInputFromArray<int32_t>(TensorShape({2}), {100, 3});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& out = *GetOutput(0);
  ASSERT_EQ(out.shape(), TensorShape({300, 150}));
  const std::vector<float> got = Values<float>(out);
  for (int64_t i = 0; i < 300; ++i) {
    for (int64_t j = 0; j < 150; ++j) {
      ASSERT_EQ(got[i * 150 + j], ValueAt<float>((i % 3) * 50 + j % 50));
    }
  }
}

TEST_F(StridedCopyTest, LargeBroadcastToInt64) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("b", "BroadcastTo")
                         .Input("x")
                         .Input("s")
                         .Attr("T", DT_INT64)
                         .Attr("Tidx", DT_INT32)
                         .Build())
                  .ok());
  AddInput(Iota<int64_t>(TensorShape({40, 1})));
  AddInputFromArray<int32_t>(TensorShape({3}), {3, 40, 400});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<int64_t> got = Values<int64_t>(*GetOutput(0));
  for (int64_t i = 0; i < 3 * 40 * 400; ++i) {
    ASSERT_EQ(got[i], ValueAt<int64_t>((i / 400) % 40));
  }
}

TEST_F(StridedCopyTest, LargeConcatFloat) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("c", "ConcatV2")
                         .Input("a")
                         .Input("b")
                         .Input("axis")
                         .Attr("T", DT_FLOAT)
                         .Attr("N", 2)
                         .Attr("Tidx", DT_INT32)
                         .Build())
                  .ok());
  AddInput(Iota<float>(TensorShape({200, 100})));
  AddInput(Iota<float>(TensorShape({200, 70})));
  AddInputFromArray<int32_t>(TensorShape({}), {1});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> got = Values<float>(*GetOutput(0));
  for (int64_t i = 0; i < 200; ++i) {
    for (int64_t j = 0; j < 170; ++j) {
      const float want = j < 100 ? ValueAt<float>(i * 100 + j) : ValueAt<float>(i * 70 + j - 100);
      ASSERT_EQ(got[i * 170 + j], want);
    }
  }
}

TEST_F(StridedCopyTest, LargeFillComplex) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("f", "Fill")
                         .Input("d")
                         .Input("v")
                         .Attr("T", DT_COMPLEX128)
                         .Attr("index_type", DT_INT64)
                         .Build())
                  .ok());
  AddInputFromArray<int64_t>(TensorShape({2}), {300, 200});
  AddInputFromArray<complex128>(TensorShape({}), {complex128(1.5, -2)});
  ASSERT_TRUE(RunOpKernel().ok());
  for (const complex128& v : Values<complex128>(*GetOutput(0))) {
    ASSERT_EQ(v, complex128(1.5, -2));
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
