"""Writes fixtures/math.pbtxt: trigonometric, bitwise and special elementwise math ops, run in
TensorFlow.

Ops: Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Atan2; BitwiseAnd, BitwiseOr,
BitwiseXor, Invert, LeftShift, RightShift, PopulationCount; Mod, ApproximateEqual; MulNoNan,
Xlogy, Xdivy, Xlog1py, NextAfter; Lgamma, Digamma, Erfinv, Ndtri, BesselI0e, BesselI1e; Igamma, Igammac, Zeta,
Polygamma, Betainc.

Run from anywhere: python3 tests/kernels/gen_math.py (TensorFlow 2.x, numpy). Seeds fixed.

Tolerances (|got - want| <= atol + rtol * |want|): every case is exact (rtol = atol = 0)
unless listed here.
  - Trigonometric ops: exact for every dtype. Float Atan, Asin, Acos and Atanh and double Atan
    and Atanh reproduce TensorFlow's vector forms (numerics/trig_float.h,
    kernels/cpu/unary/double_log_packets.h) in packets of 8 (4) and the C library for a
    tensor's tail; every other element is the C library's function, as in TensorFlow.
  - Atan2, Xlogy, Xlog1py, Xdivy: exact for float, half and bfloat16. TensorFlow evaluates the
    output, broadcast or not, as one flat range: its vector form (Atan2: an atan of y / x;
    Xlogy, Xlog1py: its vector log, log_float.h) in packets of 8, its scalar form (the C
    library's atan2, log, log1p; +0 where x is 0, where the vector form keeps x's -0) for the
    last total % 8 elements; Sluice does the same (packet_tail_binary_op.h); double likewise
    in packets of 4 with TensorFlow's double vector log (double_log_packets.h). Complex Xlogy
    and Xlog1py (TensorFlow's vectorised complex log against std::log):
    complex64 rtol 1e-6, complex128 rtol 1e-15.
  - Lgamma, Digamma: exact (the C library's lgamma and Eigen's Cephes digamma, one scalar form
    in both). BesselI0e and BesselI1e: exact (float above |x| = 8 with TensorFlow's vector
    reciprocal square root in packets of 8, special_ops.cc).
  - Ndtri and Erfinv: exact. Float as TensorFlow's packets of 8 (its vector log and
    reciprocal) and scalar tail (kernels/cpu/unary/ndtri_float.h); double is scalar in both.
    TensorFlow's ndtri is NaN outside [0, 1] (Erfinv outside [-1, 1]); so is Sluice's.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(4242)
w = CaseWriter("math")
raw = tf.raw_ops

BF16 = tf.bfloat16.as_numpy_dtype
FLOATS = [np.float16, BF16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
INTS = SIGNED + UNSIGNED


def dname(dt):
  return "bf16" if dt is BF16 else np.dtype(dt).name


def unary(op):
  return lambda x: getattr(raw, op)(x=x)


def binary(op):
  return lambda x, y: getattr(raw, op)(x=x, y=y)


SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-3, -1e-3,
           3.0, -7.5, 100.0, -1e4, 1.5707964, 0.99999994, -0.99999994, 1.0000001, 1e30, -1e30]

# op -> (range of the random values: in the domain and around it)
TRIG = {"Tan": 4.0, "Asin": 1.2, "Acos": 1.2, "Atan": 10.0, "Sinh": 12.0, "Cosh": 12.0,
        "Asinh": 50.0, "Acosh": 50.0, "Atanh": 1.2}
TRIG_RTOL = {}


def trig_values(dt, scale, n):
  """SPECIAL followed by n - len(SPECIAL) random values in [-scale, scale] (n not a multiple
  of 8, so that the tensor has vector packets and a scalar tail)."""
  r = rng.uniform(-scale, scale, n - len(SPECIAL))
  return np.concatenate([np.array(SPECIAL), r]).astype(dt)


for op, scale in TRIG.items():
  for dt in FLOATS:
    n = "%s_%s" % (op.lower(), dname(dt))
    r = TRIG_RTOL.get((op, dt), 0.0)
    w.add(n + "_mixed", unary(op), [trig_values(dt, scale, 61).reshape(61)], rtol=r)
    w.add(n + "_2d", unary(op), [trig_values(dt, scale, 35).reshape(5, 7)], rtol=r)
  # Random values alone: long enough for many packets of every dtype.
  w.add(op.lower() + "_f32_long", unary(op),
        [rng.uniform(-scale, scale, 203).astype(np.float32)])
  w.add(op.lower() + "_f64_long", unary(op),
        [rng.uniform(-scale, scale, 203)], rtol=TRIG_RTOL.get((op, np.float64), 0.0))
  for dt in COMPLEX:
    z = (rng.uniform(-2, 2, 9) + 1j * rng.uniform(-2, 2, 9)).astype(dt)
    z = np.concatenate([z, np.array([0, 1, -1, 1j, -1j, 0.5 + 0.5j], dt)])
    w.add("%s_%s" % (op.lower(), dname(dt)), unary(op), [z])
  w.add(op.lower() + "_f32_scalar", unary(op), [np.float32(0.25)])
  w.add(op.lower() + "_f32_empty", unary(op), [np.zeros((0, 3), np.float32)])
  # Subnormal inputs, which the kernels read as zero.
  w.add(op.lower() + "_f32_subnormal", unary(op),
        [np.array([1e-40, -1e-40, 1e-45, 0.5] * 4, np.float32)])

# Atan2(y, x): quadrants, signed zeros, infinities and NaN.
edge = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 3.5], np.float64)
ey, ex = np.meshgrid(edge, edge, indexing="ij")
for dt in FLOATS:
  n = "atan2_" + dname(dt)
  w.add(n + "_edges", lambda y, x: raw.Atan2(y=y, x=x), [ey.astype(dt), ex.astype(dt)])
  w.add(n + "_bcast", lambda y, x: raw.Atan2(y=y, x=x),
        [rng.uniform(-5, 5, (3, 1, 4)).astype(dt), rng.uniform(-5, 5, (2, 1)).astype(dt)])
  w.add(n + "_scalar", lambda y, x: raw.Atan2(y=y, x=x),
        [np.array(1.5, dt), rng.uniform(-5, 5, (6,)).astype(dt)])
  w.add(n + "_scalar_x", lambda y, x: raw.Atan2(y=y, x=x),
        [rng.uniform(-5, 5, (3, 7)).astype(dt), np.array(-0.5, dt)])
  w.add(n + "_bcast_tail", lambda y, x: raw.Atan2(y=y, x=x),
        [rng.uniform(-5, 5, (3, 1, 5)).astype(dt), rng.uniform(-5, 5, (7, 1)).astype(dt)])
  w.add(n + "_long", lambda y, x: raw.Atan2(y=y, x=x),
        [rng.uniform(-5, 5, (101,)).astype(dt), rng.uniform(-5, 5, (101,)).astype(dt)])
w.add("atan2_f32_empty", lambda y, x: raw.Atan2(y=y, x=x),
      [np.zeros((0,), np.float32), np.zeros((1,), np.float32)])
w.add("atan2_f32_incompatible", lambda y, x: raw.Atan2(y=y, x=x),
      [np.zeros((2,), np.float32), np.zeros((3,), np.float32)])


def int_values(dt, shape):
  info = np.iinfo(dt)
  return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)


# Bitwise ops.
for dt in INTS:
  d = dname(dt)
  info = np.iinfo(dt)
  a = int_values(dt, (3, 4))
  b = int_values(dt, (3, 4))
  for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
    w.add("%s_%s" % (op.lower(), d), binary(op), [a, b])
    w.add("%s_%s_bcast" % (op.lower(), d), binary(op), [a.reshape(3, 1, 4), b[:, :1]])
  edges = np.array([info.min, info.max, 0, 1, 2, 3, 5, 0x55 % (info.max + 1)], dt)
  w.add("invert_" + d, unary("Invert"), [np.concatenate([edges, a.ravel()])])
  w.add("populationcount_" + d, unary("PopulationCount"), [np.concatenate([edges, a.ravel()])])
  # Shifts by every amount from below zero to past the width.
  bits = info.bits
  amounts = np.arange(-3, bits + 4)
  if info.min == 0:
    amounts = amounts[amounts >= 0]
  amounts = amounts.astype(dt)
  xs = np.array([1, info.max, info.min, 0x5a % (info.max + 1), 7], dt)
  if info.min < 0:
    xs = np.concatenate([xs, np.array([-1, -5, info.min + 1], dt)])
  for op in ("LeftShift", "RightShift"):
    w.add("%s_%s_amounts" % (op.lower(), d), binary(op), [xs[:, None], amounts[None, :]])
    w.add("%s_%s_scalar" % (op.lower(), d), binary(op), [a, np.array(3, dt)])
w.add("bitwiseand_int32_incompatible", binary("BitwiseAnd"),
      [np.zeros((2,), np.int32), np.zeros((3,), np.int32)])
w.add("leftshift_int32_empty", binary("LeftShift"),
      [np.zeros((0, 2), np.int32), np.zeros((2,), np.int32)])
w.add("invert_int32_empty", unary("Invert"), [np.zeros((0,), np.int32)])
w.add("populationcount_int64_scalar", unary("PopulationCount"), [np.int64(-1)])

# Mod: truncated remainder.
for dt in (np.int32, np.int64):
  info = np.iinfo(dt)
  x = np.array([7, -7, 7, -7, 0, info.min, info.max, info.min, 13], dt)
  y = np.array([3, 3, -3, -3, 5, -1, 2, 7, 13], dt)
  w.add("mod_%s" % dname(dt), binary("Mod"), [x, y])
  w.add("mod_%s_bcast" % dname(dt), binary("Mod"), [x.reshape(9, 1), np.array([4, -4, 1], dt)])
  w.add("mod_%s_by_zero" % dname(dt), binary("Mod"), [x, np.array(0, dt)])
  w.add("mod_%s_by_zero_bcast" % dname(dt), binary("Mod"),
        [x.reshape(9, 1), np.array([4, 0], dt)])
  w.add("mod_%s_by_zero_empty" % dname(dt), binary("Mod"),
        [np.zeros((0,), dt), np.array([0], dt)])
for dt in (np.float32, np.float64):
  x = np.array([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, np.inf, np.nan, 1.0, 5.0, 1e30], dt)
  y = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 2.0, 2.0, np.inf, 0.0, 3.0], dt)
  w.add("mod_%s" % dname(dt), binary("Mod"), [x, y])
  w.add("mod_%s_bcast" % dname(dt), binary("Mod"),
        [rng.uniform(-10, 10, (4, 1)).astype(dt), np.array([1.5, -2.5], dt)])
w.add("mod_int32_incompatible", binary("Mod"),
      [np.zeros((2,), np.int32), np.ones((3,), np.int32)])

# ApproximateEqual.
for dt in (np.float32, np.float64):
  x = np.array([1.0, 1.0, 1.0, np.nan, np.inf, np.inf, 0.0, -0.0, 2.0], dt)
  y = np.array([1.0, 1.000001, 1.1, np.nan, np.inf, -np.inf, -0.0, 1e-6, 1.99999], dt)
  w.add("approximateequal_%s" % dname(dt), lambda a, b: raw.ApproximateEqual(x=a, y=b), [x, y])
  w.add("approximateequal_%s_tolerance" % dname(dt),
        lambda a, b: raw.ApproximateEqual(x=a, y=b, tolerance=0.2), [x, y])
  w.add("approximateequal_%s_zero_tolerance" % dname(dt),
        lambda a, b: raw.ApproximateEqual(x=a, y=b, tolerance=0.0), [x, y])
w.add("approximateequal_f32_empty", lambda a, b: raw.ApproximateEqual(x=a, y=b),
      [np.zeros((2, 0), np.float32), np.zeros((2, 0), np.float32)])
w.add("approximateequal_f32_shapes", lambda a, b: raw.ApproximateEqual(x=a, y=b),
      [np.zeros((2, 3), np.float32), np.zeros((3,), np.float32)])
w.add("approximateequal_f32_same_count", lambda a, b: raw.ApproximateEqual(x=a, y=b),
      [np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32)])

# MulNoNan, Xlogy, Xdivy, Xlog1py.
SAFE_X = [0.0, -0.0, 0.0, 0.0, 1.0, -2.0, 3.5, np.nan, np.inf, 0.5, -1.5, 2.0, 1e-3]
SAFE_Y = [0.0, np.nan, np.inf, -1.0, 0.0, 0.0, np.nan, 2.0, 3.0, -0.5, 0.25, 7.0, 1e4]
LOG_RTOL = {np.float32: 0.0, np.float16: 0.0, BF16: 0.0, np.float64: 0.0,
            np.complex64: 1e-6, np.complex128: 1e-15}
for op in ("MulNoNan", "Xlogy", "Xdivy", "Xlog1py"):
  logs = op in ("Xlogy", "Xlog1py")
  for dt in FLOATS:
    r = LOG_RTOL[dt] if logs else 0.0
    n = "%s_%s" % (op.lower(), dname(dt))
    w.add(n + "_edges", binary(op), [np.array(SAFE_X, dt), np.array(SAFE_Y, dt)], rtol=r)
    x = rng.uniform(-3, 3, (5, 7)).astype(dt)
    y = rng.uniform(0.01 if logs else -3, 5, (5, 7)).astype(dt)
    w.add(n + "_random", binary(op), [x, y], rtol=r)
    w.add(n + "_bcast", binary(op), [x.reshape(5, 1, 7), y[:2, :].reshape(2, 7)], rtol=r)
  for dt in COMPLEX:
    r = LOG_RTOL[dt] if logs else 0.0
    x = np.array([0, 1 + 1j, -2 + 0.5j, 0.5j, 3, 0], dt)
    y = np.array([np.nan, 2 - 1j, 0.5 + 0.5j, 1 + 0j, -1j, 0], dt)
    w.add("%s_%s" % (op.lower(), dname(dt)), binary(op), [x, y], rtol=r)
  w.add(op.lower() + "_f32_incompatible", binary(op),
        [np.zeros((2,), np.float32), np.zeros((3,), np.float32)])
  w.add(op.lower() + "_f32_empty", binary(op),
        [np.zeros((0, 2), np.float32), np.zeros((1, 2), np.float32)])

# NextAfter.
for dt in (np.float32, np.float64):
  x1 = np.array([1.0, 1.0, 0.0, 0.0, -0.0, np.nan, 1.0, np.inf, -np.inf, 2.0, 1e-30], dt)
  x2 = np.array([2.0, 0.0, 1.0, -1.0, 0.0, 1.0, np.nan, 0.0, 0.0, 2.0, 0.0], dt)
  w.add("nextafter_%s" % dname(dt), lambda a, b: raw.NextAfter(x1=a, x2=b), [x1, x2])
  w.add("nextafter_%s_bcast" % dname(dt), lambda a, b: raw.NextAfter(x1=a, x2=b),
        [rng.uniform(-3, 3, (3, 1)).astype(dt), np.array([-np.inf, np.inf], dt)])

# Special functions of one real tensor: op -> (dtypes, special values, random range).
SPECIAL_FNS = {
    "Lgamma": ([np.float16, np.float32, np.float64],
               [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 2.0, -1.0, -2.5, 0.5, -0.5, 1e-3, 1e30,
                171.5, 3.0], (-6.0, 40.0)),
    "Digamma": ([np.float16, np.float32, np.float64],
                [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 2.0, -1.0, -2.5, 0.5, -0.5, 1e-3, 1e30,
                 1e-30, 3.0], (-6.0, 40.0)),
    "Erfinv": ([np.float32, np.float64],
               [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.999, -0.9999, 1.5,
                1e-7, -2.0, 0.25], (-1.0, 1.0)),
    "Ndtri": ([np.float32, np.float64],
              [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, 0.999, 1e-7, 1e-30, 0.9999999,
               1.5, 0.135, 0.25], (0.0, 1.0)),
    "BesselI0e": ([np.float16, np.float32, np.float64],
                  [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 8.0, -8.0, 30.0, 1e4, 1e-4,
                   7.99, 8.01, 0.5], (-40.0, 40.0)),
    "BesselI1e": ([np.float16, np.float32, np.float64],
                  [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 8.0, -8.0, 30.0, 1e4, 1e-4,
                   7.99, 8.01, 0.5], (-40.0, 40.0)),
}
SPECIAL_RTOL = {}
for op, (dtypes, special, (lo, hi)) in SPECIAL_FNS.items():
  for dt in dtypes:
    r = SPECIAL_RTOL.get((op, dt), 0.0)
    n = "%s_%s" % (op.lower(), dname(dt))
    values = np.concatenate([np.array(special), rng.uniform(lo, hi, 46)]).astype(dt)
    w.add(n + "_mixed", unary(op), [values], rtol=r)
    w.add(n + "_long", unary(op), [rng.uniform(lo, hi, 203).astype(dt)], rtol=r)
  w.add(op.lower() + "_f32_empty", unary(op), [np.zeros((0, 2), np.float32)])
  w.add(op.lower() + "_f64_scalar", unary(op), [np.float64(0.375)])

# Igamma, Igammac, Zeta, Polygamma: (a or x, x or q) over their domains and edges.
A_EDGE = [0.0, -1.0, 0.5, 1.0, 2.5, 10.0, 100.0, np.inf, np.nan, 1e-3, 3.0, 50.0]
X_EDGE = [0.0, 1.0, 0.5, -1.0, 2.5, 12.0, 90.0, 5.0, 1.0, np.inf, np.nan, 0.0]
ZETA_X = [1.0, 2.0, 0.5, 3.0, 4.5, 10.0, np.inf, np.nan, 2.0, 2.0, 1.5, 6.0]
ZETA_Q = [1.0, 1.0, 1.0, -2.0, -2.5, 0.5, 1.0, 1.0, 0.0, np.inf, 1e3, 2.0]
POLY_N = [0.0, 1.0, 2.0, 3.0, 1.5, -1.0, 4.0, np.nan, 1.0, 0.0, 2.0, 10.0]
POLY_X = [1.0, 1.0, 0.5, 2.5, 1.0, 1.0, -1.5, 1.0, np.nan, -2.0, 0.0, 7.25]
BINARY_SPECIAL = {
    "Igamma": (("a", "x"), A_EDGE, X_EDGE, (0.01, 20.0), (0.0, 25.0)),
    "Igammac": (("a", "x"), A_EDGE, X_EDGE, (0.01, 20.0), (0.0, 25.0)),
    "Zeta": (("x", "q"), ZETA_X, ZETA_Q, (1.01, 12.0), (0.1, 10.0)),
    "Polygamma": (("a", "x"), POLY_N, POLY_X, None, (-3.0, 10.0)),
}
BINARY_SPECIAL_RTOL = {}
for op, (names, first, second, first_range, second_range) in BINARY_SPECIAL.items():
  build = (lambda o, n: lambda p, q: getattr(raw, o)(**{n[0]: p, n[1]: q}))(op, names)
  for dt in (np.float32, np.float64):
    r = BINARY_SPECIAL_RTOL.get((op, dt), 0.0)
    n = "%s_%s" % (op.lower(), dname(dt))
    w.add(n + "_edges", build, [np.array(first, dt), np.array(second, dt)], rtol=r)
    if first_range is None:
      p = rng.integers(0, 6, (4, 13)).astype(dt)
    else:
      p = rng.uniform(*first_range, (4, 13)).astype(dt)
    q = rng.uniform(*second_range, (4, 13)).astype(dt)
    w.add(n + "_random", build, [p, q], rtol=r)
    w.add(n + "_bcast", build, [p[:, :1], q[:1, :]], rtol=r)
  w.add(op.lower() + "_f32_incompatible", build,
        [np.ones((2,), np.float32), np.ones((3,), np.float32)])

# Betainc(a, b, x): each a scalar or of one common shape.
def betainc(a, b, x):
  return raw.Betainc(a=a, b=b, x=x)


for dt in (np.float32, np.float64):
  d = dname(dt)
  a = np.array([0.5, 1.0, 2.0, 10.0, 0.1, 5.0, -1.0, 0.0, np.nan, 1.0, 3.0, 200.0], dt)
  b = np.array([0.5, 1.0, 3.0, 0.5, 0.1, 5.0, 1.0, 1.0, 1.0, np.inf, 2.0, 300.0], dt)
  x = np.array([0.5, 0.3, 0.0, 1.0, 0.9, 0.5, 0.5, 0.5, 0.5, 0.5, 1.5, 0.4], dt)
  w.add("betainc_%s_edges" % d, betainc, [a, b, x])
  ra = rng.uniform(0.1, 20, (3, 11)).astype(dt)
  rb = rng.uniform(0.1, 20, (3, 11)).astype(dt)
  rx = rng.uniform(0, 1, (3, 11)).astype(dt)
  w.add("betainc_%s_random" % d, betainc, [ra, rb, rx])
  w.add("betainc_%s_scalar_a_b" % d, betainc, [np.array(2.5, dt), np.array(0.75, dt), rx])
  w.add("betainc_%s_scalar_x" % d, betainc, [ra, rb, np.array(0.25, dt)])
  w.add("betainc_%s_all_scalars" % d, betainc,
        [np.array(2.0, dt), np.array(3.0, dt), np.array(0.4, dt)])
w.add("betainc_f32_empty", betainc,
      [np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32), np.array(0.5, np.float32)])
w.add("betainc_f32_a_b_shapes", betainc,
      [np.ones((2,), np.float32), np.ones((3,), np.float32), np.array(0.5, np.float32)])
w.add("betainc_f32_a_x_shapes", betainc,
      [np.ones((2,), np.float32), np.array(1.0, np.float32), np.ones((2, 1), np.float32)])
w.add("betainc_f32_b_x_shapes", betainc,
      [np.array(1.0, np.float32), np.ones((4,), np.float32), np.ones((2, 2), np.float32)])

w.write()
