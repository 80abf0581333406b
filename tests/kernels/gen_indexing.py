"""Writes fixtures/indexing.pbtxt: Gather, GatherV2, GatherNd, OneHot, Where, Pad, PadV2,
MirrorPad and MirrorPadGrad cases recorded from TensorFlow (see oracle.py).

Every op here but MirrorPadGrad moves or compares elements without arithmetic, so every case
is exact (rtol = atol = 0); add_mirror_pad_grad states its tolerances. Deterministic: fixed numpy seeds. Large shapes (the parallel paths) are
few and uint8 to keep the file small; the kernels' unit tests cover more of them.

    python3 tests/kernels/gen_indexing.py
"""

import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.RandomState(7)

# One small sample per dtype the CPU kernels register (values chosen per kind).
ALL_DTYPES = [
    tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.uint8, tf.int16, tf.uint16,
    tf.int32, tf.uint32, tf.int64, tf.uint64, tf.complex64, tf.complex128, tf.bool,
    tf.string, tf.qint8, tf.quint8, tf.qint32, tf.qint16, tf.quint16
]
# oracle.py records quantized outputs with their plain integer dtype (session.run hands them
# back as numpy integers), so quantized dtypes are covered by the unit tests instead.
QUANTIZED = (tf.qint8, tf.quint8, tf.qint32, tf.qint16, tf.quint16)
NUMBER_BOOL_STRING = [d for d in ALL_DTYPES if d not in (tf.qint8, tf.quint8, tf.qint32,
                                                         tf.qint16, tf.quint16)]
PAD_DTYPES = NUMBER_BOOL_STRING
WHERE_DTYPES = [d for d in NUMBER_BOOL_STRING if d != tf.string]


def sample(dtype, shape):
  n = int(np.prod(shape))
  if dtype == tf.string:
    return np.array([("s%d" % i).encode() for i in range(n)], dtype=object).reshape(shape)
  if dtype == tf.bool:
    return (np.arange(n) % 3 == 1).reshape(shape)
  if dtype.is_complex:
    v = np.arange(n) + 1j * (np.arange(n)[::-1] - 2)
    return v.astype(dtype.as_numpy_dtype).reshape(shape)
  if dtype.is_floating:
    v = (np.arange(n) - n / 2) * 0.75
    return v.astype(np.float32).astype(dtype.as_numpy_dtype).reshape(shape)
  lo = 0 if (dtype.is_unsigned or dtype in (tf.quint8, tf.quint16)) else -3
  return (np.arange(n) % 50 + lo).astype(dtype.as_numpy_dtype).reshape(shape)


def printable_u8(*shape):
  """Random uint8 values that print as single characters in text protos (small fixtures)."""
  return rng.randint(65, 91, size=shape).astype(np.uint8)


def i32(*v):
  return np.array(v, np.int32)


def add_gather(w):
  p = sample(tf.float32, (4, 3))
  g2 = lambda x, i, a: R.GatherV2(params=x, indices=i, axis=a)
  for dt in NUMBER_BOOL_STRING:
    w.add("gatherv2_%s_axis0" % dt.name, g2, [sample(dt, (4, 3)), i32(3, 0, 3), np.int32(0)])
  for it in (np.int16, np.int32, np.int64):
    w.add("gatherv2_f32_idx_%s" % np.dtype(it).name, g2,
          [p, np.array([[1, 3], [0, 0]], it), np.int64(1 if it != np.int16 else 0)])
  w.add("gatherv2_f32_axis1", g2, [p, i32(2, 0), np.int32(1)])
  w.add("gatherv2_f32_axis_neg1", g2, [p, i32(2, 2, 1), np.int32(-1)])
  w.add("gatherv2_f32_axis_neg2_3d", g2,
        [sample(tf.float32, (2, 3, 4)), np.array([[2, 0]], np.int64), np.int64(-2)])
  w.add("gatherv2_f32_scalar_index", g2, [p, np.int32(2), np.int32(0)])
  w.add("gatherv2_f32_empty_indices", g2, [p, np.zeros((0, 2), np.int32), np.int32(1)])
  w.add("gatherv2_f32_empty_params_no_indices", g2,
        [np.zeros((0, 3), np.float32), np.zeros((0,), np.int32), np.int32(0)])
  w.add("gatherv2_f32_empty_inner", g2,
        [np.zeros((3, 0), np.float32), i32(2, 7), np.int32(0)])
  w.add("gatherv2_f32_nan_inf", g2,
        [np.array([np.nan, np.inf, -np.inf, -0.0], np.float32), i32(3, 2, 1, 0), np.int32(0)])
  bd = lambda b, ax: (lambda x, i, a: R.GatherV2(params=x, indices=i, axis=a, batch_dims=b))
  w.add("gatherv2_batch_dims1", bd(1, None), [p, i32(1, 0, 2, 0).reshape(4, 1), np.int32(1)])
  w.add("gatherv2_batch_dims_neg1", bd(-1, None),
        [p, i32(1, 0, 2, 0).reshape(4, 1), np.int32(1)])
  w.add("gatherv2_batch_dims1_axis2", bd(1, None),
        [sample(tf.float32, (2, 3, 4, 2)), np.array([[3, 0, 1], [2, 2, 0]], np.int64),
         np.int32(2)])
  w.add("gatherv2_batch_dims2", bd(2, None),
        [sample(tf.int32, (2, 3, 4)), np.array([[[3], [0], [1]], [[2], [2], [0]]], np.int32),
         np.int32(-1)])
  w.add("gatherv2_batch_dims1_bad_index", bd(1, None),
        [p, i32(1, 0, 3, 0).reshape(4, 1), np.int32(1)])
  # Errors.
  w.add("gatherv2_bad_index", g2, [p, np.array([[1, 7]], np.int32), np.int32(0)],
        error_substr="indices[0,1] = 7 is not in [0, 4)")
  w.add("gatherv2_negative_index", g2, [p, i32(0, -1), np.int32(1)],
        error_substr="indices[1] = -1 is not in [0, 3)")
  w.add("gatherv2_bad_index_int64", g2, [p, np.array([5], np.int64), np.int32(0)])
  w.add("gatherv2_axis_out_of_range", g2, [p, i32(0), np.int32(2)])
  w.add("gatherv2_axis_out_of_range_neg", g2, [p, i32(0), np.int32(-3)])
  w.add("gatherv2_axis_not_scalar", g2, [p, i32(0), i32(0)])
  w.add("gatherv2_int16_dim_too_large", g2,
        [printable_u8(32768), np.array([1], np.int16), np.int32(0)])
  w.add("gatherv2_scalar_params", g2, [np.float32(1), i32(0), np.int32(0)])
  w.add("gatherv2_batch_dims_out_of_range", bd(3, None),
        [p, i32(1, 0, 2, 0).reshape(4, 1), np.int32(1)])
  w.add("gatherv2_batch_dims_gt_axis", bd(1, None),
        [p, i32(1, 0, 2, 0).reshape(4, 1), np.int32(0)])
  w.add("gatherv2_batch_dims_shape_mismatch", bd(1, None),
        [p, i32(1, 0).reshape(2, 1), np.int32(1)])
  w.add("gatherv2_batch_dims_eq_params_rank", bd(2, None),
        [p, i32(1, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0, 0).reshape(4, 3), np.int32(1)])
  # Large enough to take the parallel path.
  w.add("gatherv2_u8_parallel", g2, [printable_u8(512, 96),
                                     rng.randint(0, 512, size=400).astype(np.int32),
                                     np.int32(0)])
  # Gather (V1).
  g1 = lambda x, i: R.Gather(params=x, indices=i)
  w.add("gather_f32", g1, [p, np.array([[3, 1], [0, 0]], np.int64)])
  w.add("gather_string", g1, [sample(tf.string, (3,)), i32(2, 2, 0)])
  w.add("gather_no_validate", lambda x, i: R.Gather(params=x, indices=i,
                                                    validate_indices=False), [p, i32(1)])
  w.add("gather_bad_index", g1, [p, i32(0, 4)])
  w.add("gather_scalar_params", g1, [np.float32(3), i32(0)])


def add_gather_nd(w):
  p = sample(tf.float32, (3, 4))
  gnd = lambda x, i: R.GatherNd(params=x, indices=i)
  for dt in NUMBER_BOOL_STRING:
    w.add("gathernd_%s" % dt.name, gnd, [sample(dt, (3, 2)), i32(2, 1, 0, 0).reshape(2, 2)])
  for it in (np.int16, np.int32, np.int64):
    w.add("gathernd_f32_idx_%s" % np.dtype(it).name, gnd,
          [p, np.array([[2], [0], [1]], it)])
  w.add("gathernd_f32_full_depth", gnd, [p, i32(2, 3, 0, 1).reshape(2, 2)])
  w.add("gathernd_f32_batched", gnd,
        [sample(tf.float32, (2, 3, 4)), i32(1, 2, 0, 0, 1, 1).reshape(3, 1, 2)])
  w.add("gathernd_f32_depth0", gnd, [p, np.zeros((2, 0), np.int32)])
  w.add("gathernd_f32_single_index", gnd, [p, i32(1, 2)])
  w.add("gathernd_f32_empty_indices", gnd, [p, np.zeros((0, 2), np.int32)])
  w.add("gathernd_f32_empty_slice", gnd, [np.zeros((3, 0), np.float32), i32(1, 2).reshape(2, 1)])
  w.add("gathernd_ignore_policy", lambda x, i: R.GatherNd(params=x, indices=i,
                                                          bad_indices_policy="IGNORE"),
        [p, i32(1, 7, 2, 0, -1, 0).reshape(3, 2)])
  w.add("gathernd_error_policy", lambda x, i: R.GatherNd(params=x, indices=i,
                                                         bad_indices_policy="ERROR"),
        [p, i32(1, 7).reshape(1, 2)])
  w.add("gathernd_bad_index", gnd, [p, i32(1, 2, 3, 0).reshape(2, 2)],
        error_substr="indices[1] = [3, 0] does not index into param shape [3,4]")
  w.add("gathernd_negative_index", gnd, [p, i32(-1).reshape(1, 1)])
  w.add("gathernd_bad_index_batched", gnd,
        [p, np.array([0, 0, 0, 4], np.int64).reshape(2, 1, 2)])
  w.add("gathernd_depth_too_large", gnd, [p, i32(1, 2, 0).reshape(1, 3)])
  w.add("gathernd_scalar_indices", gnd, [p, np.int32(1)])
  w.add("gathernd_scalar_params", gnd, [np.float32(1), i32(0).reshape(1, 1)])
  w.add("gathernd_int16_params_too_large", gnd,
        [printable_u8(32768), np.array([[1]], np.int16)])
  w.add("gathernd_empty_params", gnd, [np.zeros((0, 3), np.float32), i32(0).reshape(1, 1)])


def add_one_hot(w):
  oh = lambda axis: (lambda i, d, on, off: R.OneHot(indices=i, depth=d, on_value=on,
                                                    off_value=off, axis=axis))
  idx = np.array([[0, 2, -1], [1, 5, 2]], np.int64)
  for dt in NUMBER_BOOL_STRING:
    v = sample(dt, (2,))
    w.add("onehot_%s" % dt.name, oh(-1), [idx, np.int32(3), v[1], v[0]])
  for ti in (np.uint8, np.int8, np.int32, np.int64):
    w.add("onehot_f32_ti_%s" % np.dtype(ti).name, oh(-1),
          [np.array([0, 3, 1, 255 if ti == np.uint8 else -2], ti), np.int32(4),
           np.float32(1), np.float32(0)])
  for axis in (0, 1, 2):
    w.add("onehot_f32_axis%d" % axis, oh(axis), [idx, np.int32(4), np.float32(5),
                                                  np.float32(-1)])
  w.add("onehot_f32_scalar_index", oh(-1), [np.int32(1), np.int32(3), np.float32(1),
                                            np.float32(0)])
  w.add("onehot_f32_scalar_index_axis0", oh(0), [np.int32(2), np.int32(3), np.float32(1),
                                                  np.float32(0)])
  w.add("onehot_f32_depth0", oh(-1), [idx, np.int32(0), np.float32(1), np.float32(0)])
  w.add("onehot_f32_empty", oh(0), [np.zeros((0, 2), np.int32), np.int32(3), np.float32(1),
                                    np.float32(0)])
  w.add("onehot_f32_nan_on", oh(-1), [np.array([1, 0], np.int32), np.int32(2),
                                      np.float32(np.nan), np.float32(np.inf)])
  # Errors.
  w.add("onehot_negative_depth", oh(-1), [idx, np.int32(-1), np.float32(1), np.float32(0)])
  w.add("onehot_depth_not_scalar", oh(-1), [idx, i32(3), np.float32(1), np.float32(0)])
  w.add("onehot_on_not_scalar", oh(-1), [idx, np.int32(3), np.float32([1]), np.float32(0)])
  w.add("onehot_off_not_scalar", oh(-1), [idx, np.int32(3), np.float32(1),
                                          np.zeros((1, 1), np.float32)])
  w.add("onehot_axis_out_of_range", oh(3), [idx, np.int32(3), np.float32(1), np.float32(0)])


def add_where(w):
  wh = lambda x: R.Where(condition=x)
  for dt in WHERE_DTYPES:
    x = sample(dt, (3, 4))
    if dt != tf.bool:
      x = x * (np.arange(12).reshape(3, 4) % 3 == 0).astype(x.dtype)
    w.add("where_%s" % dt.name, wh, [x])
  w.add("where_f32_signed_zero_nan", wh,
        [np.array([0.0, -0.0, np.nan, np.inf, 1e-30, 0.0], np.float32)])
  w.add("where_c64_parts", wh, [np.array([0, 1j, -0.0, 2, 0j], np.complex64)])
  w.add("where_bool_3d", wh, [rng.rand(2, 3, 4) > 0.5])
  w.add("where_bool_5d", wh, [rng.rand(2, 1, 3, 2, 2) > 0.3])
  w.add("where_bool_none", wh, [np.zeros((3, 2), bool)])
  w.add("where_bool_empty", wh, [np.zeros((2, 0, 3), bool)])
  w.add("where_scalar", wh, [np.bool_(True)])
  w.add("where_rank9", wh, [np.ones([1] * 9, bool)])


def add_pad(w):
  p = sample(tf.float32, (2, 3))
  pad = lambda x, q: R.Pad(input=x, paddings=q)
  pad2 = lambda x, q, c: R.PadV2(input=x, paddings=q, constant_values=c)
  q = i32(1, 0, 2, 1).reshape(2, 2)
  for dt in PAD_DTYPES:
    w.add("pad_%s" % dt.name, pad, [sample(dt, (2, 3)), q])
    w.add("padv2_%s" % dt.name, pad2, [sample(dt, (2, 3)), q, sample(dt, (3,))[1]])
  w.add("pad_f32_int64_paddings", pad, [p, np.array([[0, 2], [1, 1]], np.int64)])
  w.add("pad_f32_1d", pad, [sample(tf.float32, (4,)), i32(3, 1).reshape(1, 2)])
  w.add("pad_f32_3d", pad, [sample(tf.float32, (2, 2, 3)), i32(1, 1, 0, 2, 2, 0).reshape(3, 2)])
  w.add("pad_f32_6d", pad, [sample(tf.float32, (1, 2, 1, 2, 1, 2)),
                            i32(0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0).reshape(6, 2)])
  w.add("pad_f32_8d_too_many_padded_dims", pad, [sample(tf.float32, (1, 2, 1, 1, 2, 1, 1, 2)),
                                                np.tile(i32(1, 0), 8).reshape(8, 2)])
  w.add("pad_f32_7d_too_many_merged_dims", pad,
        [sample(tf.float32, (2, 1, 2, 1, 2, 1, 2)),
         i32(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0).reshape(7, 2)])
  w.add("pad_f32_8d_merged", pad, [sample(tf.float32, (1, 2, 1, 1, 2, 1, 1, 2)),
                                   i32(1, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 1, 1)
                                   .reshape(8, 2)])
  w.add("pad_f32_no_padding", pad, [p, np.zeros((2, 2), np.int32)])
  w.add("pad_f32_scalar", pad, [np.float32(3), np.zeros((0, 2), np.int32)])
  w.add("pad_f32_empty_input", pad, [np.zeros((0, 3), np.float32), i32(1, 1, 0, 0).reshape(2, 2)])
  w.add("pad_f32_empty_inner", pad, [np.zeros((2, 0), np.float32), i32(0, 0, 1, 2).reshape(2, 2)])
  w.add("pad_f32_empty_stays_empty", pad,
        [np.zeros((0, 3), np.float32), i32(0, 0, 1, 2).reshape(2, 2)])
  w.add("padv2_f32_nan", pad2, [p, q, np.float32(np.nan)])
  w.add("pad_u8_parallel", pad, [printable_u8(170, 190), i32(5, 7, 3, 10).reshape(2, 2)])
  # Errors.
  w.add("pad_negative", pad, [p, i32(1, -1, 0, 0).reshape(2, 2)])
  w.add("pad_paddings_not_matrix", pad, [p, i32(1, 1)])
  w.add("pad_paddings_three_columns", pad, [p, np.zeros((2, 3), np.int32)])
  w.add("pad_paddings_wrong_rows", pad, [p, i32(1, 1).reshape(1, 2)])
  w.add("pad_rank9", pad, [np.zeros([1] * 9, np.float32), np.zeros((9, 2), np.int32)])
  w.add("padv2_constant_not_scalar", pad2, [p, q, np.float32([1])])


def add_mirror_pad(w):
  mp = lambda mode: (lambda x, q: R.MirrorPad(input=x, paddings=q, mode=mode))
  p = sample(tf.float32, (3, 4))
  for mode in ("REFLECT", "SYMMETRIC"):
    m = mode.lower()
    for dt in PAD_DTYPES:
      w.add("mirrorpad_%s_%s" % (m, dt.name), mp(mode),
            [sample(dt, (3, 4)), i32(1, 2, 2, 1).reshape(2, 2)])
    full = 3 if mode == "SYMMETRIC" else 2
    w.add("mirrorpad_%s_1d_full" % m, mp(mode),
          [sample(tf.float32, (3,)), i32(full, full).reshape(1, 2)])
    w.add("mirrorpad_%s_3d_int64" % m, mp(mode),
          [sample(tf.int32, (2, 3, 3)), np.array([[1, 1], [0, 2], [2, 0]], np.int64)])
    w.add("mirrorpad_%s_5d" % m, mp(mode),
          [sample(tf.float32, (2, 2, 2, 2, 3)), np.tile(i32(1, 0), 5).reshape(5, 2)])
    w.add("mirrorpad_%s_no_padding" % m, mp(mode), [p, np.zeros((2, 2), np.int32)])
    w.add("mirrorpad_%s_scalar" % m, mp(mode), [np.float32(2), np.zeros((0, 2), np.int32)])
    # Errors.
    w.add("mirrorpad_%s_too_large" % m, mp(mode), [p, i32(full + 1, 0, 0, 0).reshape(2, 2)])
    w.add("mirrorpad_%s_after_too_large" % m, mp(mode), [p, i32(0, 0, 0, full + 2).reshape(2, 2)])
    w.add("mirrorpad_%s_negative" % m, mp(mode), [p, i32(-1, 0, 0, 0).reshape(2, 2)])
  w.add("mirrorpad_reflect_empty_dim", mp("REFLECT"),
        [np.zeros((0, 3), np.float32), i32(0, 0, 1, 1).reshape(2, 2)])
  w.add("mirrorpad_symmetric_empty_dim", mp("SYMMETRIC"),
        [np.zeros((0, 3), np.float32), i32(0, 0, 1, 1).reshape(2, 2)])
  w.add("mirrorpad_paddings_not_matrix", mp("REFLECT"), [p, i32(1, 1)])
  w.add("mirrorpad_paddings_wrong_rows", mp("REFLECT"), [p, i32(1, 1).reshape(1, 2)])
  w.add("mirrorpad_rank6", mp("SYMMETRIC"),
        [np.zeros([1] * 6, np.float32), np.zeros((6, 2), np.int32)])


def add_mirror_pad_grad(w):
  """MirrorPadGrad sums up to three elements into each folded one: float dtypes get rtol 1e-6
  (half and bfloat16 1e-2) for TensorFlow's summation order; integers are exact (and wrap)."""
  local = np.random.RandomState(11)
  mpg = lambda mode: (lambda x, q: R.MirrorPadGrad(input=x, paddings=q, mode=mode))

  def tol(dt):
    if dt in (tf.float16, tf.bfloat16):
      return 1e-2
    return 1e-6 if (dt.is_floating or dt.is_complex) else 0.0

  number_dtypes = [d for d in NUMBER_BOOL_STRING if d not in (tf.bool, tf.string)]
  for mode in ("REFLECT", "SYMMETRIC"):
    m = mode.lower()
    for dt in number_dtypes:
      w.add("mirrorpadgrad_%s_%s" % (m, dt.name), mpg(mode),
            [sample(dt, (5, 6)), i32(1, 1, 2, 0).reshape(2, 2)], rtol=tol(dt))
    full = 3 if mode == "SYMMETRIC" else 2
    w.add("mirrorpadgrad_%s_1d_full" % m, mpg(mode),
          [sample(tf.float32, (3 + 2 * full,)), i32(full, full).reshape(1, 2)], rtol=1e-6)
    w.add("mirrorpadgrad_%s_3d_int64_paddings" % m, mpg(mode),
          [sample(tf.int32, (4, 5, 5)), np.array([[1, 1], [0, 2], [2, 0]], np.int64)])
    w.add("mirrorpadgrad_%s_5d" % m, mpg(mode),
          [local.randn(3, 4, 3, 3, 4).astype(np.float32), np.tile(i32(1, 0), 5).reshape(5, 2)],
          rtol=1e-6)
    w.add("mirrorpadgrad_%s_random_f64" % m, mpg(mode),
          [local.randn(6, 7, 5), i32(2, 1, 0, 3, 1, 1).reshape(3, 2)], rtol=1e-12)
    # Large enough for the parallel path; uint8 and int8 sums wrap around.
    w.add("mirrorpadgrad_%s_large_uint8" % m, mpg(mode),
          [local.randint(0, 256, (40, 300)).astype(np.uint8), i32(3, 4, 20, 30).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_wrapping_int8" % m, mpg(mode),
          [np.full((4, 3), 100, np.int8), i32(1, 1, 0, 0).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_no_padding" % m, mpg(mode),
          [sample(tf.float32, (3, 4)), np.zeros((2, 2), np.int32)])
    w.add("mirrorpadgrad_%s_scalar" % m, mpg(mode), [np.float32(2), np.zeros((0, 2), np.int32)])
    # TensorFlow rejects an empty dim even when it is not padded.
    w.add("mirrorpadgrad_%s_empty_dim" % m, mpg(mode),
          [np.zeros((0, 6), np.float32), i32(0, 0, 1, 1).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_empty_dim_no_padding" % m, mpg(mode),
          [np.zeros((3, 0), np.float32), np.zeros((2, 2), np.int32)])
    # Errors.
    p = sample(tf.float32, (5, 6))
    w.add("mirrorpadgrad_%s_too_large" % m, mpg(mode), [p, i32(2, 2, 0, 0).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_after_too_large" % m, mpg(mode), [p, i32(0, 0, 1, 3).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_past_the_input" % m, mpg(mode), [p, i32(4, 4, 0, 0).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_negative" % m, mpg(mode), [p, i32(0, -1, 0, 0).reshape(2, 2)])
    w.add("mirrorpadgrad_%s_int64_overflow" % m, mpg(mode),
          [p, np.array([[2**62, 2**62], [0, 0]], np.int64)])
  w.add("mirrorpadgrad_negative_before_total_too_large", mpg("SYMMETRIC"),
        [sample(tf.float32, (5, 6)), i32(-1, 10, 0, 0).reshape(2, 2)])
  w.add("mirrorpadgrad_paddings_not_matrix", mpg("REFLECT"), [sample(tf.float32, (5, 6)),
                                                              i32(1, 1)])
  w.add("mirrorpadgrad_paddings_three_columns", mpg("REFLECT"),
        [sample(tf.float32, (5, 6)), i32(1, 1, 1, 1, 1, 1).reshape(2, 3)])
  w.add("mirrorpadgrad_paddings_wrong_rows", mpg("REFLECT"),
        [sample(tf.float32, (5, 6)), i32(1, 1).reshape(1, 2)])
  w.add("mirrorpadgrad_rank6", mpg("SYMMETRIC"),
        [np.zeros([1] * 6, np.float32), np.zeros((6, 2), np.int32)])


def main():
  w = CaseWriter("indexing")
  add_gather(w)
  add_gather_nd(w)
  add_one_hot(w)
  add_where(w)
  add_pad(w)
  add_mirror_pad(w)
  add_mirror_pad_grad(w)
  w.write()


if __name__ == "__main__":
  main()
