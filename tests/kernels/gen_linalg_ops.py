"""Writes fixtures/linalg_ops.pbtxt: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
Cholesky, MatrixSolve, MatrixTriangularSolve, Qr, SelfAdjointEigV2, Svd, Lu and MatrixSolveLs in
TensorFlow, replayed through the kernels of kernels/cpu/linalg (matrix_decomposition_ops).

Run from anywhere: python3 tests/kernels/gen_linalg_ops.py (needs TensorFlow 2.x and numpy).

Sluice runs the decompositions TensorFlow runs (Eigen's PartialPivLU, LLT, triangular solve,
HouseholderQR, SelfAdjointEigenSolver, BDCSVD and CompleteOrthogonalDecomposition, on the
same storage orders), but builds with Debian's Eigen 3.4 at the compiler's
default instruction set where TensorFlow's wheel has its own Eigen and AVX: the blocking and
the vector width change the order of a few sums, so results may differ in the last bits.
Tolerances (|got - want| <= atol + rtol * |want|), measured on the random well-conditioned
inputs below (condition numbers under about 1e3), per op and element type, are in TOL.
Inputs are well conditioned so that a last-bit difference stays a last-bit difference.

Left out, because TensorFlow's output holds unwritten memory there, and unit-tested in
kernels/cpu/linalg/*_test.cc instead: Cholesky of a matrix that is not positive definite
(TensorFlow fills the lower triangle with NaN and leaves the upper one unwritten; Sluice
writes zeros there); SelfAdjointEigV2 without compute_v and Svd without compute_uv (the
unused outputs are unwritten scalars; Sluice's are 0); MatrixSolveLs of a matrix without
rows (the [N, K] output is unwritten; Sluice writes the minimum-norm solution, zeros).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(2026)
w = CaseWriter("linalg_ops")
R = tf.raw_ops

F16, F32, F64, C64, C128 = np.float16, np.float32, np.float64, np.complex64, np.complex128
ALL = [F32, F64, C64, C128]

# (rtol, atol) per op family and element type. Single precision: a few ulps of the largest
# entries (the solves' and inverses' sums run in another order); double likewise.
TOL = {
    "inverse": {F16: (1e-3, 1e-3), F32: (1e-5, 1e-6), F64: (1e-13, 1e-14)},
    "det": {F32: (1e-5, 1e-6), F64: (1e-13, 1e-14)},
    "cholesky": {F32: (1e-6, 1e-6), F64: (1e-14, 1e-14)},
    "solve": {F32: (1e-5, 1e-6), F64: (1e-13, 1e-14)},
    "triangular": {F32: (1e-5, 1e-6), F64: (1e-13, 1e-14)},
    "qr": {F16: (1e-2, 1e-2), F32: (1e-5, 1e-5), F64: (1e-13, 1e-13)},
    "eig": {F32: (1e-5, 1e-5), F64: (1e-13, 1e-13)},
    "svd": {F32: (1e-5, 1e-5), F64: (1e-13, 1e-13)},
    "lstsq": {F32: (1e-4, 1e-5), F64: (1e-12, 1e-13)},
}


def real_of(dt):
  return {C64: F32, C128: F64}.get(dt, dt)


def tol(family, dt):
  rtol, atol = TOL[family][real_of(dt)]
  return dict(rtol=rtol, atol=atol)


def name_of(dt):
  return {F16: "f16", F32: "f32", F64: "f64", C64: "c64", C128: "c128"}[dt]


def rand(shape, dt):
  x = rng.uniform(-1, 1, shape)
  if dt in (C64, C128):
    x = x + 1j * rng.uniform(-1, 1, shape)
  return x.astype(dt)


def general(shape, dt):
  """Random square matrices, well conditioned: random entries plus a diagonal shift whose
  size varies, so partial pivoting still swaps rows."""
  n = shape[-1]
  a = rand(shape, dt).astype(np.complex128 if dt in (C64, C128) else np.float64)
  a = a + 0.5 * n * np.eye(n) * rng.choice([-1, 1], shape[:-1])[..., None]
  return a.astype(dt)


def spd(shape, dt):
  """Random Hermitian positive definite matrices."""
  n = shape[-1]
  b = rand(shape, dt).astype(np.complex128 if dt in (C64, C128) else np.float64)
  a = b @ np.conj(np.swapaxes(b, -1, -2)) + n * np.eye(n)
  return a.astype(dt)


def triangular(shape, dt):
  """Random matrices whose diagonal is far from zero (both triangles filled: the op reads
  one)."""
  n = shape[-1]
  a = rand(shape, dt).astype(np.complex128 if dt in (C64, C128) else np.float64)
  a = a + (1.5 * np.eye(n)) * rng.choice([-1, 1], shape[:-1])[..., None]
  return a.astype(dt)


# ---- MatrixInverse ----------------------------------------------------------------------
def inv(adjoint=False):
  return lambda x: R.MatrixInverse(input=x, adjoint=adjoint)


for dt in [F16] + ALL:
  n = name_of(dt)
  t = tol("inverse", dt)
  w.add("inverse_%s" % n, inv(), [general((3, 3), dt)], **t)
  w.add("inverse_%s_adjoint" % n, inv(True), [general((4, 4), dt)], **t)
  w.add("inverse_%s_batch" % n, inv(), [general((2, 2, 4, 4), dt)], **t)
  w.add("inverse_%s_0x0" % n, inv(), [np.zeros((2, 0, 0), dt)])
  w.add("inverse_%s_singular" % n, inv(), [np.array([[1, 2], [2, 4]], dt)],
        error_substr="Input is not invertible.")
w.add("inverse_f32_1x1", inv(), [np.array([[4]], F32)], **tol("inverse", F32))
w.add("inverse_f32_empty_batch", inv(), [np.zeros((0, 3, 3), F32)])
w.add("inverse_f32_large", inv(), [general((16, 16), F32)], **tol("inverse", F32))
w.add("inverse_f64_large_batch", inv(True), [general((16, 6, 6), F64)], **tol("inverse", F64))
w.add("inverse_f32_one_singular", inv(),
      [np.stack([general((3, 3), F32), np.zeros((3, 3), F32)])],
      error_substr="Input is not invertible.")
w.add("inverse_f32_nan", inv(), [np.array([[np.nan, 1], [1, 1]], F32)],
      error_substr="Input is not invertible.")
w.add("inverse_not_square", inv(), [np.ones((2, 3), F32)],
      error_substr="Input matrix must be square.")
w.add("inverse_rank1", inv(), [np.ones((3,), F32)],
      error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- MatrixDeterminant, LogMatrixDeterminant --------------------------------------------
def det(x):
  return R.MatrixDeterminant(input=x)


def logdet(x):
  return R.LogMatrixDeterminant(input=x)


for dt in ALL:
  n = name_of(dt)
  t = tol("det", dt)
  for op, f in (("det", det), ("logdet", logdet)):
    w.add("%s_%s" % (op, n), f, [general((4, 4), dt)], **t)
    w.add("%s_%s_batch" % (op, n), f, [general((2, 2, 4, 4), dt)], **t)
    w.add("%s_%s_singular" % (op, n), f, [np.array([[1, 2], [2, 4]], dt)], **t)
    w.add("%s_%s_0x0" % (op, n), f, [np.zeros((3, 0, 0), dt)])
    w.add("%s_%s_1x1" % (op, n), f, [np.array([[-3]], dt)], **t)
for op, f in (("det", det), ("logdet", logdet)):
  w.add("%s_f32_empty_batch" % op, f, [np.zeros((0, 2, 2), F32)])
  w.add("%s_f32_swap" % op, f, [np.array([[0, 1], [1, 0]], F32)])
  w.add("%s_f32_overflow" % op, f, [np.diag([1e20, -1e20, 1e20, 1e20]).astype(F32)],
        **tol("det", F32))
  w.add("%s_f64_underflow" % op, f, [np.diag([1e-200, 1e-200]).astype(F64)],
        **tol("det", F64))
  w.add("%s_f32_nan" % op, f, [np.array([[np.nan, 1], [1, 1]], F32)])
  # TensorFlow's build counts an infinite pivot's sign as +-1 and lets NaN and +inf through,
  # where its source would give sign 0 and -inf (see determinant_ops.cc).
  w.add("%s_f32_inf" % op, f, [np.array([[np.inf, 0], [0, 1]], F32)])
  w.add("%s_f64_neg_inf" % op, f, [np.array([[2, 0], [0, -np.inf]], F64)])
  w.add("%s_f64_inf_and_zero" % op, f, [np.array([[np.inf, 0], [0, 0]], F64)])
  w.add("%s_f64_large_batch" % op, f, [general((16, 6, 6), F64)], **tol("det", F64))
  w.add("%s_not_square" % op, f, [np.ones((2, 3, 2), F32)],
        error_substr="Input matrix must be square.")
  w.add("%s_rank1" % op, f, [np.ones((4,), F64)],
        error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- Cholesky ---------------------------------------------------------------------------
def chol(x):
  return R.Cholesky(input=x)


for dt in ALL:
  n = name_of(dt)
  t = tol("cholesky", dt)
  w.add("cholesky_%s" % n, chol, [spd((4, 4), dt)], **t)
  w.add("cholesky_%s_batch" % n, chol, [spd((2, 2, 5, 5), dt)], **t)
  # Only the lower triangle is read: the upper one holds noise.
  a = spd((5, 5), dt)
  a = np.tril(a) + np.triu(rand((5, 5), dt), 1)
  w.add("cholesky_%s_reads_lower" % n, chol, [a], **t)
  w.add("cholesky_%s_0x0" % n, chol, [np.zeros((0, 0), dt)])
w.add("cholesky_f32_empty_batch", chol, [np.zeros((0, 4, 4), F32)])
w.add("cholesky_f32_nan", chol, [np.array([[4, np.nan], [np.nan, 9]], F32)])
w.add("cholesky_f32_1x1", chol, [np.array([[9]], F32)])
w.add("cholesky_f64_large", chol, [spd((16, 16), F64)], **tol("cholesky", F64))
w.add("cholesky_f32_large_batch", chol, [spd((16, 5, 5), F32)], **tol("cholesky", F32))
w.add("cholesky_not_square", chol, [np.ones((3, 2), F32)],
      error_substr="Input matrix must be square.")
w.add("cholesky_rank1", chol, [np.ones((3,), F32)],
      error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- MatrixSolve ------------------------------------------------------------------------
def solve(adjoint=False):
  return lambda a, b: R.MatrixSolve(matrix=a, rhs=b, adjoint=adjoint)


for dt in ALL:
  n = name_of(dt)
  t = tol("solve", dt)
  w.add("solve_%s" % n, solve(), [general((4, 4), dt), rand((4, 2), dt)], **t)
  w.add("solve_%s_adjoint" % n, solve(True), [general((4, 4), dt), rand((4, 3), dt)], **t)
  w.add("solve_%s_batch" % n, solve(), [general((2, 2, 4, 4), dt), rand((2, 2, 4, 1), dt)],
        **t)
  w.add("solve_%s_singular" % n, solve(), [np.array([[1, 2], [2, 4]], dt), rand((2, 1), dt)],
        error_substr="Input matrix is not invertible.")
w.add("solve_f32_no_rhs", solve(), [general((3, 3), F32), np.zeros((3, 0), F32)])
w.add("solve_f32_0x0", solve(), [np.zeros((0, 0), F32), np.zeros((0, 2), F32)])
w.add("solve_f64_empty_batch", solve(True), [np.zeros((0, 3, 3), F64), np.zeros((0, 3, 2), F64)])
w.add("solve_f32_large", solve(), [general((20, 20), F32), rand((20, 7), F32)],
      **tol("solve", F32))
w.add("solve_f64_large_batch", solve(True), [general((16, 6, 6), F64), rand((16, 6, 3), F64)],
      **tol("solve", F64))
w.add("solve_not_square", solve(), [np.ones((3, 2), F32), np.ones((3, 1), F32)],
      error_substr="First input (lhs) must be a square matrix.")
w.add("solve_rows_mismatch", solve(), [np.eye(3, dtype=F32), np.ones((2, 1), F32)],
      error_substr="Input matrix and rhs are incompatible.")
w.add("solve_rank_mismatch", solve(), [np.eye(3, dtype=F32)[None], np.ones((3, 1), F32)],
      error_substr="All input tensors must have the same rank.")
w.add("solve_batch_mismatch", solve(), [np.ones((2, 2, 2), F32), np.ones((3, 2, 1), F32)],
      error_substr="All input tensors must have the same outer dimensions.")
w.add("solve_rank1", solve(), [np.ones((2,), F32), np.ones((2,), F32)],
      error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- MatrixTriangularSolve --------------------------------------------------------------
def trsolve(lower=True, adjoint=False):
  return lambda a, b: R.MatrixTriangularSolve(matrix=a, rhs=b, lower=lower, adjoint=adjoint)


for dt in ALL:
  n = name_of(dt)
  t = tol("triangular", dt)
  for lower in (True, False):
    for adjoint in (False, True):
      w.add("trsolve_%s_%s%s" % (n, "lower" if lower else "upper", "_adjoint" if adjoint else ""),
            trsolve(lower, adjoint), [triangular((5, 5), dt), rand((5, 3), dt)], **t)
  w.add("trsolve_%s_batch" % n, trsolve(), [triangular((2, 2, 4, 4), dt), rand((2, 2, 4, 2), dt)],
        **t)
  w.add("trsolve_%s_bcast" % n, trsolve(False, True),
        [triangular((2, 1, 3, 3), dt), rand((4, 3, 2), dt)], **t)
w.add("trsolve_f32_bcast_matrix", trsolve(), [triangular((3, 3), F32), rand((2, 3, 3, 1), F32)],
      **tol("triangular", F32))
w.add("trsolve_f64_bcast_rhs", trsolve(False), [triangular((3, 1, 4, 4), F64), rand((4, 2), F64)],
      **tol("triangular", F64))
w.add("trsolve_f32_zero_diagonal", trsolve(), [np.array([[0, 0], [1, 1]], F32),
                                               np.array([[1], [2]], F32)])
w.add("trsolve_f32_empty_batch", trsolve(), [np.zeros((0, 3, 3), F32), rand((1, 3, 2), F32)])
w.add("trsolve_f32_no_rhs", trsolve(), [triangular((3, 3), F32), np.zeros((3, 0), F32)])
w.add("trsolve_f32_0x0", trsolve(), [np.zeros((2, 0, 0), F32), np.zeros((2, 0, 3), F32)])
w.add("trsolve_f32_large", trsolve(False), [triangular((30, 30), F32), rand((30, 9), F32)],
      **tol("triangular", F32))
w.add("trsolve_f64_large_batch", trsolve(True, True),
      [triangular((16, 5, 5), F64), rand((16, 5, 2), F64)], **tol("triangular", F64))
w.add("trsolve_matrix_rank1", trsolve(), [np.ones((2,), F32), np.ones((2, 1), F32)],
      error_substr="In[0] ndims must be >= 2: 1")
w.add("trsolve_rhs_rank1", trsolve(), [np.eye(2, dtype=F32), np.ones((2,), F32)],
      error_substr="In[1] ndims must be >= 2: 1")
w.add("trsolve_not_square", trsolve(), [np.ones((2, 3), F32), np.ones((2, 1), F32)],
      error_substr="In[0] matrices in the last dimensions must be square (3 =/= 2)")
w.add("trsolve_batch_incompatible", trsolve(),
      [np.ones((2, 3, 3), F32), np.ones((3, 3, 1), F32)],
      error_substr="In[0] and In[1] must have compatible batch dimensions: [2,3,3] vs. [3,3,1]")
w.add("trsolve_rows_mismatch", trsolve(), [np.eye(3, dtype=F32), np.ones((2, 1), F32)],
      error_substr="In[0] mismatch In[1] shape: 3 vs. 2")


# ---- Qr ---------------------------------------------------------------------------------
# Q and R are unique up to the signs of Q's columns and R's rows; Householder reflections
# choose them from the entries, so the same decomposition gives the same signs and the
# outputs are compared directly.
def qr(full=False):
  return lambda x: R.Qr(input=x, full_matrices=full)


for dt in [F16] + ALL:
  n = name_of(dt)
  t = tol("qr", dt)
  for full in (False, True):
    suffix = "_full" if full else ""
    w.add("qr_%s_tall%s" % (n, suffix), qr(full), [rand((5, 3), dt)], **t)
    w.add("qr_%s_wide%s" % (n, suffix), qr(full), [rand((3, 5), dt)], **t)
  w.add("qr_%s_batch" % n, qr(), [rand((2, 2, 4, 4), dt)], **t)
w.add("qr_f32_empty_batch", qr(), [np.zeros((0, 3, 2), F32)])
w.add("qr_f32_no_cols_full", qr(True), [np.zeros((3, 0), F32)])
w.add("qr_f32_no_cols", qr(), [np.zeros((3, 0), F32)])
w.add("qr_f64_no_rows_full", qr(True), [np.zeros((2, 0, 4), F64)])
w.add("qr_f64_large", qr(), [rand((20, 12), F64)], **tol("qr", F64))
w.add("qr_f32_large_batch", qr(True), [rand((12, 6, 4), F32)], **tol("qr", F32))
w.add("qr_f32_rank_deficient", qr(), [np.array([[1, 2], [2, 4], [3, 6]], F32)],
      **tol("qr", F32))
w.add("qr_rank1", qr(), [np.ones((3,), F32)],
      error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- SelfAdjointEigV2 -------------------------------------------------------------------
# Eigenvalues are unique; eigenvectors only up to a sign (a phase for complex), which the
# same QR iteration chooses alike, so they are compared directly. The inputs' eigenvalues are
# well separated (spaced 4 / n apart), or the vectors would hang on last-bit differences.
# Left out: compute_v=False. TensorFlow 2.21 then returns v as an unwritten scalar (whatever
# the buffer held); self_adjoint_eig_op_test.cc checks Sluice's (a scalar 0, and the same
# eigenvalues as with compute_v).
def eig(compute_v=True):
  return lambda x: R.SelfAdjointEigV2(input=x, compute_v=compute_v)


def unitary(n, dt):
  q, _ = np.linalg.qr(rand((n, n), dt).astype(np.complex128 if dt in (C64, C128) else np.float64))
  return q


def hermitian(shape, dt):
  """Random Hermitian matrices with eigenvalues spread evenly over [-2, 2]."""
  n = shape[-1]
  out = np.empty(shape, np.complex128 if dt in (C64, C128) else np.float64)
  for idx in np.ndindex(*shape[:-2]):
    q = unitary(n, dt)
    out[idx] = q @ np.diag(np.linspace(-2, 2, n)) @ np.conj(q.T)
  out = (out + np.conj(np.swapaxes(out, -1, -2))) / 2
  return out.astype(dt)


for dt in ALL:
  n = name_of(dt)
  t = tol("eig", dt)
  w.add("eig_%s" % n, eig(), [hermitian((4, 4), dt)], **t)
  w.add("eig_%s_batch" % n, eig(), [hermitian((2, 3, 3, 3), dt)], **t)
  w.add("eig_%s_0x0" % n, eig(), [np.zeros((2, 0, 0), dt)])
# Only the lower triangle is read.
a = hermitian((4, 4), F64)
w.add("eig_f64_reads_lower", eig(), [np.tril(a) + np.triu(rand((4, 4), F64), 1)],
      **tol("eig", F64))
w.add("eig_f32_1x1", eig(), [np.array([[-2]], F32)])
w.add("eig_f32_empty_batch", eig(), [np.zeros((0, 3, 3), F32)])
w.add("eig_f64_large", eig(), [hermitian((16, 16), F64)], **tol("eig", F64))
# Float32 eigenvectors can come out with the opposite sign (one of 40 random 5x5 matrices
# did): single precision vectors are compared on a few small matrices only.
w.add("eig_f64_large_batch", eig(), [hermitian((16, 5, 5), F64)], **tol("eig", F64))
w.add("eig_f32_nan", eig(), [np.array([[np.nan, 0], [0, 1]], F32)])
w.add("eig_not_square", eig(), [np.ones((2, 3), F32)],
      error_substr="Input matrix must be square.")
w.add("eig_rank1", eig(), [np.ones((3,), F32)],
      error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- Svd --------------------------------------------------------------------------------
# Singular values are unique; the vectors only up to a sign (a phase for complex) per pair,
# which the same BDCSVD chooses alike, so they are compared directly, on inputs whose
# singular values are well separated (spread over [1, 3]); svd_op_test.cc checks
# U diag(s) V^H against the input on larger random matrices. Left out: compute_uv=False,
# where TensorFlow 2.21 returns u and v as unwritten scalars; svd_op_test.cc checks Sluice's.
def svd(full=False):
  return lambda x: R.Svd(input=x, compute_uv=True, full_matrices=full)


def separated(shape, dt):
  """Random matrices with singular values spread evenly over [1, 3]."""
  m, n = shape[-2:]
  p = min(m, n)
  out = np.empty(shape, np.complex128 if dt in (C64, C128) else np.float64)
  for idx in np.ndindex(*shape[:-2]):
    sigma = np.zeros((m, n))
    sigma[:p, :p] = np.diag(np.linspace(3, 1, p))
    out[idx] = unitary(m, dt) @ sigma @ np.conj(unitary(n, dt).T)
  return out.astype(dt)


for dt in ALL:
  n = name_of(dt)
  t = tol("svd", dt)
  w.add("svd_%s_tall" % n, svd(), [separated((5, 3), dt)], **t)
  w.add("svd_%s_wide_full" % n, svd(True), [separated((3, 5), dt)], **t)
  batch = separated((2, 3, 4, 4), dt)
  # complex64 vectors of this batch differ from TensorFlow's by up to 5e-5: the phase Eigen
  # gives each pair of vectors hangs on rounding in single precision. Left out (the input is
  # still drawn, so the later cases keep their inputs); svd_op_test.cc checks
  # reconstructions.
  if dt != C64:
    w.add("svd_%s_batch" % n, svd(), [batch], **t)
w.add("svd_f32_empty_batch", svd(), [np.zeros((0, 3, 2), F32)])
w.add("svd_f32_no_cols_full", svd(True), [np.zeros((3, 0), F32)])
w.add("svd_f64_no_rows_full", svd(True), [np.zeros((2, 0, 4), F64)])
w.add("svd_f32_no_cols", svd(), [np.zeros((3, 0), F32)])
w.add("svd_f64_large", svd(), [separated((20, 18), F64)], **tol("svd", F64))
w.add("svd_f32_large_batch", svd(), [separated((12, 6, 4), F32)], **tol("svd", F32))
w.add("svd_f32_nan", svd(), [np.array([[np.nan, 0], [0, 1]], F32)])
w.add("svd_rank1", svd(), [np.ones((3,), F32)],
      error_substr="Input tensor 0 must have rank >= 2, got 1")


# ---- Lu ---------------------------------------------------------------------------------
def lu(idx=tf.int32):
  return lambda x: R.Lu(input=x, output_idx_type=idx)


for dt in ALL:
  n = name_of(dt)
  w.add("lu_%s" % n, lu(), [general((4, 4), dt)], **tol("inverse", dt))
  w.add("lu_%s_batch_i64" % n, lu(tf.int64), [general((2, 2, 4, 4), dt)], **tol("inverse", dt))
w.add("lu_f32_0x0", lu(), [np.zeros((2, 0, 0), F32)])
w.add("lu_f32_empty_batch", lu(tf.int64), [np.zeros((0, 3, 3), F32)])
w.add("lu_f32_pivots", lu(), [np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], F32)])
w.add("lu_f64_large", lu(), [general((16, 16), F64)], **tol("inverse", F64))
w.add("lu_f64_large_batch", lu(tf.int64), [general((16, 6, 6), F64)], **tol("inverse", F64))
w.add("lu_f32_singular", lu(), [np.array([[1, 2], [2, 4]], F32)],
      error_substr="Input is not invertible.")
w.add("lu_not_square", lu(), [np.ones((2, 3), F32)],
      error_substr="Input matrix must be square.")
w.add("lu_rank1", lu(), [np.ones((3,), F32)],
      error_substr="Input tensor must have rank >= 2, got 1")

# ---- MatrixSolveLs ----------------------------------------------------------------------
# The normal equations square A's condition number, hence the looser tolerance.
def lstsq(fast=True):
  return lambda a, b, l2: R.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=l2, fast=fast)


L2_0, L2_1 = np.float64(0), np.float64(0.5)
for dt in ALL:
  n = name_of(dt)
  t = tol("lstsq", dt)
  w.add("lstsq_%s_tall" % n, lstsq(), [rand((6, 3), dt), rand((6, 2), dt), L2_0], **t)
  w.add("lstsq_%s_wide_l2" % n, lstsq(), [rand((3, 5), dt), rand((3, 2), dt), L2_1], **t)
  w.add("lstsq_%s_slow" % n, lstsq(False), [rand((6, 4), dt), rand((6, 1), dt), L2_0], **t)
  w.add("lstsq_%s_slow_wide" % n, lstsq(False), [rand((3, 5), dt), rand((3, 2), dt), L2_0],
        **t)
  w.add("lstsq_%s_batch_l2" % n, lstsq(), [rand((2, 7, 4), dt), rand((2, 7, 3), dt), L2_1], **t)
w.add("lstsq_f64_slow_rank_deficient", lstsq(False),
      [np.array([[1, 2], [2, 4], [3, 6]], F64), rand((3, 1), F64), L2_0], **tol("lstsq", F64))
w.add("lstsq_f64_rank_deficient", lstsq(),
      [np.array([[1, 2], [2, 4], [3, 6]], F64), rand((3, 1), F64), L2_0],
      error_substr="Input matrix was rank deficient or ill-conditioned.")
w.add("lstsq_f64_rank_deficient_wide", lstsq(),
      [np.array([[1, 2, 3], [2, 4, 6]], F64), rand((2, 1), F64), L2_0],
      error_substr="or provide an l2_regularizer > 0.")
w.add("lstsq_f32_empty_batch", lstsq(), [np.zeros((0, 3, 2), F32), np.zeros((0, 3, 1), F32),
                                         np.float64(-1)])
w.add("lstsq_f32_no_rhs", lstsq(), [rand((3, 2), F32), np.zeros((3, 0), F32), L2_0])
w.add("lstsq_f64_large", lstsq(), [rand((40, 12), F64), rand((40, 3), F64), L2_1],
      **tol("lstsq", F64))
w.add("lstsq_negative_l2", lstsq(), [rand((3, 2), F32), rand((3, 1), F32), np.float64(-1)],
      error_substr="l2_regularizer must be >= 0.")
w.add("lstsq_l2_not_scalar", lstsq(), [rand((3, 2), F32), rand((3, 1), F32), np.zeros(1)],
      error_substr="l2_regularizer must be scalar, got shape [1]")
w.add("lstsq_rows_mismatch", lstsq(), [rand((3, 2), F32), rand((4, 1), F32), L2_0],
      error_substr="Input matrix and rhs are incompatible.")
w.add("lstsq_batch_mismatch", lstsq(), [rand((2, 3, 2), F32), rand((3, 3, 1), F32), L2_0],
      error_substr="All input tensors must have the same outer dimensions.")
w.add("lstsq_rank1", lstsq(), [np.ones((3,), F32), np.ones((3,), F32), L2_0],
      error_substr="Input tensor 0 must have rank >= 2, got 1")

w.write()
