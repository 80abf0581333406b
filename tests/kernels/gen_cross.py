"""Writes fixtures/cross.pbtxt: Cross in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_cross.py (needs TensorFlow 2.x and numpy).
Compared exactly: each component is two products and a difference, each rounded to T (or
wrapped, for integers) in TensorFlow's Eigen expression and in Sluice's loop alike.
error_substr is checked here against TensorFlow's message. A shape large enough for the parallel
split is tested in kernels/cpu/linalg/cross_op_test.cc, to keep this file small.
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
w = CaseWriter("cross")


def cross(a, b):
  return R.Cross(a=a, b=b)


def add(name, inputs, substr=None):
  code = w.add(name, cross, inputs, error_substr=substr)
  if substr is not None:
    assert code != 0, name + ": TensorFlow did not fail"
    assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access
  else:
    assert code == 0, name + ": TensorFlow failed"


F = np.float32
add("vector", [np.array([1, 2, 3], F), np.array([4, 5, 6], F)])
add("batch_rank3", [rng.standard_normal((2, 4, 3)).astype(F), rng.standard_normal((2, 4, 3))
                    .astype(F)])
add("float_rounding", [(rng.standard_normal((64, 3)) * 1e3).astype(F),
                       (rng.standard_normal((64, 3)) * 1e-3).astype(F)])
add("cancellation", [np.array([[1e8, 1 + 1e-7, 3], [1, 1, 1]], F),
                     np.array([[1e8, 1, 3], [1, 1, 1]], F)])
add("nan_inf", [np.array([[np.nan, 1, 2], [np.inf, 0, 1]], F),
                np.array([[1, 2, 3], [1, np.inf, 0]], F)])
add("empty", [np.zeros((0, 3), F), np.zeros((0, 3), F)])
add("int32_wraps", [np.array([2**30, 3, 2**30], np.int32), np.array([5, 2**30, 7], np.int32)])
add("uint8_wraps", [np.array([200, 3, 4], np.uint8), np.array([5, 200, 7], np.uint8)])
for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
              np.int64, np.uint32, np.uint64]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  if np.issubdtype(np.dtype(dtype), np.integer):
    a, b = rng.integers(0, 11, (5, 3)), rng.integers(0, 11, (5, 3))
  else:
    a, b = rng.standard_normal((5, 3)) * 3, rng.standard_normal((5, 3)) * 3
  add("dtype_" + name, [a.astype(dtype), b.astype(dtype)])
add("err_shapes", [np.ones((2, 3), F), np.ones((3, 3), F)],
    "Both inputs must be of same shape: [2,3] vs. [3,3]")
add("err_scalar", [F(1), F(1)], "Input must be at least 1D")
add("err_not_three", [np.ones((2, 4), F), np.ones((2, 4), F)],
    "Cross-products are only defined for 3-element vectors.")

w.write()
