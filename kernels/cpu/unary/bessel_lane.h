// One lane of TensorFlow's float packets, for evaluating Eigen's Bessel functions as
// TensorFlow's CPU kernels compute them below a tensor's scalar tail.
//
// TensorFlow's Eigen evaluates the Bessel functions in packets of eight floats (AVX, no fused
// multiply-adds) with the same Cephes code as Eigen 3.4 (generic_j0<Packet, float> and
// friends: the same coefficients and the same sequence of packet operations), but its packet
// exp, log and reciprocal square root differ from Eigen 3.4's SSE ones. TensorFlowLane is a
// one-float "packet" whose operations are TensorFlow's: exp, log and rsqrt from numerics/
// (which reproduce TensorFlow's vector forms bit for bit), sin and cos from Eigen 3.4's SSE
// packets (the same as TensorFlow's AVX ones for every float tried), and products, sums and
// quotients each rounded on its own. Eigen's own templates, instantiated on it, then give
// TensorFlow's vector result lane by lane: Eigen::internal::generic_j0<TensorFlowLane,
// float>::run(x).
//
// A tensor's last total % 8 elements, which TensorFlow's vectorised loop leaves over, take
// Eigen's scalar form instead (the scalar functors, which agree with TensorFlow's).
#ifndef SLUICE_KERNELS_CPU_UNARY_BESSEL_LANE_H_
#define SLUICE_KERNELS_CPU_UNARY_BESSEL_LANE_H_

#include <cmath>
#include <cstdint>

#include "numerics/exp_float.h"
#include "numerics/log_float.h"
#include "numerics/rsqrt.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice {
namespace unary {

// Elements per packet of TensorFlow's vectorised float (and half) Bessel functions.
inline constexpr int64_t kBesselFloatPacket = 8;

struct TensorFlowLane {
  TensorFlowLane() = default;
  TensorFlowLane(float value) : v(value) {}  // NOLINT: Eigen's pset1 converts implicitly
  float v = 0.0f;
};

// The numerics/ functions give an element below a tensor's tail (flat 0 of 8) the vector form.
inline float VectorForm(void (*f)(const float*, float*, int64_t, int64_t, int64_t), float x) {
  float y;
  f(&x, &y, 1, 0, kBesselFloatPacket);
  return y;
}

// The operations Eigen's Bessel templates use, found by argument-dependent lookup and
// preferred to Eigen's generic templates. A comparison's mask is 1 (true) or 0.
inline TensorFlowLane padd(const TensorFlowLane& a, const TensorFlowLane& b) { return a.v + b.v; }
inline TensorFlowLane psub(const TensorFlowLane& a, const TensorFlowLane& b) { return a.v - b.v; }
inline TensorFlowLane pmul(const TensorFlowLane& a, const TensorFlowLane& b) { return a.v * b.v; }
inline TensorFlowLane pdiv(const TensorFlowLane& a, const TensorFlowLane& b) { return a.v / b.v; }
inline TensorFlowLane pmadd(const TensorFlowLane& a, const TensorFlowLane& b,
                            const TensorFlowLane& c) {
  const float product = a.v * b.v;
  return product + c.v;
}
inline TensorFlowLane pnegate(const TensorFlowLane& a) { return -a.v; }
inline TensorFlowLane pabs(const TensorFlowLane& a) { return std::fabs(a.v); }
inline TensorFlowLane pcmp_le(const TensorFlowLane& a, const TensorFlowLane& b) {
  return a.v <= b.v ? 1.0f : 0.0f;
}
inline TensorFlowLane pcmp_lt(const TensorFlowLane& a, const TensorFlowLane& b) {
  return a.v < b.v ? 1.0f : 0.0f;
}
inline TensorFlowLane pselect(const TensorFlowLane& mask, const TensorFlowLane& a,
                              const TensorFlowLane& b) {
  return mask.v != 0.0f ? a : b;
}
inline TensorFlowLane pexp(const TensorFlowLane& a) { return VectorForm(numerics::ExpFloat, a.v); }
inline TensorFlowLane plog(const TensorFlowLane& a) { return VectorForm(numerics::LogFloat, a.v); }
inline TensorFlowLane prsqrt(const TensorFlowLane& a) {
  return VectorForm(numerics::RsqrtFloat, a.v);
}
#if defined(__SSE2__)
inline TensorFlowLane psin(const TensorFlowLane& a) {
  return _mm_cvtss_f32(Eigen::internal::psin(_mm_set1_ps(a.v)));
}
inline TensorFlowLane pcos(const TensorFlowLane& a) {
  return _mm_cvtss_f32(Eigen::internal::pcos(_mm_set1_ps(a.v)));
}
#else
inline TensorFlowLane psin(const TensorFlowLane& a) { return std::sin(a.v); }
inline TensorFlowLane pcos(const TensorFlowLane& a) { return std::cos(a.v); }
#endif

}  // namespace unary
}  // namespace sluice

namespace Eigen {
namespace internal {
template <>
struct unpacket_traits<::sluice::unary::TensorFlowLane> {
  using type = float;
  using half = ::sluice::unary::TensorFlowLane;
  enum {
    size = 1,
    alignment = 1,
    vectorizable = false,
    masked_load_available = false,
    masked_store_available = false
  };
};
}  // namespace internal
}  // namespace Eigen

#endif  // SLUICE_KERNELS_CPU_UNARY_BESSEL_LANE_H_
