// The special functions of one real tensor on the CPU: Lgamma and Digamma (half, float, double)
// and Erfinv and Ndtri (float, double), the dtypes TensorFlow registers (the Bessel functions
// are bessel_ops.cc's). Each is Eigen's functor, as TensorFlow's kernels are; Erfinv is
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
using NdtriFunctor =
    std::conditional_t<std::is_same_v<T, float>, unary::TensorFlowNdtriFloat<false>,
                       EigenUnaryFunctor<T, unary::NdtriOp<T>>>;
template <typename T>
using ErfinvFunctor =
    std::conditional_t<std::is_same_v<T, float>, unary::TensorFlowNdtriFloat<true>,
                       EigenUnaryFunctor<T, unary::ErfinvOp<T>>>;

#define REGISTER_GAMMA(T)                           \
  SLUICE_REGISTER_UNARY("Lgamma", LgammaFunctor, T) \
  SLUICE_REGISTER_UNARY("Digamma", DigammaFunctor, T)
SLUICE_CALL_half(REGISTER_GAMMA) SLUICE_CALL_float(REGISTER_GAMMA)
    SLUICE_CALL_double(REGISTER_GAMMA)
#undef REGISTER_GAMMA

#define REGISTER_NDTRI(T)                         \
  SLUICE_REGISTER_UNARY("Ndtri", NdtriFunctor, T) \
  SLUICE_REGISTER_UNARY("Erfinv", ErfinvFunctor, T)
        SLUICE_CALL_float(REGISTER_NDTRI) SLUICE_CALL_double(REGISTER_NDTRI)
#undef REGISTER_NDTRI

}  // namespace
}  // namespace sluice
