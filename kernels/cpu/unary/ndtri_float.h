// Float ndtri (the inverse of the standard normal CDF) as TensorFlow 2.21 computes it, for
// Sluice's float Ndtri and Erfinv. TensorFlow's Eigen evaluates Cephes's algorithm in packets of
// 8 with its vector log (numerics/log_float.h) and its reciprocal estimate refined by one
// Newton step (numerics/reciprocal.h), and the same algorithm with the C library's log and a
// division for a tensor's last total % 8 elements; Eigen 3.4's differs in its log and packets.
//
//   b = p, or 1 - p for p > 1 - e^-2 (the result's sign then flips)
//   b > e^-2:  c = b - 1/2, ndtri = (c + c c^2 P0(c^2) / Q0(c^2)) sqrt(2 pi)
//   else:      x = sqrt(-2 log b), ndtri = x - log(x) / x - (1/x) P(1/x) / Q(1/x), P and Q
//              one pair below x = 8, another above
//   -inf at 0, +inf at 1, NaN outside [0, 1]
// each product and sum rounded on its own (no fused multiply-adds in TensorFlow's build).
#ifndef SLUICE_KERNELS_CPU_UNARY_NDTRI_FLOAT_H_
#define SLUICE_KERNELS_CPU_UNARY_NDTRI_FLOAT_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "numerics/log_float.h"
#include "numerics/reciprocal.h"

namespace sluice {
namespace unary {
namespace ndtri_float {

// The packet form's log and reciprocal, one lane.
struct PacketForms {
  static float Log(float v) {
    float r;
    numerics::LogFloat(&v, &r, 1, 0, numerics::kLogFloatPacket);
    return r;
  }
  static float Reciprocal(float v) {
    float r;
    numerics::ReciprocalFloat(&v, &r, 1, 0, numerics::kReciprocalFloatPacket);
    return r;
  }
};
// The scalar tail's.
struct ScalarForms {
  static float Log(float v) { return std::log(v); }
  static float Reciprocal(float v) { return 1.0f / v; }
};

// Horner's rule from c[0], the highest coefficient.
template <int N>
inline float Polynomial(float x, const float (&c)[N]) {
  float p = c[0];
  for (int i = 1; i < N; ++i) p = p * x + c[i];
  return p;
}

// Cephes's coefficients, rounded to float.
constexpr float kP0[] = {-5.99633501014107895267e1f, 9.80010754185999661536e1f,
                         -5.66762857469070293439e1f, 1.39312609387279679503e1f,
                         -1.23916583867381258016e0f};
constexpr float kQ0[] = {1.0f,
                         1.95448858338141759834e0f,
                         4.67627912898881538453e0f,
                         8.63602421390890590575e1f,
                         -2.25462687854119370527e2f,
                         2.00260212380060660359e2f,
                         -8.20372256168333339912e1f,
                         1.59056225126211695515e1f,
                         -1.18331621121330003142e0f};
constexpr float kP1[] = {
    4.05544892305962419923e0f,   3.15251094599893866154e1f,   5.71628192246421288162e1f,
    4.40805073893200834700e1f,   1.46849561928858024014e1f,   2.18663306850790267539e0f,
    -1.40256079171354495875e-1f, -3.50424626827848203418e-2f, -8.57456785154685413611e-4f};
constexpr float kQ1[] = {1.0f,
                         1.57799883256466749731e1f,
                         4.53907635128879210584e1f,
                         4.13172038254672030440e1f,
                         1.50425385692907503408e1f,
                         2.50464946208309415979e0f,
                         -1.42182922854787788574e-1f,
                         -3.80806407691578277194e-2f,
                         -9.33259480895457427372e-4f};
constexpr float kP2[] = {
    3.23774891776946035970e0f,  6.91522889068984211695e0f,  3.93881025292474443415e0f,
    1.33303460815807542389e0f,  2.01485389549179081538e-1f, 1.23716634817820021358e-2f,
    3.01581553508235416007e-4f, 2.65806974686737550832e-6f, 6.23974539184983293730e-9f};
constexpr float kQ2[] = {1.0f,
                         6.02427039364742014255e0f,
                         3.67983563856160859403e0f,
                         1.37702099489081330271e0f,
                         2.16236993594496635890e-1f,
                         1.34204006088543189037e-2f,
                         3.28014464682127739104e-4f,
                         2.89247864745380683936e-6f,
                         6.79019408009981274425e-9f};

template <typename Forms>
inline float Ndtri(float p) {
  constexpr float kExpNegTwo = 0.13533528323661269189f;
  const bool flip = p <= 1.0f - kExpNegTwo;
  const float b = flip ? p : 1.0f - p;
  float r;
  if (kExpNegTwo < b) {
    const float c = b - 0.5f;
    const float c2 = c * c;
    r = (c * (c2 * (Polynomial(c2, kP0) / Polynomial(c2, kQ0))) + c) * 2.50662827463100050242e0f;
  } else {
    const float x = std::sqrt(-2.0f * Forms::Log(b));
    const float x0 = x - Forms::Log(x) / x;
    const float z = Forms::Reciprocal(x);
    const float ratio = x < 8.0f ? Polynomial(z, kP1) / Polynomial(z, kQ1)
                                 : Polynomial(z, kP2) / Polynomial(z, kQ2);
    const float d = x0 - z * ratio;
    r = flip ? -d : d;
  }
  if (p == 0.0f) return -std::numeric_limits<float>::infinity();
  if (p == 1.0f) return std::numeric_limits<float>::infinity();
  return r;
}

}  // namespace ndtri_float

// ndtri of a range of a tensor (a whole tensor, or a range starting at a multiple of 8 and
// ending at another or at the tensor's end), with `pre` applied to each input first (Erfinv's
// p = x/2 + 1/2) and `post` to each result.
template <typename Pre, typename Post>
void NdtriFloatRange(const float* x, float* y, int64_t n, Pre pre, Post post) {
  const int64_t tail_start = n - n % numerics::kLogFloatPacket;
  for (int64_t i = 0; i < n; ++i) {
    const float p = pre(x[i]);
    y[i] = post(i < tail_start ? ndtri_float::Ndtri<ndtri_float::PacketForms>(p)
                               : ndtri_float::Ndtri<ndtri_float::ScalarForms>(p));
  }
}

}  // namespace unary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_NDTRI_FLOAT_H_
