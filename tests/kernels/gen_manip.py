"""Writes fixtures/manip.pbtxt: InvertPermutation, UnravelIndex, Bitcast and Empty in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_manip.py (needs TensorFlow 2.x and numpy). Every
output is exact (integer arithmetic or moved bytes). error_substr is checked here against
TensorFlow's message. Empty is recorded with init=true or with no elements only: without
init its contents are whatever the memory held, in TensorFlow as in Sluice.
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
w = CaseWriter("manip")
I32 = lambda v: np.array(v, np.int32)  # noqa: E731
I64 = lambda v: np.array(v, np.int64)  # noqa: E731


def add(name, build, inputs, substr=None):
  code = w.add(name, build, inputs, error_substr=substr)
  if substr is not None:
    assert code != 0, name + ": TensorFlow did not fail"
    assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access
  else:
    assert code == 0, name + ": TensorFlow failed"


# ---- InvertPermutation ----
inv = lambda x: R.InvertPermutation(x=x)  # noqa: E731
add("inv_int32", inv, [I32([3, 4, 0, 2, 1])])
add("inv_int64", inv, [I64(rng.permutation(50))])
add("inv_identity", inv, [I32([0, 1, 2])])
add("inv_empty", inv, [I32([])])
add("err_inv_scalar", inv, [I32(0)], "invert_permutation expects a 1D vector.")
add("err_inv_matrix", inv, [I32([[0, 1]])], "invert_permutation expects a 1D vector.")
add("err_inv_high", inv, [I32([0, 3, 1])], "3 is not between 0 and 3")
add("err_inv_negative", inv, [I64([0, -1, 1])], "-1 is not between 0 and 3")
add("err_inv_duplicate", inv, [I32([2, 0, 1, 1, 5])], "1 is duplicated in the input.")
add("err_inv_range_before_duplicate", inv, [I32([5, 0, 0])], "5 is not between 0 and 3")

# ---- UnravelIndex ----
unr = lambda i, d: R.UnravelIndex(indices=i, dims=d)  # noqa: E731
add("unravel_vector", unr, [I32([22, 41, 37, 0]), I32([7, 6])])
add("unravel_scalar", unr, [I32(1621), I32([6, 7, 8, 9])])
add("unravel_int64", unr, [I64([1621, 3023]), I64([6, 7, 8, 9])])
add("unravel_big_int64", unr, [I64([2**40 + 5]), I64([2**20, 2**21])])
add("unravel_one_dim", unr, [I32([3, 4]), I32([5])])
add("unravel_no_dims", unr, [I32([0]), I32([])])
add("unravel_negative_index", unr, [I32([-1, -7]), I32([3, 4])])
add("err_unravel_indices_matrix", unr, [I32([[1]]), I32([3])],
    "The indices can only be scalar or vector, got \"[1,1]\"")
add("err_unravel_indices_empty", unr, [I32([]), I32(3)], "received empty tensor indices")
add("err_unravel_dims_scalar", unr, [I32([1]), I32(3)], "The indices can only be 1-D, got \"[]\"")
add("err_unravel_dim_zero", unr, [I32([0]), I32([3, 0])],
    "Input dims cannot contain a dim of zero, but dims contains zero at index 1")
add("err_unravel_dim_negative", unr, [I32([0]), I32([3, -2])],
    "Input dims cannot be negative. Got dim = -2 at index 1")
add("err_unravel_overflow_int32", unr, [I32([1]), I32([2**16, 2**16])],
    "Input dims product is causing integer overflow: (65536 65536)")
add("err_unravel_overflow_int64", unr, [I64([1]), I64([2**32, 2**32])],
    "Input dims product is causing integer overflow")
add("err_unravel_out_of_bound", unr, [I32([5, 12]), I32([3, 4])],
    "index is out of bound as with dims")

# ---- Bitcast ----
def bitcast(to):
  return lambda x: R.Bitcast(input=x, type=to)


add("bitcast_same_size", bitcast(tf.int32), [np.array([1.5, -0.0, np.nan], np.float32)])
add("bitcast_narrower", bitcast(tf.uint8), [I32([[1, -2]])])
add("bitcast_wider", bitcast(tf.int32), [np.arange(8, dtype=np.uint8).reshape(2, 4)])
add("bitcast_wider_to_scalar", bitcast(tf.float64), [np.arange(4, dtype=np.int16)])
add("bitcast_complex_to_float", bitcast(tf.float32), [np.array([1 + 2j, 3 - 4j], np.complex64)])
add("bitcast_float_to_complex128", bitcast(tf.complex128),
    [np.arange(8, dtype=np.float64).reshape(4, 2)])
add("bitcast_half_to_bf16", bitcast(tf.bfloat16), [np.array([1, -2, np.inf], np.float16)])
add("bitcast_scalar", bitcast(tf.uint32), [np.float32(1)])
add("bitcast_empty", bitcast(tf.uint8), [np.zeros((0, 3), np.float32)])
add("bitcast_to_qint8", bitcast(tf.qint8), [np.array([1, -1, 7], np.int8)])
add("bitcast_uint64_to_int16", bitcast(tf.int16), [np.array([2**63 + 5], np.uint64)])
add("err_bitcast_last_dim", bitcast(tf.int32), [np.zeros((2, 3), np.uint8)],
    "Cannot bitcast from 4 to 3")
add("err_bitcast_scalar_to_wider", bitcast(tf.int16), [np.uint8(1)], "Cannot bitcast from 4 to 5")

# ---- Empty ----
def empty(dtype, init=True):
  return lambda s: R.Empty(shape=s, dtype=dtype, init=init)


for dtype in [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.uint8, tf.int16,
              tf.uint16, tf.int32, tf.int64, tf.uint32, tf.uint64, tf.complex64, tf.complex128,
              tf.bool, tf.string]:
  add("empty_" + dtype.name, empty(dtype), [I32([2, 3])])
add("empty_scalar_shape", empty(tf.float32), [I32([])])
add("empty_no_elements", empty(tf.float32, init=False), [I32([0, 3])])
add("empty_strings_no_init", empty(tf.string, init=False), [I32([2])])
add("err_empty_shape_scalar", empty(tf.float32), [I32(2)],
    "shape must be a vector of int32, got shape []")
add("err_empty_shape_matrix", empty(tf.float32), [I32([[2]])],
    "shape must be a vector of int32, got shape [1,1]")
add("err_empty_negative", empty(tf.float32), [I32([2, -3])], "Dimension -3 must be >= 0")

w.write()
