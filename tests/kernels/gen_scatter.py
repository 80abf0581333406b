"""Writes fixtures/scatter.pbtxt: ScatterNd and TensorScatterUpdate/Add/Sub/Max/Min cases
recorded from TensorFlow (see oracle.py).

Every case is exact (rtol = atol = 0): TensorFlow's CPU kernel applies the update rows one
after another in index order, and Sluice's does the same, so even float sums with many
duplicate indices round identically (the large random cases check it).

Left out: updates of lower rank than indices' outer dims (indices [2,2,1], updates [2]):
TensorFlow's kernel aborts the process on it; Sluice returns INVALID_ARGUMENT
(scatter_nd_op_test.cc). Deterministic: fixed numpy seed.

    python3 tests/kernels/gen_scatter.py
"""

import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.RandomState(11)

REAL = [tf.float32, tf.float64, tf.float16, tf.bfloat16, tf.int8, tf.uint8, tf.int16,
        tf.uint16, tf.int32, tf.uint32, tf.int64, tf.uint64]
NUMBER = REAL + [tf.complex64, tf.complex128]
ALL = NUMBER + [tf.bool, tf.string]


def sample(dtype, shape, offset=0):
  n = int(np.prod(shape))
  if dtype == tf.string:
    return np.array([("s%d" % (i + offset)).encode() for i in range(n)],
                    dtype=object).reshape(shape)
  if dtype == tf.bool:
    return ((np.arange(n) + offset) % 3 == 1).reshape(shape)
  if dtype.is_complex:
    v = np.arange(n) + offset + 1j * (np.arange(n)[::-1] - 2)
    return v.astype(dtype.as_numpy_dtype).reshape(shape)
  if dtype.is_floating:
    v = (np.arange(n) + offset - n / 2) * 0.75
    return v.astype(np.float32).astype(dtype.as_numpy_dtype).reshape(shape)
  lo = 0 if dtype.is_unsigned else -3
  return ((np.arange(n) + offset) % 50 + lo).astype(dtype.as_numpy_dtype).reshape(shape)


def i32(*v):
  return np.array(v, np.int32)


def sn(policy=None):
  if policy is None:
    return lambda i, u, s: R.ScatterNd(indices=i, updates=u, shape=s)
  return lambda i, u, s: R.ScatterNd(indices=i, updates=u, shape=s, bad_indices_policy=policy)


def ts(op, policy=None):
  fn = getattr(R, op)
  if policy is None:
    return lambda t, i, u: fn(tensor=t, indices=i, updates=u)
  return lambda t, i, u: fn(tensor=t, indices=i, updates=u, bad_indices_policy=policy)


def add_scatter_nd(w):
  idx = i32(1, 3, 1, 0).reshape(4, 1)
  for dt in ALL:
    w.add("scatternd_%s_dup" % dt.name, sn(), [idx, sample(dt, (4, 2)), i32(5, 2)])
  w.add("scatternd_f32_idx_int64", sn(),
        [np.array([[0, 1], [2, 2], [0, 1]], np.int64), sample(tf.float32, (3,)),
         np.array([3, 4], np.int64)])
  w.add("scatternd_f32_batched", sn(),
        [i32(0, 1, 2, 0, 1, 1, 0, 1).reshape(2, 2, 2), sample(tf.float32, (2, 2, 3)),
         i32(3, 2, 3)])
  w.add("scatternd_f32_full_depth", sn(), [i32(1, 1, 0, 2).reshape(2, 2), np.float32([7, 8]),
                                            i32(2, 3)])
  w.add("scatternd_f32_depth7", sn(), [np.ones((2, 7), np.int32), np.float32([1.5, 2.25]),
                                        i32(*[2] * 7)])
  w.add("scatternd_f32_empty", sn(), [np.zeros((0, 1), np.int32), np.zeros((0, 3), np.float32),
                                      i32(4, 3)])
  w.add("scatternd_f32_all_empty", sn(), [np.zeros((0, 1), np.int32), np.zeros((0,), np.float32),
                                          i32(0)])
  w.add("scatternd_f32_rank1_indices_empty", sn(),
        [np.zeros((0,), np.int32), np.zeros((0, 2), np.float32), i32(0, 2)])
  w.add("scatternd_f32_depth0_empty", sn(),
        [np.zeros((2, 0), np.int32), np.zeros((2, 0), np.float32), i32(0)])
  w.add("scatternd_f32_nan_inf", sn(),
        [i32(0, 0, 1, 2).reshape(4, 1), np.float32([np.inf, -np.inf, np.nan, 1]), i32(3)])
  # Many duplicates into few rows: the sums must round in TensorFlow's order.
  w.add("scatternd_f32_large_dups", sn(),
        [rng.randint(0, 17, size=(1500, 1)).astype(np.int32),
         (rng.randn(1500, 2) * 100).astype(np.float32), i32(17, 2)])
  w.add("scatternd_f16_large_dups", sn(),
        [rng.randint(0, 11, size=(300, 1)).astype(np.int64),
         rng.randn(300, 2).astype(np.float16), np.array([11, 2], np.int64)])
  w.add("scatternd_bf16_dups", sn(),
        [rng.randint(0, 5, size=(200, 1)).astype(np.int32),
         rng.randn(200, 2).astype(tf.bfloat16.as_numpy_dtype), i32(5, 2)])
  w.add("scatternd_i8_wraps", sn(), [i32(0, 0, 0).reshape(3, 1), np.int8([100, 100, 100]),
                                     i32(2)])
  w.add("scatternd_ignore", sn("IGNORE"), [i32(5, 1, -1, 1).reshape(4, 1),
                                           np.float32([1, 2, 3, 4]), i32(4)])
  w.add("scatternd_error_policy", sn("ERROR"), [i32(5, 1).reshape(2, 1), np.float32([1, 2]),
                                                i32(4)])
  w.add("scatternd_default_policy", sn("DEFAULT"), [i32(2, 1).reshape(2, 1), np.float32([1, 2]),
                                                    i32(4)])
  # Errors.
  w.add("scatternd_bad_index", sn(), [i32(7, 1, 9).reshape(3, 1), np.float32([1, 2, 3]), i32(4)],
        error_substr="indices[2] = [9] does not index into shape [4]")
  w.add("scatternd_bad_index_batched", sn(),
        [np.array([[[1, 1]], [[1, 7]]], np.int32), np.float32([[1], [2]]), i32(4, 4)],
        error_substr="indices[1,0] = [1, 7] does not index into shape [4,4]")
  w.add("scatternd_negative_index", sn(), [i32(-1).reshape(1, 1), np.float32([1]), i32(4)])
  w.add("scatternd_bad_policy", sn("FOO"), [i32(1).reshape(1, 1), np.float32([1]), i32(4)])
  w.add("scatternd_shape_scalar", sn(), [i32(1).reshape(1, 1), np.float32([1]), np.int32(4)])
  w.add("scatternd_shape_matrix", sn(), [i32(1).reshape(1, 1), np.float32([1]), i32(4, 1)
                                                                                 .reshape(1, 2)])
  w.add("scatternd_shape_negative", sn(), [i32(1).reshape(1, 1), np.float32([1]), i32(-4)])
  w.add("scatternd_shape_empty", sn(), [i32(1).reshape(1, 1), np.float32([1]),
                                        np.zeros((0,), np.int32)])
  w.add("scatternd_indices_scalar", sn(), [np.int32(1), np.float32([1]), i32(4)])
  w.add("scatternd_updates_scalar", sn(), [i32(1).reshape(1, 1), np.float32(1), i32(4)])
  w.add("scatternd_rank1_indices", sn(), [i32(1), np.float32([1]), i32(4, 1)])
  w.add("scatternd_rank1_indices_depth2", sn(), [i32(1, 2), np.float32([1, 2]), i32(4, 4, 2)])
  w.add("scatternd_outer_mismatch", sn(), [i32(1, 2).reshape(2, 1), np.float32([1, 2, 3]),
                                           i32(4)])
  w.add("scatternd_inner_mismatch", sn(), [i32(1).reshape(1, 1), np.float32([[1, 2]]), i32(4, 3)])
  w.add("scatternd_depth_too_big", sn(), [i32(1, 1).reshape(1, 2), np.float32([1]), i32(4)])
  w.add("scatternd_depth8", sn(), [np.zeros((1, 8), np.int32), np.float32([1]), i32(*[2] * 8)])
  w.add("scatternd_empty_output", sn(), [i32(0).reshape(1, 1), np.float32([1]), i32(0)])
  w.add("scatternd_empty_slice", sn(), [i32(1, 5).reshape(2, 1), np.zeros((2, 0), np.float32),
                                        i32(4, 0)])
  w.add("scatternd_depth0_updates", sn(), [np.zeros((2, 0), np.int32),
                                           np.ones((2, 3), np.float32), i32(3)])


def add_tensor_scatter(w):
  idx = i32(1, 3, 1, 0).reshape(4, 1)
  ops = [("TensorScatterUpdate", ALL), ("TensorScatterAdd", NUMBER),
         ("TensorScatterSub", NUMBER), ("TensorScatterMax", REAL), ("TensorScatterMin", REAL)]
  for op, dtypes in ops:
    short = op[len("TensorScatter"):].lower()
    for dt in dtypes:
      w.add("ts%s_%s" % (short, dt.name), ts(op),
            [sample(dt, (5, 2)), idx, sample(dt, (4, 2), offset=3)])
    w.add("ts%s_f32_idx_int64" % short, ts(op),
          [sample(tf.float32, (3, 4)), np.array([[0, 1], [2, 2], [0, 1]], np.int64),
           np.float32([5, -6, 7])])
    w.add("ts%s_f32_batched" % short, ts(op),
          [sample(tf.float32, (3, 2, 2)), i32(0, 1, 2, 0, 1, 1).reshape(3, 1, 2),
           sample(tf.float32, (3, 1, 2), offset=9)])
    w.add("ts%s_f32_nan_inf" % short, ts(op),
          [np.float32([np.nan, 1, 2, 3, -np.inf]), i32(0, 1, 1, 2, 4, 3).reshape(6, 1),
           np.float32([5, np.nan, 0, np.inf, np.nan, -0.0])])
    n = 800 if op in ("TensorScatterAdd", "TensorScatterSub") else 100
    w.add("ts%s_f32_large_dups" % short, ts(op),
          [(rng.randn(13, 4) * 10).astype(np.float32),
           rng.randint(0, 13, size=(n, 1)).astype(np.int64),
           (rng.randn(n, 4) * 100).astype(np.float32)])
    w.add("ts%s_f32_no_updates" % short, ts(op),
          [sample(tf.float32, (3, 2)), np.zeros((0, 1), np.int32), np.zeros((0, 2), np.float32)])
    w.add("ts%s_ignore" % short, ts(op, "IGNORE"),
          [sample(tf.float32, (4,)), i32(5, 1, -1, 1).reshape(4, 1), np.float32([1, 2, 3, 4])])
    w.add("ts%s_bad_index" % short, ts(op),
          [sample(tf.float32, (4,)), i32(5, 1).reshape(2, 1), np.float32([1, 2])],
          error_substr="indices[0] = [5] does not index into shape [4]")
    w.add("ts%s_error_policy" % short, ts(op, "ERROR"),
          [sample(tf.float32, (4,)), i32(-1).reshape(1, 1), np.float32([1])])
  u = ts("TensorScatterUpdate")
  w.add("tsupdate_i32_wraps", ts("TensorScatterAdd"),
        [np.int32([2**31 - 1, 0]), i32(0, 0).reshape(2, 1), np.int32([1, 2**31 - 1])])
  w.add("tsupdate_depth7", u, [np.zeros([2] * 7, np.float32), np.ones((1, 7), np.int32),
                               np.float32([3])])
  w.add("tsupdate_rank1_indices_empty", u,
        [np.zeros((0, 2), np.float32), np.zeros((0,), np.int32), np.zeros((0, 2), np.float32)])
  w.add("tsupdate_depth0_empty", u,
        [np.zeros((0,), np.float32), np.zeros((2, 0), np.int32), np.zeros((2, 0), np.float32)])
  # Errors.
  w.add("tsupdate_bad_policy", ts("TensorScatterUpdate", "FOO"),
        [sample(tf.float32, (4,)), i32(1).reshape(1, 1), np.float32([1])])
  w.add("tsupdate_scalar_tensor", u, [np.float32(0), i32(0).reshape(1, 1), np.float32([1])])
  w.add("tsupdate_scalar_tensor_no_updates", u,
        [np.float32(0), np.zeros((0, 0), np.int32), np.zeros((0,), np.float32)])
  w.add("tsupdate_indices_scalar", u, [np.zeros(4, np.float32), np.int32(1), np.float32(1)])
  w.add("tsupdate_updates_scalar", u, [np.zeros(4, np.float32), i32(1).reshape(1, 1),
                                       np.float32(1)])
  w.add("tsupdate_rank1_indices", u, [np.zeros((4, 2), np.float32), i32(1, 3),
                                      np.ones((2, 2), np.float32)])
  w.add("tsupdate_rank1_indices_one", u, [np.zeros((4, 1), np.float32), i32(1),
                                          np.ones((1,), np.float32)])
  w.add("tsupdate_empty_tensor", u, [np.zeros((0, 3), np.float32), i32(0).reshape(1, 1),
                                     np.zeros((1, 3), np.float32)])
  w.add("tsupdate_outer_mismatch", u, [np.zeros((4, 3), np.float32), i32(0, 1).reshape(2, 1),
                                       np.zeros((3, 3), np.float32)])
  w.add("tsupdate_inner_mismatch", u, [np.zeros((4, 3), np.float32), i32(0, 1).reshape(2, 1),
                                       np.zeros((2, 2), np.float32)])
  w.add("tsupdate_depth_too_big", u, [np.zeros((4,), np.float32), i32(0, 1).reshape(1, 2),
                                      np.zeros((1,), np.float32)])
  w.add("tsupdate_depth8", u, [np.zeros([2] * 8, np.float32), np.zeros((1, 8), np.int32),
                               np.float32([1])])
  w.add("tsupdate_depth0_updates", u, [np.zeros((3,), np.float32), np.zeros((2, 0), np.int32),
                                       np.ones((2, 3), np.float32)])


def main():
  w = CaseWriter("scatter")
  add_scatter_nd(w)
  add_tensor_scatter(w)
  w.write()


if __name__ == "__main__":
  main()
