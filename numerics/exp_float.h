// Float exp and expm1 as TensorFlow 2.21's CPU kernels compute them: Sluice's float Exp (the
// same in its kernel, in `_FusedElementwise` and in compiled clusters) and Expm1.
//
// TensorFlow's Eigen evaluates exp in packets of eight floats (AVX, no fused multiply-adds):
//
//   x  = min(x, kExpFloatHigh)
//   m  = floor(x * log2(e) + 1/2)
//   r  = (m * kExpFloatMinusLn2High + x) + m * kExpFloatLn2Low   (r = x - m ln 2 in two parts)
//   e^r ~ 1 + r + r^2 (p2 + r p3 + r^2 (p4 + r p5 + r^2 p6)), evaluated as
//       even = (r^2 p6 + p4) r^2 + p2,  odd = r^2 p5 + p3,
//       y    = (r odd + even) r^2 + (r + 1)
//   exp(x) = max(y * 2^m, x), or 0 where x < kExpFloatZeroBelow,
//
// each product and sum rounded on its own, 2^m applied as four powers of two (m clamped to
// ±278, b = m >> 2: y 2^b 2^b 2^b 2^(m - 3b)) so that no factor overflows. The max turns +inf
// into +inf and keeps NaN. The tensor's last total % 8 elements, which its vectorised loop
// leaves over, are std::exp (the C library's expf) instead.
//
// Eigen 3.4's vectorised exp, which Sluice used before, has another polynomial (Cephes's) and
// clamps x below at -88.72; it differed from TensorFlow's in the last place for about one
// float in a thousand of random bit patterns.
//
// In the kernels' floating-point mode (numerics/float_environment.h) subnormal results are
// flushed to zero and subnormal inputs read as zero. These functions do whatever the calling
// thread's mode says.
//
// The contract with compiled code (compiler/transcendental_code.cc, EmitTensorFlowExp): the
// vector form is exactly the sequence of float operations above, with the constants below.
#ifndef SLUICE_NUMERICS_EXP_FLOAT_H_
#define SLUICE_NUMERICS_EXP_FLOAT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

inline constexpr float kExpFloatHigh = 88.723f;
inline constexpr float kExpFloatZeroBelow = -104.0f;
inline constexpr float kExpFloatLog2e = 1.44269504088896341f;
inline constexpr float kExpFloatMinusLn2High = -0.693359375f;
inline constexpr float kExpFloatLn2Low = 2.12194440e-4f;
// p2 .. p6 above.
inline constexpr float kExpFloatP2 = 0.49999988079071044921875f;
inline constexpr float kExpFloatP3 = 0.16666518151760101318359375f;
inline constexpr float kExpFloatP4 = 4.166965186595916748046875e-2f;
inline constexpr float kExpFloatP5 = 8.36894474923610687255859375e-3f;
inline constexpr float kExpFloatP6 = 1.37449637986719608306884765625e-3f;
// The bound on |m| before 2^m is applied.
inline constexpr float kExpFloatLargestExponent = 278.0f;

// Elements per packet of TensorFlow's vectorised Exp: which elements of a tensor are its scalar
// tail (the last total % kExpFloatPacket).
inline constexpr int64_t kExpFloatPacket = 8;

// y[i] = exp(x[i]) for the n elements at flat indices [flat, flat + n) of a tensor of `total`
// elements; those at or past total - total % kExpFloatPacket take the scalar form. y may be x
// itself (in place); otherwise the two do not overlap.
void ExpFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total);

// expm1 likewise: per packet, u = exp(x) in the vector form above and
// (u - 1) * (x / log(u)) with log_float.h's vector log, or x where u is 1, -1 where u - 1 is,
// +inf where u is; std::expm1 for the tail.
void Expm1Float(const float* x, float* y, int64_t n, int64_t flat, int64_t total);

// Whole tensors of n elements.
inline void ExpFloat(const float* x, float* y, int64_t n) { ExpFloat(x, y, n, 0, n); }
inline void Expm1Float(const float* x, float* y, int64_t n) { Expm1Float(x, y, n, 0, n); }

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_EXP_FLOAT_H_
