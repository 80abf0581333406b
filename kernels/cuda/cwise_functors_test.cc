// The CUDA kernels' per-element math (cwise_functors.h, half_bits.h), compiled for the host,
// against Sluice's CPU kernels on the same inputs: random values of every magnitude plus NaN,
// +-Inf, +-0, subnormals, values near overflow and the thresholds of the piecewise functions.
//
// Tolerances (a NaN must meet a NaN everywhere):
//  - bit for bit (so +0 and -0 differ) for the ops without transcendental functions: Relu,
//    Relu6, AddV2, Sub, Mul, RealDiv, Maximum, Minimum, SquaredDifference, and for Pow in float
//    (both sides call the C library's powf);
//  - half and bfloat16: 1 ulp of the type for Elu, Selu, Sigmoid, Tanh, Softplus and Pow (the
//    same float math rounded the same way, from float results an ulp of float apart);
//  - float, where the C library's functions meet Eigen's vectorised ones (see each Tolerance
//    function below): Elu 1.2e-7 and Selu 2.1e-7 absolute (exp(x) - 1 cancels), Softplus
//    1.2e-7 absolute, Tanh 6 ulp (Eigen's rational tanh is 1 from 7.905 up), Sigmoid 1.2e-7
//    absolute (Eigen interpolates sigmoid(x) - 0.5) and below -9 a relative 1.3e-4 (Eigen
//    returns exp(x) there); each also within 2-4 ulp.
// On the GPU, CUDA's float functions add their own 1-2 ulp (see cwise_ops_gpu_test.cc).
#include "kernels/cuda/cwise_functors.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/kernel_test_util.h"
#include "numerics/float_environment.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace cuda {
namespace {

using test::MakeTensor;
using test::NodeDefBuilder;
using test::Values;

// The element types under test: Sluice's CPU type and the CUDA kernels' storage type.
struct FloatCase {
  using Cpu = float;
  using S = float;
  using Bits = uint32_t;
  static constexpr DataType kType = DT_FLOAT;
  static constexpr int kMantissaBits = 23;
};
struct HalfCase {
  using Cpu = Eigen::half;
  using S = Half;
  using Bits = uint16_t;
  static constexpr DataType kType = DT_HALF;
  static constexpr int kMantissaBits = 10;
};
struct BFloat16Case {
  using Cpu = Eigen::bfloat16;
  using S = BFloat16;
  using Bits = uint16_t;
  static constexpr DataType kType = DT_BFLOAT16;
  static constexpr int kMantissaBits = 7;
};

template <typename To, typename From>
To BitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To to;
  std::memcpy(static_cast<void*>(&to), &from, sizeof(to));
  return to;
}

template <typename Case>
bool IsNanBits(typename Case::Bits b) {
  constexpr int kBits = 8 * sizeof(typename Case::Bits);
  using Bits = typename Case::Bits;
  const Bits magnitude = static_cast<Bits>(b & ~(Bits{1} << (kBits - 1)));
  const Bits infinity = static_cast<Bits>(((Bits{1} << (kBits - 1 - Case::kMantissaBits)) - 1)
                                          << Case::kMantissaBits);
  return magnitude > infinity;
}

// Distance in representable values (+0 and -0 are one value here).
template <typename Case>
int64_t UlpDistance(typename Case::Bits a, typename Case::Bits b) {
  constexpr int kBits = 8 * sizeof(typename Case::Bits);
  const auto key = [](typename Case::Bits v) -> int64_t {
    const int64_t magnitude = v & ((int64_t{1} << (kBits - 1)) - 1);
    return (v >> (kBits - 1)) ? -magnitude : magnitude;
  };
  const int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

// Inputs: the special values, then `random` values, as float, rounded to the case's type.
// A multiple of 64 elements, so that every element takes Eigen's vectorised path on the CPU
// (the last elements of a ragged tensor take its scalar functions, which differ slightly).
template <typename Case>
std::vector<typename Case::Cpu> Inputs(uint32_t seed) {
  using Cpu = typename Case::Cpu;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> values = {
      0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, 6.0f, -6.0f,
      5.999f, 6.001f, 1e-40f, -1e-40f, 1e-45f, -3e-39f,  // float subnormals
      6e-8f, -6e-8f, 3e-5f,                              // half subnormals
      1e-30f, 65504.0f, -65504.0f, 65520.0f, 1e30f, -1e30f, 3e38f, -3e38f,
      std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(), 88.0f, 89.0f, -88.0f,
      -104.0f, -9.0f, -9.5f, -11.0f, -11.2f, -12.0f, -20.0f,
      // Softplus thresholds of each type, and next to them.
      13.942385f, 13.95f, -13.942385f, -13.95f, 7.0078125f, 7.01f, -7.0078125f, -7.01f, 2.84375f,
      2.85f, -2.84375f, -2.85f, 20.0f, -30.0f, 1e-3f, -1e-3f, 1e-7f, -1e-7f};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-10.0f, 10.0f);
  std::uniform_real_distribution<float> exponent(-40.0f, 40.0f);
  std::uniform_int_distribution<uint32_t> any_bits;
  for (int i = 0; i < 6000; ++i) {
    switch (i % 3) {
      case 0:
        values.push_back(uniform(rng));
        break;
      case 1:
        values.push_back((rng() & 1 ? 1.0f : -1.0f) * std::pow(2.0f, exponent(rng)));
        break;
      default:
        values.push_back(BitCast<float>(any_bits(rng)));
        break;
    }
  }
  values.resize(values.size() / 64 * 64);
  std::vector<Cpu> out;
  for (float v : values) out.push_back(static_cast<Cpu>(v));
  return out;
}

// The functor's result for one element, as the CUDA kernel stores it. Evaluated with
// subnormals flushed, as the device code is built (nvcc's -ftz=true) and as the CPU kernels run.
template <typename Case, template <typename> class F>
typename Case::Bits ApplyUnary(typename Case::Cpu x) {
  const numerics::ScopedFlushDenormals flush;
  using S = typename Case::S;
  const S s = BitCast<S>(x);
  return BitCast<typename Case::Bits>(Store<S>(F<S>()(Load<S>(s))));
}

template <typename Case, template <typename> class F>
typename Case::Bits ApplyBinary(typename Case::Cpu x, typename Case::Cpu y) {
  const numerics::ScopedFlushDenormals flush;
  using S = typename Case::S;
  return BitCast<typename Case::Bits>(
      Store<S>(F<S>()(Load<S>(BitCast<S>(x)), Load<S>(BitCast<S>(y)))));
}

// Float subnormal operands are left to the GPU tests (cwise_ops_gpu_test): the CPU kernels read
// them as zero, and so does device code built with -ftz=true, but on the host the functors'
// C library calls and selects look at their bits, which no host mode changes.
inline bool IsFloatSubnormal(float x) {
  return x != 0 && std::fabs(x) < std::numeric_limits<float>::min();
}

// How far the functor's result may be from the CPU kernel's for input x: within `ulps`, or
// within `absolute`, or within `relative` times the CPU's magnitude. A NaN must meet a NaN.
struct Tolerance {
  int64_t ulps = 0;
  double absolute = 0;
  double relative = 0;
  bool unchecked = false;  // the CPU kernel's result is not a reference for this input
};
using ToleranceOf = Tolerance (*)(float x);

Tolerance Exact(float) { return {}; }
template <int kUlps>
Tolerance Ulps(float) {
  return {kUlps, 0, 0};
}

// float: exp(x) - 1 for x < 0 cancels, so exp's error of an ulp or two of 1.0 (2^-24) is what
// remains, whatever the result's magnitude.
Tolerance EluFloat(float) { return {2, 1.2e-7, 0}; }
Tolerance SeluFloat(float) { return {2, 1.76 * 1.2e-7, 0}; }
// Softplus: log(exp(x) + 1) rounds exp(x) + 1 near 1, so an ulp of exp(x) moves the result by
// up to an ulp of 1.0 (this also covers Eigen's exp(-inf), 2.9e-39 rather than 0: its
// vectorised exp clamps its argument at about -88.4).
Tolerance SoftplusFloat(float) { return {2, 1.2e-7, 0}; }
// Eigen 3.4's fast float rsqrt (an approximation and one Newton step) is inf for positive
// subnormals and -inf for negative ones, as TensorFlow's flush of subnormal inputs to zero
// also gives, and so does the functor, built with -ftz=true.
Tolerance RsqrtFloat(float x) {
  if (x != 0 && std::fabs(x) < std::numeric_limits<float>::min()) return {0, 0, 0, true};
  return {2, 0, 0};
}
// The CPU kernel's float reciprocal is TensorFlow's (numerics/reciprocal.h): the processor's
// estimate and a Newton step, within 3 ulps below 2^104, the 12-bit estimate alone from 2^115
// (relative error under 2^-11), and zero where the quotient is subnormal. The functor divides,
// as TensorFlow's GPU kernel does.
Tolerance ReciprocalFloat(float x) {
  if (std::fabs(x) < 0x1p104f) return {3, 0, 0};
  return {3, std::numeric_limits<float>::min(), 0x1p-11};
}
// Eigen's erf is a rational approximation, 1 from 3.832 up; in the subnormal range its
// relative error (about 3e-4) spans many ulps.
Tolerance ErfFloat(float) { return {6, 1e-37, 0}; }
// The CPU's float exp is TensorFlow's (numerics/exp_float.h): its polynomial is within 2 ulp,
// and results below FLT_MIN are flushed to zero where the functor may give a subnormal.
Tolerance ExpFloat(float) { return {4, 3e-39, 0}; }
// Eigen's rational tanh is 1 from 7.905 up, where tanh is 1 - 5 ulp.
Tolerance TanhFloat(float) { return {6, 0, 0}; }
// Eigen's float logistic interpolates sigmoid(x) - 0.5 (absolute error about an ulp of 0.5)
// and is exp(x) below -9 (relative error e^x / (1 + e^x) < 1.3e-4), with the clamped exp.
Tolerance SigmoidFloat(float x) {
  if (x < -9.0f) return {4, 1.2e-38, 1.3e-4};
  return {4, 1.2e-7, 0};
}

// The CPU's half sigmoid is TensorFlow's, computed in half arithmetic: e / (1 + e) with e and
// the sum rounded to half is up to 2 ulps off (0x3bfe for x = 7.67, where sigmoid rounds to
// 0x3bff), and keeps half's subnormal results (below 6.1e-5, from about x = -9.7) where the
// functor gives 0.
Tolerance SigmoidHalf(float) { return {3, 6.2e-5, 0}; }

class CwiseFunctorsTest : public test::KernelTest {
 protected:
  // The CPU kernel's output for `op` on `inputs`, as bits.
  template <typename Case>
  std::vector<typename Case::Bits> RunCpu(const std::string& op,
                                          const std::vector<std::vector<typename Case::Cpu>>& in) {
    using Cpu = typename Case::Cpu;
    NodeDefBuilder builder("n", op);
    for (size_t i = 0; i < in.size(); ++i) builder.Input(absl::StrCat("x", i));
    EXPECT_TRUE(InitOp(builder.Attr("T", Case::kType).Build()).ok());
    for (const std::vector<Cpu>& values : in) {
      AddInput(MakeTensor<Cpu>(TensorShape({static_cast<int64_t>(values.size())}), values));
    }
    const absl::Status s = RunOpKernel();
    EXPECT_TRUE(s.ok()) << op << ": " << s;
    std::vector<typename Case::Bits> bits;
    if (!s.ok()) return bits;
    for (Cpu v : Values<Cpu>(*GetOutput(0))) bits.push_back(BitCast<typename Case::Bits>(v));
    return bits;
  }

  // Checks one result; returns false (after reporting) when it is off.
  template <typename Case>
  bool Agrees(const std::string& what, typename Case::Bits gpu, typename Case::Bits cpu,
              const Tolerance& tolerance) {
    using S = typename Case::S;
    const bool gpu_nan = IsNanBits<Case>(gpu);
    const bool cpu_nan = IsNanBits<Case>(cpu);
    const double g = Load<S>(BitCast<S>(gpu));
    const double c = Load<S>(BitCast<S>(cpu));
    bool ok;
    if (tolerance.unchecked) {
      ok = true;
    } else if (gpu_nan || cpu_nan) {
      ok = gpu_nan == cpu_nan;
    } else {
      ok = gpu == cpu || (tolerance.ulps > 0 && UlpDistance<Case>(gpu, cpu) <= tolerance.ulps) ||
           std::fabs(g - c) <= tolerance.absolute ||
           std::fabs(g - c) <= tolerance.relative * std::fabs(c);
    }
    EXPECT_TRUE(ok) << what << ": functor " << g << " (bits 0x" << std::hex << gpu
                    << "), CPU kernel " << c << " (bits 0x" << cpu << std::dec << ")";
    return ok;
  }

  template <typename Case, template <typename> class F>
  void CheckUnary(const std::string& op, ToleranceOf tolerance) {
    using Cpu = typename Case::Cpu;
    const std::vector<Cpu> x = Inputs<Case>(1);
    const std::vector<typename Case::Bits> cpu = RunCpu<Case>(op, {x});
    ASSERT_EQ(cpu.size(), x.size());
    int failures = 0;
    for (size_t i = 0; i < x.size() && failures < 10; ++i) {
      const float xf = static_cast<float>(x[i]);
      if (IsFloatSubnormal(xf)) continue;
      const std::string what = absl::StrCat(op, "(", xf, ")");
      if (!Agrees<Case>(what, ApplyUnary<Case, F>(x[i]), cpu[i], tolerance(xf))) ++failures;
    }
  }

  // LeakyRelu's alpha is an attr: the functor holds it as S does.
  template <typename Case>
  void CheckLeakyRelu() {
    using Cpu = typename Case::Cpu;
    using S = typename Case::S;
    for (float alpha : {0.2f, 0.1f, 1.5f, -0.3f}) {
      const std::vector<Cpu> x = Inputs<Case>(4);
      NodeDefBuilder builder("n", "LeakyRelu");
      ASSERT_TRUE(
          InitOp(builder.Input("x").Attr("T", Case::kType).Attr("alpha", alpha).Build()).ok());
      AddInput(MakeTensor<Cpu>(TensorShape({static_cast<int64_t>(x.size())}), x));
      ASSERT_TRUE(RunOpKernel().ok());
      const std::vector<Cpu> cpu = Values<Cpu>(*GetOutput(0));
      const LeakyReluFunctor<S> f{Constant<S>(alpha)};
      int failures = 0;
      for (size_t i = 0; i < x.size() && failures < 10; ++i) {
        if (IsFloatSubnormal(static_cast<float>(x[i]))) continue;
        typename Case::Bits mine;
        {
          const numerics::ScopedFlushDenormals flush;  // as ApplyUnary
          mine = BitCast<typename Case::Bits>(Store<S>(f(Load<S>(BitCast<S>(x[i])))));
        }
        const std::string what =
            absl::StrCat("LeakyRelu(", static_cast<float>(x[i]), ", alpha ", alpha, ")");
        if (!Agrees<Case>(what, mine, BitCast<typename Case::Bits>(cpu[i]), {})) ++failures;
      }
    }
  }

  // Every special value against every other, then random pairs.
  template <typename Case, template <typename> class F>
  void CheckBinary(const std::string& op, const Tolerance& tolerance) {
    using Cpu = typename Case::Cpu;
    const std::vector<Cpu> a = Inputs<Case>(2);
    const std::vector<Cpu> b = Inputs<Case>(3);
    std::vector<Cpu> x, y;
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 64; ++j) {
        x.push_back(a[i]);
        y.push_back(a[j]);
      }
    }
    x.insert(x.end(), a.begin(), a.end());
    y.insert(y.end(), b.rbegin(), b.rend());
    const std::vector<typename Case::Bits> cpu = RunCpu<Case>(op, {x, y});
    ASSERT_EQ(cpu.size(), x.size());
    int failures = 0;
    for (size_t i = 0; i < x.size() && failures < 10; ++i) {
      if (IsFloatSubnormal(static_cast<float>(x[i])) ||
          IsFloatSubnormal(static_cast<float>(y[i]))) {
        continue;
      }
      const std::string what =
          absl::StrCat(op, "(", static_cast<float>(x[i]), ", ", static_cast<float>(y[i]), ")");
      if (!Agrees<Case>(what, ApplyBinary<Case, F>(x[i], y[i]), cpu[i], tolerance)) ++failures;
    }
  }

  template <typename Case>
  void CheckAll() {
    const bool is_float = Case::kType == DT_FLOAT;
    CheckUnary<Case, ReluFunctor>("Relu", Exact);
    CheckUnary<Case, Relu6Functor>("Relu6", Exact);
    CheckUnary<Case, EluFunctor>("Elu", is_float ? EluFloat : Ulps<1>);
    CheckUnary<Case, SeluFunctor>("Selu", is_float ? SeluFloat : Ulps<1>);
    CheckUnary<Case, SigmoidFunctor>(
        "Sigmoid", is_float ? SigmoidFloat : (Case::kType == DT_HALF ? SigmoidHalf : Ulps<1>));
    CheckUnary<Case, TanhFunctor>("Tanh", is_float ? TanhFloat : Ulps<1>);
    CheckUnary<Case, SoftplusFunctor>("Softplus", is_float ? SoftplusFloat : Ulps<1>);
    CheckLeakyRelu<Case>();
    CheckUnary<Case, NegFunctor>("Neg", Exact);
    CheckUnary<Case, AbsFunctor>("Abs", Exact);
    CheckUnary<Case, SquareFunctor>("Square", Exact);
    CheckUnary<Case, FloorFunctor>("Floor", Exact);
    CheckUnary<Case, CeilFunctor>("Ceil", Exact);
    CheckUnary<Case, SqrtFunctor>("Sqrt", Exact);
    CheckUnary<Case, RsqrtFunctor>("Rsqrt", is_float ? RsqrtFloat : Ulps<1>);
    CheckUnary<Case, ReciprocalFunctor>("Reciprocal", is_float ? ReciprocalFloat : Exact);
    CheckUnary<Case, SoftsignFunctor>("Softsign", Exact);
    CheckUnary<Case, ExpFunctor>("Exp", is_float ? ExpFloat : Ulps<1>);
    CheckUnary<Case, Expm1Functor>("Expm1", is_float ? Ulps<4> : Ulps<1>);
    CheckUnary<Case, LogFunctor>("Log", is_float ? Ulps<4> : Ulps<1>);
    CheckUnary<Case, Log1pFunctor>("Log1p", is_float ? Ulps<4> : Ulps<1>);
    CheckUnary<Case, ErfFunctor>("Erf", is_float ? ErfFloat : Ulps<1>);
    CheckUnary<Case, ErfcFunctor>("Erfc", is_float ? Ulps<4> : Ulps<1>);
    CheckUnary<Case, SinFunctor>("Sin", is_float ? Ulps<4> : Ulps<1>);
    CheckUnary<Case, CosFunctor>("Cos", is_float ? Ulps<4> : Ulps<1>);
    CheckBinary<Case, AddFunctor>("AddV2", {});
    CheckBinary<Case, SubFunctor>("Sub", {});
    CheckBinary<Case, MulFunctor>("Mul", {});
    CheckBinary<Case, RealDivFunctor>("RealDiv", {});
    CheckBinary<Case, MaximumFunctor>("Maximum", {});
    CheckBinary<Case, MinimumFunctor>("Minimum", {});
    CheckBinary<Case, SquaredDifferenceFunctor>("SquaredDifference", {});
    CheckBinary<Case, PowFunctor>("Pow", {is_float ? 0 : 1, 0, 0});
  }
};

TEST_F(CwiseFunctorsTest, Float) { CheckAll<FloatCase>(); }
TEST_F(CwiseFunctorsTest, Half) { CheckAll<HalfCase>(); }
TEST_F(CwiseFunctorsTest, BFloat16) { CheckAll<BFloat16Case>(); }

// The conversions of half_bits.h against Eigen's.
TEST(HalfBitsTest, HalfToFloatMatchesEigenForEveryValue) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const float mine = HalfToFloat(Half{static_cast<uint16_t>(b)});
    const float eigen = static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(uint16_t(b)));
    if (std::isnan(eigen)) {
      ASSERT_TRUE(std::isnan(mine)) << std::hex << b;
    } else {
      ASSERT_EQ(BitCast<uint32_t>(mine), BitCast<uint32_t>(eigen)) << std::hex << b;
    }
  }
}

TEST(HalfBitsTest, BFloat16ToFloatMatchesEigenForEveryValue) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const float mine = BFloat16ToFloat(BFloat16{static_cast<uint16_t>(b)});
    const float eigen = static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(uint16_t(b)));
    ASSERT_EQ(BitCast<uint32_t>(mine), BitCast<uint32_t>(eigen)) << std::hex << b;
  }
}

// Every float whose low 12 bits are 0x000, 0x7ff, 0x800, 0x801 or 0xfff (around the halfway
// points of both roundings), and random floats.
TEST(HalfBitsTest, FromFloatRoundsAsEigen) {
  std::vector<uint32_t> patterns;
  for (uint32_t high = 0; high < (1u << 20); ++high) {
    for (uint32_t low : {0x000u, 0x7ffu, 0x800u, 0x801u, 0xfffu}) {
      patterns.push_back((high << 12) | low);
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 1000000; ++i) patterns.push_back(rng());
  for (uint32_t bits : patterns) {
    const float f = BitCast<float>(bits);
    const uint16_t half = FloatToHalf(f).bits;
    const uint16_t eigen_half = Eigen::numext::bit_cast<uint16_t>(Eigen::half(f));
    const uint16_t bf16 = FloatToBFloat16(f).bits;
    const uint16_t eigen_bf16 = Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(f));
    if (std::isnan(f)) {
      ASSERT_TRUE(IsNanBits<HalfCase>(half)) << std::hex << bits;
      ASSERT_TRUE(IsNanBits<BFloat16Case>(bf16)) << std::hex << bits;
    } else {
      ASSERT_EQ(half, eigen_half) << "float bits 0x" << std::hex << bits;
      ASSERT_EQ(bf16, eigen_bf16) << "float bits 0x" << std::hex << bits;
    }
  }
}

// The constants the functors hold are those Eigen computes in each type.
TEST(CwiseConstantsTest, SoftplusThresholdsAreEigens) {
  const auto eigen = [](auto eps) {
    using T = decltype(eps);
    return static_cast<float>(Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + T(2));
  };
  EXPECT_EQ(SoftplusThreshold<float>::kValue, eigen(0.0f));
  EXPECT_EQ(SoftplusThreshold<Half>::kValue, eigen(Eigen::half(0)));
  EXPECT_EQ(SoftplusThreshold<BFloat16>::kValue, eigen(Eigen::bfloat16(0)));
}

TEST(CwiseConstantsTest, SeluConstantsRoundAsStaticCasts) {
  const double scale = 1.0507009873554804934193349852946;
  EXPECT_EQ(Constant<Half>(static_cast<float>(scale)),
            static_cast<float>(static_cast<Eigen::half>(scale)));
  EXPECT_EQ(Constant<BFloat16>(static_cast<float>(scale)),
            static_cast<float>(static_cast<Eigen::bfloat16>(scale)));
  EXPECT_EQ(Constant<float>(static_cast<float>(scale)), static_cast<float>(scale));
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
