"""Writes fixtures/reduction.pbtxt: Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin,
Cumsum and TopKV2 in TensorFlow; complex Sum, Mean and Prod.

Run from anywhere: python3 tests/kernels/gen_reduction.py (needs TensorFlow 2.x and numpy).

Tolerances (|got - want| <= atol + rtol * |want|), per output dtype:
  float64  rtol 1e-12            float32  rtol 1e-5, atol 1e-6 (large sums: rtol 1e-4)
  float16  rtol 1e-2, atol 1e-2  bfloat16 rtol 2e-2, atol 2e-2
  complex64 rtol 1e-5, atol 1e-5 complex128 rtol 1e-12, atol 1e-12
Sums of floats may add in another order than TensorFlow's Eigen reductions, and Sluice
accumulates half/bfloat16 in float where TensorFlow rounds to half after each step; hence
the tolerances. Max, Min, the arg-reductions, TopKV2 and every integer or bool output are
exact (the tolerances only apply to floating outputs, and those ops do no arithmetic).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20240611)
w = CaseWriter("reduction")

FLOATS = [np.float32, np.float64, np.float16, BF16]
INTS = [np.int32, np.int64, np.int8, np.int16, np.uint8, np.uint16, np.uint32, np.uint64]
REAL = FLOATS + INTS
TOL = {
    np.float32: dict(rtol=1e-5, atol=1e-6),
    np.float64: dict(rtol=1e-12),
    np.float16: dict(rtol=1e-2, atol=1e-2),
    BF16: dict(rtol=2e-2, atol=2e-2),
}


def tname(dtype):
  return "bf16" if dtype is BF16 else np.dtype(dtype).name


def tol(dtype):
  return TOL.get(dtype, {})


def data(shape, dtype, lo=-5, hi=5):
  """Random values of `dtype` in [lo, hi) (clipped to the type's range)."""
  if dtype is bool:
    return rng.integers(0, 2, shape).astype(bool)
  if dtype in INTS:
    info = np.iinfo(dtype)
    return rng.integers(max(lo, info.min), min(hi, info.max), shape).astype(dtype)
  return rng.uniform(lo, hi, shape).astype(np.float32).astype(dtype)


def i32(v):
  return np.array(v, np.int32)


def reduce_op(op, keep_dims=False):
  return lambda x, a: getattr(R, op)(input=x, axis=a, keep_dims=keep_dims)


# ---- Sum, Mean, Prod, Max, Min ------------------------------------------------------------

REDUCTIONS = ["Sum", "Mean", "Prod", "Max", "Min"]
for op in REDUCTIONS:
  for dtype in REAL:
    lo, hi = ((1, 3) if op == "Prod" and dtype in INTS else (-5, 9))
    if op == "Prod" and dtype in FLOATS:
      lo, hi = 0.5, 1.5
    x = data((2, 3, 4), dtype, lo, hi)
    n = "%s_%s" % (op.lower(), tname(dtype))
    w.add(n + "_axis1", reduce_op(op), [x, i32([1])], **tol(dtype))
    w.add(n + "_axes02_keep", reduce_op(op, True), [x, i32([0, 2])], **tol(dtype))
    w.add(n + "_all", reduce_op(op), [x, i32([0, 1, 2])], **tol(dtype))
  for dtype in (np.float32, np.int32):
    x = data((2, 3, 2, 3), dtype)
    n = "%s_%s" % (op.lower(), tname(dtype))
    w.add(n + "_neg_axis", reduce_op(op), [x, i32(-1)], **tol(dtype))
    w.add(n + "_scalar_axis", reduce_op(op, True), [x, i32(0)], **tol(dtype))
    w.add(n + "_axes_13_int64", reduce_op(op), [x, np.array([3, 1], np.int64)], **tol(dtype))
    w.add(n + "_axes_0_2", reduce_op(op), [x, i32([-4, 2])], **tol(dtype))
    w.add(n + "_empty_axes", reduce_op(op), [x, np.zeros((0,), np.int32)], **tol(dtype))
    w.add(n + "_size1_dims", reduce_op(op), [data((3, 1, 4, 1), dtype), i32([1, 3])],
          **tol(dtype))
    w.add(n + "_size1_and_real", reduce_op(op, True), [data((3, 1, 4), dtype), i32([1, 2])],
          **tol(dtype))
    w.add(n + "_scalar_input", reduce_op(op), [np.array(7, dtype), np.zeros((0,), np.int32)])
    w.add(n + "_empty_reduced", reduce_op(op), [np.zeros((0, 3), dtype), i32([0])])
    w.add(n + "_empty_reduced_keep", reduce_op(op, True), [np.zeros((2, 0, 3), dtype), i32(1)])
    w.add(n + "_empty_output", reduce_op(op), [np.zeros((0, 3), dtype), i32([1])])
    w.add(n + "_axes_rank2", reduce_op(op), [x, i32([[0], [2]])], **tol(dtype))
    w.add(n + "_dup_axes", reduce_op(op), [x, i32([1, -3])],
          error_substr="Axes contains duplicate dimension: 1")
    w.add(n + "_axis_too_big", reduce_op(op), [x, i32([4])],
          error_substr="Invalid reduction dimension (4 for input with 4 dimension(s)")
    w.add(n + "_axis_too_small", reduce_op(op), [x, np.array([-5], np.int64)],
          error_substr="Invalid reduction dimension")
    w.add(n + "_scalar_bad_axis", reduce_op(op), [np.array(1, dtype), i32(0)],
          error_substr="Invalid reduction dimension")
  special = np.array([[1, np.nan, 3], [np.inf, 2, -np.inf], [-np.inf, -1, 5],
                      [np.inf, np.inf, 1]], np.float32)
  w.add("%s_f32_nan_inf_rows" % op.lower(), reduce_op(op), [special, i32(1)], rtol=1e-6)
  w.add("%s_f32_nan_inf_cols" % op.lower(), reduce_op(op), [special, i32(0)], rtol=1e-6)
  for dtype in (np.float16, BF16, np.float64):
    w.add("%s_%s_empty_reduced" % (op.lower(), tname(dtype)), reduce_op(op),
          [np.zeros((0, 2), dtype), i32(0)])
  for dtype in (np.uint8, np.int8, np.int64, np.uint64):
    w.add("%s_%s_empty_reduced" % (op.lower(), tname(dtype)), reduce_op(op),
          [np.zeros((2, 0), dtype), i32(1)])

# Wrap-around and wide accumulation of integers.
big32 = np.array([2**30, 2**30, 2**30, 3], np.int32)
w.add("sum_i32_wraps", reduce_op("Sum"), [big32, i32(0)])
w.add("mean_i32_sums_in_int64", reduce_op("Mean"), [big32, i32(0)])
w.add("mean_u8_sums_wide", reduce_op("Mean"), [np.array([200, 200, 4], np.uint8), i32(0)])
w.add("sum_u8_wraps", reduce_op("Sum"), [np.array([200, 200, 4], np.uint8), i32(0)])
w.add("mean_i8_negative_truncates", reduce_op("Mean"), [np.array([-7, 0, 0], np.int8), i32(0)])
w.add("mean_i64_wraps", reduce_op("Mean"),
      [np.array([2**62, 2**62, 3], np.int64), i32(0)])
w.add("prod_i32_wraps", reduce_op("Prod"), [np.array([65536, 65537, 3], np.int32), i32(0)])
w.add("prod_u16_wraps", reduce_op("Prod"), [np.array([300, 300], np.uint16), i32(0)])
w.add("max_i64_extremes", reduce_op("Max"),
      [np.array([-2**63, 2**63 - 1, 0], np.int64), i32(0)])
w.add("min_u64_extremes", reduce_op("Min"),
      [np.array([2**64 - 1, 5, 2**63], np.uint64), i32(0)])

# Larger shapes: every pass layout and the parallel paths.
large = rng.standard_normal((24, 40)).astype(np.float32)
for op in REDUCTIONS:
  if op == "Prod":
    continue
  for axes in ([0], [1], [0, 1]):
    w.add("%s_f32_large_axes%s" % (op.lower(), "".join(map(str, axes))), reduce_op(op),
          [large, i32(axes)], rtol=1e-4, atol=1e-4)
w.add("sum_f32_long_column", reduce_op("Sum"),
      [rng.standard_normal((600, 3)).astype(np.float32), i32(0)], rtol=1e-4, atol=1e-4)
# Over kMinParallelElements (32K): the reduction splits over the intra-op pool.
# (int8 keeps the fixture small; the sums wrap, exactly as in TensorFlow.)
w.add("sum_i8_parallel", reduce_op("Sum"), [data((180, 190), np.int8, -100, 100), i32(1)])
w.add("mean_f32_4d_alternating", reduce_op("Mean"),
      [rng.standard_normal((4, 5, 6, 7)).astype(np.float32), i32([0, 2])], rtol=1e-5,
      atol=1e-6)
w.add("max_i32_4d_alternating", reduce_op("Max"),
      [data((4, 5, 6, 7), np.int32, -1000, 1000), i32([1, 3])])

# ---- All, Any ---------------------------------------------------------------------------

for op in ("All", "Any"):
  xb = data((3, 4, 5), bool)
  n = op.lower()
  w.add(n + "_axis1", reduce_op(op), [xb, i32([1])])
  w.add(n + "_axes02_keep", reduce_op(op, True), [xb, i32([0, 2])])
  w.add(n + "_all_axes_int64", reduce_op(op), [xb, np.array([0, 1, 2], np.int64)])
  w.add(n + "_neg_axis", reduce_op(op), [xb, i32(-1)])
  w.add(n + "_empty_axes", reduce_op(op), [xb, np.zeros((0,), np.int32)])
  w.add(n + "_all_true", reduce_op(op), [np.ones((2, 3), bool), i32(1)])
  w.add(n + "_all_false", reduce_op(op), [np.zeros((2, 3), bool), i32(1)])
  w.add(n + "_empty_reduced", reduce_op(op), [np.zeros((0, 3), bool), i32(0)])
  w.add(n + "_dup_axes", reduce_op(op), [xb, i32([0, 0])])
  w.add(n + "_bad_axis", reduce_op(op), [xb, i32([3])])
  w.add(n + "_large", reduce_op(op), [rng.random((20, 30)) > 0.02, i32([1])])

# ---- ArgMax, ArgMin ---------------------------------------------------------------------


def arg_op(op, output_type=tf.int64):
  return lambda x, d: getattr(R, op)(input=x, dimension=d, output_type=output_type)


for op in ("ArgMax", "ArgMin"):
  n0 = op.lower()
  for dtype in REAL + [bool]:
    x = data((3, 4, 5), dtype, -3, 4)  # small range: many ties
    n = "%s_%s" % (n0, "bool" if dtype is bool else tname(dtype))
    w.add(n + "_dim0", arg_op(op), [x, i32(0)])
    w.add(n + "_dim1_i32", arg_op(op, tf.int32), [x, i32(1)])
    w.add(n + "_dim_neg1", arg_op(op), [x, i32(-1)])
  x = data((4, 6), np.float32)
  out_types = [tf.int32, tf.int64] + ([tf.int16, tf.uint16] if op == "ArgMax" else [])
  for ot in out_types:
    w.add("%s_f32_out_%s" % (n0, ot.name), arg_op(op, ot), [x, i32(1)])
  w.add(n0 + "_dim_int64", arg_op(op), [x, np.array(-2, np.int64)])
  # No int16 `dimension` case: TensorFlow 2.21 reads an int16 dimension as int32 (reading
  # past the value), so its result is not a fixed oracle. A unit test covers it.
  w.add(n0 + "_1d", arg_op(op), [np.array([3, 1, 3, 0, 1], np.float32), i32(0)])
  w.add(n0 + "_ties_first", arg_op(op), [np.array([[2, 2, 2], [1, 1, 1]], np.int32), i32(1)])
  w.add(n0 + "_nan", arg_op(op),
        [np.array([[1, np.nan, 3, np.nan], [np.nan, 1, 0, 2], [np.nan, np.nan, np.nan, np.nan],
                   [-np.inf, np.inf, np.nan, np.inf]], np.float32), i32(1)])
  w.add(n0 + "_infs", arg_op(op), [np.array([-np.inf, -np.inf, np.inf, np.inf], np.float32),
                                   i32(0)])
  w.add(n0 + "_empty_output", arg_op(op), [np.zeros((0, 3), np.float32), i32(1)])
  w.add(n0 + "_empty_dim", arg_op(op), [np.zeros((0, 3), np.float32), i32(0)],
        error_substr="Reduction axis 0 is empty in shape [0,3]")
  w.add(n0 + "_dim_out_of_range", arg_op(op), [x, i32(2)],
        error_substr="Expected dimension in the range [-2, 2), but got 2")
  w.add(n0 + "_dim_too_small", arg_op(op), [x, i32(-3)])
  w.add(n0 + "_dim_not_scalar", arg_op(op), [x, i32([1])],
        error_substr="dim must be a scalar")
  w.add(n0 + "_scalar_input", arg_op(op), [np.array(1.0, np.float32), i32(0)])
  w.add(n0 + "_large_rows", arg_op(op), [rng.standard_normal((30, 40)).astype(np.float32),
                                         i32(1)])
  w.add(n0 + "_large_cols", arg_op(op), [rng.standard_normal((30, 40)).astype(np.float32),
                                         i32(0)])

# ---- Cumsum -----------------------------------------------------------------------------


def cumsum(exclusive=False, reverse=False):
  return lambda x, a: R.Cumsum(x=x, axis=a, exclusive=exclusive, reverse=reverse)


for dtype in REAL:
  x = data((3, 4), dtype, -3, 6)
  n = "cumsum_%s" % tname(dtype)
  w.add(n + "_axis1", cumsum(), [x, i32(1)], **tol(dtype))
  w.add(n + "_axis0_excl_rev", cumsum(True, True), [x, i32(0)], **tol(dtype))
for dtype in (np.float32, np.int32):
  x = data((2, 3, 4), dtype)
  n = "cumsum_%s" % tname(dtype)
  for exclusive in (False, True):
    for reverse in (False, True):
      for axis in (0, 1, -1):
        w.add("%s_ax%d%s%s" % (n, axis, "_excl" if exclusive else "", "_rev" if reverse else ""),
              cumsum(exclusive, reverse), [x, i32(axis)], **tol(dtype))
  w.add(n + "_axis_int64", cumsum(), [x, np.array(-2, np.int64)], **tol(dtype))
  w.add(n + "_empty", cumsum(), [np.zeros((0, 3), dtype), i32(1)])
  w.add(n + "_1d", cumsum(True), [data((7,), dtype), i32(0)], **tol(dtype))
w.add("cumsum_i8_wraps", cumsum(), [np.full((2, 3), 100, np.int8), i32(1)])
w.add("cumsum_f32_nan_inf", cumsum(),
      [np.array([1, np.inf, 2, np.nan, 3], np.float32), i32(0)], rtol=1e-6)
w.add("cumsum_f32_large", cumsum(False, True),
      [rng.standard_normal((30, 40)).astype(np.float32), i32(0)], rtol=1e-4, atol=1e-4)
w.add("cumsum_axis_out_of_range", cumsum(), [np.ones((2, 3), np.float32), i32(2)],
      error_substr="ScanOp: Expected scan axis in the range [-2, 2), but got 2")
w.add("cumsum_axis_too_small", cumsum(), [np.ones((2, 3), np.float32), i32(-3)])
w.add("cumsum_axis_not_scalar", cumsum(), [np.ones((2, 3), np.float32), i32([1])],
      error_substr="axis must be a scalar")
w.add("cumsum_scalar_input", cumsum(), [np.array(2.0, np.float32), i32(0)])

# ---- TopKV2 -----------------------------------------------------------------------------


def topk(sorted_=True, index_type=tf.int32):
  return lambda x, k: R.TopKV2(input=x, k=k, sorted=sorted_, index_type=index_type)


for dtype in REAL:
  x = data((3, 7), dtype, -4, 5)  # ties
  n = "topk_%s" % tname(dtype)
  w.add(n + "_k3", topk(), [x, i32(3)])
  w.add(n + "_k_all", topk(), [x, i32(7)])
for it in (tf.int16, tf.int32, tf.int64):
  w.add("topk_f32_index_%s" % it.name, topk(True, it),
        [data((2, 3, 6), np.float32), i32(2)])
w.add("topk_k_int64", topk(), [data((4, 5), np.float32), np.array(4, np.int64)])
w.add("topk_k_int16", topk(), [data((4, 5), np.float32), np.array(1, np.int16)])
w.add("topk_k1", topk(), [data((5, 9), np.int32, -2, 2), i32(1)])
w.add("topk_k0", topk(), [data((2, 4), np.float32), i32(0)])
w.add("topk_1d", topk(), [np.array([1, 3, 3, 2, 5, 3], np.float32), i32(4)])
w.add("topk_nan_k_all", topk(), [np.array([1, 3, 3, 2, np.nan, 5], np.float32), i32(6)])
w.add("topk_nan_excluded", topk(), [np.array([1, 3, 3, 2, np.nan, 5], np.float32), i32(3)])
w.add("topk_infs", topk(), [np.array([-np.inf, 1, np.inf, -np.inf], np.float32), i32(4)])
w.add("topk_unsorted_k_all", topk(False), [data((3, 8), np.float32), i32(8)])
w.add("topk_unsorted_k1", topk(False), [data((3, 8), np.float32), i32(1)])
w.add("topk_empty_rows", topk(), [np.zeros((0, 4), np.float32), i32(2)])
w.add("topk_empty_cols", topk(), [np.zeros((2, 0), np.float32), i32(0)])
w.add("topk_large", topk(), [rng.standard_normal((20, 30)).astype(np.float32), i32(5)])
w.add("topk_large_half_k", topk(), [rng.standard_normal((10, 60)).astype(np.float32),
                                    i32(40)])
w.add("topk_k_too_big", topk(), [np.ones((2, 3), np.float32), i32(4)],
      error_substr="input must have at least k columns. Had 3, needed 4")
w.add("topk_k_negative", topk(), [np.ones((2, 3), np.float32), i32(-1)],
      error_substr="Need k >= 0, got -1")
w.add("topk_k_not_scalar", topk(), [np.ones((2, 3), np.float32), i32([1])],
      error_substr="k must be scalar")
w.add("topk_scalar_input", topk(), [np.array(1.0, np.float32), i32(1)],
      error_substr="input must be >= 1-D")

# ---- Complex Sum, Mean, Prod (a generator of their own: the cases above keep their values) ----
crng = np.random.default_rng(20261209)
CTOL = {np.complex64: dict(rtol=1e-5, atol=1e-5), np.complex128: dict(rtol=1e-12, atol=1e-12)}
for dtype, name in ((np.complex64, "c64"), (np.complex128, "c128")):
  x = (crng.uniform(-2, 2, (3, 4, 5)) + 1j * crng.uniform(-2, 2, (3, 4, 5))).astype(dtype)
  for op in ("Sum", "Mean", "Prod"):
    for axes, keep in (([1], False), ([0, 2], True), ([-1], False), ([0, 1, 2], False)):
      w.add("%s_%s_axes_%s_%s" % (op.lower(), name, "_".join(map(str, axes)).replace("-", "m"),
                                  "keep" if keep else "drop"),
            reduce_op(op, keep), [x, i32(axes)], **CTOL[dtype])
    w.add("%s_%s_empty_axis" % (op.lower(), name), reduce_op(op),
          [np.zeros((0, 3), dtype), i32([0])], **CTOL[dtype])
w.add("sum_c64_large", reduce_op("Sum"),
      [(crng.uniform(-1, 1, (64, 300)) + 1j * crng.uniform(-1, 1, (64, 300))).astype(np.complex64),
       i32([1])], rtol=1e-4, atol=1e-4)

# ---- NthElement ---------------------------------------------------------------------------
def nth(reverse=False):
  return lambda x, n: R.NthElement(input=x, n=n, reverse=reverse)


nth_rng = np.random.default_rng(7)  # apart from rng, so the cases above keep their inputs
for dt in (np.float32, np.float64, np.float16, BF16, np.int32, np.int64, np.uint8, np.int8,
           np.int16, np.uint16, np.uint32, np.uint64):
  x = nth_rng.integers(0, 50, (3, 7)).astype(np.float32).astype(dt)
  w.add("nth_element_%s" % tname(dt), nth(), [x, np.int32(2)])
  w.add("nth_element_reverse_%s" % tname(dt), nth(True), [x, np.int32(0)])
w.add("nth_element_vector", nth(), [np.float32([5, 1, 4, 2, 3]), np.int32(4)])
w.add("nth_element_3d", nth(True), [nth_rng.standard_normal((2, 3, 9)).astype(np.float32),
                                     np.int32(5)])
w.add("nth_element_large", nth(), [nth_rng.standard_normal((400, 300)).astype(np.float32),
                                    np.int32(150)])
w.add("nth_element_nan", nth(), [np.float32([[3, np.nan, 1, 2], [np.nan, 0, np.nan, 5]]),
                                  np.int32(3)])
w.add("nth_element_empty_rows", nth(), [np.zeros((0, 4), np.float32), np.int32(1)])
w.add("nth_element_n_too_big", nth(), [np.float32([[3, 1, 2]]), np.int32(3)])
w.add("nth_element_negative_n", nth(), [np.float32([[3, 1, 2]]), np.int32(-1)])
w.add("nth_element_scalar_input", nth(), [np.float32(3), np.int32(0)])
w.add("nth_element_n_vector", nth(), [np.float32([3]), np.int32([0])])

w.write()
