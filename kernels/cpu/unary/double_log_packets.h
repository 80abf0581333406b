// TensorFlow 2.21's vector forms of double log, log1p and atanh, one element or one packet of
// two lanes at a time: what its Eigen computes for a double below a tensor's scalar tail (its
// packets hold 4 doubles; the tail, total % 4, is the C library's). Used by double Atanh,
// Xlogy and Xlog1py.
//
// log is Cephes's rational approximation (Eigen's plog_double), the same in Eigen 3.4 for every
// normal input; the kernels read subnormals as zero, for which both give -inf. log1p(x) is
// x * log(1 + x) / ((1 + x) - 1), or x itself where 1 + x rounds to 1 or to +inf. atanh(x) is
// x + x^3 P(x^2) / Q(x^2) below |x| = 1/2 (P of degree 4, Q of degree 5) and
// log((1 + x) / (1 - x)) / 2 from there, +-inf at +-1, NaN beyond.
#ifndef SLUICE_KERNELS_CPU_UNARY_DOUBLE_LOG_PACKETS_H_
#define SLUICE_KERNELS_CPU_UNARY_DOUBLE_LOG_PACKETS_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "Eigen/Core"

namespace sluice {
namespace unary {

#if defined(EIGEN_VECTORIZE_SSE2)
namespace double_packets {

namespace ei = Eigen::internal;
using Packet = ei::Packet2d;

inline Packet Log(Packet y) { return ei::plog<Packet>(y); }

inline Packet Log1p(Packet x) {
  const Packet one = ei::pset1<Packet>(1.0);
  const Packet x_plus_one = ei::padd(x, one);
  const Packet small = ei::pcmp_eq(x_plus_one, one);
  const Packet log = Log(x_plus_one);
  const Packet overflow = ei::pcmp_eq(x_plus_one, log);
  const Packet large = ei::pmul(x, ei::pdiv(log, ei::psub(x_plus_one, one)));
  return ei::pselect(ei::por(small, overflow), x, large);
}

// Horner's rule from the highest coefficient c[0], each product and sum rounded.
template <int kDegree>
inline Packet Polynomial(Packet x, const double (&c)[kDegree + 1]) {
  Packet p = ei::pset1<Packet>(c[0]);
  for (int i = 1; i <= kDegree; ++i) p = ei::padd(ei::pmul(p, x), ei::pset1<Packet>(c[i]));
  return p;
}

inline Packet Atanh(Packet x) {
  constexpr double kP[] = {3.3071338469301391e-03, -4.7129526768798737e-02, 1.8185306179826699e-01,
                           -2.5949536095445679e-01, 1.2306328729812676e-01};
  constexpr double kQ[] = {-3.8679974580640881e-03, 7.6391885763341910e-02,
                           -4.2828141436397615e-01, 9.8733495886883648e-01,
                           -1.0000000000000000e+00, 3.6918986189438030e-01};
  const Packet x2 = ei::pmul(x, x);
  const Packet x3 = ei::pmul(x, x2);
  const Packet small =
      ei::padd(ei::pmul(x3, ei::pdiv(Polynomial<4>(x2, kP), Polynomial<5>(x2, kQ))), x);
  const Packet half = ei::pset1<Packet>(0.5);
  const Packet one = ei::pset1<Packet>(1.0);
  const Packet large = ei::pmul(half, Log(ei::pdiv(ei::padd(one, x), ei::psub(one, x))));
  const Packet abs_x = ei::pabs(x);
  const Packet at_least_half = ei::pcmp_le(half, abs_x);
  const Packet is_one = ei::pcmp_eq(one, abs_x);
  const Packet above_one = ei::pcmp_lt(one, abs_x);
  const Packet signed_inf = ei::por(ei::pand(ei::pset1<Packet>(-0.0), x),
                                    ei::pset1<Packet>(std::numeric_limits<double>::infinity()));
  return ei::por(above_one,
                 ei::pselect(is_one, signed_inf, ei::pselect(at_least_half, large, small)));
}

inline double Lane0(Packet p) { return _mm_cvtsd_f64(p); }

}  // namespace double_packets

inline double TensorFlowLogDouble(double y) {
  return double_packets::Lane0(double_packets::Log(_mm_set_sd(y)));
}
inline double TensorFlowLog1pDouble(double y) {
  return double_packets::Lane0(double_packets::Log1p(_mm_set_sd(y)));
}

// y[i] = atanh(x[i]) for a whole tensor (or a range of one that starts at a multiple of 4 and
// ends at another or at the tensor's end): the vector form but for the last n % 4 elements.
inline void AtanhDouble(const double* x, double* y, int64_t n) {
  const int64_t vector_end = n - n % 4;
  int64_t i = 0;
  for (; i < vector_end; i += 2) _mm_storeu_pd(y + i, double_packets::Atanh(_mm_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = std::atanh(x[i]);
}
#else
inline double TensorFlowLogDouble(double y) { return std::log(y); }
inline double TensorFlowLog1pDouble(double y) { return std::log1p(y); }
inline void AtanhDouble(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::atanh(x[i]);
}
#endif

}  // namespace unary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_DOUBLE_LOG_PACKETS_H_
