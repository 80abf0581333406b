#include "compiler/transcendental_code.h"

#include <cstdint>
#include <limits>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "numerics/erfc_float.h"
#include "numerics/exp_float.h"
#include "numerics/log_float.h"

namespace sluice {
namespace {

// Eigen's pmadd(a, b, c) without FMA: a multiply, then an add.
std::string MultiplyAdd(MlirTextBuilder& mlir, const std::string& a, const std::string& b,
                        const std::string& c, int width) {
  return mlir.Binary("addf", mlir.Binary("mulf", a, b, width), c, width);
}

// The same in f64, for Erfc.
std::string MultiplyAdd64(MlirTextBuilder& mlir, const std::string& a, const std::string& b,
                          const std::string& c, int width) {
  return mlir.Binary64("addf", mlir.Binary64("mulf", a, b, width), c, width);
}

// Eigen's pmin(a, b) = b < a ? b : a and pmax(a, b) = b > a ? b : a (SSE's operand order,
// which decides what a NaN operand gives).
std::string EigenMin(MlirTextBuilder& mlir, const std::string& a, const std::string& b, int width) {
  return mlir.Select(mlir.Compare("olt", b, a, width), b, a, width);
}
std::string EigenMax(MlirTextBuilder& mlir, const std::string& a, const std::string& b, int width) {
  return mlir.Select(mlir.Compare("ogt", b, a, width), b, a, width);
}

// x * p(x^2) / q(x^2) with x clamped to [-limit, limit], as Eigen's generic_fast_erf_float
// and generic_fast_tanh_float. `alpha` and `beta` run from the highest coefficient down.
std::string Rational(MlirTextBuilder& mlir, const std::string& a, int width, float limit,
                     absl::Span<const float> alpha, absl::Span<const float> beta,
                     std::string* clamped) {
  const std::string x = EigenMax(mlir, EigenMin(mlir, a, mlir.Float(limit, width), width),
                                 mlir.Float(-limit, width), width);
  *clamped = x;
  const std::string x2 = mlir.Binary("mulf", x, x, width);
  std::string p =
      MultiplyAdd(mlir, x2, mlir.Float(alpha[0], width), mlir.Float(alpha[1], width), width);
  for (size_t i = 2; i < alpha.size(); ++i) {
    p = MultiplyAdd(mlir, x2, p, mlir.Float(alpha[i], width), width);
  }
  p = mlir.Binary("mulf", x, p, width);
  std::string q =
      MultiplyAdd(mlir, x2, mlir.Float(beta[0], width), mlir.Float(beta[1], width), width);
  for (size_t i = 2; i < beta.size(); ++i) {
    q = MultiplyAdd(mlir, x2, q, mlir.Float(beta[i], width), width);
  }
  return mlir.Binary("divf", p, q, width);
}

// 2^e as the float whose exponent field is e + 127 (e in i32 lanes).
std::string PowerOfTwo(MlirTextBuilder& mlir, const std::string& e_i32, int width) {
  const std::string biased = mlir.BinaryInt32("addi", e_i32, mlir.Int32(127, width), width);
  return mlir.FromBits(mlir.BinaryInt32("shli", biased, mlir.Int32(23, width), width), width);
}

}  // namespace

std::string EmitEigenErf(MlirTextBuilder& mlir, const std::string& x, int width) {
  // Eigen 3.4, SpecialFunctionsImpl.h, generic_fast_erf_float.
  static constexpr float kAlpha[] = {-2.72614225801306e-10f, 2.77068142495902e-08f,
                                     -2.10102402082508e-06f, -5.69250639462346e-05f,
                                     -7.34990630326855e-04f, -2.95459980854025e-03f,
                                     -1.60960333262415e-02f};
  static constexpr float kBeta[] = {-1.45660718464996e-05f, -2.13374055278905e-04f,
                                    -1.68282697438203e-03f, -7.37332916720468e-03f,
                                    -1.42647390514189e-02f};
  std::string clamped;
  return Rational(mlir, x, width, 4.f, kAlpha, kBeta, &clamped);
}

std::string EmitEigenTanh(MlirTextBuilder& mlir, const std::string& x, int width) {
  // Eigen 3.4, MathFunctionsImpl.h, generic_fast_tanh_float without FMA; below 0.0004 in
  // magnitude the (clamped) input itself.
  static constexpr float kAlpha[] = {
      -2.76076847742355e-16f, 2.00018790482477e-13f, -8.60467152213735e-11f, 5.12229709037114e-08f,
      1.48572235717979e-05f,  6.37261928875436e-04f, 4.89352455891786e-03f};
  static constexpr float kBeta[] = {1.19825839466702e-06f, 1.18534705686654e-04f,
                                    2.26843463243900e-03f, 4.89352518554385e-03f};
  std::string clamped;
  const std::string ratio = Rational(mlir, x, width, 7.90531110763549805f, kAlpha, kBeta, &clamped);
  const std::string magnitude =
      mlir.Assign(absl::StrCat("math.abs ", x, " : ", MlirTextBuilder::Type(width)));
  const std::string tiny = mlir.Compare("olt", magnitude, mlir.Float(0.0004f, width), width);
  return mlir.Select(tiny, clamped, ratio, width);
}

namespace {

// Eigen's pldexp_generic(y, m) for integral m: e = clamp(m, -278, 278), b = e >> 2,
// y * 2^b * 2^b * 2^b * 2^(e - 3b). m is NaN only where y is: it is made 0 first, as converting
// NaN to an integer has no defined value in LLVM.
std::string ScaleByPowerOfTwo(MlirTextBuilder& mlir, const std::string& y, const std::string& m,
                              int width) {
  auto f = [&](float value) { return mlir.Float(value, width); };
  std::string e = EigenMin(mlir, EigenMax(mlir, m, f(-278.0f), width), f(278.0f), width);
  e = mlir.Select(mlir.Compare("uno", e, e, width), f(0.0f), e, width);
  const std::string e_i32 =
      mlir.Assign(absl::StrCat("arith.fptosi ", e, " : ", MlirTextBuilder::Type(width), " to ",
                               MlirTextBuilder::IntType32(width)));
  const std::string b = mlir.BinaryInt32("shrsi", e_i32, mlir.Int32(2, width), width);
  const std::string c = PowerOfTwo(mlir, b, width);
  const std::string out = mlir.Binary(
      "mulf", mlir.Binary("mulf", mlir.Binary("mulf", y, c, width), c, width), c, width);
  const std::string rest = mlir.BinaryInt32(
      "subi", mlir.BinaryInt32("subi", mlir.BinaryInt32("subi", e_i32, b, width), b, width), b,
      width);
  return mlir.Binary("mulf", out, PowerOfTwo(mlir, rest, width), width);
}

// Eigen 3.4's pexp_float without FMA, which its float logistic uses below -9.
std::string EmitEigenExp(MlirTextBuilder& mlir, const std::string& a, int width) {
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string x = EigenMax(mlir, EigenMin(mlir, a, f(88.723f), width), f(-88.723f), width);
  const std::string m = mlir.Assign(
      absl::StrCat("math.floor ", MultiplyAdd(mlir, x, f(1.44269504088896341f), f(0.5f), width),
                   " : ", MlirTextBuilder::Type(width)));
  std::string r = MultiplyAdd(mlir, m, f(-0.693359375f), x, width);
  r = MultiplyAdd(mlir, m, f(2.12194440e-4f), r, width);
  const std::string r2 = mlir.Binary("mulf", r, r, width);
  const std::string r3 = mlir.Binary("mulf", r2, r, width);
  std::string y = MultiplyAdd(mlir, f(1.9875691500E-4f), r, f(1.3981999507E-3f), width);
  std::string y1 = MultiplyAdd(mlir, f(4.1665795894E-2f), r, f(1.6666665459E-1f), width);
  const std::string y2 = mlir.Binary("addf", r, f(1.0f), width);
  y = MultiplyAdd(mlir, y, r, f(8.3334519073E-3f), width);
  y1 = MultiplyAdd(mlir, y1, r, f(5.0000001201E-1f), width);
  y = MultiplyAdd(mlir, y, r3, y1, width);
  y = MultiplyAdd(mlir, y, r2, y2, width);
  return EigenMax(mlir, ScaleByPowerOfTwo(mlir, y, m, width), a, width);
}

}  // namespace

// numerics::ExpFloat's vector form, operation for operation (numerics/exp_float.h holds the
// sequence and the constants).
std::string EmitTensorFlowExp(MlirTextBuilder& mlir, const std::string& a, int width) {
  using namespace numerics;  // NOLINT: the constants of exp_float.h
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string zero = mlir.Compare("olt", a, f(kExpFloatZeroBelow), width);
  const std::string x = EigenMin(mlir, a, f(kExpFloatHigh), width);
  const std::string m = mlir.Assign(
      absl::StrCat("math.floor ", MultiplyAdd(mlir, x, f(kExpFloatLog2e), f(0.5f), width), " : ",
                   MlirTextBuilder::Type(width)));
  std::string r = MultiplyAdd(mlir, m, f(kExpFloatMinusLn2High), x, width);
  r = MultiplyAdd(mlir, m, f(kExpFloatLn2Low), r, width);
  const std::string r2 = mlir.Binary("mulf", r, r, width);
  std::string even = MultiplyAdd(mlir, r2, f(kExpFloatP6), f(kExpFloatP4), width);
  const std::string odd = MultiplyAdd(mlir, r2, f(kExpFloatP5), f(kExpFloatP3), width);
  even = MultiplyAdd(mlir, r2, even, f(kExpFloatP2), width);
  const std::string low = mlir.Binary("addf", r, f(1.0f), width);
  std::string y = MultiplyAdd(mlir, r, odd, even, width);
  y = MultiplyAdd(mlir, r2, y, low, width);
  const std::string result = EigenMax(mlir, ScaleByPowerOfTwo(mlir, y, m, width), a, width);
  return mlir.Select(zero, f(0.0f), result, width);
}

// Eigen 3.4's scalar_logistic_op<float>::packetOp without FMA: a rational function of
// min(x, 15.64...) plus 0.5, and pexp(x) below -9.
std::string EmitEigenLogistic(MlirTextBuilder& mlir, const std::string& a, int width) {
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string small = mlir.Compare("olt", a, f(-9.0f), width);
  const std::string x = EigenMin(mlir, a, f(15.6437711715698242f), width);
  const std::string x2 = mlir.Binary("mulf", x, x, width);
  std::string p = MultiplyAdd(mlir, x2, f(4.37031012579801e-11f), f(1.15627324459942e-07f), width);
  p = MultiplyAdd(mlir, x2, p, f(6.08574864600143e-05f), width);
  p = MultiplyAdd(mlir, x2, p, f(8.51377133304701e-03f), width);
  p = MultiplyAdd(mlir, x2, p, f(2.48287947061529e-01f), width);
  p = mlir.Binary("mulf", x, p, width);
  std::string q = MultiplyAdd(mlir, x2, f(6.10247389755681e-13f), f(5.76102136993427e-09f), width);
  q = MultiplyAdd(mlir, x2, q, f(6.29106785017040e-06f), width);
  q = MultiplyAdd(mlir, x2, q, f(1.70198817374094e-03f), width);
  q = MultiplyAdd(mlir, x2, q, f(1.16817656904453e-01f), width);
  q = MultiplyAdd(mlir, x2, q, f(9.93151921023180e-01f), width);
  const std::string logistic =
      mlir.Binary("addf", mlir.Binary("divf", p, q, width), f(0.5f), width);
  return mlir.Select(small, EmitEigenExp(mlir, a, width), logistic, width);
}

// numerics::LogFloat's vector form, operation for operation (numerics/log_float.h).
std::string EmitTensorFlowLog(MlirTextBuilder& mlir, const std::string& a, int width) {
  using namespace numerics;  // NOLINT: the constants of log_float.h
  auto f = [&](float value) { return mlir.Float(value, width); };
  auto i32 = [&](uint32_t value) { return mlir.Int32(static_cast<int32_t>(value), width); };
  // m and e from the bits; the masks at the end replace what they give for zeros (subnormals
  // read as zero), infinities, negatives and NaN.
  const std::string bits = mlir.Bits(a, width);
  const std::string mantissa =
      mlir.FromBits(mlir.BinaryInt32("ori", mlir.BinaryInt32("andi", bits, i32(0x807fffffu), width),
                                     i32(0x3f000000u), width),
                    width);
  const std::string biased =
      mlir.BinaryInt32("andi", mlir.BinaryInt32("shrui", bits, i32(23), width), i32(0xffu), width);
  std::string e = mlir.Assign(
      absl::StrCat("arith.sitofp ", mlir.BinaryInt32("subi", biased, i32(126), width), " : ",
                   MlirTextBuilder::IntType32(width), " to ", MlirTextBuilder::Type(width)));
  const std::string zero = f(0.0f);
  const std::string one = f(1.0f);
  const std::string below = mlir.Compare("olt", mantissa, f(kLogFloatSqrtHalf), width);
  std::string v = mlir.Binary("subf", mantissa, one, width);
  e = mlir.Binary("subf", e, mlir.Select(below, one, zero, width), width);
  v = mlir.Binary("addf", v, mlir.Select(below, mantissa, zero, width), width);
  std::string p = MultiplyAdd(mlir, v, f(kLogFloatP3), f(kLogFloatP2), width);
  p = MultiplyAdd(mlir, v, p, f(kLogFloatP1), width);
  p = mlir.Binary("mulf", v, p, width);
  std::string q = MultiplyAdd(mlir, v, f(kLogFloatQ3), f(kLogFloatQ2), width);
  q = MultiplyAdd(mlir, v, q, f(kLogFloatQ1), width);
  q = MultiplyAdd(mlir, v, q, one, width);
  std::string r = MultiplyAdd(mlir, e, f(kLogFloatLn2), mlir.Binary("divf", p, q, width), width);
  // Eigen's filters: +inf stays, a negative or NaN input gives the all-ones NaN (por with the
  // mask), 0 gives -inf.
  const std::string pos_inf = f(std::numeric_limits<float>::infinity());
  r = mlir.Select(mlir.Compare("oeq", a, pos_inf, width), pos_inf, r, width);
  r = mlir.Select(mlir.Compare("ult", a, zero, width), f(absl::bit_cast<float>(0xffffffffu)), r,
                  width);
  return mlir.Select(mlir.Compare("oeq", a, zero, width),
                     f(-std::numeric_limits<float>::infinity()), r, width);
}

namespace {

// `instruction8` (an operation on 8 f32 lanes: vector<8xf32> name -> result name) over `width`
// lanes: halves of 8 for 16 lanes, lane 0 of a broadcast for one.
template <typename Instruction8>
std::string InLanesOfEight(MlirTextBuilder& mlir, const std::string& x, int width,
                           Instruction8 instruction8) {
  const std::string v8 = MlirTextBuilder::Type(8);
  if (width == 8) return instruction8(x);
  if (width == 1) {
    const std::string lanes = mlir.Assign(absl::StrCat("vector.broadcast ", x, " : f32 to ", v8));
    return mlir.Assign(absl::StrCat("vector.extract ", instruction8(lanes), "[0] : ", v8));
  }
  std::string result = x;
  for (int offset = 0; offset < width; offset += 8) {
    const std::string half = mlir.Assign(absl::StrCat(
        "vector.extract_strided_slice ", x, " {offsets = [", offset,
        "], sizes = [8], strides = [1]} : ", MlirTextBuilder::Type(width), " to ", v8));
    result = mlir.Assign(absl::StrCat("vector.insert_strided_slice ", instruction8(half), ", ",
                                      result, " {offsets = [", offset, "], strides = [1]} : ", v8,
                                      " into ", MlirTextBuilder::Type(width)));
  }
  return result;
}

// The AVX rsqrt instruction (vrsqrtps) lane by lane. Its approximation is the CPU's own, the
// same one SSE's rsqrtps gives the kernel on that CPU.
std::string AvxRsqrt(MlirTextBuilder& mlir, const std::string& x, int width) {
  return InLanesOfEight(mlir, x, width, [&](const std::string& v) {
    return mlir.Assign(absl::StrCat("x86vector.avx.rsqrt ", v, " : ", MlirTextBuilder::Type(8)));
  });
}

// The AVX reciprocal instruction (vrcpps) lane by lane, through its LLVM intrinsic (the
// x86vector dialect has no operation for it; kAvxReciprocalDeclaration declares it).
std::string AvxReciprocal(MlirTextBuilder& mlir, const std::string& x, int width) {
  return InLanesOfEight(mlir, x, width, [&](const std::string& v) {
    const std::string v8 = MlirTextBuilder::Type(8);
    return mlir.Assign(
        absl::StrCat("func.call @", kAvxReciprocalIntrinsic, "(", v, ") : (", v8, ") -> ", v8));
  });
}

}  // namespace

// numerics::RsqrtFloat's vector form, TensorFlow 2.21's: the CPU's estimate, one Newton step
// with each product and sum rounded on its own, and the estimate itself where the step gives
// NaN (zero, infinite, negative or NaN input).
std::string EmitTensorFlowRsqrt(MlirTextBuilder& mlir, const std::string& a, int width) {
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string y0 = AvxRsqrt(mlir, a, width);
  const std::string h = mlir.Binary(
      "addf", mlir.Binary("mulf", mlir.Binary("mulf", a, y0, width), y0, width), f(-1.0f), width);
  const std::string y = mlir.Binary(
      "addf", mlir.Binary("mulf", mlir.Binary("mulf", y0, f(-0.5f), width), h, width), y0, width);
  return mlir.Select(mlir.Compare("uno", y, y, width), y0, y, width);
}

// numerics::ReciprocalFloat's vector form, TensorFlow 2.21's: the CPU's estimate r0, then
// r0 * (1 - x * r0) + r0 with each product and sum rounded on its own, and the estimate itself
// where that gives NaN (zero, infinite or NaN input).
std::string EmitTensorFlowReciprocal(MlirTextBuilder& mlir, const std::string& x, int width) {
  const std::string r0 = AvxReciprocal(mlir, x, width);
  const std::string t =
      mlir.Binary("subf", mlir.Float(1.0f, width), mlir.Binary("mulf", x, r0, width), width);
  const std::string r = MultiplyAdd(mlir, r0, t, r0, width);
  return mlir.Select(mlir.Compare("uno", r, r, width), r0, r, width);
}

std::string EmitAnyMagnitudeIn(MlirTextBuilder& mlir, const std::string& x, float lo, float hi,
                               int width) {
  const std::string magnitude =
      mlir.Assign(absl::StrCat("math.abs ", x, " : ", MlirTextBuilder::Type(width)));
  const std::string large_enough = mlir.Compare("oge", magnitude, mlir.Float(lo, width), width);
  const std::string small = mlir.Compare("olt", magnitude, mlir.Float(hi, width), width);
  const std::string both = mlir.And(large_enough, small, width);
  if (width == 1) return both;
  return mlir.Assign(absl::StrCat("vector.reduction <or>, ", both, " : ",
                                  MlirTextBuilder::BoolType(width), " into i1"));
}

// numerics::ErfcFloat, operation for operation (numerics/erfc_float.cc holds the order).
std::string EmitErfc(MlirTextBuilder& mlir, const std::string& x, int width) {
  using namespace numerics;  // NOLINT: the constants of erfc_float.h
  auto d = [&](double value) { return mlir.Double(value, width); };
  const std::string xd =
      mlir.Assign(absl::StrCat("arith.extf ", x, " : ", MlirTextBuilder::Type(width), " to ",
                               MlirTextBuilder::Type64(width)));
  const std::string negative = mlir.Compare64("olt", xd, d(0.0), width);
  std::string a = mlir.Select64(
      negative, mlir.Assign(absl::StrCat("arith.negf ", xd, " : ", MlirTextBuilder::Type64(width))),
      xd, width);
  const std::string largest = d(kErfcLargest);
  a = mlir.Select64(mlir.Compare64("olt", a, largest, width), a, largest, width);
  const std::string two = d(2.0);
  const std::string t = mlir.Binary64("divf", two, mlir.Binary64("addf", two, a, width), width);
  const std::string u = mlir.Binary64("subf", mlir.Binary64("mulf", t, d(kErfcUScale), width),
                                      d(kErfcUOffset), width);
  std::string p = MultiplyAdd64(mlir, u, d(kErfcPolynomial[kErfcDegree]),
                                d(kErfcPolynomial[kErfcDegree - 1]), width);
  for (int j = kErfcDegree - 2; j >= 0; --j) {
    p = MultiplyAdd64(mlir, p, u, d(kErfcPolynomial[j]), width);
  }
  const std::string v = mlir.Binary64("subf", p, mlir.Binary64("mulf", a, a, width), width);

  const std::string shift = d(kExpRoundShift);
  const std::string shifted = MultiplyAdd64(mlir, v, d(kExpInverseLn2), shift, width);
  const std::string k = mlir.Binary64("subf", shifted, shift, width);
  const std::string r = mlir.Binary64(
      "subf", mlir.Binary64("subf", v, mlir.Binary64("mulf", k, d(kExpLn2High), width), width),
      mlir.Binary64("mulf", k, d(kExpLn2Low), width), width);
  std::string q = MultiplyAdd64(mlir, r, d(kExpPolynomial[kExpDegree]),
                                d(kExpPolynomial[kExpDegree - 1]), width);
  for (int j = kExpDegree - 2; j >= 0; --j) {
    q = MultiplyAdd64(mlir, q, r, d(kExpPolynomial[j]), width);
  }
  const std::string i64 = MlirTextBuilder::IntType64(width);
  const std::string bits = mlir.Assign(
      absl::StrCat("arith.bitcast ", shifted, " : ", MlirTextBuilder::Type64(width), " to ", i64));
  const std::string moved =
      mlir.Assign(absl::StrCat("arith.shli ", bits, ", ", mlir.Long(52, width), " : ", i64));
  const std::string scale_bits = mlir.Assign(
      absl::StrCat("arith.addi ", moved, ", ", mlir.Long(kExpOneBits, width), " : ", i64));
  const std::string power_of_two = mlir.Assign(absl::StrCat(
      "arith.bitcast ", scale_bits, " : ", i64, " to ", MlirTextBuilder::Type64(width)));
  const std::string e =
      mlir.Binary64("mulf", mlir.Binary64("mulf", q, power_of_two, width), t, width);

  const std::string y = mlir.Select64(negative, mlir.Binary64("subf", two, e, width), e, width);
  const std::string rounded =
      mlir.Assign(absl::StrCat("arith.truncf ", y, " : ", MlirTextBuilder::Type64(width), " to ",
                               MlirTextBuilder::Type(width)));
  return mlir.Select(mlir.Compare("uno", x, x, width), x, rounded, width);
}

}  // namespace sluice
