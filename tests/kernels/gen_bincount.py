"""Writes fixtures/bincount.pbtxt: Bincount and DenseBincount in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_bincount.py (needs TensorFlow 2.x and numpy).

Integer outputs are exact; float sums rtol 1e-6 and double 1e-12 (TensorFlow may add
per-thread partial sums in another order). error_substr is checked here against
TensorFlow's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("bincount")

TOL = {np.float32: dict(rtol=1e-6), np.float64: dict(rtol=1e-12)}
WEIGHT_TYPES = [np.int32, np.int64, np.float32, np.float64]


def bincount(arr, size, weights):
  return R.Bincount(arr=arr, size=size, weights=weights)


def dense(binary=False):
  return lambda x, size, weights: R.DenseBincount(input=x, size=size, weights=weights,
                                                  binary_output=binary)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


def i32(v):
  return np.array(v, np.int32)


ARR = rng.integers(0, 8, 40).astype(np.int32)
for t in WEIGHT_TYPES:
  name = np.dtype(t).name
  weights = rng.integers(-3, 10, 40).astype(t) if t in (np.int32, np.int64) else (
      rng.uniform(-1, 2, 40).astype(t))
  w.add("bincount_counts_" + name, bincount, [ARR, i32(8), np.zeros(0, t)], **TOL.get(t, {}))
  w.add("bincount_weights_" + name, bincount, [ARR, i32(10), weights], **TOL.get(t, {}))
  w.add("bincount_drops_large_" + name, bincount, [ARR, i32(5), weights], **TOL.get(t, {}))
w.add("bincount_matrix_arr", bincount, [ARR.reshape(5, 8), i32(8), np.zeros(0, np.float32)])
w.add("bincount_weights_other_shape", bincount,
      [i32([1, 1, 3, 7]), i32(5), np.array([[1, 2], [3, 4]], np.float32)], rtol=1e-6)
w.add("bincount_size_zero", bincount, [ARR, i32(0), np.zeros(0, np.int32)])
w.add("bincount_empty_arr", bincount, [i32([]), i32(3), np.zeros(0, np.int64)])
w.add("bincount_scalar_arr", bincount, [i32(2), i32(3), np.zeros(0, np.int32)])
w.add("bincount_large", bincount,
      [rng.integers(0, 100, 3000).astype(np.int32), i32(90), np.zeros(0, np.int64)])
add_error("err_bincount_negative", bincount, [i32([1, -1]), i32(5), np.zeros(0, np.float32)],
          "Input arr must be non-negative!")
add_error("err_bincount_size_negative", bincount, [i32([1]), i32(-1), np.zeros(0, np.int32)],
          "size (-1) must be non-negative")
add_error("err_bincount_size_vector", bincount, [i32([1]), i32([3]), np.zeros(0, np.int32)],
          "Shape must be rank 0 but is rank 1")
add_error("err_bincount_weights_size", bincount,
          [i32([1, 2]), i32(3), np.array([1, 2, 3], np.float32)],
          "Input indices and weights must have the same size.")
add_error("err_bincount_negative_before_weights", bincount,
          [i32([1, -2]), i32(3), np.array([1, 2, 3], np.float32)],
          "Input arr must be non-negative!")

for tidx in (np.int32, np.int64):
  tn = np.dtype(tidx).name
  x1 = rng.integers(0, 7, 30).astype(tidx)
  x2 = rng.integers(0, 7, (4, 9)).astype(tidx)
  size = np.array(6, tidx)
  for t in WEIGHT_TYPES:
    name = "%s_%s" % (tn, np.dtype(t).name)
    w1 = rng.uniform(0, 3, 30).astype(t)
    w2 = rng.uniform(0, 3, (4, 9)).astype(t)
    w.add("dense_vec_" + name, dense(), [x1, size, np.zeros(0, t)], **TOL.get(t, {}))
    w.add("dense_vec_weights_" + name, dense(), [x1, size, w1], **TOL.get(t, {}))
    w.add("dense_rows_" + name, dense(), [x2, size, np.zeros(0, t)], **TOL.get(t, {}))
    w.add("dense_rows_weights_" + name, dense(), [x2, size, w2], **TOL.get(t, {}))
    w.add("dense_rows_binary_" + name, dense(True), [x2, size, w2], **TOL.get(t, {}))
  w.add("dense_vec_binary_" + tn, dense(True), [x1, size, np.zeros(0, np.float32)])
w.add("dense_scalar", dense(), [i32(3), i32(5), np.zeros(0, np.float32)])
w.add("dense_scalar_weight", dense(), [i32(3), i32(5), np.float32(2.5)], rtol=1e-6)
w.add("dense_no_rows", dense(), [np.zeros((0, 3), np.int32), i32(5), np.zeros(0, np.float32)])
w.add("dense_empty_rows", dense(), [np.zeros((2, 0), np.int32), i32(5), np.zeros(0, np.int32)])
add_error("err_dense_rank3", dense(), [np.zeros((1, 1, 1), np.int32), i32([5]),
                                       np.zeros(0, np.float32)],
          "Shape must be at most rank 2 but is rank 3")
add_error("err_dense_size_vector", dense(), [i32([1]), i32([5]), np.zeros(0, np.float32)],
          "Shape must be rank 0 but is rank 1")
add_error("err_dense_weights_shape", dense(), [i32([1]), i32(-1), np.ones(2, np.float32)],
          "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it "
          "acts as all weights equal to 1. Received [2]")
add_error("err_dense_size_negative", dense(), [i32([-1]), i32(-1), np.zeros(0, np.float32)],
          "size (-1) must be non-negative")
add_error("err_dense_negative_vector", dense(), [i32([1, -1]), i32(5), np.zeros(0, np.float32)],
          "Input arr must be non-negative!")
add_error("err_dense_negative_rows", dense(),
          [i32([[1, 2], [0, -3]]), i32(5), np.zeros(0, np.float32)],
          "Input 'in' must be non-negative! Negative input value found: -3")

w.write()
