"""Writes fixtures/histogram_fixed_width.pbtxt: HistogramFixedWidth in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_histogram_fixed_width.py (needs TensorFlow 2.x
and numpy). Counts are exact: the bins come from the same double arithmetic as TensorFlow's.
error_substr is checked here against TensorFlow's message.

Left out: int64 ranges so narrow next to their magnitude that the step rounds to zero
(TensorFlow's bin index is then a cast of NaN and writes out of bounds); Sluice counts such
values in bin 0.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("histogram_fixed_width")


def hist(dtype=tf.int32):
  return lambda v, r, n: R.HistogramFixedWidth(values=v, value_range=r, nbins=n, dtype=dtype)


def add(name, build, inputs, substr=None):
  code = w.add(name, build, inputs, error_substr=substr)
  if substr is not None:
    assert code != 0, name + ": TensorFlow did not fail"
    assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access
  else:
    assert code == 0, name + ": TensorFlow failed"


F = np.float32
N = lambda n: np.int32(n)  # noqa: E731
add("basic", hist(), [np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], F), np.array([0, 5], F), N(5)])
add("int64_out", hist(tf.int64), [np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], F),
                                  np.array([0, 5], F), N(5)])
add("edges", hist(), [np.array([0.1, 0.2, 0.3, 0.7, 0.9, 1.0], F), np.array([0.1, 1.0], F),
                      N(9)])
add("inf", hist(), [np.array([np.inf, -np.inf, 2], F), np.array([0, 5], F), N(5)])
add("scalar_values", hist(), [F(1), np.array([0, 5], F), N(5)])
add("matrix_values", hist(), [rng.uniform(-1, 6, (7, 9)).astype(F), np.array([0, 5], F), N(6)])
add("empty_values", hist(), [np.zeros((0,), F), np.array([0, 5], F), N(3)])
add("one_bin", hist(), [np.array([1, 2, 3], F), np.array([0, 5], F), N(1)])
add("many_values", hist(), [rng.standard_normal(5000).astype(F), np.array([-2, 2], F),
                            N(100)])
add("float64", hist(tf.int64), [rng.uniform(-1, 11, 300), np.array([0.0, 10.0]), N(7)])
add("int32", hist(), [rng.integers(-5, 40, 200).astype(np.int32), np.array([0, 30], np.int32),
                      N(7)])
add("int32_full_range", hist(), [np.array([2**31 - 1, 0, -2**31], np.int32),
                                 np.array([-2**31 + 1, 2**31 - 2], np.int32), N(4)])
add("int64", hist(tf.int64), [rng.integers(-10**12, 10**12, 100).astype(np.int64),
                              np.array([-10**12, 10**12], np.int64), N(13)])
add("err_range_matrix", hist(), [np.array([1], F), np.array([[0, 5]], F), N(5)],
    "value_range should be a vector.")
add("err_range_three", hist(), [np.array([1], F), np.array([0, 5, 6], F), N(5)],
    "value_range should be a vector of 2 elements.")
add("err_nbins_vector", hist(), [np.array([1], F), np.array([0, 5], F), np.array([2], np.int32)],
    "nbins should be a scalar.")
add("err_range_equal", hist(), [np.array([1], F), np.array([5, 5], F), N(5)],
    "value_range should satisfy value_range[0] < value_range[1], but got '[5, 5]'")
add("err_range_nan", hist(), [np.array([1], F), np.array([0, np.nan], F), N(2)],
    "value_range should satisfy value_range[0] < value_range[1]")
add("err_nbins_zero", hist(), [np.array([1], F), np.array([0, 5], F), N(0)],
    "nbins should be a positive number, but got '0'")
add("err_nan_values", hist(), [np.array([np.nan, 1], F), np.array([0, 5], F), N(5)],
    "Histogram values must not contain NaN")

w.write()
