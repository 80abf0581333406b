"""Writes fixtures/special_functions.pbtxt: the functions of tf.math.special, run in
TensorFlow.

Ops: BesselI0, BesselI1, BesselJ0, BesselJ1, BesselY0, BesselY1, BesselK0, BesselK0e, BesselK1,
BesselK1e (half, float, double: TensorFlow's CPU dtypes); Dawsn, Expint, FresnelCos,
FresnelSin, Spence (float, double). BesselI0e and BesselI1e are in gen_math.py.

Run from anywhere: python3 tests/kernels/gen_special_functions.py (TensorFlow 2.x, numpy).
Seeds fixed.

Each op is recorded over wide ranges: NaN, both infinities, both zeros, a subnormal (read as
zero by both runtimes' floating-point mode), tiny and huge values, the ends of each Cephes
interval, and random values over the function's interesting range and log-uniformly over many
decades, in tensors whose sizes are not multiples of 8 (so TensorFlow's vector loops leave a
scalar tail).

Tolerances (|got - want| <= atol + rtol * |want|): every case is exact unless listed here.
  - Dawsn, Expint, FresnelCos, FresnelSin, Spence: exact in float and double. TensorFlow has no
    vector form of these; Sluice evaluates Cephes's fits in the same order
    (kernels/cpu/unary/cephes_functions.h).
  - The Bessel functions in double: exact (Eigen's functor, whose vector and scalar forms agree
    with TensorFlow's).
  - The Bessel functions in float: Sluice computes Eigen's scalar form for every element, which
    is TensorFlow's for a tensor's last total % 8 elements; TensorFlow's packets of 8 use its
    newer Eigen's vector sin, cos, log, exp and square roots. FLOAT_BESSEL_TOL gives each op's
    tolerance (measured: see the comment there); near a zero of J or Y the difference is
    absolute, hence the atol.
  - The Bessel functions in half: TensorFlow computes them in its float packets and rounds;
    the rounded results can differ by one half ulp (HALF_BESSEL_TOL).
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
# Float tolerances (rtol, atol) of the Bessel functions: see the module docstring. Over 400000
# floats per op (uniform over each op's range and log-uniform over 1e-6 .. 1e6), Eigen's scalar
# form differed from TensorFlow's packets by at most a relative 3.6e-7 (BesselI0, I1, J0, J1,
# Y0 and Y1 beyond an absolute 1e-8 near their zeros), 4.2e-7 (K1), 5.8e-7 (K0) and 9.0e-7
# (K0e); NaN and infinities agree.
FLOAT_BESSEL_TOL = {op: (1.5e-6, 1e-8) for op in BESSEL}
# Half: TensorFlow rounds its float packets' result, Sluice the scalar form's, so where the
# float value lies within those few float ulps of a point halfway between two halves the two
# round apart, by one half ulp (seen for BesselI1 of 2.5e-6, x / 2 being such a point: 5.96e-7
# against 6.56e-7, one half subnormal apart). Every op gets one half ulp.
HALF_BESSEL_TOL = {op: (1e-3, 6e-8) for op in BESSEL}

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
    rtol, atol = 0.0, 0.0
    if dt is np.float32:
      rtol, atol = FLOAT_BESSEL_TOL[op]
    elif dt is np.float16:
      rtol, atol = HALF_BESSEL_TOL[op]
    n = "%s_%s" % (op.lower(), dname(dt))
    w.add(n + "_wide", unary(op), [values(dt, special, lo, hi, 301)], rtol=rtol, atol=atol)
    w.add(n + "_matrix", unary(op), [rng.uniform(lo, hi, (5, 13)).astype(dt)], rtol=rtol,
          atol=atol)
    w.add(n + "_small", unary(op), [np.array([0.25, -3.5, 12.0], dt)], rtol=rtol, atol=atol)
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
