"""Writes fixtures/string_split.pbtxt: StringSplit, StringSplitV2 and StringNGrams.

Run from anywhere: python3 tests/kernels/gen_string_split.py (needs TensorFlow 2.x and
numpy). The outputs (int64 indices and shape, string tokens) are compared exactly.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("string_split")


def S(*values):
  return np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object)


def scalar(s):
  return np.array(s.encode() if isinstance(s, str) else s, dtype=object)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  # The substring must be TensorFlow's own words: check it against the recorded message.
  recorded = w._cases[-1].split("error_message: ", 1)[-1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert code != 0 and _quote(substr)[1:-1].rstrip() in recorded, (name, recorded)


TEXTS = S("hello world", "  leading and trailing  ", "", "   ", "a,,b,", ",", "one",
          "tab\tand\nnewline\x0bvt\x0cff\rcr", "multi<>char<>sep<>", "\xe9t\xe9 \xe0 la plage",
          "a  b", b"nul\x00byte", "a b ", "  padded  ")


def split_v2(maxsplit=-1):
  return lambda x, s: R.StringSplitV2(input=x, sep=s, maxsplit=maxsplit)


def split_v1(skip_empty=True):
  return lambda x, d: R.StringSplit(input=x, delimiter=d, skip_empty=skip_empty)


for sep_name, sep in [("whitespace", ""), ("comma", ","), ("space", " "), ("multi", "<>"),
                      ("nul", b"\x00"), ("longer_than_text", "abcdefghijklmnopqrstuvwxyz")]:
  for maxsplit in [-1, 0, 1, 2]:
    w.add(("v2_%s_max%d" % (sep_name, maxsplit)).replace("-", "m"), split_v2(maxsplit),
          [TEXTS, scalar(sep)])
w.add("v2_empty_input", split_v2(), [np.zeros(0, dtype=object).astype(bytes), scalar(" ")])
w.add("v2_all_empty", split_v2(), [S("", "", " "), scalar("")])
w.add("v2_overlapping_sep", split_v2(), [S("aaaa", "aaa", "baaab"), scalar("aa")])
expect_error("err_v2_matrix", split_v2(), [TEXTS[:4].reshape(2, 2), scalar(" ")],
             "input must be a vector, got shape: [2,2]")
expect_error("err_v2_scalar_input", split_v2(), [scalar("a b"), scalar(" ")],
             "input must be a vector, got shape: []")
expect_error("err_v2_sep_vector", split_v2(), [TEXTS, S(" ")],
             "sep must be a scalar, got shape: [1]")

for delim_name, delim in [("chars", ""), ("comma", ","), ("space", " "), ("any_of", ", \t"),
                          ("multi", "<>"), ("nul", b"\x00")]:
  for skip_empty in [True, False]:
    w.add("v1_%s_%s" % (delim_name, "skip" if skip_empty else "keep"), split_v1(skip_empty),
          [TEXTS, scalar(delim)])
w.add("v1_empty_input", split_v1(), [np.zeros(0, dtype=object).astype(bytes), scalar(",")])
w.add("v1_all_empty_keep", split_v1(False), [S("", ""), scalar(",")])
w.add("v1_all_empty_chars", split_v1(False), [S("", ""), scalar("")])
expect_error("err_v1_matrix", split_v1(), [TEXTS[:4].reshape(4, 1), scalar(" ")],
             "input must be a vector, got shape: [4,1]")
expect_error("err_v1_delimiter_vector", split_v1(), [TEXTS, S(" ", ",")],
             "delimiter must be a scalar, got shape: [2]")

# ---- StringNGrams ---------------------------------------------------------------------------
TOKENS = S("the", "quick", "brown", "fox", "a", "b", "c", "", "x")
TOKEN_SPLITS = np.array([0, 4, 4, 5, 8, 9], np.int64)


def ngrams(widths, separator=" ", left_pad="<", right_pad=">", pad_width=0,
           preserve_short=False):
  return lambda d, s: R.StringNGrams(
      data=d, data_splits=s, separator=separator, ngram_widths=widths, left_pad=left_pad,
      right_pad=right_pad, pad_width=pad_width, preserve_short_sequences=preserve_short)


for name, kwargs in [("bigrams", dict(widths=[2])),
                     ("uni_bi_tri", dict(widths=[1, 2, 3])),
                     ("wide", dict(widths=[5])),
                     ("pad1", dict(widths=[2, 3], pad_width=1)),
                     ("pad_auto", dict(widths=[3], pad_width=-1)),
                     ("pad_big", dict(widths=[2], pad_width=5)),
                     ("separator", dict(widths=[2], separator="_|_")),
                     ("empty_separator", dict(widths=[3], separator="", pad_width=2)),
                     ("preserve_short", dict(widths=[3, 4], preserve_short=True)),
                     ("preserve_short_pad", dict(widths=[5], pad_width=1, preserve_short=True)),
                     ("preserve_short_auto_pad", dict(widths=[7], pad_width=-1,
                                                      preserve_short=True)),
                     ("no_widths", dict(widths=[], pad_width=1, preserve_short=True)),
                     ("width_repeated", dict(widths=[2, 2]))]:
  w.add("ngrams_" + name, ngrams(**kwargs), [TOKENS, TOKEN_SPLITS])
# Random ragged rows, widths, pads and preserve_short_sequences.
rng = np.random.default_rng(20261207)
for k in range(12):
  lengths = rng.integers(0, 6, int(rng.integers(1, 5)))
  splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
  data = np.array([("t%d" % i).encode() for i in range(int(splits[-1]))], dtype=object)
  widths = sorted(set(int(v) for v in rng.integers(1, 5, int(rng.integers(1, 3)))))
  w.add("random_ngrams_%d" % k, ngrams(widths, pad_width=int(rng.integers(-1, 3)),
                                       preserve_short=bool(k % 2)), [data, splits])
# Random texts for both splitters.
ALPHABET = np.array(list(" ,ab\t"))
for k in range(6):
  texts = np.array(["".join(rng.choice(ALPHABET, int(rng.integers(0, 12)))).encode()
                    for _ in range(5)], dtype=object)
  w.add("random_v2_%d" % k, split_v2(int(rng.integers(-1, 3))),
        [texts, scalar(["", ",", " "][k % 3])])
  w.add("random_v1_%d" % k, split_v1(bool(k % 2)), [texts, scalar([",", " ,", ""][k % 3])])

w.add("ngrams_int32_splits", ngrams([2]), [TOKENS, TOKEN_SPLITS.astype(np.int32)])
w.add("ngrams_empty_data", ngrams([2]), [np.zeros(0, dtype=object).astype(bytes),
                                         np.array([0, 0, 0], np.int64)])
w.add("ngrams_no_splits", ngrams([2]), [TOKENS[:0], np.zeros(0, np.int64)])
w.add("ngrams_one_split", ngrams([2]), [TOKENS[:0], np.zeros(1, np.int64)])
expect_error("err_ngrams_width_zero", ngrams([2, 0]), [TOKENS, TOKEN_SPLITS],
             "ngram_widths must contain positive values")
expect_error("err_ngrams_first_split", ngrams([2]), [TOKENS, np.array([1, 4, 9], np.int64)],
             "First split value must be 0, got 1")
expect_error("err_ngrams_decreasing", ngrams([2]), [TOKENS, np.array([0, 4, 3, 9], np.int64)],
             "Invalid split value 3, must be in [4, 9]")
expect_error("err_ngrams_past_data", ngrams([2]), [TOKENS, np.array([0, 4, 10], np.int64)],
             "Invalid split value 10, must be in [4, 9]")
expect_error("err_ngrams_last_split", ngrams([2]), [TOKENS, np.array([0, 4, 8], np.int64)],
             "Last split value must be data size. Expected 9, got 8")
# Only reachable without widths: a dynamic pad_width always leaves room for one n-gram.
expect_error("err_ngrams_preserve_short_no_pad", ngrams([], pad_width=-1, preserve_short=True),
             [TOKENS, TOKEN_SPLITS], "Pad width should be >= 0")

w.write()
