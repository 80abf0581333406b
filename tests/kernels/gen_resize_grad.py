"""Writes fixtures/resize_grad.pbtxt: ResizeBilinearGrad, ResizeBicubicGrad and
ResizeNearestNeighborGrad in TensorFlow, replayed by
//kernels/cpu/image:resize_grad_conformance_test.

Run from anywhere: python3 tests/kernels/gen_resize_grad.py (needs TensorFlow 2.x and numpy).
Sluice adds every term in TensorFlow's order with its arithmetic, so every case is exact
(rtol 0), every registered dtype: ResizeBilinearGrad half, bfloat16, float, double;
ResizeBicubicGrad float, double; ResizeNearestNeighborGrad uint8, int8, int32 (wrapping
sums), half, bfloat16, float, double. Covered: upsampling (Keras's UpSampling2D, factors 2 and
3), downsampling, odd sizes, size 1 either way, align_corners, half_pixel_centers (and, for the
nearest gradient, both, which TensorFlow accepts there), batches, channels 1 and 5, NaN and
infinities, empty batches and channels, and every error of TensorFlow's checks (each
error_substr is checked here against TensorFlow's message).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20260714)
w = CaseWriter("resize_grad")


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  message = w._cases[-1].split("error_message: ")[1].split("\n")[0]  # pylint: disable=protected-access
  assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message differs: " + message


def normal(shape, dtype=np.float32):
  return rng.standard_normal(shape).astype(dtype)


def bilinear(align=False, half=False):
  return lambda g, img: R.ResizeBilinearGrad(grads=g, original_image=img, align_corners=align,
                                             half_pixel_centers=half)


def bicubic(align=False, half=False):
  return lambda g, img: R.ResizeBicubicGrad(grads=g, original_image=img, align_corners=align,
                                            half_pixel_centers=half)


def nearest(align=False, half=False):
  return lambda g, s: R.ResizeNearestNeighborGrad(grads=g, size=s, align_corners=align,
                                                  half_pixel_centers=half)


MODES = [("legacy", False, False), ("align", True, False), ("half", False, True)]
# (name, resized [b, h, w, c], original [h, w])
GEOMETRIES = [
    ("up2", (2, 8, 10, 3), (4, 5)),
    ("up3", (1, 9, 6, 2), (3, 2)),
    ("down", (1, 3, 4, 5), (7, 9)),
    ("odd", (2, 5, 7, 1), (3, 4)),
    ("same", (1, 4, 4, 2), (4, 4)),
    ("to_one", (1, 1, 1, 2), (3, 5)),
    ("from_one", (1, 4, 3, 2), (1, 1)),
]

I = lambda *v: np.array(v, np.int32)  # noqa: E731

# ---- ResizeBilinearGrad and ResizeBicubicGrad ---------------------------------------------
for op, build, dtypes in [("bilinear", bilinear, [np.float32, np.float64, np.float16, BF16]),
                          ("bicubic", bicubic, [np.float32, np.float64])]:
  for geo, resized, original in GEOMETRIES:
    for mode, align, half in MODES:
      img = np.zeros((resized[0],) + original + (resized[3],), np.float32)
      w.add("%s_%s_%s" % (op, geo, mode), build(align, half), [normal(resized), img])
  for dt in dtypes:
    name = "bf16" if dt is BF16 else np.dtype(dt).name
    for mode, align, half in MODES:
      w.add("%s_dtype_%s_%s" % (op, name, mode), build(align, half),
            [normal((2, 6, 8, 3)), np.zeros((2, 3, 5, 3), dt)])
  nan = normal((1, 4, 4, 2))
  nan[0, 1, 2, 0] = np.nan
  nan[0, 3, 0, 1] = np.inf
  nan[0, 0, 0, 1] = -np.inf
  w.add(op + "_nan_inf", build(), [nan, np.zeros((1, 2, 2, 2), np.float32)])
  w.add(op + "_empty_batch", build(), [np.zeros((0, 4, 4, 2), np.float32),
                                       np.zeros((0, 2, 2, 2), np.float32)])
  w.add(op + "_no_channels", build(half=True), [np.zeros((1, 4, 4, 0), np.float32),
                                                np.zeros((1, 2, 2, 0), np.float32)])
  # The output takes batch and channels from grads, the original image only its rows and
  # columns.
  w.add(op + "_image_batch_ignored", build(), [normal((2, 4, 4, 3)),
                                               np.zeros((1, 2, 3, 7), np.float32)])
  G = normal((1, 4, 4, 2))
  IMG = np.zeros((1, 2, 2, 2), np.float32)
  add_error(op + "_err_both_modes", build(True, True), [G, IMG],
            "If half_pixel_centers is True, align_corners must be False.")
  add_error(op + "_err_grads_rank", build(), [normal((4, 4, 2)), IMG],
            "input_grad must be 4-dimensional[4,4,2]")
  add_error(op + "_err_resized_zero", build(), [np.zeros((1, 0, 4, 2), np.float32), IMG],
            "resized dimensions must be positive")
  add_error(op + "_err_image_rank", build(), [G, np.zeros((2, 2, 2), np.float32)],
            "original_image must be 4-dimensional[2,2,2]")
  add_error(op + "_err_original_zero", build(), [G, np.zeros((1, 2, 0, 2), np.float32)],
            "original dimensions must be positive")

# ---- ResizeNearestNeighborGrad --------------------------------------------------------------
NN_MODES = MODES + [("both", True, True)]
for geo, resized, original in GEOMETRIES:
  for mode, align, half in NN_MODES:
    w.add("nearest_%s_%s" % (geo, mode), nearest(align, half),
          [normal(resized), I(*original)])
for dt in [np.float64, np.float16, BF16]:
  name = "bf16" if dt is BF16 else np.dtype(dt).name
  for mode, align, half in MODES:
    w.add("nearest_dtype_%s_%s" % (name, mode), nearest(align, half),
          [normal((2, 6, 8, 3), dt), I(3, 5)])
for dt in [np.int32, np.int8, np.uint8]:
  info = np.iinfo(dt)
  for mode, align, half in MODES:
    w.add("nearest_dtype_%s_%s" % (np.dtype(dt).name, mode), nearest(align, half),
          [rng.integers(info.min, int(info.max) + 1, (2, 6, 8, 3)).astype(dt), I(3, 5)])
# Sums that wrap around.
w.add("nearest_int32_wraps", nearest(), [np.full((1, 4, 4, 1), 2**30 + 7, np.int32), I(1, 1)])
w.add("nearest_int8_wraps", nearest(), [np.full((1, 4, 4, 1), 100, np.int8), I(2, 2)])
w.add("nearest_channels_17", nearest(), [normal((1, 6, 6, 17)), I(3, 3)])
nan = normal((1, 4, 4, 2))
nan[0, 1, 2, 0] = np.nan
nan[0, 3, 0, 1] = np.inf
w.add("nearest_nan_inf", nearest(), [nan, I(2, 2)])
w.add("nearest_empty_batch", nearest(), [np.zeros((0, 4, 4, 2), np.float32), I(2, 2)])
w.add("nearest_empty_grads_rows", nearest(), [np.zeros((1, 0, 4, 2), np.float32), I(2, 2)])
w.add("nearest_empty_grads_rows_align", nearest(align=True),
      [np.zeros((1, 0, 4, 2), np.float32), I(2, 2)])
G = normal((1, 4, 4, 2))
add_error("nearest_err_grads_rank", nearest(), [normal((4, 4, 2)), I(2, 2)],
          "input must be 4-dimensional[4,4,2]")
add_error("nearest_err_size_rank", nearest(), [G, I(2, 2).reshape(1, 2)],
          "shape_t must be 1-dimensional[1,2]")
add_error("nearest_err_size_three", nearest(), [G, I(2, 2, 2)], "shape_t must have two elements[3]")
add_error("nearest_err_size_zero", nearest(), [G, I(0, 2)], "shape_t's elements must be positive")
add_error("nearest_err_size_negative", nearest(), [G, I(2, -1)],
          "shape_t's elements must be positive")

w.write()
