"""Writes fixtures/checkpoint.pbtxt: the checkpoint ops in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_checkpoint.py (needs TensorFlow 2.x and numpy).

RestoreV2 cases read the bundles io/testdata/gen_bundles.py wrote, by paths relative to the
repository root (the conformance test's working folder is the runfiles root, which holds
io/testdata/bundles): every dtype, slices of a tensor saved whole, and TensorFlow's error
codes for a missing key, a dtype mismatch, a missing prefix and bad arguments. Outputs are
compared exactly. ShardedFilename and ShardedFilespec cover their formats and scalar checks.
SaveV2 and MergeV2Checkpoints write files, so only their argument errors are here; their
results are compared with TensorFlow's files in kernels/cpu/checkpoint/checkpoint_kernels_test.cc.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(ROOT)
R = tf.raw_ops
w = CaseWriter("checkpoint")
BUNDLE = "io/testdata/bundles/all_dtypes"


def s(*texts):
  return np.array([t.encode() for t in texts], dtype=object)


def scalar_str(text):
  return np.array(text.encode(), dtype=object)


def restore(dtypes):
  return lambda p, n, sl: R.RestoreV2(prefix=p, tensor_names=n, shape_and_slices=sl,
                                      dtypes=dtypes)


ALL = [
    ("float", tf.float32), ("double", tf.float64), ("half", tf.float16),
    ("bfloat16", tf.bfloat16), ("int8", tf.int8), ("int16", tf.int16), ("int32", tf.int32),
    ("int64", tf.int64), ("uint8", tf.uint8), ("uint16", tf.uint16), ("uint32", tf.uint32),
    ("uint64", tf.uint64), ("bool", tf.bool), ("complex64", tf.complex64),
    ("complex128", tf.complex128), ("string", tf.string), ("string_scalar", tf.string),
    ("string_empty", tf.string), ("scalar", tf.float32), ("empty", tf.float32),
    ("empty_int64", tf.int64), ("a/nested/name:0", tf.float32), ("qint8", tf.qint8),
    ("quint8", tf.quint8), ("qint32", tf.qint32), ("qint16", tf.qint16),
    ("quint16", tf.quint16),
]
keys = [k for k, _ in ALL]
w.add("restore_every_dtype", restore([d for _, d in ALL]),
      [scalar_str(BUNDLE), s(*keys), s(*([""] * len(keys)))])
# Outputs in the order asked for, not the sorted order of reading.
w.add("restore_unsorted_names", restore([tf.int32, tf.float32, tf.bool]),
      [scalar_str(BUNDLE), s("int32", "float", "bool"), s("", "", "")])
w.add("restore_same_name_twice", restore([tf.int8, tf.int8]),
      [scalar_str(BUNDLE), s("int8", "int8"), s("", "")])
w.add("restore_prefix_as_vector", restore([tf.float32]),
      [s(BUNDLE), s("scalar"), s("")])
# Slices of tensors saved whole.
w.add("restore_slice_rows", restore([tf.float32]),
      [scalar_str(BUNDLE), s("a/nested/name:0"), s("2 3 4 1,1:-:1,2")])
w.add("restore_slice_full_by_extents", restore([tf.float32]),
      [scalar_str(BUNDLE), s("float"), s("2 3 0,2:0,3")])
w.add("restore_slice_full_by_dashes", restore([tf.int32]),
      [scalar_str(BUNDLE), s("int32"), s("2 2 -:-")])
w.add("restore_slice_strings", restore([tf.string]),
      [scalar_str(BUNDLE), s("string"), s("5 2,3")], error_substr="Dtype string not supported.")
w.add("restore_slice_bool", restore([tf.bool]),
      [scalar_str(BUNDLE), s("bool"), s("3 1,2")])
w.add("restore_slice_bfloat16", restore([tf.bfloat16]),
      [scalar_str(BUNDLE), s("bfloat16"), s("3 0,1")])
w.add("restore_slice_qint8", restore([tf.qint8]),
      [scalar_str(BUNDLE), s("qint8"), s("2 1,1")])
w.add("restore_slice_complex128", restore([tf.complex128]),
      [scalar_str(BUNDLE), s("complex128"), s("1 0,1")])
# TensorFlow copies parts of some dtypes only; a whole "slice" of any dtype is read.
w.add("restore_slice_half_unsupported", restore([tf.float16]),
      [scalar_str(BUNDLE), s("half"), s("4 1,2")], error_substr="Dtype half not supported.")
w.add("restore_full_slice_half", restore([tf.float16]),
      [scalar_str(BUNDLE), s("half"), s("4 0,4")])
w.add("restore_full_slice_strings", restore([tf.string]),
      [scalar_str(BUNDLE), s("string"), s("5 -")])
w.add("restore_slice_empty_tensor", restore([tf.float32]),
      [scalar_str(BUNDLE), s("empty"), s("0 3 -:1,2")])
# Errors.
w.add("restore_missing_key", restore([tf.float32, tf.float32]),
      [scalar_str(BUNDLE), s("float", "no_such_key"), s("", "")], error_substr="not found")
w.add("restore_dtype_mismatch", restore([tf.float64, tf.int64]),
      [scalar_str(BUNDLE), s("float", "int32"), s("", "")],
      error_substr="tensor_name = float; expected dtype double does not equal original dtype "
                   "float")
w.add("restore_missing_prefix", restore([tf.float32]),
      [scalar_str("io/testdata/bundles/no_such_bundle"), s("float"), s("")],
      error_substr="Failed to find any matching files for io/testdata/bundles/no_such_bundle")
w.add("restore_names_vs_dtypes", restore([tf.float32]),
      [scalar_str(BUNDLE), s("float", "int32"), s("", "")],
      error_substr="Got 2 tensor names, but 1 expected dtypes.")
w.add("restore_names_vs_specs", restore([tf.float32, tf.int32]),
      [scalar_str(BUNDLE), s("float", "int32"), s("")],
      error_substr="tensor_names and shape_and_slices have different number of elements")
w.add("restore_names_not_vector", restore([tf.float32]),
      [scalar_str(BUNDLE), np.array([[b"float"]], dtype=object), s("")],
      error_substr="should be an 1-D tensors")
w.add("restore_two_prefixes", restore([tf.float32]),
      [s(BUNDLE, BUNDLE), s("float"), s("")],
      error_substr="Input prefix should have a single element, got 2 instead.")
w.add("restore_slice_shape_mismatch", restore([tf.float32]),
      [scalar_str(BUNDLE), s("float"), s("3 2 -:-")],
      error_substr="does not match the shape stored in checkpoint")
w.add("restore_slice_out_of_bounds", restore([tf.float32]),
      [scalar_str(BUNDLE), s("float"), s("2 3 1,2:-")])
w.add("restore_slice_bad_spec", restore([tf.float32]),
      [scalar_str(BUNDLE), s("float"), s("2 3 -")])
w.add("restore_slice_one_part", restore([tf.float32]),
      [scalar_str(BUNDLE), s("float"), s("2")],
      error_substr="Need least two elements in shape_and_slice specification")


def save(dtypes):
  return lambda p, n, sl, *t: R.SaveV2(prefix=p, tensor_names=n, shape_and_slices=sl,
                                       tensors=list(t))


w.add("save_names_vs_tensors", save([tf.float32]),
      [scalar_str("unused_prefix"), s("a", "b"), s("", ""), np.float32(1)],
      error_substr="Got 2 tensor names but 1 tensors.")
w.add("save_two_prefixes", save([tf.float32]),
      [s("p", "q"), s("a"), s(""), np.float32(1)],
      error_substr="Input prefix should have a single element, got 2 instead.")


def merge(**attrs):
  return lambda p, d: R.MergeV2Checkpoints(checkpoint_prefixes=p, destination_prefix=d, **attrs)


w.add("merge_prefixes_not_vector", merge(), [scalar_str("a"), scalar_str("b")],
      error_substr="Input checkpoint_prefixes should be an 1-D tensor, got [] instead.")
w.add("merge_destination_not_scalar", merge(), [s("a"), s("b")],
      error_substr="Input destination_prefix should be a scalar tensor, got [1] instead.")


def sharded_filename(b, i, n):
  return R.ShardedFilename(basename=b, shard=i, num_shards=n)


def sharded_filespec(b, n):
  return R.ShardedFilespec(basename=b, num_shards=n)


w.add("sharded_filename", sharded_filename,
      [scalar_str("/tmp/ckpt/model"), np.int32(3), np.int32(12)])
w.add("sharded_filename_wide", sharded_filename,
      [scalar_str("x"), np.int32(1234567), np.int32(-5)])
w.add("sharded_filename_empty_base", sharded_filename, [scalar_str(""), np.int32(0), np.int32(1)])
w.add("sharded_filename_vector_shard", sharded_filename,
      [scalar_str("x"), np.array([1], np.int32), np.int32(2)],
      error_substr="shard must be a scalar, got shape [1]")
w.add("sharded_filename_vector_base", sharded_filename,
      [s("x", "y"), np.int32(1), np.int32(2)],
      error_substr="basename must be a scalar, got shape [2]")
w.add("sharded_filespec", sharded_filespec, [scalar_str("gs://b/model.ckpt"), np.int32(7)])
w.add("sharded_filespec_vector_num", sharded_filespec,
      [scalar_str("x"), np.array([7, 8], np.int32)],
      error_substr="num_shards must be a scalar, got shape [2]")
w.write()
