"""Writes fixtures/linalg_ops.pbtxt: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
Cholesky, MatrixSolve and MatrixTriangularSolve in TensorFlow, replayed through the kernels of
kernels/cpu/linalg (matrix_decomposition_ops).

Run from anywhere: python3 tests/kernels/gen_linalg_ops.py (needs TensorFlow 2.x and numpy).

Sluice runs the decompositions TensorFlow runs (Eigen's PartialPivLU, LLT and triangular
solve, on the same storage orders), but builds with Debian's Eigen 3.4 at the compiler's
default instruction set where TensorFlow's wheel has its own Eigen and AVX: the blocking and
the vector width change the order of a few sums, so results may differ in the last bits.
Tolerances (|got - want| <= atol + rtol * |want|), measured on the random well-conditioned
inputs below (condition numbers under about 1e3), per op and element type, are in TOL.
Inputs are well conditioned so that a last-bit difference stays a last-bit difference.

Left out: Cholesky of a matrix that is not positive definite. TensorFlow fills the lower
triangle with NaN and leaves the upper one unwritten (whatever the buffer held), so its
output is not reproducible; kernels/cpu/linalg/cholesky_op_test.cc checks Sluice's (NaN
below and on the diagonal, zeros above).
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
  w.add("inverse_%s_batch" % n, inv(), [general((2, 3, 5, 5), dt)], **t)
  w.add("inverse_%s_0x0" % n, inv(), [np.zeros((2, 0, 0), dt)])
  w.add("inverse_%s_singular" % n, inv(), [np.array([[1, 2], [2, 4]], dt)],
        error_substr="Input is not invertible.")
w.add("inverse_f32_1x1", inv(), [np.array([[4]], F32)], **tol("inverse", F32))
w.add("inverse_f32_empty_batch", inv(), [np.zeros((0, 3, 3), F32)])
w.add("inverse_f32_large", inv(), [general((24, 24), F32)], **tol("inverse", F32))
w.add("inverse_f64_large_batch", inv(True), [general((64, 6, 6), F64)], **tol("inverse", F64))
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
    w.add("%s_%s_batch" % (op, n), f, [general((3, 2, 5, 5), dt)], **t)
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
  w.add("%s_f64_large_batch" % op, f, [general((50, 6, 6), F64)], **tol("det", F64))
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
  w.add("cholesky_%s_batch" % n, chol, [spd((2, 3, 6, 6), dt)], **t)
  # Only the lower triangle is read: the upper one holds noise.
  a = spd((5, 5), dt)
  a = np.tril(a) + np.triu(rand((5, 5), dt), 1)
  w.add("cholesky_%s_reads_lower" % n, chol, [a], **t)
  w.add("cholesky_%s_0x0" % n, chol, [np.zeros((0, 0), dt)])
w.add("cholesky_f32_empty_batch", chol, [np.zeros((0, 4, 4), F32)])
w.add("cholesky_f32_nan", chol, [np.array([[4, np.nan], [np.nan, 9]], F32)])
w.add("cholesky_f32_1x1", chol, [np.array([[9]], F32)])
w.add("cholesky_f64_large", chol, [spd((32, 32), F64)], **tol("cholesky", F64))
w.add("cholesky_f32_large_batch", chol, [spd((40, 5, 5), F32)], **tol("cholesky", F32))
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
  w.add("solve_%s_batch" % n, solve(), [general((2, 3, 5, 5), dt), rand((2, 3, 5, 1), dt)],
        **t)
  w.add("solve_%s_singular" % n, solve(), [np.array([[1, 2], [2, 4]], dt), rand((2, 1), dt)],
        error_substr="Input matrix is not invertible.")
w.add("solve_f32_no_rhs", solve(), [general((3, 3), F32), np.zeros((3, 0), F32)])
w.add("solve_f32_0x0", solve(), [np.zeros((0, 0), F32), np.zeros((0, 2), F32)])
w.add("solve_f64_empty_batch", solve(True), [np.zeros((0, 3, 3), F64), np.zeros((0, 3, 2), F64)])
w.add("solve_f32_large", solve(), [general((20, 20), F32), rand((20, 7), F32)],
      **tol("solve", F32))
w.add("solve_f64_large_batch", solve(True), [general((40, 6, 6), F64), rand((40, 6, 3), F64)],
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
  w.add("trsolve_%s_batch" % n, trsolve(), [triangular((2, 3, 4, 4), dt), rand((2, 3, 4, 2), dt)],
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
      [triangular((48, 5, 5), F64), rand((48, 5, 2), F64)], **tol("triangular", F64))
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

w.write()
