#include "cc_api/gradients/grad_helpers.h"

#include "cc_api/const_op.h"
#include "cc_api/standard_ops.h"

namespace sluice {
namespace gradients {

Output ScalarOf(const Scope& scope, double value, DataType dtype) {
  if (dtype == DT_DOUBLE) return ops::Const(scope, value);
  return ops::Cast(scope, ops::Const(scope, static_cast<float>(value)), dtype);
}

Output ConjugateIfComplex(const Scope& scope, const Output& x) {
  if (x.type() == DT_COMPLEX64 || x.type() == DT_COMPLEX128) return ops::Conj(scope, x);
  return x;
}

absl::Status BroadcastReducedGrads(const Scope& scope, const Output& x, const Output& y,
                                   const Output& gx, const Output& gy,
                                   std::vector<Output>* grad_outputs) {
  auto x_shape = ops::Shape(scope, x);
  auto y_shape = ops::Shape(scope, y);
  auto axes = ops::internal::BroadcastGradientArgs(scope, x_shape, y_shape);
  grad_outputs->push_back(ops::Reshape(scope, ops::Sum(scope, gx, axes.r0), x_shape));
  grad_outputs->push_back(ops::Reshape(scope, ops::Sum(scope, gy, axes.r1), y_shape));
  return scope.status();
}

Output ReduceToShapeOf(const Scope& scope, const Output& grad, const Output& operand,
                       const Output& output) {
  auto operand_shape = ops::Shape(scope, operand);
  auto axes = ops::internal::BroadcastGradientArgs(scope, operand_shape, ops::Shape(scope, output));
  return ops::Reshape(scope, ops::Sum(scope, grad, axes.r0), operand_shape);
}

Output ReducedShapeKeepingDims(const Scope& scope, const Output& input_shape, const Output& axes) {
  // Stitch ones over the reduced positions of the shape: positions [0, rank) take the input's
  // sizes, then the (non-negative) axes take 1, the later writes winning.
  auto rank = ops::Size(scope, input_shape);
  auto flat_axes = ops::Reshape(scope, ops::Cast(scope, axes, DT_INT32), {-1});
  auto positive_axes = ops::FloorMod(scope, ops::Add(scope, flat_axes, rank), rank);
  auto positions = ops::Range(scope, 0, rank, 1);
  auto ones = ops::Fill(scope, ops::Shape(scope, positive_axes), 1);
  return ops::DynamicStitch(scope, {positions, positive_axes},
                            {ops::Cast(scope, input_shape, DT_INT32), ones});
}

}  // namespace gradients
}  // namespace sluice
