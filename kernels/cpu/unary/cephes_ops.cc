// Dawsn, Expint, FresnelCos, FresnelSin and Spence for float and double (TensorFlow's CPU
// dtypes): cephes_functions.h element by element.
//
// Subnormal inputs: the kernels' arithmetic reads them as zero, and only Expint hands one to
// the C library (its log). There TensorFlow's results follow the C library's: its float log
// looks at the bits (Expint of 1e-40 is -103.39, of -1e-40 NaN), its double log computes with
// them, so that double reads a subnormal as zero (Expint of +-5e-324 is -inf). Sluice hands
// float inputs over as they are and reads a double subnormal as its zero first.
#include <cmath>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/cephes_functions.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T, T (*F)(T)>
struct DoubleSubnormalsAsZero {
  static T Apply(T x) {
    if constexpr (std::is_same_v<T, double>) {
      if (unary::IsSubnormalBits(x)) return F(std::copysign(0.0, x));
    }
    return F(x);
  }
};

// Rough costs: a rational fit of about 20 terms, plus a log, exp, sin or cos.
template <typename T>
using DawsnFunctor = ScalarUnaryFunctor<T, T, DoubleSubnormalsAsZero<T, cephes::Dawsn<T>>, 60>;
template <typename T>
using ExpintFunctor = ScalarUnaryFunctor<T, T, DoubleSubnormalsAsZero<T, cephes::Expint<T>>, 80>;
template <typename T>
using FresnelCosFunctor =
    ScalarUnaryFunctor<T, T, DoubleSubnormalsAsZero<T, cephes::FresnelCos<T>>, 120>;
template <typename T>
using FresnelSinFunctor =
    ScalarUnaryFunctor<T, T, DoubleSubnormalsAsZero<T, cephes::FresnelSin<T>>, 120>;
template <typename T>
using SpenceFunctor = ScalarUnaryFunctor<T, T, DoubleSubnormalsAsZero<T, cephes::Spence<T>>, 80>;

#define REGISTER_CEPHES(T)                                  \
  SLUICE_REGISTER_UNARY("Dawsn", DawsnFunctor, T)           \
  SLUICE_REGISTER_UNARY("Expint", ExpintFunctor, T)         \
  SLUICE_REGISTER_UNARY("FresnelCos", FresnelCosFunctor, T) \
  SLUICE_REGISTER_UNARY("FresnelSin", FresnelSinFunctor, T) \
  SLUICE_REGISTER_UNARY("Spence", SpenceFunctor, T)
SLUICE_CALL_float(REGISTER_CEPHES) SLUICE_CALL_double(REGISTER_CEPHES)
#undef REGISTER_CEPHES

}  // namespace
}  // namespace sluice
