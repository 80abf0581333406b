// Dense linear algebra on the innermost [M, N] matrices of a tensor, the outer dims being a
// batch: inverses, determinants, Cholesky, linear and triangular solves, and the QR,
// eigen and singular value decompositions that tf.linalg emits.
//
// The shape functions are TensorFlow's: square inputs merge their last two dims, solvers
// merge the rows of matrix and rhs, and MatrixTriangularSolve broadcasts the batch dims
// (the other solvers require them equal).
#include <cstdint>

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

// input [..., M, N] -> q [..., M, M], r [..., M, N] with full_matrices, else q [..., M, P],
// r [..., P, N], P = min(M, N).
absl::Status QrShapeFn(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  const DimensionHandle m = c->Dim(input, -2);
  const DimensionHandle n = c->Dim(input, -1);
  DimensionHandle p;
  RETURN_IF_ERROR(c->Min(m, n, &p));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Subshape(input, 0, -2, &batch));
  bool full_matrices = false;
  RETURN_IF_ERROR(c->GetAttr("full_matrices", &full_matrices));
  ShapeHandle q;
  ShapeHandle r;
  RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(m, full_matrices ? m : p), &q));
  RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(full_matrices ? m : p, n), &r));
  c->set_output(0, q);
  c->set_output(1, r);
  return absl::OkStatus();
}

// input [..., N, N] -> e [..., N] and v [..., N, N], or v [0] without compute_v.
absl::Status SelfAdjointEigV2ShapeFn(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(MakeBatchSquareMatrix(c, c->input(0), &input));
  DimensionHandle n;
  RETURN_IF_ERROR(c->Merge(c->Dim(input, -2), c->Dim(input, -1), &n));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Subshape(input, 0, -2, &batch));
  ShapeHandle e;
  RETURN_IF_ERROR(c->Concatenate(batch, c->Vector(n), &e));
  c->set_output(0, e);
  bool compute_v = true;
  RETURN_IF_ERROR(c->GetAttr("compute_v", &compute_v));
  if (compute_v) {
    ShapeHandle v;
    RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(n, n), &v));
    c->set_output(1, v);
  } else {
    c->set_output(1, c->Vector(int64_t{0}));
  }
  return absl::OkStatus();
}

// input [..., M, N] -> s [..., P]; with compute_uv u [..., M, M or P] and v [..., N, N or P]
// (full_matrices or not), else u [0] and v [0]; P = min(M, N).
absl::Status SvdShapeFn(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  const DimensionHandle m = c->Dim(input, -2);
  const DimensionHandle n = c->Dim(input, -1);
  DimensionHandle p;
  RETURN_IF_ERROR(c->Min(m, n, &p));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Subshape(input, 0, -2, &batch));
  ShapeHandle s;
  RETURN_IF_ERROR(c->Concatenate(batch, c->Vector(p), &s));
  c->set_output(0, s);
  bool compute_uv = true;
  RETURN_IF_ERROR(c->GetAttr("compute_uv", &compute_uv));
  if (!compute_uv) {
    c->set_output(1, c->Vector(int64_t{0}));
    c->set_output(2, c->Vector(int64_t{0}));
    return absl::OkStatus();
  }
  bool full_matrices = false;
  RETURN_IF_ERROR(c->GetAttr("full_matrices", &full_matrices));
  ShapeHandle u;
  ShapeHandle v;
  RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(m, full_matrices ? m : p), &u));
  RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(n, full_matrices ? n : p), &v));
  c->set_output(1, u);
  c->set_output(2, v);
  return absl::OkStatus();
}

// input [..., N, N] -> lu [..., N, N], p [..., N].
absl::Status LuShapeFn(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  DimensionHandle n;
  RETURN_IF_ERROR(c->Merge(c->Dim(input, -2), c->Dim(input, -1), &n));
  ShapeHandle batch;
  RETURN_IF_ERROR(c->Subshape(input, 0, -2, &batch));
  ShapeHandle lu;
  ShapeHandle p;
  RETURN_IF_ERROR(c->Concatenate(batch, c->Matrix(n, n), &lu));
  RETURN_IF_ERROR(c->Concatenate(batch, c->Vector(n), &p));
  c->set_output(0, lu);
  c->set_output(1, p);
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

REGISTER_OP("MatrixSolveLs")
    .Input("matrix: T")
    .Input("rhs: T")
    .Input("l2_regularizer: double")
    .Output("output: T")
    .Attr("T: {double, float, half, complex64, complex128}")
    .Attr("fast: bool = True")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
      return MatrixSolveShapeFn(c, /*square=*/false);
    });

REGISTER_OP("Qr")
    .Input("input: T")
    .Output("q: T")
    .Output("r: T")
    .Attr("full_matrices: bool = False")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(QrShapeFn);

REGISTER_OP("SelfAdjointEigV2")
    .Input("input: T")
    .Output("e: T")
    .Output("v: T")
    .Attr("compute_v: bool = True")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SelfAdjointEigV2ShapeFn);

REGISTER_OP("Svd")
    .Input("input: T")
    .Output("s: T")
    .Output("u: T")
    .Output("v: T")
    .Attr("compute_uv: bool = True")
    .Attr("full_matrices: bool = False")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SvdShapeFn);

REGISTER_OP("Lu")
    .Input("input: T")
    .Output("lu: T")
    .Output("p: output_idx_type")
    .Attr("T: {double, float, half, complex64, complex128}")
    .Attr("output_idx_type: {int32, int64} = DT_INT32")
    .SetShapeFn(LuShapeFn);

}  // namespace sluice
