// Float sigmoid and tanh as TensorFlow 2.21's CPU kernels compute them: Sluice's float Sigmoid
// and Tanh, the same in their kernels, in `_FusedElementwise` and in compiled clusters.
//
// Tanh, in TensorFlow's vector and scalar forms alike (no FMA in its build):
//
//   x = clamp(x, -kTanhFloatClamp, kTanhFloatClamp)
//   p = ((a0 x^2 + a1) x^2 + a2) x^2 + a3,  q = (((b0 x^2 + b1) x^2 + b2) x^2 + b3) x^2 + b4
//   tanh(x) = (x^3 p + x) / q
//
// Sigmoid, in packets of eight floats: 0 below -104; otherwise x = min(x, kSigmoidFloatHigh),
// h = x / 2, exp(h) reduced as exp_float.h does (m = floor(h log2(e) + 1/2), r in two parts)
// with a degree-5 polynomial (even = r^2 p4 + p2, odd = r^2 p5 + p3,
// (r odd + even) r^2 + (r + 1)), times 2^m as one power of two (m + 127 clamped to [0, 255],
// Eigen's pldexp_fast), squared to e = exp(x), and e / (1 + e). The tensor's last total % 8
// elements take the scalar form: e = std::exp(min(x, kSigmoidFloatHigh)), e / (1 + e).
//
// Each product and sum is rounded on its own. Eigen 3.4's forms, which Sluice used before,
// have other coefficients (tanh's a 13/6 rational, sigmoid's a rational with exp below -9) and
// differed from TensorFlow's for about 4% of random float bit patterns.
//
// The contract with compiled code (compiler/transcendental_code.cc): the vector forms are
// exactly these sequences, with the constants below.
#ifndef SLUICE_NUMERICS_SIGMOID_TANH_FLOAT_H_
#define SLUICE_NUMERICS_SIGMOID_TANH_FLOAT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

inline constexpr float kTanhFloatClamp = 7.90738964080810547f;
// a0 .. a3 and b0 .. b4 above.
inline constexpr float kTanhFloatNumerator[] = {1.394553628e-8f, 2.102733560e-5f, 3.520756727e-3f,
                                                1.340216100e-1f};
inline constexpr float kTanhFloatDenominator[] = {8.015776984e-7f, 3.326951409e-4f, 2.597254514e-2f,
                                                  4.673548340e-1f, 1.0f};

inline constexpr float kSigmoidFloatHigh = 16.6355324f;
inline constexpr float kSigmoidFloatZeroBelow = -104.0f;
// p2 .. p5 above.
inline constexpr float kSigmoidFloatP2 = 0.49999141693115234375f;
inline constexpr float kSigmoidFloatP3 = 0.16666877269744873046875f;
inline constexpr float kSigmoidFloatP4 = 4.1898667812347412109375e-2f;
inline constexpr float kSigmoidFloatP5 = 8.33471305668354034423828125e-3f;

// Elements per packet of TensorFlow's vectorised Sigmoid: which elements of a tensor are its
// scalar tail (the last total % kSigmoidFloatPacket).
inline constexpr int64_t kSigmoidFloatPacket = 8;

// y[i] = tanh(x[i]) for n elements (one form for all). y may be x itself; otherwise the two do
// not overlap.
void TanhFloat(const float* x, float* y, int64_t n);

// y[i] = sigmoid(x[i]) for the n elements at flat indices [flat, flat + n) of a tensor of
// `total` elements; those at or past total - total % kSigmoidFloatPacket take the scalar form.
void SigmoidFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total);
inline void SigmoidFloat(const float* x, float* y, int64_t n) { SigmoidFloat(x, y, n, 0, n); }

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_SIGMOID_TANH_FLOAT_H_
