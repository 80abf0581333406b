"""Writes fixtures/loss.pbtxt: SoftmaxCrossEntropyWithLogits,
SparseSoftmaxCrossEntropyWithLogits, InTopK and InTopKV2 in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_loss.py (needs TensorFlow 2.x and numpy).

InTopK and InTopKV2 are exact, and so are the cross entropies in float, half and bfloat16:
Sluice follows TensorFlow's steps and per-step rounding, adds in the order of Eigen's AVX
reductions and takes TensorFlow's exp and log (numerics/), each element in the form
(vector or scalar tail) TensorFlow's evaluation gives it. double keeps a tolerance
(|got - want| <= 1e-14 + 1e-13 * |want|): its exp is Eigen 3.4's, which differs from
TensorFlow's newer Eigen in the last bit. TensorFlow evaluates the dense backprop in tiles
of 4507 elements (xent_f32_many_rows spans two); larger float cases, checked exact when this
was written but left out for the fixture's size: [257, 333], [300, 301] with [301] labels,
[3, 9001] (rows split into tiles and summed as a tree), [600, 13], sparse [257, 333].
Error cases record TensorFlow's code; error_substr must appear in Sluice's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("loss")

BF16 = tf.bfloat16.as_numpy_dtype
TYPES = (("f32", np.float32, 0, 0), ("f64", np.float64, 1e-13, 1e-14), ("f16", np.float16, 0, 0),
         ("bf16", BF16, 0, 0))


def xent(f, l):
  return R.SoftmaxCrossEntropyWithLogits(features=f, labels=l)


def sparse(f, l):
  return R.SparseSoftmaxCrossEntropyWithLogits(features=f, labels=l)


def probs(shape, dt):
  p = rng.random(shape)
  return (p / p.sum(axis=-1, keepdims=True)).astype(dt)


def logits(shape, dt, scale=3.0):
  return (rng.standard_normal(shape) * scale).astype(dt)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


# ---- SoftmaxCrossEntropyWithLogits -------------------------------------------------------
for tag, dt, rtol, atol in TYPES:
  tol = dict(rtol=rtol, atol=atol)
  w.add("xent_%s_basic" % tag, xent, [logits((4, 5), dt), probs((4, 5), dt)], **tol)
  w.add("xent_%s_one_hot" % tag, xent,
        [logits((3, 4), dt), np.eye(4, dtype=np.float32)[[0, 3, 1]].astype(dt)], **tol)
  w.add("xent_%s_wide" % tag, xent, [logits((6, 77), dt), probs((6, 77), dt)], **tol)
  w.add("xent_%s_labels_row_bcast" % tag, xent, [logits((5, 6), dt), probs((6,), dt)], **tol)
  w.add("xent_%s_labels_col_bcast" % tag, xent, [logits((5, 6), dt), probs((5, 1), dt)],
        **tol)
w.add("xent_f32_large", xent, [logits((10, 257), np.float32), probs((10, 257), np.float32)])
w.add("xent_f32_many_rows", xent, [logits((150, 37), np.float32, 10.0),
                                   probs((150, 37), np.float32)])
w.add("xent_f64_large", xent, [logits((4, 263), np.float64), probs((4, 263), np.float64)],
      rtol=1e-13, atol=1e-14)
w.add("xent_f32_logits_row_bcast", xent, [logits((1, 6), np.float32), probs((4, 6), np.float32)])
w.add("xent_f32_logits_vector", xent, [logits((6,), np.float32), probs((4, 6), np.float32)])
w.add("xent_f32_both_bcast", xent, [logits((1, 6), np.float32), probs((3, 1), np.float32)])
w.add("xent_f32_empty_batch", xent, [np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32)])
w.add("xent_f32_no_classes", xent, [np.zeros((2, 0), np.float32), np.zeros((2, 0), np.float32)])
w.add("xent_f32_single_class", xent, [logits((3, 1), np.float32), np.ones((3, 1), np.float32)])
w.add("xent_f32_huge_logits", xent,
      [np.array([[1e30, -1e30, 0], [88, 89, 90], [-100, -200, -300]], np.float32),
       probs((3, 3), np.float32)])
w.add("xent_f32_nonfinite", xent,
      [np.array([[np.nan, 0, 1], [np.inf, 0, 1], [-np.inf, 0, 1], [-np.inf, -np.inf, -np.inf]],
                np.float32), probs((4, 3), np.float32)])
w.add("xent_f32_zero_label_at_minus_inf", xent,
      [np.array([[-np.inf, 0, 1]], np.float32), np.array([[0, 0.5, 0.5]], np.float32)])
add_error("err_xent_not_broadcastable", xent,
          [np.ones((2, 3), np.float32), np.ones((2, 2), np.float32)],
          "logits and labels must be broadcastable: logits_size=[2,3] labels_size=[2,2]")
add_error("err_xent_vectors", xent, [np.ones((3,), np.float32), np.ones((3,), np.float32)],
          "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional")
add_error("err_xent_rank3", xent, [np.ones((1, 2, 3), np.float32), np.ones((2, 3), np.float32)],
          "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional")

# ---- SparseSoftmaxCrossEntropyWithLogits -------------------------------------------------
for tag, dt, rtol, atol in TYPES:
  tol = dict(rtol=rtol, atol=atol)
  for ltag, ldt in (("i32", np.int32), ("i64", np.int64)):
    w.add("sparse_%s_%s_basic" % (tag, ltag), sparse,
          [logits((4, 5), dt), np.array([0, 4, 2, 2], ldt)], **tol)
  w.add("sparse_%s_wide" % tag, sparse,
        [logits((6, 77), dt), rng.integers(0, 77, 6).astype(np.int64)], **tol)
w.add("sparse_f32_large", sparse,
      [logits((24, 300), np.float32), rng.integers(0, 300, 24).astype(np.int32)])
w.add("sparse_f32_many_rows", sparse,
      [logits((200, 10), np.float32, 10.0), rng.integers(0, 10, 200).astype(np.int64)])
# Rows longer than one leaf of Eigen's tree reduction (8 * 1024 floats, 8 * 200 halves).
w.add("sparse_f32_tree", sparse, [logits((1, 8250), np.float32), np.array([4321], np.int64)])
w.add("sparse_f16_tree", sparse, [logits((1, 1650), np.float16), np.array([1640], np.int32)])
w.add("xent_f16_tree", xent, [logits((1, 1650), np.float16), probs((1, 1650), np.float16)])
w.add("sparse_f32_empty_batch", sparse, [np.zeros((0, 3), np.float32), np.zeros((0,), np.int64)])
w.add("sparse_f32_single_class", sparse, [logits((3, 1), np.float32), np.zeros(3, np.int32)])
w.add("sparse_f32_nonfinite", sparse,
      [np.array([[np.nan, 0, 1], [np.inf, 0, 1], [-np.inf, 0, 1], [-np.inf, 0, 1]], np.float32),
       np.array([1, 1, 1, 0], np.int64)])
add_error("err_sparse_label_too_big", sparse,
          [np.ones((2, 3), np.float32), np.array([0, 3], np.int64)],
          "Received a label value of 3 which is outside the valid range of [0, 3).")
add_error("err_sparse_label_negative", sparse,
          [np.ones((2, 3), np.float32), np.array([-1, 1], np.int32)],
          "Received a label value of -1 which is outside the valid range of [0, 3).")
add_error("err_sparse_logits_rank1", sparse, [np.ones((3,), np.float32), np.array([0], np.int32)],
          "logits must be 2-D, but got shape [3]")
add_error("err_sparse_labels_rank2", sparse,
          [np.ones((2, 3), np.float32), np.array([[0], [1]], np.int32)],
          "labels must be 1-D, but got shape [2,1]")
add_error("err_sparse_batch_mismatch", sparse,
          [np.ones((2, 3), np.float32), np.array([0], np.int32)],
          "logits and labels must have the same first dimension, got logits shape [2,3] and "
          "labels shape [1]")
add_error("err_sparse_no_classes", sparse, [np.ones((2, 0), np.float32), np.array([0, 0])],
          "Must have at least one class, but got logits shape [2,0]")

# ---- InTopK, InTopKV2 --------------------------------------------------------------------
def in_top_k(k):
  return lambda p, t: R.InTopK(predictions=p, targets=t, k=k)


def in_top_k_v2(p, t, k):
  return R.InTopKV2(predictions=p, targets=t, k=k)


PRED = np.array([[0.1, 0.3, 0.2, 0.4], [0.1, 0.3, 0.3, 0.2], [0.5, 0.5, 0.5, 0.5]], np.float32)
for ttag, tdt in (("i32", np.int32), ("i64", np.int64)):
  targets = np.array([1, 2, 3], tdt)
  for k in (0, 1, 2, 3, 4, 5, -1):
    w.add("in_top_k_%s_k%d" % (ttag, k), in_top_k(k), [PRED, targets])
    w.add("in_top_k_v2_%s_k%d" % (ttag, k), in_top_k_v2, [PRED, targets, np.array(k, tdt)])
  w.add("in_top_k_v2_%s_out_of_range" % ttag, in_top_k_v2,
        [PRED, np.array([4, -1, 100], tdt), np.array(4, tdt)])
NONFINITE = np.array([[1, np.nan, 2, 0], [1, 2, np.inf, 0], [np.nan, np.nan, 1, 0],
                      [np.inf, -np.inf, 1, 0], [-np.inf, 0, 1, 2]], np.float32)
w.add("in_top_k_v2_nonfinite", in_top_k_v2,
      [NONFINITE, np.array([1, 2, 2, 2, 0], np.int32), np.array(2, np.int32)])
w.add("in_top_k_nonfinite_k4", in_top_k(4), [NONFINITE, np.array([1, 2, 2, 2, 0], np.int64)])
RP = rng.integers(0, 20, (60, 30)).astype(np.float32)  # many ties
RT = rng.integers(0, 30, 60).astype(np.int32)
for k in (1, 5, 25):
  w.add("in_top_k_v2_random_k%d" % k, in_top_k_v2, [RP, RT, np.array(k, np.int32)])
w.add("in_top_k_v2_empty", in_top_k_v2,
      [np.zeros((0, 4), np.float32), np.zeros((0,), np.int32), np.array(1, np.int32)])
w.add("in_top_k_v2_no_classes", in_top_k_v2,
      [np.zeros((2, 0), np.float32), np.zeros((2,), np.int32), np.array(1, np.int32)])
add_error("err_in_top_k_v2_k_vector", in_top_k_v2,
          [PRED, np.array([1, 2, 3], np.int32), np.array([1], np.int32)],
          "k must be 0-D, got shape [1]")
add_error("err_in_top_k_v2_k_before_predictions", in_top_k_v2,
          [PRED[0], np.array([1, 2, 3], np.int32), np.array([1], np.int32)],
          "k must be 0-D, got shape [1]")
add_error("err_in_top_k_predictions_rank1", in_top_k(1), [PRED[0], np.array([1], np.int32)],
          "predictions must be 2-dimensional")
add_error("err_in_top_k_targets_rank2", in_top_k(1),
          [PRED, np.array([[1], [2], [3]], np.int32)], "targets must be 1-dimensional")
add_error("err_in_top_k_v2_batch_mismatch", in_top_k_v2,
          [PRED, np.array([1, 2], np.int64), np.array(1, np.int64)],
          "First dimension of predictions 3 must match length of targets 2")

w.write()
