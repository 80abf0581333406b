"""Writes fixtures/ctc.pbtxt: CTCGreedyDecoder, CTCBeamSearchDecoder and CTCLoss in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_ctc.py (needs TensorFlow 2.x and numpy).
Random logits with fixed seeds over several (max_time, batch, num_classes) shapes, float and
double (the dtypes TensorFlow's CPU kernels take), each attr that changes behaviour, sequence
lengths of 0, negative (the decoders accept them) and max_time, ties (integer and all-equal
logits: first maximum in the greedy decoder, TensorFlow's container order in the beam
search), NaN and infinite logits, and every
error TensorFlow reports (error_substr checked here against TensorFlow's message).

Tolerances: decoded labels and shapes are exact. Scores and losses are within 1e-5 relative
(float) or 1e-6 (double: TensorFlow adds log-probabilities with float functions even for
double), gradients within 2e-5 / 1e-7 absolute: the softmax's vectorized exp may round
differently from TensorFlow's build, and a class's occupancy is exp(a - log p) with log p of
the order of the steps (a float ulp of 40 is 4e-6). The parallel paths (32K logits and more)
are unit tests comparing a large batch with its rows run alone.

Left out because TensorFlow's CTCLoss crashes or writes outside its arrays on them (Sluice's
answers are unit tests in kernels/cpu/ctc/ctc_ops_test.cc): logits with no classes, and a
label whose first label is the blank or past it (no label kept).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261219)
w = CaseWriter("ctc")
i32, i64, f32, f64 = np.int32, np.int64, np.float32, np.float64
DTYPES = [("f32", f32), ("f64", f64)]


def tol(dt, grad=False):
  if grad:
    return dict(atol=2e-5 if dt == f32 else 1e-7, rtol=1e-5 if dt == f32 else 1e-6)
  return dict(rtol=1e-5 if dt == f32 else 1e-6, atol=1e-6 if dt == f32 else 1e-9)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0 and _quote(substr)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access


def logits(t, b, c, dt, scale=2.0):
  """Normal logits rounded to multiples of 1/32 (exact in both dtypes, short in the fixture)."""
  return (np.round(rng.normal(size=(t, b, c)) * scale * 32) / 32).astype(dt)


def lengths(t, b):
  """Random lengths in [0, t], with max_time and (when b > 2) a zero among them."""
  s = rng.integers(0, t + 1, size=b).astype(i32)
  s[0] = t
  if b > 2:
    s[1] = 0
  return s


# ---- CTCGreedyDecoder -----------------------------------------------------------------------
def greedy(merge=False, blank=None):
  def build(x, s):
    kw = {} if blank is None else {"blank_index": blank}
    return R.CTCGreedyDecoder(inputs=x, sequence_length=s, merge_repeated=merge, **kw)
  return build


for dn, dt in DTYPES:
  for (t, b, c) in [(1, 1, 2), (5, 3, 4), (12, 4, 7), (20, 5, 5)]:
    x = logits(t, b, c, dt)
    s = lengths(t, b)
    for merge in [False, True]:
      for blank in [None, 0, 1, -c] if t < 20 else [None, 1]:
        name = "greedy_%s_%dx%dx%d_merge%d_blank%s" % (dn, t, b, c, merge, blank)
        w.add(name, greedy(merge, blank), [x, s], **tol(dt))
  # Integer logits: equal maxima, the first is taken.
  x = rng.integers(0, 3, size=(10, 4, 5)).astype(dt)
  w.add("greedy_%s_ties" % dn, greedy(True), [x, np.array([10, 7, 3, 10], i32)])
  w.add("greedy_%s_ties_blank_middle" % dn, greedy(False, 2), [x, np.array([10, 7, 3, 10], i32)])
  # Repeats separated by blanks and not.
  x = np.full((6, 1, 3), -5, dt)
  for step, cls in enumerate([0, 0, 2, 0, 1, 1]):
    x[step, 0, cls] = 1
  w.add("greedy_%s_repeats" % dn, greedy(False), [x, np.array([6], i32)])
  w.add("greedy_%s_repeats_merged" % dn, greedy(True), [x, np.array([6], i32)])
  w.add("greedy_%s_negative_length" % dn, greedy(True),
        [logits(4, 2, 3, dt), np.array([4, -3], i32)], **tol(dt))
  w.add("greedy_%s_nonfinite" % dn, greedy(True),
        [np.array([[[np.nan, 1, 0]], [[1, np.nan, 0]], [[np.inf, np.inf, 0]],
                   [[-np.inf, -np.inf, -np.inf]]], dt), np.array([4], i32)])
  w.add("greedy_%s_one_class" % dn, greedy(True), [logits(3, 2, 1, dt), np.array([3, 2], i32)],
        **tol(dt))
w.add("greedy_f32_default_attrs",
      lambda x, s: R.CTCGreedyDecoder(inputs=x, sequence_length=s),
      [logits(7, 3, 6, f32), lengths(7, 3)], **tol(f32))

X = logits(4, 2, 3, f32)
expect_error("greedy_rank2", greedy(), [X[0], np.array([1, 1], i32)], "inputs is not a 3-Tensor")
expect_error("greedy_empty_batch", greedy(), [X[:, :0], np.zeros(0, i32)],
             "inputs must not be empty")
expect_error("greedy_no_classes", greedy(), [X[:, :, :0], np.array([1, 1], i32)],
             "inputs must not be empty")
expect_error("greedy_no_time", greedy(), [X[:0], np.array([0, 0], i32)],
             "inputs must not be empty")
expect_error("greedy_lengths_matrix", greedy(), [X, np.array([[1, 1]], i32)],
             "sequence_length is not a vector")
expect_error("greedy_lengths_count", greedy(), [X, np.array([1, 1, 1], i32)],
             "len(sequence_length) != batch_size.  len(sequence_length):  3 batch_size: 2")
expect_error("greedy_length_past_max_time", greedy(), [X, np.array([1, 5], i32)],
             "sequence_length(1) <= 4")
expect_error("greedy_blank_too_large", greedy(blank=3), [X, np.array([4, 4], i32)],
             "blank_index expected to be between -3 and 2 but was 3")
expect_error("greedy_blank_too_small", greedy(blank=-4), [X, np.array([4, 4], i32)],
             "blank_index expected to be between -3 and 2 but was -4")


# ---- CTCBeamSearchDecoder -------------------------------------------------------------------
def beam(width, paths, merge=True):
  return lambda x, s: R.CTCBeamSearchDecoder(inputs=x, sequence_length=s, beam_width=width,
                                             top_paths=paths, merge_repeated=merge)


for dn, dt in DTYPES:
  for (t, b, c), widths in [((1, 1, 2), [1, 2]), ((5, 3, 4), [1, 3, 6]),
                            ((10, 2, 6), [2, 5, 10]), ((20, 3, 10), [8, 25]),
                            ((30, 2, 12), [16])]:
    x = logits(t, b, c, dt)
    s = lengths(t, b)
    for width in widths:
      for paths in sorted({1, min(2, width), width}):
        for merge in [True, False]:
          if paths > 2 and not merge:
            continue
          name = "beam_%s_%dx%dx%d_w%d_p%d_merge%d" % (dn, t, b, c, width, paths, merge)
          if paths > 1 and (t == 1 and c == 2 and paths > 2):
            continue
          w.add(name, beam(width, paths, merge), [x, s], **tol(dt))
  # Sharp logits: few prefixes have any weight, so the beam has room for repeats and blanks.
  w.add("beam_%s_sharp" % dn, beam(4, 3, True), [logits(8, 2, 4, dt, scale=8.0),
                                                 np.array([8, 6], i32)], **tol(dt))
  w.add("beam_%s_sharp_unmerged" % dn, beam(4, 3, False), [logits(8, 2, 4, dt, scale=8.0),
                                                           np.array([8, 6], i32)], **tol(dt))
  # Ties: every prefix of a length equally likely; the order is TensorFlow's container's.
  for (t, c, width, paths) in [(3, 3, 3, 3), (4, 4, 5, 5), (3, 5, 7, 4), (6, 3, 4, 4)]:
    w.add("beam_%s_all_equal_t%d_c%d_w%d_p%d" % (dn, t, c, width, paths), beam(width, paths),
          [np.zeros((t, 1, c), dt), np.array([t], i32)], **tol(dt))
  w.add("beam_%s_integer_logits" % dn, beam(6, 4, True),
        [rng.integers(0, 3, size=(7, 3, 4)).astype(dt), np.array([7, 5, 6], i32)], **tol(dt))
  w.add("beam_%s_short_and_negative_lengths" % dn, beam(3, 1),
        [logits(4, 3, 3, dt), np.array([4, 0, -2], i32)], **tol(dt))
  w.add("beam_%s_one_class" % dn, beam(3, 1), [logits(3, 2, 1, dt), np.array([3, 1], i32)],
        **tol(dt))
  w.add("beam_%s_nan" % dn, beam(3, 1), [np.full((3, 1, 3), np.nan, dt), np.array([3], i32)])
  w.add("beam_%s_neg_inf_label" % dn, beam(3, 2),
        [np.array([[[-np.inf, 0, 1]], [[0, -np.inf, 1]], [[1, 1, -np.inf]]], dt),
         np.array([3], i32)], **tol(dt))
w.add("beam_f32_wide_beam_many_classes", beam(40, 3), [logits(20, 1, 25, f32, scale=1.0),
                                                        np.array([20], i32)], **tol(f32))
w.add("beam_f32_default_merge",
      lambda x, s: R.CTCBeamSearchDecoder(inputs=x, sequence_length=s, beam_width=3, top_paths=2),
      [logits(6, 2, 4, f32), np.array([6, 4], i32)], **tol(f32))

expect_error("beam_rank2", beam(2, 1), [X[0], np.array([1, 1], i32)], "inputs is not a 3-Tensor")
expect_error("beam_empty", beam(2, 1), [X[:, :0], np.zeros(0, i32)], "inputs must not be empty")
expect_error("beam_lengths_matrix", beam(2, 1), [X, np.array([[1, 1]], i32)],
             "sequence_length is not a vector")
expect_error("beam_lengths_count", beam(2, 1), [X, np.array([1], i32)],
             "len(sequence_length) != batch_size.  len(sequence_length):  1 batch_size: 2")
expect_error("beam_length_past_max_time", beam(2, 1), [X, np.array([5, 2], i32)],
             "sequence_length(0) <= 4")
expect_error("beam_more_paths_than_width", beam(2, 3), [X, np.array([4, 4], i32)],
             "requested more paths than the beam width.")
expect_error("beam_fewer_leaves_empty_sequence", beam(3, 2), [X, np.array([4, 0], i32)],
             "Less leaves in the beam search than requested.")
expect_error("beam_fewer_leaves_one_class", beam(3, 2), [X[:, :, :1], np.array([4, 4], i32)],
             "Less leaves in the beam search than requested.")


# ---- CTCLoss --------------------------------------------------------------------------------
def loss(collapse=False, merge=True, ignore=False):
  return lambda x, ix, v, s: R.CTCLoss(
      inputs=x, labels_indices=ix, labels_values=v, sequence_length=s,
      preprocess_collapse_repeated=collapse, ctc_merge_repeated=merge,
      ignore_longer_outputs_than_inputs=ignore)


def sparse(rows):
  ix = [[b, i] for b, row in enumerate(rows) for i in range(len(row))]
  vals = [v for row in rows for v in row]
  return np.array(ix, i64).reshape(-1, 2), np.array(vals, i32)


def random_labels(c, seq, repeats=True):
  """A label per row of length 1..max(1, seq // 2) over classes 0..c-2, some repeats."""
  rows = []
  for n in seq:
    k = int(rng.integers(1, max(1, int(n) // 2) + 1))
    row = rng.integers(0, c - 1, size=k)
    if repeats and k > 1 and rng.random() < 0.5:
      row[1] = row[0]
    rows.append([int(v) for v in row])
  return rows


for dn, dt in DTYPES:
  for (t, b, c) in [(1, 1, 2), (6, 3, 5), (15, 4, 8), (25, 4, 10)]:
    x = logits(t, b, c, dt)
    s = rng.integers(1, t + 1, size=b).astype(i32)
    s[0] = t
    ix, v = sparse(random_labels(c, s))
    for collapse, merge in [(False, True), (True, True), (False, False), (True, False)]:
      name = "loss_%s_%dx%dx%d_collapse%d_merge%d" % (dn, t, b, c, collapse, merge)
      w.add(name, loss(collapse, merge), [x, ix, v, s], **tol(dt, grad=True))
  # Repeated labels need a blank between them when merging: [1, 1, 1] in 3 steps is
  # impossible (loss inf, the softmax as gradient) unless repeats are collapsed or not merged.
  x = logits(3, 1, 3, dt)
  ix, v = sparse([[1, 1, 1]])
  for collapse, merge in [(False, True), (True, True), (False, False)]:
    w.add("loss_%s_repeats_collapse%d_merge%d" % (dn, collapse, merge), loss(collapse, merge),
          [x, ix, v, np.array([3], i32)], **tol(dt, grad=True))
  # A label may end in blanks (a label >= num_classes - 1 ends it); they count as time needed.
  ix, v = sparse([[0, 1, 2, 5], [1]])
  w.add("loss_%s_trailing_blanks" % dn, loss(), [logits(5, 2, 3, dt), ix, v,
                                                 np.array([5, 2], i32)], **tol(dt, grad=True))
  # Too short rows: an error, or loss 0 and no gradient when ignored; rows of no steps.
  ix, v = sparse([[0, 1, 0], [1], [2, 2]])
  w.add("loss_%s_ignore_longer" % dn, loss(ignore=True),
        [logits(4, 3, 4, dt), ix, v, np.array([2, 0, 4], i32)], **tol(dt, grad=True))
  w.add("loss_%s_ignore_longer_collapse" % dn, loss(collapse=True, ignore=True),
        [logits(4, 3, 4, dt), ix, v, np.array([2, 0, 4], i32)], **tol(dt, grad=True))
  # Label positions with gaps: the labels of a row are its values in order.
  w.add("loss_%s_position_gaps" % dn, loss(),
        [logits(6, 2, 4, dt), np.array([[0, 0], [0, 3], [0, 7], [1, 2]], i64),
         np.array([1, 0, 2, 1], i32), np.array([6, 4], i32)], **tol(dt, grad=True))
  w.add("loss_%s_nan" % dn, loss(), [np.full((2, 1, 3), np.nan, dt), np.array([[0, 0]], i64),
                                     np.array([0], i32), np.array([2], i32)])
  w.add("loss_%s_neg_inf" % dn, loss(), [np.array([[[0, -np.inf, 1]], [[-np.inf, 2, 0]]], dt),
                                         np.array([[0, 0]], i64), np.array([0], i32),
                                         np.array([2], i32)], **tol(dt, grad=True))
w.add("loss_f32_default_attrs",
      lambda x, ix, v, s: R.CTCLoss(inputs=x, labels_indices=ix, labels_values=v,
                                    sequence_length=s),
      [logits(5, 2, 4, f32), *sparse([[0, 1], [2]]), np.array([5, 3], i32)],
      **tol(f32, grad=True))

X = logits(4, 2, 3, f32)
IX, V, S = np.array([[0, 0], [1, 0]], i64), np.array([0, 0], i32), np.array([1, 1], i32)
for name, args, substr in [
    ("rank2", [X[0], IX, V, S], "inputs is not a 3-Tensor"),
    ("lengths_matrix", [X, IX, V, S[None]], "sequence_length is not a vector"),
    ("indices_vector", [X, IX[0], V[:1], S], "labels_indices is not a matrix"),
    ("indices_one_column", [X, IX[:, :1], V, S],
     "labels_indices second dimension must be >= 1. Received 1"),
    ("indices_three_columns", [X, np.zeros((2, 3), i64), V, S],
     "Order length must be SparseTensor rank."),
    ("values_matrix", [X, IX, V[None], S], "labels_values is not a vector"),
    ("no_time", [X[:0], IX, V, np.array([0, 0], i32)],
     "Max time or first dimension of input cannot be 0."),
    ("lengths_count", [X, IX, V, np.array([1, 1, 1], i32)],
     "len(sequence_length) != batch_size.  len(sequence_length):  3 batch_size: 2"),
    ("rows_mismatch", [X, IX[:1], V, S],
     "labels_indices and labels_values must contain the same number of rows, but saw shapes: "
     "[1,2] vs. [2]"),
    ("empty_batch", [X[:, :0], np.zeros((0, 2), i64), np.zeros(0, i32), np.zeros(0, i32)],
     "batch_size must not be 0"),
    ("negative_batch_index", [X, np.array([[-1, 0]], i64), V[:1], S],
     "label SparseTensor is not valid: indices[0] = [-1,0] is out of bounds: need 0 <= index "
     "< [2,1]"),
    ("batch_index_past_batch", [X, np.array([[0, 0], [2, 0]], i64), V, S],
     "label SparseTensor is not valid: indices[1] = [2,0] is out of bounds"),
    ("negative_position", [X, np.array([[0, -1]], i64), V[:1], S],
     "label SparseTensor is not valid: indices[0] = [0,-1] is out of bounds: need 0 <= index "
     "< [2,0]"),
    ("largest_position", [X, np.array([[0, 2**63 - 1]], i64), V[:1], S],
     "label SparseTensor is not valid: indices[0] = [0,9223372036854775807] is out of bounds: "
     "need 0 <= index < [2,0]"),
    ("unordered_labels", [X, np.array([[1, 0], [0, 0]], i64), V, S],
     "label SparseTensor is not valid: indices[1] = [0,0] is out of order."),
    ("repeated_label_index", [X, np.array([[0, 0], [0, 0], [1, 0]], i64),
                              np.array([0, 0, 0], i32), S],
     "label SparseTensor is not valid: indices[1] = [0,0] is repeated"),
    ("row_without_labels", [X, IX[:1], V[:1], S], "Labels length is zero in batch 1"),
    ("no_labels", [X, np.zeros((0, 2), i64), np.zeros(0, i32), S],
     "Labels length is zero in batch 0"),
    ("length_past_max_time", [X, IX, V, np.array([1, 5], i32)], "sequence_length(1) <= 4"),
    ("negative_length", [X, IX, V, np.array([1, -1], i32)], "seq_len(1) < 0"),
    ("negative_label", [X, IX, np.array([0, -1], i32), S],
     "All labels must be nonnegative integers, batch: 1 labels: -1"),
    ("label_after_blank", [X, np.array([[0, 0], [0, 1], [1, 0]], i64), np.array([2, 0, 0], i32),
                           np.array([2, 1], i32)],
     "Saw a non-null label (index >= num_classes - 1) following a null label, batch: 0 "
     "num_classes: 3 labels: 2,0 labels seen so far: "),
    ("label_after_blank_seen", [X, np.array([[0, 0], [0, 1], [0, 2], [1, 0]], i64),
                                np.array([1, 4, 0, 0], i32), np.array([3, 1], i32)],
     "labels: 1,4,0 labels seen so far: 1"),
    ("not_enough_time", [X, np.array([[0, 0], [0, 1], [1, 0]], i64), np.array([0, 1, 0], i32),
                         S],
     "Not enough time for target transition sequence (required: 2, available: 1)0You can turn "
     "this error into a warning by using the flag ignore_longer_outputs_than_inputs"),
    ("not_enough_time_zero_steps", [X, IX, V, np.array([1, 0], i32)],
     "(required: 1, available: 0)1You can turn"),
]:
  expect_error("loss_" + name, loss(), args, substr)
expect_error("loss_not_enough_time_collapsed", loss(collapse=True),
             [X, np.array([[0, 0], [0, 1], [1, 0]], i64), np.array([0, 0, 0], i32), S],
             "(required: 2, available: 1)0")

w.write()
