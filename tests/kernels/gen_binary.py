"""Writes fixtures/binary.pbtxt: the elementwise binary family in TensorFlow.

Ops: Add, AddV2, Sub, Mul, Div, RealDiv, DivNoNan, FloorDiv, FloorMod, TruncateDiv,
TruncateMod, Maximum, Minimum, Pow, SquaredDifference, Greater, GreaterEqual, Less,
LessEqual, Equal, NotEqual, LogicalAnd, LogicalOr, Select, SelectV2, ClipByValue, BiasAdd.
Each op runs on every dtype Sluice registers for it (TensorFlow's CPU dtypes less resource and
variant), over same-shape, broadcast and scalar operands, then edge cases
(NaN/Inf, empty, size-1 dims, wrap-around, negative operands of the floor/trunc ops) and the
bad inputs, whose TensorFlow error codes the kernels must reproduce.

Run from anywhere: python3 tests/kernels/gen_binary.py (TensorFlow 2.x, numpy). Seeds fixed.

Tolerances (|got - want| <= atol + rtol * |want|): integers and bools exact; one IEEE
operation per element (add, sub, mul, div, min/max, floor/trunc of a quotient, fmod,
comparisons, select, clip, bias add) rtol 1e-6 for float32/float64 (the results are the
same correctly rounded operation), 1e-3 for half and 1e-2 for bfloat16 (TensorFlow's Eigen
and Sluice may round an intermediate in float before the final rounding); Pow and
SquaredDifference 1e-5 / 1e-12 (float32 / float64: libm pow may differ by an ulp), 2e-3 half,
2e-2 bfloat16; complex64 / complex128 arithmetic 1e-5 / 1e-12 (complex division and pow are
several roundings). Select, ClipByValue and comparisons of every dtype are exact in effect.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(20260)
w = CaseWriter("binary")

BF16 = tf.bfloat16.as_numpy_dtype
FLOATS = [np.float16, BF16, np.float32, np.float64]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
REAL = FLOATS + SIGNED + UNSIGNED


def dname(dt):
  return "bf16" if dt is BF16 else np.dtype(dt).name


def is_float(dt):
  return dt in FLOATS


def tol(dt, loose=False):
  """rtol for dtype dt; `loose` for ops through libm (pow)."""
  if dt is np.float16:
    return 2e-3 if loose else 1e-3
  if dt is BF16:
    return 2e-2 if loose else 1e-2
  if dt is np.float32:
    return 1e-5 if loose else 1e-6
  if dt is np.float64:
    return 1e-12 if loose else 1e-6
  return 0.0


def values(dt, shape, lo=-10, hi=10, nonzero=False):
  """Random values of dtype dt in [lo, hi) (clamped to the dtype's range)."""
  if is_float(dt):
    v = rng.uniform(lo, hi, shape)
    if nonzero:
      v[np.abs(v) < 0.5] = 1.5
    return v.astype(np.float32).astype(dt)
  info = np.iinfo(dt)
  v = rng.integers(max(lo, info.min), min(hi, info.max), shape, endpoint=True)
  if nonzero:
    v[v == 0] = 1
  return v.astype(dt)


def binary(op, **attrs):
  return lambda x, y: getattr(tf.raw_ops, op)(x=x, y=y, **attrs)


# (op, dtypes, nonzero divisor, loose tolerance)
ARITH = [
    ("Add", FLOATS + SIGNED + [np.uint8], False, False),
    ("AddV2", REAL, False, False),
    ("Sub", REAL, False, False),
    ("Mul", REAL, False, False),
    ("Div", REAL, True, False),
    ("RealDiv", FLOATS, True, False),
    ("DivNoNan", FLOATS, False, False),
    ("FloorDiv", REAL, True, False),
    ("FloorMod", REAL, True, False),
    ("TruncateDiv", REAL, True, False),
    ("TruncateMod", [np.float32, np.float64, np.int32, np.int64], True, False),
    ("Maximum", REAL, False, False),
    ("Minimum", REAL, False, False),
    ("SquaredDifference", FLOATS + [np.int32, np.int64], False, True),
    ("Greater", REAL, False, False),
    ("GreaterEqual", REAL, False, False),
    ("Less", REAL, False, False),
    ("LessEqual", REAL, False, False),
    ("Equal", REAL + [np.bool_], False, False),
    ("NotEqual", REAL + [np.bool_], False, False),
]

for op, dtypes, nonzero, loose in ARITH:
  fn = binary(op)
  for dt in dtypes:
    n = "%s_%s" % (op.lower(), dname(dt))
    r = tol(dt, loose)
    if dt is np.bool_:
      mk = lambda shape: rng.integers(0, 2, shape).astype(np.bool_)
      a, b = mk((2, 3)), mk((2, 3))
      w.add(n + "_same", fn, [a, b])
      w.add(n + "_bcast", fn, [mk((2, 1, 3)), mk((4, 1))])
      continue
    lo = 0 if dt in UNSIGNED else -10
    a = values(dt, (2, 3), lo)
    # Equal operands in places so that comparisons see ties.
    b = np.where(rng.integers(0, 3, (2, 3)) == 0, a, values(dt, (2, 3), lo, nonzero=nonzero))
    w.add(n + "_same", fn, [a, b.astype(dt)], rtol=r)
    w.add(n + "_bcast", fn, [values(dt, (2, 1, 3), lo), values(dt, (2, 1), lo, nonzero=nonzero)],
          rtol=r)
    w.add(n + "_scalar_y", fn, [values(dt, (3, 2), lo), values(dt, (), 1, 9)], rtol=r)
    if dt in (np.float32, np.int32, np.uint8):
      w.add(n + "_scalar_x", fn, [values(dt, (), lo), values(dt, (5,), lo, nonzero=nonzero)],
            rtol=r)

# Pow: bases and non-negative exponents small enough that results are meaningful.
for dt in FLOATS + SIGNED:
  n = "pow_%s" % dname(dt)
  r = tol(dt, True)
  if is_float(dt):
    a = values(dt, (2, 3), 0.1, 4)
    b = values(dt, (2, 3), -3, 3)
  else:
    a = values(dt, (2, 3), -3, 3)
    b = values(dt, (2, 3), 0, 4)
  w.add(n + "_same", binary("Pow"), [a, b], rtol=r)
  w.add(n + "_bcast", binary("Pow"), [a[:, None, :], b[None, :, :1]], rtol=r)
  w.add(n + "_scalar_y", binary("Pow"), [a, np.array(2, dt)], rtol=r)

for op in ("LogicalAnd", "LogicalOr"):
  fn = lambda x, y, op=op: getattr(tf.raw_ops, op)(x=x, y=y)
  t = np.array([[True, False], [True, True], [False, False]])
  w.add(op.lower() + "_same", fn, [t, t[::-1].copy()])
  w.add(op.lower() + "_bcast", fn, [t, np.array([True, False])])
  w.add(op.lower() + "_scalar", fn, [np.array(True), t])
  w.add(op.lower() + "_bcast_both", fn, [t.reshape(3, 1, 2), np.array([[True], [False]])])

# ---- Edge cases --------------------------------------------------------------------------
nan, inf = np.nan, np.inf
special = np.array([nan, inf, -inf, 0.0, -0.0, 1.0, -2.5, inf, nan, 3.0], np.float32)
special2 = np.array([1.0, -inf, -inf, 0.0, 2.0, nan, 0.0, inf, nan, -0.0], np.float32)
for op in ("AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "FloorDiv", "FloorMod",
           "TruncateDiv", "TruncateMod", "Maximum", "Minimum", "Pow", "SquaredDifference",
           "Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual"):
  w.add(op.lower() + "_f32_nan_inf", binary(op), [special, special2], rtol=1e-5)
  w.add(op.lower() + "_f64_nan_inf", binary(op),
        [special.astype(np.float64), special2.astype(np.float64)], rtol=1e-12)
  if op == "TruncateMod":  # not registered for half in TensorFlow
    continue
  w.add(op.lower() + "_f16_nan_inf", binary(op),
        [special.astype(np.float16), special2.astype(np.float16)], rtol=2e-3)

# Signs of the floor/trunc ops, integers and floats.
sx = np.array([7, -7, 7, -7, 0, 6, -6, 1, -1], np.int32)
sy = np.array([2, 2, -2, -2, 3, 3, -3, -5, 5], np.int32)
for op in ("Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"):
  for dt in (np.int8, np.int16, np.int32, np.int64):
    if op == "TruncateMod" and dt in (np.int8, np.int16):
      continue
    w.add("%s_%s_signs" % (op.lower(), dname(dt)), binary(op), [sx.astype(dt), sy.astype(dt)])
  for dt in (np.float32, np.float64, np.float16):
    if op == "TruncateMod" and dt is np.float16:
      continue
    w.add("%s_%s_signs" % (op.lower(), dname(dt)), binary(op),
          [(sx + 0.5).astype(dt), sy.astype(dt)], rtol=tol(dt))

# INT_MIN / -1 and friends: TensorFlow wraps instead of trapping.
for dt in (np.int8, np.int16, np.int32, np.int64):
  info = np.iinfo(dt)
  x = np.array([info.min, info.min, info.max, info.min, info.min], dt)
  y = np.array([-1, 3, -1, 1, info.max], dt)
  for op in ("Div", "FloorDiv", "FloorMod", "TruncateDiv"):
    w.add("%s_%s_extremes" % (op.lower(), dname(dt)), binary(op), [x, y])
  if dt in (np.int32, np.int64):
    w.add("truncatemod_%s_extremes" % dname(dt), binary("TruncateMod"), [x, y])
  for op in ("AddV2", "Sub", "Mul", "SquaredDifference"):
    if op == "SquaredDifference" and dt not in (np.int32, np.int64):
      continue
    w.add("%s_%s_wraps" % (op.lower(), dname(dt)), binary(op),
          [np.array([info.max, info.min, info.max, info.min], dt),
           np.array([1, 1, 2, -1], dt)])
  w.add("pow_%s_wraps" % dname(dt), binary("Pow"),
        [np.array([2, 3, -2, -1, 0, 1, 7], dt),
         np.array([np.iinfo(dt).bits - 1, 40, 9, 7, 0, 100, 30], dt)])
for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
  info = np.iinfo(dt)
  w.add("sub_%s_wraps" % dname(dt), binary("Sub"),
        [np.array([0, 1, info.max], dt), np.array([1, 2, info.max], dt)])
  w.add("mul_%s_wraps" % dname(dt), binary("Mul"),
        [np.array([info.max, info.max // 2 + 1], dt), np.array([info.max, 2], dt)])

# Integer division by zero, negative integer powers.
# TensorFlow words the error by op name: TruncateDiv/TruncateMod get an INTERNAL error.
for op in ("Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"):
  zero_msg = ("Unexpected error in binary operator" if op.startswith("Truncate")
              else "Integer division by zero")
  for dt in (np.int32, np.int64, np.uint8):
    if op == "TruncateMod" and dt is np.uint8:
      continue
    w.add("%s_%s_by_zero" % (op.lower(), dname(dt)), binary(op),
          [np.array([1, 2, 3], dt), np.array([1, 0, 1], dt)],
          error_substr=zero_msg)
  w.add("%s_i32_by_zero_scalar" % op.lower(), binary(op),
        [np.array([4, 5], np.int32), np.array(0, np.int32)],
        error_substr=zero_msg)
  w.add("%s_i32_by_zero_bcast" % op.lower(), binary(op),
        [np.ones((2, 3), np.int32), np.array([[1], [0]], np.int32)],
        error_substr=zero_msg)
  w.add("%s_i32_by_zero_empty" % op.lower(), binary(op),
        [np.zeros((0,), np.int32), np.array([0], np.int32)])
for dt in (np.int32, np.int64, np.int8):
  w.add("pow_%s_negative_exponent" % dname(dt), binary("Pow"),
        [np.array([2, 3], dt), np.array([2, -1], dt)],
        error_substr="Integers to negative integer powers are not allowed")
w.add("pow_i32_negative_exponent_of_one", binary("Pow"),
      [np.array([1, -1], np.int32), np.array([-1, -3], np.int32)])

# Shapes: empty, size-1 dims, higher ranks, rank mismatch.
f32 = np.float32
for op in ("AddV2", "Mul", "Maximum", "Less", "Equal"):
  fn = binary(op)
  w.add(op.lower() + "_empty_bcast", fn, [np.zeros((0, 3), f32), values(f32, (3,))])
  w.add(op.lower() + "_empty_both", fn, [np.zeros((2, 0), f32), np.zeros((1, 1), f32)])
  w.add(op.lower() + "_zero_vs_one", fn, [np.zeros((0, 1), f32), values(f32, (1, 4))])
  w.add(op.lower() + "_scalars", fn, [values(f32, ()), values(f32, ())], rtol=1e-6)
  w.add(op.lower() + "_one_element_higher_rank", fn,
        [values(f32, (1, 1)), values(f32, (3,))], rtol=1e-6)
  w.add(op.lower() + "_size1_dims", fn,
        [values(f32, (1, 3, 1, 2)), values(f32, (4, 1, 5, 1))], rtol=1e-6)
  w.add(op.lower() + "_rank5", fn,
        [values(f32, (2, 1, 3, 1, 2)), values(f32, (2, 4, 1, 2))], rtol=1e-6)
  w.add(op.lower() + "_same_after_squeeze", fn,
        [values(f32, (1, 4)), values(f32, (4,))], rtol=1e-6)
  w.add(op.lower() + "_incompatible", fn, [np.ones((2, 3), f32), np.ones((4,), f32)],
        error_substr="Incompatible shapes")
  w.add(op.lower() + "_incompatible_empty", fn, [np.ones((0,), f32), np.ones((2,), f32)],
        error_substr="Incompatible shapes")

for op in ("Equal", "NotEqual"):
  for flag in (True, False):
    fn = binary(op, incompatible_shape_error=flag)
    tag = "%s_ise_%s" % (op.lower(), str(flag).lower())
    w.add(tag + "_incompatible", fn, [np.ones((2, 3), f32), np.ones((4,), f32)])
    w.add(tag + "_compatible", fn, [np.array([1, 2, 3], np.int32), np.array([3, 2, 1], np.int32)])
    w.add(tag + "_bcast", fn, [np.array([[1], [2]], np.int64), np.array([1, 2, 3], np.int64)])
w.add("logicaland_incompatible", lambda x, y: tf.raw_ops.LogicalAnd(x=x, y=y),
      [np.ones((2,), np.bool_), np.ones((3,), np.bool_)])

# Large operands: the intra-op pool's paths (flat, scalar and broadcast rows). int8 values
# in printable ASCII keep the fixture small.
i8 = np.int8
w.add("addv2_i8_large_scalar", binary("AddV2"),
      [values(i8, (165, 200), 32, 63), np.array(40, i8)])
w.add("maximum_i8_large_bcast", binary("Maximum"),
      [values(i8, (12, 1, 1000), 32, 126), values(i8, (1, 3, 1000), 32, 126)])

# ---- Select, SelectV2, ClipByValue, BiasAdd ---------------------------------------------
select = lambda c, t, e: tf.raw_ops.Select(condition=c, x=t, y=e)
select_v2 = lambda c, t, e: tf.raw_ops.SelectV2(condition=c, t=t, e=e)
clip = lambda t, lo, hi: tf.raw_ops.ClipByValue(t=t, clip_value_min=lo, clip_value_max=hi)


def cond(shape):
  return rng.integers(0, 2, shape).astype(np.bool_)


for dt in REAL + [np.bool_, np.object_]:
  n = dname(dt) if dt is not np.object_ else "string"
  if dt is np.bool_:
    mk = lambda shape: cond(shape)
  elif dt is np.object_:
    mk = lambda shape: np.array(
        [b"s%d" % v for v in rng.integers(0, 100, int(np.prod(shape)))],
        dtype=object).reshape(shape)
  else:
    mk = lambda shape, dt=dt: values(dt, shape, 0 if dt in UNSIGNED else -10)
  w.add("select_%s_same" % n, select, [cond((2, 3)), mk((2, 3)), mk((2, 3))])
  w.add("select_%s_rows" % n, select, [cond((3,)), mk((3, 2)), mk((3, 2))])
  w.add("select_%s_scalar" % n, select, [np.array(False), mk((2, 2)), mk((2, 2))])
  w.add("selectv2_%s_bcast" % n, select_v2, [cond((2, 1)), mk((3,)), mk((1, 1))])
  w.add("selectv2_%s_scalar_cond" % n, select_v2, [np.array(True), mk((2, 3)), mk((3,))])

w.add("select_vector_same", select, [cond((4,)), values(f32, (4,)), values(f32, (4,))])
w.add("select_rows_rank3", select, [cond((2,)), values(f32, (2, 3, 2)), values(f32, (2, 3, 2))])
w.add("select_scalar_true", select, [np.array(True), values(f32, (3,)), values(f32, (3,))])
w.add("select_empty", select, [cond((0, 2)), np.zeros((0, 2), f32), np.zeros((0, 2), f32)])
w.add("select_rows_empty", select, [cond((0,)), np.zeros((0, 2), f32), np.zeros((0, 2), f32)])
w.add("select_shape_mismatch", select, [cond((2, 3)), values(f32, (2, 3)), values(f32, (3, 2))])
w.add("select_cond_shape_mismatch", select,
      [cond((3, 2)), values(f32, (2, 3)), values(f32, (2, 3))])
w.add("select_rows_count_mismatch", select,
      [cond((3,)), values(f32, (2, 3)), values(f32, (2, 3))])
w.add("select_rows_else_mismatch", select,
      [cond((2,)), values(f32, (2, 3)), values(f32, (2, 4))])
w.add("select_scalar_mismatch", select, [np.array(True), values(f32, (2,)), values(f32, (3,))])
w.add("select_vector_cond_scalar_then", select,
      [cond((2,)), np.array(1, f32), np.array(2, f32)])
w.add("selectv2_all_bcast", select_v2,
      [cond((2, 1, 1)), values(f32, (1, 3, 1)), values(f32, (1, 1, 4))])
w.add("selectv2_rank5", select_v2,
      [cond((2, 1, 3, 1, 2)), values(f32, (2, 4, 1, 2)), values(f32, (2,))])
w.add("selectv2_empty", select_v2, [cond((0, 1)), values(f32, (1, 3)), values(f32, (3,))])
w.add("selectv2_incompatible", select_v2, [cond((2,)), values(f32, (3,)), values(f32, (3,))],
      error_substr="must be broadcastable")
w.add("selectv2_incompatible_then_else", select_v2,
      [cond(()), values(f32, (2,)), values(f32, (3,))], error_substr="must be broadcastable")
w.add("selectv2_nan", select_v2,
      [np.array([True, False]), np.array([nan, 1], f32), np.array([2, nan], f32)])
w.add("selectv2_large", select_v2,
      [cond((2, 1)), values(i8, (1, 17000), 32, 126), np.array(65, i8)])

for dt in FLOATS + [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16]:
  n = "clipbyvalue_%s" % dname(dt)
  lo = 0 if dt in (np.uint8, np.uint16) else -5
  t = values(dt, (2, 3), lo, 10)
  w.add(n + "_scalars", clip, [t, np.array(lo + 2, dt), np.array(6, dt)])
  w.add(n + "_tensors", clip, [t, values(dt, (2, 3), lo, 3), values(dt, (2, 3), 3, 8)])
  w.add(n + "_tensor_min", clip, [t, values(dt, (2, 3), lo, 3), np.array(5, dt)])
  w.add(n + "_tensor_max", clip, [t, np.array(lo + 1, dt), values(dt, (2, 3), 3, 8)])
w.add("clipbyvalue_nan", clip,
      [np.array([nan, 1, 5, -inf, inf], f32), np.array([2, nan, 3, 0, 0], f32),
       np.array(1, f32)])
w.add("clipbyvalue_min_above_max", clip, [values(f32, (4,)), np.array(3, f32), np.array(1, f32)])
w.add("clipbyvalue_empty", clip, [np.zeros((0, 2), f32), np.array(0, f32), np.array(1, f32)])
w.add("clipbyvalue_scalar_t", clip, [np.array(7, f32), np.array(0, f32), np.array(1, f32)])
w.add("clipbyvalue_bad_min_shape", clip,
      [values(f32, (2, 3)), values(f32, (3,)), np.array(1, f32)])
w.add("clipbyvalue_bad_max_shape", clip,
      [values(f32, (2, 3)), np.array(0, f32), values(f32, (1, 3))])
w.add("clipbyvalue_one_element_not_scalar", clip,
      [values(f32, (2, 3)), np.array([0], f32), np.array(1, f32)])


def bias_add(fmt):
  return lambda v, b: tf.raw_ops.BiasAdd(value=v, bias=b, data_format=fmt)


for dt in REAL:
  lo = 0 if dt in UNSIGNED else -10
  n = "biasadd_%s" % dname(dt)
  r = tol(dt)
  w.add(n + "_nhwc", bias_add("NHWC"), [values(dt, (2, 2, 3), lo), values(dt, (3,), lo)],
        rtol=r)
  w.add(n + "_nchw", bias_add("NCHW"), [values(dt, (2, 3, 2, 2), lo), values(dt, (3,), lo)],
        rtol=r)
for fmt in ("NHWC", "NCHW"):
  f = bias_add(fmt)
  t = fmt.lower()
  w.add("biasadd_%s_rank2" % t, f, [values(f32, (4, 3)), values(f32, (3,))], rtol=1e-6)
  w.add("biasadd_%s_rank3" % t, f, [values(f32, (2, 3, 3)), values(f32, (3,))], rtol=1e-6)
  w.add("biasadd_%s_rank5" % t, f, [values(f32, (2, 3, 2, 1, 3)), values(f32, (3,))],
        rtol=1e-6)
  w.add("biasadd_%s_empty" % t, f, [np.zeros((0, 3, 3), f32), values(f32, (3,))])
  w.add("biasadd_%s_rank1" % t, f, [values(f32, (3,)), values(f32, (3,))],
        error_substr="must be at least 2D")
  w.add("biasadd_%s_bias_rank2" % t, f, [values(f32, (2, 3)), values(f32, (1, 3))],
        error_substr="Biases must be 1D")
  w.add("biasadd_%s_bias_size" % t, f, [values(f32, (2, 3, 3)), values(f32, (2,))],
        error_substr="Must provide as many biases")
w.add("biasadd_i32_wraps", bias_add("NHWC"),
      [np.array([[2**31 - 1, -2**31]], np.int32), np.array([1, -1], np.int32)])
w.add("biasadd_nchw_large", bias_add("NCHW"),
      [values(i8, (3, 4, 60, 50), 32, 63), values(i8, (4,), 32, 63)])

# ---- Complex, string and quantized dtypes ------------------------------------------------
COMPLEX = [np.complex64, np.complex128]


def cvalues(dt, shape, lo=-10, hi=10):
  return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(dt)


for op in ("Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "Pow",
           "SquaredDifference", "Equal", "NotEqual"):
  for dt in COMPLEX:
    n = "%s_%s" % (op.lower(), np.dtype(dt).name)
    r = 1e-5 if dt is np.complex64 else 1e-12
    a = cvalues(dt, (2, 3), 0.5, 2) if op == "Pow" else cvalues(dt, (2, 3))
    b = cvalues(dt, (2, 3), -1, 1) if op == "Pow" else cvalues(dt, (2, 3))
    b[0, 0] = a[0, 0]
    w.add(n + "_same", binary(op), [a, b], rtol=r)
    w.add(n + "_bcast", binary(op), [a[:, None, :], b[None, :, 1]], rtol=r)
w.add("divnonan_complex64_zero", binary("DivNoNan"),
      [cvalues(np.complex64, (3,)), np.array([0, 1 + 1j, 0j], np.complex64)], rtol=1e-5)

strs = lambda shape: np.array([b"s%d" % v for v in rng.integers(0, 4, int(np.prod(shape)))],
                              dtype=object).reshape(shape)
w.add("add_string_same", binary("Add"), [strs((2, 3)), strs((2, 3))])
w.add("add_string_bcast", binary("Add"), [strs((2, 1)), strs((3,))])
w.add("add_string_scalar", binary("Add"), [strs(()), strs((4,))])
w.add("add_string_empty", binary("Add"), [np.array([b"", b"x"], dtype=object),
                                          np.array([b"", b""], dtype=object)])
for op in ("Equal", "NotEqual"):
  w.add("%s_string_same" % op.lower(), binary(op), [strs((2, 3)), strs((2, 3))])
  w.add("%s_string_bcast" % op.lower(), binary(op), [strs((2, 1)), strs((3,))])
  for q in (tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32):
    qt = q.as_numpy_dtype
    a = np.array([1, 2, 3, 4], dtype=qt)
    b = np.array([1, 0, 3, 5], dtype=qt)
    w.add("%s_%s" % (op.lower(), q.name), binary(op), [a, b])

for dt in COMPLEX:
  n = np.dtype(dt).name
  r = 1e-6
  w.add("select_%s_rows" % n, select, [cond((3,)), cvalues(dt, (3, 2)), cvalues(dt, (3, 2))])
  w.add("selectv2_%s_bcast" % n, select_v2, [cond((2, 1)), cvalues(dt, (3,)), cvalues(dt, ())])
  t = cvalues(dt, (2, 3))
  w.add("clipbyvalue_%s_scalars" % n, clip, [t, np.array(-2 - 3j, dt), np.array(4 + 1j, dt)])
  w.add("clipbyvalue_%s_tensors" % n, clip,
        [t, cvalues(dt, (2, 3), -10, 0), cvalues(dt, (2, 3), 0, 10)])
  w.add("biasadd_%s_nhwc" % n, bias_add("NHWC"), [cvalues(dt, (2, 3)), cvalues(dt, (3,))],
        rtol=r)
  w.add("biasadd_%s_nchw" % n, bias_add("NCHW"), [cvalues(dt, (2, 3, 2)), cvalues(dt, (3,))],
        rtol=r)

# ---- BiasAddV1: BiasAdd along the last dim, without data_format -----------------------------
bias_add_v1 = lambda v, b: tf.raw_ops.BiasAddV1(value=v, bias=b)
for dt in REAL:
  lo = 0 if dt in UNSIGNED else -10
  w.add("biasaddv1_%s" % dname(dt), bias_add_v1, [values(dt, (2, 2, 3), lo), values(dt, (3,), lo)],
        rtol=tol(dt))
w.add("biasaddv1_rank2", bias_add_v1, [values(f32, (4, 3)), values(f32, (3,))], rtol=1e-6)
w.add("biasaddv1_empty", bias_add_v1, [np.zeros((0, 3, 3), f32), values(f32, (3,))])
w.add("biasaddv1_rank1", bias_add_v1, [values(f32, (3,)), values(f32, (3,))])
w.add("biasaddv1_bias_rank2", bias_add_v1, [values(f32, (2, 3)), values(f32, (1, 3))])
w.add("biasaddv1_bias_size", bias_add_v1, [values(f32, (2, 3, 3)), values(f32, (2,))])

w.write()
