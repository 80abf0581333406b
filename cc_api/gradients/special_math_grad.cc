// Gradient functions of the special functions of tf.math.special: the Bessel functions,
// Dawsn, Expint, FresnelCos, FresnelSin and Spence. Each is the derivative TensorFlow's Python
// gradient builds (math_grad.py), with its choices at the points where the formula divides by
// zero (BesselI1, BesselI1e and BesselJ1 at 0, Spence at 1), computed with the same ops in the
// same order. The ops take real values only, so no conjugation is needed.
#include <vector>

#include "cc_api/const_op.h"
#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/gradients/grad_helpers.h"
#include "cc_api/standard_ops.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

// dx = dy * derivative, the derivative written in terms of x, the op's output y and its dtype t.
#define SLUICE_SPECIAL_GRAD(Name, derivative)                                             \
  absl::Status Name##Grad(const Scope& scope, const Operation& op, const GradList& grads, \
                          GradList* out) {                                                \
    [[maybe_unused]] const Output x = op.input(0);                                        \
    [[maybe_unused]] const Output y = op.output(0);                                       \
    [[maybe_unused]] const DataType t = x.type();                                         \
    out->push_back(ops::Mul(scope, grads[0], derivative));                                \
    return scope.status();                                                                \
  }                                                                                       \
  REGISTER_GRADIENT_OP(#Name, Name##Grad)

// value where x is 0 (the formula's limit there), else the formula.
Output AtZeroElse(const Scope& scope, const Output& x, double value, const Output& formula) {
  const DataType t = x.type();
  return ops::SelectV2(scope, ops::Equal(scope, x, ScalarOf(scope, 0, t)),
                       ScalarOf(scope, value, t), formula);
}

// I0' = I1; I0e' = I1e - sign(x) I0e.
SLUICE_SPECIAL_GRAD(BesselI0, ops::BesselI1(scope, x));
SLUICE_SPECIAL_GRAD(BesselI0e, ops::Sub(scope, ops::BesselI1e(scope, x),
                                        ops::Mul(scope, ops::Sign(scope, x), y)));
// I1' = I0 - I1 / x, taken as 1 at 0 as TensorFlow takes it (the limit is 1/2);
// I1e' = I0e - I1e (sign(x) + 1/x), 1/2 at 0.
SLUICE_SPECIAL_GRAD(BesselI1, AtZeroElse(scope, x, 1.0,
                                         ops::Sub(scope, ops::BesselI0(scope, x),
                                                  ops::RealDiv(scope, y, x))));
SLUICE_SPECIAL_GRAD(BesselI1e, AtZeroElse(scope, x, 0.5,
                                          ops::Sub(scope, ops::BesselI0e(scope, x),
                                                   ops::Mul(scope, y,
                                                            ops::Add(scope, ops::Sign(scope, x),
                                                                     ops::Reciprocal(scope, x))))));
// K0' = -K1; K0e' = K0e - K1e; K1' = -K0 - K1 / x; K1e' = K1e (1 - 1/x) - K0e.
SLUICE_SPECIAL_GRAD(BesselK0, ops::Neg(scope, ops::BesselK1(scope, x)));
SLUICE_SPECIAL_GRAD(BesselK0e, ops::Sub(scope, y, ops::BesselK1e(scope, x)));
SLUICE_SPECIAL_GRAD(BesselK1, ops::Sub(scope, ops::Neg(scope, ops::BesselK0(scope, x)),
                                       ops::RealDiv(scope, y, x)));
SLUICE_SPECIAL_GRAD(
    BesselK1e,
    ops::Sub(scope,
             ops::Mul(scope, y, ops::Sub(scope, ScalarOf(scope, 1, t), ops::Reciprocal(scope, x))),
             ops::BesselK0e(scope, x)));
// J0' = -J1; J1' = J0 - J1 / x (1/2 at 0); Y0' = -Y1; Y1' = Y0 - Y1 / x.
SLUICE_SPECIAL_GRAD(BesselJ0, ops::Neg(scope, ops::BesselJ1(scope, x)));
SLUICE_SPECIAL_GRAD(BesselJ1, AtZeroElse(scope, x, 0.5,
                                         ops::Sub(scope, ops::BesselJ0(scope, x),
                                                  ops::RealDiv(scope, y, x))));
SLUICE_SPECIAL_GRAD(BesselY0, ops::Neg(scope, ops::BesselY1(scope, x)));
SLUICE_SPECIAL_GRAD(BesselY1, ops::Sub(scope, ops::BesselY0(scope, x), ops::RealDiv(scope, y, x)));
// F' = 1 - 2 x F.
SLUICE_SPECIAL_GRAD(Dawsn, ops::Sub(scope, ScalarOf(scope, 1, t),
                                    ops::Mul(scope, ops::Mul(scope, ScalarOf(scope, 2, t), x), y)));
// S' = sin(pi x^2 / 2), C' = cos(pi x^2 / 2).
SLUICE_SPECIAL_GRAD(FresnelCos,
                    ops::Cos(scope, ops::Mul(scope, ScalarOf(scope, 1.5707963267948966, t),
                                             ops::Square(scope, x))));
SLUICE_SPECIAL_GRAD(FresnelSin,
                    ops::Sin(scope, ops::Mul(scope, ScalarOf(scope, 1.5707963267948966, t),
                                             ops::Square(scope, x))));
// Spence' = log(x) / (1 - x), -1 at x = 1.
SLUICE_SPECIAL_GRAD(Spence, ops::Where3(scope, ops::Equal(scope, x, ScalarOf(scope, 1, t)),
                                        ops::Neg(scope, ops::OnesLike(scope, x)),
                                        ops::RealDiv(scope, ops::Log(scope, x),
                                                     ops::Sub(scope, ScalarOf(scope, 1, t), x))));

#undef SLUICE_SPECIAL_GRAD

// Ei' = exp(x) / x, applied as TensorFlow does: (dy * exp(x)) / x.
absl::Status ExpintGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  const Output x = op.input(0);
  out->push_back(ops::RealDiv(scope, ops::Mul(scope, grads[0], ops::Exp(scope, x)), x));
  return scope.status();
}
REGISTER_GRADIENT_OP("Expint", ExpintGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
