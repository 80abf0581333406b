// The Bessel functions of tf.math.special that Sluice's special_ops.cc leaves out: BesselI0,
// BesselI1, BesselJ0, BesselJ1, BesselY0, BesselY1, BesselK0, BesselK0e, BesselK1 and
// BesselK1e, each for half, float and double (TensorFlow's CPU dtypes). Each is Eigen's Cephes
// functor, as TensorFlow's kernel is.
//
// Double is Eigen's functor, which agrees with TensorFlow's bit for bit (its vector and
// scalar forms agree). Float takes Eigen's scalar form for every element: that is what
// TensorFlow computes for a tensor's last total % 8 elements, while its packets of 8 use its
// newer Eigen's vector sin, cos, log, exp and square roots, which differ from Eigen 3.4's
// (and from the scalar form) by a few units in the last place for some inputs
// (tests/kernels/gen_special_functions.py states the bound). Half rounds the float result.
#include <cmath>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/half_keeping_nan.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace {

namespace ei = Eigen::internal;

// A subnormal float is read as the zero TensorFlow's vector forms read it as (the scalar form's
// log would look at its bits).
template <typename Op>
struct ScalarForm {
  static float Apply(float x) {
    return Op()(unary::IsSubnormalBits(x) ? std::copysign(0.0f, x) : x);
  }
};

// Every Bessel function starts from |x| or refuses x < 0 with a positive NaN, so a half NaN
// leaves with its sign cleared. Double reads subnormals as zero too (Eigen's functor, with
// subnormal elements recomputed from their zero).
template <typename T, template <typename> class Op>
using BesselFunctor = std::conditional_t<
    std::is_same_v<T, float>,
    ScalarUnaryFunctor<float, float, ScalarForm<Op<float>>, ei::functor_traits<Op<float>>::Cost>,
    std::conditional_t<std::is_same_v<T, double>, unary::FloatSubnormalsReadAsZero<T, Op<T>>,
                       unary::EigenOrHalfKeepingNaN<T, Op<T>, true>>>;

template <typename T>
using BesselI0Functor = BesselFunctor<T, ei::scalar_bessel_i0_op>;
template <typename T>
using BesselI1Functor = BesselFunctor<T, ei::scalar_bessel_i1_op>;
template <typename T>
using BesselJ0Functor = BesselFunctor<T, ei::scalar_bessel_j0_op>;
template <typename T>
using BesselJ1Functor = BesselFunctor<T, ei::scalar_bessel_j1_op>;
template <typename T>
using BesselY0Functor = BesselFunctor<T, ei::scalar_bessel_y0_op>;
template <typename T>
using BesselY1Functor = BesselFunctor<T, ei::scalar_bessel_y1_op>;
template <typename T>
using BesselK0Functor = BesselFunctor<T, ei::scalar_bessel_k0_op>;
template <typename T>
using BesselK0eFunctor = BesselFunctor<T, ei::scalar_bessel_k0e_op>;
template <typename T>
using BesselK1Functor = BesselFunctor<T, ei::scalar_bessel_k1_op>;
template <typename T>
using BesselK1eFunctor = BesselFunctor<T, ei::scalar_bessel_k1e_op>;

#define REGISTER_BESSEL(T)                                \
  SLUICE_REGISTER_UNARY("BesselI0", BesselI0Functor, T)   \
  SLUICE_REGISTER_UNARY("BesselI1", BesselI1Functor, T)   \
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
