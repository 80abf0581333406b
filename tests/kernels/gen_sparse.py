"""Writes fixtures/sparse.pbtxt: SparseToDense and the sparse crosses in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_sparse.py (needs TensorFlow 2.x and numpy).
Outputs are compared exactly. error_substr is checked here against TensorFlow's message.
Left out because TensorFlow's kernel crashes the process on them (Sluice's answers are unit
tests in kernels/cpu/sparse/sparse_cross_ops_test.cc): a sparse cross with a negative batch
size, SparseCrossHashed with a non-scalar num_buckets or strong_hash, and SparseCrossHashed
with strong_hash over a dense int64 column. No case reaches the parallel path; each element
or batch row is computed alone, so the split cannot change a value.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261211)
w = CaseWriter("sparse")
i32, i64, f32 = np.int32, np.int64, np.float32


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0 and _quote(substr)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access


def strings(*values):
  return np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object)


# ---- SparseToDense --------------------------------------------------------------------------
def s2d(validate=True):
  return lambda i, s, v, d: R.SparseToDense(sparse_indices=i, output_shape=s, sparse_values=v,
                                            default_value=d, validate_indices=validate)


IX = np.array([[0, 1], [1, 0], [2, 1]])
for dt in [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8,
           np.uint16, np.uint32, np.uint64, np.complex64, np.complex128, np.bool_]:
  vals = np.array([1, 0, 3], dt) if dt != np.bool_ else np.array([True, False, True])
  w.add("s2d_" + np.dtype(dt).name, s2d(), [IX.astype(i64), np.array([3, 2], i64), vals,
                                            np.array(vals[1] if dt == np.bool_ else 7, dt)])
w.add("s2d_bfloat16", s2d(), [IX.astype(i32), np.array([3, 2], i32),
                              tf.constant([1.5, -2, 3], tf.bfloat16).numpy(),
                              tf.constant(0.25, tf.bfloat16).numpy()])
w.add("s2d_string", s2d(), [IX.astype(i32), np.array([3, 2], i32), strings("a", "bb", ""),
                            np.array(b"-", dtype=object)])
w.add("s2d_int32_indices", s2d(), [IX.astype(i32), np.array([4, 3], i32),
                                   np.array([1, 2, 3], f32), f32(-1)])
w.add("s2d_scalar_value", s2d(), [IX.astype(i64), np.array([3, 2], i64), f32(5), f32(0)])
w.add("s2d_vector_indices", s2d(), [np.array([0, 3, 4], i32), np.array([6], i32),
                                    np.array([1, 2, 3], f32), f32(0)])
w.add("s2d_scalar_index", s2d(), [np.array(2, i32), np.array([4], i32), f32(5), f32(1)])
w.add("s2d_rank3", s2d(), [np.array([[0, 0, 1], [0, 1, 0], [1, 1, 1]], i64),
                           np.array([2, 2, 2], i64), np.array([1, 2, 3], i64), i64(0)])
w.add("s2d_empty_indices", s2d(), [np.zeros((0, 2), i64), np.array([2, 3], i64),
                                   np.zeros((0,), f32), f32(7)])
w.add("s2d_empty_output", s2d(), [np.zeros((0, 2), i32), np.array([0, 2], i32),
                                  np.zeros((0,), f32), f32(7)])
w.add("s2d_zero_dims", s2d(), [np.zeros((1, 0), i64), np.zeros((0,), i64),
                               np.array([4], f32), f32(7)])
w.add("s2d_zero_dims_repeated_unvalidated", s2d(False),
      [np.zeros((2, 0), i64), np.zeros((0,), i64), np.array([4, 5], f32), f32(7)])
expect_error("s2d_zero_dims_repeated", s2d(), [np.zeros((2, 0), i64), np.zeros((0,), i64),
                                               np.array([4, 5], f32), f32(7)],
             "indices[1] = [ is repeated")
w.add("s2d_random", s2d(), [np.array([[0, 2], [1, 1], [1, 5], [3, 0], [5, 5]], i64),
                            np.array([6, 6], i64), rng.normal(size=5).astype(f32), f32(0.5)])
UNSORTED = np.array([[2, 1], [0, 0], [1, 1]], i64)
w.add("s2d_unsorted_unvalidated", s2d(False), [UNSORTED, np.array([3, 2], i64),
                                               np.array([1, 2, 3], f32), f32(0)])
w.add("s2d_repeated_unvalidated", s2d(False), [np.array([[1, 1], [1, 1]], i64),
                                               np.array([3, 2], i64), np.array([1, 2], f32),
                                               f32(0)])
expect_error("s2d_err_unsorted", s2d(), [UNSORTED, np.array([3, 2], i64),
                                         np.array([1, 2, 3], f32), f32(0)],
             "indices[1] = [0,0] is out of order. Many sparse ops require sorted indices.\n"
             "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n")
expect_error("s2d_err_repeated", s2d(), [np.array([[1, 1], [1, 1]], i64), np.array([3, 2], i64),
                                         np.array([1, 2], f32), f32(0)],
             "indices[1] = [1,1] is repeated")
expect_error("s2d_err_vector_unsorted", s2d(), [np.array([3, 1], i32), np.array([5], i32),
                                                np.array([1, 2], f32), f32(0)],
             "indices[1] = [1] is out of order")
expect_error("s2d_err_oob", s2d(), [np.array([[0, 1], [3, 0]], i64), np.array([3, 2], i64),
                                    np.array([1, 2], f32), f32(0)],
             "indices[1] = [3,0] is out of bounds: need 0 <= index < [3,2]")
expect_error("s2d_err_negative", s2d(), [np.array([[0, 1], [-1, 0]], i64),
                                         np.array([3, 2], i64), np.array([1, 2], f32), f32(0)],
             "indices[1] = [-1,0] is out of bounds: need 0 <= index < [3,2]")
expect_error("s2d_err_oob_before_order", s2d(), [np.array([[1, 0], [0, 5]], i64),
                                                 np.array([2, 3], i64), np.array([1, 2], f32),
                                                 f32(0)],
             "indices[1] = [0,5] is out of bounds: need 0 <= index < [2,3]")
expect_error("s2d_err_oob_unvalidated", s2d(False), [np.array([[0, 1], [3, 0]], i64),
                                                     np.array([3, 2], i64),
                                                     np.array([1, 2], f32), f32(0)],
             "Indices are not valid (out of bounds).  Shape: [3,2]")
expect_error("s2d_err_negative_unvalidated", s2d(False), [np.array([-1], i32),
                                                          np.array([3], i32), f32(1), f32(0)],
             "Indices are not valid (out of bounds).  Shape: [3]")
expect_error("s2d_err_indices_rank3", s2d(), [np.zeros((1, 1, 1), i64), np.array([2], i64),
                                              np.array([1], f32), f32(0)],
             "sparse_indices should be a scalar, vector, or matrix, got shape [1,1,1]")
expect_error("s2d_err_shape_matrix", s2d(), [np.array([1], i64), np.array([[2]], i64),
                                             np.array([1], f32), f32(0)],
             "output_shape must be rank 1, got shape [1,1]")
expect_error("s2d_err_shape_scalar", s2d(), [np.array(1, i64), np.array(2, i64), f32(1),
                                             f32(0)],
             "output_shape must be rank 1, got shape []")
expect_error("s2d_err_shape_count", s2d(), [np.array([[0, 1]], i64), np.array([3], i64),
                                            np.array([1], f32), f32(0)],
             "output_shape has incorrect number of elements: 1 should be: 2")
expect_error("s2d_err_values_count", s2d(), [np.array([[0, 1]], i64), np.array([3, 3], i64),
                                             np.array([1, 2], f32), f32(0)],
             "sparse_values has incorrect shape [2], should be [] or [1]")
expect_error("s2d_err_values_matrix", s2d(), [np.array([[0, 1]], i64), np.array([3, 3], i64),
                                              np.array([[1]], f32), f32(0)],
             "sparse_values has incorrect shape [1,1], should be [] or [1]")
expect_error("s2d_err_default_vector", s2d(), [np.array([[0, 1]], i64), np.array([3, 3], i64),
                                               np.array([1], f32), np.array([0], f32)],
             "default_value should be a scalar.")
expect_error("s2d_err_negative_dim", s2d(), [np.array([[0, 1]], i64), np.array([-3, 3], i64),
                                             np.array([1], f32), f32(0)],
             "Dimension -3 must be >= 0")
expect_error("s2d_err_too_large", s2d(), [np.array([[0, 1]], i64),
                                          np.array([2**62, 2**62], i64), np.array([1], f32),
                                          f32(0)],
             "Shape [4611686018427387904,4611686018427387904] would have more than 2**63 - 1 "
             "elements")


# ---- Sparse crosses ------------------------------------------------------------------------
def split(xs, n):
  return list(xs[:n]), list(xs[n:2 * n]), list(xs[2 * n:3 * n]), list(xs[3 * n:])


def cross(n, out_type=tf.string, internal_type=tf.string, hashed=False, num_buckets=0,
          hash_key=0):
  def build(*xs):
    ind, val, shp, dense = split(xs, n)
    return R.SparseCross(indices=ind, values=val, shapes=shp, dense_inputs=dense,
                         hashed_output=hashed, num_buckets=num_buckets, hash_key=hash_key,
                         out_type=out_type, internal_type=internal_type)
  return build


def cross_v2(n):
  def build(*xs):
    ind, val, shp, dense = split(xs[:-1], n)
    return R.SparseCrossV2(indices=ind, values=val, shapes=shp, dense_inputs=dense, sep=xs[-1])
  return build


def cross_hashed(n):
  def build(*xs):
    ind, val, shp, dense = split(xs[:-3], n)
    return R.SparseCrossHashed(indices=ind, values=val, shapes=shp, dense_inputs=dense,
                               num_buckets=xs[-3], strong_hash=xs[-2], salt=xs[-1])
  return build


def hashed_args(num_buckets, strong, salt):
  return [i64(num_buckets), np.bool_(strong), np.array(salt, i64)]


# Two sparse columns over a batch of 3 (row 1 empty in the second) and dense columns.
IA = np.array([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]], i64)
VA_S = strings("a", "b", "c", "d", "e", "f")
VA_I = np.array([11, -2, 3, 2**40 + 7, 0, 9], i64)
IB = np.array([[0, 0], [2, 0], [2, 1]], i64)
VB_S = strings("x", "yy", "")
VB_I = np.array([100, -100, 2**62], i64)
SH3 = np.array([3, 5], i64)
D_S = np.array([[b"p", b"q"], [b"r", b"s"], [b"t", b"u"]], dtype=object)
D_I = np.array([[7], [-8], [2**33 + 9]], i64)

w.add("cross_string_2", cross(2), [IA, IB, VA_S, VB_S, SH3, SH3])
w.add("cross_string_int64_internal", cross(2, internal_type=tf.int64),
      [IA, IB, VA_S, VB_I, SH3, SH3, D_I])
w.add("cross_string_dense", cross(1), [IA, VA_S, SH3, D_S])
w.add("cross_string_dense_only", cross(0), [D_S, D_S])
w.add("cross_string_one_column", cross(1, internal_type=tf.int64), [IA, VA_I, SH3])
w.add("cross_string_three", cross(2, internal_type=tf.int64),
      [IA, IB, VA_I, VB_S, SH3, SH3, D_S, D_I])
w.add("cross_string_hashed_output_ignored", cross(1, hashed=True), [IA, VA_S, SH3, D_S])
for key in [0, 956888297470, -1]:
  for buckets in [0, 1, 100, 2**40]:
    w.add("cross_hash_%d_%d" % (key & 0xffffffff, buckets),
          cross(2, tf.int64, tf.int64, True, buckets, key),
          [IA, IB, VA_S, VB_I, SH3, SH3, D_S, D_I])
w.add("cross_hash_int_only", cross(2, tf.int64, tf.int64, True, 0, 5),
      [IA, IB, VA_I, VB_I, SH3, SH3])
w.add("cross_hash_string_internal", cross(1, tf.int64, tf.string, True, 1000, 5),
      [IA, VA_S, SH3, D_S])
w.add("cross_hash_hashed_output_false", cross(1, tf.int64, tf.int64, False, 50, 3),
      [IA, VA_S, SH3, D_I])
w.add("cross_hash_one_column", cross(1, tf.int64, tf.int64, True, 0, 0), [IA, VA_I, SH3])
# The Keras HashedCrossing layer's node: two dense columns, hash_key 0xDECAFCAFFE.
w.add("cross_keras_hashed_crossing", cross(0, tf.int64, tf.int64, True, 10, 956888297470),
      [D_I, np.array([[b"a"], [b"b"], [b"c"]], dtype=object)])
w.add("cross_hash_large", cross(2, tf.int64, tf.int64, True, 1000, 7),
      [np.array([[b, k] for b in range(20) for k in range(b % 4)], i64),
       np.array([[b, k] for b in range(20) for k in range(b % 3 + 1)], i64),
       rng.integers(-10**9, 10**9, sum(b % 4 for b in range(20))).astype(i64),
       strings(*["w%d" % i for i in range(sum(b % 3 + 1 for b in range(20)))]),
       np.array([20, 4], i64), np.array([20, 4], i64),
       rng.integers(0, 100, (20, 2)).astype(i64)])
# TensorFlow's walk over the index rows: rows out of order or of a later batch are skipped;
# the second index is not read.
w.add("cross_unsorted_rows", cross(1), [np.array([[1, 0], [0, 0], [1, 1]], i64),
                                        strings("a", "b", "c"), np.array([2, 2], i64)])
w.add("cross_row_past_batch", cross(1), [np.array([[0, 0], [5, 0], [1, 1]], i64),
                                         strings("a", "b", "c"), np.array([2, 2], i64)])
w.add("cross_second_index_ignored", cross(1), [np.array([[0, 7], [0, 3], [1, -1]], i64),
                                               strings("a", "b", "c"), np.array([2, 2], i64)])
w.add("cross_skipped_batches", cross(2), [np.array([[0, 0], [4, 0], [9, 0], [9, 1]], i64),
                                          np.array([[2, 0], [4, 0], [4, 1], [9, 0]], i64),
                                          strings("a", "b", "c", "d"),
                                          strings("w", "x", "y", "z"),
                                          np.array([12, 3], i64), np.array([12, 3], i64)])
w.add("cross_empty_batch", cross(1), [np.zeros((0, 2), i64), strings(), np.array([0, 2], i64)])
w.add("cross_no_features", cross(1), [np.zeros((0, 2), i64), strings(), np.array([4, 2], i64)])
w.add("cross_no_columns", cross(0), [])
w.add("cross_dense_no_width", cross(0), [np.zeros((3, 0), dtype=object).astype(bytes)])

expect_error("cross_err_indices_vector", cross(1), [IA[0], VA_S, SH3],
             "Input indices should be a matrix but received shape [2] at position 0")
expect_error("cross_err_indices_width", cross(1), [IA[:, :1].copy(), VA_S, SH3],
             "Expected D2 of index to be 2 got 1 at position 0")
expect_error("cross_err_internal_type", cross(2), [IA, IB, VA_S, VB_I, SH3, SH3],
             "Input values should be of internal type 7 but received 9")
expect_error("cross_err_dense_internal_type", cross(1), [IA, VA_S, SH3, D_I],
             "Dense inputs should be of internal type 7 but received 9")
expect_error("cross_err_values_matrix", cross(1), [IA, VA_S.reshape(6, 1), SH3],
             "Input values should be a vector but received shape [6,1] at position 0")
expect_error("cross_err_values_count", cross(1), [IA, VA_S[:5], SH3],
             "Expected size of values to be 6 got 5 at position 0")
expect_error("cross_err_shape_matrix", cross(1), [IA, VA_S, SH3.reshape(1, 2)],
             "Input shapes should be a vector but received shape [1,2] at position 0")
expect_error("cross_err_shape_3d", cross(1), [IA, VA_S, np.array([3, 5, 1], i64)],
             "shape should imply a 2D tensor, but got [3] at position 0")
expect_error("cross_err_dense_vector", cross(1), [IA, VA_S, SH3, D_S[0]],
             "Dense inputs should be a matrix but received shape [2] at position 0")
expect_error("cross_err_batch_sparse", cross(2), [IA, IB, VA_S, VB_S, SH3,
                                                  np.array([4, 5], i64)],
             "Expected batch size 3 got 4 at position 1")
expect_error("cross_err_batch_dense", cross(1), [IA, VA_S, SH3, D_S[:2]],
             "Expected batch size 3 got 2 at dense tensor 0")
expect_error("cross_err_batch_dense_only", cross(0), [D_S, D_S[:1]],
             "Expected batch size 3 got 1 at dense tensor 1")

SEP = np.array(b"::", dtype=object)
w.add("cross_v2", cross_v2(2), [IA, IB, VA_S, VB_I, SH3, SH3, D_I, SEP])
w.add("cross_v2_empty_sep", cross_v2(1), [IA, VA_I, SH3, D_S, np.array(b"", dtype=object)])
w.add("cross_v2_dense_only", cross_v2(0), [D_S, D_I, SEP])
expect_error("cross_v2_err_sep_vector", cross_v2(1), [IA, VA_S, SH3, strings("a", "b")],
             "Input separator should be a scalar. Received: Tensor<type: string shape: [2] "
             "values: a b>")
expect_error("cross_v2_err_indices", cross_v2(1), [IA[0], VA_S, SH3, SEP],
             "Input indices should be a matrix but received shape [2] at position 0")

for strong, salt in [(False, [0, 0]), (True, [0, 0]), (True, [123456789, -987654321])]:
  for buckets in [0, -5, 1000]:
    name = "cross_hashed_%s_%d_%d" % ("strong" if strong else "fast", salt[0] & 0xffff,
                                      buckets & 0xffff)
    w.add(name, cross_hashed(2),
          [IA, IB, VA_S, VB_I, SH3, SH3, D_S] + hashed_args(buckets, strong, salt))
w.add("cross_hashed_int_sparse", cross_hashed(2),
      [IA, IB, VA_I, VB_I, SH3, SH3] + hashed_args(0, False, [0, 0]))
w.add("cross_hashed_int_sparse_strong", cross_hashed(2),
      [IA, IB, VA_I, VB_I, SH3, SH3] + hashed_args(0, True, [5, 6]))
w.add("cross_hashed_one_column", cross_hashed(1), [IA, VA_I, SH3] + hashed_args(0, False, [0, 0]))
w.add("cross_hashed_dense_int", cross_hashed(1),
      [IA, VA_S, SH3, D_I] + hashed_args(77, False, [0, 0]))
w.add("cross_hashed_dense_int_first", cross_hashed(0),
      [D_I, D_S] + hashed_args(0, False, [1, 1]))
w.add("cross_hashed_dense_string_strong", cross_hashed(0),
      [D_S, D_S] + hashed_args(0, True, [1, 2]))
expect_error("cross_hashed_err_salt", cross_hashed(1),
             [IA, VA_S, SH3] + hashed_args(0, True, [1, 2, 3]),
             'Input "salt" must have length 2 but has length 3')
expect_error("cross_hashed_err_values", cross_hashed(1),
             [IA, VA_S[:2], SH3] + hashed_args(0, True, [1, 2]),
             "Expected size of values to be 6 got 2 at position 0")

w.write()
