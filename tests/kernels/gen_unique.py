"""Writes fixtures/unique.pbtxt: Unique and UniqueV2 in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_unique.py (needs TensorFlow 2.x and numpy).

Every output is exact: Unique only moves and compares elements. The cases pin TensorFlow's
equality: -0.0 equals 0.0 and NaN equals nothing for float and double, and for half and
bfloat16 slices of several elements, while single elements of half and bfloat16 compare by
bits (so -0.0 and 0.0 differ). error_substr is checked here against TensorFlow's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261204)
w = CaseWriter("unique")

REAL = [np.float32, np.float64, np.float16, BF16, np.int8, np.int16, np.int32, np.int64,
        np.uint8, np.uint16, np.uint32, np.uint64]


def tname(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def unique(out_idx=tf.int32):
  return lambda x: R.Unique(x=x, out_idx=out_idx)


def unique_v2(out_idx=tf.int32):
  return lambda x, axis: R.UniqueV2(x=x, axis=axis, out_idx=out_idx)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


I64 = lambda v: np.array(v, np.int64)  # noqa: E731
I32 = lambda v: np.array(v, np.int32)  # noqa: E731

for dtype in REAL:
  x = rng.integers(0, 6, 20).astype(dtype)
  w.add("unique_" + tname(dtype), unique(), [x])
  w.add("unique_" + tname(dtype) + "_idx64", unique(tf.int64), [x])
w.add("unique_bool", unique(), [np.array([True, False, True, True, False])])
w.add("unique_string", unique(), [np.array([b"b", b"a", b"b", b"", b"a", b"\x00z"])])
w.add("unique_empty", unique(), [np.zeros(0, np.float32)])
w.add("unique_one", unique(tf.int64), [np.array([7], np.int32)])
w.add("unique_large", unique(), [rng.integers(0, 1000, 5000).astype(np.int64)])
w.add("unique_float_signed_zero_nan", unique(),
      [np.array([0.0, -0.0, np.nan, np.nan, 1.0, 1.0, -0.0], np.float32)])
w.add("unique_double_negative_zero_first", unique(),
      [np.array([-0.0, 0.0, np.nan, 2.5, 2.5], np.float64)])
w.add("unique_half_signed_zero_by_bits", unique(),
      [np.array([0.0, -0.0, 0.0, np.nan, np.nan, 3.0], np.float16)])
w.add("unique_bf16_signed_zero_by_bits", unique(),
      [np.array([-0.0, 0.0, -0.0, 1.0], np.float32).astype(BF16)])
w.add("unique_float_infs", unique(), [np.array([np.inf, -np.inf, np.inf, 1], np.float32)])

# UniqueV2: slices along an axis.
M = np.array([[1, 0, 1, 2], [2, 0, 2, 2], [1, 0, 1, 2]], np.float32)
w.add("v2_axis0", unique_v2(), [M, I64([0])])
w.add("v2_axis1", unique_v2(), [M, I64([1])])
w.add("v2_axis_negative", unique_v2(tf.int64), [M, I32([-1])])
w.add("v2_no_axis_vector", unique_v2(), [np.array([3, 1, 3, 2], np.int32), I64([])])
w.add("v2_axis0_vector", unique_v2(), [np.array([3, 1, 3, 2], np.int16), I32([0])])
T3 = rng.integers(0, 2, (2, 6, 3)).astype(np.int32)
for axis in range(3):
  w.add("v2_3d_axis%d" % axis, unique_v2(), [T3, I64([axis])])
w.add("v2_rows_signed_zero_equal", unique_v2(),
      [np.array([[0.0, 1], [-0.0, 1], [np.nan, 1], [np.nan, 1]], np.float32), I64([0])])
w.add("v2_half_rows_signed_zero_equal", unique_v2(),
      [np.array([[0.0, 1], [-0.0, 1], [0.0, 1]], np.float16), I64([0])])
w.add("v2_half_single_element_rows_by_bits", unique_v2(),
      [np.array([[0.0], [-0.0], [0.0]], np.float16), I64([0])])
w.add("v2_bf16_columns", unique_v2(),
      [np.array([[0.0, -0.0, 5], [1, 1, 5]], np.float32).astype(BF16), I64([1])])
w.add("v2_strings_axis1", unique_v2(),
      [np.array([[b"a", b"b", b"a"], [b"c", b"d", b"c"]]), I64([1])])
w.add("v2_bool_axis0", unique_v2(), [np.array([[True, False], [True, False], [False, False]]),
                                      I64([0])])
w.add("v2_empty_slices", unique_v2(), [np.zeros((0, 3), np.float32), I64([1])])
w.add("v2_empty_axis", unique_v2(), [np.zeros((3, 0), np.float32), I64([0])])

# Errors.
add_error("err_unique_matrix", unique(), [np.zeros((2, 2), np.float32)],
          "unique expects a 1D vector.")
add_error("err_unique_scalar", unique(), [np.float32(1)], "unique expects a 1D vector.")
add_error("err_v2_no_axis_matrix", unique_v2(), [np.zeros((2, 2), np.int32), I64([])],
          "unique expects a 1D vector.")
add_error("err_v2_axis_out_of_range", unique_v2(), [np.zeros((3, 2), np.int32), I64([2])],
          "axis has to be between [0, 2)")
add_error("err_v2_axis_too_negative", unique_v2(), [np.zeros((3, 2), np.int32), I32([-3])],
          "axis has to be between [0, 2)")
add_error("err_v2_axis_two_elements", unique_v2(), [np.zeros((3, 2), np.int32), I64([0, 1])],
          "axis does not support input tensors larger than 1 elements")
add_error("err_v2_axis_scalar", unique_v2(), [np.zeros((3, 2), np.int32), I64(0)],
          "axis expects a 1D vector.")
add_error("err_v2_scalar_input", unique_v2(), [np.float32(3), I64([0])],
          "axis has to be between [0, 0)")

w.write()
