"""Writes fixtures/gradients.pbtxt: the ops TensorFlow's gradient functions emit, recorded from
TensorFlow (see oracle.py): ReluGrad, Relu6Grad, LeakyReluGrad, EluGrad, SeluGrad,
SoftplusGrad, SoftsignGrad, TanhGrad, SigmoidGrad, SqrtGrad, RsqrtGrad, ReciprocalGrad,
InvGrad, BroadcastGradientArgs, ConcatOffset, BiasAddGrad, DynamicStitch and
ParallelDynamicStitch.

Every case is exact (rtol = atol = 0) except where stated here:
  - BiasAddGrad of floats on inputs TensorFlow splits into several blocks (more than about
    2000 elements; the split follows its thread count, so no other machine repeats it): Sluice
    sums in TensorFlow's single-block order, so these agree to rounding only (LARGE_TOL).
    Whether TensorFlow used one block is worked out below from its redux_functor.h rules.
The elementwise cases have lengths whose last total % 8 elements fall in TensorFlow's scalar
tail (its Eigen's packets are 8 floats, halfs or bfloat16s, 4 doubles or complex64s, 2
complex128s), and values that separate its vector and scalar forms.

Complex output gradients include infinities and NaN in either part of y or dy: TensorFlow's
vector form multiplies with the plain formula and divides with Eigen's scaled algorithm, its
scalar tail with C's complex multiplication and Smith's division (the GCC runtime it links).
Deterministic: fixed numpy seed.

    python3 tests/kernels/gen_gradients.py
"""

import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.RandomState(2021)
w = CaseWriter("gradients")

FLOATS = [np.float32, np.float64, np.float16, BF16]
COMPLEX = [np.complex64, np.complex128]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
LARGE_TOL = {np.float32: dict(rtol=1e-5, atol=1e-5), np.float64: dict(rtol=1e-12, atol=1e-12),
             np.float16: dict(rtol=1e-2, atol=1e-2), BF16: dict(rtol=2e-2, atol=2e-2),
             np.complex64: dict(rtol=1e-5, atol=1e-5),
             np.complex128: dict(rtol=1e-12, atol=1e-12)}


def name(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def cast(values, dtype):
  """`values` (floats) as `dtype`, through float32 for the 16-bit types."""
  v = np.asarray(values)
  if dtype in (np.float16, BF16):
    return v.astype(np.float32).astype(dtype)
  return v.astype(dtype)


def finite_max(dtype):
  if dtype is BF16:
    return 3.3895313892515355e38
  return float(np.finfo(dtype).max)


def mix(dtype, n, specials, lo=-4.0, hi=4.0):
  """n values of `dtype`: random in [lo, hi) with `specials` spread over them."""
  v = rng.uniform(lo, hi, n)
  for k, s in enumerate(specials):
    v[(k * 7) % n] = s
  return cast(v, dtype)


def complex_mix(dtype, n, lo=-2.0, hi=2.0, zeros=True):
  re = rng.uniform(lo, hi, n)
  im = rng.uniform(lo, hi, n)
  v = (re + 1j * im).astype(dtype)
  if zeros and n > 6:
    v[3] = 0
    v[5] = 1j * im[5]
  return v


# ---- Activation gradients --------------------------------------------------------------

def act(op, second, **attrs):
  return lambda g, x: getattr(R, op)(gradients=g, **{second: x}, **attrs)


ACTIVATIONS = [
    ("ReluGrad", "features", {}), ("Relu6Grad", "features", {}),
    ("LeakyReluGrad", "features", {}), ("EluGrad", "outputs", {}),
    ("SeluGrad", "outputs", {}), ("SoftplusGrad", "features", {}),
    ("SoftsignGrad", "features", {}),
]


def add_activation_grads():
  for op, second, attrs in ACTIVATIONS:
    f = act(op, second, **attrs)
    for dt in FLOATS:
      big = finite_max(dt)
      x_special = [0.0, -0.0, 6.0, 5.999, -1.0, np.nan, np.inf, -np.inf, big, -big, 1e-3,
                   -30.0, 30.0, 100.0, -100.0, 0.5]
      g_special = [np.nan, np.inf, -np.inf, -0.0, 0.0, big, -big, 1.0]
      for n in (1, 7, 37, 203):
        x = mix(dt, n, x_special[:n] if n > 7 else [], -8.0, 8.0)
        g = mix(dt, n, g_special[:n] if n > 7 else [])
        w.add("%s_%s_%d" % (op.lower(), name(dt), n), f, [g, x])
      w.add("%s_%s_matrix" % (op.lower(), name(dt)), f,
            [mix(dt, 24, []).reshape(2, 3, 4), mix(dt, 24, [0.0, -0.5]).reshape(2, 3, 4)])
      w.add("%s_%s_scalar" % (op.lower(), name(dt)), f, [cast(1.5, dt), cast(-0.25, dt)])
      w.add("%s_%s_empty" % (op.lower(), name(dt)), f,
            [np.zeros((0, 3), dt), np.zeros((0, 3), dt)])
    # Errors: TensorFlow wants the same shape, not just as many elements.
    w.add("%s_shape_mismatch" % op.lower(), f, [np.ones(3, np.float32), np.ones(2, np.float32)],
          error_substr="must have the same size and shape.  Input 0: [3] != input 1: [2]")
    w.add("%s_same_count_other_shape" % op.lower(), f,
          [np.ones((2, 3), np.float32), np.ones((3, 2), np.float32)],
          error_substr="Input 0: [2,3] != input 1: [3,2]")
  for op in ("ReluGrad", "Relu6Grad"):
    f = act(op, "features")
    for dt in INTS:
      info = np.iinfo(dt)
      g = np.array([info.min, info.max, 0, 1, 3, info.max // 2, 9, info.min], dt)
      x = np.array([1, 0, 6, 5, 7, info.max, info.min, 2], dt)
      w.add("%s_%s" % (op.lower(), name(dt)), f, [g, x])
  f = act("LeakyReluGrad", "features")
  for alpha in (0.01, 0.0, -1.5, 3.0):
    for dt in FLOATS:
      w.add("leakyrelugrad_%s_alpha_%g" % (name(dt), alpha),
            lambda g, x, a=alpha: R.LeakyReluGrad(gradients=g, features=x, alpha=a),
            [mix(dt, 37, [np.nan, np.inf]), mix(dt, 37, [0.0, -0.0, np.nan])])
  # SoftplusGrad's exp on long inputs: every element of a tensor longer than a packet block.
  for dt in FLOATS:
    x = mix(dt, 517, [-88.0, -87.0, 88.0, 89.0, -104.0, 104.0], -20.0, 20.0)
    w.add("softplusgrad_%s_long" % name(dt), act("SoftplusGrad", "features"),
          [mix(dt, 517, []), x])


# ---- Gradients in terms of the output --------------------------------------------------

def out_grad(op):
  return lambda y, dy: getattr(R, op)(y=y, dy=dy)


# op -> (range of y, special values of y)
OUTPUT_GRADS = {
    "TanhGrad": ((-1.0, 1.0), [1.0, -1.0, 0.0, -0.0]),
    "SigmoidGrad": ((0.0, 1.0), [1.0, 0.0, 0.5]),
    "SqrtGrad": ((0.0, 8.0), [0.0, -0.0, 1e-20, 1e20]),
    "RsqrtGrad": ((0.0, 8.0), [0.0, 1e-20, 1e20, -1.0]),
    "ReciprocalGrad": ((-8.0, 8.0), [0.0, -0.0, 1e20, -1e-20]),
    "InvGrad": ((-8.0, 8.0), [0.0, 1e20]),
}


def add_output_grads():
  for op, ((lo, hi), y_special) in OUTPUT_GRADS.items():
    f = out_grad(op)
    for dt in FLOATS:
      big = finite_max(dt)
      specials = y_special + [np.nan, np.inf, -np.inf, big]
      dy_special = [0.0, -0.0, np.nan, np.inf, -np.inf, big, -big, 1e-3]
      for n in (1, 5, 37, 203):
        y = mix(dt, n, specials if n > 30 else [], lo, hi)
        dy = mix(dt, n, dy_special if n > 30 else [])
        w.add("%s_%s_%d" % (op.lower(), name(dt), n), f, [y, dy])
      # Finite values only, many of them, so the two forms' roundings show.
      w.add("%s_%s_finite" % (op.lower(), name(dt)), f,
            [mix(dt, 333, [], lo, hi), mix(dt, 333, [], -100.0, 100.0)])
      w.add("%s_%s_scalar" % (op.lower(), name(dt)), f, [cast(0.75, dt), cast(-2.0, dt)])
      w.add("%s_%s_empty" % (op.lower(), name(dt)), f,
            [np.zeros((2, 0), dt), np.zeros((2, 0), dt)])
    for dt in COMPLEX:
      for n in (1, 3, 37):
        w.add("%s_%s_%d" % (op.lower(), name(dt), n), f,
              [complex_mix(dt, n), complex_mix(dt, n, -50.0, 50.0)])
      # Infinities and NaN in either part, in the vector loop and in the scalar tail.
      special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.5, 1e30, -1e-30])
      re, im = np.meshgrid(special, special)
      grid = (re + 1j * im).astype(dt).ravel()
      w.add("%s_%s_nonfinite_y" % (op.lower(), name(dt)), f,
            [grid, np.full(grid.shape, 1.5 - 2j, dt)])
      w.add("%s_%s_nonfinite_dy" % (op.lower(), name(dt)), f,
            [np.full(grid.shape, 0.75 + 0.5j, dt), grid])
    # TensorFlow checks only the element counts: [2,3] and [3,2] give y's shape.
    w.add("%s_same_count_other_shape" % op.lower(), f,
          [mix(np.float32, 6, [], lo, hi).reshape(2, 3), mix(np.float32, 6, []).reshape(3, 2)])
    w.add("%s_count_mismatch" % op.lower(), f, [np.ones(3, np.float32), np.ones(2, np.float32)],
          error_substr="The two arguments to a cwise op must have same number of elements, "
                       "got 3 and 2")


# ---- BroadcastGradientArgs -------------------------------------------------------------

def add_broadcast_gradient_args():
  f = lambda s0, s1: R.BroadcastGradientArgs(s0=s0, s1=s1)
  pairs = [
      ([2, 3, 1], [3, 5]), ([2, 1, 3, 1], [5, 1, 1]), ([1, 1], [1, 1]), ([], []),
      ([4, 5], [4, 5]), ([], [3, 4]), ([3, 4], []), ([1], [1, 1]), ([1, 1], [1]),
      ([7, 1, 5], [1, 6, 1]), ([0, 3], [1, 3]), ([-1, 3], [1, 3]), ([1, 2, 3], [2, 3]),
      ([5, 1], [1]), ([2, 2, 2, 2, 2, 1], [1, 2, 1, 2, 1, 2]), ([3], [1]), ([1], [3]),
  ]
  for k, (a, b) in enumerate(pairs):
    for it in (np.int32, np.int64):
      w.add("bga_%d_%s" % (k, np.dtype(it).name), f, [np.array(a, it), np.array(b, it)])
  w.add("bga_incompatible", f, [np.int32([2, 3]), np.int32([4])],
        error_substr="Incompatible shapes: [2,3] vs. [4]")
  w.add("bga_incompatible_negative", f, [np.int64([-1, 3]), np.int64([2, 3])],
        error_substr="Incompatible shapes: [-1,3] vs. [2,3]")
  w.add("bga_s0_matrix", f, [np.int32([[2, 3]]), np.int32([3])],
        error_substr="In[0] must be a vector.[1,2]")
  w.add("bga_s1_scalar", f, [np.int32([2]), np.int32(2)],
        error_substr="In[1] must be a vector.[]")


# ---- ConcatOffset ----------------------------------------------------------------------

def concat_offset(n):
  return lambda d, *shapes: R.ConcatOffset(concat_dim=d, shape=list(shapes[:n]))


def add_concat_offset():
  for it in (np.int32, np.int64):
    s = lambda *v: np.array(v, it)
    t = np.dtype(it).name
    w.add("co_dim1_%s" % t, concat_offset(3), [np.int32(1), s(2, 3, 5), s(2, 7, 5), s(2, 0, 5)])
    w.add("co_dim0_%s" % t, concat_offset(2), [np.int32(0), s(4), s(9)])
    w.add("co_negative_dim_%s" % t, concat_offset(2), [np.int32(-1), s(2, 3), s(2, 4)])
    w.add("co_last_of_four_%s" % t, concat_offset(4),
          [np.int32(3), s(1, 2, 3, 4), s(1, 2, 3, 5), s(1, 2, 3, 6), s(1, 2, 3, 0)])
  w.add("co_dim_out_of_range", concat_offset(2), [np.int32(3), np.int32([2, 3, 5]),
                                                  np.int32([2, 7, 5])],
        error_substr="Concat dim is out of range: 3 vs. 3")
  w.add("co_negative_dim_out_of_range", concat_offset(2),
        [np.int32(-4), np.int32([2, 3, 5]), np.int32([2, 7, 5])],
        error_substr="Concat dim is out of range: -4 vs. 3")
  w.add("co_empty_shapes", concat_offset(2), [np.int32(0), np.int32([]), np.int32([])],
        error_substr="Concat dim is out of range: 0 vs. 0")
  w.add("co_mismatch", concat_offset(2), [np.int32(1), np.int32([2, 3, 5]),
                                          np.int32([2, 7, 6])],
        error_substr="All dimensions except 1 must match. Input 1 has shape [2 7 6] and "
                     "doesn't match input 0 with shape [2 3 5].")
  w.add("co_mismatch_long", concat_offset(2),
        [np.int32(0), np.int64(np.arange(1, 13)), np.int64(np.arange(2, 14))],
        error_substr="Input 1 has shape [2 3 4 5 6 7 8 9 10 11...]")
  w.add("co_rank_mismatch", concat_offset(2), [np.int32(1), np.int32([2, 3, 5]),
                                               np.int32([2, 7])],
        error_substr="input 1 should contain 3 elements, but got 2")
  w.add("co_shape_matrix", concat_offset(2), [np.int32(1), np.int32([[2, 3, 5]]),
                                              np.int32([2, 7, 5])],
        error_substr="input 1 should be a vector, but got shape [1,3]")
  w.add("co_shape_scalar", concat_offset(2), [np.int32(0), np.int32([2]), np.int32(3)],
        error_substr="input 2 should be a vector, but got shape []")
  w.add("co_dim_vector", concat_offset(2), [np.int32([1]), np.int32([2, 3]), np.int32([2, 3])],
        error_substr="Concat dim tensor should be a scalar integer, but got shape [1]")


# ---- BiasAddGrad -----------------------------------------------------------------------

def divup(a, b):
  return -(-a // b)


def tf_single_block(shape, nchw):
  """Whether TensorFlow's CPU kernel sums `shape` in one block whatever its thread count."""
  n = int(np.prod(shape))
  if nchw:
    outer, middle = shape[0], shape[1]
    inner = n // (outer * middle) if outer * middle else 0
    if inner * outer == 1:
      return True
    max_blocks = min(outer * middle, divup(n, divup(2000, inner)))
  else:
    inner = shape[-1]
    outer = n // inner if inner else 0
    if outer == 1:
      return True
    max_blocks = min(outer, divup(n, divup(2000, inner)))
  return max_blocks <= 1


def bias_values(dtype, shape, lo=-4.0, hi=4.0):
  if dtype in INTS:
    info = np.iinfo(dtype)
    return rng.randint(max(info.min, -100), min(info.max, 100) + 1, size=shape).astype(dtype)
  if dtype in COMPLEX:
    return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(dtype)
  return cast(rng.uniform(lo, hi, shape), dtype)


def add_bias_add_grad():
  small = {
      "NHWC": [(2, 3), (1, 5), (4, 1, 3), (2, 3, 4, 5), (2, 2, 2, 3, 4), (1, 1), (7, 33)],
      "NCHW": [(2, 3), (1, 5), (4, 1, 3), (2, 3, 4, 5), (2, 2, 2, 3, 4), (3, 2, 7), (1, 3, 1),
               (1, 1, 40), (2, 3, 35)],
  }
  # Longer runs for the floating types: Eigen's four accumulators and its tree split (past
  # 8 * 1024 floats, 4 * 1024 doubles, 8 * 200 halfs, 8 * 128 bfloat16s) in the NCHW rows,
  # and inputs TensorFlow splits into blocks.
  large = {
      np.float32: {"NHWC": [(100, 3), (300, 7), (40, 64)],
                   "NCHW": [(1, 1, 9000), (1, 2, 1000), (8, 4, 64)]},
      np.float64: {"NHWC": [(300, 7)], "NCHW": [(1, 1, 4500), (8, 4, 64)]},
      np.float16: {"NHWC": [(300, 7)], "NCHW": [(1, 1, 2000), (8, 4, 64)]},
      BF16: {"NHWC": [(300, 7)], "NCHW": [(1, 1, 1500), (8, 4, 64)]},
  }
  for dt in FLOATS + COMPLEX + INTS:
    for fmt in ("NHWC", "NCHW"):
      for shape in small[fmt] + large.get(dt, {}).get(fmt, []):
        exact = tf_single_block(shape, fmt == "NCHW")
        tol = {} if exact or dt in INTS else LARGE_TOL[dt]
        w.add("bag_%s_%s_%s" % (name(dt), fmt.lower(), "x".join(map(str, shape))),
              lambda g, f=fmt: R.BiasAddGrad(out_backprop=g, data_format=f),
              [bias_values(dt, shape)], **tol)
  # Integer sums wrap.
  for dt in INTS:
    info = np.iinfo(dt)
    w.add("bag_%s_wraps" % name(dt), lambda g: R.BiasAddGrad(out_backprop=g),
          [np.array([[info.max, info.min], [info.max, info.min], [1, -1 if info.min else 1]],
                    dt)])
  # Non-finite values and signed zeros.
  for dt in FLOATS:
    g = cast([[np.nan, np.inf, -0.0, 1.0], [1.0, -np.inf, -0.0, -1.0], [2.0, 3.0, -0.0, 0.0]],
             dt)
    w.add("bag_%s_nonfinite" % name(dt), lambda g: R.BiasAddGrad(out_backprop=g), [g])
    w.add("bag_%s_nonfinite_nchw" % name(dt),
          lambda g: R.BiasAddGrad(out_backprop=g, data_format="NCHW"), [g.reshape(1, 3, 4)])
    w.add("bag_%s_negative_zero_row" % name(dt), lambda g: R.BiasAddGrad(out_backprop=g),
          [cast([[-0.0, 1.0, -0.0]], dt)])
  for fmt in ("NHWC", "NCHW"):
    f = lambda g, f=fmt: R.BiasAddGrad(out_backprop=g, data_format=f)
    w.add("bag_empty_batch_%s" % fmt.lower(), f, [np.zeros((0, 3, 4), np.float32)])
    w.add("bag_empty_channels_%s" % fmt.lower(), f, [np.zeros((2, 0, 0), np.float32)])
    w.add("bag_vector_%s" % fmt.lower(), f, [np.ones(3, np.float32)],
          error_substr="Input tensor must be at least 2D: [3]")
    w.add("bag_scalar_%s" % fmt.lower(), f, [np.float32(1)],
          error_substr="Input tensor must be at least 2D: []")


# ---- DynamicStitch ---------------------------------------------------------------------

def stitch(n, parallel=False):
  op = R.ParallelDynamicStitch if parallel else R.DynamicStitch
  return lambda *args: op(indices=list(args[:n]), data=list(args[n:]))


def stitch_values(dtype, shape):
  if dtype is bool:
    return rng.randint(0, 2, size=shape).astype(bool)
  if dtype is object:
    return np.array([b"s%d" % rng.randint(1000) for _ in range(int(np.prod(shape)))],
                    object).reshape(shape)
  return bias_values(dtype, shape)


def add_dynamic_stitch():
  i32 = lambda *v: np.array(v, np.int32)
  for parallel in (False, True):
    p = "pds" if parallel else "ds"
    for dt in FLOATS + COMPLEX + INTS + [bool, object]:
      t = "string" if dt is object else ("bool" if dt is bool else name(dt))
      # Two inputs, a gap (row 3), rows of 2.
      w.add("%s_%s" % (p, t), stitch(2, parallel),
            [i32(0, 4, 2), i32(1, 5), stitch_values(dt, (3, 2)), stitch_values(dt, (2, 2))])
    f32 = np.float32
    w.add("%s_scalar_and_matrix_indices" % p, stitch(3, parallel),
          [np.int32(6), i32(4, 1), np.array([[5, 2], [0, 3]], np.int32),
           f32([61, 62]), f32([[41, 42], [11, 12]]),
           f32([[[51, 52], [21, 22]], [[1, 2], [31, 32]]])])
    w.add("%s_scalar_rows" % p, stitch(2, parallel),
          [i32(2, 0), i32(1), f32([20, 0]), f32([10])])
    w.add("%s_empty" % p, stitch(1, parallel), [i32(), np.zeros((0, 3), f32)])
    w.add("%s_empty_rows" % p, stitch(1, parallel), [i32(2, 0), np.zeros((2, 0), f32)])
    w.add("%s_gaps" % p, stitch(1, parallel), [i32(9), f32([7])])
    w.add("%s_rank3_rows" % p, stitch(2, parallel),
          [i32(1), i32(0, 2), stitch_values(np.float64, (1, 2, 3)),
           stitch_values(np.float64, (2, 2, 3))])
    w.add("%s_long" % p, stitch(2, parallel),
          [rng.permutation(300)[:150].astype(np.int32), rng.permutation(300)[150:].astype(
              np.int32), stitch_values(np.float32, (150, 3)), stitch_values(np.float32, (150, 3))])
    # Errors.
    w.add("%s_negative_index" % p, stitch(2, parallel), [i32(0, -1), i32(2), f32([1, 2]),
                                                        f32([3])],
          error_substr="indices[1] is out of range")
    w.add("%s_all_negative" % p, stitch(1, parallel), [i32(-1, -2), f32([1, 2])])
    w.add("%s_negative_index_empty_rows" % p, stitch(1, parallel),
          [i32(1, -1), np.zeros((2, 0), f32)],
          error_substr="indices[1] is out of range")
    w.add("%s_data_too_short" % p, stitch(1, parallel), [i32(0, 1), f32([1])],
          error_substr="data[0].shape = [1] does not start with indices[0].shape = [2]")
    w.add("%s_data_scalar" % p, stitch(1, parallel), [i32(0), np.float32(3)],
          error_substr="data[0].shape = [] does not start with indices[0].shape = [1]")
    w.add("%s_rest_mismatch" % p, stitch(2, parallel),
          [i32(0, 1), i32(2), f32([[1], [2]]), f32([[3, 4]])],
          error_substr="Need data[0].shape[1:] = data[1].shape[1:], got data[0].shape = [2,1], "
                       "data[1].shape = [1,2], indices[0].shape = [2], indices[1].shape = [1]")
  # Duplicates: DynamicStitch keeps the last row given (ParallelDynamicStitch leaves it open).
  w.add("ds_duplicates", stitch(2), [i32(0, 1, 0), i32(1), np.float32([1, 2, 5]),
                                     np.float32([3])])


add_activation_grads()
add_output_grads()
add_broadcast_gradient_args()
add_concat_offset()
add_bias_add_grad()
add_dynamic_stitch()
w.write()
