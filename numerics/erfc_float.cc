#include "numerics/erfc_float.h"

#include <cstring>

namespace sluice {
namespace numerics {
namespace {

// GCC's vector extensions: four lanes, each operation the IEEE operation on every lane (two
// SSE2 instructions on the x86-64 baseline, one AVX instruction where the build has AVX).
typedef double Doubles __attribute__((vector_size(32)));
typedef int64_t Longs __attribute__((vector_size(32)));
// Bits are shifted unsigned, where bits shifted out are defined to vanish.
typedef uint64_t Bits __attribute__((vector_size(32)));
typedef float Floats __attribute__((vector_size(16)));
constexpr int kLanes = 4;

Floats ErfcOfLanes(Floats x) {
  const Doubles xd = __builtin_convertvector(x, Doubles);
  const Longs negative = xd < 0.0;
  Doubles a = negative ? -xd : xd;
  a = a < kErfcLargest ? a : kErfcLargest;  // and NaN becomes kErfcLargest
  const Doubles t = 2.0 / (2.0 + a);
  const Doubles u = t * kErfcUScale - kErfcUOffset;
  Doubles p = u * kErfcPolynomial[kErfcDegree] + kErfcPolynomial[kErfcDegree - 1];
  for (int j = kErfcDegree - 2; j >= 0; --j) p = p * u + kErfcPolynomial[j];
  const Doubles v = p - a * a;

  const Doubles shifted = v * kExpInverseLn2 + kExpRoundShift;
  const Doubles k = shifted - kExpRoundShift;
  const Doubles r = (v - k * kExpLn2High) - k * kExpLn2Low;
  Doubles q = r * kExpPolynomial[kExpDegree] + kExpPolynomial[kExpDegree - 1];
  for (int j = kExpDegree - 2; j >= 0; --j) q = q * r + kExpPolynomial[j];
  const Doubles power_of_two =
      (Doubles)(((Bits)shifted << 52) + static_cast<uint64_t>(kExpOneBits));
  const Doubles e = q * power_of_two * t;

  const Doubles y = negative ? 2.0 - e : e;
  const Floats rounded = __builtin_convertvector(y, Floats);
  return x != x ? x : rounded;
}

}  // namespace

float ErfcFloat(float x) {
  const Floats lanes = {x, 0.0f, 0.0f, 0.0f};
  return ErfcOfLanes(lanes)[0];
}

void ErfcFloat(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Floats lanes;
    std::memcpy(&lanes, x + i, sizeof(lanes));
    lanes = ErfcOfLanes(lanes);
    std::memcpy(y + i, &lanes, sizeof(lanes));
  }
  if (i < n) {
    Floats lanes = {};
    std::memcpy(&lanes, x + i, (n - i) * sizeof(float));
    lanes = ErfcOfLanes(lanes);
    std::memcpy(y + i, &lanes, (n - i) * sizeof(float));
  }
}

}  // namespace numerics
}  // namespace sluice
