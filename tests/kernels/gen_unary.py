"""Writes fixtures/unary.pbtxt: elementwise ops of one tensor, Cast, CheckNumerics and
EnsureShape, run in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_unary.py (needs TensorFlow 2.x and numpy).

Tolerances (|got - want| <= atol + rtol * |want|), per op class and dtype:
  exact (rtol = atol = 0): integer and bool results; Neg, Abs, Sign, Square of integers;
    Floor, Ceil, Round, Rint, Relu, Relu6, IsNan/IsInf/IsFinite, LogicalNot; every Cast
    except those to floating types from wider ones; CheckNumerics, EnsureShape.
  one rounding (Neg/Abs/Sign/Square/Reciprocal/Sqrt/Rsqrt/Softsign/LeakyRelu, casts to a
    narrower float): float 1e-6, double 1e-12, half 1e-3, bfloat16 8e-3; complex as their
    parts.
  transcendental (Exp, Expm1, Log, Log1p, Sin, Cos, Tanh, Sigmoid, Erf, Elu, Selu,
    Softplus): float rtol 2e-6 atol 1e-7, double rtol 1e-12 atol 1e-15, half rtol 2e-3
    atol 1e-3, bfloat16 rtol 1.6e-2 atol 1e-2 (half and bfloat16 results are rounded from a
    float computation, so they may differ by one unit in the last place), complex64
    rtol 1e-5 atol 1e-6, complex128 rtol 1e-12 atol 1e-15. TensorFlow and Sluice both use
    Eigen's functors, but different Eigen versions with different polynomial
    approximations.
  erfc (Erfc; Keras 3's exact GELU, so tighter): float rtol 1e-6 atol 1.2e-38, double rtol
    1e-12 atol 2.3e-308, half and bfloat16 as transcendental. Sluice computes the C
    library's erfc (within about one ulp); TensorFlow's vectorised erfc is within 6.4e-7 of
    it in float, but returns 0 where the result is subnormal (x > 9.19 in float, x > 26.55
    in double), hence the atol of the smallest normal number.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(11)
w = CaseWriter("unary")
raw = tf.raw_ops

BF16 = tf.bfloat16.as_numpy_dtype
FLOATS = [np.float16, BF16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
SIGNED_INTS = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED_INTS = [np.uint8, np.uint16, np.uint32, np.uint64]


def dname(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def is_float(dtype):
  return dtype in FLOATS


ROUNDING = {np.float32: 1e-6, np.float64: 1e-12, np.float16: 1e-3, BF16: 8e-3,
            np.complex64: 1e-6, np.complex128: 1e-12}
TRANSCENDENTAL = {np.float32: (2e-6, 1e-7), np.float64: (1e-12, 1e-15),
                  np.float16: (2e-3, 1e-3), BF16: (1.6e-2, 1e-2),
                  np.complex64: (1e-5, 1e-6), np.complex128: (1e-12, 1e-15)}
ERFC = dict(TRANSCENDENTAL)
ERFC.update({np.float32: (1e-6, 1.2e-38), np.float64: (1e-12, 2.3e-308)})


def tol(kind, dtype):
  """(rtol, atol) for an op of class `kind` on `dtype`."""
  if dtype not in ROUNDING or kind == "exact":
    return 0.0, 0.0
  if kind == "rounding":
    return ROUNDING[dtype], 0.0
  if kind == "erfc":
    return ERFC[dtype]
  return TRANSCENDENTAL[dtype]


FLOAT_VALUES = [-3.5, -2.5, -1.5, -0.5, -0.0, 0.0, 0.3, 0.5, 1.5, 2.5, 7.25, 100.0,
                np.nan, np.inf, -np.inf]
COMPLEX_VALUES = [1 + 2j, -1.5 + 0.5j, 0j, -2 - 3j, 0.5j, 3 + 0j]


def values(dtype):
  """A (3, 5) float tensor or a (2, 3) complex / integer one covering the edge cases."""
  if is_float(dtype):
    return np.array(FLOAT_VALUES, dtype).reshape(3, 5)
  if dtype in COMPLEX:
    return np.array(COMPLEX_VALUES, dtype).reshape(2, 3)
  info = np.iinfo(dtype)
  v = [info.min, info.max, 0, 1, 2, 7] if info.min == 0 else [info.min, info.max, -7, -1, 0, 3]
  return np.array(v, dtype).reshape(2, 3)


def unary(op):
  return lambda x: getattr(raw, op)(x=x)


def feature(op, **attrs):
  return lambda x: getattr(raw, op)(features=x, **attrs)


# op -> (builder, dtypes, tolerance class)
OPS = {
    "Neg": (unary("Neg"), FLOATS + SIGNED_INTS + COMPLEX, "rounding"),
    "Abs": (unary("Abs"), FLOATS + SIGNED_INTS, "rounding"),
    "Sign": (unary("Sign"), FLOATS + SIGNED_INTS + COMPLEX, "rounding"),
    "Square": (unary("Square"), FLOATS + SIGNED_INTS + UNSIGNED_INTS + COMPLEX, "rounding"),
    "Reciprocal": (unary("Reciprocal"), FLOATS + COMPLEX, "rounding"),
    "Sqrt": (unary("Sqrt"), FLOATS + COMPLEX, "rounding"),
    "Rsqrt": (unary("Rsqrt"), FLOATS + COMPLEX, "rounding"),
    "Exp": (unary("Exp"), FLOATS + COMPLEX, "transcendental"),
    "Expm1": (unary("Expm1"), FLOATS + COMPLEX, "transcendental"),
    "Log": (unary("Log"), FLOATS + COMPLEX, "transcendental"),
    "Log1p": (unary("Log1p"), FLOATS + COMPLEX, "transcendental"),
    "Sin": (unary("Sin"), FLOATS + COMPLEX, "transcendental"),
    "Cos": (unary("Cos"), FLOATS + COMPLEX, "transcendental"),
    "Tanh": (unary("Tanh"), FLOATS + COMPLEX, "transcendental"),
    "Sigmoid": (unary("Sigmoid"), FLOATS + COMPLEX, "transcendental"),
    "Erf": (unary("Erf"), FLOATS, "transcendental"),
    "Erfc": (unary("Erfc"), FLOATS, "erfc"),
    "Floor": (unary("Floor"), FLOATS, "exact"),
    "Ceil": (unary("Ceil"), FLOATS, "exact"),
    # TensorFlow 2.21's Round of int32/int64 returns zeros (a bug); Sluice's is the identity,
    # checked by unary_ops_test instead.
    "Round": (unary("Round"), FLOATS, "exact"),
    "Rint": (unary("Rint"), [np.float32, np.float64], "exact"),
    "IsNan": (unary("IsNan"), FLOATS, "exact"),
    "IsInf": (unary("IsInf"), FLOATS, "exact"),
    "IsFinite": (unary("IsFinite"), FLOATS, "exact"),
    "Relu": (feature("Relu"), FLOATS + SIGNED_INTS + UNSIGNED_INTS, "exact"),
    "Relu6": (feature("Relu6"), FLOATS + SIGNED_INTS + UNSIGNED_INTS, "exact"),
    "Elu": (feature("Elu"), FLOATS, "transcendental"),
    "Selu": (feature("Selu"), FLOATS, "transcendental"),
    "LeakyRelu": (feature("LeakyRelu"), FLOATS, "rounding"),
    "Softplus": (feature("Softplus"), FLOATS, "transcendental"),
    "Softsign": (feature("Softsign"), FLOATS, "rounding"),
}

# ---- Every op x every registered dtype, plus scalar, empty and a larger vector ------------

for op, (build, dtypes, kind) in OPS.items():
  for dtype in dtypes:
    rtol, atol = tol(kind, dtype)
    x = values(dtype)
    if op == "Erf" and dtype == np.float64:
      # TensorFlow 2.21 gives erf(x) = NaN in double for |x| >= ~1e300 and +-inf (a bug of
      # its Eigen); Sluice gives +-1, checked by unary_ops_test.
      x = np.nan_to_num(x, nan=np.nan, posinf=6.0, neginf=-6.0)
    w.add("%s_%s" % (op.lower(), dname(dtype)), build, [x], rtol=rtol, atol=atol)
  rtol, atol = tol(kind, np.float32)
  w.add("%s_scalar" % op.lower(), build, [np.array(0.75, np.float32)], rtol=rtol, atol=atol)
  w.add("%s_empty" % op.lower(), build, [np.zeros((0, 3), np.float32)])
  # Long enough for Eigen's vectorised loops on both sides, with a ragged tail.
  w.add("%s_f32_vector" % op.lower(), build,
        [(rng.standard_normal(131) * 4).astype(np.float32)], rtol=rtol, atol=atol)

w.add("logicalnot", lambda x: raw.LogicalNot(x=x),
      [np.array([[True, False, True], [False, False, True]])])
w.add("logicalnot_empty", lambda x: raw.LogicalNot(x=x), [np.zeros((2, 0), bool)])

# Ops whose results depend on the value ranges around their special points.
for alpha in (0.0, 2.0, -0.5):
  for dtype in (np.float32, np.float16):
    rtol, atol = tol("rounding", dtype)
    w.add("leakyrelu_alpha_%g_%s" % (alpha, dname(dtype)), feature("LeakyRelu", alpha=alpha),
          [values(dtype)], rtol=rtol, atol=atol)
softplus_points = {
    np.float32: [-100, -20, -14.0, -13.9, -1, 0, 1, 13.9, 14.0, 20, 88, 100],
    np.float64: [-800, -40, -34.1, -34.0, -1, 0, 1, 34.0, 34.1, 40, 710, 800],
    np.float16: [-20, -5.0, -4.9, -1, 0, 1, 4.9, 5.0, 10, 11, 12, 20],
    BF16: [-20, -3.0, -2.8, -1, 0, 1, 2.8, 3.0, 10, 90, 100, 200],
}
for dtype, points in softplus_points.items():
  rtol, atol = tol("transcendental", dtype)
  w.add("softplus_thresholds_%s" % dname(dtype), feature("Softplus"),
        [np.array(points, dtype)], rtol=rtol, atol=atol)
w.add("round_half_to_even", unary("Round"),
      [np.array([-3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999997, 8388609.0,
                 -8388609.0, 1e30], np.float32)])
w.add("rint_half_to_even_f64", unary("Rint"),
      [np.array([-2.5, -0.5, 0.5, 2.5, 4503599627370497.0], np.float64)])
# Subnormal inputs are left out: TensorFlow's log(1e-45f) is -103.97, off by log(2) from the
# true -103.28 that Sluice computes (see transcendental_ops.cc).
w.add("log_domain_f32", unary("Log"), [np.array([0.0, -0.0, -1.0, 1.2e-38, 1e38], np.float32)],
      rtol=2e-6, atol=1e-7)
# Erfc over Keras's GELU range and into the tails, where erfc is tiny (and then subnormal,
# which TensorFlow flushes to zero).
for dtype, limit, n in [(np.float32, 10.5, 841), (np.float64, 27.0, 1081)]:
  rtol, atol = tol("erfc", dtype)
  w.add("erfc_range_%s" % dname(dtype), unary("Erfc"),
        [np.linspace(-limit, limit, n).astype(dtype)], rtol=rtol, atol=atol)
w.add("sqrt_negative_f64", unary("Sqrt"), [np.array([-1.0, 0.0, 4.0, 1e-300], np.float64)],
      rtol=1e-12)
# Sqrt is correctly rounded in TensorFlow (the sqrt instruction, through float for half and
# bfloat16), so these compare exactly: IEEE's special cases, the largest and smallest normal
# numbers, and roots next to a rounding boundary (which Eigen 3.4's fast float sqrt, an
# rsqrt approximation and a Newton step, missed by 1 to 3 units in the last place), then
# random values. 64 elements and more, so that both sides' vectorised loops see every value.
# No subnormal inputs: TensorFlow flushes them to zero.
exact_rng = np.random.default_rng(12)
SQRT_POINTS = [np.inf, -np.inf, np.nan, -0.0, 0.0, -1.0, -3e38, 88.0, 6e-8, 13.942385,
               65504.0, 3e38, 3.4028235e38, 1.17549435e-38, 2.0, 0.1]
for dtype in FLOATS:
  w.add("sqrt_exact_%s" % dname(dtype), unary("Sqrt"),
        [np.resize(np.array(SQRT_POINTS, dtype), 64)])
  bits = exact_rng.integers(0x00800000, 0x7f800000, 256).astype(np.uint32)
  w.add("sqrt_exact_random_%s" % dname(dtype), unary("Sqrt"),
        [bits.view(np.float32).astype(dtype)])
# half and bfloat16 Rsqrt: TensorFlow's is 1 / sqrt(x) in float rounded once to the type, so
# exact too (Eigen 3.4's rounds the root to the type first, and differed for one in eight).
for dtype, tiny in [(np.float16, 6.104e-5), (BF16, 1.17549435e-38)]:
  every = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(
      np.float16 if dtype is np.float16 else np.uint16)
  if dtype is BF16:
    every = every.view(BF16)
  normal = every[np.abs(every.astype(np.float32)) >= tiny]
  x = np.concatenate([np.array(SQRT_POINTS, dtype), exact_rng.choice(normal, 496)])
  w.add("rsqrt_exact_%s" % dname(dtype), unary("Rsqrt"), [x])

# ---- Cast -------------------------------------------------------------------------------

CAST_TYPES = [np.bool_] + SIGNED_INTS + UNSIGNED_INTS + FLOATS + COMPLEX


def cast(dst, truncate=False):
  return lambda x: raw.Cast(x=x, DstT=tf.as_dtype(dst), Truncate=truncate)


def cast_source(src, dst):
  """Values of src that every destination represents the same way in TensorFlow's scalar
  and vectorised loops: non-negative and in range where dst is an unsigned integer."""
  if src is np.bool_:
    return np.array([[True, False, True], [False, True, True]])
  if src in COMPLEX:
    return np.array([1.5 + 2j, 0 + 1j, 0j, 2.75 - 1j, 100.25 + 0.5j, 127 + 3j], src)
  if is_float(src):
    v = [0.0, 0.4, 1.5, 2.5, 3.9, 100.25, 127.0, -0.0]
    if not (dst in UNSIGNED_INTS or dst is np.bool_):
      v += [-0.7, -1.5, -2.5, -100.75]
    if dst not in SIGNED_INTS + UNSIGNED_INTS:
      v += [np.nan, np.inf, -np.inf, 65519.0, 70000.0, 1e-8]
    return np.array(v, src)
  info = np.iinfo(src)
  v = [0, 1, 2, 100, 127, info.max, info.min]
  if info.min < 0:
    v += [-1, -128]
  return np.array(v, src)


for src in CAST_TYPES:
  for dst in CAST_TYPES:
    narrowing = (src in FLOATS + COMPLEX and dst in FLOATS + COMPLEX)
    rtol = ROUNDING.get(dst, 0.0) if narrowing else 0.0
    w.add("cast_%s_to_%s" % (dname(src), dname(dst)), cast(dst), [cast_source(src, dst)],
          rtol=rtol)

# Truncate=true: narrowing float casts round toward zero; others are unaffected.
trunc_f32 = np.array([1.0009765625 + 2**-11 + 2**-20, 3.14159265, -2.71828, 65519.0, 65520.0,
                      1e-8, np.nan, -np.inf, 1.00390625 + 2**-9], np.float32)
# No subnormal results: TensorFlow's threads flush them to zero (FTZ), Sluice's do not.
trunc_f64 = np.array([1 + 2**-24 + 2**-40, 3.14159265358979, -1e300, 1e-30, np.nan,
                      -2.718281828459045, 1.0 + 2**-11 + 2**-30, 1.0 + 2**-8 + 2**-30,
                      65519.9], np.float64)
for src_values, dst in [(trunc_f32, np.float16), (trunc_f32, BF16), (trunc_f64, np.float32),
                        (trunc_f64, np.float16), (trunc_f64, BF16),
                        (trunc_f32.astype(np.float16), BF16),
                        (trunc_f32, np.float64), (trunc_f32, np.int32)]:
  w.add("cast_truncate_%s_to_%s" % (dname(src_values.dtype.type), dname(dst)),
        cast(dst, truncate=True), [src_values])
w.add("cast_truncate_c128_to_c64", cast(np.complex64, truncate=True),
      [np.array([1 + 2**-24 + 2**-40 - 3.14159265358979j, 0.1 + 0.2j], np.complex128)])
w.add("cast_truncate_c64_to_f16", cast(np.float16, truncate=True),
      [np.array([1.0009765625 + 2**-11 + 2**-20 + 1j], np.complex64)])

# NaN and out-of-range floats to integers: 64 elements, so that TensorFlow converts every
# one in its vectorised loop (its scalar tail loop differs; see cast_functions.h).
OUT_OF_RANGE = [np.nan, np.inf, -np.inf, 3e9, -3e9, 1e20, -1e20, 300.7, -300.7, 70000.5,
                -70000.5, 255.9, -1.0, 4294967296.0, 5e9, -5e9, 9.3e18, -9.3e18, 1.8e19,
                3e19, 2147483648.0, -2147483649.0, 32768.0, -32769.0, -0.9, 65535.5,
                65536.0, 128.0, -129.0, 127.9, 2.0**63, 2.0**64]
for src in FLOATS:
  for dst in SIGNED_INTS + UNSIGNED_INTS:
    x = np.array(OUT_OF_RANGE * 2, np.float64).astype(src)
    w.add("cast_out_of_range_%s_to_%s" % (dname(src), dname(dst)), cast(dst), [x])

w.add("cast_scalar", cast(np.int32), [np.array(-7.9, np.float32)])
w.add("cast_empty", cast(np.float64), [np.zeros((0, 2), np.int32)])
w.add("cast_same_type_string", cast(np.bytes_), [np.array([b"a", b"bc"])])
w.add("cast_f32_vector_to_bf16", cast(BF16), [rng.standard_normal(131).astype(np.float32)])
w.add("cast_string_to_int32", cast(np.int32), [np.array([b"1"])], error_substr="Cast string")
w.add("cast_f32_to_string", cast(np.bytes_), [np.array([1.0], np.float32)],
      error_substr="is not supported")

# ---- CheckNumerics ----------------------------------------------------------------------

check = lambda x: raw.CheckNumerics(tensor=x, message="my check")
for dtype in FLOATS:
  n = dname(dtype)
  w.add("checknumerics_ok_%s" % n, check, [np.array([[1, -2.5], [0, 1e3]], dtype)])
  w.add("checknumerics_nan_%s" % n, check, [np.array([1, np.nan, 3], dtype)],
        error_substr="my check : Tensor had NaN values")
  w.add("checknumerics_inf_%s" % n, check, [np.array([1, -np.inf, 3], dtype)],
        error_substr="my check : Tensor had Inf values")
  w.add("checknumerics_both_%s" % n, check, [np.array([np.inf, np.nan], dtype)],
        error_substr="my check : Tensor had Inf and NaN values")
w.add("checknumerics_empty", check, [np.zeros((0,), np.float32)])
w.add("checknumerics_scalar_nan", check, [np.array(np.nan, np.float32)],
      error_substr="my check : Tensor had NaN values")

# ---- EnsureShape ------------------------------------------------------------------------


def ensure(shape):
  return lambda x: raw.EnsureShape(input=x, shape=shape)


m23 = np.arange(6, dtype=np.float32).reshape(2, 3)
w.add("ensureshape_exact", ensure([2, 3]), [m23])
w.add("ensureshape_unknown_dim", ensure([None, 3]), [m23])
w.add("ensureshape_unknown_rank", ensure(None), [m23])
w.add("ensureshape_scalar", ensure([]), [np.array(5, np.int64)])
w.add("ensureshape_string", ensure([2]), [np.array([b"x", b"y"])])
w.add("ensureshape_int32_empty", ensure([0, None]), [np.zeros((0, 4), np.int32)])
w.add("ensureshape_bad_dim", ensure([2, 4]), [m23],
      error_substr="Shape of tensor input0 [2,3] is not compatible with expected shape [2,4].")
w.add("ensureshape_bad_rank", ensure([None]), [m23],
      error_substr="is not compatible with expected shape [?].")
w.add("ensureshape_scalar_vs_vector", ensure([1]), [np.array(1.0, np.float32)],
      error_substr="Shape of tensor input0 [] is not compatible with expected shape [1].")

# ---- CheckNumericsV2: the infinities apart ------------------------------------------------
check_v2 = lambda x: raw.CheckNumericsV2(tensor=x, message="v2 check")
for dtype in FLOATS:
  n = dname(dtype)
  w.add("checknumericsv2_ok_%s" % n, check_v2, [np.array([[1, -2.5], [0, 1e3]], dtype)])
  for tag, values in (("nan", [1, np.nan]), ("neg_inf", [-np.inf, 2]), ("pos_inf", [np.inf]),
                      ("both_inf", [np.inf, 1, -np.inf]), ("neg_inf_nan", [np.nan, -np.inf]),
                      ("pos_inf_nan", [np.inf, np.nan]), ("all", [np.nan, np.inf, -np.inf])):
    w.add("checknumericsv2_%s_%s" % (tag, n), check_v2, [np.array(values, dtype)])
w.add("checknumericsv2_empty", check_v2, [np.zeros((0, 3), np.float32)])
big_v2 = np.ones(100000, np.float32)
big_v2[77777] = -np.inf
big_v2[3] = np.nan
w.add("checknumericsv2_large", check_v2, [big_v2])

w.write()
