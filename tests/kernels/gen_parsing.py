"""Writes fixtures/parsing.pbtxt: DecodeRaw and DecodeCSV in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_parsing.py (needs TensorFlow 2.x and numpy).
Bytes are reinterpreted, never computed on, so outputs are compared exactly (NaN payloads
included: the runner compares floats that are NaN on both sides as equal).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("parsing")
rng = np.random.default_rng(20261207)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  # The substring must be TensorFlow's own words: check it against the recorded message.
  recorded = w._cases[-1].split("error_message: ", 1)[-1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert code != 0 and _quote(substr)[1:-1].rstrip() in recorded, (name, recorded)


def decode(dtype, little_endian=True):
  return lambda x: R.DecodeRaw(bytes=x, out_type=dtype, little_endian=little_endian)


def blobs(shape, length):
  flat = [bytes(rng.integers(0, 256, length, dtype=np.uint8)) for _ in range(int(np.prod(shape)))]
  return np.array(flat, dtype=object).reshape(shape)


def floats_as_bytes(values, dtype):
  return np.array([np.array(values, dtype).tobytes()], dtype=object)


for dtype in [tf.float16, tf.float32, tf.float64, tf.int32, tf.uint16, tf.uint8, tf.int16,
              tf.int8, tf.int64, tf.complex64, tf.complex128, tf.bfloat16]:
  size = dtype.size
  for little in [True, False]:
    suffix = "" if little else "_big_endian"
    w.add("%s_matrix%s" % (dtype.name, suffix), decode(dtype, little), [blobs((2, 3), 4 * size)])
w.add("float32_values", decode(tf.float32),
      [floats_as_bytes([1.5, -0.0, np.inf, -np.inf, 3.4e38, 1e-45], np.float32)])
w.add("float64_big_endian_values", decode(tf.float64, False),
      [np.array([np.array([2.5, -1e300], ">f8").tobytes()], dtype=object)])
w.add("bool_bytes", decode(tf.bool), [np.array([bytes([0, 1, 2, 255])], dtype=object)])
w.add("bool_big_endian", decode(tf.bool, False), [np.array([bytes([0, 7])], dtype=object)])
w.add("scalar_input", decode(tf.int32), [np.array(bytes(range(8)), dtype=object)])
w.add("empty_strings", decode(tf.float32), [np.array([b"", b""], dtype=object)])
w.add("no_strings", decode(tf.int16), [np.zeros((0, 2), dtype=object).astype(bytes)])
expect_error("err_sizes_differ", decode(tf.uint8), [np.array([b"abcd", b"abcde"], dtype=object)],
             "DecodeRaw requires input strings to all be the same size, but element 1 has size "
             "4 != 5")
expect_error("err_not_multiple", decode(tf.float32), [np.array([b"abcde"], dtype=object)],
             "Input to DecodeRaw has length 5 that is not a multiple of 4, the size of float")
expect_error("err_not_multiple_complex", decode(tf.complex128), [blobs((1,), 8)],
             "that is not a multiple of 16, the size of complex128")

# ---- DecodeCSV ------------------------------------------------------------------------------
def csv(n, **attrs):
  return lambda records, *defaults: R.DecodeCSV(records=records, record_defaults=list(defaults[:n]),
                                                **attrs)


def rec(*lines):
  return np.array([l.encode() if isinstance(l, str) else l for l in lines], dtype=object)


F32, F64, I32D, I64D = np.float32, np.float64, np.int32, np.int64
STR = lambda s: np.array(s.encode(), dtype=object)  # noqa: E731
NONE = {t: np.zeros(0, t) for t in [F32, F64, I32D, I64D]}
NONE_STR = np.zeros(0, dtype=object).astype(bytes)

w.add("csv_types", csv(5), [rec("1,2.5,-3,4e1,abc", " 7 ,0x10,8,inf,\"q,uo\"\"te\"",
                                "9,,10,-0.5,"),
                            I32D(0), F32(-1), I64D(0), F64(0), STR("dflt")])
w.add("csv_matrix", csv(2), [rec("1,a", "2,b", "3,c", "4,d").reshape(2, 2), I32D(0), STR("")])
w.add("csv_scalar", csv(2), [np.array(b"5,x", dtype=object), I64D(0), STR("")])
w.add("csv_empty_records", csv(2), [np.zeros((0,), dtype=object).astype(bytes), I32D(0), STR("")])
w.add("csv_defaults_as_vectors", csv(2), [rec(",", "1,b"), np.array([7], np.int32),
                                          np.array([b"d"], dtype=object)])
w.add("csv_na_value", csv(3, na_value="NA"), [rec("NA,NA,NA", "1,2,x"), I32D(-1), F64(-2),
                                              STR("none")])
w.add("csv_delim", csv(3, field_delim="|"), [rec("a|b|c", "|,|\"x|y\""), STR(""), STR(""),
                                             STR("")])
w.add("csv_tab", csv(2, field_delim="\t"), [rec("1\t2", "3\t"), I32D(0), I32D(-9)])
w.add("csv_no_quote", csv(2, use_quote_delim=False), [rec('"a","b"', 'x""y,z'), STR(""),
                                                       STR("")])
# CR and LF are skipped where a field starts, and an error inside an unquoted field.
w.add("csv_crlf", csv(2), [rec("\n1,2", "\r\n3,\n4", "\r5,6"), I32D(0), I32D(-1)])
code = w.add("err_csv_crlf_inside", csv(2), [rec("1,2\r\n"), I32D(0), I32D(-1)])
assert code != 0
w.add("csv_quoted_delims", csv(2), [rec('"a,b","c""d"', '"",""'), STR("e"), STR("f")])
w.add("csv_select_cols", csv(2, select_cols=[0, 2]), [rec("1,2,3", "4,5,6,7", "8,,9"),
                                                      I32D(0), I32D(0)])
w.add("csv_select_last", csv(1, select_cols=[3]), [rec("a,b,c,", "a,b,c,d,e"), STR("z")])
w.add("csv_one_column", csv(1), [rec("x", '""', "y"), STR("empty")])
# An empty record has no fields at all.
code = w.add("err_csv_empty_record", csv(1), [rec(""), STR("empty")])
assert code != 0
w.add("csv_float_forms", csv(3), [rec("1e-40,nan,-INF", "  .5 ,+3,0x1p-2"), F32(0), F32(0),
                                  F64(0)])
w.add("csv_int_limits", csv(2), [rec("2147483647,-9223372036854775808",
                                     "-2147483648,9223372036854775807"), I32D(0), I64D(0)])
# Random records of quoted and plain fields (commas and doubled quotes inside quotes, empty
# and NA fields), four columns of int64, string, double, string.
POOL = ['"a,b"', '""', '"say ""hi"""', "plain", "", "NA", '"x"']
for k in range(8):
  lines = []
  for _ in range(5):
    fields = [str(int(rng.integers(-99, 99))) if rng.random() < 0.8 else "",
              POOL[int(rng.integers(0, len(POOL)))],
              "%.3g" % rng.normal() if rng.random() < 0.8 else "NA",
              POOL[int(rng.integers(0, len(POOL)))]]
    lines.append(",".join(fields))
  w.add("random_csv_%d" % k, csv(4, na_value="NA"),
        [rec(*lines), I64D(-1), STR("s"), F64(0.5), STR("t")])

for k, (records, types, message) in enumerate([
    (rec("1,2,3"), [I32D, I32D], "Expect 2 fields but have 3 in record 0"),
    (rec("1,2", "1"), [I32D, I32D], "Expect 2 fields but have 1 in record 1"),
    (rec("1,"), [I32D, None], "Field 1 is required but missing in record 0!"),
    (rec("a,1"), [I32D, I32D], "Field 0 in record 0 is not a valid int32: a"),
    (rec("1,2147483648"), [I32D, I32D], "Field 1 in record 0 is not a valid int32: 2147483648"),
    (rec("1.5"), [I64D], "Field 0 in record 0 is not a valid int64: 1.5"),
    (rec("x"), [F32], "Field 0 in record 0 is not a valid float: x"),
    (rec("1..2"), [F64], "Field 0 in record 0 is not a valid double: 1..2"),
    (rec('a"b'), [STR], "Unquoted fields cannot have quotes/CRLFs inside"),
    (rec("a\rb"), [STR], "Unquoted fields cannot have quotes/CRLFs inside"),
    (rec('"a"b"'), [STR], "Quote inside a string has to be escaped by another quote"),
    (rec('"ab'), [STR], "Quoted field has to end with quote followed by delim or end"),
    (rec('"ab"c'), [STR], "Quote inside a string has to be escaped by another quote"),
    # A record is checked whole before its fields are parsed.
    (rec("x,1", "y"), [I32D, STR], "Field 0 in record 0 is not a valid int32: x"),
    (rec('1,"a', "y"), [I32D, STR], "Quoted field has to end with quote")]):
  defaults = []
  for t in types:
    if t is None:
      defaults.append(NONE[I32D])
    elif t is STR:
      defaults.append(STR(""))
    else:
      defaults.append(t(0))
  expect_error("err_csv_%d" % k, csv(len(defaults)), [records] + defaults, message)
expect_error("err_csv_two_defaults", csv(1), [rec("1"), np.array([1, 2], np.int32)],
             "There should only be 1 default per field but field 0 has 2")
expect_error("err_csv_delim", csv(1, field_delim="||"), [rec("1"), I32D(0)],
             "field_delim should be only 1 char")
expect_error("err_csv_select_order", csv(2, select_cols=[2, 1]), [rec("1,2,3"), I32D(0),
                                                                  I32D(0)],
             "select_cols should be strictly increasing indices")
expect_error("err_csv_select_size", csv(2, select_cols=[0]), [rec("1,2,3"), I32D(0), I32D(0)],
             "select_cols should match output size")
# The attrs are checked in TensorFlow's order.
code = w.add("err_csv_order_delim_select", csv(1, select_cols=[1, 0], field_delim="ab"),
             [rec("1"), I32D(0)])
assert code != 0
code = w.add("err_csv_order_delim_order", csv(2, select_cols=[1, 0], field_delim="ab"),
             [rec("1"), I32D(0), I32D(0)])
assert code != 0
code = w.add("err_csv_order_size_order", csv(1, select_cols=[1, 0]), [rec("1"), I32D(0)])
assert code != 0
expect_error("err_csv_select_negative", csv(1, select_cols=[-1]), [rec("1,2,3"), I32D(0)],
             "select_cols should be non-negative indices")

w.write()
