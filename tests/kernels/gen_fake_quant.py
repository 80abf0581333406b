"""Writes fixtures/fake_quant.pbtxt: FakeQuantWithMinMax{Args,Vars,VarsPerChannel} in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_fake_quant.py (needs TensorFlow 2.x and numpy).
Compared exactly: Sluice computes the nudged range and each value operation for operation as
TensorFlow does. Inputs of 1,003 values put NaN and infinities both in TensorFlow's vector
packets and in its scalar tail.

Left out: FakeQuantWithMinMaxVarsPerChannel on a scalar input, which CHECK-fails in
TensorFlow 2.21 (it reads the last dimension of a rank-0 shape); Sluice returns
INVALID_ARGUMENT (the shape function's rank rule).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("fake_quant")

X = rng.uniform(-8, 8, 1003).astype(np.float32)
X[[3, 500, 1001]] = np.nan
X[[7, 999]] = np.inf
X[[11, 1002]] = -np.inf
X[20:30] = np.float32(1e-30)  # tiny values near the grid's zero
SMALL = np.array([-7, -6, -0.04, -0.02, 0, 0.0234, 0.02353, 0.5, 5.99, 6, 6.2], np.float32)

for bits in (2, 4, 8, 16):
  for narrow in (False, True):
    for lo, hi in [(-6.0, 6.0), (-0.5, 2.25), (0.3, 5.0), (-4.0, -1.0), (-1e-3, 1e-3)]:
      tag = "bits%d_%s_%g_%g" % (bits, "narrow" if narrow else "full", lo, hi)
      w.add("args_" + tag,
            lambda x, lo=lo, hi=hi, bits=bits, narrow=narrow: R.FakeQuantWithMinMaxArgs(
                inputs=x, min=lo, max=hi, num_bits=bits, narrow_range=narrow),
            [X if bits == 8 else SMALL])
      w.add("vars_" + tag,
            lambda x, a, b, bits=bits, narrow=narrow: R.FakeQuantWithMinMaxVars(
                inputs=x, min=a, max=b, num_bits=bits, narrow_range=narrow),
            [X if bits == 8 else SMALL, np.float32(lo), np.float32(hi)])
w.add("args_defaults", lambda x: R.FakeQuantWithMinMaxArgs(inputs=x), [X.reshape(17, 59)])
w.add("args_empty", lambda x: R.FakeQuantWithMinMaxArgs(inputs=x), [np.zeros((0, 3), np.float32)])
w.add("args_scalar", lambda x: R.FakeQuantWithMinMaxArgs(inputs=x), [np.float32(2.5)])
w.add("vars_zero_range", lambda x, a, b: R.FakeQuantWithMinMaxVars(inputs=x, min=a, max=b),
      [X, np.float32(0), np.float32(0)])
for lo, hi in [(np.nan, 1.0), (-np.inf, 1.0), (-1.0, np.inf), (0.0, np.nan)]:
  w.add("vars_range_%g_%g" % (lo, hi),
        lambda x, a, b: R.FakeQuantWithMinMaxVars(inputs=x, min=a, max=b),
        [SMALL, np.float32(lo), np.float32(hi)])
w.add("per_channel_nan_range", lambda x, a, b: R.FakeQuantWithMinMaxVarsPerChannel(
    inputs=x, min=a, max=b), [SMALL[:4].reshape(2, 2), np.array([np.nan, -np.inf], np.float32),
                              np.array([1, 1], np.float32)])
w.add("vars_min_above_max", lambda x, a, b: R.FakeQuantWithMinMaxVars(inputs=x, min=a, max=b),
      [SMALL, np.float32(2), np.float32(1)])
for ename, build in [
    ("args_min_not_below_max", lambda x: R.FakeQuantWithMinMaxArgs(inputs=x, min=1.0, max=1.0)),
    ("args_bits_1", lambda x: R.FakeQuantWithMinMaxArgs(inputs=x, num_bits=1)),
    ("args_bits_17", lambda x: R.FakeQuantWithMinMaxArgs(inputs=x, num_bits=17))]:
  w.add("err_" + ename, build, [SMALL])
w.add("err_vars_min_rank", lambda x, a, b: R.FakeQuantWithMinMaxVars(inputs=x, min=a, max=b),
      [SMALL, np.array([0], np.float32), np.float32(1)])
w.add("err_vars_bits", lambda x, a, b: R.FakeQuantWithMinMaxVars(inputs=x, min=a, max=b,
                                                                 num_bits=1),
      [SMALL, np.float32(0), np.float32(1)])

XC = X[:1000].reshape(25, 8, 5)
MINS = np.array([-6, -0.5, 0, 0.3, -4], np.float32)
MAXS = np.array([6, 2.25, 0, 5, -1], np.float32)
for bits in (4, 8):
  for narrow in (False, True):
    w.add("per_channel_bits%d_%s" % (bits, "narrow" if narrow else "full"),
          lambda x, a, b, bits=bits, narrow=narrow: R.FakeQuantWithMinMaxVarsPerChannel(
              inputs=x, min=a, max=b, num_bits=bits, narrow_range=narrow),
          [XC, MINS, MAXS])
w.add("per_channel_vector", lambda x, a, b: R.FakeQuantWithMinMaxVarsPerChannel(
    inputs=x, min=a, max=b), [SMALL[:5], MINS, MAXS])
w.add("per_channel_empty_rows", lambda x, a, b: R.FakeQuantWithMinMaxVarsPerChannel(
    inputs=x, min=a, max=b), [np.zeros((0, 5), np.float32), MINS, MAXS])
w.add("per_channel_min_above_max", lambda x, a, b: R.FakeQuantWithMinMaxVarsPerChannel(
    inputs=x, min=a, max=b), [SMALL[:2].reshape(1, 2), np.array([3, 0], np.float32),
                              np.array([1, 2], np.float32)])
for ename, mins, maxs in [("min_size", MINS[:4], MAXS), ("max_size", MINS, MAXS[:4])]:
  w.add("err_per_channel_" + ename, lambda x, a, b: R.FakeQuantWithMinMaxVarsPerChannel(
      inputs=x, min=a, max=b), [XC, mins, maxs])
w.add("err_per_channel_bits", lambda x, a, b: R.FakeQuantWithMinMaxVarsPerChannel(
    inputs=x, min=a, max=b, num_bits=17), [XC, MINS, MAXS])

w.write()
