"""Writes fixtures/matrix_diag.pbtxt: the diagonal ops in TensorFlow.

MatrixDiag, MatrixDiagPart and MatrixSetDiag (V1, V2, V3), Diag and DiagPart. Run from
anywhere: python3 tests/kernels/gen_matrix_diag.py (needs TensorFlow 2.x and numpy). Every
output is exact (the ops only move elements). error_substr is checked here against
TensorFlow's message.

Left out: MatrixSetDiagV2/V3 with a band and a diagonal of rank below the input's rank - 1
(TensorFlow reads a dimension past the diagonal's shape there); Sluice rejects it with the
band-count message, see kernels/cpu/array/matrix_diag_ops_test.cc. Shapes big enough for the
parallel paths are tested there too, to keep this file small.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261207)
w = CaseWriter("matrix_diag")
ALIGNS = ["LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT"]
POD = [np.float32, np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
       np.int64, np.uint32, np.uint64, np.complex64, np.complex128, np.bool_]
I32 = lambda v: np.array(v, np.int32)  # noqa: E731


def dname(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def values(shape, dtype):
  if dtype is np.bool_:
    return rng.integers(0, 2, shape).astype(np.bool_)
  return (rng.integers(1, 60, shape)).astype(dtype)


def add(name, build, inputs, substr=None):
  code = w.add(name, build, inputs, error_substr=substr)
  if substr is not None:
    assert code != 0, name + ": TensorFlow did not fail"
    assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access
  else:
    assert code == 0, name + ": TensorFlow failed"


def diag3(align="RIGHT_LEFT"):
  return lambda d, k, r, c, p: R.MatrixDiagV3(diagonal=d, k=k, num_rows=r, num_cols=c,
                                              padding_value=p, align=align)


def diag2(d, k, r, c, p):
  return R.MatrixDiagV2(diagonal=d, k=k, num_rows=r, num_cols=c, padding_value=p)


def part3(align="RIGHT_LEFT"):
  return lambda x, k, p: R.MatrixDiagPartV3(input=x, k=k, padding_value=p, align=align)


def part2(x, k, p):
  return R.MatrixDiagPartV2(input=x, k=k, padding_value=p)


def set3(align="RIGHT_LEFT"):
  return lambda x, d, k: R.MatrixSetDiagV3(input=x, diagonal=d, k=k, align=align)


def set2(x, d, k):
  return R.MatrixSetDiagV2(input=x, diagonal=d, k=k)


F = np.float32
P = F(-7)

# ---- MatrixDiagV3 / V2 / V1 ----
for align in ALIGNS:
  add("diag_v3_band_" + align, diag3(align), [values((2, 3, 4), F), I32([-1, 1]), I32(-1),
                                               I32(-1), P])
  add("diag_v3_band_wide_" + align, diag3(align), [values((3, 2), F), I32([1, 3]), I32(-1),
                                                    I32(-1), P])
  add("diag_v3_band_sub_" + align, diag3(align), [values((3, 3), F), I32([-4, -2]), I32(-1),
                                                   I32(-1), P])
  add("diag_v3_band_rect_" + align, diag3(align), [values((2, 3), F), I32([-1, 0]), I32(5),
                                                    I32(-1), P])
add("diag_v3_main", diag3(), [values((2, 4), F), I32(0), I32(-1), I32(-1), F(0)])
add("diag_v3_k_vec1", diag3(), [values((4,), F), I32([2]), I32(-1), I32(-1), F(0)])
add("diag_v3_super", diag3(), [values((3,), F), I32(2), I32(-1), I32(-1), P])
add("diag_v3_sub", diag3(), [values((3,), F), I32(-1), I32(-1), I32(-1), P])
add("diag_v3_rows_set", diag3(), [values((3,), F), I32(0), I32(3), I32(5), P])
add("diag_v3_cols_set", diag3(), [values((3,), F), I32(1), I32(-1), I32(6), P])
add("diag_v3_rows_only", diag3(), [values((3,), F), I32(-1), I32(6), I32(-1), P])
add("diag_v3_eye", diag3(), [np.ones((4,), F), I32(0), I32(4), I32(6), F(0)])
add("diag_v3_empty_diag", diag3(), [np.zeros((2, 0), F), I32(1), I32(-1), I32(-1), P])
add("diag_v3_empty_batch", diag3(), [np.zeros((0, 3), F), I32(0), I32(-1), I32(-1), P])
add("diag_v3_nan_inf", diag3(), [np.array([np.nan, np.inf, -np.inf], F), I32(0), I32(-1),
                                  I32(-1), F(np.nan)])
add("diag_v2_band", diag2, [values((2, 3), F), I32([0, 1]), I32(-1), I32(-1), P])
add("diag_v2_band_sub", diag2, [values((2, 3), F), I32([-2, -1]), I32(-1), I32(-1), P])
add("diag_v1", lambda d: R.MatrixDiag(diagonal=d), [values((2, 3), F)])
add("diag_v1_vector", lambda d: R.MatrixDiag(diagonal=d), [values((5,), F)])
add("diag_v1_empty", lambda d: R.MatrixDiag(diagonal=d), [np.zeros((3, 0), F)])
for dtype in POD:
  add("diag_v3_dtype_" + dname(dtype), diag3(), [values((2, 3), dtype), I32([-1, 0]), I32(-1),
                                                  I32(-1), values((), dtype)])
add("err_diag_k_matrix", diag3(), [values((3,), F), np.zeros((1, 1), np.int32), I32(-1),
                                   I32(-1), P], "diag_index must be a scalar or vector")
add("err_diag_k_empty", diag3(), [values((3,), F), I32([]), I32(-1), I32(-1), P],
    "Expected diag_index to have at least 1 element")
add("err_diag_k_three", diag3(), [values((3,), F), I32([0, 1, 2]), I32(-1), I32(-1), P],
    "diag_index must have only one or two elements, received 3 elements.")
add("err_diag_rows_vector", diag3(), [values((3,), F), I32(0), I32([3]), I32(-1), P],
    "num_rows must be a scalar")
add("err_diag_cols_vector", diag3(), [values((3,), F), I32(0), I32(-1), I32([3]), P],
    "num_cols must be a scalar")
add("err_diag_padding_vector", diag3(), [values((3,), F), I32(0), I32(-1), I32(-1),
                                         np.array([1], F)], "padding_value must be a scalar")
add("err_diag_scalar", diag3(), [F(1), I32(0), I32(-1), I32(-1), P],
    "diagonal must be at least 1-dim, received shape: []")
add("err_diag_k_reversed", diag3(), [values((2, 3), F), I32([1, 0]), I32(-1), I32(-1), P],
    "lower_diag_index must not be larger than upper_diag_index: 1 > 0")
add("err_diag_band_count", diag3(), [values((3, 3), F), I32([0, 1]), I32(-1), I32(-1), P],
    "The number of diagonals provided in the input does not match")
add("err_diag_band_rank1", diag3(), [values((3,), F), I32([0, 1]), I32(-1), I32(-1), P],
    "The number of diagonals provided in the input does not match")
add("err_diag_rows_small", diag3(), [values((3,), F), I32(0), I32(2), I32(-1), P],
    "The number of rows is too small.")
add("err_diag_rows_minus2", diag3(), [values((3,), F), I32(0), I32(-2), I32(-1), P],
    "The number of rows is too small.")
add("err_diag_cols_small", diag3(), [values((3,), F), I32(1), I32(-1), I32(3), P],
    "The number of columns is too small.")
add("err_diag_inconsistent", diag3(), [values((3,), F), I32(0), I32(4), I32(5), P],
    "The number of rows or columns is not consistent")

# ---- MatrixDiagPartV3 / V2 / V1 ----
X = values((2, 4, 5), F)
for align in ALIGNS:
  add("part_v3_band_" + align, part3(align), [X, I32([-2, 3]), P])
  add("part_v3_tall_" + align, part3(align), [values((6, 3), F), I32([-3, 1]), P])
  add("part_v3_super_only_" + align, part3(align), [X, I32([1, 2]), P])
  add("part_v3_sub_only_" + align, part3(align), [X, I32([-3, -1]), P])
add("part_v3_main", part3(), [X, I32(0), F(0)])
add("part_v3_k_vec1", part3(), [X, I32([-3]), F(0)])
add("part_v3_far", part3(), [X, I32(4), F(0)])
add("part_v3_pad_shape_1", part3(), [X, I32([-1, 1]), np.array([9], F)])
add("part_v3_pad_shape_11", part3(), [X, I32([-1, 1]), np.array([[9]], F)])
add("part_v3_empty_matrix", part3(), [np.zeros((0, 0), F), I32(0), P])
add("part_v3_empty_rows_band", part3(), [np.zeros((0, 3), F), I32([0, 2]), P])
add("part_v3_empty_cols_band", part3(), [np.zeros((3, 0), F), I32([-2, 0]), P])
add("part_v3_empty_batch", part3(), [np.zeros((0, 3, 3), F), I32([-1, 1]), P])
add("part_v3_nan", part3(), [np.array([[np.nan, 1], [np.inf, -np.inf]], F), I32([-1, 1]),
                             F(np.nan)])
add("part_v2_band", part2, [X, I32([-2, 1]), P])
add("part_v1", lambda x: R.MatrixDiagPart(input=x), [X])
add("part_v1_tall", lambda x: R.MatrixDiagPart(input=x), [values((3, 5, 2), F)])
for dtype in POD:
  add("part_v3_dtype_" + dname(dtype), part3(), [values((2, 3, 4), dtype), I32([-1, 1]),
                                                  values((), dtype)])
add("err_part_k_matrix", part3(), [X, np.zeros((1, 1), np.int32), P],
    "diag_index must be a scalar or vector")
add("err_part_k_empty", part3(), [X, I32([]), P], "Expected diag_index to have at least 1 element")
add("err_part_k_three", part3(), [X, I32([0, 1, 2]), P],
    "diag_index must have only one or two elements, received 3 elements.")
add("err_part_padding_empty", part3(), [X, I32(0), np.zeros((0,), F)], "Padding must be scalar.")
add("err_part_padding_two", part3(), [X, I32(0), np.zeros((2,), F)], "Padding must be scalar.")
add("err_part_rank1", part3(), [values((3,), F), I32(0), P],
    "input must be at least 2-dim, received shape: [3]")
add("err_part_lower_high", part3(), [X, I32(5), P],
    "lower_diag_index is out of bound: 5. It must be between -4 and 5")
add("err_part_lower_low", part3(), [X, I32([-4, 0]), P],
    "lower_diag_index is out of bound: -4. It must be between -4 and 5")
add("err_part_upper_high", part3(), [X, I32([0, 5]), P],
    "upper_diag_index is out of bound: 5 It must be between -4 and 5")
add("err_part_reversed", part3(), [X, I32([2, 1]), P],
    "lower_diag_index must not be larger than upper_diag_index: 2 > 1")
add("err_part_empty_nonzero_k", part3(), [np.zeros((0, 3), F), I32(-1), P],
    "lower_diag_index is out of bound: -1. It must be between 0 and 3")

# ---- MatrixSetDiagV3 / V2 / V1 ----
for align in ALIGNS:
  add("set_v3_band_" + align, set3(align), [X, values((2, 6, 4), F), I32([-2, 3])])
  add("set_v3_sub_" + align, set3(align), [X, values((2, 2, 2), F), I32([-3, -2])])
add("set_v3_main", set3(), [X, values((2, 4), F), I32(0)])
add("set_v3_super", set3(), [X, values((2, 3), F), I32([2])])
add("set_v3_empty_input", set3(), [np.zeros((0, 3), F), np.zeros((0,), F), I32(0)])
add("set_v3_empty_batch", set3(), [np.zeros((0, 3, 3), F), np.zeros((0, 3), F), I32(0)])
add("set_v3_nan", set3(), [np.zeros((2, 2), F), np.array([np.nan, -np.inf], F), I32(0)])
add("set_v2_band", set2, [X, values((2, 3, 4), F), I32([-1, 1])])
add("set_v1", lambda x, d: R.MatrixSetDiag(input=x, diagonal=d), [X, values((2, 4), F)])
for dtype in POD:
  add("set_v3_dtype_" + dname(dtype), set3(), [values((2, 3, 4), dtype), values((2, 2, 3), dtype),
                                               I32([-1, 0])])
add("err_set_k_matrix", set3(), [X, values((2, 4), F), np.zeros((1, 1), np.int32)],
    "diag_index must be a scalar or vector")
add("err_set_k_empty", set3(), [X, values((2, 4), F), I32([])],
    "diag_index must have at least one element")
add("err_set_k_three", set3(), [X, values((2, 4), F), I32([0, 1, 2])],
    "diag_index must have only one or two elements, received 3 elements.")
add("err_set_input_rank1", set3(), [values((3,), F), values((3,), F), I32(0)],
    "input must be at least 2-dim, received shape: [3]")
add("err_set_diag_scalar", set3(), [X, F(1), I32(0)],
    "diagonal must be at least 1-dim, received shape: []")
add("err_set_lower_low", set3(), [X, values((2, 4), F), I32(-4)],
    "lower_diag_index is out of bound: -4 It must be between -4 and 5")
add("err_set_upper_high", set3(), [X, values((2, 4), F), I32([0, 7])],
    "upper_diag_index is out of bound: 7 It must be between -4 and 5")
add("err_set_reversed", set3(), [X, values((2, 4), F), I32([1, 0])],
    "lower_diag_index must not be larger than upper_diag_index: 1 > 0")
add("err_set_band_count", set3(), [X, values((2, 3, 4), F), I32([0, 1])],
    "The number of diagonals provided in `diag` is not consistent")
add("err_set_diag_shape", set3(), [X, values((2, 3), F), I32(0)],
    "Either first dimensions of diagonal don't match input.shape[:-2]")
add("err_set_batch_shape", set3(), [X, values((3, 4), F), I32(0)],
    "Expected diagonal shape: [2,4]")

# ---- Diag / DiagPart ----
# TensorFlow registers no bfloat16 CPU kernel for Diag or DiagPart, though the OpDef allows it.
for dtype in [np.float32, np.float64, np.float16, np.int32, np.int64, np.complex64,
              np.complex128]:
  add("diagop_" + dname(dtype), lambda d: R.Diag(diagonal=d), [values((2, 3), dtype)])
  add("diagpart_" + dname(dtype), lambda x: R.DiagPart(input=x), [values((2, 3, 2, 3), dtype)])
add("diagop_vector", lambda d: R.Diag(diagonal=d), [values((4,), F)])
add("diagop_empty", lambda d: R.Diag(diagonal=d), [np.zeros((0,), F)])
add("diagop_empty_2d", lambda d: R.Diag(diagonal=d), [np.zeros((2, 0), F)])
add("diagop_nan", lambda d: R.Diag(diagonal=d), [np.array([np.nan, np.inf], F)])
add("diagpart_matrix", lambda x: R.DiagPart(input=x), [values((4, 4), F)])
add("diagpart_scalar", lambda x: R.DiagPart(input=x), [F(3)])
add("diagpart_empty", lambda x: R.DiagPart(input=x), [np.zeros((0, 0), F)])
add("diagpart_empty_4d", lambda x: R.DiagPart(input=x), [np.zeros((2, 0, 2, 0), F)])
add("err_diagop_scalar", lambda d: R.Diag(diagonal=d), [F(3)], "Input must be at least rank 1, got 0")
add("err_diagpart_odd", lambda x: R.DiagPart(input=x), [values((2, 3, 4), F)],
    "even and positive, got shape [2,3,4]")
add("err_diagpart_rank1", lambda x: R.DiagPart(input=x), [values((3,), F)], "even and positive, got shape [3]")
add("err_diagpart_mismatch", lambda x: R.DiagPart(input=x), [values((2, 3), F)],
    "Invalid shape [2,3]: dimensions 0 and 1 do not match.")
add("err_diagpart_mismatch_2", lambda x: R.DiagPart(input=x), [values((2, 3, 2, 4), F)],
    "Invalid shape [2,3,2,4]: dimensions 1 and 3 do not match.")

w.write()
