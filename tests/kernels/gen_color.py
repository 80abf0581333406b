"""Writes fixtures/color.pbtxt: RGBToHSV, HSVToRGB, AdjustContrastv2, AdjustSaturation and
AdjustHue in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_color.py (needs TensorFlow 2.x and numpy).

Every case is exact: the kernels follow TensorFlow's operations one by one, in the input's
type (half and bfloat16 RGBToHSV/HSVToRGB round after each), and AdjustContrastv2 sums each
channel in TensorFlow's folding order.
Left out: AdjustHue with a delta so large that TensorFlow's loop bringing the hue back into
[0, 6) never ends (Sluice reduces such hues with fmod instead).
Error cases record TensorFlow's code; error_substr must appear in Sluice's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("color")
BF16 = tf.bfloat16.as_numpy_dtype
FLOATS = (("f32", np.float32), ("f64", np.float64), ("f16", np.float16), ("bf16", BF16))


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


def rgb(shape):
  return rng.random(shape)


# Pixels where channels tie, are zero, negative, above one, or not finite.
SPECIAL = np.array([[0, 0, 0], [1, 1, 1], [0.5, 0.5, 0.2], [0.2, 0.5, 0.5], [0.5, 0.2, 0.5],
                    [1, 0, 0], [0, 1, 0], [0, 0, 1], [-0.5, 0.2, 0.3], [1.5, 2.0, -1.0],
                    [np.nan, 0.5, 0.2], [0.5, np.nan, 0.2], [0.5, 0.2, np.nan],
                    [np.inf, 0.5, 0.2], [-np.inf, 0.5, 0.2], [0.3, -0.0, 0.0],
                    [-0.0, 0.0, -0.0], [1e-30, 2e-30, 0], [3e38, -3e38, 0]])
HSV_SPECIAL = np.array([[0, 0, 0], [0, 1, 1], [1, 1, 1], [0.999, 0.5, 0.5], [1.5, 0.5, 0.5],
                        [-0.25, 0.5, 0.5], [0.5, -1, 0.5], [0.5, 2, 0.5], [np.nan, 0.5, 0.5],
                        [0.5, np.nan, 0.5], [0.5, 0.5, np.nan], [np.inf, 0.5, 0.5],
                        [1 / 6, 1, 1], [2 / 6, 1, 1], [3 / 6, 1, 1], [4 / 6, 1, 1],
                        [5 / 6, 1, 1], [0.5, 0.5, -1]])

# ---- RGBToHSV, HSVToRGB -------------------------------------------------------------------
for tag, dt in FLOATS:
  w.add("rgb_to_hsv_%s" % tag, lambda x: R.RGBToHSV(images=x), [rgb((4, 5, 3)).astype(dt)])
  w.add("rgb_to_hsv_%s_special" % tag, lambda x: R.RGBToHSV(images=x), [SPECIAL.astype(dt)])
  w.add("hsv_to_rgb_%s" % tag, lambda x: R.HSVToRGB(images=x), [rgb((4, 5, 3)).astype(dt)])
  w.add("hsv_to_rgb_%s_special" % tag, lambda x: R.HSVToRGB(images=x), [HSV_SPECIAL.astype(dt)])
w.add("rgb_to_hsv_f32_large", lambda x: R.RGBToHSV(images=x),
      [rng.uniform(-0.2, 1.2, (2, 23, 27, 3)).astype(np.float32)])
w.add("hsv_to_rgb_f32_large", lambda x: R.HSVToRGB(images=x),
      [rng.uniform(-0.2, 1.2, (2, 23, 27, 3)).astype(np.float32)])
w.add("rgb_to_hsv_f32_vector", lambda x: R.RGBToHSV(images=x), [np.float32([0.2, 0.7, 0.1])])
w.add("rgb_to_hsv_f32_empty", lambda x: R.RGBToHSV(images=x), [np.zeros((0, 3), np.float32)])
add_error("err_rgb_to_hsv_channels", lambda x: R.RGBToHSV(images=x),
          [np.zeros((2, 4), np.float32)], "input must have 3 channels but input only has 4 channels.")
add_error("err_hsv_to_rgb_channels", lambda x: R.HSVToRGB(images=x),
          [np.zeros((2, 0), np.float32)], "input must have 3 channels but input only has 0 channels.")
add_error("err_rgb_to_hsv_scalar", lambda x: R.RGBToHSV(images=x), [np.float32(1)],
          "input must be at least 1D")


# ---- AdjustContrastv2 ---------------------------------------------------------------------
def contrast(x, f):
  return R.AdjustContrastv2(images=x, contrast_factor=f)


for shape in ((5, 7, 3), (2, 8, 8, 3), (3, 1, 1, 2), (2, 13, 17, 5), (1, 31, 1, 1),
              (2, 2, 11, 13, 4)):
  w.add("contrast_%s" % "x".join(map(str, shape)), contrast,
        [rng.uniform(-10, 300, shape).astype(np.float32), np.float32(1.7)])
w.add("contrast_large", contrast, [rng.random((1, 40, 43, 3)).astype(np.float32),
                                   np.float32(0.6)])
for f in (0.0, -1.5, np.inf, np.nan):
  w.add("contrast_factor_%s" % f, contrast, [rng.random((2, 4, 5, 3)).astype(np.float32),
                                             np.float32(f)])
w.add("contrast_nonfinite_pixels", contrast,
      [np.array([np.nan, 1, np.inf, 2, 3, 4, 5, 6], np.float32).reshape(1, 2, 2, 2),
       np.float32(2)])
w.add("contrast_empty", contrast, [np.zeros((2, 0, 3, 3), np.float32), np.float32(2)])
add_error("err_contrast_rank2", contrast, [np.zeros((4, 3), np.float32), np.float32(2)],
          "input must be at least 3-D, got shape[4,3]")
add_error("err_contrast_factor_vector", contrast, [np.zeros((2, 4, 3), np.float32),
                                                   np.float32([2])],
          "contrast_factor must be scalar: [1]")


# ---- AdjustSaturation, AdjustHue ----------------------------------------------------------
def saturation(x, s):
  return R.AdjustSaturation(images=x, scale=s)


def hue(x, d):
  return R.AdjustHue(images=x, delta=d)


SPECIAL_IMG = SPECIAL.astype(np.float32).reshape(1, -1, 3)
for s in (0.0, 0.5, 1.0, 2.5, -1.0, np.nan, np.inf):
  w.add("saturation_%s" % s, saturation, [rgb((2, 5, 7, 3)).astype(np.float32), np.float32(s)])
  w.add("saturation_special_%s" % s, saturation, [SPECIAL_IMG, np.float32(s)])
for d in (0.0, 0.25, -0.25, 0.5, 1.0, -1.0, 0.999, 7.3, -12.6, np.nan):
  w.add("hue_%s" % d, hue, [rgb((2, 5, 7, 3)).astype(np.float32), np.float32(d)])
  w.add("hue_special_%s" % d, hue, [SPECIAL_IMG, np.float32(d)])
w.add("saturation_large", saturation, [rgb((2, 25, 27, 3)).astype(np.float32), np.float32(1.3)])
w.add("hue_large", hue, [rgb((2, 25, 27, 3)).astype(np.float32), np.float32(0.37)])
w.add("saturation_empty", saturation, [np.zeros((0, 2, 3), np.float32), np.float32(2)])
w.add("hue_empty", hue, [np.zeros((2, 0, 3), np.float32), np.float32(0.2)])
for name, op, param in (("saturation", saturation, "scale"), ("hue", hue, "delta")):
  add_error("err_%s_rank2" % name, op, [np.zeros((4, 3), np.float32), np.float32(1)],
            "input must be at least 3-D, got shape[4,3]")
  add_error("err_%s_param_vector" % name, op, [np.zeros((2, 4, 3), np.float32),
                                               np.float32([1])],
            "%s must be scalar: [1]" % param)
  add_error("err_%s_channels" % name, op, [np.zeros((2, 4, 4), np.float32), np.float32(1)],
            "input must have 3 channels but instead has 4 channels.")
  add_error("err_%s_param_before_channels" % name, op,
            [np.zeros((2, 4, 4), np.float32), np.float32([1])], "%s must be scalar: [1]" % param)

w.write()
