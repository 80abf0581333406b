"""Writes fixtures/unicode.pbtxt: TensorFlow's Unicode ops.

UnicodeDecode, UnicodeDecodeWithOffsets (tf.strings.unicode_decode, unicode_split,
unicode_decode_with_offsets), UnicodeEncode, UnicodeTranscode and UnicodeScript: ASCII,
multi-byte text and emoji; the three UTF encodings TensorFlow writes and other encodings
ICU reads (latin1, UTF-16 with byte-order marks, Shift_JIS, ISO-2022-JP, UTF-7...); every
error policy, replacement characters (surrogates and U+0000 among them) and control
characters; malformed bytes (overlong forms, surrogates, truncated and stray sequences, values
past U+10FFFF) alone and in random strings; empty strings and inputs of rank 0 to 2; bad
splits and bad attrs.

Left out: UnicodeDecodeWithOffsets with Tsplits=int32, which aborts TensorFlow 2.21 (its
kernel views the int64 char_to_byte_starts as int32); kernels/cpu/strings/unicode_ops_test.cc
checks Sluice's answer (the int64 offsets, as with int64 splits).

Run from anywhere: python3 tests/kernels/gen_unicode.py (needs TensorFlow 2.x and numpy).
Every output is compared exactly.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("unicode")


def S(*values):
  """A string array of `values` (str as UTF-8, bytes as given)."""
  return np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object)


def scalar(value):
  return np.array(value.encode() if isinstance(value, str) else value, dtype=object)


def empty_strings(*shape):
  return np.zeros(shape, dtype=object).astype(bytes)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  # The substring must be TensorFlow's own words: check it against the recorded message.
  recorded = w._cases[-1].split("error_message: ", 1)[-1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert code != 0 and _quote(substr)[1:-1].rstrip() in recorded, (name, recorded)


def decode(encoding, offsets=False, **attrs):
  op = R.UnicodeDecodeWithOffsets if offsets else R.UnicodeDecode
  return lambda x: op(input=x, input_encoding=encoding, **attrs)


def transcode(encoding, output_encoding, **attrs):
  return lambda x: R.UnicodeTranscode(input=x, input_encoding=encoding,
                                      output_encoding=output_encoding, **attrs)


def encode(output_encoding, **attrs):
  return lambda v, s: R.UnicodeEncode(input_values=v, input_splits=s,
                                      output_encoding=output_encoding, **attrs)


OUT_ENCODINGS = ["UTF-8", "UTF-16-BE", "UTF-32-BE"]
SHORT = {"UTF-8": "utf8", "UTF-16-BE": "utf16", "UTF-32-BE": "utf32"}
POLICIES = ["replace", "ignore", "strict"]

# ---- Well-formed text in the three UTF encodings --------------------------------------------
TEXTS = ["hello", "", "\xe9t\xe9 \xe0 la plage", "\u4e2d\u6587\u5b57", "\U0001F600 emoji \U0001F44D",
         "\U0001F1EB\U0001F1F7 flag", "\U0001F468\u200d\U0001F469\u200d\U0001F467 zwj",
         "\u0928\u092e\u0938\u094d\u0924\u0947", "\u05e9\u05dc\u05d5\u05dd",
         "\uffff\ufffe\ufdd0 nonchars", "\U0010FFFF max", "tab\there\x00nul\x1fus\x7fdel"]


def encoded(texts, encoding):
  codec = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}[encoding]
  return np.array([t.encode(codec) for t in texts], dtype=object)


for enc in OUT_ENCODINGS:
  data = encoded(TEXTS, enc)
  w.add("decode_%s" % SHORT[enc], decode(enc), [data])
  w.add("decode_offsets_%s" % SHORT[enc], decode(enc, offsets=True), [data])
  w.add("decode_%s_int32_splits" % SHORT[enc], decode(enc, Tsplits=tf.int32), [data])
  w.add("decode_%s_control_replaced" % SHORT[enc],
        decode(enc, offsets=True, replace_control_characters=True), [data])
  w.add("decode_%s_control_ignored" % SHORT[enc],
        decode(enc, offsets=True, replace_control_characters=True, errors="ignore"), [data])
  # Strict only fails on malformed bytes: control characters are still replaced.
  w.add("decode_%s_control_strict" % SHORT[enc],
        decode(enc, offsets=True, replace_control_characters=True, errors="strict",
               replacement_char=ord("?")), [data])
  for out in OUT_ENCODINGS:
    w.add("transcode_%s_to_%s" % (SHORT[enc], SHORT[out]), transcode(enc, out), [data])
  w.add("transcode_%s_control_replaced" % SHORT[enc],
        transcode(enc, "UTF-8", replace_control_characters=True, replacement_char=0x2420),
        [data])
  w.add("transcode_%s_control_ignored" % SHORT[enc],
        transcode(enc, "UTF-16-BE", replace_control_characters=True, errors="ignore"), [data])

# Shapes: a scalar, a matrix, empty batches; the ragged rows follow the flattened order.
w.add("decode_scalar", decode("UTF-8", offsets=True), [scalar("\u00e9\U0001F600a")])
w.add("decode_scalar_empty", decode("UTF-8"), [scalar("")])
w.add("decode_matrix", decode("UTF-8", offsets=True),
      [S("ab", "", "\u4e2d", "\U0001F600", "x\xff", "z").reshape(2, 3)])
w.add("decode_matrix_int32", decode("UTF-8", Tsplits=tf.int32),
      [S("ab", "", "\u4e2d", "\U0001F600").reshape(2, 2)])
w.add("decode_empty_vector", decode("UTF-8", offsets=True), [empty_strings(0)])
w.add("decode_empty_matrix", decode("UTF-8"), [empty_strings(2, 0)])
w.add("decode_all_empty_strings", decode("UTF-8", offsets=True), [S("", "", "")])
w.add("transcode_scalar", transcode("UTF-8", "UTF-32-BE"), [scalar("\u00e9\U0001F600")])
w.add("transcode_matrix", transcode("UTF-16-BE", "UTF-8"),
      [encoded(["a", "", "\U0001F600", "\u4e2d"], "UTF-16-BE").reshape(2, 2)])
w.add("transcode_empty", transcode("UTF-8", "UTF-16-BE"), [empty_strings(0, 3)])
w.add("transcode_rank3", transcode("UTF-8", "UTF-8", errors="ignore"),
      [S("a", "\xff", "b\x80", "").reshape(1, 2, 2)])

# ---- Malformed bytes ------------------------------------------------------------------------
BAD_UTF8 = [
    b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xf0\x80\x80\x80",
    b"\xf0\x8f\xbf\xbf",                                   # overlong forms
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0\xbd\xed\xb8\x80",  # (paired) surrogates
    b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3", b"ab\xe2", b"\xe2\x82a",  # truncated
    b"\x80", b"\xbf\xbf", b"a\x80b",                       # stray continuation bytes
    b"\xfe", b"\xff", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80",
    b"\xfc\x84\x80\x80\x80\x80",                           # never valid lead bytes
    b"\xf4\x90\x80\x80", b"\xf7\xbf\xbf\xbf",              # past U+10FFFF
    b"\xe0\xa0", b"\xf0\x90\x80", b"\xf4\x8f\xbf",         # truncated but valid so far
    b"\xc2\x41", b"\xe1\x80\x41", b"\xf1\x80\x80\x41",     # interrupted by ASCII
    b"\xef\xbb\xbfbom", b"\xef\xbf\xbd", b"ok\xc3\xa9\xff\xc3\xa9",
]
BAD_UTF16 = [
    b"\xd8\x00", b"\xdc\x00", b"\xdc\x00\xd8\x00", b"\xd8\x3d\xde\x00", b"\xd8\x3d\x00\x41",
    b"\x00", b"\x00\x41\x00", b"\xd8\x3d", b"\xd8\x3d\xde", b"\xfe\xff\x00\x41",
    b"\xff\xfe\x41\x00", b"\x00\x41\xdf\xff\x00\x42",
]
BAD_UTF32 = [
    b"\x00\x11\x00\x00", b"\x00\x00\xd8\x00", b"\x00\x00\xdf\xff", b"\xff\xff\xff\xff",
    b"\x80\x00\x00\x41", b"\x00\x00\x00", b"\x00\x00\x00\x41\x00", b"\x00\x00\xfe\xff",
    b"\x00\x00\x00\x41\x00\x10\xff\xff\x00\x00\xd8\x3d",
]
BAD = {"UTF-8": BAD_UTF8, "UTF-16-BE": BAD_UTF16, "UTF-32-BE": BAD_UTF32}

for enc in OUT_ENCODINGS:
  data = np.array(BAD[enc], dtype=object)
  for policy in POLICIES:
    name = "%s_malformed_%s" % (SHORT[enc], policy)
    if policy == "strict":
      for one in [data[:1], data[-1:]]:
        expect_error("decode_" + name + "_%d" % len(one[0]), decode(enc, errors="strict"),
                     [one], "Invalid formatting on input string")
      expect_error("decode_offsets_" + name, decode(enc, offsets=True, errors="strict"),
                   [data], "Invalid formatting on input string")
      expect_error("transcode_" + name, transcode(enc, "UTF-8", errors="strict"), [data],
                   "Invalid formatting on input string")
      continue
    w.add("decode_" + name, decode(enc, errors=policy), [data])
    w.add("decode_offsets_" + name, decode(enc, offsets=True, errors=policy), [data])
    for out in OUT_ENCODINGS:
      w.add("transcode_%s_to_%s" % (name, SHORT[out]),
            transcode(enc, out, errors=policy), [data])
  # Each malformed string on its own, so that the row splits locate every difference.
  for i, bad in enumerate(BAD[enc]):
    w.add("decode_offsets_%s_bad_%02d" % (SHORT[enc], i), decode(enc, offsets=True),
          [S(bad)])

# Replacement characters: the largest code point, U+0000, a space, a lone surrogate (kept as
# it is by UTF-16-BE and UTF-32-BE, U+FFFD in UTF-8) and a trail surrogate.
for repl in [0x10FFFF, 0, 0x20, 0xD800, 0xDC00, 0x1F600]:
  data = np.array(BAD_UTF8[:12], dtype=object)
  w.add("decode_replacement_%x" % repl, decode("UTF-8", offsets=True, replacement_char=repl),
        [data])
  for out in OUT_ENCODINGS:
    w.add("transcode_replacement_%x_%s" % (repl, SHORT[out]),
          transcode("UTF-8", out, replacement_char=repl), [data])

# Random byte strings, mostly bytes that start, continue or break sequences.
rng = np.random.default_rng(20261207)
INTERESTING = np.array([0x00, 0x01, 0x1f, 0x20, 0x41, 0x7f, 0x80, 0x8f, 0x9f, 0xa0, 0xbf, 0xc0,
                        0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xf8, 0xfe, 0xff,
                        0xd8, 0xdc, 0x10, 0x11], np.uint8)
for k in range(8):
  strings = []
  for _ in range(12):
    length = int(rng.integers(0, 10))
    if rng.random() < 0.6:
      raw = rng.choice(INTERESTING, length)
    else:
      raw = rng.integers(0, 256, length).astype(np.uint8)
    strings.append(bytes(raw.tolist()))
  data = np.array(strings, dtype=object)
  enc = OUT_ENCODINGS[k % 3]
  policy = ["replace", "ignore"][k % 2]
  w.add("random_decode_%d_%s_%s" % (k, SHORT[enc], policy),
        decode(enc, offsets=True, errors=policy, replace_control_characters=k >= 4), [data])
  w.add("random_transcode_%d_%s_%s" % (k, SHORT[enc], policy),
        transcode(enc, OUT_ENCODINGS[(k + 1) % 3], errors=policy), [data])

# ---- Other input encodings (ICU's converters) -----------------------------------------------
MIXED = [b"ab\xe9\x81\x00\xff\xfe", b"plain", b"", b"\x1b$B0!\x1b(B", b"+AGE-x", b"\x82\xa0",
         b"\xa4\xa2", b"\xc0\xc1"]
for enc in ["latin1", "ISO-8859-1", "US-ASCII", "windows-1252", "UTF-16", "UTF-16LE",
            "UTF-32", "UTF-32LE", "Shift_JIS", "EUC-JP", "GB18030", "ISO-2022-JP", "UTF-7",
            "CESU-8", "ibm-37", "utf8", "Utf-8"]:
  name = enc.replace("-", "_").lower()
  w.add("decode_other_%s" % name, decode(enc, offsets=True), [np.array(MIXED, dtype=object)])
  w.add("transcode_other_%s" % name, transcode(enc, "UTF-8"), [np.array(MIXED, dtype=object)])
# Byte-order marks and state do not carry from one string to the next.
w.add("decode_utf16_byte_order_marks", decode("UTF-16", offsets=True),
      [S(b"\xff\xfeA\x00", b"A\x00", b"\xfe\xff\x00A", b"\x00A")])
w.add("decode_iso2022_state_per_string", decode("ISO-2022-JP", offsets=True),
      [S(b"\x1b$B0!", b"0!", b"A")])
w.add("decode_utf7_state_per_string", decode("UTF-7", offsets=True), [S(b"+AGE", b"AGE-", b"A")])
w.add("transcode_utf16_byte_order_marks", transcode("UTF-16", "UTF-8"),
      [S(b"\xff\xfeA\x00", b"A\x00", b"\xfe\xff\x00A")])
expect_error("decode_unknown_encoding", decode("no-such-encoding"), [S("a")],
             "Could not create converter for input encoding: no-such-encoding")
expect_error("decode_offsets_empty_encoding", decode("", offsets=True), [S("a")],
             "Could not create converter for input encoding: ")
expect_error("transcode_unknown_encoding", transcode("utf-9", "UTF-8"), [S("a")],
             "Could not create converter for input encoding: utf-9")
for repl in [-1, 0x110000]:
  expect_error("decode_bad_replacement_%d" % repl, decode("UTF-8", replacement_char=repl),
               [S("a")], "replacement_char out of unicode codepoint range")
  expect_error("transcode_bad_replacement_%d" % repl,
               transcode("UTF-8", "UTF-8", replacement_char=repl), [S("a")],
               "replacement_char out of unicode codepoint range")
  expect_error("encode_bad_replacement_%d" % repl, encode("UTF-8", replacement_char=repl),
               [np.array([65], np.int32), np.array([0, 1], np.int64)],
               "replacement_char out of unicode codepoint range")

# ---- UnicodeEncode --------------------------------------------------------------------------
VALUES = np.array([72, 105, 0xe9, 0x4e2d, 0x1F600, 0, 0x1f, 0x7f, 0xFFFF, 0xFFFE, 0xFDD0,
                   0x10FFFF, 0x10000, 0x800, 0x7ff, 0x80], np.int32)
SPLITS = np.array([0, 2, 2, 5, 9, 16], np.int64)
for out in OUT_ENCODINGS:
  w.add("encode_%s" % SHORT[out], encode(out), [VALUES, SPLITS])
  w.add("encode_%s_int32_splits" % SHORT[out], encode(out),
        [VALUES, SPLITS.astype(np.int32)])
INVALID = np.array([65, 0xD800, 0xDC00, 0xD83D, 0xDE00, 0x110000, -1, -0x80000000, 0x7FFFFFFF,
                    0xDBFF, 66, 0xDFFF], np.int32)
INVALID_SPLITS = np.array([0, 3, 5, 9, 12], np.int64)
for out in OUT_ENCODINGS:
  for policy in ["replace", "ignore"]:
    w.add("encode_invalid_%s_%s" % (SHORT[out], policy), encode(out, errors=policy),
          [INVALID, INVALID_SPLITS])
  for repl in [0xD800, 0xDC00, 0, 0x10FFFF]:
    w.add("encode_invalid_%s_replacement_%x" % (SHORT[out], repl),
          encode(out, replacement_char=repl), [INVALID, INVALID_SPLITS])
  expect_error("encode_strict_%s" % SHORT[out], encode(out, errors="strict"),
               [INVALID, INVALID_SPLITS],
               "Code point is out of range for Unicode, or is a surrogate.")
w.add("encode_strict_valid", encode("UTF-8", errors="strict"), [VALUES, SPLITS])
w.add("encode_no_rows", encode("UTF-8"), [np.zeros(0, np.int32), np.array([0], np.int64)])
w.add("encode_empty_rows", encode("UTF-16-BE"),
      [np.zeros(0, np.int32), np.array([0, 0, 0], np.int32)])
for k in range(4):
  lengths = rng.integers(0, 6, int(rng.integers(1, 6)))
  splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
  values = rng.choice(np.array([0x41, 0xe9, 0x4e2d, 0x1F600, 0xD800, 0xDC00, 0x110000, -5,
                                0xFFFE, 0x10FFFF], np.int32), int(splits[-1]))
  w.add("random_encode_%d" % k, encode(OUT_ENCODINGS[k % 3], errors=["replace", "ignore"][k % 2]),
        [values, splits])
for name, values, splits, substr in [
    ("values_matrix", VALUES.reshape(4, 4), np.array([0, 4], np.int64), "should be of rank 1."),
    ("splits_scalar", VALUES, np.array(0, np.int64), "should be of rank 1."),
    ("splits_empty", VALUES, np.zeros(0, np.int64), "Input_splits should contain elements"),
    ("first_split", VALUES, np.array([1, 16], np.int64),
     "First value in input_splits must be zero."),
    ("last_split_short", VALUES, np.array([0, 15], np.int64),
     "Last value in input_splits must be equal to length of input_tensor."),
    ("last_split_past", VALUES, np.array([0, 17], np.int64),
     "Last value in input_splits must be equal to length of input_tensor."),
    ("last_before_middle", VALUES, np.array([0, 20, 3], np.int64),
     "Last value in input_splits must be equal to length of input_tensor."),
    ("decreasing", VALUES, np.array([0, 5, 3, 16], np.int64),
     "Values in input_splits must be equal or in ascending order."),
    ("negative", VALUES, np.array([0, -1, 16], np.int64),
     "Values in input_splits must be equal or in ascending order."),
    ("middle_past", VALUES, np.array([0, 20, 3, 16], np.int64),
     "Values in input_splits must be less than or equal to input_tensor length."),
    ("splits_before_strict", INVALID, np.array([0, 5], np.int64),
     "Last value in input_splits must be equal to length of input_tensor."),
]:
  expect_error("encode_err_" + name, encode("UTF-8", errors="strict"), [values, splits], substr)
expect_error("encode_err_int32_first", encode("UTF-8"),
             [VALUES, np.array([2, 16], np.int32)], "First value in input_splits must be zero.")

# ---- UnicodeScript --------------------------------------------------------------------------
# TensorFlow's ICU (69, Unicode 13.0) against newer character data: the 104 ranges of code
# points (5329 in all) it answers differently from ICU 72 (those assigned after Unicode 13.0,
# and U+16FE2..U+16FE3), found by comparing every code point; each range's ends, middle and
# neighbours are checked.
NEWER_RANGES = [(0x61d, 0x61d), (0x870, 0x88e), (0x890, 0x891), (0x898, 0x89f), (0x8b5, 0x8b5),
                (0x8c8, 0x8d2), (0xc3c, 0xc3c), (0xc5d, 0xc5d), (0xcdd, 0xcdd), (0xcf3, 0xcf3),
                (0xece, 0xece), (0x170d, 0x170d), (0x1715, 0x1715), (0x171f, 0x171f),
                (0x180f, 0x180f), (0x1ac1, 0x1ace), (0x1b4c, 0x1b4c), (0x1b7d, 0x1b7e),
                (0x1dfa, 0x1dfa), (0x20c0, 0x20c0), (0x2c2f, 0x2c2f), (0x2c5f, 0x2c5f),
                (0x2e53, 0x2e5d), (0x9ffd, 0x9fff), (0xa7c0, 0xa7c1), (0xa7d0, 0xa7d1),
                (0xa7d3, 0xa7d3), (0xa7d5, 0xa7d9), (0xa7f2, 0xa7f4), (0xfbc2, 0xfbc2),
                (0xfd40, 0xfd4f), (0xfdcf, 0xfdcf), (0xfdfe, 0xfdff), (0x10570, 0x1057a),
                (0x1057c, 0x1058a), (0x1058c, 0x10592), (0x10594, 0x10595), (0x10597, 0x105a1),
                (0x105a3, 0x105b1), (0x105b3, 0x105b9), (0x105bb, 0x105bc), (0x10780, 0x10785),
                (0x10787, 0x107b0), (0x107b2, 0x107ba), (0x10efd, 0x10eff), (0x10f70, 0x10f89),
                (0x11070, 0x11075), (0x110c2, 0x110c2), (0x1123f, 0x11241), (0x116b9, 0x116b9),
                (0x11740, 0x11746), (0x11ab0, 0x11abf), (0x11b00, 0x11b09), (0x11f00, 0x11f10),
                (0x11f12, 0x11f3a), (0x11f3e, 0x11f59), (0x12f90, 0x12ff2), (0x1342f, 0x1342f),
                (0x13439, 0x13455), (0x16a70, 0x16abe), (0x16ac0, 0x16ac9), (0x16fe2, 0x16fe3),
                (0x1aff0, 0x1aff3), (0x1aff5, 0x1affb), (0x1affd, 0x1affe), (0x1b11f, 0x1b122),
                (0x1b132, 0x1b132), (0x1b155, 0x1b155), (0x1cf00, 0x1cf2d), (0x1cf30, 0x1cf46),
                (0x1cf50, 0x1cfc3), (0x1d1e9, 0x1d1ea), (0x1d2c0, 0x1d2d3), (0x1df00, 0x1df1e),
                (0x1df25, 0x1df2a), (0x1e030, 0x1e06d), (0x1e08f, 0x1e08f), (0x1e290, 0x1e2ae),
                (0x1e4d0, 0x1e4f9), (0x1e7e0, 0x1e7e6), (0x1e7e8, 0x1e7eb), (0x1e7ed, 0x1e7ee),
                (0x1e7f0, 0x1e7fe), (0x1f6dc, 0x1f6df), (0x1f774, 0x1f776), (0x1f77b, 0x1f77f),
                (0x1f7d9, 0x1f7d9), (0x1f7f0, 0x1f7f0), (0x1f979, 0x1f979), (0x1f9cc, 0x1f9cc),
                (0x1fa75, 0x1fa77), (0x1fa7b, 0x1fa7c), (0x1fa87, 0x1fa88), (0x1faa9, 0x1faaf),
                (0x1fab7, 0x1fabd), (0x1fabf, 0x1fabf), (0x1fac3, 0x1fac5), (0x1face, 0x1facf),
                (0x1fad7, 0x1fadb), (0x1fae0, 0x1fae8), (0x1faf0, 0x1faf8), (0x2a6de, 0x2a6df),
                (0x2b735, 0x2b739), (0x31350, 0x323af)]
edges = sorted({c for a, b in NEWER_RANGES for c in (a - 1, a, (a + b) // 2, b, b + 1)})
w.add("script_newer_than_unicode13", lambda x: R.UnicodeScript(input=x),
      [np.array(edges, np.int32)])
w.add("script_sweep", lambda x: R.UnicodeScript(input=x),
      [np.arange(0, 0x110000, 997, dtype=np.int32)])
w.add("script_scripts", lambda x: R.UnicodeScript(input=x),
      [np.array([0x41, 0x3b1, 0x430, 0x5d0, 0x627, 0x915, 0xe01, 0x4e00, 0x3042, 0x30a2,
                 0xac00, 0x10d0, 0x1F600, 0x20, 0x30, 0x300, 0x0, 0xe0000, 0xf0000, 0x10ffff,
                 0xd800, 0xfffe], np.int32).reshape(2, 11)])
w.add("script_invalid", lambda x: R.UnicodeScript(input=x),
      [np.array([-1, -0x80000000, 0x110000, 0x7fffffff], np.int32)])
w.add("script_scalar", lambda x: R.UnicodeScript(input=x), [np.array(0x4e00, np.int32)])
w.add("script_empty", lambda x: R.UnicodeScript(input=x), [np.zeros((0, 3), np.int32)])

w.write()
