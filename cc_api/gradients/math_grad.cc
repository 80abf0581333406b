// Gradient functions of the elementwise math ops, their reductions and the matrix products.
// Each computes the derivative TensorFlow's gradient of the op defines, on real types.
#include <vector>

#include "cc_api/const_op.h"
#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/gradients/grad_helpers.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

// ---- Unary ops: dx = dy * f'(x), often through the forward op's output y ----------------

#define SLUICE_UNARY_GRAD(Name, expr)                                                     \
  absl::Status Name##Grad(const Scope& scope, const Operation& op, const GradList& grads, \
                          GradList* out) {                                                \
    [[maybe_unused]] const Output x = op.input(0);                                        \
    [[maybe_unused]] const Output y = op.output(0);                                       \
    [[maybe_unused]] const Output dy = grads[0];                                          \
    [[maybe_unused]] const DataType t = x.type();                                         \
    out->push_back(expr);                                                                 \
    return scope.status();                                                                \
  }                                                                                       \
  REGISTER_GRADIENT_OP(#Name, Name##Grad)

SLUICE_UNARY_GRAD(Abs, ops::Mul(scope, dy, ops::Sign(scope, x)));
SLUICE_UNARY_GRAD(Neg, ops::Neg(scope, dy));
SLUICE_UNARY_GRAD(Reciprocal, ops::internal::ReciprocalGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Inv, ops::internal::ReciprocalGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Square, ops::Mul(scope, dy, ops::Mul(scope, ScalarOf(scope, 2, t), x)));
SLUICE_UNARY_GRAD(Sqrt, ops::internal::SqrtGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Rsqrt, ops::internal::RsqrtGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Exp, ops::Mul(scope, dy, y));
SLUICE_UNARY_GRAD(Expm1, ops::Mul(scope, dy, ops::Exp(scope, x)));
SLUICE_UNARY_GRAD(Log, ops::Mul(scope, dy, ops::Reciprocal(scope, x)));
SLUICE_UNARY_GRAD(Log1p,
                  ops::Mul(scope, dy,
                           ops::Reciprocal(scope, ops::Add(scope, ScalarOf(scope, 1, t), x))));
SLUICE_UNARY_GRAD(Sinh, ops::Mul(scope, dy, ops::Cosh(scope, x)));
SLUICE_UNARY_GRAD(Cosh, ops::Mul(scope, dy, ops::Sinh(scope, x)));
SLUICE_UNARY_GRAD(Tanh, ops::internal::TanhGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Asinh, ops::Mul(scope, dy, ops::Reciprocal(scope, ops::Cosh(scope, y))));
SLUICE_UNARY_GRAD(Acosh, ops::Mul(scope, dy, ops::Reciprocal(scope, ops::Sinh(scope, y))));
SLUICE_UNARY_GRAD(Atanh, ops::Mul(scope, dy,
                                  ops::Reciprocal(scope, ops::Sub(scope, ScalarOf(scope, 1, t),
                                                                  ops::Square(scope, x)))));
SLUICE_UNARY_GRAD(Sigmoid, ops::internal::SigmoidGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Sin, ops::Mul(scope, dy, ops::Cos(scope, x)));
SLUICE_UNARY_GRAD(Cos, ops::Mul(scope, dy, ops::Neg(scope, ops::Sin(scope, x))));
SLUICE_UNARY_GRAD(Tan, ops::Mul(scope, dy,
                                ops::Square(scope, ops::Reciprocal(scope, ops::Cos(scope, x)))));
SLUICE_UNARY_GRAD(Asin, ops::Mul(scope, dy,
                                 ops::Rsqrt(scope, ops::Sub(scope, ScalarOf(scope, 1, t),
                                                            ops::Square(scope, x)))));
SLUICE_UNARY_GRAD(Acos,
                  ops::Neg(scope, ops::Mul(scope, dy,
                                           ops::Rsqrt(scope, ops::Sub(scope, ScalarOf(scope, 1, t),
                                                                      ops::Square(scope, x))))));
SLUICE_UNARY_GRAD(Atan, ops::Mul(scope, dy,
                                 ops::Reciprocal(scope, ops::Add(scope, ScalarOf(scope, 1, t),
                                                                 ops::Square(scope, x)))));
// d/dx erf(x) = 2/sqrt(pi) * exp(-x^2).
SLUICE_UNARY_GRAD(Erf, ops::Mul(scope, dy,
                                ops::Mul(scope, ScalarOf(scope, 1.1283791670955126, t),
                                         ops::Exp(scope, ops::Neg(scope, ops::Square(scope, x))))));
SLUICE_UNARY_GRAD(Sign, ops::ZerosLike(scope, x));
SLUICE_UNARY_GRAD(Identity, ops::Identity(scope, dy));
SLUICE_UNARY_GRAD(EnsureShape, ops::Identity(scope, dy));
SLUICE_UNARY_GRAD(RefIdentity, ops::Identity(scope, dy));
// A resource read passes its gradient back to the handle, as TensorFlow's C++ gradient does,
// so that a client differentiating with respect to the read value gets it.
SLUICE_UNARY_GRAD(ReadVariableOp, ops::Identity(scope, dy));

#undef SLUICE_UNARY_GRAD

// The ops whose outputs are piecewise constant or not differentiable.
REGISTER_NO_GRADIENT_OP("Floor");
REGISTER_NO_GRADIENT_OP("Ceil");
REGISTER_NO_GRADIENT_OP("Round");
REGISTER_NO_GRADIENT_OP("Rint");
REGISTER_NO_GRADIENT_OP("FloorDiv");
REGISTER_NO_GRADIENT_OP("TruncateDiv");
REGISTER_NO_GRADIENT_OP("Equal");
REGISTER_NO_GRADIENT_OP("NotEqual");
REGISTER_NO_GRADIENT_OP("Less");
REGISTER_NO_GRADIENT_OP("LessEqual");
REGISTER_NO_GRADIENT_OP("Greater");
REGISTER_NO_GRADIENT_OP("GreaterEqual");
REGISTER_NO_GRADIENT_OP("LogicalAnd");
REGISTER_NO_GRADIENT_OP("LogicalOr");
REGISTER_NO_GRADIENT_OP("LogicalNot");
REGISTER_NO_GRADIENT_OP("IsNan");
REGISTER_NO_GRADIENT_OP("IsInf");
REGISTER_NO_GRADIENT_OP("IsFinite");
REGISTER_NO_GRADIENT_OP("ArgMax");
REGISTER_NO_GRADIENT_OP("ArgMin");
REGISTER_NO_GRADIENT_OP("Range");

// Cast passes the gradient back in the source type, between floating types only.
bool IsFloating(DataType t) {
  return t == DT_FLOAT || t == DT_DOUBLE || t == DT_HALF || t == DT_BFLOAT16 || t == DT_COMPLEX64 ||
         t == DT_COMPLEX128;
}

absl::Status CastGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  const DataType src = op.input_type(0);
  if (IsFloating(src) && IsFloating(op.output_type(0))) {
    out->push_back(ops::Cast(scope, grads[0], src));
  } else {
    out->push_back(NoGradient());
  }
  return scope.status();
}
REGISTER_GRADIENT_OP("Cast", CastGrad);

// ---- Binary elementwise ops, with broadcasting -----------------------------------------

#define SLUICE_BINARY_GRAD(Name, gx_expr, gy_expr)                                        \
  absl::Status Name##Grad(const Scope& scope, const Operation& op, const GradList& grads, \
                          GradList* out) {                                                \
    [[maybe_unused]] const Output x = op.input(0);                                        \
    [[maybe_unused]] const Output y = op.input(1);                                        \
    [[maybe_unused]] const Output z = op.output(0);                                       \
    [[maybe_unused]] const Output dz = grads[0];                                          \
    [[maybe_unused]] const DataType t = x.type();                                         \
    return BroadcastReducedGrads(scope, x, y, gx_expr, gy_expr, out);                     \
  }                                                                                       \
  REGISTER_GRADIENT_OP(#Name, Name##Grad)

SLUICE_BINARY_GRAD(Add, dz, dz);
SLUICE_BINARY_GRAD(AddV2, dz, dz);
SLUICE_BINARY_GRAD(Sub, dz, ops::Neg(scope, dz));
SLUICE_BINARY_GRAD(Mul, ops::Mul(scope, dz, y), ops::Mul(scope, x, dz));
SLUICE_BINARY_GRAD(Div, ops::Div(scope, dz, y),
                   ops::Mul(scope, dz, ops::Div(scope, ops::Div(scope, ops::Neg(scope, x), y), y)));
SLUICE_BINARY_GRAD(RealDiv, ops::RealDiv(scope, dz, y),
                   ops::Mul(scope, dz,
                            ops::RealDiv(scope, ops::RealDiv(scope, ops::Neg(scope, x), y), y)));
SLUICE_BINARY_GRAD(DivNoNan, ops::DivNoNan(scope, dz, y),
                   ops::Mul(scope, dz,
                            ops::DivNoNan(scope, ops::DivNoNan(scope, ops::Neg(scope, x), y), y)));
SLUICE_BINARY_GRAD(SquaredDifference,
                   ops::Mul(scope, ops::Mul(scope, ScalarOf(scope, 2, t), dz),
                            ops::Sub(scope, x, y)),
                   ops::Neg(scope, ops::Mul(scope, ops::Mul(scope, ScalarOf(scope, 2, t), dz),
                                            ops::Sub(scope, x, y))));
// d/dx x^y = y x^(y-1); d/dy x^y = x^y log(x), taken as 0 where x <= 0.
SLUICE_BINARY_GRAD(
    Pow,
    ops::Mul(scope, dz,
             ops::Mul(scope, y, ops::Pow(scope, x, ops::Sub(scope, y, ScalarOf(scope, 1, t))))),
    ops::Mul(scope, dz,
             ops::Mul(scope, z,
                      ops::Where3(scope, ops::Greater(scope, x, ops::ZerosLike(scope, x)),
                                  ops::Log(scope, x), ops::ZerosLike(scope, x)))));
// The larger (smaller) operand takes the gradient; x wins ties, as in TensorFlow.
SLUICE_BINARY_GRAD(
    Maximum, ops::SelectV2(scope, ops::GreaterEqual(scope, x, y), dz, ops::ZerosLike(scope, dz)),
    ops::SelectV2(scope, ops::GreaterEqual(scope, x, y), ops::ZerosLike(scope, dz), dz));
SLUICE_BINARY_GRAD(Minimum,
                   ops::SelectV2(scope, ops::LessEqual(scope, x, y), dz, ops::ZerosLike(scope, dz)),
                   ops::SelectV2(scope, ops::LessEqual(scope, x, y), ops::ZerosLike(scope, dz),
                                 dz));
// Atan2(y, x): the op's first input is y.
SLUICE_BINARY_GRAD(
    Atan2,
    ops::Mul(scope, y,
             ops::RealDiv(scope, dz,
                          ops::Add(scope, ops::Square(scope, x), ops::Square(scope, y)))),
    ops::Mul(scope, ops::Neg(scope, x),
             ops::RealDiv(scope, dz,
                          ops::Add(scope, ops::Square(scope, x), ops::Square(scope, y)))));

#undef SLUICE_BINARY_GRAD

absl::Status AddNGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  out->assign(op.num_inputs(), grads[0]);
  return scope.status();
}
REGISTER_GRADIENT_OP("AddN", AddNGrad);

// ---- Reductions ---------------------------------------------------------------------

// dy of a reduction, broadcast back over the reduced dimensions of x.
Output BroadcastOverReduced(const Scope& scope, const Output& x, const Output& axes,
                            const Output& dy) {
  auto input_shape = ops::Shape(scope, x);
  auto kept = ReducedShapeKeepingDims(scope, input_shape, axes);
  return ops::BroadcastTo(scope, ops::Reshape(scope, dy, kept), input_shape);
}

absl::Status SumGrad(const Scope& scope, const Operation& op, const GradList& grads,
                     GradList* out) {
  out->push_back(BroadcastOverReduced(scope, op.input(0), op.input(1), grads[0]));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Sum", SumGrad);

absl::Status MeanGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  const Output x = op.input(0);
  auto spread = BroadcastOverReduced(scope, x, op.input(1), grads[0]);
  // The number of elements each output averaged: |x| / |y| (1 for empty outputs).
  auto in_size = ops::Prod(scope, ops::Shape(scope, x), 0);
  auto out_size = ops::Maximum(scope, ops::Prod(scope, ops::Shape(scope, op.output(0)), 0), 1);
  auto count = ops::Cast(scope, ops::FloorDiv(scope, in_size, out_size), x.type());
  out->push_back(ops::RealDiv(scope, spread, count));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Mean", MeanGrad);

// Max and Min: the gradient is shared equally between the elements equal to the result.
absl::Status MinOrMaxGrad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  const Output x = op.input(0);
  auto input_shape = ops::Shape(scope, x);
  auto kept = ReducedShapeKeepingDims(scope, input_shape, op.input(1));
  auto y = ops::Reshape(scope, op.output(0), kept);
  auto dy = ops::Reshape(scope, grads[0], kept);
  auto selected = ops::Cast(scope, ops::Equal(scope, y, x), x.type());
  auto count = ops::Reshape(scope, ops::Sum(scope, selected, op.input(1)), kept);
  out->push_back(ops::Mul(scope, ops::Div(scope, selected, count), dy));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Max", MinOrMaxGrad);
REGISTER_GRADIENT_OP("Min", MinOrMaxGrad);

// ---- Matrix products ----------------------------------------------------------------

// d(A B) for the four transpositions: each gradient is itself a product of dy with the other
// operand, transposed as needed, so that no explicit Transpose node is built.
absl::Status MatMulGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  bool ta = false, tb = false;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "transpose_a", &ta));
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "transpose_b", &tb));
  const Output a = op.input(0), b = op.input(1), dy = grads[0];
  auto mm = [&](const Output& l, const Output& r, bool tl, bool tr) {
    return ops::MatMul(scope, l, r, ops::MatMul::TransposeA(tl).TransposeB(tr));
  };
  if (!ta && !tb) {
    out->push_back(mm(dy, b, false, true));
    out->push_back(mm(a, dy, true, false));
  } else if (!ta && tb) {
    out->push_back(mm(dy, b, false, false));
    out->push_back(mm(dy, a, true, false));
  } else if (ta && !tb) {
    out->push_back(mm(b, dy, false, true));
    out->push_back(mm(a, dy, false, false));
  } else {
    out->push_back(mm(b, dy, true, true));
    out->push_back(mm(dy, a, true, true));
  }
  return scope.status();
}
REGISTER_GRADIENT_OP("MatMul", MatMulGrad);

// BatchMatMul (V1: equal batch shapes) and V2 (broadcast batch dimensions, summed back).
absl::Status BatchMatMulGrad(const Scope& scope, const Operation& op, const GradList& grads,
                             GradList* out) {
  bool adj_x = false, adj_y = false;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "adj_x", &adj_x));
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "adj_y", &adj_y));
  const Output x = op.input(0), y = op.input(1), dz = grads[0];
  auto bmm = [&](const Output& l, const Output& r, bool al, bool ar) {
    return ops::BatchMatMulV2(scope, l, r, ops::BatchMatMulV2::AdjX(al).AdjY(ar));
  };
  Output gx, gy;
  if (!adj_x && !adj_y) {
    gx = bmm(dz, y, false, true);
    gy = bmm(x, dz, true, false);
  } else if (!adj_x && adj_y) {
    gx = bmm(dz, y, false, false);
    gy = bmm(dz, x, true, false);
  } else if (adj_x && !adj_y) {
    gx = bmm(y, dz, false, true);
    gy = bmm(x, dz, false, false);
  } else {
    gx = bmm(y, dz, true, true);
    gy = bmm(dz, x, true, true);
  }
  if (op.node()->type_string() == "BatchMatMul") {
    out->push_back(gx);
    out->push_back(gy);
    return scope.status();
  }
  // Sum over the batch dimensions each operand was broadcast along.
  auto x_shape = ops::Shape(scope, x);
  auto y_shape = ops::Shape(scope, y);
  auto x_batch = ops::Slice(scope, x_shape, {0}, ops::Sub(scope, ops::Size(scope, x_shape), {2}));
  auto y_batch = ops::Slice(scope, y_shape, {0}, ops::Sub(scope, ops::Size(scope, y_shape), {2}));
  auto axes = ops::internal::BroadcastGradientArgs(scope, x_batch, y_batch);
  out->push_back(ops::Reshape(scope, ops::Sum(scope, gx, axes.r0), x_shape));
  out->push_back(ops::Reshape(scope, ops::Sum(scope, gy, axes.r1), y_shape));
  return scope.status();
}
REGISTER_GRADIENT_OP("BatchMatMul", BatchMatMulGrad);
REGISTER_GRADIENT_OP("BatchMatMulV2", BatchMatMulGrad);

absl::Status CumsumGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  bool exclusive = false, reverse = false;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "exclusive", &exclusive));
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "reverse", &reverse));
  out->push_back(ops::Cumsum(scope, grads[0], op.input(1),
                             ops::Cumsum::Exclusive(exclusive).Reverse(!reverse)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Cumsum", CumsumGrad);

// Select(c, t, e) with c as t's shape (or a vector over its first dimension), and SelectV2
// with broadcasting.
absl::Status SelectGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  const Output c = op.input(0), dz = grads[0];
  auto zeros = ops::ZerosLike(scope, dz);
  out->push_back(NoGradient());
  out->push_back(ops::Where3(scope, c, dz, zeros));
  out->push_back(ops::Where3(scope, c, zeros, dz));
  return scope.status();
}
REGISTER_GRADIENT_OP("Select", SelectGrad);

absl::Status SelectV2Grad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  const Output c = op.input(0), z = op.output(0), dz = grads[0];
  auto zeros = ops::ZerosLike(scope, dz);
  out->push_back(NoGradient());
  out->push_back(ReduceToShapeOf(scope, ops::SelectV2(scope, c, dz, zeros), op.input(1), z));
  out->push_back(ReduceToShapeOf(scope, ops::SelectV2(scope, c, zeros, dz), op.input(2), z));
  return scope.status();
}
REGISTER_GRADIENT_OP("SelectV2", SelectV2Grad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
