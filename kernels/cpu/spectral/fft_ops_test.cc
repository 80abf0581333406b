// The FFT kernels beyond the fixtures (tests/kernels/fixtures/spectral.pbtxt): the cases
// TensorFlow gives no answer to match (a zero fft_length with a non-empty input, an empty
// transformed dim), and transforms large enough for the parallel split checked against a
// plain DFT in long double.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

using C = std::complex<long double>;

class FftOpTest : public KernelTest {
 protected:
  void InitReal(const std::string& op, DataType real, DataType complex) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", op)
                           .Input("input")
                           .Input("fft_length")
                           .Attr("Treal", real)
                           .Attr("Tcomplex", complex)
                           .Build())
                    .ok());
  }
  void InitComplex(const std::string& op, DataType complex) {
    ASSERT_TRUE(
        InitOp(NodeDefBuilder("n", op).Input("input").Attr("Tcomplex", complex).Build()).ok());
  }
};

// The DFT of x[0, n) (inverse: with e^{+i...} and divided by n).
std::vector<C> Dft(const std::vector<C>& x, bool inverse) {
  const int64_t n = static_cast<int64_t>(x.size());
  const long double pi = std::acos(-1.0L);
  std::vector<C> y(n);
  for (int64_t k = 0; k < n; ++k) {
    C sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      const long double angle = (inverse ? 2 : -2) * pi * static_cast<long double>((j * k) % n) / n;
      sum += x[j] * C(std::cos(angle), std::sin(angle));
    }
    y[k] = inverse ? sum / static_cast<long double>(n) : sum;
  }
  return y;
}

TEST_F(FftOpTest, ZeroLengthGivesAnEmptyOutput) {
  InitReal("RFFT", DT_FLOAT, DT_COMPLEX64);
  AddInputFromArray<float>(TensorShape({2, 8}), std::vector<float>(16, 1.0f));
  AddInputFromArray<int32_t>(TensorShape({1}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,0]");

  InitReal("IRFFT2D", DT_DOUBLE, DT_COMPLEX128);
  AddInputFromArray<complex128>(TensorShape({3, 4}), std::vector<complex128>(12, {1, 2}));
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[3,0]");
}

TEST_F(FftOpTest, EmptyTransformedDimGivesZeros) {
  InitReal("RFFT", DT_FLOAT, DT_COMPLEX64);
  AddInputFromArray<float>(TensorShape({2, 0}), {});
  AddInputFromArray<int32_t>(TensorShape({1}), {6});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,4]");
  EXPECT_EQ(Values<complex64>(*GetOutput(0)), std::vector<complex64>(8));

  InitReal("IRFFT2D", DT_FLOAT, DT_COMPLEX64);
  AddInputFromArray<complex64>(TensorShape({0, 3}), {});
  AddInputFromArray<int32_t>(TensorShape({2}), {2, 4});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[2,4]");
  EXPECT_EQ(Values<float>(*GetOutput(0)), std::vector<float>(8));
}

TEST_F(FftOpTest, OutputTooLargeIsAnError) {
  // An empty input dim lets fft_length ask for any output size; one past int64 fails cleanly.
  InitReal("IRFFT3D", DT_FLOAT, DT_COMPLEX64);
  AddInputFromArray<complex64>(TensorShape({4, 0, 0, 0}), {});
  AddInputFromArray<int32_t>(TensorShape({3}), {2147483647, 2147483647, 2147483647});
  EXPECT_FALSE(RunOpKernel().ok());
}

TEST_F(FftOpTest, LargeBatchedFftMatchesAPlainDft) {
  // 300 lines of 120 points: enough for the parallel split.
  const int64_t batch = 300, n = 120;
  std::vector<complex128> x(batch * n);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = complex128(std::sin(0.37 * i), std::cos(0.11 * i * i));
  }
  for (const bool inverse : {false, true}) {
    InitComplex(inverse ? "IFFT" : "FFT", DT_COMPLEX128);
    AddInputFromArray<complex128>(TensorShape({batch, n}), x);
    ASSERT_TRUE(RunOpKernel().ok());
    const std::vector<complex128> got = Values<complex128>(*GetOutput(0));
    for (int64_t b = 0; b < batch; b += 37) {
      std::vector<C> line(x.begin() + b * n, x.begin() + (b + 1) * n);
      const std::vector<C> want = Dft(line, inverse);
      for (int64_t k = 0; k < n; ++k) {
        EXPECT_NEAR(got[b * n + k].real(), static_cast<double>(want[k].real()), 1e-10);
        EXPECT_NEAR(got[b * n + k].imag(), static_cast<double>(want[k].imag()), 1e-10);
      }
    }
  }
}

TEST_F(FftOpTest, LargeRfft2dMatchesAPlainDft) {
  // [batch, rows, cols] cropped to [rows - 1, cols - 2]: the real transform of each row,
  // then the complex one down each column.
  const int64_t batch = 40, rows = 17, cols = 66, fr = 16, fc = 64;
  std::vector<double> x(batch * rows * cols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.013 * i * i + 0.5);
  InitReal("RFFT2D", DT_DOUBLE, DT_COMPLEX128);
  AddInputFromArray<double>(TensorShape({batch, rows, cols}), x);
  AddInputFromArray<int32_t>(TensorShape({2}), {fr, fc});
  ASSERT_TRUE(RunOpKernel().ok());
  const int64_t half = fc / 2 + 1;
  ASSERT_EQ(GetOutput(0)->shape().DebugString(), "[40,16,33]");
  const std::vector<complex128> got = Values<complex128>(*GetOutput(0));
  for (int64_t b = 0; b < batch; b += 13) {
    std::vector<std::vector<C>> by_rows(fr);
    for (int64_t r = 0; r < fr; ++r) {
      std::vector<C> line(fc);
      for (int64_t c = 0; c < fc; ++c) line[c] = x[(b * rows + r) * cols + c];
      by_rows[r] = Dft(line, false);
    }
    for (int64_t c = 0; c < half; ++c) {
      std::vector<C> column(fr);
      for (int64_t r = 0; r < fr; ++r) column[r] = by_rows[r][c];
      const std::vector<C> want = Dft(column, false);
      for (int64_t r = 0; r < fr; ++r) {
        const complex128 g = got[(b * fr + r) * half + c];
        EXPECT_NEAR(g.real(), static_cast<double>(want[r].real()), 1e-9);
        EXPECT_NEAR(g.imag(), static_cast<double>(want[r].imag()), 1e-9);
      }
    }
  }
}

TEST_F(FftOpTest, IrfftInvertsRfft) {
  const int64_t batch = 500, n = 90;
  std::vector<float> x(batch * n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.7f * i) * 3.0f;
  InitReal("RFFT", DT_FLOAT, DT_COMPLEX64);
  AddInputFromArray<float>(TensorShape({batch, n}), x);
  AddInputFromArray<int32_t>(TensorShape({1}), {static_cast<int32_t>(n)});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor spectrum = *GetOutput(0);
  InitReal("IRFFT", DT_FLOAT, DT_COMPLEX64);
  AddInput(spectrum);
  AddInputFromArray<int32_t>(TensorShape({1}), {static_cast<int32_t>(n)});
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<float> back = Values<float>(*GetOutput(0));
  ASSERT_EQ(back.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(back[i], x[i], 1e-5);
}

// Issue 25: each line's working copy comes from the device's allocator, so lines too long
// for it are RESOURCE_EXHAUSTED (which the executor attributes to the node), not a heap
// allocation outside the memory limit. A line of 50000 points has a 400 KB output and
// 800 KB of scratch (the line and its transform).
TEST_F(FftOpTest, LineScratchComesFromTheAllocator) {
  const auto small = CpuAllocator::WithBytesLimit(1 << 20);
  UseAllocator(small.get());
  for (const int64_t n : {1000, 50000}) {
    InitComplex("FFT", DT_COMPLEX64);
    AddInputFromArray<complex64>(TensorShape({1, n}), std::vector<complex64>(n, {1, 0}));
    const absl::Status s = RunOpKernel();
    if (n == 1000) {
      ASSERT_TRUE(s.ok()) << s;
      EXPECT_EQ(GetOutput(0)->base<complex64>()[0], complex64(1000, 0));
    } else {
      EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
      EXPECT_NE(s.message().find("OOM when allocating"), std::string::npos) << s;
    }
  }
  // The last run's output came from `small`: release it while `small` lives.
  UseAllocator(DefaultCpuAllocator());
}

}  // namespace
}  // namespace test
}  // namespace sluice
