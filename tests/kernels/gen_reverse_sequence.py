"""Writes fixtures/reverse_sequence.pbtxt: ReverseSequence in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_reverse_sequence.py (needs TensorFlow 2.x and
numpy). Every output is exact (elements only move). error_substr is checked here against
TensorFlow's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261205)
w = CaseWriter("reverse_sequence")


def rs(seq_dim, batch_dim=0):
  return lambda x, lengths: R.ReverseSequence(input=x, seq_lengths=lengths, seq_dim=seq_dim,
                                              batch_dim=batch_dim)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


I64 = lambda v: np.array(v, np.int64)  # noqa: E731
I32 = lambda v: np.array(v, np.int32)  # noqa: E731

X = np.arange(4 * 5 * 2, dtype=np.float32).reshape(4, 5, 2)
w.add("basic_seq1_batch0", rs(1), [X, I64([5, 0, 3, 1])])
w.add("tlen_int32", rs(1), [X, I32([2, 5, 1, 4])])
w.add("seq0_batch1", rs(0, 1), [X.transpose(1, 0, 2).copy(), I64([5, 2, 3, 0])])
w.add("seq2_batch0", rs(2, 0), [X, I64([2, 1, 0, 2])])
w.add("batch2_seq1", rs(1, 2), [X, I64([4, 1])])
w.add("rank2", rs(1), [np.arange(12, dtype=np.int32).reshape(3, 4), I64([4, 2, 3])])
w.add("rank5", rs(3, 1),
      [rng.integers(0, 100, (2, 3, 2, 4, 2)).astype(np.int64), I64([4, 0, 2])])
for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16,
              np.uint32, np.uint64, np.complex64, np.complex128, np.bool_]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  x = rng.integers(0, 2, (3, 4)).astype(dtype) if dtype is np.bool_ else (
      rng.integers(0, 50, (3, 4)).astype(dtype))
  w.add("dtype_" + name, rs(1), [x, I32([4, 3, 1])])
w.add("strings", rs(1), [np.array([[b"a", b"b", b"c"], [b"d", b"e", b"f"]]), I64([3, 2])])
w.add("empty_batch", rs(1), [np.zeros((0, 3), np.float32), I64([])])
w.add("empty_seq", rs(1), [np.zeros((2, 0), np.float32), I64([0, 0])])
w.add("larger", rs(1, 0), [rng.integers(-99, 99, (32, 100, 2)).astype(np.int32),
                          rng.integers(0, 101, 32).astype(np.int64)])

add_error("err_seq_lengths_matrix", rs(1), [X, I64([[1, 2, 3, 4]])],
          "seq_lengths must be 1-dim, not 2")
add_error("err_same_dims", rs(1, 1), [X, I64([1, 1, 1, 1, 1])], "batch_dim == seq_dim == 1")
add_error("err_seq_dim_rank", rs(3), [X, I64([1, 1, 1, 1])],
          "seq_dim must be < input rank ( 3 vs. 3)")
add_error("err_batch_dim_rank", rs(1, 3), [X, I64([1, 1])],
          "batch_dim must be < input rank ( 3 vs. 3)")
add_error("err_length_mismatch", rs(1), [X, I64([1, 1, 1])],
          "Length of seq_lengths != input.dims(0), (3 vs. 4)")
add_error("err_negative_length", rs(1), [X, I64([1, -1, 1, 1])], "seq_lens(1) < 0")
add_error("err_length_too_long", rs(1), [X, I32([1, 1, 6, 1])], "seq_lens(2) > input.dims(1)")
add_error("err_negative_seq_dim", rs(-1), [X, I64([1, 1, 1, 1])], "Invalid seq_dim -1")
add_error("err_negative_batch_dim", rs(1, -1), [X, I64([1, 1])], "Invalid batch_dim -1")
add_error("err_rank1", rs(0), [np.arange(3, dtype=np.float32), I64([1, 1, 1])],
          "batch_dim == seq_dim == 0")
add_error("err_rank6", rs(1), [np.zeros((2, 2, 1, 1, 1, 1), np.float32), I64([1, 2])],
          "ReverseSequenceOp : Unhandled input dimensions: 6")

w.write()
