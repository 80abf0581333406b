// Gradient functions of the elementwise math ops, their reductions, the matrix products, the
// complex-number ops and the segment reductions. Each computes the derivative TensorFlow's
// gradient of the op defines; for complex values, TensorFlow's convention: the gradient of a
// real loss L with respect to z is dL/d(re z) + i dL/d(im z), so that derivatives enter
// conjugated.
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

// dx = dy * conj(f'(x)): for complex x, the gradient TensorFlow defines is the conjugate
// derivative's product with dy.
#define SLUICE_CHAIN_GRAD(Name, derivative) \
  SLUICE_UNARY_GRAD(Name, ops::Mul(scope, dy, ConjugateIfComplex(scope, derivative)))

SLUICE_UNARY_GRAD(Abs, ops::Mul(scope, dy, ops::Sign(scope, x)));
SLUICE_UNARY_GRAD(Neg, ops::Neg(scope, dy));
SLUICE_UNARY_GRAD(Reciprocal, ops::internal::ReciprocalGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Inv, ops::internal::ReciprocalGrad(scope, y, dy));
SLUICE_CHAIN_GRAD(Square, ops::Mul(scope, ScalarOf(scope, 2, t), x));
SLUICE_UNARY_GRAD(Sqrt, ops::internal::SqrtGrad(scope, y, dy));
SLUICE_UNARY_GRAD(Rsqrt, ops::internal::RsqrtGrad(scope, y, dy));
SLUICE_CHAIN_GRAD(Exp, y);
SLUICE_CHAIN_GRAD(Expm1, ops::Exp(scope, x));
SLUICE_CHAIN_GRAD(Log, ops::Reciprocal(scope, x));
SLUICE_CHAIN_GRAD(Log1p, ops::Reciprocal(scope, ops::Add(scope, ScalarOf(scope, 1, t), x)));
SLUICE_CHAIN_GRAD(Sinh, ops::Cosh(scope, x));
SLUICE_CHAIN_GRAD(Cosh, ops::Sinh(scope, x));
SLUICE_UNARY_GRAD(Tanh, ops::internal::TanhGrad(scope, ConjugateIfComplex(scope, y), dy));
SLUICE_CHAIN_GRAD(Asinh, ops::Reciprocal(scope, ops::Cosh(scope, y)));
SLUICE_CHAIN_GRAD(Acosh, ops::Reciprocal(scope, ops::Sinh(scope, y)));
SLUICE_CHAIN_GRAD(Atanh, ops::Reciprocal(scope, ops::Sub(scope, ScalarOf(scope, 1, t),
                                                         ops::Square(scope, x))));
SLUICE_UNARY_GRAD(Sigmoid, ops::internal::SigmoidGrad(scope, ConjugateIfComplex(scope, y), dy));
SLUICE_CHAIN_GRAD(Sin, ops::Cos(scope, x));
SLUICE_CHAIN_GRAD(Cos, ops::Neg(scope, ops::Sin(scope, x)));
SLUICE_CHAIN_GRAD(Tan, ops::Square(scope, ops::Reciprocal(scope, ops::Cos(scope, x))));
SLUICE_CHAIN_GRAD(Asin,
                  ops::Rsqrt(scope, ops::Sub(scope, ScalarOf(scope, 1, t), ops::Square(scope, x))));
SLUICE_CHAIN_GRAD(Acos, ops::Neg(scope, ops::Rsqrt(scope, ops::Sub(scope, ScalarOf(scope, 1, t),
                                                                   ops::Square(scope, x)))));
SLUICE_CHAIN_GRAD(Atan, ops::Reciprocal(scope, ops::Add(scope, ScalarOf(scope, 1, t),
                                                        ops::Square(scope, x))));
// d/dx erf(x) = 2/sqrt(pi) * exp(-x^2).
SLUICE_CHAIN_GRAD(Erf, ops::Mul(scope, ScalarOf(scope, 1.1283791670955126, t),
                                ops::Exp(scope, ops::Neg(scope, ops::Square(scope, x)))));
// d/dx erfinv(x) = sqrt(pi)/2 * exp(erfinv(x)^2).
SLUICE_CHAIN_GRAD(Erfinv, ops::Mul(scope, ScalarOf(scope, 0.88622692545275801, t),
                                   ops::Exp(scope, ops::Square(scope, y))));
// d/dx ndtri(x) = sqrt(2 pi) * exp(ndtri(x)^2 / 2).
SLUICE_CHAIN_GRAD(Ndtri, ops::Mul(scope, ScalarOf(scope, 2.5066282746310002, t),
                                  ops::Exp(scope, ops::Mul(scope, ScalarOf(scope, 0.5, t),
                                                           ops::Square(scope, y)))));
SLUICE_CHAIN_GRAD(Lgamma, ops::Digamma(scope, x));
SLUICE_UNARY_GRAD(Sign, ops::ZerosLike(scope, x));
SLUICE_UNARY_GRAD(Identity, ops::Identity(scope, dy));
SLUICE_UNARY_GRAD(EnsureShape, ops::Identity(scope, dy));
SLUICE_UNARY_GRAD(RefIdentity, ops::Identity(scope, dy));
// A resource read passes its gradient back to the handle, as TensorFlow's C++ gradient does,
// so that a client differentiating with respect to the read value gets it.
SLUICE_UNARY_GRAD(ReadVariableOp, ops::Identity(scope, dy));

#undef SLUICE_CHAIN_GRAD
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
REGISTER_NO_GRADIENT_OP("ApproximateEqual");
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

#define SLUICE_BINARY_GRAD(Name, gx_expr, gy_expr)                                              \
  absl::Status Name##Grad(const Scope& scope, const Operation& op, const GradList& grads,       \
                          GradList* out) {                                                      \
    [[maybe_unused]] const Output x = op.input(0);                                              \
    [[maybe_unused]] const Output y = op.input(1);                                              \
    [[maybe_unused]] const Output z = op.output(0);                                             \
    [[maybe_unused]] const Output dz = grads[0];                                                \
    [[maybe_unused]] const DataType t = x.type();                                               \
    [[maybe_unused]] auto conj = [&](const Output& o) { return ConjugateIfComplex(scope, o); }; \
    return BroadcastReducedGrads(scope, x, y, gx_expr, gy_expr, out);                           \
  }                                                                                             \
  REGISTER_GRADIENT_OP(#Name, Name##Grad)

SLUICE_BINARY_GRAD(Add, dz, dz);
SLUICE_BINARY_GRAD(AddV2, dz, dz);
SLUICE_BINARY_GRAD(Sub, dz, ops::Neg(scope, dz));
// Complex operands enter conjugated, as in TensorFlow's gradients.
SLUICE_BINARY_GRAD(Mul, ops::Mul(scope, dz, conj(y)), ops::Mul(scope, conj(x), dz));
SLUICE_BINARY_GRAD(Div, ops::Div(scope, dz, conj(y)),
                   ops::Mul(scope, dz,
                            ops::Div(scope, ops::Div(scope, ops::Neg(scope, conj(x)), conj(y)),
                                     conj(y))));
SLUICE_BINARY_GRAD(
    RealDiv, ops::RealDiv(scope, dz, conj(y)),
    ops::Mul(scope, dz,
             ops::RealDiv(scope, ops::RealDiv(scope, ops::Neg(scope, conj(x)), conj(y)), conj(y))));
SLUICE_BINARY_GRAD(DivNoNan, ops::DivNoNan(scope, dz, conj(y)),
                   ops::Mul(scope, dz,
                            ops::DivNoNan(scope,
                                          ops::DivNoNan(scope, ops::Neg(scope, conj(x)), conj(y)),
                                          conj(y))));
SLUICE_BINARY_GRAD(SquaredDifference,
                   ops::Mul(scope, ops::Mul(scope, ScalarOf(scope, 2, t), dz),
                            conj(ops::Sub(scope, x, y))),
                   ops::Neg(scope, ops::Mul(scope, ops::Mul(scope, ScalarOf(scope, 2, t), dz),
                                            conj(ops::Sub(scope, x, y)))));

// d/dx x^y = y x^(y-1); d/dy x^y = x^y log(x), taken as 0 where x <= 0 (x == 0 for complex
// x, whose logarithm is defined elsewhere).
absl::Status PowGrad(const Scope& scope, const Operation& op, const GradList& grads,
                     GradList* out) {
  const Output x = ConjugateIfComplex(scope, op.input(0));
  const Output y = ConjugateIfComplex(scope, op.input(1));
  const Output z = ConjugateIfComplex(scope, op.output(0));
  const Output dz = grads[0];
  const DataType t = x.type();
  auto zeros = ops::ZerosLike(scope, x);
  const bool complex = t == DT_COMPLEX64 || t == DT_COMPLEX128;
  Output has_log =
      complex ? Output(ops::NotEqual(scope, x, zeros)) : Output(ops::Greater(scope, x, zeros));
  auto log_x = ops::Where3(scope, has_log, ops::Log(scope, x), zeros);
  auto gx = ops::Mul(
      scope, dz, ops::Mul(scope, y, ops::Pow(scope, x, ops::Sub(scope, y, ScalarOf(scope, 1, t)))));
  auto gy = ops::Mul(scope, dz, ops::Mul(scope, z, log_x));
  return BroadcastReducedGrads(scope, op.input(0), op.input(1), gx, gy, out);
}
REGISTER_GRADIENT_OP("Pow", PowGrad);

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
  // Complex operands conjugated: the transposes below are plain ones.
  const Output a = ConjugateIfComplex(scope, op.input(0));
  const Output b = ConjugateIfComplex(scope, op.input(1));
  const Output dy = grads[0];
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

// BatchMatMul (V1: equal batch shapes), V2 and V3 (broadcast batch dimensions, summed back).
// The batch ops' adjoints conjugate complex operands, so the products below are right for them
// as they stand. V3's gradients are V3 products into dz's type, so that an 8-bit integer
// operand times a bfloat16 gradient stays a product TensorFlow has a kernel for.
absl::Status BatchMatMulGrad(const Scope& scope, const Operation& op, const GradList& grads,
                             GradList* out) {
  bool adj_x = false, adj_y = false;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "adj_x", &adj_x));
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "adj_y", &adj_y));
  const Output x = op.input(0), y = op.input(1), dz = grads[0];
  const bool v3 = op.node()->type_string() == "BatchMatMulV3";
  auto bmm = [&](const Output& l, const Output& r, bool al, bool ar) -> Output {
    if (v3) {
      return ops::BatchMatMulV3(scope, l, r, dz.type(), ops::BatchMatMulV3::AdjX(al).AdjY(ar));
    }
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
REGISTER_GRADIENT_OP("BatchMatMulV3", BatchMatMulGrad);

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

// ---- Complex numbers: gradients of real functions of complex values are complex, with the
// real and imaginary parts as the partial derivatives along each ------------------------

absl::Status RealGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  const DataType part = op.output_type(0);
  out->push_back(ops::Complex(scope, grads[0], ScalarOf(scope, 0, part),
                              ops::Complex::Tout(op.input_type(0))));
  return scope.status();
}
REGISTER_GRADIENT_OP("Real", RealGrad);

absl::Status ImagGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  const DataType part = op.output_type(0);
  out->push_back(ops::Complex(scope, ScalarOf(scope, 0, part), grads[0],
                              ops::Complex::Tout(op.input_type(0))));
  return scope.status();
}
REGISTER_GRADIENT_OP("Imag", ImagGrad);

// Complex(re, im), with broadcasting: each part takes its part of dz.
absl::Status ComplexGrad(const Scope& scope, const Operation& op, const GradList& grads,
                         GradList* out) {
  const DataType part = op.input_type(0);
  return BroadcastReducedGrads(scope, op.input(0), op.input(1),
                               ops::Real(scope, grads[0], ops::Real::Tout(part)),
                               ops::Imag(scope, grads[0], ops::Imag::Tout(part)), out);
}
REGISTER_GRADIENT_OP("Complex", ComplexGrad);

// Angle(z) = atan2(im, re): dz = -dy / (im + i re).
absl::Status AngleGrad(const Scope& scope, const Operation& op, const GradList& grads,
                       GradList* out) {
  const Output z = op.input(0);
  const DataType part = op.output_type(0), whole = op.input_type(0);
  auto re = ops::Real(scope, z, ops::Real::Tout(part));
  auto im = ops::Imag(scope, z, ops::Imag::Tout(part));
  auto flipped_inverse =
      ops::Reciprocal(scope, ops::Complex(scope, im, re, ops::Complex::Tout(whole)));
  auto dy = ops::Complex(scope, grads[0], ScalarOf(scope, 0, part), ops::Complex::Tout(whole));
  out->push_back(ops::Neg(scope, ops::Mul(scope, dy, flipped_inverse)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Angle", AngleGrad);

absl::Status ConjGrad(const Scope& scope, const Operation&, const GradList& grads, GradList* out) {
  out->push_back(ops::Conj(scope, grads[0]));
  return scope.status();
}
REGISTER_GRADIENT_OP("Conj", ConjGrad);

// ClipByValue(x, lo, hi), lo and hi broadcast to x: where x was clipped, the bound it was
// clipped to takes the gradient; elsewhere x does.
absl::Status ClipByValueGrad(const Scope& scope, const Operation& op, const GradList& grads,
                             GradList* out) {
  const Output x = op.input(0), lo = op.input(1), hi = op.input(2), dz = grads[0];
  auto zeros = ops::ZerosLike(scope, dz);
  auto below = ops::Less(scope, x, lo);
  auto above = ops::Greater(scope, x, hi);
  auto clipped = ops::LogicalOr(scope, below, above);
  out->push_back(ops::SelectV2(scope, clipped, zeros, dz));
  out->push_back(ReduceToShapeOf(scope, ops::SelectV2(scope, below, dz, zeros), lo, x));
  out->push_back(ReduceToShapeOf(scope, ops::SelectV2(scope, above, dz, zeros), hi, x));
  return scope.status();
}
REGISTER_GRADIENT_OP("ClipByValue", ClipByValueGrad);

// ---- Products ---------------------------------------------------------------------------

// Prod: each element's gradient is the product of the other elements of its group, taken as
// the product of the exclusive cumulative products from either side (no division, so that
// zeros are exact). The reduced axes are moved to the front and flattened into one.
absl::Status ProdGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  const Output x = op.input(0);
  auto axes = ops::Reshape(scope, ops::Cast(scope, op.input(1), DT_INT32), {-1});
  auto input_shape = ops::Shape(scope, x);
  auto kept = ReducedShapeKeepingDims(scope, input_shape, axes);
  auto spread = ops::BroadcastTo(scope, ops::Reshape(scope, grads[0], kept), input_shape);

  auto rank = ops::Rank(scope, x);
  auto reduced = ops::FloorMod(scope, ops::Add(scope, axes, rank), rank);
  auto others = ops::SetDiff1D(scope, ops::Range(scope, 0, rank, 1), reduced).out;
  auto perm = ops::Concat(scope, {reduced, others}, 0);
  auto reduced_size = ops::Prod(scope, ops::Gather(scope, input_shape, reduced), 0);
  auto others_size = ops::Prod(scope, ops::Gather(scope, input_shape, others), 0);
  auto permuted = ops::Transpose(scope, x, perm);
  auto groups = ops::Reshape(scope, permuted, ops::Stack(scope, {reduced_size, others_size}));
  auto before = ops::Cumprod(scope, groups, 0, ops::Cumprod::Exclusive(true));
  auto after = ops::Cumprod(scope, groups, 0, ops::Cumprod::Exclusive(true).Reverse(true));
  auto others_product =
      ops::Reshape(scope, ops::Mul(scope, before, after), ops::Shape(scope, permuted));
  auto unpermuted = ops::Transpose(scope, others_product, ops::InvertPermutation(scope, perm));
  out->push_back(ops::Reshape(scope, ops::Mul(scope, spread, unpermuted), input_shape));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Prod", ProdGrad);

// ---- Segment reductions -----------------------------------------------------------------

// SegmentSum(data, ids): each row of data takes the gradient of its segment.
absl::Status SegmentSumGrad(const Scope& scope, const Operation& op, const GradList& grads,
                            GradList* out) {
  out->push_back(ops::Gather(scope, grads[0], op.input(1)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("SegmentSum", SegmentSumGrad);

// The unsorted segment ops drop the rows whose id is negative. `ids` shaped like data's
// leading dimensions; `rows` has one row per segment.
struct SegmentRows {
  Output clipped_ids;  // negative ids read row 0, masked out afterwards
  Output kept;         // ids >= 0, shaped to broadcast against the gathered rows
};

SegmentRows SegmentRowsOf(const Scope& scope, const Output& rows, const Output& ids) {
  SegmentRows s;
  s.clipped_ids = ops::Maximum(scope, ids, ops::ZerosLike(scope, ids));
  auto kept = ops::GreaterEqual(scope, ids, ops::ZerosLike(scope, ids));
  auto ones =
      ops::Fill(scope, ops::ExpandDims(scope, ops::Sub(scope, ops::Rank(scope, rows), 1), 0), 1);
  s.kept = ops::Reshape(scope, kept, ops::Concat(scope, {ops::Shape(scope, kept), ones}, 0));
  return s;
}

// rows[ids], zero where the id is negative.
Output GatherKeptRows(const Scope& scope, const Output& rows, const SegmentRows& s) {
  auto gathered = ops::Gather(scope, rows, s.clipped_ids);
  return ops::SelectV2(scope, s.kept, gathered, ops::ZerosLike(scope, gathered));
}

absl::Status UnsortedSegmentSumGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                    GradList* out) {
  out->push_back(GatherKeptRows(scope, grads[0], SegmentRowsOf(scope, grads[0], op.input(1))));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("UnsortedSegmentSum", UnsortedSegmentSumGrad);

// UnsortedSegmentMax/Min: the elements equal to their segment's result share its gradient.
absl::Status UnsortedSegmentMinOrMaxGrad(const Scope& scope, const Operation& op,
                                         const GradList& grads, GradList* out) {
  const Output data = op.input(0), ids = op.input(1), result = op.output(0), dy = grads[0];
  const SegmentRows s = SegmentRowsOf(scope, result, ids);
  auto selected =
      ops::LogicalAnd(scope, ops::Equal(scope, data, GatherKeptRows(scope, result, s)), s.kept);
  auto count =
      ops::UnsortedSegmentSum(scope, ops::Cast(scope, selected, dy.type()), ids, op.input(2));
  auto shared = GatherKeptRows(scope, ops::Div(scope, dy, count), s);
  out->push_back(ops::SelectV2(scope, selected, shared, ops::ZerosLike(scope, shared)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("UnsortedSegmentMax", UnsortedSegmentMinOrMaxGrad);
REGISTER_GRADIENT_OP("UnsortedSegmentMin", UnsortedSegmentMinOrMaxGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
