"""Writes fixtures/cumprod.pbtxt: Cumprod in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_cumprod.py (needs TensorFlow 2.x and numpy).

Tolerances (|got - want| <= atol + rtol * |want|), per output dtype:
  float64  rtol 1e-12            float32  rtol 1e-5
  float16  rtol 1e-2, atol 1e-2  bfloat16 rtol 2e-2, atol 2e-2
Sluice multiplies half and bfloat16 in float where TensorFlow rounds after each step, hence
the tolerances; integer outputs are exact (both wrap on overflow).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261206)
w = CaseWriter("cumprod")

FLOATS = [np.float32, np.float64, np.float16, BF16]
INTS = [np.int32, np.int64, np.int8, np.int16, np.uint8, np.uint16, np.uint32, np.uint64]
TOL = {
    np.float32: dict(rtol=1e-5),
    np.float64: dict(rtol=1e-12),
    np.float16: dict(rtol=1e-2, atol=1e-2),
    BF16: dict(rtol=2e-2, atol=2e-2),
}


def tname(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def cumprod(exclusive=False, reverse=False):
  return lambda x, axis: R.Cumprod(x=x, axis=axis, exclusive=exclusive, reverse=reverse)


def i32(v):
  return np.array(v, np.int32)


for dtype in FLOATS + INTS:
  if dtype in FLOATS:
    x = rng.uniform(0.5, 1.5, (3, 5)).astype(np.float32).astype(dtype)
  else:
    x = rng.integers(1, 4, (3, 5)).astype(dtype)
  for exclusive in (False, True):
    for reverse in (False, True):
      n = "%s_axis1%s%s" % (tname(dtype), "_excl" if exclusive else "", "_rev" if reverse else "")
      w.add(n, cumprod(exclusive, reverse), [x, i32(1)], **TOL.get(dtype, {}))
  w.add(tname(dtype) + "_axis0", cumprod(), [x, i32(0)], **TOL.get(dtype, {}))
w.add("axis_int64_negative", cumprod(True), [rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32),
                                            np.array(-2, np.int64)], rtol=1e-5)
w.add("wraps_int32", cumprod(), [np.array([65536, 65536, 3], np.int32), i32(0)])
w.add("wraps_int8", cumprod(), [np.array([100, 3, -7], np.int8), i32(0)])
w.add("zeros_nan_inf", cumprod(),
      [np.array([2, 0, np.inf, np.nan, 1], np.float32), i32(0)], rtol=1e-6)
w.add("empty", cumprod(), [np.zeros((0, 3), np.float32), i32(1)])
w.add("scalar_axis0_error", cumprod(), [np.float32(3), i32(0)])
w.add("axis_out_of_range", cumprod(), [np.ones((2, 2), np.float32), i32(2)])
w.add("axis_not_scalar", cumprod(), [np.ones((2, 2), np.float32), i32([0])])
w.add("long_column_f64", cumprod(False, True),
      [rng.uniform(0.9, 1.1, (600, 3)).astype(np.float64), i32(0)], rtol=1e-12)

w.write()
