"""Writes fixtures/array.pbtxt: TensorFlow's shape and layout ops (kernels/cpu/array/).

Run from anywhere: python3 tests/kernels/gen_array.py (needs TensorFlow 2.x and numpy).
Tolerance: exact (rtol = atol = 0) for every case. These ops only move, fill or count
elements; Range computes start + i * delta, one rounding per element as in TensorFlow.
"""
import os
import re
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(11)
w = CaseWriter("array")

BF16 = tf.bfloat16.as_numpy_dtype
NUMERIC = [np.float32, np.float64, np.float16, BF16, np.int8, np.int16, np.int32, np.int64,
           np.uint8, np.uint16, np.uint32, np.uint64, np.complex64, np.complex128]
ALL = NUMERIC + [np.bool_, np.object_]  # object: tf.string


def tname(dtype):
  return {np.object_: "string", BF16: "bfloat16", np.bool_: "bool"}.get(
      dtype, np.dtype(dtype).name)


def vals(dtype, shape):
  """Distinct, deterministic values of `dtype`."""
  n = int(np.prod(shape))
  base = np.arange(1, n + 1)
  if dtype is np.object_:
    return np.array([b"s%d" % i for i in base], dtype=object).reshape(shape)
  if dtype is np.bool_:
    return (base % 3 == 0).reshape(shape)
  if dtype in (np.complex64, np.complex128):
    return (base + 1j * (base % 5)).astype(dtype).reshape(shape)
  if dtype in (np.float32, np.float64, np.float16, BF16):
    return (base * 0.5 - 3).astype(dtype).reshape(shape)
  return (base % 100).astype(dtype).reshape(shape)


def big(*shape):
  """A tensor above the kernels' parallel threshold (32K elements), stored compactly:
  uint8 letters are one character each in the fixture's text."""
  return rng.integers(97, 123, shape).astype(np.uint8)


def i32(*v):
  return np.array(v, np.int32)


def i64(*v):
  return np.array(v, np.int64)


# ---- Reshape, Squeeze, ExpandDims ---------------------------------------------------------
reshape = lambda x, s: R.Reshape(tensor=x, shape=s)
for dt in ALL:
  w.add("reshape_%s" % tname(dt), reshape, [vals(dt, (2, 3)), i32(3, 2)])
w.add("reshape_infer_i64", reshape, [vals(np.float32, (2, 3, 4)), i64(-1, 4)])
w.add("reshape_infer_mid", reshape, [vals(np.float32, (2, 3, 4)), i32(2, -1, 3)])
w.add("reshape_scalar_to_1", reshape, [np.float32(5), i32(1, 1)])
w.add("reshape_to_scalar", reshape, [np.array([7], np.int32), np.zeros((0,), np.int32)])
w.add("reshape_scalar_shape", reshape, [np.array([7], np.int32), np.int32(1)])
w.add("reshape_empty_infer_zero", reshape, [np.zeros((0, 3), np.float32), i32(-1, 0)])
w.add("reshape_empty_infer", reshape, [np.zeros((0, 3), np.float32), i32(-1, 2)])
w.add("reshape_empty_to_zero", reshape, [np.zeros((0, 3), np.float32), i32(3, 0, 5)])
w.add("reshape_bad_count", reshape, [vals(np.float32, (2, 3)), i32(5)],
      error_substr="Input to reshape is a tensor with 6 values")
w.add("reshape_bad_multiple", reshape, [vals(np.float32, (2, 3)), i32(4, -1)],
      error_substr="requires a multiple of 4")
w.add("reshape_two_unknown", reshape, [vals(np.float32, (2, 3)), i32(-1, -1)],
      error_substr="Only one input size may be -1")
w.add("reshape_negative", reshape, [vals(np.float32, (2, 3)), i32(-2, -3)],
      error_substr="must be non-negative")
w.add("reshape_shape_rank2", reshape, [vals(np.float32, (2, 3)), np.array([[6]], np.int32)],
      error_substr="sizes input must be 1-D")

for dt in (np.float32, np.int32, np.object_, np.bool_):
  w.add("squeeze_all_%s" % tname(dt), lambda x: R.Squeeze(input=x), [vals(dt, (1, 2, 1, 3, 1))])
w.add("squeeze_dims", lambda x: R.Squeeze(input=x, axis=[0, 2]), [vals(np.float32, (1, 2, 1, 3, 1))])
w.add("squeeze_neg", lambda x: R.Squeeze(input=x, axis=[-1]), [vals(np.float32, (1, 2, 1))])
w.add("squeeze_to_scalar", lambda x: R.Squeeze(input=x), [vals(np.float32, (1, 1))])
w.add("squeeze_empty", lambda x: R.Squeeze(input=x), [np.zeros((1, 0, 1), np.float32)])
w.add("squeeze_scalar", lambda x: R.Squeeze(input=x), [np.float32(3)])
w.add("squeeze_not_one", lambda x: R.Squeeze(input=x, axis=[1]), [vals(np.float32, (2, 3))],
      error_substr="Can not squeeze dim[1]")
w.add("squeeze_out_of_range", lambda x: R.Squeeze(input=x, axis=[5]),
      [vals(np.float32, (2, 3))], error_substr="Tried to squeeze dim index 5")

expand = lambda x, d: R.ExpandDims(input=x, axis=d)
for dt in ALL:
  w.add("expand_dims_%s" % tname(dt), expand, [vals(dt, (2, 3)), np.int32(1)])
w.add("expand_dims_neg", expand, [vals(np.float32, (2, 3)), np.int32(-1)])
w.add("expand_dims_neg_first", expand, [vals(np.float32, (2, 3)), np.int64(-3)])
w.add("expand_dims_end", expand, [vals(np.float32, (2, 3)), np.int32(2)])
w.add("expand_dims_scalar", expand, [np.float32(2), np.int32(0)])
w.add("expand_dims_vec_dim", expand, [vals(np.float32, (2, 3)), i32(0)])
w.add("expand_dims_bad", expand, [vals(np.float32, (2, 3)), np.int32(4)],
      error_substr="Tried to expand dim index 4")
w.add("expand_dims_bad_neg", expand, [vals(np.float32, (2, 3)), np.int32(-4)])
w.add("expand_dims_two_values", expand, [vals(np.float32, (2, 3)), i32(1, 2)],
      error_substr="'dim' must be a tensor with a single value")

# ---- Shape, ShapeN, Size, Rank ------------------------------------------------------------
for dt in ALL:
  w.add("shape_%s" % tname(dt), lambda x: R.Shape(input=x), [vals(dt, (2, 3, 1))])
w.add("shape_i64", lambda x: R.Shape(input=x, out_type=tf.int64), [vals(np.float32, (4, 0))])
w.add("shape_scalar", lambda x: R.Shape(input=x), [np.float32(1)])
w.add("shape_n", lambda *xs: R.ShapeN(input=list(xs)),
      [vals(np.int32, (2, 3)), vals(np.int32, (4,)), np.int32(1)])
w.add("shape_n_i64", lambda *xs: R.ShapeN(input=list(xs), out_type=tf.int64),
      [vals(np.object_, (2,)), vals(np.object_, (1, 1))])
for dt in (np.float32, np.object_, np.bool_, np.complex64):
  w.add("size_%s" % tname(dt), lambda x: R.Size(input=x), [vals(dt, (2, 3))])
w.add("size_i64", lambda x: R.Size(input=x, out_type=tf.int64), [vals(np.float32, (2, 5))])
w.add("size_empty", lambda x: R.Size(input=x), [np.zeros((3, 0), np.float32)])
w.add("size_scalar", lambda x: R.Size(input=x), [np.float32(1)])
for dt in (np.float32, np.object_, np.int64):
  w.add("rank_%s" % tname(dt), lambda x: R.Rank(input=x), [vals(dt, (2, 1, 3))])
w.add("rank_scalar", lambda x: R.Rank(input=x), [np.float32(1)])

# ---- Fill, ZerosLike, OnesLike ------------------------------------------------------------
fill = lambda d, v: R.Fill(dims=d, value=v)
for dt in ALL:
  w.add("fill_%s" % tname(dt), fill, [i32(2, 3), vals(dt, (1,)).reshape(())])
w.add("fill_i64_dims", fill, [i64(3, 1, 2), np.float32(1.5)])
w.add("fill_scalar", fill, [np.zeros((0,), np.int32), np.float32(4)])
w.add("fill_empty", fill, [i32(0, 3), np.float32(4)])
w.add("fill_nan", fill, [i32(2), np.float32(np.nan)])
w.add("fill_negative", fill, [i32(2, -3), np.float32(1)], error_substr="must be >= 0")
w.add("fill_dims_matrix", fill, [np.array([[2]], np.int32), np.float32(1)],
      error_substr="dims must represent a vector")
w.add("fill_value_vector", fill, [i32(2), np.array([1, 2], np.float32)])
w.add("fill_large", fill, [i32(180, 200), np.uint8(97)])
for dt in ALL:
  w.add("zeros_like_%s" % tname(dt), lambda x: R.ZerosLike(x=x), [vals(dt, (2, 3))])
w.add("zeros_like_empty", lambda x: R.ZerosLike(x=x), [np.zeros((0, 2), np.float32)])
for dt in NUMERIC + [np.bool_]:
  w.add("ones_like_%s" % tname(dt), lambda x: R.OnesLike(x=x), [vals(dt, (2, 3))])

# ---- Range --------------------------------------------------------------------------------
rng_op = lambda a, b, c: R.Range(start=a, limit=b, delta=c)
for dt in (np.int32, np.int64, np.float32, np.float64, np.float16, BF16):
  d = lambda v: np.array(v, dt)
  w.add("range_%s" % tname(dt), rng_op, [d(1), d(10), d(2)])
  w.add("range_%s_neg" % tname(dt), rng_op, [d(10), d(-3), d(-3)])
  w.add("range_%s_empty" % tname(dt), rng_op, [d(3), d(3), d(1)])
w.add("range_f32_frac", rng_op, [np.float32(0.1), np.float32(2.05), np.float32(0.3)])
w.add("range_f64_frac", rng_op, [np.float64(-1), np.float64(1), np.float64(0.1)])
w.add("range_i32_extremes", rng_op,
      [np.int32(-2**31), np.int32(2**31 - 1), np.int32(2**30)])
w.add("range_i64_extremes", rng_op,
      [np.int64(-2**63), np.int64(2**63 - 1), np.int64(2**62)])
w.add("range_f16_frac", rng_op, [np.float16(0.1), np.float16(7.3), np.float16(0.7)])
w.add("range_bf16_frac", rng_op, [np.array(-2.2, BF16), np.array(5.1, BF16), np.array(0.3, BF16)])
w.add("range_f32_inexact_count", rng_op, [np.float32(0), np.float32(1), np.float32(0.1)])
w.add("range_f32_nan", rng_op, [np.float32(0), np.float32(np.nan), np.float32(1)])
w.add("range_f32_inf", rng_op, [np.float32(0), np.float32(np.inf), np.float32(1)])
w.add("range_zero_delta", rng_op, [np.int32(0), np.int32(5), np.int32(0)],
      error_substr="Requires delta != 0")
w.add("range_zero_delta_f32", rng_op, [np.float32(0), np.float32(5), np.float32(0)],
      error_substr="Requires delta != 0")
w.add("range_wrong_sign_neg", rng_op, [np.int32(0), np.int32(5), np.int32(-1)],
      error_substr="Requires start >= limit when delta < 0")
w.add("range_wrong_sign_pos", rng_op, [np.int64(5), np.int64(0), np.int64(1)],
      error_substr="Requires start <= limit when delta > 0")
w.add("range_vector_start", rng_op, [i32(1, 2), np.int32(5), np.int32(1)])
w.add("range_f32_too_many", rng_op, [np.float32(0), np.float32(1e30), np.float32(1e-30)])

# ---- Concat, ConcatV2, Pack, Unpack -------------------------------------------------------
concat2 = lambda *xs: R.ConcatV2(values=list(xs[:-1]), axis=xs[-1])
concat1 = lambda *xs: R.Concat(concat_dim=xs[0], values=list(xs[1:]))
for dt in ALL:
  w.add("concat_v2_%s" % tname(dt), concat2,
        [vals(dt, (2, 3)), vals(dt, (2, 1)), np.int32(1)])
w.add("concat_v2_axis0", concat2, [vals(np.float32, (2, 3)), vals(np.float32, (1, 3)), np.int32(0)])
w.add("concat_v2_neg_axis", concat2,
      [vals(np.int32, (2, 2, 3)), vals(np.int32, (2, 2, 2)), vals(np.int32, (2, 2, 1)),
       np.int64(-1)])
w.add("concat_v2_mid_axis", concat2,
      [vals(np.float64, (2, 1, 3)), vals(np.float64, (2, 4, 3)), np.int32(1)])
w.add("concat_v2_empty_input", concat2,
      [vals(np.float32, (2, 0)), vals(np.float32, (2, 3)), np.int32(1)])
w.add("concat_v2_all_empty", concat2,
      [np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32), np.int32(1)])
w.add("concat_v2_large", concat2,
      [big(64, 300), big(64, 220), np.int32(1)])
w.add("concat_v2_bad_axis", concat2,
      [vals(np.float32, (2, 3)), vals(np.float32, (2, 3)), np.int32(2)],
      error_substr="Expected concatenating dimensions in the range [-2, 2)")
w.add("concat_v2_rank_mismatch", concat2,
      [vals(np.float32, (2, 3)), vals(np.float32, (3,)), np.int32(0)])
w.add("concat_v2_dim_mismatch", concat2,
      [vals(np.float32, (2, 3)), vals(np.float32, (3, 2)), np.int32(0)])
w.add("concat_v2_axis_vector", concat2,
      [vals(np.float32, (2, 3)), vals(np.float32, (2, 3)), i32(0)])
w.add("concat_v2_scalars", concat2, [np.float32(1), np.float32(2), np.int32(0)])
w.add("concat_v1", concat1, [np.int32(0), vals(np.float32, (1, 2)), vals(np.float32, (2, 2))])
w.add("concat_v1_neg", concat1, [np.int32(-1), vals(np.object_, (2, 1)), vals(np.object_, (2, 2))])
w.add("concat_v1_bad_axis", concat1, [np.int32(-3), vals(np.float32, (1, 2)), vals(np.float32, (1, 2))])

pack = lambda axis: (lambda *xs: R.Pack(values=list(xs), axis=axis))
for dt in ALL:
  w.add("pack_%s" % tname(dt), pack(0), [vals(dt, (2, 3)), vals(dt, (2, 3))[::-1].copy()])
w.add("pack_axis1", pack(1), [vals(np.float32, (2, 3))] * 3)
w.add("pack_axis_last", pack(2), [vals(np.int64, (2, 3)), vals(np.int64, (2, 3)) + 7])
w.add("pack_neg_axis", pack(-1), [vals(np.int32, (2, 2)), vals(np.int32, (2, 2)) * 2])
w.add("pack_scalars", pack(0), [np.float32(1), np.float32(2), np.float32(3)])
w.add("pack_one", pack(0), [vals(np.float32, (2,))])
w.add("pack_empty", pack(1), [np.zeros((2, 0), np.float32), np.zeros((2, 0), np.float32)])
w.add("pack_string_axis1", pack(1), [vals(np.object_, (2, 2)), vals(np.object_, (2, 2))])
w.add("pack_bad_axis", pack(3), [vals(np.float32, (2, 3)), vals(np.float32, (2, 3))],
      error_substr="axis = 3 not in [-3, 3)")
w.add("pack_shape_mismatch", pack(0), [vals(np.float32, (2,)), vals(np.float32, (3,))],
      error_substr="Shapes of all inputs must match")

unpack = lambda num, axis: (lambda x: R.Unpack(value=x, num=num, axis=axis))
for dt in ALL:
  w.add("unpack_%s" % tname(dt), unpack(2, 0), [vals(dt, (2, 3))])
w.add("unpack_axis1", unpack(3, 1), [vals(np.float32, (2, 3, 2))])
w.add("unpack_neg_axis", unpack(2, -1), [vals(np.int32, (3, 2))])
w.add("unpack_vector", unpack(4, 0), [vals(np.float32, (4,))])
w.add("unpack_bad_num", unpack(3, 0), [vals(np.float32, (2, 3))],
      error_substr="Input shape axis 0 must equal 3")
w.add("unpack_bad_axis", unpack(2, 2), [vals(np.float32, (2, 3))],
      error_substr="axis = 2 not in [-2, 2)")

# ---- Split, SplitV ------------------------------------------------------------------------
split = lambda n: (lambda d, x: R.Split(axis=d, value=x, num_split=n))
for dt in ALL:
  w.add("split_%s" % tname(dt), split(2), [np.int32(1), vals(dt, (3, 4))])
w.add("split_axis0", split(3), [np.int32(0), vals(np.float32, (6, 2))])
w.add("split_neg_axis", split(2), [np.int32(-1), vals(np.float32, (2, 2, 4))])
w.add("split_one", split(1), [np.int32(0), vals(np.float32, (2, 2))])
w.add("split_uneven", split(2), [np.int32(0), vals(np.float32, (5, 2))],
      error_substr="Number of ways to split should evenly divide the split dimension")
w.add("split_bad_axis", split(2), [np.int32(2), vals(np.float32, (2, 2))])
w.add("split_axis_vector", split(2), [i32(0), vals(np.float32, (2, 2))])

splitv = lambda n: (lambda x, s, d: R.SplitV(value=x, size_splits=s, axis=d, num_split=n))
for dt in ALL:
  w.add("splitv_%s" % tname(dt), splitv(3), [vals(dt, (2, 6)), i64(1, 3, 2), np.int32(1)])
w.add("splitv_infer", splitv(3), [vals(np.float32, (7, 2)), i32(2, -1, 1), np.int32(0)])
w.add("splitv_zero_size", splitv(2), [vals(np.float32, (3, 2)), i32(0, 3), np.int32(0)])
w.add("splitv_neg_axis", splitv(2), [vals(np.int32, (2, 5)), i32(4, 1), np.int32(-1)])
w.add("splitv_int8_sizes", splitv(2), [vals(np.int32, (2, 5)), np.array([2, 3], np.int8),
                                       np.int32(1)])
w.add("splitv_bad_sum", splitv(2), [vals(np.float32, (6,)), i32(2, 3), np.int32(0)],
      error_substr="Determined shape must either match input shape")
w.add("splitv_two_neg_one", splitv(2), [vals(np.float32, (6,)), i32(-1, -1), np.int32(0)])
w.add("splitv_negative_size", splitv(2), [vals(np.float32, (6,)), i32(-2, 8), np.int32(0)])
w.add("splitv_sizes_count", splitv(2), [vals(np.float32, (6,)), i32(1, 2, 3), np.int32(0)])
w.add("splitv_axis_vector", splitv(2), [vals(np.float32, (2, 2)), i32(1, 1), i32(0)])
w.add("splitv_axis_two", splitv(2), [vals(np.float32, (2, 2)), i32(1, 1), i32(0, 1)],
      error_substr="split_dim_tensor must have exactly one element")
w.add("splitv_bad_axis", splitv(2), [vals(np.float32, (6,)), i32(3, 3), np.int32(1)])

# ---- Slice, StridedSlice ------------------------------------------------------------------
slc = lambda x, b, s: R.Slice(input=x, begin=b, size=s)
for dt in ALL:
  w.add("slice_%s" % tname(dt), slc, [vals(dt, (3, 4)), i32(1, 1), i32(2, 2)])
w.add("slice_minus_one", slc, [vals(np.float32, (3, 4, 2)), i64(1, 0, 1), i64(-1, 3, -1)])
w.add("slice_dim0", slc, [vals(np.float32, (4, 16)), i32(1, 0), i32(2, 16)])
w.add("slice_identity", slc, [vals(np.float32, (2, 3)), i32(0, 0), i32(2, 3)])
w.add("slice_empty", slc, [vals(np.float32, (2, 3)), i32(1, 1), i32(0, 2)])
w.add("slice_empty_input", slc, [np.zeros((0, 3), np.float32), i32(0, 1), i32(0, 2)])
w.add("slice_scalar", slc, [np.float32(3), np.zeros((0,), np.int32), np.zeros((0,), np.int32)])
w.add("slice_string_i64", slc, [vals(np.object_, (3, 4)), i64(1, 2), i64(-1, 2)])
w.add("slice_bool_3d", slc, [vals(np.bool_, (2, 3, 4)), i32(0, 1, 1), i32(2, 2, 2)])
w.add("slice_bad_begin", slc, [vals(np.float32, (3, 4)), i32(4, 0), i32(1, 1)],
      error_substr="Expected begin[0] in [0, 3], but got 4")
w.add("slice_bad_size", slc, [vals(np.float32, (3, 4)), i32(1, 0), i32(3, 1)],
      error_substr="Expected size[0] in [0, 2], but got 3")
w.add("slice_negative_begin", slc, [vals(np.float32, (3, 4)), i32(-1, 0), i32(1, 1)])
w.add("slice_wrong_length", slc, [vals(np.float32, (3, 4)), i32(1), i32(1)],
      error_substr="Expected begin and size arguments to be 1-D tensors of size 2")
w.add("slice_empty_dim_nonzero", slc, [np.zeros((0, 3), np.float32), i32(1, 0), i32(0, 1)])


def ss(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
  return lambda x, b, e, s: R.StridedSlice(
      input=x, begin=b, end=e, strides=s, begin_mask=begin_mask, end_mask=end_mask,
      ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
      shrink_axis_mask=shrink_axis_mask)


x345 = vals(np.int32, (3, 4, 5))
for dt in ALL:
  w.add("strided_slice_%s" % tname(dt), ss(), [vals(dt, (4, 5)), i32(1, 0), i32(4, 5), i32(2, 2)])
w.add("ss_negative_stride", ss(), [x345, i32(2, -1), i32(0, 0), i32(-1, -2)])
w.add("ss_reverse_all", ss(begin_mask=7, end_mask=7), [x345, i32(0, 0, 0), i32(0, 0, 0),
                                                       i32(-1, -1, -1)])
w.add("ss_begin_end_mask", ss(begin_mask=1, end_mask=2), [x345, i32(2, 1), i32(1, 3), i32(1, 1)])
w.add("ss_ellipsis", ss(ellipsis_mask=1), [x345, i32(0, 1), i32(0, 3), i32(1, 1)])
w.add("ss_ellipsis_mid", ss(ellipsis_mask=2), [x345, i32(1, 0, 1), i32(2, 0, 4), i32(1, 1, 2)])
w.add("ss_new_axis", ss(new_axis_mask=2), [x345, i32(0, 0, 1), i32(2, 0, 3), i32(1, 1, 1)])
w.add("ss_new_axis_ellipsis", ss(ellipsis_mask=1, new_axis_mask=2),
      [x345, i32(0, 0), i32(0, 0), i32(1, 1)])
w.add("ss_shrink", ss(shrink_axis_mask=1), [x345, i32(1, 0), i32(2, 4), i32(1, 1)])
w.add("ss_shrink_neg_index", ss(shrink_axis_mask=3), [x345, i32(-1, -2), i32(0, 0), i32(1, 1)])
w.add("ss_shrink_all", ss(shrink_axis_mask=7), [x345, i32(2, 3, 4), i32(3, 4, 5), i32(1, 1, 1)])
w.add("ss_clamped", ss(), [x345, i32(-100, 1), i32(100, 100), i32(1, 1)])
w.add("ss_empty_range", ss(), [x345, i32(2, 0), i32(1, 4), i32(1, 1)])
w.add("ss_identity", ss(), [x345, i32(0), i32(3), i32(1)])
w.add("ss_dim0_range", ss(), [vals(np.float32, (8, 16)), i32(2), i32(6), i32(1)])
w.add("ss_int64_index", ss(end_mask=1), [x345, i64(1, 1), i64(0, 3), i64(1, 1)])
w.add("ss_large", ss(), [big(200, 170), i32(1, 169), i32(200, 0), i32(1, -1)])
w.add("ss_int16_index", ss(), [x345, np.array([1, 3], np.int16), np.array([3, 0], np.int16),
                             np.array([1, -2], np.int16)])
w.add("ss_mixed_masks_f16", ss(begin_mask=4, end_mask=4, new_axis_mask=1, shrink_axis_mask=2),
      [vals(np.float16, (3, 4, 5)), i32(0, 1, 0, -1), i32(0, 2, 0, 0), i32(1, 1, -1, -2)])
w.add("ss_string_reverse", ss(begin_mask=1, end_mask=1), [vals(np.object_, (5,)), i32(0), i32(0),
                                                         i32(-2)])
w.add("ss_zero_stride", ss(), [x345, i32(0), i32(2), i32(0)],
      error_substr="strides[0] must be non-zero")
w.add("ss_shrink_out_of_range", ss(shrink_axis_mask=1), [x345, i32(3), i32(4), i32(1)],
      error_substr="out of bounds")
w.add("ss_two_ellipsis", ss(ellipsis_mask=3), [x345, i32(0, 0), i32(0, 0), i32(1, 1)],
      error_substr="Multiple ellipses")
w.add("ss_length_mismatch", ss(), [x345, i32(0, 0), i32(1), i32(1, 1)])
w.add("ss_too_many_dims", ss(), [vals(np.float32, (2,)), i32(0, 0), i32(1, 1), i32(1, 1)],
      error_substr="Index out of range using input dim 1")

# ---- Transpose ----------------------------------------------------------------------------
tr = lambda x, p: R.Transpose(x=x, perm=p)
for dt in ALL:
  w.add("transpose_%s" % tname(dt), tr, [vals(dt, (2, 3)), i32(1, 0)])
w.add("transpose_3d", tr, [vals(np.float32, (2, 3, 4)), i32(2, 0, 1)])
w.add("transpose_keep_inner", tr, [vals(np.float32, (2, 3, 4)), i32(1, 0, 2)])
w.add("transpose_batched", tr, [vals(np.float32, (2, 17, 20)), i64(0, 2, 1)])
w.add("transpose_4d", tr, [vals(np.int64, (2, 3, 4, 5)), i32(3, 1, 2, 0)])
w.add("transpose_nchw", tr, [vals(np.float32, (2, 5, 6, 3)), i32(0, 3, 1, 2)])
w.add("transpose_identity", tr, [vals(np.float32, (2, 3)), i32(0, 1)])
w.add("transpose_unit_dims", tr, [vals(np.float32, (1, 3, 1)), i32(2, 1, 0)])
w.add("transpose_scalar", tr, [np.float32(1), np.zeros((0,), np.int32)])
w.add("transpose_empty", tr, [np.zeros((0, 3), np.float32), i32(1, 0)])
w.add("transpose_large", tr, [big(160, 210), i32(1, 0)])
w.add("transpose_string_3d", tr, [vals(np.object_, (2, 3, 4)), i64(2, 0, 1)])
w.add("transpose_complex_4d", tr, [vals(np.complex128, (2, 3, 2, 2)), i32(1, 3, 0, 2)])
w.add("transpose_perm_range", tr, [vals(np.float32, (2, 3)), i32(0, 2)],
      error_substr="2 is out of range [0 .. 2)")
w.add("transpose_perm_dup", tr, [vals(np.float32, (2, 3)), i32(0, 0)],
      error_substr="1 is missing from {0,0}")
w.add("transpose_perm_length", tr, [vals(np.float32, (2, 3)), i32(0, 1, 2)],
      error_substr="transpose expects a vector of size 2")
w.add("transpose_perm_matrix", tr, [vals(np.float32, (2, 3)), np.array([[0, 1]], np.int32)])

# ---- Tile, BroadcastTo --------------------------------------------------------------------
tile = lambda x, m: R.Tile(input=x, multiples=m)
for dt in ALL:
  w.add("tile_%s" % tname(dt), tile, [vals(dt, (2, 3)), i32(2, 1)])
w.add("tile_both", tile, [vals(np.float32, (2, 3)), i64(2, 3)])
w.add("tile_zero", tile, [vals(np.float32, (2, 3)), i32(0, 2)])
w.add("tile_identity", tile, [vals(np.float32, (2, 3)), i32(1, 1)])
w.add("tile_scalar", tile, [np.float32(2), np.zeros((0,), np.int32)])
w.add("tile_3d", tile, [vals(np.int32, (2, 1, 3)), i32(1, 4, 2)])
w.add("tile_large", tile, [big(8, 64), i32(8, 9)])
w.add("tile_negative", tile, [vals(np.float32, (2, 3)), i32(-1, 1)],
      error_substr="Expected multiples[0] >= 0, but got -1")
w.add("tile_wrong_length", tile, [vals(np.float32, (2, 3)), i32(2)],
      error_substr="Expected multiples argument to be a vector of length 2")

bcast = lambda x, s: R.BroadcastTo(input=x, shape=s)
for dt in ALL:
  w.add("broadcast_to_%s" % tname(dt), bcast, [vals(dt, (3,)), i32(2, 3)])
w.add("broadcast_to_middle", bcast, [vals(np.float32, (2, 1, 3)), i64(4, 2, 5, 3)])
w.add("broadcast_to_scalar", bcast, [np.float32(7), i32(2, 2)])
w.add("broadcast_to_same", bcast, [vals(np.float32, (2, 3)), i32(2, 3)])
w.add("broadcast_to_empty", bcast, [vals(np.float32, (1, 3)), i32(0, 3)])
w.add("broadcast_to_string_3d", bcast, [vals(np.object_, (2, 1)), i64(3, 2, 4)])
w.add("broadcast_to_bad", bcast, [vals(np.float32, (2, 3)), i32(4)])
w.add("broadcast_to_incompatible", bcast, [vals(np.float32, (3,)), i32(2, 4)])
w.add("broadcast_to_negative", bcast, [vals(np.float32, (3,)), i32(-1, 3)])

# ---- ReverseV2 ----------------------------------------------------------------------------
rev = lambda x, a: R.ReverseV2(tensor=x, axis=a)
for dt in ALL:
  w.add("reverse_%s" % tname(dt), rev, [vals(dt, (2, 3)), i32(1)])
w.add("reverse_both", rev, [vals(np.float32, (2, 3)), i64(0, 1)])
w.add("reverse_neg", rev, [vals(np.float32, (2, 3, 4)), i32(-1, 0)])
w.add("reverse_none", rev, [vals(np.float32, (2, 3)), np.zeros((0,), np.int32)])
w.add("reverse_mid", rev, [vals(np.int32, (2, 3, 4)), i32(1)])
w.add("reverse_empty", rev, [np.zeros((0, 3), np.float32), i32(0)])
w.add("reverse_large", rev, [big(70, 500), i32(1)])
w.add("reverse_string_both", rev, [vals(np.object_, (2, 3)), i64(0, 1)])
w.add("reverse_scalar", rev, [np.float32(2), np.zeros((0,), np.int32)])
w.add("reverse_bad_axis", rev, [vals(np.float32, (2, 3)), i32(2)])
w.add("reverse_dup_axis", rev, [vals(np.float32, (2, 3)), i32(1, -1)])
w.add("reverse_axis_matrix", rev, [vals(np.float32, (2, 3)), np.array([[0]], np.int32)])

# ---- StridedSliceGrad: dy placed where StridedSlice read it --------------------------------
def ssg(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
  return lambda shape, b, e, s, dy: R.StridedSliceGrad(
      shape=shape, begin=b, end=e, strides=s, dy=dy, begin_mask=begin_mask, end_mask=end_mask,
      ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
      shrink_axis_mask=shrink_axis_mask)


for dt in ALL:
  w.add("ss_grad_%s" % tname(dt), ssg(), [i32(4, 5), i32(1, 0), i32(4, 5), i32(2, 2),
                                          vals(dt, (2, 3))])
w.add("ss_grad_negative_stride", ssg(), [i32(3, 4, 5), i32(2, -1), i32(0, 0), i32(-1, -2),
                                         vals(np.float32, (2, 2, 5))])
w.add("ss_grad_masks", ssg(begin_mask=1, end_mask=2), [i64(3, 4, 5), i64(2, 1), i64(1, 3),
                                                       i64(1, 1), vals(np.float64, (1, 3, 5))])
# An empty forward input (no output buffer at all), and an empty region of a non-empty one.
for dt in (np.float32, np.object_):
  w.add("ss_grad_empty_input_%s" % tname(dt), ssg(), [i32(0, 3), i32(0, 0), i32(0, 3),
                                                      i32(1, 1), vals(dt, (0, 3))])
w.add("ss_grad_empty_region", ssg(), [i32(4, 5), i32(2, 0), i32(2, 5), i32(1, 1),
                                      vals(np.int32, (0, 5))])
w.add("ss_grad_ellipsis_new_axis", ssg(ellipsis_mask=1, new_axis_mask=2),
      [i32(3, 4, 5), i32(0, 0), i32(0, 0), i32(1, 1), vals(np.int32, (3, 4, 5, 1))])
w.add("ss_grad_shrink", ssg(shrink_axis_mask=3), [i32(3, 4, 5), i32(-1, -2), i32(0, 0),
                                                  i32(1, 1), vals(np.float32, (5,))])
w.add("ss_grad_shrink_all", ssg(shrink_axis_mask=7), [i32(3, 4, 5), i32(2, 3, 4), i32(3, 4, 5),
                                                      i32(1, 1, 1), np.float32(7.5)])
w.add("ss_grad_empty_range", ssg(), [i32(3, 4), i32(2, 0), i32(1, 4), i32(1, 1),
                                     np.zeros((0, 4), np.float32)])
w.add("ss_grad_string_reverse", ssg(begin_mask=1, end_mask=1), [i32(5), i32(0), i32(0), i32(-2),
                                                        vals(np.object_, (3,))])
w.add("ss_grad_bad_dy_shape", ssg(), [i32(4, 5), i32(1, 0), i32(4, 5), i32(2, 2),
                                      vals(np.float32, (3, 3))],
      error_substr="shape of dy was [3,3] instead of [2,3]")
w.add("ss_grad_shape_matrix", ssg(), [np.array([[4, 5]], np.int32), i32(0), i32(1), i32(1),
                                      vals(np.float32, (1, 5))])
w.add("ss_grad_zero_stride", ssg(), [i32(4), i32(0), i32(2), i32(0), vals(np.float32, (2,))],
      error_substr="strides[0] must be non-zero")

# ---- DynamicPartition ----------------------------------------------------------------------
def dynpart(n):
  return lambda d, p: R.DynamicPartition(data=d, partitions=p, num_partitions=n)


for dt in ALL:
  w.add("dynpart_%s" % tname(dt), dynpart(3), [vals(dt, (5, 2)), i32(2, 0, 2, 1, 0)])
w.add("dynpart_2d_partitions", dynpart(2),
      [vals(np.float32, (2, 3, 4)), np.array([[0, 1, 1], [1, 0, 0]], np.int32)])
w.add("dynpart_scalar", dynpart(2), [np.float32(5), np.int32(1)])
w.add("dynpart_unused_partitions", dynpart(4), [vals(np.int64, (3,)), i32(0, 0, 3)])
w.add("dynpart_empty", dynpart(2), [np.zeros((0, 3), np.float32), np.zeros((0,), np.int32)])
w.add("dynpart_empty_slices", dynpart(2), [np.zeros((3, 0), np.float32), i32(1, 0, 1)])
w.add("dynpart_large", dynpart(3), [big(3000, 12), (np.arange(3000) % 3).astype(np.int32)])
w.add("dynpart_out_of_range", dynpart(2), [vals(np.float32, (4,)), i32(0, 1, 0, 2)])
w.add("dynpart_negative", dynpart(2), [vals(np.float32, (4,)), i32(0, -1, 0, 1)])
w.add("dynpart_2d_out_of_range", dynpart(2),
      [vals(np.int32, (2, 2)), np.array([[0, 1], [5, 0]], np.int32)])
w.add("dynpart_shape_mismatch", dynpart(2), [vals(np.float32, (4,)), i32(0, 1, 0)])
w.add("dynpart_scalar_data", dynpart(2), [np.float32(5), i32(1)])

# ---- ConjugateTranspose --------------------------------------------------------------------
ctr = lambda x, p: R.ConjugateTranspose(x=x, perm=p)
for dt in (np.complex64, np.complex128, np.float32, np.int32, np.bool_, np.object_):
  w.add("conj_transpose_%s" % tname(dt), ctr, [vals(dt, (2, 3)), i32(1, 0)])
w.add("conj_transpose_identity", ctr, [vals(np.complex64, (2, 3)), i32(0, 1)])
w.add("conj_transpose_unit_dims", ctr, [vals(np.complex128, (1, 3, 1)), i32(2, 1, 0)])
w.add("conj_transpose_4d", ctr, [vals(np.complex128, (2, 3, 2, 2)), i64(1, 3, 0, 2)])
w.add("conj_transpose_batched", ctr, [vals(np.complex64, (2, 17, 20)), i32(0, 2, 1)])
w.add("conj_transpose_empty", ctr, [np.zeros((0, 3), np.complex64), i32(1, 0)])
w.add("conj_transpose_scalar", ctr, [np.complex64(1 - 2j), np.zeros((0,), np.int32)])
w.add("conj_transpose_perm_dup", ctr, [vals(np.complex64, (2, 3)), i32(0, 0)])

# ---- LinSpace ------------------------------------------------------------------------------
linspace = lambda a, b, n: R.LinSpace(start=a, stop=b, num=n)
for dt in (np.float32, np.float64):
  for nt in (np.int32, np.int64):
    w.add("linspace_%s_%s" % (tname(dt), tname(nt)), linspace, [dt(-1.5), dt(2.25), nt(7)])
  w.add("linspace_%s_long" % tname(dt), linspace, [dt(0.1), dt(1000.3), np.int32(1001)])
  w.add("linspace_%s_descending" % tname(dt), linspace, [dt(10), dt(-3.7), np.int32(11)])
w.add("linspace_one", linspace, [np.float32(3), np.float32(9), np.int32(1)])
w.add("linspace_two", linspace, [np.float64(3), np.float64(9), np.int64(2)])
w.add("linspace_equal_ends", linspace, [np.float32(2), np.float32(2), np.int32(4)])
w.add("linspace_zero", linspace, [np.float32(0), np.float32(1), np.int32(0)])
w.add("linspace_negative", linspace, [np.float32(0), np.float32(1), np.int64(-3)])
w.add("linspace_start_vector", linspace, [np.float32([0]), np.float32(1), np.int32(3)])
w.add("linspace_stop_vector", linspace, [np.float32(0), np.float32([1]), np.int32(3)])
w.add("linspace_num_vector", linspace, [np.float32(0), np.float32(1), np.int32([3])])

path = w.write()

# TensorFlow stamps shape-producing ops with a full type (experimental_type) whose
# TFT_SHAPE_TENSOR Sluice's full_type.proto does not define yet; the kernels never read it.
with open(path) as f:
  text = f.read()
text = re.sub(r"\n    experimental_type \{\n(      .*\n)*    \}", "", text)
with open(path, "w") as f:
  f.write(text)
