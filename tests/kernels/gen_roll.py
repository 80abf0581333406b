"""Writes fixtures/roll.pbtxt: Roll in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_roll.py (needs TensorFlow 2.x and numpy). Every
output is exact (elements only move). error_substr is checked here against TensorFlow's
message.
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
w = CaseWriter("roll")
I32 = lambda v: np.array(v, np.int32)  # noqa: E731
I64 = lambda v: np.array(v, np.int64)  # noqa: E731


def roll(x, s, a):
  return R.Roll(input=x, shift=s, axis=a)


def add(name, inputs, substr=None):
  code = w.add(name, roll, inputs, error_substr=substr)
  if substr is not None:
    assert code != 0, name + ": TensorFlow did not fail"
    assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access
  else:
    assert code == 0, name + ": TensorFlow failed"


X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
add("vector", [np.arange(7, dtype=np.float32), I32(3), I32(0)])
add("vector_negative_shift", [np.arange(7, dtype=np.float32), I32(-2), I32(0)])
add("vector_big_shift", [np.arange(7, dtype=np.float32), I32(100), I32(0)])
add("vector_big_negative_shift", [np.arange(7, dtype=np.float32), I32(-100), I32(0)])
add("zero_shift", [X, I32(0), I32(1)])
add("inner_axis", [X, I32(2), I32(3)])
add("outer_axis", [X, I32(1), I32(0)])
add("middle_axis", [X, I32(-1), I32(2)])
add("negative_axis", [X, I32(1), I32(-3)])
add("two_axes", [X, I32([1, -2]), I32([0, 3])])
add("all_axes", [X, I32([1, 2, 3, 4]), I32([0, 1, 2, 3])])
add("outer_axes_only", [X, I32([1, 2]), I32([1, 0])])
add("repeated_axis", [X, I32([2, -3]), I32([3, 3])])
add("repeated_axis_negative", [X, I32([2, 1]), I32([1, -3])])
add("shift_int64_axis_int32", [X, I64([3, 1]), I32([2, 0])])
add("shift_int32_axis_int64", [X, I32([3, 1]), I64([2, 0])])
add("shift_int64_axis_int64", [X, I64(-7), I64(-1)])
add("shift_vector_of_one", [X, I32([2]), I32([1])])
add("empty_shift_list", [X, I32([]), I32([])])
add("shift_wraps_32_bits", [np.arange(7, dtype=np.float32), I64(2**32 + 3), I64(0)])
add("empty_input", [np.zeros((3, 0, 2), np.float32), I32([1, 1]), I32([0, 1])])
add("size_one_dim", [np.arange(6, dtype=np.float32).reshape(1, 6), I32([5, 2]), I32([0, 1])])
add("nan_inf", [np.array([np.nan, np.inf, -np.inf, 1], np.float32), I32(1), I32(0)])
add("strings", [np.array([[b"a", b"bb"], [b"ccc", b""]]), I32([1, 1]), I32([0, 1])])
for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
              np.int64, np.uint32, np.uint64, np.complex64, np.complex128, np.bool_]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  add("dtype_" + name, [(rng.integers(0, 50, (3, 4)) % (2 if dtype is np.bool_ else 50))
                        .astype(dtype), I32([1, 3]), I32([0, 1])])

add("err_scalar_input", [np.float32(1), I32(0), I32(0)], "input must be 1-D or higher")
add("err_shift_matrix", [X, np.zeros((1, 1), np.int32), I32(0)],
    "shift must be a scalar or a 1-D vector. Found: [1,1]")
add("err_axis_matrix", [X, I32(0), np.zeros((1, 1), np.int32)],
    "axis must be a scalar or a 1-D vector. Found: [1,1]")
add("err_size_mismatch", [X, I32([1, 2]), I32([0])], "shift and axis must have the same size")
add("err_scalar_vs_vector", [X, I32(1), I32([0])], "shift and axis must have the same size")
add("err_axis_high", [X, I32(1), I32(4)], "axis 4 is out of range")
add("err_axis_low", [X, I32(1), I32(-5)], "axis -1 is out of range")
add("err_axis_in_list", [X, I32([1, 1]), I32([0, 7])], "axis 7 is out of range")

w.write()
