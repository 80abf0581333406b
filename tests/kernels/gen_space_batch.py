"""Writes fixtures/space_batch.pbtxt: SpaceToBatchND and BatchToSpaceND in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_space_batch.py (needs TensorFlow 2.x and
numpy). Every output is exact (elements only move). error_substr is checked here against
TensorFlow's message.

TensorFlow's shape function needs block_shape to be a vector of known length, so each case
passes it through tf.ensure_shape (the recorded node still reads the fed values, by
position). For the same reason a block_shape that is not a vector cannot reach the kernel in
TensorFlow; kernels/cpu/array/space_batch_ops_test.cc covers that check.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261206)
w = CaseWriter("space_batch")


def s2b(m):
  return lambda x, b, p: R.SpaceToBatchND(input=x, block_shape=tf.ensure_shape(b, [m]),
                                          paddings=p)


def b2s(m):
  return lambda x, b, c: R.BatchToSpaceND(input=x, block_shape=tf.ensure_shape(b, [m]),
                                          crops=c)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


I32 = lambda v: np.array(v, np.int32)  # noqa: E731
I64 = lambda v: np.array(v, np.int64)  # noqa: E731


def arange(shape, dtype=np.float32):
  return np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)


# SpaceToBatchND.
w.add("s2b_doc1", s2b(2), [arange((1, 2, 2, 1)), I32([2, 2]), I32([[0, 0], [0, 0]])])
w.add("s2b_doc3", s2b(2), [arange((1, 4, 4, 1)), I32([2, 2]), I32([[0, 0], [0, 0]])])
w.add("s2b_doc4_pad", s2b(2), [arange((2, 2, 4, 1)), I32([2, 2]), I32([[0, 0], [2, 0]])])
w.add("s2b_channels", s2b(2), [arange((2, 5, 6, 3)), I32([2, 3]), I32([[1, 0], [2, 1]])])
w.add("s2b_1d_dilated", s2b(1), [arange((2, 7, 4)), I64([2]), I64([[2, 1]])])
w.add("s2b_int64_block_int32_pad", s2b(2),
      [arange((1, 6, 6, 2)), I64([3, 2]), I32([[0, 0], [1, 1]])])
w.add("s2b_3d", s2b(3), [arange((2, 4, 3, 2, 2)), I32([2, 3, 2]),
                         I32([[0, 0], [1, 2], [0, 0]])])
w.add("s2b_4d", s2b(4), [arange((1, 2, 2, 2, 2, 1)), I32([2, 2, 2, 2]),
                         I32([[0, 0], [0, 0], [0, 0], [0, 0]])])
w.add("s2b_prefix_suffix_merged", s2b(4),
      [arange((2, 3, 4, 5, 2, 2)), I32([1, 2, 1, 1]), I32([[0, 0], [0, 2], [0, 0], [0, 0]])])
w.add("s2b_all_trivial", s2b(2), [arange((2, 3, 4, 1)), I32([1, 1]), I32([[0, 0], [0, 0]])])
w.add("s2b_block1_with_pad", s2b(2), [arange((1, 2, 2, 1)), I32([1, 1]), I32([[1, 0], [0, 1]])])
w.add("s2b_no_block_dims", s2b(0), [arange((2, 3)), np.zeros([0], np.int32),
                                    np.zeros([0, 2], np.int32)])
w.add("s2b_rank_equal", s2b(2), [arange((2, 4, 6)), I32([2, 3]), I32([[0, 0], [0, 0]])])
w.add("s2b_empty_batch", s2b(2), [np.zeros((0, 4, 4, 2), np.float32), I32([2, 2]),
                                  I32([[0, 0], [0, 0]])])
w.add("s2b_empty_depth", s2b(2), [np.zeros((1, 4, 4, 0), np.float32), I32([2, 2]),
                                  I32([[0, 0], [0, 0]])])
w.add("s2b_empty_spatial_padded", s2b(1), [np.zeros((1, 0, 3), np.float32), I32([2]),
                                           I32([[1, 1]])])
# Above kMinParallelElements (32K), so the rows are split over the pool; int8 keeps it small.
w.add("s2b_large", s2b(2), [rng.integers(-99, 99, (2, 34, 36, 16)).astype(np.int8),
                            I32([2, 2]), I32([[2, 0], [1, 1]])])
for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
              np.int64, np.uint32, np.uint64]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  w.add("s2b_dtype_" + name, s2b(2),
        [rng.integers(1, 100, (2, 3, 4, 2)).astype(dtype), I32([2, 2]), I32([[1, 0], [0, 0]])])

add_error("s2b_err_input_rank", s2b(2), [arange((2, 4)), I32([2, 2]), I32([[0, 0], [0, 0]])],
          "input rank should be >= 3 instead of 2")
add_error("s2b_err_paddings_shape", s2b(2), [arange((1, 4, 4, 1)), I32([2, 2]),
                                             I32([[0, 0, 0], [0, 0, 0]])],
          "paddings should have shape [2, 2] instead of [2,3]")
add_error("s2b_err_block_zero", s2b(2), [arange((1, 4, 4, 1)), I32([2, 0]),
                                         I32([[0, 0], [0, 0]])],
          "All values in block_shape must be positive, got value, 0 at index 1.")
add_error("s2b_err_block_negative", s2b(1), [arange((1, 4, 1)), I64([-2]), I64([[0, 0]])],
          "All values in block_shape must be positive, got value, -2 at index 0.")
add_error("s2b_err_negative_pad", s2b(2), [arange((1, 4, 4, 1)), I32([2, 2]),
                                           I32([[0, 0], [-2, 2]])],
          "Paddings must be non-negative")
add_error("s2b_err_not_divisible", s2b(2), [arange((1, 4, 5, 1)), I32([2, 2]),
                                            I32([[0, 0], [0, 0]])],
          "padded_shape[1]=5 is not divisible by block_shape[1]=2")
add_error("s2b_err_too_many_dims", s2b(5), [arange((1, 2, 2, 2, 2, 2, 1)),
                                            I32([2, 2, 2, 2, 2]), np.zeros((5, 2), np.int32)],
          "Maximum number of non-combined block dimensions is 5 but must not exceed 4")
add_error("s2b_err_product_overflow", s2b(2), [arange((1, 2, 2, 1)),
                                               I64([2**40, 2**40]), I64([[0, 0], [0, 0]])],
          "Product of block sizes must be positive, got -1")

# BatchToSpaceND.
w.add("b2s_doc1", b2s(2), [arange((4, 1, 1, 1)), I32([2, 2]), I32([[0, 0], [0, 0]])])
w.add("b2s_doc3", b2s(2), [arange((4, 2, 2, 1)), I32([2, 2]), I32([[0, 0], [0, 0]])])
w.add("b2s_doc4_crop", b2s(2), [arange((8, 1, 3, 1)), I32([2, 2]), I32([[0, 0], [2, 0]])])
w.add("b2s_channels", b2s(2), [arange((12, 3, 3, 3)), I32([2, 3]), I32([[1, 0], [2, 1]])])
w.add("b2s_1d_dilated", b2s(1), [arange((4, 5, 4)), I64([2]), I64([[0, 1]])])
w.add("b2s_int64_crops", b2s(2), [arange((6, 2, 3, 2)), I32([3, 2]), I64([[1, 1], [0, 3]])])
w.add("b2s_3d", b2s(3), [arange((12, 2, 2, 2, 2)), I32([2, 3, 2]),
                         I32([[0, 1], [1, 2], [0, 0]])])
w.add("b2s_4d", b2s(4), [arange((16, 1, 1, 1, 1, 1)), I32([2, 2, 2, 2]),
                         np.zeros((4, 2), np.int32)])
w.add("b2s_prefix_suffix_merged", b2s(4),
      [arange((4, 3, 4, 5, 2, 2)), I32([1, 2, 1, 1]), I32([[0, 0], [0, 2], [0, 0], [0, 0]])])
w.add("b2s_all_trivial", b2s(2), [arange((2, 3, 4, 1)), I32([1, 1]), I32([[0, 0], [0, 0]])])
w.add("b2s_crop_all", b2s(1), [arange((2, 2, 3)), I32([2]), I32([[2, 2]])])
w.add("b2s_empty_batch", b2s(2), [np.zeros((0, 2, 2, 2), np.float32), I32([2, 2]),
                                  I32([[0, 0], [0, 0]])])
w.add("b2s_large", b2s(2), [rng.integers(-99, 99, (8, 17, 19, 16)).astype(np.int8),
                            I32([2, 2]), I32([[2, 0], [1, 1]])])
for dtype in [np.float64, np.float16, BF16, np.int8, np.uint8, np.int16, np.uint16, np.int32,
              np.int64, np.uint32, np.uint64]:
  name = "bf16" if dtype is BF16 else np.dtype(dtype).name
  w.add("b2s_dtype_" + name, b2s(2),
        [rng.integers(1, 100, (8, 3, 2, 2)).astype(dtype), I32([2, 2]), I32([[1, 0], [0, 1]])])

add_error("b2s_err_input_rank", b2s(2), [arange((4, 4)), I32([2, 2]), I32([[0, 0], [0, 0]])],
          "input rank should be >= 3 instead of 2")
add_error("b2s_err_crops_shape", b2s(2), [arange((4, 1, 1, 1)), I32([2, 2]), I32([[0, 0]])],
          "crops should have shape [2, 2] instead of [1,2]")
add_error("b2s_err_block_zero", b2s(2), [arange((4, 1, 1, 1)), I32([2, 0]),
                                         I32([[0, 0], [0, 0]])],
          "Product of block sizes must be positive, got 0")
add_error("b2s_err_block_negative", b2s(1), [arange((4, 1, 1)), I32([-2]), I32([[0, 0]])],
          "Product of block sizes must be positive, got -2")
add_error("b2s_err_batch_not_divisible", b2s(2), [arange((6, 1, 1, 1)), I32([2, 2]),
                                                  I32([[0, 0], [0, 0]])],
          "Input batch dimension (6) is not divisible by product of block sizes (4)")
add_error("b2s_err_negative_crop", b2s(2), [arange((4, 2, 2, 1)), I32([2, 2]),
                                            I32([[0, -1], [0, 0]])],
          "Crops must be non-negative")
add_error("b2s_err_over_crop", b2s(2), [arange((4, 2, 2, 1)), I32([2, 2]),
                                        I32([[3, 2], [0, 0]])],
          "cropped_shape[0]=-1 must be non-negative")
add_error("b2s_err_too_many_dims", b2s(5), [arange((32, 1, 1, 1, 1, 1, 1)),
                                            I32([2, 2, 2, 2, 2]), np.zeros((5, 2), np.int32)],
          "Maximum number of non-combined block dimensions is 5 but must not exceed 4")

w.write()
