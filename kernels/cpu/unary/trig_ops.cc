// Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh and Atanh on the CPU, for the dtypes
// TensorFlow registers: bfloat16, half, float, double, complex64 and complex128. The functors
// are in trig_functors.h.
#include "graph/core/types.h"
#include "kernels/cpu/unary/trig_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using unary::AcosFunctor;
using unary::AcoshFunctor;
using unary::AsinFunctor;
using unary::AsinhFunctor;
using unary::AtanFunctor;
using unary::AtanhFunctor;
using unary::CoshFunctor;
using unary::SinhFunctor;
using unary::TanFunctor;

#define REGISTER_TRIG(T)                          \
  SLUICE_REGISTER_UNARY("Tan", TanFunctor, T)     \
  SLUICE_REGISTER_UNARY("Asin", AsinFunctor, T)   \
  SLUICE_REGISTER_UNARY("Acos", AcosFunctor, T)   \
  SLUICE_REGISTER_UNARY("Atan", AtanFunctor, T)   \
  SLUICE_REGISTER_UNARY("Sinh", SinhFunctor, T)   \
  SLUICE_REGISTER_UNARY("Cosh", CoshFunctor, T)   \
  SLUICE_REGISTER_UNARY("Asinh", AsinhFunctor, T) \
  SLUICE_REGISTER_UNARY("Acosh", AcoshFunctor, T) \
  SLUICE_REGISTER_UNARY("Atanh", AtanhFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_TRIG)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_TRIG)
#undef REGISTER_TRIG

}  // namespace
}  // namespace sluice
