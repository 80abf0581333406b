// The special functions of one real tensor on the CPU: Lgamma, Digamma, BesselI0e and
// BesselI1e (half, float, double) and Erfinv and Ndtri (float, double), the dtypes TensorFlow
// registers. Each is Eigen's functor, as TensorFlow's kernels are; Erfinv is
// ndtri(x / 2 + 1/2) / sqrt(2), TensorFlow's own definition, and Ndtri is NaN outside [0, 1]
// as in TensorFlow's newer Eigen.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/half_keeping_nan.h"
#include "kernels/cpu/unary/ndtri_float.h"
#include "kernels/cpu/unary/unary_op.h"
#include "numerics/rsqrt.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace unary {

// TensorFlow's newer Eigen gives NaN for ndtri outside [0, 1] (its formula takes the log of a
// negative number there); Eigen 3.4 gives -inf below 0 and +inf above 1. Each computes Eigen
// 3.4's ndtri, then NaN where the argument is below 0 or above 1.
// The NaN's sign is TensorFlow's: negative below 0, positive above 1.
template <typename T>
T NdtriInDomain(T p) {
  if (p < T(0)) return -std::numeric_limits<T>::quiet_NaN();
  if (p > T(1)) return std::numeric_limits<T>::quiet_NaN();
  return Eigen::numext::ndtri(p);
}
template <typename Packet>
Packet PacketNdtriInDomain(const Packet& p) {
  namespace ei = Eigen::internal;
  using T = typename ei::unpacket_traits<Packet>::type;
  const Packet outside =
      ei::por(ei::pcmp_lt(p, ei::pzero(p)), ei::pcmp_lt(ei::pset1<Packet>(T(1)), p));
  return ei::por(outside, ei::pndtri<Packet>(p));
}

template <typename T>
struct NdtriOp {
  T operator()(const T& p) const { return NdtriInDomain(p); }
  template <typename Packet>
  Packet packetOp(const Packet& p) const {
    return PacketNdtriInDomain(p);
  }
};

// erfinv(x) = ndtri((x + 1) / 2) / sqrt(2), computed as TensorFlow does: x * 1/2 + 1/2 (two
// roundings), then the product with 1/sqrt(2) rounded to T; NaN for |x| > 1.
template <typename T>
struct ErfinvOp {
  T operator()(const T& x) const {
    const T half = T(0.5);
    return NdtriInDomain(half * x + half) * T(M_SQRT1_2);
  }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    namespace ei = Eigen::internal;
    const Packet half = ei::pset1<Packet>(T(0.5));
    const Packet y = PacketNdtriInDomain(ei::padd(ei::pmul(half, x), half));
    return ei::pmul(y, ei::pset1<Packet>(T(M_SQRT1_2)));
  }
};

// Float BesselI0e and BesselI1e as TensorFlow computes them. Up to |x| = 8 both Eigens agree:
// Eigen 3.4's function. Above, both take a Chebyshev series in 32 / |x| - 2 times
// 1 / sqrt(|x|), but TensorFlow's packets (8 floats) take the reciprocal square root as the
// processor's estimate and one Newton step (numerics/rsqrt.h) and its scalar tail (a tensor's
// last total % 8) as 1 / sqrt(|x|); Eigen 3.4's differs from both.
//
// Clenshaw's recurrence for sum' c[i] T_i(t), as Eigen's pchebevl: each product and sum
// rounded on its own.
template <int N>
float Chebyshev(float t, const float (&c)[N]) {
  float b0 = c[0];
  float b1 = 0.0f;
  float b2 = 0.0f;
  for (int i = 1; i < N; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = (t * b1 + c[i]) - b2;
  }
  return 0.5f * (b0 - b2);
}

// Cephes's coefficients of the series for |x| > 8 (i0e and i1e).
constexpr float kI0eLarge[] = {3.39623202570838634515E-9f, 2.26666899049817806459E-8f,
                               2.04891858946906374183E-7f, 2.89137052083475648297E-6f,
                               6.88975834691682398426E-5f, 3.36911647825569408990E-3f,
                               8.04490411014108831608E-1f};
constexpr float kI1eLarge[] = {-3.83538038596423702205E-9f, -2.63146884688951950684E-8f,
                               -2.51223623787020892529E-7f, -3.88256480887769039346E-6f,
                               -1.10588938762623716291E-4f, -9.76109749136146840777E-3f,
                               7.78576235018280120474E-1f};

template <bool kOrderOne>
struct TensorFlowBesselFloat {
  using In = float;
  using Out = float;
  static constexpr int kCycles = 60;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const float* in = x.data();
    float* out = y.data();
    const int64_t n = x.size();
    const int64_t tail_start = n - n % numerics::kRsqrtFloatPacket;
    for (int64_t i = 0; i < n; ++i) {
      const float v = in[i];
      const float a = std::fabs(v);
      if (!(a > 8.0f)) {
        out[i] = kOrderOne ? Eigen::numext::bessel_i1e(v) : Eigen::numext::bessel_i0e(v);
        continue;
      }
      float root;
      if (i < tail_start) {
        numerics::RsqrtFloat(&a, &root, 1, 0, numerics::kRsqrtFloatPacket);
      } else {
        root = 1.0f / std::sqrt(a);
      }
      const float r = Chebyshev(32.0f / a - 2.0f, kOrderOne ? kI1eLarge : kI0eLarge) * root;
      out[i] = kOrderOne && v < 0.0f ? -r : r;
    }
  }
};

// Float Ndtri and Erfinv: ndtri_float.h's, in TensorFlow's packets and tail.
template <bool kErfinv>
struct TensorFlowNdtriFloat {
  using In = float;
  using Out = float;
  static constexpr int kCycles = 80;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    if constexpr (kErfinv) {
      NdtriFloatRange(
          x.data(), y.data(), x.size(), [](float v) { return 0.5f * v + 0.5f; },
          [](float r) { return r * static_cast<float>(M_SQRT1_2); });
    } else {
      NdtriFloatRange(
          x.data(), y.data(), x.size(), [](float v) { return v; }, [](float r) { return r; });
    }
  }
};

}  // namespace unary
}  // namespace sluice

namespace Eigen {
namespace internal {
template <typename T>
struct functor_traits<::sluice::unary::NdtriOp<T>> {
  enum {
    Cost = functor_traits<scalar_ndtri_op<T>>::Cost + 2 * NumTraits<T>::AddCost,
    PacketAccess = packet_traits<T>::HasNdtri,
  };
};
template <typename T>
struct functor_traits<::sluice::unary::ErfinvOp<T>> {
  enum {
    Cost = functor_traits<scalar_ndtri_op<T>>::Cost + NumTraits<T>::AddCost,
    PacketAccess = packet_traits<T>::HasNdtri,
  };
};
}  // namespace internal
}  // namespace Eigen

namespace sluice {
namespace {

namespace ei = Eigen::internal;

using unary::EigenOrHalfKeepingNaN;

template <typename T>
using LgammaFunctor = EigenOrHalfKeepingNaN<T, ei::scalar_lgamma_op<T>>;
template <typename T>
using DigammaFunctor = EigenOrHalfKeepingNaN<T, ei::scalar_digamma_op<T>>;
template <typename T>
using BesselI0eFunctor =
    std::conditional_t<std::is_same_v<T, float>, unary::TensorFlowBesselFloat<false>,
                       EigenOrHalfKeepingNaN<T, ei::scalar_bessel_i0e_op<T>, true>>;
template <typename T>
using BesselI1eFunctor =
    std::conditional_t<std::is_same_v<T, float>, unary::TensorFlowBesselFloat<true>,
                       EigenOrHalfKeepingNaN<T, ei::scalar_bessel_i1e_op<T>, true>>;
template <typename T>
using NdtriFunctor =
    std::conditional_t<std::is_same_v<T, float>, unary::TensorFlowNdtriFloat<false>,
                       EigenUnaryFunctor<T, unary::NdtriOp<T>>>;
template <typename T>
using ErfinvFunctor =
    std::conditional_t<std::is_same_v<T, float>, unary::TensorFlowNdtriFloat<true>,
                       EigenUnaryFunctor<T, unary::ErfinvOp<T>>>;

#define REGISTER_GAMMA_BESSEL(T)                          \
  SLUICE_REGISTER_UNARY("Lgamma", LgammaFunctor, T)       \
  SLUICE_REGISTER_UNARY("Digamma", DigammaFunctor, T)     \
  SLUICE_REGISTER_UNARY("BesselI0e", BesselI0eFunctor, T) \
  SLUICE_REGISTER_UNARY("BesselI1e", BesselI1eFunctor, T)
SLUICE_CALL_half(REGISTER_GAMMA_BESSEL) SLUICE_CALL_float(REGISTER_GAMMA_BESSEL)
    SLUICE_CALL_double(REGISTER_GAMMA_BESSEL)
#undef REGISTER_GAMMA_BESSEL

#define REGISTER_NDTRI(T)                         \
  SLUICE_REGISTER_UNARY("Ndtri", NdtriFunctor, T) \
  SLUICE_REGISTER_UNARY("Erfinv", ErfinvFunctor, T)
        SLUICE_CALL_float(REGISTER_NDTRI) SLUICE_CALL_double(REGISTER_NDTRI)
#undef REGISTER_NDTRI

}  // namespace
}  // namespace sluice
