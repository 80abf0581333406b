"""Writes fixtures/bucketize.pbtxt: Bucketize in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_bucketize.py (needs TensorFlow 2.x and numpy).
Outputs are int32 bucket indices, compared exactly. error_substr is checked here against
TensorFlow's message. No case reaches the parallel path (32K elements would make the file
megabytes); each element is computed alone, so the split cannot change a value.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261208)
w = CaseWriter("bucketize")


def bucketize(boundaries):
  return lambda x: R.Bucketize(input=x, boundaries=boundaries)


B = [-1.5, 0.0, 0.5, 2.0, 10.0]
XF = np.array([-3, -1.5, -1.4999, 0, 0.25, 0.5, 1.9999, 2, 9.9, 10, 11, np.inf, -np.inf,
               np.nan], np.float32)
w.add("float", bucketize(B), [XF])
w.add("double", bucketize(B), [XF.astype(np.float64)])
w.add("int32", bucketize(B), [np.array([-5, -2, -1, 0, 1, 2, 3, 9, 10, 11], np.int32)])
w.add("int64", bucketize(B), [np.array([-5, -2, -1, 0, 1, 2, 3, 9, 10, 11], np.int64)])
w.add("matrix", bucketize(B), [rng.uniform(-3, 12, (4, 5)).astype(np.float32)])
w.add("scalar", bucketize(B), [np.float32(0.7)])
w.add("empty", bucketize(B), [np.zeros((0, 3), np.float32)])
w.add("no_boundaries", bucketize([]), [np.array([1, 2, 3], np.float32)])
w.add("repeated_boundaries", bucketize([0.0, 1.0, 1.0, 1.0, 2.0]),
      [np.array([0.5, 1.0, 1.5, 2.0], np.float32)])
# Values that round to a boundary: a float boundary against a double value, int64 values
# beyond float's 24-bit mantissa, and one of float's 0.1.
w.add("double_near_float_boundary", bucketize([0.1]),
      [np.array([0.1, np.float32(0.1), np.nextafter(np.float64(np.float32(0.1)), 0)],
                np.float64)])
w.add("int64_beyond_float", bucketize([16777216.0]),
      [np.array([16777215, 16777216, 16777217, 16777218], np.int64)])
w.add("int32_beyond_float", bucketize([16777216.0, 2147483648.0]),
      [np.array([16777217, 2147483647, -2147483648], np.int32)])
w.add("many_boundaries", bucketize([float(b) for b in range(-50, 50, 3)]),
      [rng.integers(-60, 60, 200).astype(np.int32)])

code = w.add("err_unsorted", bucketize([1.0, 0.0]), [np.array([1], np.float32)],
             error_substr="Expected sorted boundaries")
assert code != 0 and _quote("Expected sorted boundaries")[1:-1] in w._cases[-1]  # pylint: disable=protected-access

w.write()
