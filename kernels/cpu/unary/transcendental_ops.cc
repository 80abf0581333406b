// Transcendental functions of one tensor on the CPU: Sqrt, Rsqrt, Exp, Expm1, Log, Log1p,
// Sin, Cos, Tanh, Sigmoid (floating-point and complex), Erf and Erfc (floating-point).
//
// Each is Eigen's scalar functor, the one TensorFlow uses, so results agree with
// TensorFlow's to within the rounding of Eigen's vectorised approximations. half and
// bfloat16 go through Eigen's functors for those types, which compute in float. The
// exceptions are in unary_functors.h: float and double Sqrt are correctly rounded
// (numerics/sqrt.h), half and bfloat16 Rsqrt are computed in float and rounded once, float
// Erfc is Sluice's own, and Log recomputes subnormal inputs exactly.
#include <cmath>
#include <limits>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace {

using unary::CosFunctor;
using unary::ErfcFunctor;
using unary::ErfFunctor;
using unary::ExpFunctor;
using unary::Expm1Functor;
using unary::Log1pFunctor;
using unary::LogFunctor;
using unary::RsqrtFunctor;
using unary::SigmoidFunctor;
using unary::SinFunctor;
using unary::SqrtFunctor;
using unary::TanhFunctor;

#define REGISTER_FLOAT_OR_COMPLEX(T)              \
  SLUICE_REGISTER_UNARY("Sqrt", SqrtFunctor, T)   \
  SLUICE_REGISTER_UNARY("Rsqrt", RsqrtFunctor, T) \
  SLUICE_REGISTER_UNARY("Exp", ExpFunctor, T)     \
  SLUICE_REGISTER_UNARY("Expm1", Expm1Functor, T) \
  SLUICE_REGISTER_UNARY("Log", LogFunctor, T)     \
  SLUICE_REGISTER_UNARY("Log1p", Log1pFunctor, T) \
  SLUICE_REGISTER_UNARY("Sin", SinFunctor, T)     \
  SLUICE_REGISTER_UNARY("Cos", CosFunctor, T)     \
  SLUICE_REGISTER_UNARY("Tanh", TanhFunctor, T)   \
  SLUICE_REGISTER_UNARY("Sigmoid", SigmoidFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_FLOAT_OR_COMPLEX)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_FLOAT_OR_COMPLEX)
#undef REGISTER_FLOAT_OR_COMPLEX

#define REGISTER_ERF(T)                       \
  SLUICE_REGISTER_UNARY("Erf", ErfFunctor, T) \
  SLUICE_REGISTER_UNARY("Erfc", ErfcFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_ERF)
#undef REGISTER_ERF

}  // namespace
}  // namespace sluice
