#include "numerics/trig_float.h"

#include <cmath>
#include <cstdint>

#include "numerics/exp_log_packets.h"
#include "numerics/packet_tail.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice {
namespace numerics {
namespace {

#if defined(__SSE2__)
// mask ? a : b, lane by lane (Eigen's pselect).
inline __m128 Select(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
inline __m128d Select(__m128d mask, __m128d a, __m128d b) {
  return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}
// a * b + c with two roundings (TensorFlow's build has no fused multiply-add).
inline __m128 MulAdd(__m128 a, __m128 b, __m128 c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
inline __m128d MulAdd(__m128d a, __m128d b, __m128d c) { return _mm_add_pd(_mm_mul_pd(a, b), c); }
inline __m128 Abs(__m128 x) { return _mm_andnot_ps(Set(-0.0f), x); }

// Horner's rule from the highest coefficient c[0] down, as Eigen's ppolevl.
template <int kDegree>
inline __m128 Polynomial(__m128 x, const float (&c)[kDegree + 1]) {
  __m128 p = Set(c[0]);
  for (int i = 1; i <= kDegree; ++i) p = MulAdd(p, x, Set(c[i]));
  return p;
}
template <int kDegree>
inline __m128d Polynomial(__m128d x, const double (&c)[kDegree + 1]) {
  __m128d p = _mm_set1_pd(c[0]);
  for (int i = 1; i <= kDegree; ++i) p = MulAdd(p, x, _mm_set1_pd(c[i]));
  return p;
}

constexpr float kPiOverTwoFloat = static_cast<float>(3.14159265358979323846 / 2);
constexpr double kPiOverTwoDouble = 3.14159265358979323846 / 2;

// The processor's reciprocal estimate and one Newton step, the estimate where that is NaN
// (as reciprocal.h's vector form).
inline __m128 Reciprocal(__m128 v) {
  const __m128 r0 = _mm_rcp_ps(v);
  const __m128 t = _mm_sub_ps(Set(1.0f), _mm_mul_ps(v, r0));
  return EstimateWhereNaN(_mm_add_ps(_mm_mul_ps(r0, t), r0), r0);
}

__m128 VectorAtan(__m128 x_in) {
  constexpr float kP[] = {1.12026982009410858154296875e-01f, 7.296695709228515625e-01f,
                          8.109951019287109375e-01f};
  constexpr float kQ[] = {1.00917108356952667236328125e-02f, 2.8318560123443603515625e-01f, 1.0f,
                          8.109951019287109375e-01f};
  const __m128 abs_x = Abs(x_in);
  const __m128 sign = _mm_and_ps(x_in, Set(-0.0f));
  const __m128 large = _mm_cmplt_ps(Set(1.0f), abs_x);
  const __m128 x = Select(large, Reciprocal(abs_x), abs_x);
  const __m128 x2 = _mm_mul_ps(x, x);
  const __m128 p = _mm_mul_ps(x, _mm_div_ps(Polynomial<2>(x2, kP), Polynomial<3>(x2, kQ)));
  const __m128 result = Select(large, _mm_sub_ps(Set(kPiOverTwoFloat), p), p);
  return _mm_xor_ps(result, sign);
}

__m128 VectorAsin(__m128 x_in) {
  constexpr float kP[] = {5.08838854730129241943359375e-2f, 3.95139865577220916748046875e-2f,
                          7.550220191478729248046875e-2f, 0.16664917767047882080078125f,
                          1.00000011920928955078125f};
  const __m128 half = Set(0.5f);
  const __m128 abs_x = Abs(x_in);
  const __m128 sign = _mm_andnot_ps(abs_x, x_in);
  const __m128 invalid = _mm_cmplt_ps(Set(1.0f), abs_x);
  const __m128 x_large = _mm_sqrt_ps(_mm_sub_ps(half, _mm_mul_ps(half, abs_x)));
  const __m128 large = _mm_cmplt_ps(half, abs_x);
  const __m128 x = Select(large, x_large, abs_x);
  const __m128 x2 = _mm_mul_ps(x, x);
  __m128 p = _mm_mul_ps(Polynomial<4>(x2, kP), x);
  const __m128 p_large = _mm_sub_ps(Set(kPiOverTwoFloat), _mm_mul_ps(Set(2.0f), p));
  p = Select(large, p_large, p);
  return _mm_or_ps(invalid, _mm_xor_ps(p, sign));
}

__m128 VectorAcos(__m128 x_in) {
  const __m128 negative = _mm_castsi128_ps(_mm_srai_epi32(_mm_castps_si128(x_in), 31));
  const __m128 abs_x = Abs(x_in);
  const __m128 x2 = _mm_mul_ps(x_in, x_in);
  __m128 even =
      MulAdd(Set(2.36423197202384471893310546875e-3f), x2, Set(2.717843465507030487060546875e-2f));
  __m128 odd =
      MulAdd(Set(-1.1368644423782825469970703125e-2f), x2, Set(-4.8969544470310211181640625e-2f));
  even = MulAdd(even, x2, Set(8.8804088532924652099609375e-2f));
  odd = MulAdd(odd, x2, Set(-0.214591205120086669921875f));
  even = MulAdd(even, x2, Set(1.57079637050628662109375f));
  const __m128 p = MulAdd(odd, abs_x, even);
  const __m128 root = _mm_sqrt_ps(_mm_sub_ps(Set(1.0f), abs_x));
  const __m128 result = _mm_mul_ps(root, p);
  // A NaN x gives |x| quieted, as TensorFlow's product of the root and the polynomial does (the
  // compiler may swap a product's operands, so the NaN is picked here).
  const __m128 is_nan = _mm_cmpunord_ps(x_in, x_in);
  const __m128 quiet_abs = _mm_or_ps(abs_x, _mm_castsi128_ps(_mm_set1_epi32(0x00400000)));
  return Select(
      is_nan, quiet_abs,
      Select(negative, _mm_sub_ps(Set(static_cast<float>(3.14159265358979323846)), result),
             result));
}

__m128 VectorAtanh(__m128 x) {
  constexpr float kP[] = {0.1819281280040740966796875f, 8.2311116158962249755859375e-2f,
                          0.14672131836414337158203125f, 0.1997792422771453857421875f,
                          0.3333373963832855224609375f};
  const __m128 x2 = _mm_mul_ps(x, x);
  const __m128 x3 = _mm_mul_ps(x, x2);
  const __m128 small = MulAdd(x3, Polynomial<4>(x2, kP), x);
  const __m128 half = Set(0.5f);
  const __m128 one = Set(1.0f);
  const __m128 ratio = _mm_div_ps(_mm_add_ps(one, x), _mm_sub_ps(one, x));
  const __m128 large = _mm_mul_ps(half, VectorLog(ratio));
  const __m128 abs_x = Abs(x);
  const __m128 at_least_half = _mm_cmple_ps(half, abs_x);
  const __m128 is_one = _mm_cmpeq_ps(one, abs_x);
  const __m128 above_one = _mm_cmplt_ps(one, abs_x);
  const __m128 signed_inf = _mm_or_ps(_mm_and_ps(Set(-0.0f), x), Set(__builtin_inff()));
  return _mm_or_ps(above_one, Select(is_one, signed_inf, Select(at_least_half, large, small)));
}

__m128d VectorAtanDouble(__m128d x_in) {
  constexpr double kP[] = {2.6667153866462208e-05, 3.0917513112462781e-03, 5.2574296781008604e-02,
                           3.0409318473444424e-01, 7.5365702534987022e-01, 8.2704055405494614e-01,
                           3.3004361289279920e-01};
  constexpr double kQ[] = {2.7311202462436667e-04,
                           1.0899150928962708e-02,
                           1.1548932646420353e-01,
                           4.9716458728465573e-01,
                           1.0,
                           9.3705509168587852e-01,
                           3.3004361289279920e-01};
  const __m128d sign_bit = _mm_set1_pd(-0.0);
  const __m128d abs_x = _mm_andnot_pd(sign_bit, x_in);
  const __m128d sign = _mm_and_pd(x_in, sign_bit);
  const __m128d large = _mm_cmplt_pd(_mm_set1_pd(1.0), abs_x);
  const __m128d x = Select(large, _mm_div_pd(_mm_set1_pd(1.0), abs_x), abs_x);
  const __m128d x2 = _mm_mul_pd(x, x);
  const __m128d p = _mm_mul_pd(x, _mm_div_pd(Polynomial<6>(x2, kP), Polynomial<6>(x2, kQ)));
  const __m128d result = Select(large, _mm_sub_pd(_mm_set1_pd(kPiOverTwoDouble), p), p);
  return _mm_xor_pd(result, sign);
}

// atan2 by the atan of y / x, as TensorFlow's Eigen forms it (its patan2).
__m128 VectorAtan2(__m128 y, __m128 x) {
  const __m128 sign_bit = Set(-0.0f);
  const __m128 x_negative = _mm_castsi128_ps(_mm_srai_epi32(_mm_castps_si128(x), 31));
  const __m128 y_sign = _mm_and_ps(y, sign_bit);
  const __m128 result_sign = _mm_xor_ps(y_sign, _mm_and_ps(x, sign_bit));
  const __m128 shift =
      _mm_or_ps(_mm_and_ps(x_negative, Set(static_cast<float>(3.14159265358979323846))), y_sign);
  const __m128 same = _mm_cmpeq_ps(Abs(x), Abs(y));
  const __m128 both_zero = _mm_cmpeq_ps(_mm_or_ps(x, y), _mm_setzero_ps());
  __m128 arg = _mm_div_ps(y, x);
  arg = Select(same, _mm_or_ps(Set(1.0f), result_sign), arg);
  arg = Select(both_zero, result_sign, arg);
  return _mm_add_ps(VectorAtan(arg), shift);
}

__m128d VectorAtan2Double(__m128d y, __m128d x) {
  const __m128d sign_bit = _mm_set1_pd(-0.0);
  const __m128d x_negative = _mm_castsi128_pd(
      _mm_shuffle_epi32(_mm_srai_epi32(_mm_castpd_si128(x), 31), _MM_SHUFFLE(3, 3, 1, 1)));
  const __m128d y_sign = _mm_and_pd(y, sign_bit);
  const __m128d result_sign = _mm_xor_pd(y_sign, _mm_and_pd(x, sign_bit));
  const __m128d shift =
      _mm_or_pd(_mm_and_pd(x_negative, _mm_set1_pd(3.14159265358979323846)), y_sign);
  const __m128d same = _mm_cmpeq_pd(_mm_andnot_pd(sign_bit, x), _mm_andnot_pd(sign_bit, y));
  const __m128d both_zero = _mm_cmpeq_pd(_mm_or_pd(x, y), _mm_setzero_pd());
  __m128d arg = _mm_div_pd(y, x);
  arg = Select(same, _mm_or_pd(_mm_set1_pd(1.0), result_sign), arg);
  arg = Select(both_zero, result_sign, arg);
  return _mm_add_pd(VectorAtanDouble(arg), shift);
}
#endif  // defined(__SSE2__)

// The packet form below the tensor's scalar tail, `Scalar` (the C library's) in it.
#if defined(__SSE2__)
#define SLUICE_TRIG_FLOAT(NAME, VECTOR, SCALAR)                   \
  void NAME(const float* x, float* y, int64_t n) {                \
    ApplyPacketsThenTail(x, y, n, 0, n, kTrigFloatPacket, VECTOR, \
                         [](float v) { return SCALAR(v); });      \
  }
#else
#define SLUICE_TRIG_FLOAT(NAME, VECTOR, SCALAR)          \
  void NAME(const float* x, float* y, int64_t n) {       \
    for (int64_t i = 0; i < n; ++i) y[i] = SCALAR(x[i]); \
  }
#endif

}  // namespace

SLUICE_TRIG_FLOAT(AtanFloat, VectorAtan, std::atan)
SLUICE_TRIG_FLOAT(AsinFloat, VectorAsin, std::asin)
SLUICE_TRIG_FLOAT(AcosFloat, VectorAcos, std::acos)
SLUICE_TRIG_FLOAT(AtanhFloat, VectorAtanh, std::atanh)
#undef SLUICE_TRIG_FLOAT

void AtanDouble(const double* x, double* y, int64_t n) {
  const int64_t vector_end = n - n % kTrigDoublePacket;
  int64_t i = 0;
#if defined(__SSE2__)
  for (; i < vector_end; i += 2) _mm_storeu_pd(y + i, VectorAtanDouble(_mm_loadu_pd(x + i)));
#endif
  for (; i < n; ++i) y[i] = std::atan(x[i]);
}

float Atan2FloatPacketForm(float y, float x) {
#if defined(__SSE2__)
  return _mm_cvtss_f32(VectorAtan2(_mm_set_ss(y), _mm_set_ss(x)));
#else
  return std::atan2(y, x);
#endif
}

double Atan2DoublePacketForm(double y, double x) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(VectorAtan2Double(_mm_set_sd(y), _mm_set_sd(x)));
#else
  return std::atan2(y, x);
#endif
}

}  // namespace numerics
}  // namespace sluice
