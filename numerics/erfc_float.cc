#include "numerics/erfc_float.h"

#include <cstring>

namespace sluice {
namespace numerics {
namespace {

// erfc of x (a float held exactly as a double), before rounding to float. Written without
// branches so that the loop below vectorises (the ternaries become selects).
__attribute__((always_inline)) inline double ErfcBeforeRounding(double x) {
  const bool negative = x < 0.0;
  double a = negative ? -x : x;
  a = a < kErfcLargest ? a : kErfcLargest;  // and NaN becomes kErfcLargest
  const double t = 2.0 / (2.0 + a);
  const double u = t * kErfcUScale - kErfcUOffset;
  double p = u * kErfcPolynomial[kErfcDegree] + kErfcPolynomial[kErfcDegree - 1];
#pragma GCC unroll 16
  for (int j = kErfcDegree - 2; j >= 0; --j) p = p * u + kErfcPolynomial[j];
  const double v = p - a * a;

  const double shifted = v * kExpInverseLn2 + kExpRoundShift;
  const double k = shifted - kExpRoundShift;
  const double r = (v - k * kExpLn2High) - k * kExpLn2Low;
  double q = r * kExpPolynomial[kExpDegree] + kExpPolynomial[kExpDegree - 1];
#pragma GCC unroll 16
  for (int j = kExpDegree - 2; j >= 0; --j) q = q * r + kExpPolynomial[j];
  // Unsigned, where bits shifted out are defined to vanish.
  uint64_t bits;
  std::memcpy(&bits, &shifted, sizeof(bits));
  bits = (bits << 52) + static_cast<uint64_t>(kExpOneBits);
  double power_of_two;
  std::memcpy(&power_of_two, &bits, sizeof(power_of_two));
  const double e = q * power_of_two * t;
  return negative ? 2.0 - e : e;
}

// Rounds once; a NaN input is its own result.
__attribute__((always_inline)) inline float Finish(float x, double y) {
  return x != x ? x : static_cast<float>(y);
}

}  // namespace

float ErfcFloat(float x) { return Finish(x, ErfcBeforeRounding(x)); }

namespace {

// One copy of the loop per vector width, chosen on the first call: the same IEEE operations
// in each (no contraction, see BUILD), so the same bits, in vectors as wide as the CPU has.
// Chosen by hand rather than with GCC's target_clones, whose ifunc resolver runs before
// ThreadSanitizer's runtime is up and crashes instrumented builds.
__attribute__((always_inline)) inline void ErfcLoop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = Finish(v, ErfcBeforeRounding(v));
  }
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void ErfcLoopAvx512(const float* x,
                                                                                  float* y,
                                                                                  int64_t n) {
  ErfcLoop(x, y, n);
}
__attribute__((target("avx2"))) void ErfcLoopAvx2(const float* x, float* y, int64_t n) {
  ErfcLoop(x, y, n);
}
void ErfcLoopBaseline(const float* x, float* y, int64_t n) { ErfcLoop(x, y, n); }

using ErfcLoopFunction = void (*)(const float*, float*, int64_t);

ErfcLoopFunction ChooseErfcLoop() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) {
    return ErfcLoopAvx512;
  }
  if (__builtin_cpu_supports("avx2")) return ErfcLoopAvx2;
  return ErfcLoopBaseline;
}

}  // namespace

void ErfcFloat(const float* x, float* y, int64_t n) {
  static const ErfcLoopFunction loop = ChooseErfcLoop();
  loop(x, y, n);
}

}  // namespace numerics
}  // namespace sluice
