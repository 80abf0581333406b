"""Writes fixtures/logging.pbtxt: Assert, Print, PrintV2 and StringFormat in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_logging.py (needs TensorFlow 2.x and numpy).

Every output is exact: StringFormat's strings must match TensorFlow's to the character, and
a failing Assert's whole message ("assertion failed: [..] [..]", TensorFlow's summary of
each tensor) is required in Sluice's error (error_substr, taken from TensorFlow's run).
What Print and PrintV2 write is checked by kernels/cpu/logging_ops_test.cc; here only their
outputs and errors.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _error_text, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
w = CaseWriter("logging")


def tf_error(build, inputs):
  """TensorFlow's error message for `build` on `inputs`, as the fixture records it."""
  graph = tf.Graph()
  with graph.as_default():
    phs = [tf.compat.v1.placeholder(tf.as_dtype(np.asarray(x).dtype)) for x in inputs]
    op = build(*phs)
  with tf.compat.v1.Session(graph=graph) as session:
    try:
      session.run(op, feed_dict=dict(zip(phs, inputs)))
    except tf.errors.OpError as e:
      return _error_text(e.message)
  raise AssertionError("TensorFlow did not fail")


def add_error(name, build, inputs, substr=None):
  """An error case; `substr` defaults to TensorFlow's whole message."""
  inputs = [np.asarray(x) for x in inputs]
  if substr is None:
    substr = tf_error(build, inputs)
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


def assert_op(summarize=3):
  return lambda cond, *data: R.Assert(condition=cond, data=list(data), summarize=summarize)


def print_op(message="", first_n=-1, summarize=3):
  return lambda x, *data: R.Print(input=x, data=list(data), message=message, first_n=first_n,
                                  summarize=summarize)


def string_format(template="%s", placeholder="%s", summarize=3):
  return lambda *xs: R.StringFormat(inputs=list(xs), template=template, placeholder=placeholder,
                                    summarize=summarize)


FALSE = np.array(False)
TRUE = np.array(True)

# ---- Assert ---------------------------------------------------------------------------
w.add("assert_true", assert_op(), [TRUE, np.arange(5, dtype=np.int32)])
add_error("assert_false_int_and_string", assert_op(),
          [FALSE, np.array([1, 2, 3, 4], np.int32), np.array(b"hi")])
add_error("assert_false_matrix_summarize2", assert_op(2),
          [FALSE, np.array([[1.5, 2], [3, 4]], np.float32), np.array([b"a", b"b\n"])])
add_error("assert_false_summarize_all", assert_op(-1), [FALSE, np.arange(10, dtype=np.int64)])
add_error("assert_false_summarize_zero", assert_op(0), [FALSE, np.arange(4, dtype=np.int64)])
add_error("assert_false_types", assert_op(4),
          [FALSE, np.array([0.1, -0.0, np.nan, np.inf, 1e10], np.float32),
           np.array([1 / 3], np.float64), np.array([0.1, 2], np.float16),
           np.array([1.5, 300], np.float32).astype(BF16), np.array([True, False]),
           np.array([-5, 7], np.int8), np.array([255], np.uint8),
           np.array([np.iinfo(np.uint64).max], np.uint64), np.array([1 + 2j], np.complex64)])
add_error("assert_false_3d", assert_op(5), [FALSE, np.arange(12, dtype=np.int32).reshape(2, 3, 2)])
add_error("assert_false_empty_and_scalar", assert_op(),
          [FALSE, np.zeros((0, 2), np.float32), np.float32(2.5)])
add_error("assert_cond_not_scalar", assert_op(), [np.array([False]), np.int32(1)],
          "In[0] should be a scalar: [1]")

# ---- Print ----------------------------------------------------------------------------
w.add("print_forwards", print_op("x: "), [np.arange(6, dtype=np.float32).reshape(2, 3),
                                         np.array([1, 2], np.int32)])
w.add("print_no_data", print_op(first_n=1), [np.array([b"s"])])
w.add("print_first_n_zero", print_op(first_n=0, summarize=1), [np.int64(3), np.int64(4)])

# ---- PrintV2 --------------------------------------------------------------------------
w.add("printv2_stderr", lambda s: R.PrintV2(input=s, end=" <end>\n"), [np.array(b"hello")])
add_error("printv2_not_scalar", lambda s: R.PrintV2(input=s), [np.array([b"a"])],
          "Input is expected to be scalar, but got [1]")
add_error("printv2_unknown_stream", lambda s: R.PrintV2(input=s, output_stream="bogus"),
          [np.array(b"a")],
          "Unknown output stream: bogus, Valid streams are: stdout stderr log(info) "
          "log(warning) log(error)")
add_error("printv2_file_missing_dir",
          lambda s: R.PrintV2(input=s, output_stream="file:///nonexistent-sluice-dir/f"),
          [np.array(b"a")], "/nonexistent-sluice-dir/f")

# ---- StringFormat ---------------------------------------------------------------------
w.add("format_vector_and_matrix", string_format("x: %s, y: %s"),
      [np.arange(10, dtype=np.int32), np.array([[1.5, 2.25], [3, 4]], np.float32)])
w.add("format_custom_placeholder", string_format("{}", "{}", 2), [np.arange(10, dtype=np.int32)])
w.add("format_summarize_all", string_format(summarize=-1), [np.arange(10, dtype=np.int32)])
w.add("format_scalar_bool_string", string_format("%s|%s|%s"),
      [np.int64(7), np.array([True, False]), np.array([b"a", b"b'c", b"q\"\n"])])
w.add("format_3d", string_format(summarize=2), [np.arange(24, dtype=np.float64).reshape(2, 3, 4)])
w.add("format_3d_cut", string_format(summarize=1),
      [np.arange(60, dtype=np.int32).reshape(3, 4, 5)])
w.add("format_4d", string_format(summarize=2), [np.arange(16, dtype=np.int16).reshape(2, 2, 2, 2)])
w.add("format_empty", string_format(), [np.zeros((0, 3), np.float32)])
w.add("format_floats", string_format(),
      [np.array([0.1, 1e10, -0.0, np.nan, np.inf, -np.inf, 123456789], np.float32)])
w.add("format_double", string_format(summarize=4), [np.array([1 / 3, 0.1, 1e-300, 2.0])])
w.add("format_half_bf16", string_format("%s %s"),
      [np.array([0.1, 65504], np.float16), np.array([0.1, 3], np.float32).astype(BF16)])
w.add("format_no_placeholders", string_format("none"), [])
w.add("format_small_ints", string_format("%s%s", summarize=1),
      [np.arange(3, dtype=np.uint8), np.arange(3, dtype=np.int8)])
w.add("format_complex", string_format(), [np.array([1 + 2j, 3], np.complex64)])
w.add("format_scalar_string", string_format("<%s>"), [np.array(b"abc")])
w.add("format_long_rows", string_format(summarize=2),
      [np.arange(30, dtype=np.int32).reshape(6, 5)])
w.add("format_big_ints", string_format(), [np.array([np.iinfo(np.int64).min, -1, 7], np.int64)])

w.write()
