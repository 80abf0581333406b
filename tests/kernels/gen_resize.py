"""Writes fixtures/resize.pbtxt: ResizeBicubic and ResizeArea in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_resize.py (needs TensorFlow 2.x and numpy).
Sluice computes both as TensorFlow does, in float and in the same order, so outputs are
compared with rtol 1e-6 (a last-bit allowance, not a different algorithm). error_substr is
checked here against TensorFlow's message. No case is large enough for the kernels'
parallel path (32K output floats would make the file several times larger); each output row
is computed alone, so how the rows are split cannot change a value.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261209)
w = CaseWriter("resize")
RTOL = 1e-6
ATOL = 1e-6


def bicubic(align_corners=False, half_pixel_centers=False):
  return lambda x, size: R.ResizeBicubic(images=x, size=size, align_corners=align_corners,
                                         half_pixel_centers=half_pixel_centers)


def area(align_corners=False):
  return lambda x, size: R.ResizeArea(images=x, size=size, align_corners=align_corners)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


S = lambda h, w_: np.array([h, w_], np.int32)  # noqa: E731
IMG = rng.uniform(-10, 10, (2, 5, 7, 3)).astype(np.float32)
IMG1 = rng.uniform(0, 255, (1, 6, 4, 2)).astype(np.float32)

for op_name, make in [("bicubic", bicubic), ("area", area)]:
  variants = [("", {})] + [("_align", {"align_corners": True})]
  if op_name == "bicubic":
    variants.append(("_half", {"half_pixel_centers": True}))
  for suffix, attrs in variants:
    build = make(**attrs)
    for h, w_ in [(10, 14), (3, 4), (5, 7), (1, 1), (8, 3), (2, 13), (11, 5)]:
      w.add("%s%s_%dx%d" % (op_name, suffix, h, w_), build, [IMG, S(h, w_)], rtol=RTOL,
            atol=ATOL)
    w.add("%s%s_c2_up" % (op_name, suffix), build, [IMG1, S(13, 9)], rtol=RTOL, atol=ATOL)
    w.add("%s%s_single_pixel" % (op_name, suffix), build,
          [np.full((1, 1, 1, 4), 3.5, np.float32), S(3, 2)], rtol=RTOL, atol=ATOL)
  w.add("%s_align_single_row" % op_name, make(align_corners=True),
        [rng.standard_normal((1, 1, 5, 2)).astype(np.float32), S(3, 7)], rtol=RTOL, atol=ATOL)
  w.add("%s_align_single_column" % op_name, make(align_corners=True),
        [rng.standard_normal((1, 5, 1, 2)).astype(np.float32), S(7, 4)], rtol=RTOL, atol=ATOL)
  default = make()
  for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
                np.int64]:
    name = "bf16" if dtype is BF16 else np.dtype(dtype).name
    w.add("%s_dtype_%s" % (op_name, name), default,
          [rng.integers(0, 100, (1, 4, 5, 2)).astype(dtype), S(7, 3)], rtol=RTOL, atol=ATOL)
  w.add("%s_empty_batch" % op_name, default, [np.zeros((0, 4, 4, 1), np.float32), S(2, 2)])
  w.add("%s_nan_inf" % op_name, default,
        [np.array([[[[1.0], [np.nan]], [[np.inf], [2.0]]]], np.float32), S(3, 3)])
  add_error("%s_err_rank3" % op_name, default, [np.zeros((4, 4, 1), np.float32), S(2, 2)],
            "input must be 4-dimensional")
  add_error("%s_err_no_channels" % op_name, default, [np.zeros((1, 4, 4, 0), np.float32),
                                                      S(2, 2)],
            "image must have at least one channel")
  add_error("%s_err_empty_image" % op_name, default, [np.zeros((1, 0, 4, 1), np.float32),
                                                      S(2, 2)],
            "input image must be of non-zero size")
  add_error("%s_err_size_rank" % op_name, default, [IMG, np.array([[2, 2]], np.int32)],
            "shape_t must be 1-D")
  add_error("%s_err_size_three" % op_name, default, [IMG, np.array([2, 2, 2], np.int32)],
            "shape_t must have two elements")
  add_error("%s_err_size_zero" % op_name, default, [IMG, S(0, 2)],
            "output dimensions must be positive")
add_error("bicubic_err_both_modes", bicubic(True, True), [IMG, S(3, 3)],
          "If half_pixel_centers is True, align_corners must be False.")

w.write()
