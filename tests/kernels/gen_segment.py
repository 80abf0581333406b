"""Writes fixtures/segment.pbtxt: segment reduction cases recorded from TensorFlow (see
oracle.py): UnsortedSegmentSum/Prod/Max/Min, SegmentSum/Mean/Prod/Max/Min and
SparseSegmentSum/Mean/SqrtN with and without num_segments and their gradients
SparseSegment{Sum,Mean,SqrtN}Grad(V2); EuclideanNorm, L2Loss and CumulativeLogsumexp.

Every case is exact (rtol = atol = 0): Sluice adds in TensorFlow's order, so float results
round identically; the large random cases (many rows per segment, half and bfloat16 too)
check it. TensorFlow's unsorted kernels and its sorted ones (Eigen's reduction over rows)
fold a segment's rows one at a time in input order; its sparse kernels sum groups of 8 rows
first (see kernels/cpu/segment/sparse_segment_op.cc).

EuclideanNorm and L2Loss are not exact: TensorFlow sums squares with Eigen's thread-pool
reduction, whose order depends on the pool, and Sluice with its Sum kernel's order (and in
float for half and bfloat16, which TensorFlow squares in half): TOL below per dtype, as
gen_reduction.py's sums. Integer norms are exact.

CumulativeLogsumexp is exact where TensorFlow's Eigen scan takes its scalar path (a scan
along the innermost dim, and the columns past the last whole packet); along an outer dim
Eigen vectorises the columns with its own exp and log1p approximations, which differ in the
last bits: rtol 1e-6 (float), 1e-14 (double), 1e-2 (half), 2e-2 (bfloat16) there.

Left out: SegmentMax/SegmentMin with NaN (or -0.0 against 0.0) in a segment of several rows.
Eigen's reduction keeps the accumulator on such a comparison in vectorised columns and the
row in the others, so TensorFlow's answer depends on where the column falls; Sluice follows
the scalar rule everywhere. Deterministic: fixed numpy seed.

    python3 tests/kernels/gen_segment.py
"""

import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.RandomState(5)

REAL = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.uint8, tf.int16,
        tf.uint16, tf.int32, tf.uint32, tf.int64, tf.uint64]
NUMBER = REAL + [tf.complex64, tf.complex128]
FLOATS = [tf.float32, tf.float64, tf.float16, tf.bfloat16]


def sample(dtype, shape, offset=0):
  n = int(np.prod(shape))
  if dtype.is_complex:
    v = (np.arange(n) % 5 - 2) + 1j * ((np.arange(n)[::-1] + offset) % 3 - 1)
    return v.astype(dtype.as_numpy_dtype).reshape(shape)
  if dtype.is_floating:
    v = ((np.arange(n) * 7 + offset) % 11 - 5) * 0.75
    return v.astype(np.float32).astype(dtype.as_numpy_dtype).reshape(shape)
  lo = 0 if dtype.is_unsigned else -3
  return ((np.arange(n) * 7 + offset) % 9 + lo).astype(dtype.as_numpy_dtype).reshape(shape)


def randn(dtype, shape, scale=1.0):
  return (rng.randn(*shape) * scale).astype(np.float32).astype(dtype.as_numpy_dtype)


def i32(*v):
  return np.array(v, np.int32)


def unsorted(op):
  fn = getattr(R, op)
  return lambda d, s, n: fn(data=d, segment_ids=s, num_segments=n)


def add_unsorted(w):
  ids = i32(0, 2, -1, 0, 2, 2)  # segment 1 and 3 empty, row 2 dropped
  ops = [("UnsortedSegmentSum", NUMBER), ("UnsortedSegmentProd", NUMBER),
         ("UnsortedSegmentMax", REAL), ("UnsortedSegmentMin", REAL)]
  for op, dtypes in ops:
    short = "u" + op[len("UnsortedSegment"):].lower()
    f = unsorted(op)
    for dt in dtypes:
      w.add("%s_%s" % (short, dt.name), f, [sample(dt, (6, 2)), ids, np.int32(4)])
    w.add("%s_f32_ids_int64_num_int64" % short, f,
          [sample(tf.float32, (6, 3)), ids.astype(np.int64), np.int64(3)])
    w.add("%s_f32_ids_matrix" % short, f,
          [sample(tf.float32, (2, 3, 2)), i32(1, 0, 1, -1, 1, 0).reshape(2, 3), np.int32(2)])
    w.add("%s_f32_ids_full_shape" % short, f,
          [sample(tf.float32, (2, 3)), i32(1, 0, 1, 2, 1, 0).reshape(2, 3), np.int32(3)])
    w.add("%s_f32_ids_scalar" % short, f, [sample(tf.float32, (3,)), np.int32(1), np.int32(2)])
    w.add("%s_f32_no_segments" % short, f,
          [sample(tf.float32, (3, 2)), i32(-1, -1, -1), np.int32(0)])
    w.add("%s_f32_empty_data" % short, f,
          [np.zeros((0, 2), np.float32), np.zeros((0,), np.int32), np.int32(3)])
    w.add("%s_f32_empty_inner_bad_ids" % short, f,
          [np.zeros((3, 0), np.float32), i32(0, 9, 1), np.int32(2)])
    w.add("%s_f32_nan_inf" % short, f,
          [np.float32([np.nan, 1, 2, np.nan, np.inf, -np.inf, 3, -0.0, 0.0]),
           i32(0, 0, 1, 1, 2, 2, 3, 4, 4), np.int32(5)])
    w.add("%s_f32_nan_inf_rows" % short, f,
          [np.float32([[np.nan, 1], [2, np.nan], [np.inf, -np.inf], [3, 4]]), i32(0, 0, 1, 1),
           np.int32(2)])
    for dt in FLOATS:
      w.add("%s_%s_large" % (short, dt.name), f,
            [randn(dt, (150, 2), 1.0 if op.endswith("Prod") else 10.0),
             rng.randint(-1, 9, size=150).astype(np.int32), np.int32(9)])
    # Errors.
    w.add("%s_id_too_large" % short, f, [sample(tf.float32, (3, 2)), i32(0, 4, 1), np.int32(4)],
          error_substr="segment_ids[1] = 4 is out of range [0, 4)")
    w.add("%s_ids_shape_mismatch" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1),
                                               np.int32(2)])
    w.add("%s_num_segments_vector" % short, f, [sample(tf.float32, (3,)), i32(0, 1, 0), i32(2)])
    w.add("%s_num_segments_negative" % short, f, [sample(tf.float32, (3,)), i32(0, 1, 0),
                                                  np.int32(-2)])
  s = unsorted("UnsortedSegmentSum")
  for it in (np.int16, np.int32, np.int64):
    w.add("usum_f32_ids_%s" % np.dtype(it).name, s,
          [sample(tf.float32, (5,)), np.array([3, 0, 3, -2, 1], it), np.int64(4)])
  # TensorFlow casts num_segments to the ids' type: 65538 is 2 for int16 ids.
  w.add("usum_int16_ids_num_segments_wraps", s,
        [sample(tf.float32, (3,)), np.array([1, 0, 1], np.int16), np.int32(65538)])
  w.add("usum_scalar_data_scalar_ids", s, [np.float32(2.5), np.int32(1), np.int32(3)])
  w.add("usum_zero_segments_bad_id", s, [sample(tf.float32, (2,)), i32(0, -1), np.int32(0)])
  w.add("usum_i32_wraps", s, [np.int32([2**31 - 1, 1, 5]), i32(0, 0, 1), np.int32(2)])
  w.add("usum_f32_large_wide", s,
        [randn(tf.float32, (100, 8), 100.0), rng.randint(0, 5, size=100).astype(np.int64),
         np.int32(5)])


def sorted_op(op):
  fn = getattr(R, op)
  return lambda d, s: fn(data=d, segment_ids=s)


def add_sorted(w):
  ids = i32(0, 0, 2, 3, 3, 3)  # segment 1 is a gap, 0 and 3 have several rows
  ops = [("SegmentSum", NUMBER), ("SegmentMean", NUMBER), ("SegmentProd", NUMBER),
         ("SegmentMax", REAL), ("SegmentMin", REAL)]
  for op, dtypes in ops:
    short = "s" + op[len("Segment"):].lower()
    f = sorted_op(op)
    for dt in dtypes:
      w.add("%s_%s" % (short, dt.name), f, [sample(dt, (6, 2)), ids])
    w.add("%s_f32_ids_int64" % short, f, [sample(tf.float32, (6, 3)), ids.astype(np.int64)])
    w.add("%s_f32_3d" % short, f, [sample(tf.float32, (4, 2, 3)), i32(1, 1, 1, 4)])
    w.add("%s_f32_vector" % short, f, [sample(tf.float32, (5,)), i32(0, 1, 1, 1, 1)])
    w.add("%s_f32_empty" % short, f, [np.zeros((0, 3), np.float32), np.zeros((0,), np.int32)])
    w.add("%s_f32_empty_inner" % short, f, [np.zeros((3, 0), np.float32), i32(0, 2, 2)])
    w.add("%s_f32_single_rows_nan_inf" % short, f,
          [np.float32([np.nan, np.inf, -np.inf, -0.0]), i32(0, 1, 3, 4)])
    for dt in FLOATS:
      w.add("%s_%s_large" % (short, dt.name), f,
            [randn(dt, (150, 2), 1.0 if op.endswith("Prod") else 10.0),
             np.sort(rng.randint(0, 7, size=150)).astype(np.int32)])
    # Errors.
    w.add("%s_not_increasing" % short, f, [sample(tf.float32, (4,)), i32(0, 2, 1, 3)])
    w.add("%s_negative_first" % short, f, [sample(tf.float32, (3,)), i32(-1, 0, 1)])
    w.add("%s_negative_last" % short, f, [sample(tf.float32, (3,)), i32(-3, -2, -2)])
    w.add("%s_ids_size_mismatch" % short, f, [sample(tf.float32, (4, 2)), i32(0, 1, 1)])
    w.add("%s_ids_matrix" % short, f, [sample(tf.float32, (4, 2)), i32(0, 1, 1, 2).reshape(2, 2)])
    w.add("%s_data_scalar" % short, f, [np.float32(3), i32(0)])
  for op in ("SegmentSum", "SegmentMean", "SegmentProd"):
    short = "s" + op[len("Segment"):].lower()
    w.add("%s_f32_nan_inf_rows" % short, sorted_op(op),
          [np.float32([[np.nan, 1], [2, 3], [np.inf, -np.inf], [np.inf, 4], [-0.0, -0.0],
                       [-0.0, 5]]), i32(0, 0, 1, 1, 2, 2)])
  w.add("smean_i8_rounds_toward_zero", sorted_op("SegmentMean"),
        [np.int8([-7, 2, 7, 1, 5]), i32(0, 0, 1, 1, 1)])
  # Runs of 16 rows or more, 11 columns: TensorFlow's Eigen reduction sums the vectorised
  # columns with four accumulators and the last columns row by row.
  for op in ("SegmentSum", "SegmentProd", "SegmentMean"):
    short = "s" + op[len("Segment"):].lower()
    for dt in FLOATS + [tf.complex64, tf.complex128]:
      cols = 5 if dt.is_complex else 11  # complex packets are 4 and 2 wide
      x = randn(dt, (37, cols), 10.0) if op != "SegmentProd" else (
          1 + 0.1 * rng.randn(37, cols)).astype(np.float32).astype(dt.as_numpy_dtype)
      if dt.is_complex:
        x = x + 1j * randn(tf.float32, (37, cols), 0.1)
        x = x.astype(dt.as_numpy_dtype)
      w.add("%s_%s_wide_runs" % (short, dt.name), sorted_op(op),
            [x, np.array([0] * 3 + [1] * 16 + [3] * 18, np.int64)])


def sparse(op, num_segments=False, **attrs):
  fn = getattr(R, op)
  if num_segments:
    return lambda d, i, s, n: fn(data=d, indices=i, segment_ids=s, num_segments=n, **attrs)
  return lambda d, i, s: fn(data=d, indices=i, segment_ids=s, **attrs)


def add_sparse(w):
  idx = i32(3, 0, 4, 4, 1, 0, 2)
  ids = i32(0, 0, 0, 2, 2, 3, 3)
  ops = [("SparseSegmentSum", REAL), ("SparseSegmentMean", FLOATS),
         ("SparseSegmentSqrtN", FLOATS)]
  for op, dtypes in ops:
    short = "ss" + op[len("SparseSegment"):].lower()
    f, fn = sparse(op), sparse(op + "WithNumSegments", True)
    for dt in dtypes:
      w.add("%s_%s" % (short, dt.name), f, [sample(dt, (5, 2)), idx, ids])
      w.add("%s_num_segments_%s" % (short, dt.name), fn,
            [sample(dt, (5, 2)), idx, ids, np.int32(6)])
    for it, st in ((np.int64, np.int32), (np.int32, np.int64), (np.int64, np.int64)):
      w.add("%s_f32_idx_%s_ids_%s" % (short, np.dtype(it).name, np.dtype(st).name), f,
            [sample(tf.float32, (5, 3)), idx.astype(it), ids.astype(st)])
    w.add("%s_f32_num_segments_as_int64" % short, fn,
          [sample(tf.float32, (5, 2)), idx, ids, np.int64(5)])
    w.add("%s_sparse_gradient" % short, sparse(op, sparse_gradient=True),
          [sample(tf.float32, (5, 2)), idx, ids])
    w.add("%s_f32_3d" % short, f, [sample(tf.float32, (3, 2, 2)), i32(2, 2, 0), i32(1, 1, 1)])
    # Runs of every length up to 19 cover each head size, n >= 10 and two groups of 8.
    lengths = list(range(1, 20))
    seg = np.repeat(np.arange(len(lengths)), lengths).astype(np.int32)
    for dt in FLOATS:
      w.add("%s_%s_run_lengths" % (short, dt.name), f,
            [randn(dt, (40, 2), 10.0), rng.randint(0, 40, size=seg.size).astype(np.int32), seg])
    w.add("%s_f32_large" % short, f,
          [randn(tf.float32, (50, 3), 10.0), rng.randint(0, 50, size=400).astype(np.int32),
           np.sort(rng.randint(0, 6, size=400)).astype(np.int32)])
    w.add("%s_f32_nan_inf" % short, f,
          [np.float32([np.nan, np.inf, -np.inf, -0.0, 2]), i32(0, 1, 1, 2, 3, 3, 4),
           i32(0, 0, 1, 1, 2, 2, 2)])
    w.add("%s_empty" % short, f, [sample(tf.float32, (3, 2)), np.zeros((0,), np.int32),
                                  np.zeros((0,), np.int32)])
    w.add("%s_empty_num_segments" % short, fn, [sample(tf.float32, (3, 2)),
                                                np.zeros((0,), np.int32),
                                                np.zeros((0,), np.int32), np.int32(3)])
    # Errors.
    w.add("%s_bad_index" % short, f, [sample(tf.float32, (3, 2)), i32(0, 5, 1), i32(0, 0, 1)],
          error_substr="Bad: indices[1] == 5 out of range [0, 3)")
    w.add("%s_negative_index" % short, f, [sample(tf.float32, (3, 2)), i32(0, -1), i32(0, 1)])
    w.add("%s_not_increasing" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1, 2),
                                           i32(1, 0, 2)])
    w.add("%s_negative_id" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1), i32(-1, 0)])
    w.add("%s_id_not_below_num_segments" % short, fn,
          [sample(tf.float32, (3, 2)), i32(0, 1), i32(0, 3), np.int32(3)])
    w.add("%s_negative_num_segments" % short, fn,
          [sample(tf.float32, (3, 2)), i32(0, 1), i32(0, 0), np.int32(-1)])
    w.add("%s_num_segments_vector" % short, fn,
          [sample(tf.float32, (3, 2)), i32(0, 1), i32(0, 0), i32(2)])
    w.add("%s_indices_matrix" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1).reshape(1, 2),
                                           i32(0, 0)])
    w.add("%s_ids_matrix" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1),
                                       i32(0, 0).reshape(1, 2)])
    w.add("%s_size_mismatch" % short, f, [sample(tf.float32, (3, 2)), i32(0, 1), i32(0)])
    w.add("%s_data_scalar" % short, f, [np.float32(1), i32(0), i32(0)])
  w.add("sssum_i32_wraps", sparse("SparseSegmentSum"),
        [np.int32([2**31 - 1, 1]), i32(0, 1, 1), i32(0, 0, 0)])


# Tolerances for sums of squares (see the docstring).
TOL = {
    tf.float32: dict(rtol=1e-5, atol=1e-6), tf.float64: dict(rtol=1e-12),
    tf.float16: dict(rtol=1e-2, atol=1e-2), tf.bfloat16: dict(rtol=2e-2, atol=2e-2),
    tf.complex64: dict(rtol=1e-5, atol=1e-6), tf.complex128: dict(rtol=1e-12),
}


def add_norms(w):
  def norm(keep_dims=False):
    return lambda x, a: R.EuclideanNorm(input=x, axis=a, keep_dims=keep_dims)
  for dt in NUMBER:
    tol = TOL.get(dt, {})
    w.add("euclidean_norm_%s" % dt.name, norm(), [sample(dt, (3, 4)), i32(1)], **tol)
    w.add("euclidean_norm_%s_all" % dt.name, norm(), [sample(dt, (3, 4)), i32(0, 1)], **tol)
  t = TOL[tf.float32]
  x = sample(tf.float32, (2, 3, 4))
  w.add("euclidean_norm_axis_neg", norm(), [x, i32(-1)], **t)
  w.add("euclidean_norm_axes_0_2", norm(), [x, i32(0, 2)], **t)
  w.add("euclidean_norm_axis_int64_scalar", norm(), [x, np.int64(1)], **t)
  w.add("euclidean_norm_keep_dims", norm(True), [x, i32(0, 2)], **t)
  w.add("euclidean_norm_no_axes", norm(), [x, np.zeros((0,), np.int32)])
  w.add("euclidean_norm_size1_axis", norm(), [-x.reshape(2, 1, 12), i32(1)])
  w.add("euclidean_norm_empty", norm(), [np.zeros((0, 3), np.float32), i32(0)])
  w.add("euclidean_norm_scalar_no_axes", norm(), [np.float32(-2), np.zeros((0,), np.int32)])
  w.add("euclidean_norm_nan_inf", norm(),
        [np.float32([[np.nan, 1], [np.inf, 2], [-np.inf, 0], [3, 4]]), i32(1)], **t)
  w.add("euclidean_norm_large", norm(), [randn(tf.float32, (100, 40), 10.0), i32(0)],
        rtol=1e-4, atol=1e-4)
  w.add("euclidean_norm_large_all", norm(), [randn(tf.float32, (60, 50), 10.0), i32(0, 1)],
        rtol=1e-4, atol=1e-4)
  w.add("euclidean_norm_i32_wraps_square", norm(), [np.int32([50000, 3]), i32(0)])
  w.add("euclidean_norm_i8_wraps_negative", norm(), [np.int8([12, 0]), i32(0)])
  w.add("euclidean_norm_i16_wraps_negative", norm(), [np.int16([200, 0]), i32(0)])
  w.add("euclidean_norm_i64_wraps_negative", norm(), [np.int64([3037000500, 0]), i32(0)])
  w.add("euclidean_norm_axis_out_of_range", norm(), [x, i32(3)])
  w.add("euclidean_norm_duplicate_axis", norm(), [x, i32(1, -2)])
  l2 = lambda x: R.L2Loss(t=x)
  for dt in FLOATS:
    w.add("l2loss_%s" % dt.name, l2, [sample(dt, (3, 4))], **TOL[dt])
    w.add("l2loss_%s_large" % dt.name, l2, [randn(dt, (400,), 1.0)],
          rtol=max(1e-4, TOL[dt].get("rtol", 0)), atol=max(1e-4, TOL[dt].get("atol", 0)))
  w.add("l2loss_scalar", l2, [np.float32(-3)])
  w.add("l2loss_empty", l2, [np.zeros((0, 4), np.float32)])
  w.add("l2loss_nan_inf", l2, [np.float32([1, np.inf])])
  w.add("l2loss_nan", l2, [np.float32([np.nan, 2])])


def add_logsumexp(w):
  def cle(exclusive=False, reverse=False):
    return lambda x, a: R.CumulativeLogsumexp(x=x, axis=a, exclusive=exclusive, reverse=reverse)
  vec_tol = {tf.float32: dict(rtol=1e-6), tf.float64: dict(rtol=1e-14),
             tf.float16: dict(rtol=1e-2, atol=1e-2), tf.bfloat16: dict(rtol=2e-2, atol=2e-2)}
  for dt in FLOATS:
    x = randn(dt, (3, 7), 3.0)
    for ex in (False, True):
      for rev in (False, True):
        w.add("cumlogsumexp_%s_last_axis_ex%d_rev%d" % (dt.name, ex, rev), cle(ex, rev),
              [x, np.int32(-1)])
    w.add("cumlogsumexp_%s_axis0" % dt.name, cle(), [randn(dt, (5, 19), 3.0), np.int32(0)],
          **vec_tol[dt])
  w.add("cumlogsumexp_f32_axis0_narrow", cle(True, True), [randn(tf.float32, (6, 3), 3.0),
                                                            np.int64(0)])
  w.add("cumlogsumexp_f32_middle_axis", cle(), [randn(tf.float32, (2, 4, 3), 3.0),
                                                 np.int32(1)])
  w.add("cumlogsumexp_f32_long", cle(), [randn(tf.float32, (500,), 5.0), np.int32(0)])
  w.add("cumlogsumexp_f32_nan_inf", cle(),
        [np.float32([[1, -np.inf, 2, np.inf, 3, np.nan, 4]]), np.int32(1)])
  w.add("cumlogsumexp_f32_all_neg_inf", cle(), [np.float32([-np.inf, -np.inf]), np.int32(0)])
  w.add("cumlogsumexp_f32_scalar_input", cle(), [np.float32(2), np.int32(0)])
  w.add("cumlogsumexp_f32_empty", cle(), [np.zeros((0, 3), np.float32), np.int32(1)])
  w.add("cumlogsumexp_f32_axis_out_of_range", cle(), [randn(tf.float32, (2, 3)), np.int32(2)])
  w.add("cumlogsumexp_f32_axis_vector", cle(), [randn(tf.float32, (2, 3)), i32(0)])


def sparse_grad(op, v2=False):
  fn = getattr(R, op + ("GradV2" if v2 else "Grad"))
  if v2:
    return lambda g, i, s, d: fn(grad=g, indices=i, segment_ids=s, dense_output_dim0=d)
  return lambda g, i, s, d: fn(grad=g, indices=i, segment_ids=s, output_dim0=d)


def add_sparse_grads(w):
  # A separate generator, so that the cases above keep their random inputs.
  grng = np.random.RandomState(17)
  for op in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"):
    short = "ss" + op[len("SparseSegment"):].lower() + "_grad"
    for v2 in (False, True):
      name = short + ("v2" if v2 else "")
      for dtype in FLOATS:
        # Repeated indices (added in entry order), unused rows, segments of several entries.
        g = sample(dtype, (4, 3))
        w.add("%s_%s" % (name, dtype.name), sparse_grad(op, v2),
              [g, i32(5, 0, 5, 2, 0, 7, 5), i32(0, 0, 1, 2, 2, 2, 3), np.int32(9)])
        n, rows, segs = 600, 50, 40
        ids = np.sort(grng.randint(0, segs, n)).astype(np.int64)
        w.add("%s_%s_large" % (name, dtype.name), sparse_grad(op, v2),
              [(grng.randn(segs, 5) * 3).astype(np.float32).astype(dtype.as_numpy_dtype),
               grng.randint(0, rows, n).astype(np.int64), ids, np.int32(rows)])
      f32 = tf.float32
      w.add(name + "_unsorted_ids", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(4, 0, 4, 2, 0), i32(2, 0, 1, 0, 0), np.int32(6)])
      w.add(name + "_rank3", sparse_grad(op, v2),
            [sample(f32, (3, 2, 2)), i32(1, 1, 0), i32(0, 2, 2), np.int32(3)])
      if v2:
        # The first version's output is left unwritten by TensorFlow when there are no
        # entries (Sluice writes zeros: see sparse_segment_grad_op.cc).
        w.add(name + "_no_entries", sparse_grad(op, v2),
              [sample(f32, (3, 4)), i32(), i32(), np.int32(3)])
      w.add(name + "_zero_rows", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), i32(0, 1), np.int32(0)])
      w.add(name + "_index_out_of_range", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(4, 0, 4, 2, 0), i32(0, 0, 1, 2, 2), np.int32(4)])
      w.add(name + "_negative_index", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(1, -1), i32(0, 1), np.int32(4)])
      w.add(name + "_too_many_segments", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), i32(0, 3), np.int32(4)])
      w.add(name + "_segment_out_of_range", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1, 2), i32(0, 5, 1), np.int32(4)])
      w.add(name + "_negative_segment", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), i32(-1, 0), np.int32(4)])
      w.add(name + "_negative_dim0", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), i32(0, 1), np.int32(-1)])
      w.add(name + "_sizes_differ", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), i32(0), np.int32(4)])
      w.add(name + "_indices_matrix", sparse_grad(op, v2),
            [sample(f32, (3, 4)), np.zeros((2, 1), np.int32), i32(0, 1), np.int32(4)])
      w.add(name + "_ids_matrix", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), np.zeros((2, 1), np.int32), np.int32(4)])
      w.add(name + "_dim0_vector", sparse_grad(op, v2),
            [sample(f32, (3, 4)), i32(0, 1), i32(0, 1), i32(4)])
      w.add(name + "_scalar_grad", sparse_grad(op, v2),
            [np.float32(1), i32(0, 1), i32(0, 0), np.int32(4)])


def main():
  w = CaseWriter("segment")
  add_unsorted(w)
  add_sorted(w)
  add_sparse(w)
  add_norms(w)
  add_logsumexp(w)
  add_sparse_grads(w)
  w.write()


if __name__ == "__main__":
  main()
