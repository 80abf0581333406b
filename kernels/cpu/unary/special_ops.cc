// The special functions of one real tensor on the CPU: Lgamma, Digamma, BesselI0e and
// BesselI1e (half, float, double) and Erfinv and Ndtri (float, double), the dtypes TensorFlow
// registers. Each is Eigen's functor, as TensorFlow's kernels are; Erfinv is
// ndtri(x / 2 + 1/2) / sqrt(2), TensorFlow's own definition, and Ndtri is NaN outside [0, 1]
// as in TensorFlow's newer Eigen.
#include <cmath>
#include <limits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace unary {

// TensorFlow's newer Eigen gives NaN for ndtri outside [0, 1] (its formula takes the log of a
// negative number there); Eigen 3.4 gives -inf below 0 and +inf above 1. Each computes Eigen
// 3.4's ndtri, then NaN where the argument is below 0 or above 1.
template <typename T>
T NdtriInDomain(T p) {
  return p < T(0) || p > T(1) ? std::numeric_limits<T>::quiet_NaN() : Eigen::numext::ndtri(p);
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

template <typename T>
using LgammaFunctor = EigenUnaryFunctor<T, ei::scalar_lgamma_op<T>>;
template <typename T>
using DigammaFunctor = EigenUnaryFunctor<T, ei::scalar_digamma_op<T>>;
template <typename T>
using BesselI0eFunctor = EigenUnaryFunctor<T, ei::scalar_bessel_i0e_op<T>>;
template <typename T>
using BesselI1eFunctor = EigenUnaryFunctor<T, ei::scalar_bessel_i1e_op<T>>;
template <typename T>
using NdtriFunctor = EigenUnaryFunctor<T, unary::NdtriOp<T>>;
template <typename T>
using ErfinvFunctor = EigenUnaryFunctor<T, unary::ErfinvOp<T>>;

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
