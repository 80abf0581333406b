"""Writes fixtures/scale_translate.pbtxt: ScaleAndTranslate in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_scale_translate.py (needs TensorFlow 2.x and
numpy). Sluice computes the spans and sums as TensorFlow does, in float and in the same order,
so outputs are compared with rtol 1e-6 (a last-bit allowance, not a different algorithm; with
TensorFlow 2.21 on x86-64 every case matched bit for bit).
error_substr is checked here against TensorFlow's message.

Left out: a kernel reach past 2^30 pixels (lanczos3 with a scale near 2e-9 and antialias),
where TensorFlow aborts on a negative temp shape; Sluice's INVALID_ARGUMENT there is checked
in kernels/cpu/image/scale_and_translate_op_test.cc.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261211)
w = CaseWriter("scale_translate")
TOL = {"rtol": 1e-6, "atol": 1e-6}
KERNELS = ["lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic",
           "mitchellcubic"]


def st(kernel_type="lanczos3", antialias=True):
  return lambda x, size, scale, translation: R.ScaleAndTranslate(
      images=x, size=size, scale=scale, translation=translation, kernel_type=kernel_type,
      antialias=antialias)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  message = w._cases[-1].split("error_message: ")[1].split("\n")[0]  # pylint: disable=protected-access
  assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message differs"


S = lambda h, w_: np.array([h, w_], np.int32)  # noqa: E731
F = lambda a, b: np.array([a, b], np.float32)  # noqa: E731
ZERO = F(0, 0)
IMG = rng.uniform(-10, 10, (1, 7, 8, 2)).astype(np.float32)
SMALL = rng.uniform(-10, 10, (1, 3, 4, 1)).astype(np.float32)

# Every kernel, with and without antialias: up, down, mixed, translated.
for kernel in KERNELS:
  for antialias in [True, False]:
    build = st(kernel, antialias)
    tag = "%s_%s" % (kernel, "aa" if antialias else "noaa")
    w.add(tag + "_up", build, [IMG, S(11, 12), F(11 / 7, 1.5), ZERO], **TOL)
    w.add(tag + "_down", build, [IMG, S(3, 3), F(3 / 7, 3 / 8), ZERO], **TOL)
    w.add(tag + "_mixed", build, [IMG, S(4, 13), F(4 / 7, 13 / 8), ZERO], **TOL)
    w.add(tag + "_translated", build, [IMG, S(8, 6), F(1.3, 0.7), F(-1.25, 2.5)], **TOL)

# Keras's Resizing (scale = out / in, no translation, no antialias).
for kernel in ["lanczos3", "lanczos5"]:
  for h, w_ in [(14, 16), (4, 4), (5, 13), (1, 1)]:
    w.add("keras_%s_%dx%d" % (kernel, h, w_), st(kernel, False),
          [IMG, S(h, w_), F(h / 7, w_ / 8), ZERO], **TOL)

# Sizes unrelated to the scale: samples outside the image give zeros.
w.add("samples_outside", st(), [IMG, S(12, 12), F(1, 1), F(2, -3)], **TOL)
w.add("identity", st(), [IMG, S(7, 8), F(1, 1), ZERO], **TOL)
w.add("single_pixel", st("keyscubic"), [np.full((1, 1, 1, 4), 3.5, np.float32), S(3, 2),
                                        F(3, 2), ZERO], **TOL)
w.add("single_row", st("triangle", False),
      [rng.standard_normal((1, 1, 6, 2)).astype(np.float32), S(3, 4), F(3, 4 / 6), ZERO], **TOL)
w.add("kernel_name_case", st("Lanczos5"), [IMG, S(6, 6), F(6 / 7, 0.75), ZERO], **TOL)
w.add("default_attrs", lambda x, s, sc, t: R.ScaleAndTranslate(images=x, size=s, scale=sc,
                                                               translation=t),
      [IMG, S(4, 4), F(4 / 7, 0.5), ZERO], **TOL)

for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
              np.int64]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  w.add("dtype_" + name, st("lanczos3", True),
        [rng.integers(0, 100, (1, 5, 6, 2)).astype(dtype), S(7, 4), F(7 / 5, 4 / 6), ZERO],
        **TOL)
w.add("batch", st("mitchellcubic", True),
      [rng.uniform(-1, 1, (3, 4, 5, 3)).astype(np.float32), S(6, 3), F(1.5, 0.6), F(0.5, -0.25)],
      **TOL)
w.add("empty_batch", st(), [np.zeros((0, 4, 4, 1), np.float32), S(2, 2), F(0.5, 0.5), ZERO])
# A NaN or infinity spreads through the zero weights of every span whose reach covers it.
nan_img = rng.uniform(0, 1, (1, 6, 6, 1)).astype(np.float32)
nan_img[0, 1, 2, 0] = np.nan
nan_img[0, 4, 4, 0] = np.inf
w.add("nan_inf_up", st("triangle", False), [nan_img, S(9, 9), F(1.5, 1.5), ZERO], **TOL)
w.add("nan_inf_down", st("lanczos3", True), [nan_img, S(3, 3), F(0.5, 0.5), ZERO], **TOL)
w.add("nan_inf_outside", st("box", False), [nan_img, S(9, 9), F(1, 1), F(3, 3)], **TOL)
# Extreme scales and translations.
w.add("nan_translation", st(), [IMG, S(4, 4), F(0.5, 0.5), F(np.nan, 0)], **TOL)
w.add("inf_translation", st(), [IMG, S(4, 4), F(0.5, 0.5), F(0, -np.inf)], **TOL)
w.add("huge_translation", st(), [IMG, S(4, 4), F(0.5, 0.5), F(-1e10, 1e10)], **TOL)
w.add("inf_scale", st(), [IMG, S(4, 4), F(np.inf, 1), ZERO], **TOL)
w.add("huge_scale", st(), [IMG, S(4, 4), F(1e30, 1), F(-1e30, 0)], **TOL)
# A kernel reach past 2^31 pixels converts to INT32_MIN: a span of 1 pixel.
w.add("tiny_scale", st(), [IMG, S(3, 3), F(1e-20, 1), F(0.5, 0)], **TOL)
w.add("tiny_scale_no_antialias", st("lanczos3", False), [IMG, S(3, 3), F(1e-10, 1), F(0.5, 0)],
      **TOL)
w.add("small_scale", st(), [IMG, S(3, 3), F(1e-6, 1), F(0.5, 0)], **TOL)
add_error("err_span_too_large", st(), [IMG, S(3, 3), F(1e-10, 1), F(0.5, 0)],
          "Span is too large: 7 vs 1.")

add_error("err_rank3", st(), [SMALL[0], S(2, 2), F(1, 1), ZERO], "input must be 4-dimensional")
add_error("err_size_rank", st(), [SMALL, np.array([[2, 2]], np.int32), F(1, 1), ZERO],
          "output_shape_t must be 1-dimensional[1,2]")
add_error("err_size_three", st(), [SMALL, np.array([2, 2, 2], np.int32), F(1, 1), ZERO],
          "output_shape_t must have two elements[3]")
add_error("err_size_zero", st(), [SMALL, S(0, 2), F(1, 1), ZERO],
          "output dimensions must be positive")
add_error("err_size_negative", st(), [SMALL, S(3, -2), F(1, 1), ZERO],
          "output dimensions must be positive")
add_error("err_no_channels", st(), [np.zeros((1, 4, 4, 0), np.float32), S(2, 2), F(1, 1), ZERO],
          "image must have at least one channel")
add_error("err_empty_image", st(), [np.zeros((1, 4, 0, 1), np.float32), S(2, 2), F(1, 1), ZERO],
          "input image must be of non-zero size")
add_error("err_scale_rank", st(), [SMALL, S(2, 2), np.ones((1, 2), np.float32), ZERO],
          "t must be 1-dimensional[1,2]")
add_error("err_scale_three", st(), [SMALL, S(2, 2), np.ones(3, np.float32), ZERO],
          "t must have two elements[3]")
add_error("err_scale_zero", st(), [SMALL, S(2, 2), F(0, 1), ZERO],
          "Scale must be greater than zero.")
add_error("err_scale_negative", st(), [SMALL, S(2, 2), F(1, -1), ZERO],
          "Scale must be greater than zero.")
add_error("err_scale_nan", st(), [SMALL, S(2, 2), F(np.nan, 1), ZERO],
          "Scale must be greater than zero.")
# TensorFlow treats denormal inputs as zero.
add_error("err_scale_denormal", st(), [SMALL, S(2, 2), F(1e-40, 1), ZERO],
          "Scale must be greater than zero.")
add_error("err_translation_rank", st(), [SMALL, S(2, 2), F(1, 1), np.zeros((2, 1), np.float32)],
          "t must be 1-dimensional[2,1]")
add_error("err_translation_one", st(), [SMALL, S(2, 2), F(1, 1), np.zeros(1, np.float32)],
          "t must have two elements[1]")
add_error("err_kernel_type", st("bicubic"), [SMALL, S(2, 2), F(1, 1), ZERO],
          "Unrecognized kernel type: bicubic")

w.write()
