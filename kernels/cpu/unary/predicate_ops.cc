// Elementwise predicates on the CPU: IsNan, IsInf, IsFinite (floating-point in, bool out)
// and LogicalNot (bool in, bool out).
#include "graph/core/types.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

template <typename T>
struct IsNanFn {
  static bool Apply(T x) { return Eigen::numext::isnan(x); }
};
template <typename T>
struct IsInfFn {
  static bool Apply(T x) { return Eigen::numext::isinf(x); }
};
template <typename T>
struct IsFiniteFn {
  static bool Apply(T x) { return Eigen::numext::isfinite(x); }
};
struct LogicalNotFn {
  static bool Apply(bool x) { return !x; }
};

template <typename T>
using IsNanFunctor = ScalarUnaryFunctor<T, bool, IsNanFn<T>, 1>;
template <typename T>
using IsInfFunctor = ScalarUnaryFunctor<T, bool, IsInfFn<T>, 1>;
template <typename T>
using IsFiniteFunctor = ScalarUnaryFunctor<T, bool, IsFiniteFn<T>, 1>;

#define REGISTER_PREDICATES(T)                    \
  SLUICE_REGISTER_UNARY("IsNan", IsNanFunctor, T) \
  SLUICE_REGISTER_UNARY("IsInf", IsInfFunctor, T) \
  SLUICE_REGISTER_UNARY("IsFinite", IsFiniteFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_PREDICATES)
#undef REGISTER_PREDICATES

REGISTER_KERNEL_BUILDER(Name("LogicalNot").Device(DEVICE_CPU),
                        UnaryOp<ScalarUnaryFunctor<bool, bool, LogicalNotFn, 1>>);

}  // namespace
}  // namespace sluice
