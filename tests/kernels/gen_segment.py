"""Writes fixtures/segment.pbtxt: segment reduction cases recorded from TensorFlow (see
oracle.py): UnsortedSegmentSum/Prod/Max/Min.

Every case is exact (rtol = atol = 0). TensorFlow's unsorted CPU kernels fold the rows of a
segment into its output row one at a time in input order, starting from the identity, and
Sluice's do the same, so float sums and products round identically; the large random cases
(many rows per segment, half and bfloat16 too) check it. Deterministic: fixed numpy seed.

    python3 tests/kernels/gen_segment.py
"""

import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.RandomState(5)

REAL = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.uint8, tf.int16,
        tf.uint16, tf.int32, tf.uint32, tf.int64, tf.uint64]
NUMBER = REAL + [tf.complex64, tf.complex128]
FLOATS = [tf.float32, tf.float64, tf.float16, tf.bfloat16]


def sample(dtype, shape, offset=0):
  n = int(np.prod(shape))
  if dtype.is_complex:
    v = (np.arange(n) % 5 - 2) + 1j * ((np.arange(n)[::-1] + offset) % 3 - 1)
    return v.astype(dtype.as_numpy_dtype).reshape(shape)
  if dtype.is_floating:
    v = ((np.arange(n) * 7 + offset) % 11 - 5) * 0.75
    return v.astype(np.float32).astype(dtype.as_numpy_dtype).reshape(shape)
  lo = 0 if dtype.is_unsigned else -3
  return ((np.arange(n) * 7 + offset) % 9 + lo).astype(dtype.as_numpy_dtype).reshape(shape)


def randn(dtype, shape, scale=1.0):
  return (rng.randn(*shape) * scale).astype(np.float32).astype(dtype.as_numpy_dtype)


def i32(*v):
  return np.array(v, np.int32)


def unsorted(op):
  fn = getattr(R, op)
  return lambda d, s, n: fn(data=d, segment_ids=s, num_segments=n)


def add_unsorted(w):
  ids = i32(0, 2, -1, 0, 2, 2)  # segment 1 and 3 empty, row 2 dropped
  ops = [("UnsortedSegmentSum", NUMBER), ("UnsortedSegmentProd", NUMBER),
         ("UnsortedSegmentMax", REAL), ("UnsortedSegmentMin", REAL)]
  for op, dtypes in ops:
    short = "u" + op[len("UnsortedSegment"):].lower()
    f = unsorted(op)
    for dt in dtypes:
      w.add("%s_%s" % (short, dt.name), f, [sample(dt, (6, 2)), ids, np.int32(4)])
    w.add("%s_f32_ids_int64_num_int64" % short, f,
          [sample(tf.float32, (6, 3)), ids.astype(np.int64), np.int64(3)])
    w.add("%s_f32_ids_matrix" % short, f,
          [sample(tf.float32, (2, 3, 2)), i32(1, 0, 1, -1, 1, 0).reshape(2, 3), np.int32(2)])
    w.add("%s_f32_ids_full_shape" % short, f,
          [sample(tf.float32, (2, 3)), i32(1, 0, 1, 2, 1, 0).reshape(2, 3), np.int32(3)])
    w.add("%s_f32_ids_scalar" % short, f, [sample(tf.float32, (3,)), np.int32(1), np.int32(2)])
    w.add("%s_f32_no_segments" % short, f,
          [sample(tf.float32, (3, 2)), i32(-1, -1, -1), np.int32(0)])
    w.add("%s_f32_empty_data" % short, f,
          [np.zeros((0, 2), np.float32), np.zeros((0,), np.int32), np.int32(3)])
    w.add("%s_f32_empty_inner_bad_ids" % short, f,
          [np.zeros((3, 0), np.float32), i32(0, 9, 1), np.int32(2)])
    w.add("%s_f32_nan_inf" % short, f,
          [np.float32([np.nan, 1, 2, np.nan, np.inf, -np.inf, 3, -0.0, 0.0]),
           i32(0, 0, 1, 1, 2, 2, 3, 4, 4), np.int32(5)])
    w.add("%s_f32_nan_inf_rows" % short, f,
          [np.float32([[np.nan, 1], [2, np.nan], [np.inf, -np.inf], [3, 4]]), i32(0, 0, 1, 1),
           np.int32(2)])
    for dt in FLOATS:
      w.add("%s_%s_large" % (short, dt.name), f,
            [randn(dt, (300, 2), 1.0 if op.endswith("Prod") else 10.0),
             rng.randint(-1, 9, size=300).astype(np.int32), np.int32(9)])
    # Errors.
    w.add("%s_id_too_large" % short, f, [sample(tf.float32, (3, 2)), i32(0, 4, 1), np.int32(4)],
          error_substr="segment_ids[1] = 4 is out of range [0, 4)")
    w.add("%s_ids_shape_mismatch" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1),
                                               np.int32(2)])
    w.add("%s_num_segments_vector" % short, f, [sample(tf.float32, (3,)), i32(0, 1, 0), i32(2)])
    w.add("%s_num_segments_negative" % short, f, [sample(tf.float32, (3,)), i32(0, 1, 0),
                                                  np.int32(-2)])
  s = unsorted("UnsortedSegmentSum")
  for it in (np.int16, np.int32, np.int64):
    w.add("usum_f32_ids_%s" % np.dtype(it).name, s,
          [sample(tf.float32, (5,)), np.array([3, 0, 3, -2, 1], it), np.int64(4)])
  # TensorFlow casts num_segments to the ids' type: 65538 is 2 for int16 ids.
  w.add("usum_int16_ids_num_segments_wraps", s,
        [sample(tf.float32, (3,)), np.array([1, 0, 1], np.int16), np.int32(65538)])
  w.add("usum_i32_wraps", s, [np.int32([2**31 - 1, 1, 5]), i32(0, 0, 1), np.int32(2)])
  w.add("usum_f32_large_wide", s,
        [randn(tf.float32, (200, 8), 100.0), rng.randint(0, 5, size=200).astype(np.int64),
         np.int32(5)])


def main():
  w = CaseWriter("segment")
  add_unsorted(w)
  w.write()


if __name__ == "__main__":
  main()
