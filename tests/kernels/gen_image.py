"""Writes fixtures/image.pbtxt: ResizeBilinear, ResizeNearestNeighbor, SpaceToDepth and
DepthToSpace cases recorded from TensorFlow (see oracle.py).

Tolerances: SpaceToDepth, DepthToSpace and ResizeNearestNeighbor move elements, so they are
exact. ResizeBilinear repeats TensorFlow's float arithmetic step for step, and is checked
exactly too (rtol = atol = 0) so that any drift in the coordinate transform shows.
Deterministic: fixed numpy seeds.

    python3 tests/kernels/gen_image.py
"""

import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.RandomState(11)

RESIZE_DTYPES = [tf.int8, tf.uint8, tf.int16, tf.uint16, tf.int32, tf.int64, tf.float16,
                 tf.bfloat16, tf.float32, tf.float64]
# Quantized dtypes are left out: oracle.py records their outputs as plain integers.
SPACE_DEPTH_DTYPES = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.uint8,
                      tf.int16, tf.uint16, tf.int32, tf.uint32, tf.int64, tf.uint64,
                      tf.complex64, tf.complex128, tf.bool, tf.string]
# (align_corners, half_pixel_centers) combinations TensorFlow accepts.
MODES = [(False, False), (True, False), (False, True)]


def sample(dtype, shape):
  n = int(np.prod(shape))
  if dtype == tf.string:
    return np.array([("s%d" % i).encode() for i in range(n)], dtype=object).reshape(shape)
  if dtype == tf.bool:
    return (np.arange(n) % 3 == 1).reshape(shape)
  if dtype.is_complex:
    return (np.arange(n) + 1j * np.arange(n)[::-1]).astype(dtype.as_numpy_dtype).reshape(shape)
  if dtype.is_floating:
    v = rng.uniform(-10, 10, size=n)
    return v.astype(np.float32).astype(dtype.as_numpy_dtype).reshape(shape)
  lo = 0 if dtype.is_unsigned else -40
  return rng.randint(lo, 100, size=n).astype(dtype.as_numpy_dtype).reshape(shape)


def mode_name(align, half):
  return "align" if align else ("half" if half else "legacy")


def add_resize(w, op_name):
  op = getattr(R, op_name)
  short = "bilinear" if op_name == "ResizeBilinear" else "nearest"

  def rs(align, half):
    return lambda x, s: op(images=x, size=s, align_corners=align, half_pixel_centers=half)

  for dt in RESIZE_DTYPES:
    for align, half in MODES:
      w.add("%s_%s_%s_up" % (short, dt.name, mode_name(align, half)), rs(align, half),
            [sample(dt, (2, 3, 4, 2)), np.array([5, 7], np.int32)])
  for align, half in MODES:
    m = mode_name(align, half)
    x = sample(tf.float32, (1, 7, 9, 3))
    w.add("%s_f32_%s_down" % (short, m), rs(align, half), [x, np.array([3, 4], np.int32)])
    w.add("%s_f32_%s_mixed" % (short, m), rs(align, half), [x, np.array([12, 5], np.int32)])
    w.add("%s_f32_%s_to_1x1" % (short, m), rs(align, half), [x, np.array([1, 1], np.int32)])
    w.add("%s_f32_%s_from_1x1" % (short, m), rs(align, half),
          [sample(tf.float32, (2, 1, 1, 2)), np.array([3, 2], np.int32)])
    w.add("%s_f32_%s_odd_ratio" % (short, m), rs(align, half),
          [sample(tf.float32, (1, 5, 3, 1)), np.array([13, 11], np.int32)])
    w.add("%s_f32_%s_same_size" % (short, m), rs(align, half),
          [np.array([np.inf, 1, -np.inf, np.nan], np.float32).reshape(1, 2, 2, 1),
           np.array([2, 2], np.int32)])
  w.add("%s_f32_empty_batch" % short, rs(False, False),
        [np.zeros((0, 2, 2, 1), np.float32), np.array([3, 3], np.int32)])
  w.add("%s_f32_inf" % short, rs(False, True),
        [np.array([np.inf, 1, 2, 3], np.float32).reshape(1, 2, 2, 1),
         np.array([3, 3], np.int32)])
  w.add("%s_u8_half" % short, rs(False, True),
        [rng.randint(0, 255, size=(1, 6, 5, 1)).astype(np.uint8), np.array([9, 7], np.int32)])
  if short == "nearest":
    # Large enough for the parallel path; bilinear's (float output) is a unit test.
    w.add("nearest_u8_parallel", rs(False, True),
          [rng.randint(65, 91, size=(1, 40, 30, 3)).astype(np.uint8),
           np.array([110, 100], np.int32)])
  # Errors.
  x = sample(tf.float32, (1, 2, 2, 1))
  w.add("%s_align_and_half" % short, rs(True, True), [x, np.array([3, 3], np.int32)])
  w.add("%s_rank3" % short, rs(False, False), [x[0], np.array([3, 3], np.int32)])
  w.add("%s_size_three" % short, rs(False, False), [x, np.array([3, 3, 3], np.int32)])
  w.add("%s_size_matrix" % short, rs(False, False), [x, np.array([[3, 3]], np.int32)])
  w.add("%s_size_zero" % short, rs(False, False), [x, np.array([0, 3], np.int32)])
  w.add("%s_size_negative" % short, rs(False, False), [x, np.array([3, -2], np.int32)])
  w.add("%s_empty_image" % short, rs(False, False),
        [np.zeros((1, 0, 2, 1), np.float32), np.array([3, 3], np.int32)])
  w.add("%s_no_channels" % short, rs(False, False),
        [np.zeros((1, 2, 2, 0), np.float32), np.array([3, 3], np.int32)])


def add_space_depth(w):
  s2d = lambda bs: (lambda x: R.SpaceToDepth(input=x, block_size=bs))
  d2s = lambda bs: (lambda x: R.DepthToSpace(input=x, block_size=bs))
  for dt in SPACE_DEPTH_DTYPES:
    w.add("space_to_depth_%s" % dt.name, s2d(2), [sample(dt, (2, 4, 6, 3))])
    w.add("depth_to_space_%s" % dt.name, d2s(2), [sample(dt, (2, 2, 3, 8))])
  w.add("space_to_depth_f32_block3", s2d(3), [sample(tf.float32, (1, 6, 3, 2))])
  w.add("depth_to_space_f32_block3", d2s(3), [sample(tf.float32, (1, 2, 1, 18))])
  w.add("space_to_depth_f32_empty_batch", s2d(2), [np.zeros((0, 4, 4, 1), np.float32)])
  w.add("depth_to_space_f32_empty_depth", d2s(2), [np.zeros((1, 2, 2, 0), np.float32)])
  w.add("space_to_depth_u8_parallel", s2d(4),
        [rng.randint(65, 91, size=(2, 64, 64, 5)).astype(np.uint8)])
  w.add("depth_to_space_u8_parallel", d2s(2),
        [rng.randint(65, 91, size=(2, 32, 32, 20)).astype(np.uint8)])
  # Errors.
  w.add("space_to_depth_not_divisible", s2d(2), [sample(tf.float32, (1, 3, 4, 1))])
  w.add("space_to_depth_width_not_divisible", s2d(3), [sample(tf.float32, (1, 3, 4, 1))])
  w.add("space_to_depth_rank3", s2d(2), [sample(tf.float32, (4, 4, 1))])
  w.add("depth_to_space_not_divisible", d2s(2), [sample(tf.float32, (1, 2, 2, 6))])
  w.add("depth_to_space_rank5", d2s(2), [sample(tf.float32, (1, 1, 2, 2, 4))])
  w.add("space_to_depth_nchw", lambda x: R.SpaceToDepth(input=x, block_size=2,
                                                        data_format="NCHW"),
        [sample(tf.float32, (1, 1, 4, 4))])
  w.add("depth_to_space_nchw", lambda x: R.DepthToSpace(input=x, block_size=2,
                                                        data_format="NCHW"),
        [sample(tf.float32, (1, 4, 2, 2))])


def main():
  w = CaseWriter("image")
  add_resize(w, "ResizeBilinear")
  add_resize(w, "ResizeNearestNeighbor")
  add_space_depth(w)
  w.write()


if __name__ == "__main__":
  main()
