"""Writes fixtures/parsing.pbtxt: DecodeRaw in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_parsing.py (needs TensorFlow 2.x and numpy).
Bytes are reinterpreted, never computed on, so outputs are compared exactly (NaN payloads
included: the runner compares floats that are NaN on both sides as equal).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("parsing")
rng = np.random.default_rng(20261207)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0 and _quote(substr)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access


def decode(dtype, little_endian=True):
  return lambda x: R.DecodeRaw(bytes=x, out_type=dtype, little_endian=little_endian)


def blobs(shape, length):
  flat = [bytes(rng.integers(0, 256, length, dtype=np.uint8)) for _ in range(int(np.prod(shape)))]
  return np.array(flat, dtype=object).reshape(shape)


def floats_as_bytes(values, dtype):
  return np.array([np.array(values, dtype).tobytes()], dtype=object)


for dtype in [tf.float16, tf.float32, tf.float64, tf.int32, tf.uint16, tf.uint8, tf.int16,
              tf.int8, tf.int64, tf.complex64, tf.complex128, tf.bfloat16]:
  size = dtype.size
  for little in [True, False]:
    suffix = "" if little else "_big_endian"
    w.add("%s_matrix%s" % (dtype.name, suffix), decode(dtype, little), [blobs((2, 3), 4 * size)])
w.add("float32_values", decode(tf.float32),
      [floats_as_bytes([1.5, -0.0, np.inf, -np.inf, 3.4e38, 1e-45], np.float32)])
w.add("float64_big_endian_values", decode(tf.float64, False),
      [np.array([np.array([2.5, -1e300], ">f8").tobytes()], dtype=object)])
w.add("bool_bytes", decode(tf.bool), [np.array([bytes([0, 1, 2, 255])], dtype=object)])
w.add("bool_big_endian", decode(tf.bool, False), [np.array([bytes([0, 7])], dtype=object)])
w.add("scalar_input", decode(tf.int32), [np.array(bytes(range(8)), dtype=object)])
w.add("empty_strings", decode(tf.float32), [np.array([b"", b""], dtype=object)])
w.add("no_strings", decode(tf.int16), [np.zeros((0, 2), dtype=object).astype(bytes)])
expect_error("err_sizes_differ", decode(tf.uint8), [np.array([b"abcd", b"abcde"], dtype=object)],
             "DecodeRaw requires input strings to all be the same size, but element 1 has size "
             "5 != 4")
expect_error("err_not_multiple", decode(tf.float32), [np.array([b"abcde"], dtype=object)],
             "Input to DecodeRaw has length 5 that is not a multiple of 4, the size of float")
expect_error("err_not_multiple_complex", decode(tf.complex128), [blobs((1,), 8)],
             "that is not a multiple of 16, the size of complex128")

w.write()
