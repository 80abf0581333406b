"""Writes fixtures/strings.pbtxt: AsString and the StringToHashBucket ops in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_strings.py (needs TensorFlow 2.x and numpy).
Outputs are strings and int64 buckets, compared exactly. error_substr is checked here
against TensorFlow's message. AsString of DT_VARIANT is not recorded: a variant cannot be fed
through a placeholder. No case reaches the parallel path (32K elements); each element is
computed alone, so the split cannot change a value. No input is subnormal: TensorFlow's
session threads flush subnormals to zero, so it prints them as 0.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261210)
w = CaseWriter("strings")


def as_string(**attrs):
  return lambda x: R.AsString(input=x, **attrs)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0 and _quote(substr)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access


# ---- AsString ------------------------------------------------------------------------
F = np.array([1.5, -2.25, 1e10, 123456.789, 0.1, -0.0, 0.0, 1e-7, 3.0e38, np.nan, np.inf,
              -np.inf], np.float32)
FLOAT_ATTRS = {
    "default": {},
    "precision2": dict(precision=2),
    "precision0": dict(precision=0),
    "scientific": dict(scientific=True),
    "scientific_p3": dict(scientific=True, precision=3),
    "shortest": dict(shortest=True),
    "shortest_p3": dict(shortest=True, precision=3),
    "width12": dict(width=12),
    "fill_zero": dict(width=12, fill="0"),
    "fill_minus": dict(width=12, fill="-"),
    "fill_space": dict(width=12, fill=" "),
    "fill_plus": dict(width=12, fill="+"),
    "fill_hash": dict(width=12, fill="#"),
    "fill_hash_p0": dict(width=5, fill="#", precision=0),
    "fill_hash_shortest": dict(width=9, fill="#", shortest=True),
    "fill_no_width": dict(fill="0"),
    "width0": dict(width=0),
}
for name, attrs in FLOAT_ATTRS.items():
  w.add("float_" + name, as_string(**attrs), [F])
for name in ["default", "precision2", "scientific", "shortest", "fill_zero", "fill_plus"]:
  w.add("double_" + name, as_string(**FLOAT_ATTRS[name]),
        [np.array([1.5, -2.25, 1e100, 1 / 3, 2.5e-300, -0.0, np.nan, -np.inf], np.float64)])
H = np.array([1.5, 65504, 0.1, -0.0, np.nan, np.inf], np.float16)
w.add("half_default", as_string(), [H])
w.add("half_shortest", as_string(shortest=True), [H])
w.add("half_width", as_string(width=9, precision=1, fill="0"), [H])
BF = tf.constant([1.5, 3.140625, -100.0, 1e30, 0.1], tf.bfloat16).numpy()
w.add("bfloat16_default", as_string(), [BF])
w.add("bfloat16_scientific", as_string(scientific=True, precision=2), [BF])
C = np.array([1.5 + 2j, -1 - 0.5j, complex(np.inf, np.nan)], np.complex64)
w.add("complex64_default", as_string(), [C])
w.add("complex64_width", as_string(width=8, precision=1, fill="0"), [C])
w.add("complex128_shortest", as_string(shortest=True), [C.astype(np.complex128) / 3])

for dt in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]:
  info = np.iinfo(dt)
  v = np.array([0, 1, 42, info.max, info.min, info.min + 1 if info.min else 7], dt)
  name = dt.__name__
  w.add(name + "_default", as_string(), [v])
  w.add(name + "_width", as_string(width=6), [v])
  w.add(name + "_fill_zero", as_string(width=6, fill="0"), [v])
  w.add(name + "_fill_minus", as_string(width=6, fill="-"), [v])
for fill in [" ", "+", "#"]:
  w.add("int32_fill_%d" % ord(fill), as_string(width=5, fill=fill),
        [np.array([-42, 0, 42], np.int32)])
  w.add("uint32_fill_%d" % ord(fill), as_string(width=5, fill=fill),
        [np.array([0, 42], np.uint32)])
w.add("int64_matrix", as_string(), [rng.integers(-10**12, 10**12, (3, 4)).astype(np.int64)])
w.add("int32_scalar", as_string(width=3), [np.int32(-7)])
w.add("int32_empty", as_string(), [np.zeros((0, 3), np.int32)])

B = np.array([[True, False], [False, True]])
w.add("bool_default", as_string(), [B])
w.add("bool_width_ignored", as_string(width=7, fill="-"), [B])

S = np.array([b"abcdef", b"", b"x", "h\xe9llo".encode()], dtype=object)
w.add("string_passthrough", as_string(), [S])
w.add("string_passthrough_precision", as_string(precision=2), [S])
w.add("string_width", as_string(width=8), [S])
w.add("string_width_precision", as_string(width=8, precision=3), [S])
w.add("string_width_shortest", as_string(width=4, shortest=True, precision=1), [S])
w.add("string_fill_minus", as_string(width=8, fill="-"), [S])
w.add("string_fill_zero", as_string(width=8, fill="0"), [S])
w.add("string_fill_hash", as_string(width=8, fill="#"), [S])
w.add("string_empty", as_string(width=3), [np.zeros((2, 0), dtype=object).astype(bytes)])

I8 = np.array([5], np.int8)
expect_error("err_precision_int", as_string(precision=2), [I8],
             "precision not supported for datatype int8")
expect_error("err_scientific_int", as_string(scientific=True), [I8],
             "scientific and shortest format not supported for datatype int8")
expect_error("err_shortest_bool", as_string(shortest=True), [np.array([True])],
             "scientific and shortest format not supported for datatype bool")
expect_error("err_precision_uint64", as_string(precision=1), [np.array([1], np.uint64)],
             "precision not supported for datatype uint64")
expect_error("err_fill_long", as_string(fill="ab"), [F[:2]],
             "Fill string must be one or fewer characters")
expect_error("err_scientific_and_shortest", as_string(scientific=True, shortest=True), [F[:2]],
             "Cannot select both scientific and shortest notation")
expect_error("err_fill_unsupported", as_string(fill="x", width=3), [F[:2]],
             'Fill argument not supported: "x"')
# The dtype checks come before the fill checks.
expect_error("err_order_precision_before_fill", as_string(precision=3, fill="ab"), [I8],
             "precision not supported for datatype int8")
expect_error("err_order_fill_before_both", as_string(fill="ab", scientific=True, shortest=True),
             [F[:1]], "Fill string must be one or fewer characters")

# ---- StringToHashBucket* ------------------------------------------------------------------
WORDS = np.array([b"", b"a", b"hello", b"world", b"keras", "\xfcber".encode(), b"\x00\xff",
                  b"0123456789abcdef", b"the quick brown fox jumps over the lazy dog",
                  bytes(range(256))], dtype=object)
LONG = np.array([bytes(rng.integers(0, 256, n, dtype=np.uint8)) for n in
                 [9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 500]], dtype=object)
for buckets in [1, 10, 1000, 2**31, 2**63 - 1]:
  w.add("fast_%d" % buckets,
        lambda x, b=buckets: R.StringToHashBucketFast(input=x, num_buckets=b), [WORDS])
w.add("fast_lengths", lambda x: R.StringToHashBucketFast(input=x, num_buckets=2**63 - 1), [LONG])
w.add("fast_matrix", lambda x: R.StringToHashBucketFast(input=x, num_buckets=100),
      [WORDS[:8].reshape(2, 4)])
w.add("fast_scalar", lambda x: R.StringToHashBucketFast(input=x, num_buckets=7),
      [np.array(b"scalar", dtype=object)])
w.add("fast_empty", lambda x: R.StringToHashBucketFast(input=x, num_buckets=7),
      [np.zeros((0,), dtype=object).astype(bytes)])
for key in [[0, 0], [1, 2], [0x0123456789abcdef, -5], [-1, 2**63 - 1]]:
  for buckets in [10, 2**63 - 1]:
    w.add("strong_%d_%d_%d" % (key[0] & 0xffff, key[1] & 0xffff, buckets),
          lambda x, k=key, b=buckets: R.StringToHashBucketStrong(input=x, num_buckets=b, key=k),
          [WORDS])
w.add("strong_lengths",
      lambda x: R.StringToHashBucketStrong(input=x, num_buckets=2**63 - 1, key=[3, 4]), [LONG])
expect_error("err_strong_key_1", lambda x: R.StringToHashBucketStrong(input=x, num_buckets=3,
                                                                      key=[1]),
             [WORDS], "Key must have 2 elements")
expect_error("err_strong_key_3", lambda x: R.StringToHashBucketStrong(input=x, num_buckets=3,
                                                                      key=[1, 2, 3]),
             [WORDS], "Key must have 2 elements")
for buckets in [1, 10, 2**63 - 1]:
  w.add("legacy_%d" % buckets,
        lambda x, b=buckets: R.StringToHashBucket(string_tensor=x, num_buckets=b), [WORDS])
w.add("legacy_lengths", lambda x: R.StringToHashBucket(string_tensor=x, num_buckets=2**63 - 1),
      [LONG])

w.write()
