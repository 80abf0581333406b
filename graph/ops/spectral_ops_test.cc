#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

using ::testing::HasSubstr;

TEST(SpectralShapeTest, ComplexTransformsKeepTheShape) {
  EXPECT_EQ(Infer("FFT", "Tcomplex=DT_COMPLEX64", "[2,8]"), "[2,8]");
  EXPECT_EQ(Infer("IFFT", "Tcomplex=DT_COMPLEX128", "[?]"), "[?]");
  EXPECT_EQ(Infer("FFT2D", "Tcomplex=DT_COMPLEX64", "[3,4]"), "[3,4]");
  EXPECT_EQ(Infer("IFFT3D", "Tcomplex=DT_COMPLEX64", "[1,2,3,4]"), "[1,2,3,4]");
  EXPECT_EQ(Infer("FFT3D", "Tcomplex=DT_COMPLEX64", "?"), "?");
  EXPECT_THAT(Infer("FFT", "Tcomplex=DT_COMPLEX64", "[]"), IsInvalidArgument("at least rank 1"));
  EXPECT_THAT(Infer("FFT2D", "Tcomplex=DT_COMPLEX64", "[3]"), IsInvalidArgument("at least rank 2"));
  EXPECT_THAT(Infer("IFFT3D", "Tcomplex=DT_COMPLEX64", "[3,4]"),
              IsInvalidArgument("at least rank 3"));
}

TEST(SpectralShapeTest, RealForwardHalvesTheLastLength) {
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[1]", {{1, Ints({8})}}),
            "[2,5]");
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[1]", {{1, Ints({7})}}),
            "[2,4]");
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[8];[1]", {{1, Ints({0})}}),
            "[0]");
  EXPECT_EQ(
      Infer("RFFT", "Treal=DT_DOUBLE, Tcomplex=DT_COMPLEX128", "[?,?];[1]", {{1, Ints({512})}}),
      "[?,257]");
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[1]"), "[2,?]");
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[?]"), "[2,?]");
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "?;[1]", {{1, Ints({8})}}), "?");
  EXPECT_EQ(
      Infer("RFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[3,4,8];[2]", {{1, Ints({4, 7})}}),
      "[3,4,4]");
  EXPECT_EQ(Infer("RFFT3D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[5,6,7];[3]",
                  {{1, Ints({2, 3, 6})}}),
            "[2,3,4]");
  EXPECT_EQ(Infer("RFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[3,4,8];[2]"), "[3,?,?]");
}

TEST(SpectralShapeTest, RealInverseTakesTheLengths) {
  EXPECT_EQ(Infer("IRFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,5];[1]", {{1, Ints({8})}}),
            "[2,8]");
  EXPECT_EQ(Infer("IRFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,5];[1]", {{1, Ints({9})}}),
            "[2,9]");
  EXPECT_EQ(
      Infer("IRFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[3,4,8];[2]", {{1, Ints({4, 7})}}),
      "[3,4,7]");
  EXPECT_EQ(
      Infer("IRFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[3,4,8];[2]", {{1, Ints({4, 0})}}),
      "[3,4,0]");
  EXPECT_EQ(Infer("IRFFT3D", "Treal=DT_DOUBLE, Tcomplex=DT_COMPLEX128", "[?,?,?];[3]"), "[?,?,?]");
}

TEST(SpectralShapeTest, RealTransformErrors) {
  EXPECT_THAT(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[];[1]"),
              IsInvalidArgument("at least rank 1"));
  EXPECT_THAT(Infer("RFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[8];[2]"),
              IsInvalidArgument("at least rank 2"));
  EXPECT_THAT(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[2]"),
              IsInvalidArgument("must be 1 but is 2"));
  EXPECT_THAT(Infer("IRFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("IRFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[2,8];[1,1]"),
              IsInvalidArgument("must be rank 1"));
}

TEST(SpectralShapeTest, NegativeLengthsAreUnknown) {
  // differs from TensorFlow, whose shape function makes a size of fft_length[-1] / 2 + 1
  // from a negative length (0 for -2); the kernel rejects negative lengths in both.
  EXPECT_EQ(Infer("RFFT", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[8];[1]", {{1, Ints({-2})}}),
            "[?]");
  // differs from TensorFlow, which keeps a negative dim in the shape (Python then refuses it).
  EXPECT_EQ(Infer("IRFFT2D", "Treal=DT_FLOAT, Tcomplex=DT_COMPLEX64", "[3,4,8];[2]",
                  {{1, Ints({-4, 6})}}),
            "[3,?,6]");
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
