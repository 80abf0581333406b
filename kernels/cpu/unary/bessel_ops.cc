// The Bessel functions of tf.math.special: BesselI0, BesselI0e, BesselI1, BesselI1e, BesselJ0,
// BesselJ1, BesselY0, BesselY1, BesselK0, BesselK0e, BesselK1 and BesselK1e, each for half,
// float and double (TensorFlow's CPU dtypes), as TensorFlow's kernels compute them with
// Eigen's Cephes code:
//
//   double: Eigen's functor, whose vector and scalar forms agree with TensorFlow's;
//   float:  TensorFlow's packets of 8 for all but a tensor's last total % 8 elements
//           (bessel_lane.h: Eigen's templates on TensorFlow's exp, log, rsqrt, sin and cos),
//           Eigen's scalar form for those;
//   half:   the same in float (TensorFlow converts packets of 8 halves to float and back, and
//           its scalar tail goes through float too), rounded once, NaN keeping its payload.
#include <cstdint>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/bessel_lane.h"
#include "kernels/cpu/unary/half_keeping_nan.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace {

namespace ei = Eigen::internal;

// Generic is Eigen's generic_j0 and friends, ScalarOp its scalar functor.
template <template <typename, typename> class Generic, template <typename> class ScalarOp>
struct BesselForms {
  static float Vector(float x) {
    return Generic<unary::TensorFlowLane, float>::run(unary::TensorFlowLane(x)).v;
  }
  static float Scalar(float x) { return ScalarOp<float>()(x); }
};

// The ranges UnaryOp hands over start at multiples of 64 and only the last one reaches the
// tensor's end, so a range's own last n % 8 elements are the tensor's scalar tail.
template <typename T, typename Forms>
struct TensorFlowBessel {
  using In = T;
  using Out = T;
  static constexpr int kCycles = 150;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const T* in = x.data();
    T* out = y.data();
    const int64_t n = x.size();
    const int64_t tail_start = n - n % unary::kBesselFloatPacket;
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, float>) {
        out[i] = i < tail_start ? Forms::Vector(in[i]) : Forms::Scalar(in[i]);
      } else {
        out[i] = Half(in[i], i < tail_start);
      }
    }
  }

  // Half NaN keeps its payload, quieted, its sign cleared as TensorFlow's arithmetic from |x|
  // leaves it.
  static Eigen::half Half(Eigen::half x, bool vector) {
    if (Eigen::numext::isnan(x)) return unary::QuietHalfNaN(x, /*sign_cleared=*/true);
    const float v = static_cast<float>(x);
    return Eigen::half(vector ? Forms::Vector(v) : Forms::Scalar(v));
  }
};

template <typename T, template <typename, typename> class Generic,
          template <typename> class ScalarOp>
using BesselFunctor =
    std::conditional_t<std::is_same_v<T, double>, EigenUnaryFunctor<T, ScalarOp<T>>,
                       TensorFlowBessel<T, BesselForms<Generic, ScalarOp>>>;

template <typename T>
using BesselI0Functor = BesselFunctor<T, ei::generic_i0, ei::scalar_bessel_i0_op>;
template <typename T>
using BesselI0eFunctor = BesselFunctor<T, ei::generic_i0e, ei::scalar_bessel_i0e_op>;
template <typename T>
using BesselI1Functor = BesselFunctor<T, ei::generic_i1, ei::scalar_bessel_i1_op>;
template <typename T>
using BesselI1eFunctor = BesselFunctor<T, ei::generic_i1e, ei::scalar_bessel_i1e_op>;
template <typename T>
using BesselJ0Functor = BesselFunctor<T, ei::generic_j0, ei::scalar_bessel_j0_op>;
template <typename T>
using BesselJ1Functor = BesselFunctor<T, ei::generic_j1, ei::scalar_bessel_j1_op>;
template <typename T>
using BesselY0Functor = BesselFunctor<T, ei::generic_y0, ei::scalar_bessel_y0_op>;
template <typename T>
using BesselY1Functor = BesselFunctor<T, ei::generic_y1, ei::scalar_bessel_y1_op>;
template <typename T>
using BesselK0Functor = BesselFunctor<T, ei::generic_k0, ei::scalar_bessel_k0_op>;
template <typename T>
using BesselK0eFunctor = BesselFunctor<T, ei::generic_k0e, ei::scalar_bessel_k0e_op>;
template <typename T>
using BesselK1Functor = BesselFunctor<T, ei::generic_k1, ei::scalar_bessel_k1_op>;
template <typename T>
using BesselK1eFunctor = BesselFunctor<T, ei::generic_k1e, ei::scalar_bessel_k1e_op>;

#define REGISTER_BESSEL(T)                                \
  SLUICE_REGISTER_UNARY("BesselI0", BesselI0Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselI0e", BesselI0eFunctor, T) \
  SLUICE_REGISTER_UNARY("BesselI1", BesselI1Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselI1e", BesselI1eFunctor, T) \
  SLUICE_REGISTER_UNARY("BesselJ0", BesselJ0Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselJ1", BesselJ1Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselY0", BesselY0Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselY1", BesselY1Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselK0", BesselK0Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselK0e", BesselK0eFunctor, T) \
  SLUICE_REGISTER_UNARY("BesselK1", BesselK1Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselK1e", BesselK1eFunctor, T)
SLUICE_CALL_half(REGISTER_BESSEL) SLUICE_CALL_float(REGISTER_BESSEL)
    SLUICE_CALL_double(REGISTER_BESSEL)
#undef REGISTER_BESSEL

}  // namespace
}  // namespace sluice
