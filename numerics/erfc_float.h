// erfc of float elements, computed in double precision and rounded once: Sluice's Erfc for
// float tensors, the same in its kernels and in compiled clusters.
//
// Why Sluice's own: the C library's erfcf (what Eigen 3.4 calls, one element at a time) is
// within 3 units in the last place of the true value and slow (about 14 ns an element on the
// 2-core AMD EPYC guest); TensorFlow's own vectorised erfc is within 8 and flushes results
// below FLT_MIN to zero. This one is within one unit, and is the correctly rounded value for
// all but about one float in a million (erfc_float_test; `erfc_float_sweep` checks every
// float). It vectorises: about 2.2 ns an element there with AVX-512, and a compiled cluster
// computes it inline.
//
// The method: for a = min(|x|, kErfcLargest), erfc(a) = t * exp(P(u) - a*a), t = 2 / (2 + a),
// u = t * kErfcUScale - kErfcUOffset (t mapped onto [-1, 1]), P the polynomial below (fitted
// by numerics/fit_erfc.py to 1.2e-12); exp by Cody and Waite's reduction by k*ln(2) and a
// degree-9 Taylor polynomial, 2^k made from its bits; erfc(-a) = 2 - erfc(a). a*a is exact in
// double for a float a, so the exponent has no cancellation to lose digits to.
//
// The contract with compiled code (compiler/transcendental_code.cc, EmitErfc): ErfcFloat is exactly
// the sequence of IEEE double operations written in erfc_float.cc — each multiply and add rounded
// on its own (this library is built with -ffp-contract=off), conversions rounding to nearest.
// Any code that performs the same sequence gets the same bits.
#ifndef SLUICE_NUMERICS_ERFC_FLOAT_H_
#define SLUICE_NUMERICS_ERFC_FLOAT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

// Above this magnitude erfc rounds to 0 (or 2) in float; |x| is clamped to it.
inline constexpr double kErfcLargest = 10.1;
inline constexpr double kErfcUScale = 0x1.32b16cfd7720fp+1;
inline constexpr double kErfcUOffset = 0x1.6562d9faee41ep+0;
// P's coefficients, lowest degree first (numerics/fit_erfc.py).
inline constexpr double kErfcPolynomial[] = {
    -0x1.1e7bc2943bdb7p-1,  0x1.2473fd5f09459p-1,   0x1.05383a7e2a56cp-6,   -0x1.e52413682a871p-6,
    -0x1.1b681d9d5e3bep-10, 0x1.eb0ba016ad06dp-9,   -0x1.280b6113fee0dp-12, -0x1.228c1f0111aecp-11,
    0x1.3c8efe7f096dfp-13,  0x1.17b29680701ddp-14,  -0x1.69ba4f4f15e2ap-15, -0x1.0ff94f6e9252cp-19,
    0x1.1ffad9bf27a74p-17,  -0x1.8c236e832e424p-20, -0x1.2a67900ae4ee1p-20, 0x1.3993135e704adp-22,
    0x1.2601137e74bc9p-24,
};
inline constexpr int kErfcDegree = sizeof(kErfcPolynomial) / sizeof(double) - 1;

// exp(v) for v in [-103, 1]: k = round(v / ln 2) by adding and subtracting kExpRoundShift
// (which leaves k in the low bits of the sum), r = v - k ln 2 in two parts (kExpLn2High has
// zero low bits, so k * kExpLn2High is exact), e^r by 1/n!, times 2^k.
inline constexpr double kExpInverseLn2 = 0x1.71547652b82fep+0;
inline constexpr double kExpRoundShift = 0x1.8p52;
inline constexpr double kExpLn2High = 0x1.62e42fefa3800p-1;
inline constexpr double kExpLn2Low = 0x1.ef35793c76730p-45;
inline constexpr double kExpPolynomial[] = {
    0x1.0000000000000p+0,  0x1.0000000000000p+0,  0x1.0000000000000p-1,  0x1.5555555555555p-3,
    0x1.5555555555555p-5,  0x1.1111111111111p-7,  0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13,
    0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19,
};
inline constexpr int kExpDegree = sizeof(kExpPolynomial) / sizeof(double) - 1;
// 2^k is the double whose bits are (k + 1023) << 52: the sum's bits shifted left by 52 leave
// k << 52 (two's complement), to which this is added.
inline constexpr int64_t kExpOneBits = int64_t{1023} << 52;

// erfc(x); NaN for NaN, 2 for -inf, 0 for +inf.
float ErfcFloat(float x);

// y[i] = ErfcFloat(x[i]) for i < n, in vectors as wide as the CPU has. y may be x.
void ErfcFloat(const float* x, float* y, int64_t n);

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_ERFC_FLOAT_H_
