"""Writes fixtures/ragged.pbtxt: RaggedTensorToTensor in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_ragged.py (needs TensorFlow 2.x and numpy).
Values are moved, never computed on, so every output is compared exactly.

Left out, because TensorFlow 2.21's CPU kernel is wrong for them (Sluice returns
INVALID_ARGUMENT instead; see ragged_tensor_to_tensor_op_test.cc):
  - row_splits whose last value exceeds the number of values, and more value_rowids than
    values: it reads past the values (garbage in the output);
  - unsorted value_rowids, or a row id >= the number of rows: garbage or heap corruption;
  - more row_partition_types than row_partition_tensors: a CHECK failure (in graph mode,
    which the oracle uses, the shape function rejects any count mismatch first);
  - a row_splits that is not a vector, a negative FIRST_DIM_SIZE with an explicit shape.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("ragged")


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  # The substring must be TensorFlow's own words: check it against the recorded message.
  recorded = w._cases[-1].split("error_message: ", 1)[-1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert code != 0 and _quote(substr)[1:-1].rstrip() in recorded, (name, recorded)


def to_tensor(*types):
  types = list(types)
  return lambda shape, values, default, *parts: R.RaggedTensorToTensor(
      shape=shape, values=values, default_value=default, row_partition_tensors=list(parts),
      row_partition_types=types)


SPLITS = to_tensor("ROW_SPLITS")
ROWIDS = to_tensor("FIRST_DIM_SIZE", "VALUE_ROWIDS")
I64 = lambda *v: np.array(v, np.int64)  # noqa: E731
I32 = lambda *v: np.array(v, np.int32)  # noqa: E731
ANY = np.int64(-1)
V = np.array([1, 2, 3, 4, 5], np.float32)

# Every registered value dtype, with both index types and both shape types.
for dtype in [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64, np.complex64, np.complex128, np.bool_]:
  values = np.arange(1, 6).astype(dtype)
  default = np.array(0 if dtype != np.bool_ else False).astype(dtype)
  name = np.dtype(dtype).name
  w.add("splits_" + name, SPLITS, [ANY, values, default, I64(0, 2, 2, 5)])
  w.add("rowids_" + name, ROWIDS, [np.int32(-1), values, default, np.int32(4),
                                  I32(0, 0, 2, 2, 2)])
BF16 = tf.constant([1.5, -2, 3, 4, 5], tf.bfloat16).numpy()
w.add("splits_bfloat16", SPLITS, [ANY, BF16, BF16[1], I64(0, 2, 2, 5)])
STR = np.array([b"a", b"bb", b"", b"ccc", "\xe9".encode()], dtype=object)
w.add("splits_string", SPLITS, [ANY, STR, np.array(b"<pad>", dtype=object), I64(0, 2, 2, 5)])
w.add("rowids_string", ROWIDS, [ANY, STR, np.array(b"", dtype=object), I64(3), I64(0, 0, 1, 1, 1)])
for qtype in [tf.qint8, tf.quint8, tf.qint32, tf.qint16, tf.quint16]:
  base = {1: np.int8, 2: np.int16, 4: np.int32}[qtype.size]
  values = tf.bitcast(tf.constant(np.arange(1, 6).astype(base)), qtype).numpy()
  w.add("splits_" + qtype.name, SPLITS, [ANY, values, values[0], I64(0, 2, 2, 5)])

# Shapes: given, truncating, padding, partly unknown; int32 shapes.
w.add("shape_truncates", SPLITS, [I64(2, 2), V, np.float32(9), I64(0, 2, 2, 5)])
w.add("shape_pads", SPLITS, [I32(4, 4), V, np.float32(9), I64(0, 2, 2, 5)])
w.add("shape_unknown_dims", SPLITS, [I32(-1, -1), V, np.float32(9), I64(0, 2, 2, 5)])
w.add("shape_first_known", SPLITS, [I64(5, -1), V, np.float32(9), I64(0, 2, 2, 5)])
w.add("shape_zero_width", SPLITS, [I64(-1, 0), V, np.float32(9), I64(0, 2, 2, 5)])
w.add("int32_splits", SPLITS, [ANY, V, np.float32(-1), I32(0, 1, 1, 1, 5)])
w.add("rowids_shape", ROWIDS, [I64(3, 2), V, np.float32(7), I64(4), I64(0, 0, 2, 2, 2)])
w.add("rowids_first_dim_vector", ROWIDS, [ANY, V, np.float32(0), I64(4), I64(1, 1, 1, 3, 3)])
w.add("rowids_fewer_than_values", ROWIDS, [ANY, V, np.float32(0), I64(3), I64(0, 2, 2)])
w.add("rowids_empty", ROWIDS, [ANY, np.zeros(0, np.float32), np.float32(0), I64(3),
                               np.zeros(0, np.int64)])
w.add("splits_fewer_values_used", SPLITS, [ANY, V, np.float32(0), I64(0, 2, 3)])
w.add("splits_negative_row", SPLITS, [ANY, V[:2], np.float32(8), I64(1, 0, 2)])
w.add("empty_values", SPLITS, [ANY, np.zeros(0, np.float32), np.float32(0), I64(0, 0, 0)])
w.add("no_rows", SPLITS, [ANY, np.zeros(0, np.float32), np.float32(0), I64(0)])

# Inner dims and default_value broadcast.
M = np.arange(10, dtype=np.int32).reshape(5, 2)
M3 = np.arange(30, dtype=np.int32).reshape(5, 2, 3)
w.add("inner_default_vector", SPLITS, [ANY, M, I32(7, 8), I64(0, 2, 2, 5)])
w.add("inner_default_scalar", SPLITS, [ANY, M, np.int32(-1), I64(0, 2, 2, 5)])
w.add("inner_shape", SPLITS, [I64(2, 4, 2), M, np.int32(0), I64(0, 2, 2, 5)])
w.add("inner_shape_unknown", SPLITS, [I64(-1, -1, -1), M, np.int32(0), I64(0, 2, 2, 5)])
w.add("inner3_default_column", SPLITS, [ANY, M3, np.array([[7], [8]], np.int32),
                                        I64(0, 2, 2, 5)])
w.add("inner3_default_full", SPLITS, [ANY, M3, np.arange(6, dtype=np.int32).reshape(2, 3),
                                      I64(0, 2, 2, 5)])
w.add("inner3_default_one", SPLITS, [ANY, M3, np.array([1], np.int32), I64(0, 2, 2, 5)])
w.add("inner_strings", SPLITS, [ANY, np.array([[b"a", b"b"], [b"c", b"d"]], dtype=object),
                                np.array([b"x", b"y"], dtype=object), I64(0, 0, 2)])

# Two ragged dimensions.
TWO = to_tensor("ROW_SPLITS", "ROW_SPLITS")
w.add("two_levels", TWO, [ANY, V, np.float32(0), I64(0, 1, 3), I64(0, 2, 2, 5)])
w.add("two_levels_truncated", TWO, [I64(2, 1, 2), V, np.float32(0), I64(0, 1, 3),
                                    I64(0, 2, 2, 5)])
w.add("two_levels_padded", TWO, [I64(3, 3, 4), V, np.float32(-1), I64(0, 1, 3),
                                 I64(0, 2, 2, 5)])
MIXED = to_tensor("FIRST_DIM_SIZE", "VALUE_ROWIDS", "VALUE_ROWIDS")
w.add("two_levels_rowids", MIXED, [ANY, V, np.float32(0), I64(3), I64(0, 2, 2),
                                   I64(0, 0, 1, 2, 2)])
w.add("two_levels_rowids_truncated", MIXED, [I64(2, 1, 1), V, np.float32(0), I64(3),
                                             I64(0, 2, 2), I64(0, 0, 1, 2, 2)])
SPLITS_ROWIDS = to_tensor("ROW_SPLITS", "VALUE_ROWIDS")
w.add("splits_then_rowids", SPLITS_ROWIDS, [ANY, V, np.float32(0), I64(0, 1, 3),
                                            I64(0, 0, 2, 2, 2)])

# Random well-formed ragged tensors (one or two ragged dims, inner dims, both partition
# encodings, shapes that truncate or pad).
rng = np.random.default_rng(20261207)
for k in range(16):
  rows = int(rng.integers(0, 6))
  lengths = rng.integers(0, 5, rows)
  splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
  inner = [int(d) for d in rng.integers(1, 3, int(rng.integers(0, 3)))]
  values = rng.integers(-50, 50, [int(splits[-1])] + inner).astype(np.int32)
  default = rng.integers(-9, 0, inner[len(inner) // 2:]).astype(np.int32)
  shape = ANY
  if k % 3 == 1:
    shape = np.array([int(rng.integers(0, 7)), int(rng.integers(0, 6))] + inner, np.int64)
  elif k % 3 == 2:
    shape = np.array([-1, int(rng.integers(0, 6))] + [-1] * len(inner), np.int64)
  if k % 2:
    rowids = np.repeat(np.arange(rows), lengths).astype(np.int64)
    w.add("random_rowids_%d" % k, ROWIDS, [shape, values, default, np.int64(rows), rowids])
  else:
    w.add("random_splits_%d" % k, SPLITS, [shape, values, default, splits])

# Errors TensorFlow's kernel reports. (Bad row_partition_types are rejected by the shape
# function when the graph is built, so they cannot be recorded here: see ragged_ops_test.cc.)
expect_error("err_split_size", SPLITS, [ANY, V, np.float32(0), I64(0, 3, 2, 5)],
             "Invalid row split size.")
expect_error("err_split_start", SPLITS, [ANY, V, np.float32(0), I64(1, 3, 5)],
             "Invalid row split size.")
expect_error("err_empty_first_partition", SPLITS, [ANY, V, np.float32(0), np.zeros(0, np.int64)],
             "Invalid first partition input. Tensor requires at least one element.")
expect_error("err_inner_splits_longer", TWO, [ANY, V, np.float32(0), I64(0, 1), I64(0, 2, 5)],
             "Row partition size is greater than output size: 2 > 1")
expect_error("err_rowid_negative", ROWIDS, [ANY, V, np.float32(0), I64(3), I64(-1, 0, 2, 2, 2)],
             "Got current_value_rowid=-1 which is not less than 3")
expect_error("err_default_rank", SPLITS, [ANY, M, np.array([[7, 8]], np.int32), I64(0, 2, 5)],
             "are incompatible: default_value.rank = 2  must be less than "
             "rt_input.flat_values.rank = 2")
expect_error("err_default_dims", SPLITS, [ANY, M, I32(7, 8, 9), I64(0, 2, 5)],
             "default_value.shape=[3] and rt_input.flat_values.shape=[5,2] are incompatible: "
             "default_value.shape[-1] = 3 but rt_input.flat_values.shape[-1] = 2")
expect_error("err_default_left_aligned", SPLITS, [ANY, M3, I32(7, 8, 9), I64(0, 2, 5)],
             "default_value.shape[-1] = 3 but rt_input.flat_values.shape[-1] = 2")
expect_error("err_default_broadcast", SPLITS, [ANY, M3, I32(7, 8), I64(0, 2, 5)],
             "Error broadcasting default_value")
expect_error("err_shape_rank", SPLITS, [I64(2, 2, 2), V, np.float32(9), I64(0, 2, 5)],
             "rt_input.shape and shape=[2,2,2] are incompatible: rt_input.rank = 2 but "
             "shape.rank = 3")
expect_error("err_shape_inner", SPLITS, [I64(3, 3, 3), M, np.int32(9), I64(0, 2, 5)],
             "rt_input.shape and shape=[3,3,3] are incompatible: rt_input.shape[2] = 2 but "
             "shape[2] = 3")
expect_error("err_shape_scalar", SPLITS, [np.int64(3), V, np.float32(9), I64(0, 2, 5)],
             "The only valid scalar shape tensor is the fully unknown shape specified as -1.")
expect_error("err_shape_dim", SPLITS, [I64(3, -2), V, np.float32(9), I64(0, 2, 5)],
             "Dimension -2 must be >= -1")
expect_error("err_shape_matrix", SPLITS, [I64(3, 2).reshape(1, 2), V, np.float32(9),
                                          I64(0, 2, 5)],
             "Shape must be at most rank 1 but is rank 2")
expect_error("err_first_dim_negative", ROWIDS, [ANY, V, np.float32(0), I64(-1),
                                                I64(0, 0, 2, 2, 2)],
             "Dimension -1 must be >= 0")

w.write()
