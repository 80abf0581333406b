"""Writes fixtures/string_transform.pbtxt: TensorFlow's string transforms.

StringJoin, ReduceJoin, StringLower/StringUpper, StringLength, StringStrip, Substr,
StringToNumber, EncodeBase64/DecodeBase64 and the regex ops (StaticRegexReplace,
RegexReplace, StaticRegexFullMatch, RegexFullMatch).

Run from anywhere: python3 tests/kernels/gen_string_transform.py (needs TensorFlow 2.x and
numpy). Every output is compared exactly (strings, ints, bools, and the floats of
StringToNumber, which both sides parse with absl's correctly rounded parser). Messages whose
text depends on the RE2 build (a bad pattern's error detail) are checked by prefix only.
"""
import base64
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("string_transform")


def S(*values):
  """A string array of `values` (str as UTF-8, bytes as given)."""
  return np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object)


def empty_strings(*shape):
  return np.zeros(shape, dtype=object).astype(bytes)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  # The substring must be TensorFlow's own words: check it against the recorded message.
  recorded = w._cases[-1].split("error_message: ", 1)[-1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert code != 0 and _quote(substr)[1:-1].rstrip() in recorded, (name, recorded)


# ---- StringJoin ----------------------------------------------------------------------------
def join(n, **attrs):
  return lambda *xs: R.StringJoin(inputs=list(xs[:n]), **attrs)


w.add("join_two_vectors", join(2), [S("a", "b", ""), S("x", "", "z")])
w.add("join_separator", join(3, separator=", "), [S("a", "b"), S("c", "d"), S("e", "f")])
w.add("join_scalar_broadcast", join(3, separator="-"),
      [np.array(b"pre", dtype=object), S("a", "b", "c"), np.array(b"post", dtype=object)])
w.add("join_matrix", join(2, separator="|"),
      [S("a", "b", "c", "d").reshape(2, 2), np.array("\xe9".encode(), dtype=object)])
w.add("join_all_scalars", join(2, separator=" "),
      [np.array(b"hello", dtype=object), np.array(b"world", dtype=object)])
w.add("join_one", join(1, separator="!"), [S("a", "b")])
w.add("join_empty", join(2, separator="-"), [empty_strings(0, 2), np.array(b"x", dtype=object)])
w.add("join_nul_bytes", join(2, separator="\x00"), [S(b"a\x00"), S(b"\x00b")])
w.add("join_none", lambda: R.StringJoin(inputs=[], separator="-"), [])
expect_error("err_join_shapes", join(2), [S("a", "b"), S("c", "d", "e")],
             "Input shapes do not match: [2] vs. [3]")
expect_error("err_join_ranks", join(3), [np.array(b"s", dtype=object),
                                         S("a", "b").reshape(1, 2), S("c", "d")],
             "Input shapes do not match: [1,2] vs. [2]")

# ---- ReduceJoin ----------------------------------------------------------------------------
M = S(*"abcdef").reshape(2, 3)
T3 = S(*[chr(ord("a") + i) for i in range(24)]).reshape(2, 3, 4)


def reduce_join(**attrs):
  return lambda x, axes: R.ReduceJoin(inputs=x, reduction_indices=axes, **attrs)


I32 = lambda *v: np.array(v, np.int32)  # noqa: E731
w.add("rj_axis0", reduce_join(separator="-"), [M, I32(0)])
w.add("rj_axis1", reduce_join(), [M, I32(1)])
w.add("rj_scalar_axis", reduce_join(separator=" "), [M, np.int32(-1)])
w.add("rj_both_01", reduce_join(separator="-"), [M, I32(0, 1)])
w.add("rj_both_10", reduce_join(separator="-"), [M, I32(1, 0)])
w.add("rj_keep_dims", reduce_join(keep_dims=True, separator="+"), [M, I32(1)])
w.add("rj_keep_dims_all", reduce_join(keep_dims=True), [M, I32(-1, -2)])
w.add("rj_no_axes", reduce_join(separator="-"), [M, I32()])
w.add("rj_3d_20", reduce_join(separator=","), [T3, I32(2, 0)])
w.add("rj_3d_02", reduce_join(separator=","), [T3, I32(0, 2)])
w.add("rj_3d_1_keep", reduce_join(keep_dims=True, separator=","), [T3, I32(-2)])
w.add("rj_3d_all", reduce_join(separator=""), [T3, I32(1, 2, 0)])
w.add("rj_scalar_input", reduce_join(), [np.array(b"only", dtype=object), I32()])
w.add("rj_empty_reduced", reduce_join(separator="-"), [empty_strings(2, 0), I32(1)])
w.add("rj_empty_kept", reduce_join(separator="-"), [empty_strings(0, 3), I32(1)])
w.add("rj_axes_matrix", reduce_join(separator="-"), [T3, I32(0, 2).reshape(1, 2)])
expect_error("err_rj_axis_high", reduce_join(), [M, I32(2)],
             "Invalid reduction dimension 2 for input with 2 dimension(s)")
expect_error("err_rj_axis_low", reduce_join(), [M, I32(0, -3)],
             "Invalid reduction dimension -3 for input with 2 dimension(s)")
expect_error("err_rj_scalar_input_axis", reduce_join(), [np.array(b"s", dtype=object), I32(0)],
             "Invalid reduction dimension 0 for input with 0 dimension(s)")
expect_error("err_rj_duplicate", reduce_join(), [M, I32(1, -1)],
             "Duplicate reduction dimension -1")

# ---- StringLower / StringUpper -------------------------------------------------------------
TEXT = S("Hello, World!", "", "ABC xyz 123", "\xc0\xc9\xce \u03a3\u0391\u03a3 \u0130 \u1e9e",
         "\xe0\xe9\xee \u03c3\u03b1\u03c2 \xdf \ufb01 \u01c6", b"a\xff\xfeB", b"Ab\x00Cd",
         "\u0130stanbul", "\u01c5", "ΟΔΥΣΣΕΥΣ", "ǰ̌")
for encoding in ["", "utf-8"]:
  suffix = "ascii" if not encoding else "utf8"
  w.add("lower_" + suffix, lambda x, e=encoding: R.StringLower(input=x, encoding=e), [TEXT])
  w.add("upper_" + suffix, lambda x, e=encoding: R.StringUpper(input=x, encoding=e), [TEXT])
w.add("lower_matrix", lambda x: R.StringLower(input=x), [S("AB", "Cd", "eF", "GH").reshape(2, 2)])
w.add("upper_scalar", lambda x: R.StringUpper(input=x, encoding="utf-8"),
      [np.array("stra\xdfe".encode(), dtype=object)])
w.add("lower_empty", lambda x: R.StringLower(input=x), [empty_strings(0)])
expect_error("err_lower_encoding", lambda x: R.StringLower(input=x, encoding="latin1"), [TEXT],
             "only utf-8 or '' (no encoding) is supported, received latin1")
expect_error("err_upper_encoding_case", lambda x: R.StringUpper(input=x, encoding="UTF-8"),
             [TEXT], "only utf-8 or '' (no encoding) is supported, received UTF-8")

# ---- StringLength / StringStrip ------------------------------------------------------------
LENGTHS = S("", "a", "h\xe9llo", "\u20ac\U0001f600", b"\xff\xfe\x80", b"\xe2\x82", b"a\x00b")
for unit in ["BYTE", "UTF8_CHAR"]:
  w.add("length_" + unit.lower(), lambda x, u=unit: R.StringLength(input=x, unit=u), [LENGTHS])
w.add("length_default_matrix", lambda x: R.StringLength(input=x), [LENGTHS[:6].reshape(2, 3)])
w.add("length_scalar", lambda x: R.StringLength(input=x, unit="UTF8_CHAR"),
      [np.array("\xe9t\xe9".encode(), dtype=object)])
w.add("length_empty", lambda x: R.StringLength(input=x), [empty_strings(3, 0)])
w.add("strip", lambda x: R.StringStrip(input=x),
      [S("  a b  ", "\t\n\v\f\rx\r\n", "", "   ", b"\x00 a \x00", "\xa0y\xa0",
         "\u3000z", "no_space")])
w.add("strip_scalar", lambda x: R.StringStrip(input=x), [np.array(b" s ", dtype=object)])
w.add("strip_empty", lambda x: R.StringStrip(input=x), [empty_strings(0, 2)])

# ---- Substr --------------------------------------------------------------------------------
def substr(unit="BYTE"):
  return lambda x, p, n: R.Substr(input=x, pos=p, len=n, unit=unit)


WORDS = S("hello", "world!", "ab", "")
for dt in [np.int32, np.int64]:
  name = dt.__name__
  w.add("substr_elementwise_" + name, substr(),
        [WORDS, np.array([1, -2, 0, 0], dt), np.array([2, 5, 9, 1], dt)])
  w.add("substr_scalar_" + name, substr(), [WORDS[:3], dt(1), dt(3)])
w.add("substr_negative_pos", substr(), [WORDS[:3], np.int32(-2), np.int32(3)])
w.add("substr_pos_at_end", substr(), [WORDS, np.array([5, 6, 2, 0]), np.array([3, 3, 3, 3])])
w.add("substr_pos_minus_size", substr(), [WORDS[:3], np.array([-5, -6, -2]),
                                          np.array([2, 2, 2])])
w.add("substr_negative_len", substr(), [WORDS, np.int32(0), np.int32(-1)])
w.add("substr_negative_len_neg_pos", substr(), [WORDS[:3], np.int64(-2), np.int64(-5)])
w.add("substr_huge_len", substr(), [WORDS[:3], np.int64(1), np.int64(2**62)])
w.add("substr_matrix_same", substr(),
      [S("abc", "def", "ghi", "jkl").reshape(2, 2), np.array([[0, 1], [2, 3]]),
       np.array([[1, 1], [1, 1]])])
w.add("substr_bcast_rows", substr(), [S("hello", "abcde").reshape(2, 1),
                                      np.array([0, 1, 2]), np.array([1, 2, 3])])
w.add("substr_bcast_cols", substr(), [S("hello", "abcde"), np.array([[0], [1]]),
                                      np.array([[1], [2]])])
w.add("substr_bcast_vector_of_one", substr(), [S("hello", "abcde", "xyz"), np.array([1]),
                                               np.array([2])])
w.add("substr_bcast_input_of_one", substr(), [S("hello"), np.array([0, 1, 4]),
                                              np.array([5, 1, 9])])
w.add("substr_bcast_scalar_input", substr(), [np.array(b"hello", dtype=object),
                                              np.array([1, 2]), np.array([1, 1])])
w.add("substr_bcast_2d_utf8", substr("UTF8_CHAR"),
      [S("h\xe9llo", "\u20acuro").reshape(2, 1), np.array([0, 1, -2]), np.array([2, 2, 2])])
w.add("substr_empty_input", substr(), [empty_strings(0), np.int32(0), np.int32(1)])
w.add("substr_empty_bcast", substr(), [empty_strings(0), np.array([0]), np.array([1])])
U = S("h\xe9llo w\xf6rld", "\u20ac\U0001f600x", "", b"a\xffb\xc3", "abc")
w.add("substr_utf8_elementwise", substr("UTF8_CHAR"),
      [U, np.array([1, 1, 0, 1, 3]), np.array([4, 1, 5, 2, 1])])
w.add("substr_utf8_negative", substr("UTF8_CHAR"),
      [U, np.array([-4, -1, 0, -3, -3]), np.array([10, 1, 0, 2, 1])])
w.add("substr_utf8_negative_len", substr("UTF8_CHAR"),
      [U[:2], np.array([1, 0]), np.array([-1, -3])])
w.add("substr_utf8_scalar", substr("UTF8_CHAR"), [U[:2], np.int64(-2), np.int64(1)])
# Random positions and lengths within and around the strings, both units; TensorFlow's
# error, when one is out of range, is recorded as the case's outcome.
rng = np.random.default_rng(20261207)
RANDOM_WORDS = S("hello", "h\xe9llo", "\u20ac\U0001f600x", "", "ab", b"a\xffb\xc3z")
for k in range(12):
  unit = "UTF8_CHAR" if k % 2 else "BYTE"
  sizes = [len(v) if unit == "BYTE" else sum((c & 0xC0) != 0x80 for c in v) for v in RANDOM_WORDS]
  pos = np.array([rng.integers(-n, n + 1) for n in sizes], np.int32)
  length = np.array([rng.integers(-1 if unit == "BYTE" else 0, n + 2) for n in sizes], np.int32)
  w.add("random_substr_%d" % k, substr(unit), [RANDOM_WORDS, pos, length])

expect_error("err_substr_pos_range", substr(), [WORDS[:3], np.int32(3), np.int32(3)],
             "pos 3 out of range for string b'ab' at index 2")
expect_error("err_substr_neg_pos_range", substr(),
             [WORDS[:3], np.array([-6, 0, 0]), np.array([1, 1, 1])],
             "pos -6 out of range for string b'hello' at index 0")
expect_error("err_substr_bcast_range_1d", substr(), [S("hello"), np.array([0, 9]),
                                                     np.array([1, 1])],
             "pos 9 out of range for string b'hello' at index 1")
expect_error("err_substr_bcast_range_2d", substr(), [S("hello", "ab").reshape(2, 1),
                                                     np.array([0, 3]), np.array([1, 1])],
             "pos 3 out of range for string b'ab' at index (1, 1)")
expect_error("err_substr_utf8_range", substr("UTF8_CHAR"), [S("h\xe9llo"), np.array([6]),
                                                            np.array([1])],
             "pos 6 out of range for string at index 0")
expect_error("err_substr_utf8_neg_range", substr("UTF8_CHAR"), [S("ab", "h\xe9llo"),
                                                                np.int32(-3), np.int32(1)],
             "pos -3 out of range for string at index 0")
expect_error("err_substr_utf8_neg_len", substr("UTF8_CHAR"), [S("hello"), np.array([-2]),
                                                              np.array([-1])],
             "pos -2 out of range for string at index 0")
expect_error("err_substr_utf8_bcast_2d", substr("UTF8_CHAR"),
             [S("abc", "a").reshape(2, 1), np.array([0, 2]), np.array([1, 1])],
             "pos 2 out of range for string at index 1")
expect_error("err_substr_shapes", substr(), [WORDS[:3], np.array([1, 2, 0]), np.int64(3)],
             "pos and len should have the same shape, got: [3] vs. []")
expect_error("err_substr_empty_pos", substr(), [WORDS, np.zeros(0, np.int32),
                                                np.zeros(0, np.int32)],
             "Incompatible shapes: [4] vs. [0]")
w.add("substr_empty_pos_empty_input", substr(), [empty_strings(0), np.zeros(0, np.int32),
                                                 np.zeros(0, np.int32)])
w.add("substr_empty_pos_scalar_input", substr(), [np.array(b"ab", dtype=object),
                                                  np.zeros(0, np.int32), np.zeros(0, np.int32)])
expect_error("err_substr_bcast", substr(), [WORDS[:3], np.array([0, 1]), np.array([1, 2])],
             "Incompatible shapes: [3] vs. [2]")
expect_error("err_substr_rank3", substr(), [S("hello").reshape(1, 1, 1), np.array([0, 1]),
                                            np.array([1, 2])],
             "Substr broadcast not implemented for 3 dimensions")

# ---- StringToNumber ------------------------------------------------------------------------
def to_number(dtype):
  return lambda x: R.StringToNumber(string_tensor=x, out_type=dtype)


FLOATS = S("1", "  1.5  ", "-0.25", "+3", ".5", "5.", "1e5", "1E-3", "0x10", "-0X1f", "0x1p3",
           "0x.8", "inf", "-INF", "+Infinity", "nan", "NaN", "1e400", "-1e400", "1e-50",
           "3.4028235e38", "3.4028236e38", "0.1", "123456789012345678901234567890",
           "\t7\n", "1e-40", "4.9e-324", "2.2250738585072014e-308")
w.add("to_number_float", to_number(tf.float32), [FLOATS])
w.add("to_number_double", to_number(tf.float64), [FLOATS])
w.add("to_number_default_matrix", lambda x: R.StringToNumber(string_tensor=x),
      [S("1", "2.5", "-3", "4e1").reshape(2, 2)])
INTS = S("0", "1", " 12 ", "+5", "007", "2147483647", "\v5\f")
SIGNED = S("-5", "-0", "-2147483648")
w.add("to_number_int32", to_number(tf.int32), [np.concatenate([INTS, SIGNED])])
w.add("to_number_int64", to_number(tf.int64),
      [np.concatenate([INTS, SIGNED, S("9223372036854775807", "-9223372036854775808",
                                       "4294967296")])])
w.add("to_number_uint32", to_number(tf.uint32), [np.concatenate([INTS, S("4294967295")])])
w.add("to_number_uint64", to_number(tf.uint64),
      [np.concatenate([INTS, S("18446744073709551615", "9223372036854775808")])])
w.add("to_number_scalar", to_number(tf.int32), [np.array(b"42", dtype=object)])
w.add("to_number_empty", to_number(tf.float64), [empty_strings(0, 4)])
MSG = "StringToNumberOp could not correctly convert string: "
for dtype, bad in [(tf.float32, ["", "   ", "- 1", ".", "1e", " 1 2", "abc", "infinit", "+-1",
                                  b"1\x00", "1,5", "0x"]),
                   (tf.float64, ["", "1.0.0", "nan(", "e5"]),
                   (tf.int32, ["", "1.0", "0x10", "2147483648", "-2147483649", "+", "--1", "1e3",
                               " "]),
                   (tf.int64, ["9223372036854775808", "-9223372036854775809", "12a"]),
                   (tf.uint32, ["-5", "-0", "4294967296"]),
                   (tf.uint64, ["-1", "18446744073709551616"])]:
  for k, s in enumerate(bad):
    # The message quotes the string; a NUL byte in it is checked up to the NUL.
    text = s.decode() if isinstance(s, bytes) else s
    expect_error("err_to_number_%s_%d" % (dtype.name, k), to_number(dtype), [S("1", s, "x")],
                 MSG + text.split("\x00")[0])
expect_error("err_to_number_first_bad", to_number(tf.int32), [S("1", "x", "y")], MSG + "x")

# ---- EncodeBase64 / DecodeBase64 -----------------------------------------------------------
RAW = S("", "a", "ab", "abc", "abcd", b"\xff\xfe\xfd", b"\x00", bytes(range(256)),
        "The quick brown fox jumps over the lazy dog")
for pad in [False, True]:
  w.add("encode_base64_pad_%s" % str(pad).lower(), lambda x, p=pad: R.EncodeBase64(input=x, pad=p),
        [RAW])
w.add("encode_base64_matrix", lambda x: R.EncodeBase64(input=x), [RAW[:4].reshape(2, 2)])
w.add("encode_base64_empty", lambda x: R.EncodeBase64(input=x, pad=True), [empty_strings(0)])
w.add("decode_base64", lambda x: R.DecodeBase64(input=x),
      [S("", "YQ", "YQ==", "YWI", "YWI=", "YWJj", "YWJjZA", "__79", "-_8", "AA", "YR", "YWJjYR==")])
w.add("decode_base64_every_byte", lambda x: R.DecodeBase64(input=x),
      [np.array([base64.urlsafe_b64encode(v) for v in RAW], dtype=object)])
w.add("decode_base64_scalar", lambda x: R.DecodeBase64(input=x),
      [np.array(b"aGVsbG8", dtype=object)])
for k, bad in enumerate(["Y", "YQ=", "YQ===", "YW=I", "+/8", "YW I", "YWJj\n", "=", "YWJj=",
                         "====", "YQ==YQ==", "+/8AY", "YWJjY"]):
  code = w.add("err_decode_base64_%d" % k, lambda x: R.DecodeBase64(input=x), [S("YQ", bad)])
  assert code != 0, bad

# ---- Regular expressions -------------------------------------------------------------------
SENTENCES = S("Hello, World! It's 2024.", "", "a.b.c", "caf\xe9 na\xefve", "aaa",
              "  many   spaces  ", "[brackets] and \\back\\slashes")
KERAS_PUNCT = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
for name, pattern, rewrite in [("punct", KERAS_PUNCT, ""), ("letters", "[a-z]", "*"),
                               ("groups", r"(\w+)\.(\w+)", r"\2.\1"),
                               ("whole_match", "a+", r"<\0>"), ("empty_pattern", "", "-"),
                               ("anchor", "^", ">"), ("spaces", r"\s+", " "),
                               ("unicode", "\xe9|\xef", "?"), ("escape_rewrite", "a", r"\\"),
                               ("missing_group", "(a)", r"\2"), ("star", "a*", "x")]:
  for global_ in [True, False]:
    suffix = "" if global_ else "_first"
    w.add("static_replace_%s%s" % (name, suffix),
          lambda x, p=pattern, r=rewrite, g=global_: R.StaticRegexReplace(
              input=x, pattern=p, rewrite=r, replace_global=g), [SENTENCES])
    w.add("replace_%s%s" % (name, suffix),
          lambda x, p, r, g=global_: R.RegexReplace(input=x, pattern=p, rewrite=r,
                                                    replace_global=g),
          [SENTENCES, np.array(pattern.encode(), dtype=object),
           np.array(rewrite.encode(), dtype=object)])
w.add("static_replace_matrix", lambda x: R.StaticRegexReplace(input=x, pattern="b", rewrite="B"),
      [S("abc", "bbb", "", "cab").reshape(2, 2)])
w.add("static_replace_empty", lambda x: R.StaticRegexReplace(input=x, pattern="b", rewrite="B"),
      [empty_strings(0)])
for name, pattern in [("word", r"\w+"), ("letters", "[a-z]*"), ("empty", ""), ("any", ".*"),
                      ("prefix", "a"), ("unicode", "caf. na.ve"), ("alternation", "aaa|a")]:
  w.add("static_full_match_" + name,
        lambda x, p=pattern: R.StaticRegexFullMatch(input=x, pattern=p), [SENTENCES])
  w.add("full_match_" + name, lambda x, p: R.RegexFullMatch(input=x, pattern=p),
        [SENTENCES, np.array(pattern.encode(), dtype=object)])
w.add("full_match_scalar", lambda x, p: R.RegexFullMatch(input=x, pattern=p),
      [np.array(b"abc", dtype=object), np.array(b"[a-c]+", dtype=object)])
w.add("full_match_empty_input", lambda x, p: R.RegexFullMatch(input=x, pattern=p),
      [empty_strings(2, 0), np.array(b"a", dtype=object)])
BAD = np.array(b"(", dtype=object)
expect_error("err_static_replace_pattern",
             lambda x: R.StaticRegexReplace(input=x, pattern="(", rewrite="x"), [SENTENCES],
             "Invalid pattern: (, error: ")
expect_error("err_replace_pattern",
             lambda x, p, r: R.RegexReplace(input=x, pattern=p, rewrite=r),
             [SENTENCES, BAD, np.array(b"x", dtype=object)], "Invalid pattern: (, error: ")
expect_error("err_replace_pattern_vector",
             lambda x, p, r: R.RegexReplace(input=x, pattern=p, rewrite=r),
             [SENTENCES, S("a"), np.array(b"x", dtype=object)],
             "Pattern must be scalar, but received [1]")
expect_error("err_replace_rewrite_vector",
             lambda x, p, r: R.RegexReplace(input=x, pattern=p, rewrite=r),
             [SENTENCES, np.array(b"a", dtype=object), S("x", "y")],
             "Rewrite must be scalar, but received [2]")
# The pattern is checked (and compiled) before the rewrite.
expect_error("err_replace_pattern_before_rewrite",
             lambda x, p, r: R.RegexReplace(input=x, pattern=p, rewrite=r),
             [SENTENCES, BAD, S("x", "y")], "Invalid pattern: (, error: ")
expect_error("err_static_full_match_pattern",
             lambda x: R.StaticRegexFullMatch(input=x, pattern="a{2,1}"), [SENTENCES],
             "Invalid pattern: a{2,1}, error: ")
expect_error("err_full_match_pattern", lambda x, p: R.RegexFullMatch(input=x, pattern=p),
             [SENTENCES, np.array(b"[z-a]", dtype=object)], "Invalid pattern: [z-a], error: ")
expect_error("err_full_match_pattern_vector", lambda x, p: R.RegexFullMatch(input=x, pattern=p),
             [SENTENCES, S("a", "b").reshape(1, 2)], "Pattern must be scalar, but received [1,2]")

w.write()
