// Transcendental functions of one tensor on the CPU: Sqrt, Rsqrt, Exp, Expm1, Log, Log1p,
// Sin, Cos, Tanh, Sigmoid (floating-point and complex) and Erf (floating-point).
//
// Each is Eigen's scalar functor, the one TensorFlow uses, so results agree with
// TensorFlow's to within the rounding of Eigen's vectorised approximations. half and
// bfloat16 go through Eigen's functors for those types, which compute in float.
#include <cmath>
#include <limits>
#include <type_traits>

#include "graph/types.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace {

namespace ei = Eigen::internal;

template <typename T>
using SqrtFunctor = EigenUnaryFunctor<T, ei::scalar_sqrt_op<T>>;
template <typename T>
using RsqrtFunctor = EigenUnaryFunctor<T, ei::scalar_rsqrt_op<T>>;
template <typename T>
using ExpFunctor = EigenUnaryFunctor<T, ei::scalar_exp_op<T>>;
template <typename T>
using Expm1Functor = EigenUnaryFunctor<T, ei::scalar_expm1_op<T>>;
// Eigen 3.4's vectorised float and double log treats subnormal inputs as the smallest
// normal number (log(1e-45f) comes out -87.3, not -103.3). A range holding one is computed
// element by element instead, with std::log for the subnormals; in place is still safe, as
// each element is read before it is written.
template <typename T>
struct SubnormalExactLog : EigenUnaryFunctor<T, ei::scalar_log_op<T>> {
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const T* in = x.data();
    const Eigen::Index n = x.size();
    Eigen::Index i = 0;
    while (i < n && !IsSubnormal(in[i])) ++i;
    if (i == n) {
      y = x.unaryExpr(ei::scalar_log_op<T>());
      return;
    }
    T* out = y.data();
    const ei::scalar_log_op<T> log;
    for (i = 0; i < n; ++i) {
      const T v = in[i];
      out[i] = IsSubnormal(v) ? std::log(v) : log(v);
    }
  }
  static bool IsSubnormal(T v) { return v > T(0) && v < std::numeric_limits<T>::min(); }
};

template <typename T>
using LogFunctor =
    std::conditional_t<std::is_floating_point_v<T>, SubnormalExactLog<T>,
                       EigenUnaryFunctor<T, ei::scalar_log_op<T>>>;
template <typename T>
using Log1pFunctor = EigenUnaryFunctor<T, ei::scalar_log1p_op<T>>;
template <typename T>
using SinFunctor = EigenUnaryFunctor<T, ei::scalar_sin_op<T>>;
template <typename T>
using CosFunctor = EigenUnaryFunctor<T, ei::scalar_cos_op<T>>;
template <typename T>
using TanhFunctor = EigenUnaryFunctor<T, ei::scalar_tanh_op<T>>;
template <typename T>
using SigmoidFunctor = EigenUnaryFunctor<T, ei::scalar_logistic_op<T>>;
template <typename T>
using ErfFunctor = EigenUnaryFunctor<T, ei::scalar_erf_op<T>>;

#define REGISTER_FLOAT_OR_COMPLEX(T)                  \
  SLUICE_REGISTER_UNARY("Sqrt", SqrtFunctor, T)       \
  SLUICE_REGISTER_UNARY("Rsqrt", RsqrtFunctor, T)     \
  SLUICE_REGISTER_UNARY("Exp", ExpFunctor, T)         \
  SLUICE_REGISTER_UNARY("Expm1", Expm1Functor, T)     \
  SLUICE_REGISTER_UNARY("Log", LogFunctor, T)         \
  SLUICE_REGISTER_UNARY("Log1p", Log1pFunctor, T)     \
  SLUICE_REGISTER_UNARY("Sin", SinFunctor, T)         \
  SLUICE_REGISTER_UNARY("Cos", CosFunctor, T)         \
  SLUICE_REGISTER_UNARY("Tanh", TanhFunctor, T)       \
  SLUICE_REGISTER_UNARY("Sigmoid", SigmoidFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_FLOAT_OR_COMPLEX)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_FLOAT_OR_COMPLEX)
#undef REGISTER_FLOAT_OR_COMPLEX

#define REGISTER_ERF(T) SLUICE_REGISTER_UNARY("Erf", ErfFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_ERF)
#undef REGISTER_ERF

}  // namespace
}  // namespace sluice
