"""Writes fixtures/parse_example.pbtxt: the tf.train.Example parsers and the TensorProto ops.

Run from anywhere: python3 tests/kernels/gen_parse_example.py (needs TensorFlow 2.x and numpy).
Covers ParseExampleV2 (what tf.io.parse_example emits), ParseExample (v1), ParseSingleExample,
ParseTensor and SerializeTensor. Values are copied out of the protos, never computed on, so
outputs are compared exactly (SerializeTensor's bytes included). Malformed records are built
byte by byte: the fast parser TensorFlow runs accepts a little less than protobuf's own (an
unknown field inside Features, a map entry without its value) and a little more (bytes after
a packed list), and the cases pin down which. error_substr is checked here against
TensorFlow's message. (The DecodeRaw/DecodeCSV fixture, parsing.pbtxt, is gen_parsing.py's.)
"""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import tensor_pb2, tensor_shape_pb2, types_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("parse_example")

DTYPES = {np.float32: tf.float32, np.int64: tf.int64, object: tf.string}


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  recorded = w._cases[-1].split("error_message: ", 1)[-1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert code != 0 and _quote(substr)[1:-1] in recorded, (name, recorded)


def last_op(_):
  """The op just built (a parser may have no outputs at all)."""
  return tf.compat.v1.get_default_graph().get_operations()[-1]


def feature(values):
  if values is None:
    return tf.train.Feature()
  if values and isinstance(values[0], bytes):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
  if values and isinstance(values[0], float):
    return tf.train.Feature(float_list=tf.train.FloatList(value=values))
  if isinstance(values, tuple) and not values:  # an empty float list
    return tf.train.Feature(float_list=tf.train.FloatList(value=[]))
  return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def example(**features):
  return tf.train.Example(features=tf.train.Features(
      feature={k: feature(v) for k, v in features.items()})).SerializeToString()


def strings(*values):
  return np.array(list(values), dtype=object)


# ---- Hand-built wire bytes -------------------------------------------------------------
def varint(n):
  out = bytearray()
  n &= (1 << 64) - 1
  while True:
    b = n & 0x7F
    n >>= 7
    if n:
      out.append(b | 0x80)
    else:
      out.append(b)
      return bytes(out)


def ld(field, payload):
  """A length-delimited field."""
  return varint(field << 3 | 2) + varint(len(payload)) + payload


def entry(key, feature_bytes):
  return ld(1, ld(1, key) + ld(2, feature_bytes))


def raw_example(*entries):
  return ld(1, b"".join(entries))


def packed_floats(values):
  return ld(1, np.array(values, "<f4").tobytes())


def unpacked_floats(values):
  return b"".join(varint(1 << 3 | 5) + np.array([v], "<f4").tobytes() for v in values)


def unpacked_ints(values):
  return b"".join(varint(1 << 3) + varint(v) for v in values)


def float_feature(list_payload):
  return ld(2, list_payload)


def int_feature(list_payload):
  return ld(3, list_payload)


# ---- ParseExampleV2 --------------------------------------------------------------------
def v2(sparse=(), dense=(), ragged=()):
  """Builds ParseExampleV2: sparse [(key, dtype)], dense [(key, dtype, shape)],
  ragged [(key, value dtype, split dtype)]. Inputs: serialized, names, the three key vectors,
  then one default per dense feature."""

  def build(serialized, names, sparse_keys, dense_keys, ragged_keys, *defaults):
    R.ParseExampleV2(serialized=serialized, names=names, sparse_keys=sparse_keys,
                     dense_keys=dense_keys, ragged_keys=ragged_keys,
                     dense_defaults=list(defaults), num_sparse=len(sparse),
                     sparse_types=[t for _, t in sparse],
                     ragged_value_types=[t for _, t, _ in ragged],
                     ragged_split_types=[s for _, _, s in ragged],
                     dense_shapes=[s for _, _, s in dense])
    return last_op(None)

  return build


def v2_inputs(serialized, sparse=(), dense=(), ragged=(), defaults=(), names=None):
  names = strings() if names is None else names
  return ([serialized, names, strings(*[k for k, _ in sparse]),
           strings(*[k for k, _, _ in dense]), strings(*[k for k, _, _ in ragged])] +
          list(defaults))


def case_v2(name, serialized, sparse=(), dense=(), ragged=(), defaults=(), names=None,
            error=None, keys=None):
  build = v2(sparse, dense, ragged)
  inputs = v2_inputs(serialized, sparse, dense, ragged, defaults, names)
  if keys is not None:  # replace the key vectors (to test their checks)
    inputs[2:5] = keys
  if error:
    expect_error(name, build, inputs, error)
  else:
    assert w.add(name, build, inputs) == 0, name


EMPTY_F = np.zeros([0], np.float32)
EMPTY_I = np.zeros([0], np.int64)
EMPTY_S = np.zeros([0], object)

BATCH = strings(
    example(f=[1.5, 2.5], i=[7], s=[b"a", b"bc"], v=[1.0, 2.0, 3.0], r=[4, 5, 6]),
    example(f=[-1.0, 0.25], i=[-3, 9], s=[b""], r=[1]),
    example(f=[3.0, 4.0], v=[9.0], s=[b"xyz", b"\x00\xff", b"q"]),
)

# Dense features of every dtype, with and without defaults.
case_v2("v2_dense_float_required", BATCH, dense=[("f", tf.float32, [2])], defaults=[EMPTY_F])
case_v2("v2_dense_float_default_2d", strings(example(g=[1.0, 2.0, 3.0, 4.0]), example()),
        dense=[("g", tf.float32, [2, 2])],
        defaults=[np.array([[9, 8], [7, 6]], np.float32)])
case_v2("v2_dense_int64_scalar_default", BATCH, dense=[("i2", tf.int64, [])],
        defaults=[np.array(-1, np.int64)])
case_v2("v2_dense_int64_flat_default", strings(example(k=[1, 2, 3]), example()),
        dense=[("k", tf.int64, [3])], defaults=[np.array([4, 5, 6], np.int64)])
case_v2("v2_dense_int64_extremes", strings(example(k=[2**63 - 1, -2**63, 0, -1])),
        dense=[("k", tf.int64, [4])], defaults=[EMPTY_I])
case_v2("v2_dense_string_default", strings(example(t=[b"hi"]), example(), example(t=[b""])),
        dense=[("t", tf.string, [1])], defaults=[strings(b"dflt")])
case_v2("v2_dense_string_2", strings(example(t=[b"a", b"b"]), example(t=[b"c", b"\x00d"])),
        dense=[("t", tf.string, [2])], defaults=[EMPTY_S])
case_v2("v2_dense_float_special", strings(example(f=[np.inf, -np.inf, np.nan, -0.0, 1e-40])),
        dense=[("f", tf.float32, [5])], defaults=[EMPTY_F])
case_v2("v2_dense_three_kinds", BATCH,
        dense=[("f", tf.float32, [2]), ("i", tf.int64, [1]), ("s", tf.string, [1])],
        defaults=[EMPTY_F, np.array([0], np.int64), strings(b"-")],
        error="Name: <unknown>, Key: s, Index: 0.  Can't parse serialized Example.")
case_v2("v2_dense_string_too_few", strings(example(t=[b"a"])), dense=[("t", tf.string, [2])],
        defaults=[EMPTY_S], error="Number of bytes values != expected.  Values size: 1 but "
        "output shape: [2]")
case_v2("v2_dense_zero_size", strings(example(z=()), example(z=())),
        dense=[("z", tf.float32, [0])], defaults=[EMPTY_F])
case_v2("v2_dense_zero_size_missing", strings(example(z=()), example()),
        dense=[("z", tf.float32, [0])], defaults=[EMPTY_F], error="is required")

# Variable-length dense features, padded with the default.
case_v2("v2_dense_varlen_float", BATCH, dense=[("v", tf.float32, [None])],
        defaults=[np.array(-1, np.float32)])
case_v2("v2_dense_varlen_int64_inner", strings(example(p=[1, 2, 3, 4]), example(p=[5, 6]),
                                               example()),
        dense=[("p", tf.int64, [None, 2])], defaults=[np.array(0, np.int64)])
case_v2("v2_dense_varlen_string", BATCH, dense=[("s", tf.string, [None])],
        defaults=[strings(b"pad")])
case_v2("v2_dense_varlen_all_missing", strings(example(), example()),
        dense=[("v", tf.float32, [None])], defaults=[np.array([7], np.float32)])
case_v2("v2_dense_varlen_not_multiple", strings(example(p=[1, 2, 3])),
        dense=[("p", tf.int64, [None, 2])], defaults=[np.array(0, np.int64)],
        error="Key: p, Index: 0.  Number of int64 values is not a multiple of stride length. Saw 3 "
        "values but output shape is: [?,2]")
case_v2("v2_dense_varlen_default_two", strings(example(p=[1])),
        dense=[("p", tf.int64, [None])], defaults=[np.array([0, 1], np.int64)],
        error="must contain a single element")
case_v2("v2_dense_varlen_default_empty", strings(example(p=[1])),
        dense=[("p", tf.int64, [None])], defaults=[EMPTY_I],
        error="must contain a single element")

# Dense errors: missing, wrong type, wrong count, bad default.
GAPPY = strings(example(i=[1]), example(), example(i=[2]))
case_v2("v2_dense_missing_required", GAPPY, dense=[("i", tf.int64, [1])], defaults=[EMPTY_I],
        error="Name: <unknown>, Feature: i (data type: int64) is required but could not be found.")
case_v2("v2_dense_missing_required_named", GAPPY, dense=[("i", tf.int64, [1])],
        defaults=[EMPTY_I], names=strings(b"first", b"second", b"third"),
        error="Name: second, Feature: i (data type: int64) is required but could not be found.")
case_v2("v2_dense_wrong_type", BATCH, dense=[("f", tf.int64, [2])], defaults=[EMPTY_I],
        error="Data types don't match. Data type: float but expected type: int64")
case_v2("v2_dense_wrong_type_named", BATCH, dense=[("s", tf.float32, [1])], defaults=[EMPTY_F],
        names=strings(b"n0", b"n1", b"n2"), error="Name: n0, Key: s, Index: 0.")
case_v2("v2_dense_wrong_count", BATCH, dense=[("f", tf.float32, [3])], defaults=[EMPTY_F],
        error="Key: f, Index: 0.  Number of float values != expected.  Values size: 2 but output "
        "shape: [3]")
case_v2("v2_dense_wrong_count_int", BATCH, dense=[("i", tf.int64, [1])],
        defaults=[np.array([0], np.int64)], error="Number of int64 values != expected")
case_v2("v2_dense_default_wrong_shape", BATCH, dense=[("f", tf.float32, [2])],
        defaults=[np.zeros([3], np.float32)], error="is not compatible with dense_shapes_[0]")
case_v2("v2_dense_empty_feature_default", strings(example(e=None)),
        dense=[("e", tf.float32, [1])], defaults=[np.array([5], np.float32)])
case_v2("v2_dense_empty_feature_required", strings(example(e=None)),
        dense=[("e", tf.float32, [1])], defaults=[EMPTY_F], error="is required")
case_v2("v2_dense_empty_feature_varlen", strings(example(e=None), example(e=[2.0])),
        dense=[("e", tf.float32, [None])], defaults=[np.array(0, np.float32)])
case_v2("v2_dense_empty_list_required", strings(example(e=())),
        dense=[("e", tf.float32, [1])], defaults=[EMPTY_F], error="Number of float values")

# Sparse features.
case_v2("v2_sparse_three", BATCH,
        sparse=[("v", tf.float32), ("r", tf.int64), ("s", tf.string)])
case_v2("v2_sparse_all_missing", BATCH, sparse=[("nope", tf.int64)])
case_v2("v2_sparse_empty_feature", strings(example(e=None), example(e=[3])),
        sparse=[("e", tf.int64)])
case_v2("v2_sparse_wrong_type", BATCH, sparse=[("s", tf.int64)],
        error="Data types don't match. Expected type: int64, Actual type: string")
case_v2("v2_sparse_wrong_type_named", BATCH, sparse=[("r", tf.float32)],
        names=strings(b"a", b"b", b"c"), error="Name: a, Key: r, Index: 0.")

# Ragged features, both split dtypes.
case_v2("v2_ragged_int32_splits", BATCH,
        ragged=[("v", tf.float32, tf.int32), ("r", tf.int64, tf.int32),
                ("s", tf.string, tf.int32)])
case_v2("v2_ragged_int64_splits", BATCH,
        ragged=[("v", tf.float32, tf.int64), ("nope", tf.int64, tf.int64)])
case_v2("v2_ragged_wrong_type", BATCH, ragged=[("r", tf.string, tf.int64)],
        error="Data types don't match")
case_v2("v2_ragged_empty_feature", strings(example(e=None), example(e=[1.0])),
        ragged=[("e", tf.float32, tf.int64)])

# All three kinds at once, with names.
case_v2("v2_mixed", BATCH, sparse=[("s", tf.string)],
        dense=[("f", tf.float32, [2]), ("v", tf.float32, [None])],
        ragged=[("r", tf.int64, tf.int32)],
        defaults=[EMPTY_F, np.array(0, np.float32)], names=strings(b"x", b"y", b"z"))

# A scalar `serialized`: no batch dimension.
ONE = strings(example(f=[1.0, 2.0], v=[3.0, 4.0, 5.0], s=[b"p", b"q"], r=[8, 9], w=[0.5]))[0]
case_v2("v2_scalar_mixed", np.array(ONE, dtype=object), sparse=[("s", tf.string)],
        dense=[("f", tf.float32, [2]), ("v", tf.float32, [None]), ("m", tf.int64, [])],
        ragged=[("r", tf.int64, tf.int64), ("w", tf.float32, tf.int32)],
        defaults=[EMPTY_F, np.array(0, np.float32), np.array(3, np.int64)])
case_v2("v2_scalar_named", np.array(ONE, dtype=object), dense=[("f", tf.float32, [3])],
        defaults=[EMPTY_F], names=np.array(b"solo", dtype=object),
        error="Key: f.  Can't parse serialized Example: Some float_list slice was not parsed.")
case_v2("v2_scalar_wrong_type", np.array(ONE, dtype=object), dense=[("r", tf.float32, [2])],
        defaults=[EMPTY_F], error="Key: r.  Data types don't match. Data type: int64 but expected "
        "type: float")
case_v2("v2_scalar_sparse_wrong_type", np.array(ONE, dtype=object), sparse=[("s", tf.float32)],
        error="Key: s.  Data types don't match. Expected type: float, Actual type: string")
case_v2("v2_scalar_too_many_strings", np.array(ONE, dtype=object), dense=[("s", tf.string, [1])],
        defaults=[EMPTY_S], error="Key: s.  Can't parse serialized Example: Parsing bytes_list "
        "failed.")
case_v2("v2_scalar_too_few_strings", np.array(ONE, dtype=object), dense=[("s", tf.string, [3])],
        defaults=[EMPTY_S], error="Key: s.  Can't parse serialized Example: Some bytes_list slice "
        "was not parsed.")
case_v2("v2_scalar_too_few_ints", np.array(ONE, dtype=object), dense=[("r", tf.int64, [3])],
        defaults=[EMPTY_I], error="Some int64_list slice was not parsed.")
case_v2("v2_scalar_varlen_stride", np.array(ONE, dtype=object), dense=[("v", tf.float32, [None, 2])],
        defaults=[np.array(0, np.float32)], error="Error while parsing feature with key v: number "
        "of elements should be divisible by 2, found 3 instead")
case_v2("v2_scalar_empty_feature", np.array(example(e=None), dtype=object),
        sparse=[("e", tf.int64)], dense=[("d", tf.float32, [1]), ("g", tf.string, [None])],
        ragged=[("h", tf.float32, tf.int32)],
        defaults=[np.array([2], np.float32), strings(b"x")])
case_v2("v2_scalar_missing", np.array(ONE, dtype=object), dense=[("x", tf.string, [])],
        defaults=[EMPTY_S], error="is required but could not be found")
case_v2("v2_scalar_malformed", np.array(example(k=[1, 2])[:-2], dtype=object),
        dense=[("x", tf.string, [])], defaults=[EMPTY_S],
        error="Could not parse example input, value: ")
case_v2("v2_scalar_features_past_end", np.array(b"\x0a\x09", dtype=object),
        dense=[("x", tf.string, [])], defaults=[strings(b"d").reshape([])])

# Empty batches and no features.
case_v2("v2_empty_batch", EMPTY_S, sparse=[("s", tf.string)],
        dense=[("f", tf.float32, [2]), ("v", tf.int64, [None, 3])],
        ragged=[("r", tf.int64, tf.int32)],
        defaults=[EMPTY_F, np.array(1, np.int64)])
case_v2("v2_no_features", BATCH)
case_v2("v2_empty_example", strings(b"", b""), sparse=[("s", tf.float32)],
        dense=[("d", tf.int64, [])], defaults=[np.array(5, np.int64)])

# Input checks.
case_v2("v2_serialized_matrix", np.array([[ONE]], dtype=object), error="scalar or vector")
case_v2("v2_names_mismatch", BATCH, names=strings(b"a"),
        error="Expected names have the same shape as serialized")
case_v2("v2_dense_keys_count", BATCH, dense=[("f", tf.float32, [2])], defaults=[EMPTY_F],
        keys=[EMPTY_S, strings(b"f", b"g"), EMPTY_S],
        error="Expected len(dense_keys) == len(dense_types)")
case_v2("v2_sparse_keys_count", BATCH, sparse=[("v", tf.float32)],
        keys=[EMPTY_S, EMPTY_S, EMPTY_S], error="Expected len(sparse_keys) == num_sparse")
case_v2("v2_ragged_keys_count", BATCH, keys=[EMPTY_S, EMPTY_S, strings(b"r")],
        error="Expected len(ragged_keys) == len(ragged_value_types)")

# Malformed and unusual wire bytes.
GOOD_F = entry(b"f", float_feature(packed_floats([1.0, 2.0])))
case_v2("v2_malformed_truncated", strings(example(k=[1, 2])[:-3]),
        dense=[("k", tf.int64, [2])], defaults=[EMPTY_I],
        error="Could not parse example input, value: ")
case_v2("v2_malformed_garbage", strings(example(k=[1, 2]), b"\x07\x07"),
        dense=[("k", tf.int64, [2])], defaults=[EMPTY_I], names=strings(b"a", b"b"),
        error="Could not parse example input")
case_v2("v2_features_past_end", strings(b"\x0a\x09", b"\x0a\x10" + entry(b"k", int_feature(
    ld(1, varint(3))))), dense=[("k", tf.int64, [1])], defaults=[np.array([-1], np.int64)])
case_v2("v2_entry_past_end", strings(b"\x0a\x05\x0a\x20\x0a\x01k"),
        dense=[("k", tf.int64, [1])], defaults=[np.array([-1], np.int64)],
        error="Could not parse example input")
case_v2("v2_unknown_field_in_example", strings(raw_example(GOOD_F) + varint(2 << 3) + varint(5)),
        dense=[("f", tf.float32, [2])], defaults=[EMPTY_F])
case_v2("v2_unknown_field_in_features",
        strings(ld(1, GOOD_F + varint(2 << 3) + varint(5))),
        dense=[("f", tf.float32, [2])], defaults=[EMPTY_F], error="Could not parse example input")
case_v2("v2_entry_value_first", strings(ld(1, ld(1, ld(2, float_feature(
    packed_floats([5.0, 6.0]))) + ld(1, b"f")))),
        dense=[("f", tf.float32, [2])], defaults=[EMPTY_F])
case_v2("v2_entry_without_value", strings(ld(1, ld(1, ld(1, b"f")))),
        dense=[("f", tf.float32, [2])], defaults=[np.zeros([2], np.float32)],
        error="Could not parse example input")
case_v2("v2_entry_extra_field", strings(ld(1, ld(1, ld(1, b"f") + ld(2, b"") + ld(1, b"g")))),
        dense=[("f", tf.float32, [2])], defaults=[np.zeros([2], np.float32)],
        error="Could not parse example input")
case_v2("v2_entry_key_twice", strings(ld(1, ld(1, ld(1, b"f") + ld(1, b"g")))),
        dense=[("f", tf.float32, [2])], defaults=[np.zeros([2], np.float32)])
case_v2("v2_two_features_fields", strings(raw_example(GOOD_F) + raw_example(
    entry(b"g", int_feature(ld(1, varint(4)))))),
        dense=[("f", tf.float32, [2]), ("g", tf.int64, [1])], defaults=[EMPTY_F, EMPTY_I])
case_v2("v2_duplicate_key_last_wins", strings(raw_example(
    GOOD_F, entry(b"f", float_feature(packed_floats([3.0, 4.0]))))),
        dense=[("f", tf.float32, [2])], defaults=[EMPTY_F])
case_v2("v2_duplicate_key_sparse", strings(raw_example(
    entry(b"f", float_feature(packed_floats([3.0]))), GOOD_F)), sparse=[("f", tf.float32)])
case_v2("v2_unpacked_floats", strings(raw_example(
    entry(b"f", float_feature(unpacked_floats([1.5, -2.0, 8.0]))))),
        dense=[("f", tf.float32, [None])], defaults=[np.array(0, np.float32)])
case_v2("v2_unpacked_floats_sparse_ragged", strings(raw_example(
    entry(b"f", float_feature(unpacked_floats([1.5, -2.0]))),
    entry(b"g", float_feature(unpacked_floats([3.0]))))),
        sparse=[("f", tf.float32)], ragged=[("g", tf.float32, tf.int64)])
case_v2("v2_unpacked_ints", strings(raw_example(
    entry(b"k", int_feature(unpacked_ints([1, -5, 2**40]))))),
        dense=[("k", tf.int64, [3])], defaults=[EMPTY_I])
case_v2("v2_packed_ints_twice", strings(raw_example(
    entry(b"k", int_feature(ld(1, varint(1) + varint(2)) + ld(1, varint(3)))))),
        sparse=[("k", tf.int64)])
case_v2("v2_packed_floats_odd_length", strings(raw_example(
    entry(b"f", float_feature(ld(1, np.array([1.0, 2.0], "<f4").tobytes() + b"\x01"))))),
        sparse=[("f", tf.float32)])
case_v2("v2_float_list_bad_tag", strings(raw_example(
    entry(b"f", float_feature(varint(2 << 3) + varint(1))))),
        sparse=[("f", tf.float32)], error="Key: f, Index: 0.  Can't parse serialized Example.")
case_v2("v2_int_list_bad_tag_dense", strings(raw_example(
    entry(b"k", int_feature(varint(1 << 3 | 5) + b"\0\0\0\0")))),
        dense=[("k", tf.int64, [1])], defaults=[EMPTY_I], error="Can't parse serialized Example")
case_v2("v2_bytes_list_bad_tag_ragged", strings(raw_example(
    entry(b"s", ld(1, varint(1 << 3) + varint(3))))),
        ragged=[("s", tf.string, tf.int64)], error="Can't parse serialized Example")
case_v2("v2_feature_unknown_kind", strings(raw_example(entry(b"f", ld(4, b"")))),
        sparse=[("f", tf.float32)], error="Unsupported datatype")
case_v2("v2_feature_unknown_kind_unused", strings(raw_example(entry(b"f", ld(4, b"")))),
        sparse=[("g", tf.float32)])
case_v2("v2_scalar_bad_list", np.array(raw_example(
    entry(b"f", float_feature(varint(2 << 3) + varint(1)))), dtype=object),
        sparse=[("f", tf.float32)], error="Key: f.  Can't parse serialized Example")
case_v2("v2_scalar_bad_dense_list", np.array(raw_example(
    entry(b"k", int_feature(varint(2 << 3) + varint(1)))), dtype=object),
        dense=[("k", tf.int64, [1])], defaults=[EMPTY_I], error="Key: k.  Can't parse serialized Example")
# A key given for two features finds neither (TensorFlow's feature map keeps no duplicate).
case_v2("v2_key_twice_sparse_dense", BATCH, sparse=[("f", tf.float32)],
        dense=[("f", tf.float32, [2])], defaults=[EMPTY_F], error="is required")
case_v2("v2_key_twice_sparse", BATCH, sparse=[("f", tf.float32), ("f", tf.float32)])
case_v2("v2_key_twice_ragged_default", BATCH, ragged=[("i", tf.int64, tf.int32)],
        dense=[("i", tf.int64, [])], defaults=[np.array(-1, np.int64)])
case_v2("v2_bad_feature_unused", strings(raw_example(
    entry(b"x", float_feature(varint(2 << 3) + varint(1))), GOOD_F)),
        dense=[("f", tf.float32, [2])], defaults=[EMPTY_F])


# ---- ParseExample (v1): keys as lists of scalars --------------------------------------
def v1(sparse=(), dense=()):

  def build(serialized, names, *rest):
    ns, nd = len(sparse), len(dense)
    R.ParseExample(serialized=serialized, names=names, sparse_keys=list(rest[:ns]),
                   dense_keys=list(rest[ns:ns + nd]), dense_defaults=list(rest[ns + nd:]),
                   sparse_types=[t for _, t in sparse], dense_shapes=[s for _, _, s in dense])
    return last_op(None)

  return build


def case_v1(name, serialized, sparse=(), dense=(), defaults=(), names=None, error=None):
  names = strings() if names is None else names
  inputs = ([serialized, names] + [np.array(k, dtype=object) for k, _ in sparse] +
            [np.array(k, dtype=object) for k, _, _ in dense] + list(defaults))
  if error:
    expect_error(name, v1(sparse, dense), inputs, error)
  else:
    assert w.add(name, v1(sparse, dense), inputs) == 0, name


case_v1("v1_mixed", BATCH, sparse=[(b"s", tf.string), (b"r", tf.int64)],
        dense=[(b"f", tf.float32, [2]), (b"v", tf.float32, [None])],
        defaults=[EMPTY_F, np.array(-1, np.float32)])
case_v1("v1_dense_default", strings(example(), example(k=[2])),
        dense=[(b"k", tf.int64, [1])], defaults=[np.array([9], np.int64)])
case_v1("v1_missing_named", GAPPY, dense=[(b"i", tf.int64, [1])], defaults=[EMPTY_I],
        names=strings(b"a", b"b", b"c"), error="is required but could not be found")
case_v1("v1_scalar_serialized", np.array(example(), dtype=object),
        dense=[(b"k", tf.int64, [1])], defaults=[np.array([9], np.int64)],
        error="Expected serialized to be a vector")
case_v1("v1_empty_batch", EMPTY_S, sparse=[(b"s", tf.float32)],
        dense=[(b"k", tf.int64, [2])], defaults=[EMPTY_I])
case_v1("v1_malformed", strings(b"\x0a"), sparse=[(b"s", tf.float32)],
        error="Could not parse example input")


# ---- ParseSingleExample: keys as attrs, a scalar input --------------------------------
def single(sparse=(), dense=()):

  def build(serialized, *defaults):
    R.ParseSingleExample(serialized=serialized, dense_defaults=list(defaults),
                         num_sparse=len(sparse), sparse_keys=[k for k, _ in sparse],
                         dense_keys=[k for k, _, _ in dense],
                         sparse_types=[t for _, t in sparse],
                         dense_shapes=[s for _, _, s in dense])
    return last_op(None)

  return build


def case_single(name, serialized, sparse=(), dense=(), defaults=(), error=None):
  inputs = [serialized] + list(defaults)
  if error:
    expect_error(name, single(sparse, dense), inputs, error)
  else:
    assert w.add(name, single(sparse, dense), inputs) == 0, name


ONE_T = np.array(ONE, dtype=object)
case_single("single_mixed", ONE_T, sparse=[("s", tf.string), ("r", tf.int64)],
            dense=[("f", tf.float32, [2]), ("v", tf.float32, [None]), ("d", tf.int64, [2])],
            defaults=[EMPTY_F, np.array(-1, np.float32), np.array([1, 2], np.int64)])
case_single("single_missing", ONE_T, dense=[("x", tf.float32, [1])], defaults=[EMPTY_F],
            error="is required but could not be found")
case_single("single_wrong_type", ONE_T, sparse=[("f", tf.int64)],
            error="Data types don't match")
case_single("single_wrong_count", ONE_T, dense=[("v", tf.float32, [2])], defaults=[EMPTY_F],
            error="Key: v.  Can't parse serialized Example: Some float_list slice was not parsed.")
case_single("single_vector_input", strings(ONE), dense=[("f", tf.float32, [2])],
            defaults=[EMPTY_F], error="Expected serialized to be a scalar")
case_single("single_malformed", np.array(b"\x0a\x02\x0a", dtype=object),
            sparse=[("s", tf.string)], error="Could not parse example input")
case_single("single_empty", np.array(b"", dtype=object), sparse=[("s", tf.string)],
            dense=[("d", tf.string, [])], defaults=[strings(b"z").reshape([])])

# ---- SerializeTensor and ParseTensor ---------------------------------------------------
def parse_tensor(out_type):
  return lambda s: R.ParseTensor(serialized=s, out_type=out_type)


SER_VALUES = {
    "float": np.array([[1.5, -2.0, np.inf], [0.0, -0.0, np.nan]], np.float32),
    "double": np.array([1e300, -3.25], np.float64),
    "half": np.array([1.5, 65504, -0.0], np.float16),
    "bfloat16": tf.constant([1.5, -3.0], tf.bfloat16).numpy(),
    "int8": np.array([-128, 127, 0], np.int8),
    "uint8": np.array([[0, 255]], np.uint8),
    "int16": np.array([-32768, 5], np.int16),
    "uint16": np.array([65535], np.uint16),
    "int32": np.array([[[-7]]], np.int32),
    "uint32": np.array([4294967295, 1], np.uint32),
    "int64": np.array([-2**63, 2**63 - 1], np.int64),
    "uint64": np.array([2**64 - 1], np.uint64),
    "bool": np.array([True, False, True]),
    "complex64": np.array([1 + 2j, -3.5j], np.complex64),
    "complex128": np.array([1e-300 + 2j], np.complex128),
    "string": strings(b"a", b"", b"\x00\xff", b"long string " * 5),
}
for dname, value in SER_VALUES.items():
  w.add("serialize_" + dname, lambda x: R.SerializeTensor(tensor=x), [value])
  w.add("parse_" + dname, parse_tensor(tf.as_dtype(value.dtype) if dname != "bfloat16"
                                        else tf.bfloat16),
        [np.array(tf.io.serialize_tensor(value).numpy(), dtype=object)])
w.add("serialize_scalar", lambda x: R.SerializeTensor(tensor=x), [np.array(3.0, np.float32)])
w.add("serialize_empty", lambda x: R.SerializeTensor(tensor=x), [np.zeros([0, 3], np.int32)])
w.add("serialize_empty_string", lambda x: R.SerializeTensor(tensor=x),
      [np.zeros([2, 0], object)])


def proto_bytes(**fields):
  return np.array(tensor_pb2.TensorProto(**fields).SerializeToString(), dtype=object)


def shape_proto(*dims):
  return tensor_shape_pb2.TensorShapeProto(
      dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=d) for d in dims])


w.add("parse_float_val", parse_tensor(tf.float32),
      [proto_bytes(dtype=types_pb2.DT_FLOAT, tensor_shape=shape_proto(2, 2), float_val=[1, 2])])
w.add("parse_int_val_int16", parse_tensor(tf.int16),
      [proto_bytes(dtype=types_pb2.DT_INT16, tensor_shape=shape_proto(3), int_val=[4, -5, 6])])
w.add("parse_string_val", parse_tensor(tf.string),
      [proto_bytes(dtype=types_pb2.DT_STRING, tensor_shape=shape_proto(2), string_val=[b"x", b"y"])])
w.add("parse_empty_proto_float", parse_tensor(tf.float32), [np.array(b"", dtype=object)])
expect_error("parse_type_mismatch", parse_tensor(tf.int32),
             [np.array(tf.make_tensor_proto(np.float32(1)).SerializeToString(), dtype=object)],
             "Type mismatch between parsed tensor (float) and dtype (int32)")
expect_error("parse_malformed", parse_tensor(tf.float32), [np.array(b"\x0a\x05", dtype=object)],
             "Could not parse `serialized` as TensorProto")
expect_error("parse_not_scalar", parse_tensor(tf.float32), [strings(b"", b"")],
             "Expected `serialized` to be a scalar")
expect_error("parse_content_size", parse_tensor(tf.float32),
             [proto_bytes(dtype=types_pb2.DT_FLOAT, tensor_shape=shape_proto(3),
                          tensor_content=b"\0" * 8)], "")

w.write()
