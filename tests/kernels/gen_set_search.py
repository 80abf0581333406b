"""Writes fixtures/set_search.pbtxt: LowerBound, UpperBound, ListDiff, UniqueWithCounts{,V2}.

Run from anywhere: python3 tests/kernels/gen_set_search.py (needs TensorFlow 2.x and numpy).
Every output is exact (positions, counts and moved elements). error_substr is checked here
against TensorFlow's message.

Left out: ListDiff of half or bfloat16 with -0.0 and 0.0 (TensorFlow's hash set of those types
hashes bits, so whether they match depends on its buckets); Sluice treats them as equal, as
TensorFlow does for float and double.
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
w = CaseWriter("set_search")
I32 = lambda v: np.array(v, np.int32)  # noqa: E731
I64 = lambda v: np.array(v, np.int64)  # noqa: E731
REAL = [np.float32, np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16,
        np.int32, np.int64, np.uint32, np.uint64]


def dname(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def add(name, build, inputs, substr=None):
  code = w.add(name, build, inputs, error_substr=substr)
  if substr is not None:
    assert code != 0, name + ": TensorFlow did not fail"
    assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access
  else:
    assert code == 0, name + ": TensorFlow failed"


# ---- LowerBound / UpperBound ----
def lower(out=tf.int32):
  return lambda s, v: R.LowerBound(sorted_inputs=s, values=v, out_type=out)


def upper(out=tf.int32):
  return lambda s, v: R.UpperBound(sorted_inputs=s, values=v, out_type=out)


S = np.array([[1, 2, 2, 3, 5, 8], [-4, -4, 0, 0, 0, 9]], np.float32)
V = np.array([[2, 0, 9, 5, 2.5], [0, -4, 10, -5, 0.5]], np.float32)
for nm, fn in [("lower", lower), ("upper", upper)]:
  add(nm + "_basic", fn(), [S, V])
  add(nm + "_int64_out", fn(tf.int64), [S, V])
  add(nm + "_nan_inf", fn(), [np.array([[-np.inf, 0, 1, np.inf, np.nan]], np.float32),
                              np.array([[np.nan, np.inf, -np.inf, 0, 1]], np.float32)])
  add(nm + "_empty_sorted", fn(), [np.zeros((2, 0), np.float32), V])
  add(nm + "_empty_values", fn(), [S, np.zeros((2, 0), np.float32)])
  add(nm + "_no_rows", fn(), [np.zeros((0, 3), np.float32), np.zeros((0, 2), np.float32)])
  for dtype in REAL:
    add(nm + "_dtype_" + dname(dtype), fn(),
        [np.sort(rng.integers(0, 60, (3, 9)), axis=1).astype(dtype),
         rng.integers(0, 60, (3, 4)).astype(dtype)])
  add("err_" + nm + "_sorted_vector", fn(), [np.ones(3, np.float32), V],
      "Shape must be rank 2 but is rank 1 for `sorted_inputs` argument")
  add("err_" + nm + "_values_rank3", fn(), [S, np.ones((2, 1, 1), np.float32)],
      "Shape must be rank 2 but is rank 3 for `values` argument")
  add("err_" + nm + "_rows", fn(), [S, np.ones((3, 2), np.float32)],
      "Leading dim_size of both tensors must match.")
add("lower_large", lower(), [np.sort(rng.standard_normal((4, 300)), axis=1).astype(np.float32),
                             rng.standard_normal((4, 500)).astype(np.float32)])

# ---- ListDiff ----
def diff(out=tf.int32):
  return lambda x, y: R.ListDiff(x=x, y=y, out_idx=out)


add("diff_basic", diff(), [I32([1, 2, 3, 4, 2, 6]), I32([2, 5, 6])])
add("diff_int64_idx", diff(tf.int64), [I64([9, 8, 7, 8]), I64([8])])
add("diff_nothing_removed", diff(), [I32([3, 1]), I32([])])
add("diff_everything_removed", diff(), [I32([3, 1, 3]), I32([1, 3])])
add("diff_empty_x", diff(), [I32([]), I32([1])])
add("diff_nan_and_zero", diff(), [np.array([np.nan, 1, -0.0, 0.0, np.inf], np.float32),
                                  np.array([np.nan, 0.0, np.inf], np.float32)])
add("diff_strings", diff(), [np.array([b"a", b"b", b"", b"a"]), np.array([b"a", b"c"])])
for dtype in REAL:
  add("diff_dtype_" + dname(dtype), diff(), [rng.integers(0, 20, 12).astype(dtype),
                                             rng.integers(0, 20, 6).astype(dtype)])
add("err_diff_x_matrix", diff(), [I32([[1]]), I32([1])], "x should be a 1D vector.")
add("err_diff_y_scalar", diff(), [I32([1]), I32(1)], "y should be a 1D vector.")


# ---- UniqueWithCounts / V2 ----
def uwc(out=tf.int32):
  return lambda x: R.UniqueWithCounts(x=x, out_idx=out)


def uwc2(out=tf.int32):
  return lambda x, a: R.UniqueWithCountsV2(x=x, axis=a, out_idx=out)


add("uwc_basic", uwc(), [I32([1, 1, 2, 4, 4, 4, 7, 8, 8])])
add("uwc_int64", uwc(tf.int64), [np.array([3.5, -1, 3.5, np.nan, np.nan], np.float32)])
add("uwc_strings", uwc(), [np.array([b"b", b"a", b"b"])])
add("uwc_bool", uwc(), [np.array([True, False, True, True])])
add("uwc_empty", uwc(), [I32([])])
add("uwc_zeros", uwc(), [np.array([0.0, -0.0, 1], np.float64)])
add("uwc2_axis0", uwc2(), [I32([[1, 0, 0], [1, 0, 0], [2, 0, 0]]), I64([0])])
add("uwc2_axis1", uwc2(tf.int64), [I32([[1, 0, 1], [1, 0, 1]]), I32([1])])
add("uwc2_axis_negative", uwc2(), [I32([[1, 0, 1], [1, 0, 1]]), I64([-1])])
add("uwc2_no_axis", uwc2(), [I32([5, 5, 1]), I64([])])
add("err_uwc_matrix", uwc(), [I32([[1]])], "unique expects a 1D vector.")
add("err_uwc2_axis_range", uwc2(), [I32([[1]]), I64([2])], "axis has to be between [0, 2)")

w.write()
