"""Writes fixtures/add.pbtxt: Add, AddV2 and AddN in TensorFlow, the runner's own check.

Run from anywhere: python3 tests/kernels/gen_add.py (needs TensorFlow 2.x and numpy).
Tolerance: exact (rtol = atol = 0) — one IEEE addition per element, as in TensorFlow (AddN of
three or more inputs adds in input order; TensorFlow's pairing may differ, so those cases
allow rtol 1e-6).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(7)
w = CaseWriter("add")
add = lambda x, y: tf.raw_ops.Add(x=x, y=y)
addv2 = lambda x, y: tf.raw_ops.AddV2(x=x, y=y)
for dtype in (np.float32, np.float64, np.int32, np.int64):
  name = np.dtype(dtype).name
  a = rng.uniform(-10, 10, (2, 3)).astype(dtype)
  b = rng.uniform(-10, 10, (3,)).astype(dtype)
  w.add("addv2_%s_same" % name, addv2, [a, a[::-1].copy()])
  w.add("addv2_%s_bcast" % name, addv2, [a, b])
  w.add("add_%s_scalar" % name, add, [np.array(3, dtype), a])
w.add("addv2_f32_empty", addv2, [np.zeros((0, 3), np.float32), np.ones((1, 3), np.float32)])
w.add("addv2_f32_nan_inf", addv2,
      [np.array([np.nan, np.inf, -np.inf, 1], np.float32),
       np.array([1, 1, np.inf, -np.inf], np.float32)])
w.add("addv2_i32_wraps", addv2,
      [np.array([2**31 - 1], np.int32), np.array([1], np.int32)])
w.add("addv2_f32_large_bcast", addv2,
      [rng.standard_normal((64, 1, 700)).astype(np.float32),
       rng.standard_normal((1, 3, 700)).astype(np.float32)])
w.add("addv2_incompatible", addv2,
      [np.ones((2, 3), np.float32), np.ones((4,), np.float32)],
      error_substr="Incompatible shapes")
addn = lambda *xs: tf.raw_ops.AddN(inputs=list(xs))
w.add("addn_f32_three", addn,
      [rng.standard_normal((4, 5)).astype(np.float32) for _ in range(3)])
w.add("addn_i64_one", addn, [np.arange(6, dtype=np.int64).reshape(2, 3)])
w.add("addn_shape_mismatch", addn, [np.ones((2,), np.float32), np.ones((3,), np.float32)])
# AddN over every type TensorFlow registers (a generator of its own: the cases above keep
# their values). Integers wrap on overflow.
nrng = np.random.default_rng(8)
for dtype in (np.float16, tf.bfloat16.as_numpy_dtype, np.float64, np.int8, np.uint8, np.int16,
              np.uint16, np.uint32, np.uint64, np.int32):
  name = np.dtype(dtype).name
  xs = [nrng.uniform(0, 60, (2, 3)).astype(dtype) for _ in range(3)]
  w.add("addn_%s_three" % name, addn, xs, rtol=1e-6 if name in ("float64",) else 0)
for dtype in (np.complex64, np.complex128):
  xs = [(nrng.standard_normal((3, 4)) + 1j * nrng.standard_normal((3, 4))).astype(dtype)
        for _ in range(4)]
  w.add("addn_%s_four" % np.dtype(dtype).name, addn, xs, rtol=1e-6, atol=1e-6)
  w.add("addn_%s_one" % np.dtype(dtype).name, addn, xs[:1])
w.add("addn_i8_wraps", addn, [np.array([100, -100], np.int8), np.array([100, -100], np.int8)])
w.add("addn_u8_wraps", addn, [np.array([200], np.uint8), np.array([100], np.uint8)])
w.add("addn_c64_shape_mismatch", addn,
      [np.ones((2,), np.complex64), np.ones((3,), np.complex64)])
w.write()
