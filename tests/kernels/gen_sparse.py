"""Writes fixtures/sparse.pbtxt: SparseToDense, the sparse crosses and the SparseTensor ops
(tf.sparse: fill empty rows, reshape, reorder, matmul, add, reductions, slice, concat, split,
softmax, sparse-dense and sparse-sparse elementwise ops) in TensorFlow.

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



# ---- SparseTensor ops -----------------------------------------------------------------------
# Values are small integers (exact in every dtype, bfloat16 and half included), so sums and
# products do not depend on the order TensorFlow adds them in; the few random float cases
# state their tolerance. Error cases record TensorFlow's message up to its first line break.
bf16 = tf.bfloat16.as_numpy_dtype
f16, f64, c64, c128 = np.float16, np.float64, np.complex64, np.complex128
i8, i16, u8, u16, u32, u64 = np.int8, np.int16, np.uint8, np.uint16, np.uint32, np.uint64
REAL = [f32, f64, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64]
NUMBER = REAL + [c64, c128]
ALL = NUMBER + [np.bool_, object]


def tname(dt):
  return "bfloat16" if dt is bf16 else ("string" if dt is object else np.dtype(dt).name)


def vals(dt, n, start=1):
  """n distinct values of dt."""
  if dt is object:
    return strings(*["v%d" % (start + k) for k in range(n)])
  if dt is np.bool_:
    return np.array([(start + k) % 2 == 0 for k in range(n)])
  x = np.arange(start, start + n)
  if dt in (c64, c128):
    return (x + 1j * (x % 3)).astype(dt)
  if dt in (u8, u16, u32, u64):
    return x.astype(dt)
  return (x * np.where(np.arange(n) % 2, -1, 1)).astype(dt)


def scalar(dt, v=7):
  if dt is object:
    return np.array(b"dflt", dtype=object)
  if dt is np.bool_:
    return np.bool_(True)
  return np.array(v, dtype=dt)


def tf_error(name, build, inputs):
  """A case TensorFlow rejects; its message's first line must be Sluice's message too."""
  code = w.add(name, build, inputs)
  if code == 0:
    print("TF_ACCEPTS " + name)
    return
  case = w._cases[-1]  # pylint: disable=protected-access
  message = case.split("error_message: ")[1].split("\n")[0][1:-1]
  first = message.split(" | ")[0]
  w._cases[-1] = case[:-2] + "  error_substr: \"%s\"\n}\n" % first  # pylint: disable=protected-access


def m64(rows):
  return np.array(rows, i64).reshape(-1, len(rows[0]) if rows else 2)


# A 4x5 SparseTensor in canonical order, rows 1 and 3 empty.
I45 = m64([[0, 1], [0, 3], [2, 0], [2, 4]])
S45 = np.array([4, 5], i64)


# ---- SparseFillEmptyRows / Grad --------------------------------------------------------------
def fill(i, v, s, d):
  return R.SparseFillEmptyRows(indices=i, values=v, dense_shape=s, default_value=d)


for dt in ALL:
  w.add("fill_empty_rows_" + tname(dt), fill, [I45, vals(dt, 4), S45, scalar(dt)])
w.add("fill_empty_rows_full_ordered", fill, [m64([[0, 1], [1, 0], [1, 2], [2, 2]]),
                                             vals(f32, 4), np.array([3, 3], i64), f32(-1)])
w.add("fill_empty_rows_unordered", fill, [m64([[2, 1], [0, 3], [2, 0], [0, 0], [4, 4]]),
                                          vals(f32, 5), np.array([6, 5], i64), f32(-1)])
w.add("fill_empty_rows_all_empty", fill, [np.zeros((0, 2), i64), np.zeros(0, f32),
                                          np.array([3, 4], i64), f32(9)])
w.add("fill_empty_rows_zero_rows", fill, [np.zeros((0, 3), i64), np.zeros(0, f32),
                                          np.array([0, 4, 2], i64), f32(9)])
w.add("fill_empty_rows_rank1", fill, [m64([[1], [3]]), vals(i32, 2), np.array([5], i64),
                                      i32(0)])
w.add("fill_empty_rows_rank3", fill, [m64([[1, 0, 1], [1, 1, 0], [3, 2, 2]]), vals(f64, 3),
                                      np.array([5, 3, 3], i64), f64(0.5)])
w.add("fill_empty_rows_repeated", fill, [m64([[1, 1], [1, 1], [0, 0]]), vals(f32, 3),
                                         np.array([3, 2], i64), f32(0)])
tf_error("fill_empty_rows_err_shape_matrix", fill, [I45, vals(f32, 4), S45.reshape(1, 2), f32(0)])
tf_error("fill_empty_rows_err_indices_vector", fill, [I45[:, 0].copy(), vals(f32, 4), S45, f32(0)])
tf_error("fill_empty_rows_err_values_matrix", fill, [I45, vals(f32, 4).reshape(4, 1), S45, f32(0)])
tf_error("fill_empty_rows_err_values_count", fill, [I45, vals(f32, 3), S45, f32(0)])
tf_error("fill_empty_rows_err_default_vector", fill, [I45, vals(f32, 4), S45, vals(f32, 1)])
tf_error("fill_empty_rows_err_empty_shape", fill, [np.zeros((0, 0), i64), np.zeros(0, f32),
                                                   np.zeros(0, i64), f32(0)])
tf_error("fill_empty_rows_err_row_oob", fill, [m64([[0, 1], [4, 0]]), vals(f32, 2), S45, f32(0)])
tf_error("fill_empty_rows_err_row_negative", fill, [m64([[0, 1], [-1, 0]]), vals(f32, 2), S45,
                                                    f32(0)])
tf_error("fill_empty_rows_err_zero_rows", fill, [m64([[0, 0]]), vals(f32, 1),
                                                 np.array([0, 2], i64), f32(0)])


def fill_grad(r, g):
  return R.SparseFillEmptyRowsGrad(reverse_index_map=r, grad_values=g)


for dt in NUMBER:
  w.add("fill_empty_rows_grad_" + tname(dt), fill_grad, [np.array([0, 2, 3], i64),
                                                         vals(dt, 6)])
w.add("fill_empty_rows_grad_empty", fill_grad, [np.zeros(0, i64), vals(f32, 3)])
w.add("fill_empty_rows_grad_none", fill_grad, [np.zeros(0, i64), np.zeros(0, f32)])
tf_error("fill_empty_rows_grad_err_map_matrix", fill_grad, [np.zeros((1, 1), i64), vals(f32, 3)])
tf_error("fill_empty_rows_grad_err_grad_scalar", fill_grad, [np.zeros(1, i64), f32(1)])
tf_error("fill_empty_rows_grad_err_oob", fill_grad, [np.array([0, 3], i64), vals(f32, 3)])
tf_error("fill_empty_rows_grad_err_negative", fill_grad, [np.array([-1], i64), vals(f32, 3)])


# ---- SparseReshape ---------------------------------------------------------------------------
def reshape(i, s, n):
  return R.SparseReshape(input_indices=i, input_shape=s, new_shape=n)


w.add("reshape_basic", reshape, [I45, S45, np.array([2, 10], i64)])
w.add("reshape_infer", reshape, [I45, S45, np.array([5, -1, 2], i64)])
w.add("reshape_flatten", reshape, [I45, S45, np.array([-1], i64)])
w.add("reshape_same", reshape, [I45, S45, np.array([4, 5], i64)])
w.add("reshape_same_inferred", reshape, [I45, S45, np.array([4, -1], i64)])
w.add("reshape_rank3", reshape, [m64([[0, 1, 2], [1, 0, 1], [1, 2, 3]]), np.array([2, 3, 4], i64),
                                 np.array([4, 6], i64)])
w.add("reshape_empty", reshape, [np.zeros((0, 2), i64), np.array([3, 0], i64),
                                 np.array([0, 7], i64)])
w.add("reshape_to_scalar", reshape, [m64([[0, 0]]), np.array([1, 1], i64), np.zeros(0, i64)])
w.add("reshape_from_scalar", reshape, [np.zeros((1, 0), i64), np.zeros(0, i64),
                                       np.array([1, -1, 1], i64)])
tf_error("reshape_err_indices_vector", reshape, [I45[0].copy(), S45, np.array([20], i64)])
tf_error("reshape_err_shape_matrix", reshape, [I45, S45.reshape(1, 2), np.array([20], i64)])
tf_error("reshape_err_new_shape_matrix", reshape, [I45, S45, np.array([[20]], i64)])
tf_error("reshape_err_two_unknown", reshape, [I45, S45, np.array([-1, 2, -1], i64)])
tf_error("reshape_err_negative", reshape, [I45, S45, np.array([-2, -10], i64)])
tf_error("reshape_err_infer_empty", reshape, [np.zeros((0, 2), i64), np.array([3, 0], i64),
                                              np.array([0, -1], i64)])
tf_error("reshape_err_not_multiple", reshape, [I45, S45, np.array([3, -1], i64)])
tf_error("reshape_err_size", reshape, [I45, S45, np.array([3, 7], i64)])
tf_error("reshape_err_input_negative", reshape, [I45, np.array([4, -5], i64),
                                                 np.array([20], i64)])
tf_error("reshape_err_rank_mismatch", reshape, [I45, np.array([4, 5, 1], i64),
                                                np.array([20], i64)])
tf_error("reshape_err_nonempty_empty_shape", reshape, [m64([[0, 0]]), np.array([0, 3], i64),
                                                       np.array([3, 0], i64)])


# ---- SparseReorder ---------------------------------------------------------------------------
def reorder(i, v, s):
  return R.SparseReorder(input_indices=i, input_values=v, input_shape=s)


UNORD = m64([[2, 4], [0, 3], [2, 0], [0, 1], [3, 3]])
for dt in ALL:
  w.add("reorder_" + tname(dt), reorder, [UNORD, vals(dt, 5), S45])
w.add("reorder_ordered", reorder, [I45, vals(f32, 4), S45])
w.add("reorder_empty", reorder, [np.zeros((0, 3), i64), np.zeros(0, f32),
                                 np.array([2, 2, 2], i64)])
w.add("reorder_rank1", reorder, [m64([[5], [1], [3]]), vals(i64, 3), np.array([6], i64)])
w.add("reorder_rank3", reorder, [m64([[1, 0, 2], [0, 2, 1], [1, 0, 0], [0, 2, 0]]), vals(f64, 4),
                                 np.array([2, 3, 3], i64)])
w.add("reorder_out_of_bounds_kept", reorder, [m64([[7, 0], [1, 9]]), vals(f32, 2), S45])
tf_error("reorder_err_indices_vector", reorder, [I45[0].copy(), vals(f32, 2), S45])
tf_error("reorder_err_values_matrix", reorder, [I45, vals(f32, 4).reshape(2, 2), S45])
tf_error("reorder_err_shape_matrix", reorder, [I45, vals(f32, 4), S45.reshape(2, 1)])
tf_error("reorder_err_values_count", reorder, [I45, vals(f32, 3), S45])
tf_error("reorder_err_rank", reorder, [I45, vals(f32, 4), np.array([4, 5, 6], i64)])
tf_error("reorder_err_negative_dim", reorder, [I45, vals(f32, 4), np.array([4, -5], i64)])
tf_error("reorder_err_too_large", reorder, [I45, vals(f32, 4), np.array([2**40, 2**40], i64)])


# ---- SparseTensorDenseMatMul -----------------------------------------------------------------
def matmul(adj_a=False, adj_b=False):
  return lambda i, v, s, b: R.SparseTensorDenseMatMul(a_indices=i, a_values=v, a_shape=s, b=b,
                                                      adjoint_a=adj_a, adjoint_b=adj_b)


IM = m64([[0, 0], [0, 3], [1, 1], [2, 0], [2, 2], [2, 3]])
SM = np.array([3, 4], i64)
for dt in [f32, f64, f16, bf16, i32, c64, c128]:
  for idt in [i32, i64]:
    w.add("matmul_%s_%s" % (tname(dt), tname(idt)), matmul(),
          [IM.astype(idt), vals(dt, 6), SM, vals(dt, 8).reshape(4, 2)])
for aa in [False, True]:
  for ab in [False, True]:
    for dt in [f32, c64]:
      b = vals(dt, 10).reshape(2, 5) if ab else vals(dt, 10).reshape(5, 2)
      if aa:
        b = vals(dt, 6).reshape(2, 3) if ab else vals(dt, 6).reshape(3, 2)
      w.add("matmul_adj_%d%d_%s" % (aa, ab, tname(dt)), matmul(aa, ab),
            [m64([[0, 4], [1, 0], [2, 2]]), vals(dt, 3), np.array([3, 5], i64), b])
w.add("matmul_wide_b", matmul(), [IM, rng.normal(size=6).astype(f32), SM,
                                  rng.normal(size=(4, 40)).astype(f32)], rtol=1e-6)
w.add("matmul_wide_b_adjoint", matmul(True, True),
      [IM, (rng.normal(size=6) + 1j * rng.normal(size=6)).astype(c64), SM,
       (rng.normal(size=(36, 3)) + 1j * rng.normal(size=(36, 3))).astype(c64)], rtol=1e-5)
w.add("matmul_unsorted_repeated", matmul(), [m64([[2, 1], [0, 0], [2, 1]]), vals(f32, 3), SM,
                                             vals(f32, 8).reshape(4, 2)])
w.add("matmul_empty_a", matmul(), [np.zeros((0, 2), i64), np.zeros(0, f32), SM,
                                   vals(f32, 8).reshape(4, 2)])
w.add("matmul_empty_output", matmul(), [np.zeros((0, 2), i64), np.zeros(0, f32),
                                        np.array([0, 4], i64), vals(f32, 8).reshape(4, 2)])
w.add("matmul_empty_inner", matmul(), [np.zeros((0, 2), i64), np.zeros(0, f32),
                                       np.array([3, 0], i64), np.zeros((0, 2), f32)])
tf_error("matmul_err_b_vector", matmul(), [IM, vals(f32, 6), SM, vals(f32, 4)])
tf_error("matmul_err_shape_matrix", matmul(), [IM, vals(f32, 6), SM.reshape(1, 2),
                                               vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_shape_rank3", matmul(), [IM, vals(f32, 6), np.array([3, 4, 1], i64),
                                              vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_values_matrix", matmul(), [IM, vals(f32, 6).reshape(6, 1), SM,
                                                vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_indices_vector", matmul(), [IM[:, 0].copy(), vals(f32, 6), SM,
                                                 vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_values_count", matmul(), [IM, vals(f32, 5), SM, vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_indices_width", matmul(), [IM[:, :1].copy(), vals(f32, 6), SM,
                                                vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_inner", matmul(), [IM, vals(f32, 6), SM, vals(f32, 6).reshape(3, 2)])
tf_error("matmul_err_k_oob", matmul(), [m64([[0, 0], [1, 4]]), vals(f32, 2), SM,
                                        vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_m_oob", matmul(), [m64([[0, 0], [3, 1]]), vals(f32, 2), SM,
                                        vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_k_negative_adjoint", matmul(True), [m64([[0, 0], [-1, 1]]), vals(f32, 2),
                                                         np.array([4, 3], i64),
                                                         vals(f32, 8).reshape(4, 2)])
tf_error("matmul_err_m_oob_wide", matmul(), [m64([[0, 0], [5, 1]]), vals(f32, 2), SM,
                                             vals(f32, 160).reshape(4, 40)])


# ---- SparseAdd / SparseAddGrad ---------------------------------------------------------------
def sadd(ai, av, ash, bi, bv, bsh, th):
  return R.SparseAdd(a_indices=ai, a_values=av, a_shape=ash, b_indices=bi, b_values=bv,
                     b_shape=bsh, thresh=th)


IA2 = m64([[0, 1], [1, 0], [2, 3], [3, 4]])
IB2 = m64([[0, 0], [1, 0], [2, 3], [2, 4]])
ADD_TYPES = [(f32, f32), (f64, f64), (i64, i64), (i32, i32), (i16, i16), (i8, i8), (c64, f32),
             (c128, f64)]
for dt, rt in ADD_TYPES:
  w.add("add_" + tname(dt), sadd, [IA2, vals(dt, 4), S45, IB2, vals(dt, 4, 3), S45, rt(0)])
w.add("add_cancel_kept", sadd, [IA2, np.array([1, 2, 3, 4], f32), S45, IB2,
                                np.array([5, -2, 1, 1], f32), S45, f32(0)])
w.add("add_thresh", sadd, [IA2, np.array([1, 2, 3, 4], f32), S45, IB2,
                           np.array([5, -2, -2.5, 1], f32), S45, f32(0.5)])
w.add("add_thresh_keeps_singles", sadd, [IA2, np.array([0.1, 2, 3, 4], f32), S45, IB2,
                                         np.array([5, -2, -2.5, 0.2], f32), S45, f32(1)])
w.add("add_thresh_int", sadd, [IA2, vals(i32, 4), S45, IB2, vals(i32, 4, 3), S45, i32(5)])
w.add("add_thresh_complex", sadd, [IA2, vals(c64, 4), S45, IB2, vals(c64, 4, 3), S45, f32(3)])
w.add("add_a_empty", sadd, [np.zeros((0, 2), i64), np.zeros(0, f32), S45, IB2, vals(f32, 4),
                            S45, f32(0)])
w.add("add_b_empty", sadd, [IA2, vals(f32, 4), S45, np.zeros((0, 2), i64), np.zeros(0, f32),
                            S45, f32(0)])
w.add("add_rank3", sadd, [m64([[0, 0, 1], [1, 1, 1]]), vals(f64, 2), np.array([2, 2, 2], i64),
                          m64([[0, 0, 0], [1, 1, 1], [1, 1, 2]]), vals(f64, 3),
                          np.array([2, 2, 2], i64), f64(0)])
w.add("add_unsorted", sadd, [m64([[3, 0], [0, 0]]), vals(f32, 2), S45, m64([[0, 0], [3, 0]]),
                             vals(f32, 2), S45, f32(0)])
tf_error("add_err_indices_vector", sadd, [IA2[0].copy(), vals(f32, 2), S45, IB2, vals(f32, 4), S45,
                                          f32(0)])
tf_error("add_err_values_matrix", sadd, [IA2, vals(f32, 4), S45, IB2, vals(f32, 4).reshape(2, 2),
                                         S45, f32(0)])
tf_error("add_err_values_count", sadd, [IA2, vals(f32, 3), S45, IB2, vals(f32, 4), S45, f32(0)])
tf_error("add_err_shape_matrix", sadd, [IA2, vals(f32, 4), S45.reshape(1, 2), IB2, vals(f32, 4),
                                        S45, f32(0)])
tf_error("add_err_rank", sadd, [IA2, vals(f32, 4), S45, IB2, vals(f32, 4),
                                np.array([4, 5, 1], i64), f32(0)])
tf_error("add_err_shapes", sadd, [IA2, vals(f32, 4), S45, IB2, vals(f32, 4),
                                  np.array([4, 6], i64), f32(0)])
tf_error("add_err_thresh_vector", sadd, [IA2, vals(f32, 4), S45, IB2, vals(f32, 4), S45,
                                         np.zeros(1, f32)])
tf_error("add_err_indices_width", sadd, [IA2, vals(f32, 4), S45, m64([[0, 0, 0]]), vals(f32, 1),
                                         S45, f32(0)])
tf_error("add_err_a_oob", sadd, [m64([[0, 1], [4, 0]]), vals(f32, 2), S45, IB2, vals(f32, 4), S45,
                                 f32(0)])
tf_error("add_err_b_oob", sadd, [IA2, vals(f32, 4), S45, m64([[0, -1]]), vals(f32, 1), S45,
                                 f32(0)])


def sadd_grad(g, ai, bi, si):
  return R.SparseAddGrad(backprop_val_grad=g, a_indices=ai, b_indices=bi, sum_indices=si)


SUM_I = m64([[0, 0], [0, 1], [1, 0], [2, 3], [2, 4], [3, 4]])
for dt, _ in ADD_TYPES:
  w.add("add_grad_" + tname(dt), sadd_grad, [vals(dt, 6), IA2, IB2, SUM_I])
w.add("add_grad_thresholded", sadd_grad, [vals(f32, 5), IA2, IB2,
                                          m64([[0, 0], [0, 1], [2, 3], [2, 4], [3, 4]])])
w.add("add_grad_empty_a", sadd_grad, [vals(f32, 4), np.zeros((0, 2), i64), IB2, IB2])
tf_error("add_grad_err_indices_vector", sadd_grad, [vals(f32, 6), IA2[0].copy(), IB2, SUM_I])
tf_error("add_grad_err_grad_matrix", sadd_grad, [vals(f32, 6).reshape(2, 3), IA2, IB2, SUM_I])
tf_error("add_grad_err_ndims", sadd_grad, [vals(f32, 6), IA2, m64([[0, 0, 0]]), SUM_I])
tf_error("add_grad_err_count", sadd_grad, [vals(f32, 5), IA2, IB2, SUM_I])


# ---- SparseTensorDenseAdd --------------------------------------------------------------------
def sdadd(i, v, s, b):
  return R.SparseTensorDenseAdd(a_indices=i, a_values=v, a_shape=s, b=b)


for dt in NUMBER:
  for idt in [i32, i64]:
    w.add("dense_add_%s_%s" % (tname(dt), tname(idt)), sdadd,
          [I45.astype(idt), vals(dt, 4), S45.astype(idt), vals(dt, 20, 2).reshape(4, 5)])
for r in range(1, 6):
  shape = [3, 2, 2, 1, 2][:r]
  idx = np.array([[k % d for d in shape] for k in range(3)], i64)
  w.add("dense_add_rank%d" % r, sdadd, [idx, vals(f32, 3), np.array(shape, i64),
                                        vals(f32, int(np.prod(shape))).reshape(shape)])
w.add("dense_add_repeated", sdadd, [m64([[1, 1], [1, 1], [0, 4]]), vals(i32, 3), S45,
                                    vals(i32, 20).reshape(4, 5)])
w.add("dense_add_empty", sdadd, [np.zeros((0, 2), i64), np.zeros(0, f32), np.array([0, 5], i64),
                                 np.zeros((0, 5), f32)])
tf_error("dense_add_err_indices_vector", sdadd, [I45[0].copy(), vals(f32, 2), S45,
                                                 vals(f32, 20).reshape(4, 5)])
tf_error("dense_add_err_values_matrix", sdadd, [I45, vals(f32, 4).reshape(2, 2), S45,
                                                vals(f32, 20).reshape(4, 5)])
tf_error("dense_add_err_values_count", sdadd, [I45, vals(f32, 3), S45,
                                               vals(f32, 20).reshape(4, 5)])
tf_error("dense_add_err_shape_count", sdadd, [I45, vals(f32, 4), np.array([4, 5, 1], i64),
                                              vals(f32, 20).reshape(4, 5)])
tf_error("dense_add_err_rank", sdadd, [I45, vals(f32, 4), S45, vals(f32, 20)])
tf_error("dense_add_err_dims", sdadd, [I45, vals(f32, 4), S45, vals(f32, 24).reshape(4, 6)])
tf_error("dense_add_err_oob", sdadd, [m64([[0, 1], [3, 5]]), vals(f32, 2), S45,
                                      vals(f32, 20).reshape(4, 5)])
tf_error("dense_add_err_negative", sdadd, [m64([[-1, 1]]).astype(i32), vals(f32, 1),
                                           S45.astype(i32), vals(f32, 20).reshape(4, 5)])
tf_error("dense_add_err_rank6", sdadd, [np.zeros((1, 6), i64), vals(f32, 1), np.ones(6, i64),
                                        np.ones((1, 1, 1, 1, 1, 1), f32)])


# ---- SparseReduceSum / Max (dense and sparse outputs) ----------------------------------------
def reduce(op, keep=False):
  fn = getattr(R, op)
  return lambda i, v, s, a: fn(input_indices=i, input_values=v, input_shape=s,
                               reduction_axes=a, keep_dims=keep)


I234 = m64([[0, 0, 1], [0, 2, 3], [1, 0, 0], [1, 0, 3], [1, 2, 1]])
S234 = np.array([2, 3, 4], i64)
for op, types in [("SparseReduceSum", NUMBER), ("SparseReduceSumSparse", NUMBER),
                  ("SparseReduceMax", REAL), ("SparseReduceMaxSparse", REAL)]:
  for dt in types:
    w.add("%s_%s" % (op, tname(dt)), reduce(op), [I234, vals(dt, 5), S234, np.array([1], i32)])
  for keep in [False, True]:
    for name, axes in [("all", [0, 1, 2]), ("last", [-1]), ("first_last", [2, 0]),
                       ("none", []), ("repeated", [1, -2]), ("scalar", 1)]:
      w.add("%s_%s_keep%d" % (op, name, keep), reduce(op, keep),
            [I234, vals(f32, 5), S234, np.array(axes, i32)])
  w.add(op + "_unsorted", reduce(op), [m64([[1, 2], [0, 1], [1, 0], [0, 0]]), vals(i32, 4),
                                       np.array([2, 3], i64), np.array([1], i32)])
  w.add(op + "_empty", reduce(op), [np.zeros((0, 2), i64), np.zeros(0, f32),
                                    np.array([2, 3], i64), np.array([0], i32)])
  w.add(op + "_negative_values", reduce(op), [I234, -np.arange(1, 6).astype(f32), S234,
                                              np.array([0, 2], i32)])
  tf_error(op + "_err_shape_matrix", reduce(op), [I234, vals(f32, 5), S234.reshape(1, 3),
                                                  np.array([0], i32)])
  tf_error(op + "_err_axes_matrix", reduce(op), [I234, vals(f32, 5), S234,
                                                 np.array([[0]], i32)])
  tf_error(op + "_err_axis", reduce(op), [I234, vals(f32, 5), S234, np.array([3], i32)])
  tf_error(op + "_err_axis_negative", reduce(op), [I234, vals(f32, 5), S234,
                                                   np.array([-4], i32)])
  tf_error(op + "_err_values_matrix", reduce(op), [I234, vals(f32, 5).reshape(5, 1), S234,
                                                   np.array([0], i32)])
  tf_error(op + "_err_values_count", reduce(op), [I234, vals(f32, 4), S234, np.array([0], i32)])
  tf_error(op + "_err_indices_vector", reduce(op), [I234[0].copy(), vals(f32, 3), S234,
                                                    np.array([0], i32)])
  tf_error(op + "_err_rank", reduce(op), [I234, vals(f32, 5), np.array([2, 3], i64),
                                          np.array([0], i32)])
  tf_error(op + "_err_negative_dim", reduce(op), [I234, vals(f32, 5), np.array([2, -3, 4], i64),
                                                  np.array([0], i32)])


# ---- SparseSlice -----------------------------------------------------------------------------
def sslice(i, v, s, b, z):
  return R.SparseSlice(indices=i, values=v, shape=s, start=b, size=z)


I47 = m64([[0, 2], [0, 4], [0, 5], [1, 0], [1, 1], [3, 6]])
S47 = np.array([4, 7], i64)
for dt in ALL:
  w.add("slice_" + tname(dt), sslice, [I47, vals(dt, 6), S47, np.array([0, 1], i64),
                                       np.array([2, 4], i64)])
for name, start, size in [("past_end", [1, 4], [5, 5]), ("outside", [5, 0], [2, 2]),
                          ("empty_size", [0, 0], [0, 3]), ("whole", [0, 0], [4, 7])]:
  w.add("slice_" + name, sslice, [I47, vals(f32, 6), S47, np.array(start, i64),
                                  np.array(size, i64)])
w.add("slice_unsorted", sslice, [I47[::-1].copy(), vals(f32, 6), S47, np.array([0, 0], i64),
                                 np.array([2, 5], i64)])
w.add("slice_negative_index", sslice, [m64([[-1, 0], [0, 1]]), vals(f32, 2), S47,
                                       np.array([-1, 0], i64), np.array([2, 2], i64)])
tf_error("slice_err_indices_vector", sslice, [I47[0].copy(), vals(f32, 2), S47,
                                              np.array([0, 0], i64), np.array([1, 1], i64)])
tf_error("slice_err_values_matrix", sslice, [I47, vals(f32, 6).reshape(3, 2), S47,
                                             np.array([0, 0], i64), np.array([1, 1], i64)])
tf_error("slice_err_shape_matrix", sslice, [I47, vals(f32, 6), S47.reshape(1, 2),
                                            np.array([0, 0], i64), np.array([1, 1], i64)])
tf_error("slice_err_values_count", sslice, [I47, vals(f32, 5), S47, np.array([0, 0], i64),
                                            np.array([1, 1], i64)])
tf_error("slice_err_rank", sslice, [I47, vals(f32, 6), np.array([4, 7, 1], i64),
                                    np.array([0, 0, 0], i64), np.array([1, 1, 1], i64)])
tf_error("slice_err_start_matrix", sslice, [I47, vals(f32, 6), S47, np.array([[0, 0]], i64),
                                            np.array([1, 1], i64)])
tf_error("slice_err_size_scalar", sslice, [I47, vals(f32, 6), S47, np.array([0, 0], i64),
                                           np.array(1, i64)])
tf_error("slice_err_start_count", sslice, [I47, vals(f32, 6), S47, np.array([0], i64),
                                           np.array([1, 1], i64)])
tf_error("slice_err_size_count", sslice, [I47, vals(f32, 6), S47, np.array([0, 0], i64),
                                          np.array([1, 1, 1], i64)])
tf_error("slice_err_negative_size", sslice, [I47, vals(f32, 6), S47, np.array([0, 0], i64),
                                             np.array([1, -1], i64)])
tf_error("slice_err_negative_shape", sslice, [I47, vals(f32, 6), np.array([4, -7], i64),
                                              np.array([0, 0], i64), np.array([1, 1], i64)])


# ---- SparseConcat ----------------------------------------------------------------------------
def sconcat(n, dim):
  def build(*xs):
    return R.SparseConcat(indices=list(xs[:n]), values=list(xs[n:2 * n]),
                          shapes=list(xs[2 * n:]), concat_dim=dim)
  return build


CA = m64([[0, 2], [1, 0], [1, 1]])
CB = m64([[0, 1], [0, 2]])
for dt in ALL:
  w.add("concat_" + tname(dt), sconcat(2, 1), [CA, CB, vals(dt, 3), vals(dt, 2, 4),
                                               np.array([2, 3], i64), np.array([2, 4], i64)])
w.add("concat_dim0", sconcat(2, 0), [CA, CB, vals(f32, 3), vals(f32, 2, 4),
                                     np.array([2, 3], i64), np.array([1, 3], i64)])
w.add("concat_negative_dim", sconcat(3, -1), [CA, CB, CA, vals(f32, 3), vals(f32, 2, 4),
                                              vals(f32, 3, 6), np.array([2, 3], i64),
                                              np.array([2, 4], i64), np.array([2, 3], i64)])
w.add("concat_rank3_middle", sconcat(2, 1), [m64([[0, 0, 1], [1, 1, 0]]), m64([[0, 0, 0],
                                                                              [1, 2, 1]]),
                                             vals(i64, 2), vals(i64, 2, 3),
                                             np.array([2, 2, 2], i64), np.array([2, 3, 2], i64)])
w.add("concat_empty_input", sconcat(2, 1), [np.zeros((0, 2), i64), CB, np.zeros(0, f32),
                                            vals(f32, 2), np.array([2, 3], i64),
                                            np.array([2, 4], i64)])
w.add("concat_rank1", sconcat(2, 0), [m64([[1], [2]]), m64([[0]]), vals(f32, 2), vals(f32, 1, 5),
                                      np.array([3], i64), np.array([2], i64)])
tf_error("concat_err_indices_vector", sconcat(2, 1), [CA[0].copy(), CB, vals(f32, 1),
                                                      vals(f32, 2), np.array([2, 3], i64),
                                                      np.array([2, 4], i64)])
tf_error("concat_err_values_matrix", sconcat(2, 1), [CA, CB, vals(f32, 3).reshape(3, 1),
                                                     vals(f32, 2), np.array([2, 3], i64),
                                                     np.array([2, 4], i64)])
tf_error("concat_err_shape_matrix", sconcat(2, 1), [CA, CB, vals(f32, 3), vals(f32, 2),
                                                    np.array([[2, 3]], i64),
                                                    np.array([2, 4], i64)])
tf_error("concat_err_rank", sconcat(2, 1), [CA, CB, vals(f32, 3), vals(f32, 2),
                                            np.array([2, 3], i64), np.array([2, 4, 1], i64)])
tf_error("concat_err_dim", sconcat(2, 2), [CA, CB, vals(f32, 3), vals(f32, 2),
                                           np.array([2, 3], i64), np.array([2, 4], i64)])
tf_error("concat_err_dim_negative", sconcat(2, -3), [CA, CB, vals(f32, 3), vals(f32, 2),
                                                     np.array([2, 3], i64),
                                                     np.array([2, 4], i64)])
tf_error("concat_err_mismatch", sconcat(2, 1), [CA, CB, vals(f32, 3), vals(f32, 2),
                                                np.array([2, 3], i64), np.array([3, 4], i64)])
tf_error("concat_err_values_count", sconcat(2, 1), [CA, CB, vals(f32, 2), vals(f32, 2),
                                                    np.array([2, 3], i64),
                                                    np.array([2, 4], i64)])
tf_error("concat_err_indices_width", sconcat(2, 1), [CA, CB[:, :1].copy(), vals(f32, 3),
                                                     vals(f32, 2), np.array([2, 3], i64),
                                                     np.array([2, 4], i64)])


# ---- SparseSplit -----------------------------------------------------------------------------
def ssplit(n):
  return lambda d, i, v, s: R.SparseSplit(split_dim=d, indices=i, values=v, shape=s, num_split=n)


for dt in ALL:
  w.add("split_" + tname(dt), ssplit(2), [i64(1), I47, vals(dt, 6), S47])
for n in [1, 3, 4]:
  w.add("split_dim0_%d" % n, ssplit(n), [i64(0), I47, vals(f32, 6), S47])
w.add("split_residual", ssplit(3), [i64(1), I47, vals(f32, 6), S47])
w.add("split_negative_dim", ssplit(2), [i64(-1), I47, vals(f32, 6), S47])
w.add("split_empty", ssplit(2), [i64(0), np.zeros((0, 2), i64), np.zeros(0, f32), S47])
tf_error("split_err_dim_scalar", ssplit(2), [np.array([1], i64), I47, vals(f32, 6), S47])
tf_error("split_err_indices_vector", ssplit(2), [i64(1), I47[0].copy(), vals(f32, 2), S47])
tf_error("split_err_values_matrix", ssplit(2), [i64(1), I47, vals(f32, 6).reshape(6, 1), S47])
tf_error("split_err_shape_matrix", ssplit(2), [i64(1), I47, vals(f32, 6), S47.reshape(1, 2)])
tf_error("split_err_values_count", ssplit(2), [i64(1), I47, vals(f32, 5), S47])
tf_error("split_err_rank", ssplit(2), [i64(1), I47, vals(f32, 6), np.array([4, 7, 2], i64)])
tf_error("split_err_dim", ssplit(2), [i64(2), I47, vals(f32, 6), S47])
tf_error("split_err_dim_negative", ssplit(2), [i64(-3), I47, vals(f32, 6), S47])
tf_error("split_err_too_many", ssplit(5), [i64(0), I47, vals(f32, 6), S47])
tf_error("split_err_oob", ssplit(2), [i64(0), m64([[0, 0], [9, 0]]), vals(f32, 2), S47])


# ---- SparseSoftmax ---------------------------------------------------------------------------
def ssoftmax(i, v, s):
  return R.SparseSoftmax(sp_indices=i, sp_values=v, sp_shape=s)


for dt, tol in [(f32, 1e-6), (f64, 1e-12), (f16, 1e-3)]:
  w.add("softmax_" + tname(dt), ssoftmax, [I45, np.array([1, 2, 0.5, -1], dt), S45], rtol=tol)
w.add("softmax_rank3", ssoftmax, [I234, np.array([1, 2, 3, 4, 5], f32), S234], rtol=1e-6)
w.add("softmax_random", ssoftmax, [I47, rng.normal(size=6).astype(f64), S47], rtol=1e-12)
w.add("softmax_empty", ssoftmax, [np.zeros((0, 2), i64), np.zeros(0, f32), S45])
w.add("softmax_large", ssoftmax, [I45, np.array([1000, 999, -1000, 50], f32), S45], rtol=1e-6)
tf_error("softmax_err_indices_vector", ssoftmax, [I45[0].copy(), vals(f32, 2), S45])
tf_error("softmax_err_values_matrix", ssoftmax, [I45, vals(f32, 4).reshape(2, 2), S45])
tf_error("softmax_err_shape_matrix", ssoftmax, [I45, vals(f32, 4), S45.reshape(1, 2)])
tf_error("softmax_err_values_count", ssoftmax, [I45, vals(f32, 3), S45])
tf_error("softmax_err_rank1", ssoftmax, [m64([[0], [2]]), vals(f32, 2), np.array([3], i64)])
tf_error("softmax_err_shape_rank", ssoftmax, [I45, vals(f32, 4), np.array([4, 5, 6], i64)])


# ---- SparseDenseCwiseAdd / Mul / Div ---------------------------------------------------------
def cwise(op):
  fn = getattr(R, op)
  return lambda i, v, s, d: fn(sp_indices=i, sp_values=v, sp_shape=s, dense=d)


for op in ["SparseDenseCwiseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv"]:
  for dt in REAL:
    w.add("%s_%s" % (op, tname(dt)), cwise(op),
          [I45, vals(dt, 4, 10) if dt not in (u8, u16, u32, u64) else vals(dt, 4, 10) * 3,
           S45, np.abs(vals(dt, 20)).reshape(4, 5)])
  for name, dense in [("row", vals(f32, 5).reshape(1, 5)), ("col", vals(f32, 4).reshape(4, 1)),
                      ("scalar", f32(4)), ("vector", vals(f32, 5)), ("ones", np.ones((1, 1), f32))]:
    w.add("%s_bcast_%s" % (op, name), cwise(op), [I45, vals(f32, 4), S45, dense])
  w.add(op + "_rank3", cwise(op), [I234, vals(f64, 5), S234, vals(f64, 12, 2).reshape(3, 4)])
  w.add(op + "_empty", cwise(op), [np.zeros((0, 2), i64), np.zeros(0, f32), S45,
                                   vals(f32, 5)])
  w.add(op + "_inf", cwise(op), [I45, np.array([1, 0, -1, 2], f32), S45,
                                 np.array([[np.inf, -np.inf, np.nan, 1, 2]], f32)])
  tf_error(op + "_err_rank6", cwise(op), [np.zeros((1, 6), i64), vals(f32, 1), np.ones(6, i64),
                                          f32(2)])
  if op == "SparseDenseCwiseDiv":
    tf_error(op + "_err_zero", cwise(op), [I45, vals(f32, 4), S45, np.array([1, 0, 2, 3, 4], f32)])
    tf_error(op + "_err_zero_unused", cwise(op), [m64([[0, 0]]), vals(i32, 1), S45,
                                                  np.array([1, 0, 2, 3, 4], i32)])
  tf_error(op + "_err_indices_vector", cwise(op), [I45[0].copy(), vals(f32, 2), S45,
                                                   vals(f32, 5)])
  tf_error(op + "_err_values_matrix", cwise(op), [I45, vals(f32, 4).reshape(4, 1), S45,
                                                  vals(f32, 5)])
  tf_error(op + "_err_shape_matrix", cwise(op), [I45, vals(f32, 4), S45.reshape(2, 1),
                                                 vals(f32, 5)])
  tf_error(op + "_err_values_count", cwise(op), [I45, vals(f32, 3), S45, vals(f32, 5)])
  tf_error(op + "_err_rank", cwise(op), [I45, vals(f32, 4), np.array([4, 5, 1], i64),
                                         vals(f32, 5)])
  tf_error(op + "_err_dense_rank", cwise(op), [I45, vals(f32, 4), S45,
                                               np.ones((1, 4, 5), f32)])
  tf_error(op + "_err_bcast", cwise(op), [I45, vals(f32, 4), S45, vals(f32, 3)])
  tf_error(op + "_err_oob", cwise(op), [m64([[0, 1], [4, 0]]), vals(f32, 2), S45, vals(f32, 5)])


# ---- SparseSparseMaximum / Minimum -----------------------------------------------------------
def ssminmax(op):
  fn = getattr(R, op)
  return lambda ai, av, ash, bi, bv, bsh: fn(a_indices=ai, a_values=av, a_shape=ash,
                                              b_indices=bi, b_values=bv, b_shape=bsh)


for op in ["SparseSparseMaximum", "SparseSparseMinimum"]:
  for dt in REAL:
    w.add("%s_%s" % (op, tname(dt)), ssminmax(op), [IA2, vals(dt, 4), S45, IB2,
                                                    vals(dt, 4, 2), S45])
  w.add(op + "_negative", ssminmax(op), [IA2, -np.arange(1, 5).astype(f32), S45, IB2,
                                         np.array([3, -7, 2, -1], f32), S45])
  w.add(op + "_a_empty", ssminmax(op), [np.zeros((0, 2), i64), np.zeros(0, i32), S45, IB2,
                                        vals(i32, 4), S45])
  w.add(op + "_both_empty", ssminmax(op), [np.zeros((0, 2), i64), np.zeros(0, i32), S45,
                                           np.zeros((0, 2), i64), np.zeros(0, i32), S45])
  tf_error(op + "_err_indices_vector", ssminmax(op), [IA2[0].copy(), vals(f32, 2), S45, IB2,
                                                      vals(f32, 4), S45])
  tf_error(op + "_err_values_matrix", ssminmax(op), [IA2, vals(f32, 4), S45, IB2,
                                                     vals(f32, 4).reshape(4, 1), S45])
  tf_error(op + "_err_shape_matrix", ssminmax(op), [IA2, vals(f32, 4), S45.reshape(1, 2), IB2,
                                                    vals(f32, 4), S45])
  tf_error(op + "_err_values_count", ssminmax(op), [IA2, vals(f32, 3), S45, IB2, vals(f32, 4),
                                                    S45])
  tf_error(op + "_err_shapes", ssminmax(op), [IA2, vals(f32, 4), S45, IB2, vals(f32, 4),
                                              np.array([4, 6], i64)])
  tf_error(op + "_err_rank", ssminmax(op), [IA2, vals(f32, 4), S45, IB2, vals(f32, 4),
                                            np.array([4, 5, 1], i64)])
  tf_error(op + "_err_unsorted", ssminmax(op), [m64([[1, 0], [0, 0]]), vals(f32, 2), S45, IB2,
                                                vals(f32, 4), S45])
  tf_error(op + "_err_oob", ssminmax(op), [IA2, vals(f32, 4), S45, m64([[5, 0]]), vals(f32, 1),
                                           S45])
  tf_error(op + "_err_repeated", ssminmax(op), [IA2, vals(f32, 4), S45, m64([[1, 0], [1, 0]]),
                                                vals(f32, 2), S45])

w.write()
