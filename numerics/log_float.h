// Float log and log1p as TensorFlow 2.21's CPU kernels compute them: Sluice's float Log (in its
// kernel, in `_FusedElementwise` and in compiled clusters) and Log1p.
//
// TensorFlow's Eigen evaluates log in packets of eight floats (AVX, no fused multiply-adds):
//
//   x = m 2^e with m in [1/2, 1)                    (from the bits)
//   m < sqrt(1/2): e = e - 1, v = (m - 1) + m; else v = m - 1
//   log(1 + v) ~ v (p1 + v (p2 + v p3)) / (1 + v (q1 + v (q2 + v q3)))
//   log(x) = e * ln 2 + that
//
// each product and sum rounded on its own (the constants below), with -inf for ±0, +inf for
// +inf and the all-ones NaN for negative or NaN input. log1p(x) is, per packet,
// x * (log(x + 1) / ((x + 1) - 1)), or x itself where x + 1 rounds to 1 or to +inf. A tensor's
// last total % 8 elements, which its vectorised loop leaves over, are std::log (std::log1p).
//
// The vector log is within 3 units in the last place of the correctly rounded value for every
// positive normal float. Eigen 3.4's log, which Sluice used before, is Cephes's polynomial; it
// differed from TensorFlow's in the last place for 0.4% of random float bit patterns (log1p for
// 3%).
//
// Subnormal input, which the kernels' floating-point mode reads as zero (numerics/
// float_environment.h): log gives -inf and log1p a zero of its sign, in the vector form and,
// where Sluice departs from TensorFlow, in the tail too, where the C library looks at the
// bits (TensorFlow's tail gives log(2e-44) = -103.97 and log1p of a subnormal the subnormal).
//
// The contract with compiled code (compiler/transcendental_code.cc, EmitTensorFlowLog): the
// vector form of log is exactly the sequence above, with the constants below.
#ifndef SLUICE_NUMERICS_LOG_FLOAT_H_
#define SLUICE_NUMERICS_LOG_FLOAT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

inline constexpr float kLogFloatSqrtHalf = 0.707106781186547524f;
inline constexpr float kLogFloatP1 = 1.0000000190281136f;
inline constexpr float kLogFloatP2 = 1.0000000190281063f;
inline constexpr float kLogFloatP3 = 0.18256296349849254f;
inline constexpr float kLogFloatQ1 = 1.4999999999999927f;
inline constexpr float kLogFloatQ2 = 0.59923249590823520f;
inline constexpr float kLogFloatQ3 = 0.049616247954120038f;
// ln 2 as Eigen writes it, a long double rounded to float.
inline constexpr float kLogFloatLn2 = static_cast<float>(0.693147180559945309417232121458L);

// Elements per packet of TensorFlow's vectorised Log and Log1p.
inline constexpr int64_t kLogFloatPacket = 8;

// y[i] = log(x[i]) (log1p(x[i])) for the n elements at flat indices [flat, flat + n) of a
// tensor of `total` elements; those at or past total - total % kLogFloatPacket take the
// scalar form. y may be x itself (in place); otherwise the two do not overlap.
void LogFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total);
void Log1pFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total);

// Whole tensors of n elements.
inline void LogFloat(const float* x, float* y, int64_t n) { LogFloat(x, y, n, 0, n); }
inline void Log1pFloat(const float* x, float* y, int64_t n) { Log1pFloat(x, y, n, 0, n); }

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_LOG_FLOAT_H_
