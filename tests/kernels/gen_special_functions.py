"""Writes fixtures/special_functions.pbtxt: the functions of tf.math.special, run in
TensorFlow.

Ops: BesselI0, BesselI1, BesselJ0, BesselJ1, BesselY0, BesselY1, BesselK0, BesselK0e, BesselK1,
BesselK1e (half, float, double: TensorFlow's CPU dtypes); Dawsn, Expint, FresnelCos,
FresnelSin, Spence (float, double). BesselI0e and BesselI1e are in gen_math.py.

Run from anywhere: python3 tests/kernels/gen_special_functions.py (TensorFlow 2.x, numpy).
Seeds fixed.

Each op is recorded over wide ranges: NaN, both infinities, both zeros, subnormals of either
sign (which the kernels' arithmetic reads as zero and the C library's float log by their bits:
float Expint of 1e-40 is -103.39), tiny and huge values, the ends of each Cephes
interval, and random values over the function's interesting range and log-uniformly over many
decades, in tensors whose sizes are not multiples of 8 (so TensorFlow's vector loops leave a
scalar tail).

Every case is exact (rtol = atol = 0):
  - Dawsn, Expint, FresnelCos, FresnelSin, Spence (float, double): TensorFlow has no vector
    form of these; Sluice evaluates Cephes's fits in the same order
    (kernels/cpu/unary/cephes_functions.h). Also compared bit for bit over 10^6 floats and
    doubles per op (half random bit patterns).
  - The Bessel functions in double: Eigen's functor, whose vector and scalar forms agree with
    TensorFlow's.
  - The Bessel functions in float and half: TensorFlow's packets of 8 (Eigen's Cephes code on
    its vector exp, log, rsqrt, sin and cos, reproduced lane by lane in
    kernels/cpu/unary/bessel_lane.h) and Eigen's scalar form for a tensor's last total % 8
    elements; half through float. Eigen's scalar form alone differed from TensorFlow's packets
    by up to a relative 9e-7 (BesselK0e) and flipped the rounding of some halves. Beyond these
    cases, the lane forms were compared with TensorFlow bit for bit over 10^6 floats per op
    (half random bit patterns) and over every half.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(20261207)
w = CaseWriter("special_functions")
raw = tf.raw_ops


def dname(dt):
  return np.dtype(dt).name


def unary(op):
  return lambda x: getattr(raw, op)(x=x)


# Values every op sees: its edges and the subnormals of float and double (which become zero
# or stay subnormal after the cast, per dtype).
COMMON = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 5e-324, -5e-324, 1e-30, -1e-30,
          1e-7, -1e-7, 1e-3, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.0, 8.0, -8.0, 30.0, -30.0, 88.0,
          100.0, 700.0, 710.0, 1e4, -1e4, 1e9, 1e30, -1e30, 1e300]

# op -> (special values beyond COMMON, range of the uniform random values)
BESSEL = {
    "BesselI0": ([7.99, 8.01, 85.0, 90.0, 713.0], (-40.0, 40.0)),
    "BesselI1": ([7.99, 8.01, 85.0, 90.0, 713.0], (-40.0, 40.0)),
    "BesselJ0": ([2.0, 2.404825557695773, 5.0, 5.520078110286311, 25.0, 1e8], (-30.0, 30.0)),
    "BesselJ1": ([2.0, 3.8317059702075125, 5.0, 7.015586669815619, 25.0, 1e8], (-30.0, 30.0)),
    "BesselY0": ([2.0, 0.8935769662791675, 5.0, 3.957678419314858, 25.0, 1e8], (-5.0, 30.0)),
    "BesselY1": ([2.0, 2.197141326031017, 5.0, 5.429681040794135, 25.0, 1e8], (-5.0, 30.0)),
    "BesselK0": ([2.0, 2.01, 1.99, 85.0, 90.0, 705.0], (-2.0, 30.0)),
    "BesselK0e": ([2.0, 2.01, 1.99, 85.0, 90.0, 705.0], (-2.0, 30.0)),
    "BesselK1": ([2.0, 2.01, 1.99, 85.0, 90.0, 705.0], (-2.0, 30.0)),
    "BesselK1e": ([2.0, 2.01, 1.99, 85.0, 90.0, 705.0], (-2.0, 30.0)),
}
CEPHES = {
    "Dawsn": ([3.25, 3.2499998, 6.25, 6.2499995, 1e9, -1e9, 2e9, -2e9, 1e10, -1e12], (-10.0, 10.0)),
    "Expint": ([2.0, 1.9999999, 4.0, 16.0, 32.0, 64.0, 63.99, 88.0, 89.0, 709.0, 710.0, -5.0],
               (-1.0, 70.0)),
    "FresnelCos": ([1.6, 1.6000001, -1.6, 36974.0, 36975.0, -36975.0, 1e5, 2.5, 10.5],
                   (-12.0, 12.0)),
    "FresnelSin": ([1.6, 1.6000001, -1.6, 36974.0, 36975.0, -36975.0, 1e5, 2.5, 10.5],
                   (-12.0, 12.0)),
    "Spence": ([0.49, 0.5, 0.51, 1.49, 1.5, 1.51, 1.99, 2.01, 1.0000001, 0.9999999, 4.0, 1e5],
               (-0.5, 5.0)),
}


def values(dt, special, lo, hi, n):
  """COMMON and the op's specials, then uniform values in [lo, hi] and log-uniform ones of
  either sign over 1e-6 .. 1e6, n in all."""
  head = np.array(COMMON + special, np.float64)
  k = n - len(head)
  uniform = rng.uniform(lo, hi, k - k // 3)
  wide = np.exp(rng.uniform(np.log(1e-6), np.log(1e6), k // 3)) * rng.choice([-1.0, 1.0], k // 3)
  with np.errstate(over="ignore"):
    return np.concatenate([head, uniform, wide]).astype(dt)


for op, (special, (lo, hi)) in BESSEL.items():
  for dt in (np.float16, np.float32, np.float64):
    n = "%s_%s" % (op.lower(), dname(dt))
    w.add(n + "_wide", unary(op), [values(dt, special, lo, hi, 301)])
    w.add(n + "_matrix", unary(op), [rng.uniform(lo, hi, (5, 13)).astype(dt)])
    w.add(n + "_small", unary(op), [np.array([0.25, -3.5, 12.0], dt)])
    # The scalar tail's own edges: subnormals, zeros and NaN after one packet of 8.
    w.add(n + "_tail_edges", unary(op),
          [np.array([0.5, 3.0, 9.0, -1.5, 25.0, 1e-3, 2.0, 8.0, 1e-40, -1e-40, 0.0, -0.0,
                     np.nan, np.inf, 5e-324], np.float64).astype(dt)])
  w.add(op.lower() + "_float32_empty", unary(op), [np.zeros((0, 3), np.float32)])
  w.add(op.lower() + "_float64_scalar", unary(op), [np.float64(1.375)])

for op, (special, (lo, hi)) in CEPHES.items():
  for dt in (np.float32, np.float64):
    n = "%s_%s" % (op.lower(), dname(dt))
    w.add(n + "_wide", unary(op), [values(dt, special, lo, hi, 301)])
    w.add(n + "_matrix", unary(op), [rng.uniform(lo, hi, (5, 13)).astype(dt)])
  w.add(op.lower() + "_float32_empty", unary(op), [np.zeros((0, 3), np.float32)])
  w.add(op.lower() + "_float64_scalar", unary(op), [np.float64(1.375)])

w.write()
