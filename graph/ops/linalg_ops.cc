// Dense linear algebra on the innermost [M, N] matrices of a tensor, the outer dims being a
// batch: inverses, determinants, Cholesky, linear and triangular solves, and the QR,
// eigen and singular value decompositions that tf.linalg emits.
//
// The shape functions are TensorFlow's: square inputs merge their last two dims, solvers
// merge the rows of matrix and rhs, and MatrixTriangularSolve broadcasts the batch dims
// (the other solvers require them equal).
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// `input` with rank >= 2 whose last two dims are merged into one: [..., d, d].
absl::Status MakeBatchSquareMatrix(InferenceContext* c, ShapeHandle input, ShapeHandle* out) {
  ShapeHandle s;
  RETURN_IF_ERROR(c->WithRankAtLeast(input, 2, &s));
  DimensionHandle d;
  RETURN_IF_ERROR(c->Merge(c->Dim(s, -2), c->Dim(s, -1), &d));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Subshape(s, 0, -2, &batch));
  return c->Concatenate(batch, c->Matrix(d, d), out);
}

absl::Status BatchUnchangedSquareShapeFn(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(MakeBatchSquareMatrix(c, c->input(0), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// One output per listed index, each the batch dims of a square input (a scalar per matrix).
absl::Status BatchScalarsShapeFn(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->Merge(c->Dim(input, -1), c->Dim(input, -2), &unused));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Subshape(input, 0, -2, &batch));
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, batch);
  return absl::OkStatus();
}

// matrix [..., M, N] (square: N == M), rhs [..., M, K] with equal batch dims -> [..., N, K].
absl::Status MatrixSolveShapeFn(InferenceContext* c, bool square) {
  ShapeHandle lhs;
  if (square) {
    RETURN_IF_ERROR(MakeBatchSquareMatrix(c, c->input(0), &lhs));
  } else {
    RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &lhs));
  }
  ShapeHandle rhs;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 2, &rhs));
  ShapeHandle lhs_batch;
  ShapeHandle rhs_batch;
  RETURN_IF_ERROR(c->Subshape(lhs, 0, -2, &lhs_batch));
  RETURN_IF_ERROR(c->Subshape(rhs, 0, -2, &rhs_batch));
  RETURN_IF_ERROR(c->Merge(lhs_batch, rhs_batch, &lhs_batch));
  DimensionHandle m;
  RETURN_IF_ERROR(c->Merge(c->Dim(lhs, -2), c->Dim(rhs, -2), &m));
  DimensionHandle n = c->Dim(lhs, -1);
  if (square) {
    RETURN_IF_ERROR(c->Merge(m, n, &n));
  }
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(lhs_batch, c->Matrix(n, c->Dim(rhs, -1)), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// matrix [..., M, M], rhs [..., M, N], batch dims broadcast -> [..., M, N].
absl::Status MatrixTriangularSolveShapeFn(InferenceContext* c) {
  ShapeHandle lhs;
  RETURN_IF_ERROR(MakeBatchSquareMatrix(c, c->input(0), &lhs));
  ShapeHandle rhs;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 2, &rhs));
  ShapeHandle lhs_batch;
  ShapeHandle rhs_batch;
  RETURN_IF_ERROR(c->Subshape(lhs, 0, -2, &lhs_batch));
  RETURN_IF_ERROR(c->Subshape(rhs, 0, -2, &rhs_batch));
  ShapeHandle batch;
  RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
      c, lhs_batch, rhs_batch, /*incompatible_shape_error=*/true, &batch));
  DimensionHandle m;
  RETURN_IF_ERROR(c->Merge(c->Dim(lhs, -1), c->Dim(rhs, -2), &m));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(m, c->Dim(rhs, -1)), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("MatrixInverse")
    .Input("input: T")
    .Output("output: T")
    .Attr("adjoint: bool = False")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(BatchUnchangedSquareShapeFn);

REGISTER_OP("MatrixDeterminant")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {half, float, double, complex64, complex128}")
    .SetShapeFn(BatchScalarsShapeFn);

REGISTER_OP("LogMatrixDeterminant")
    .Input("input: T")
    .Output("sign: T")
    .Output("log_abs_determinant: T")
    .Attr("T: {half, float, double, complex64, complex128}")
    .SetShapeFn(BatchScalarsShapeFn);

REGISTER_OP("Cholesky")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(BatchUnchangedSquareShapeFn);

REGISTER_OP("MatrixSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("adjoint: bool = False")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn([](InferenceContext* c) { return MatrixSolveShapeFn(c, /*square=*/true); });

REGISTER_OP("MatrixTriangularSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("lower: bool = True")
    .Attr("adjoint: bool = False")
    .Attr("T: {bfloat16, double, float, half, complex64, complex128}")
    .SetShapeFn(MatrixTriangularSolveShapeFn);

}  // namespace sluice
