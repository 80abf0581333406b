#include "compiler/transcendental_code.h"

#include <cstdint>
#include <limits>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "numerics/erf_float.h"
#include "numerics/erfc_float.h"
#include "numerics/exp_float.h"
#include "numerics/log_float.h"
#include "numerics/sigmoid_tanh_float.h"

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

// 2^e as the float whose exponent field is e + 127 (e in i32 lanes).
std::string PowerOfTwo(MlirTextBuilder& mlir, const std::string& e_i32, int width) {
  const std::string biased = mlir.BinaryInt32("addi", e_i32, mlir.Int32(127, width), width);
  return mlir.FromBits(mlir.BinaryInt32("shli", biased, mlir.Int32(23, width), width), width);
}

}  // namespace

// numerics::ErfFloat, operation for operation (numerics/erf_float.h).
std::string EmitTensorFlowErf(MlirTextBuilder& mlir, const std::string& x, int width) {
  using namespace numerics;  // NOLINT: the constants of erf_float.h
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string x2 =
      EigenMin(mlir, f(kErfFloatLargestSquare), mlir.Binary("mulf", x, x, width), width);
  std::string p = f(kErfFloatNumerator[0]);
  std::string q = f(kErfFloatDenominator[0]);
  for (int i = 1; i < kErfFloatTerms; ++i) {
    p = MultiplyAdd(mlir, p, x2, f(kErfFloatNumerator[i]), width);
    q = MultiplyAdd(mlir, q, x2, f(kErfFloatDenominator[i]), width);
  }
  const std::string r = mlir.Binary("divf", mlir.Binary("mulf", x, p, width), q, width);
  return EigenMax(mlir, EigenMin(mlir, r, f(1.0f), width), f(-1.0f), width);
}

// numerics::TanhFloat, operation for operation (numerics/sigmoid_tanh_float.h).
std::string EmitTensorFlowTanh(MlirTextBuilder& mlir, const std::string& a, int width) {
  using namespace numerics;  // NOLINT: the constants of sigmoid_tanh_float.h
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string x =
      EigenMax(mlir, EigenMin(mlir, a, f(kTanhFloatClamp), width), f(-kTanhFloatClamp), width);
  const std::string x2 = mlir.Binary("mulf", x, x, width);
  const std::string x3 = mlir.Binary("mulf", x2, x, width);
  std::string p = f(kTanhFloatNumerator[0]);
  for (int i = 1; i < 4; ++i) p = MultiplyAdd(mlir, p, x2, f(kTanhFloatNumerator[i]), width);
  std::string q = f(kTanhFloatDenominator[0]);
  for (int i = 1; i < 5; ++i) q = MultiplyAdd(mlir, q, x2, f(kTanhFloatDenominator[i]), width);
  return mlir.Binary("divf", MultiplyAdd(mlir, x3, p, x, width), q, width);
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

// numerics::SigmoidFloat's vector form, operation for operation
// (numerics/sigmoid_tanh_float.h).
std::string EmitTensorFlowSigmoid(MlirTextBuilder& mlir, const std::string& a, int width) {
  using namespace numerics;  // NOLINT: the constants of sigmoid_tanh_float.h and exp_float.h
  auto f = [&](float value) { return mlir.Float(value, width); };
  const std::string zero = mlir.Compare("olt", a, f(kSigmoidFloatZeroBelow), width);
  const std::string x =
      mlir.Binary("mulf", EigenMin(mlir, a, f(kSigmoidFloatHigh), width), f(0.5f), width);
  const std::string m = mlir.Assign(
      absl::StrCat("math.floor ", MultiplyAdd(mlir, x, f(kExpFloatLog2e), f(0.5f), width), " : ",
                   MlirTextBuilder::Type(width)));
  std::string r = MultiplyAdd(mlir, m, f(kExpFloatMinusLn2High), x, width);
  r = MultiplyAdd(mlir, m, f(kExpFloatLn2Low), r, width);
  const std::string r2 = mlir.Binary("mulf", r, r, width);
  const std::string even = MultiplyAdd(mlir, r2, f(kSigmoidFloatP4), f(kSigmoidFloatP2), width);
  const std::string odd = MultiplyAdd(mlir, r2, f(kSigmoidFloatP5), f(kSigmoidFloatP3), width);
  const std::string low = mlir.Binary("addf", r, f(1.0f), width);
  std::string p = MultiplyAdd(mlir, r, odd, even, width);
  p = MultiplyAdd(mlir, r2, p, low, width);
  // Eigen's pldexp_fast: 2^m as one power of two, m + 127 clamped to [0, 255]. m is NaN only
  // where p is: it is made 0 first, as converting NaN to an integer has no defined value in
  // LLVM.
  std::string biased =
      EigenMin(mlir, EigenMax(mlir, mlir.Binary("addf", m, f(127.0f), width), f(0.0f), width),
               f(255.0f), width);
  biased = mlir.Select(mlir.Compare("uno", biased, biased, width), f(0.0f), biased, width);
  const std::string biased_i32 =
      mlir.Assign(absl::StrCat("arith.fptosi ", biased, " : ", MlirTextBuilder::Type(width), " to ",
                               MlirTextBuilder::IntType32(width)));
  const std::string scale =
      mlir.FromBits(mlir.BinaryInt32("shli", biased_i32, mlir.Int32(23, width), width), width);
  std::string e = mlir.Binary("mulf", p, scale, width);
  e = mlir.Binary("mulf", e, e, width);
  const std::string sigmoid = mlir.Binary("divf", e, mlir.Binary("addf", f(1.0f), e, width), width);
  return mlir.Select(zero, f(0.0f), sigmoid, width);
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
