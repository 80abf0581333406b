"""Writes fixtures/matrix_band_part.pbtxt: MatrixBandPart in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_matrix_band_part.py (needs TensorFlow 2.x and
numpy). Every output is exact (elements are kept or zeroed). error_substr is checked here
against TensorFlow's message.
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
w = CaseWriter("matrix_band_part")


def band(x, lower, upper):
  return R.MatrixBandPart(input=x, num_lower=lower, num_upper=upper)


def add_error(name, inputs, substr):
  code = w.add(name, band, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


I32 = lambda v: np.array(v, np.int32)  # noqa: E731
I64 = lambda v: np.array(v, np.int64)  # noqa: E731

X = (np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6) + 1)
for lower, upper in [(0, 0), (1, 0), (0, 2), (-1, 0), (0, -1), (2, 3), (-1, -1), (5, 6),
                     (5, -1), (-1, 6), (4, 5), (0, 6)]:
  w.add("band_%d_%d" % (lower, upper), band, [X, I64(lower), I64(upper)])
w.add("causal_mask_bool", band, [np.ones((1, 7, 7), np.bool_), I32(-1), I32(0)])
w.add("int32_index", band, [X[0], I32(1), I32(1)])
w.add("wide", band, [np.arange(3 * 9, dtype=np.float32).reshape(3, 9) + 1, I64(1), I64(2)])
w.add("tall", band, [np.arange(9 * 3, dtype=np.float32).reshape(9, 3) + 1, I64(2), I64(0)])
w.add("rank4", band, [rng.standard_normal((2, 3, 4, 4)).astype(np.float32), I64(0), I64(1)])
w.add("row_vector", band, [np.ones((1, 5), np.float32), I64(0), I64(2)])
w.add("empty_batch", band, [np.zeros((0, 3, 3), np.float32), I64(0), I64(0)])
w.add("empty_cols", band, [np.zeros((2, 3, 0), np.float32), I64(0), I64(0)])
w.add("nan_inf", band, [np.array([[np.nan, np.inf], [-np.inf, np.nan]], np.float32), I64(0),
                        I64(0)])
# The counts reach TensorFlow's row loop as 32-bit ints: -2^32 acts as 0.
w.add("lower_wraps_to_zero", band, [np.ones((3, 3), np.float32), I64(-2**32), I64(1)])
# Above kMinParallelElements, so the rows are split over the pool.
w.add("large", band, [rng.integers(1, 100, (4, 96, 96)).astype(np.int8), I64(3), I64(5)])
for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
              np.int64, np.uint32, np.uint64, np.complex64, np.complex128]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  w.add("dtype_" + name, band, [(rng.integers(1, 50, (2, 4, 4))).astype(dtype), I64(1),
                                I64(0)])

add_error("err_rank1", [np.ones(3, np.float32), I64(0), I64(0)],
          "input must be at least 2-dim, received shape: [3]")
add_error("err_lower_vector", [np.ones((3, 3), np.float32), I64([0]), I64(0)],
          "num_lower must be scalar, got shape [1]")
add_error("err_upper_vector", [np.ones((3, 3), np.float32), I64(0), I64([0, 1])],
          "num_upper must be scalar, got shape [2]")
add_error("err_lower_too_big", [np.ones((3, 4), np.float32), I64(4), I64(0)],
          "num_lower must be negative or less or equal to number of rows (3) got: 4")
add_error("err_upper_too_big", [np.ones((3, 4), np.float32), I32(0), I32(5)],
          "num_upper must be negative or less or equal to number of columns (4) got: 5")

w.write()
