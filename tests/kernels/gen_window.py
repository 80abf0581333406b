"""Writes fixtures/window.pbtxt: ExtractImagePatches, Dilation2D and MaxPoolWithArgmax in
TensorFlow.

Run from anywhere: python3 tests/kernels/gen_window.py (needs TensorFlow 2.x and numpy).

Every case is exact: ExtractImagePatches moves elements, MaxPoolWithArgmax compares them,
and Dilation2D adds once per tap in the input's type (wrapping for integers, rounded for half
and bfloat16) and keeps the first strictly greater sum, as TensorFlow does.
Error cases record TensorFlow's code; error_substr must appear in Sluice's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("window")
BF16 = tf.bfloat16.as_numpy_dtype
REAL = (("f32", np.float32), ("f64", np.float64), ("f16", np.float16), ("bf16", BF16),
        ("i8", np.int8), ("i16", np.int16), ("i32", np.int32), ("i64", np.int64),
        ("u8", np.uint8), ("u16", np.uint16), ("u32", np.uint32), ("u64", np.uint64))


def values(shape, dt, lo=-50, hi=50):
  if np.issubdtype(dt, np.unsignedinteger):
    return rng.integers(0, 2 * hi, shape).astype(dt)
  if np.issubdtype(dt, np.integer):
    return rng.integers(lo, hi, shape).astype(dt)
  return rng.uniform(lo, hi, shape).astype(dt)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


# ---- ExtractImagePatches -----------------------------------------------------------------
def patches(k, s, r, p):
  return lambda x: R.ExtractImagePatches(images=x, ksizes=[1] + k + [1], strides=[1] + s + [1],
                                         rates=[1] + r + [1], padding=p)


for tag, dt in REAL + (("c64", np.complex64), ("c128", np.complex128)):
  x = values((1, 5, 6, 3), dt if not np.issubdtype(dt, np.complexfloating) else np.float32)
  if np.issubdtype(dt, np.complexfloating):
    x = (x + 1j * values((1, 5, 6, 3), np.float32)).astype(dt)
  w.add("patches_%s_same" % tag, patches([2, 3], [1, 2], [1, 1], "SAME"), [x])
w.add("patches_f32_valid", patches([2, 3], [1, 2], [1, 1], "VALID"), [values((2, 5, 6, 3),
                                                                          np.float32)])
for p in ("SAME", "VALID"):
  x = values((2, 13, 11, 4), np.float32)
  w.add("patches_rates_%s" % p, patches([3, 2], [2, 3], [2, 3], p), [x])
  w.add("patches_big_stride_%s" % p, patches([1, 1], [5, 4], [1, 1], p), [x])
  w.add("patches_window_too_big_%s" % p, patches([6, 2], [1, 1], [1, 1], p),
        [values((1, 5, 5, 2), np.float32)])
  w.add("patches_large_%s" % p, patches([3, 3], [2, 2], [1, 1], p),
        [values((2, 13, 15, 4), np.float32)])
w.add("patches_nan", patches([2, 2], [1, 1], [1, 1], "SAME"),
      [np.array([np.nan, np.inf, -np.inf, 1], np.float32).reshape(1, 2, 2, 1)])
w.add("patches_empty_batch", patches([2, 2], [1, 1], [1, 1], "SAME"),
      [np.zeros((0, 3, 3, 2), np.float32)])
w.add("patches_no_channels", patches([2, 2], [1, 1], [1, 1], "VALID"),
      [np.zeros((1, 3, 3, 0), np.float32)])
X = values((1, 5, 5, 2), np.float32)
add_error("err_patches_ksizes_batch",
          lambda x: R.ExtractImagePatches(images=x, ksizes=[2, 2, 2, 1], strides=[1, 1, 1, 1],
                                          rates=[1, 1, 1, 1], padding="VALID"),
          [X], "Only support ksizes across space.")
add_error("err_patches_ksizes_zero", patches([0, 2], [1, 1], [1, 1], "VALID"), [X],
          "ksizes is out of range.")
add_error("err_patches_strides_zero", patches([2, 2], [1, 0], [1, 1], "VALID"), [X],
          "strides is out of range.")
add_error("err_patches_rates_depth",
          lambda x: R.ExtractImagePatches(images=x, ksizes=[1, 2, 2, 1], strides=[1, 1, 1, 1],
                                          rates=[1, 1, 1, 2], padding="VALID"),
          [X], "Only support rates across space.")
add_error("err_patches_rates_zero", patches([2, 2], [1, 1], [0, 1], "VALID"), [X],
          "rates is out of range.")
add_error("err_patches_rank3", patches([2, 2], [1, 1], [1, 1], "VALID"), [X[0]],
          "input must be 4-dimensional[5,5,2]")
add_error("err_patches_negative_size", patches([3, 3], [1, 1], [3, 3], "VALID"), [X],
          "Computed output size would be negative: -1 [input_size: 5, effective_filter_size: 7, "
          "stride: 1]")


# ---- Dilation2D ----------------------------------------------------------------------------
def dilation(s, r, p):
  return lambda x, f: R.Dilation2D(input=x, filter=f, strides=[1] + s + [1],
                                   rates=[1] + r + [1], padding=p)


for tag, dt in REAL:
  w.add("dilation_%s_same" % tag, dilation([1, 2], [1, 1], "SAME"),
        [values((1, 6, 7, 3), dt), values((2, 3, 3), dt, -20, 20)])
  w.add("dilation_%s_valid_rates" % tag, dilation([2, 1], [2, 1], "VALID"),
        [values((1, 9, 7, 3), dt), values((3, 2, 3), dt, -20, 20)])
for tag, dt in (("i8", np.int8), ("u8", np.uint8), ("i32", np.int32)):
  info = np.iinfo(dt)
  w.add("dilation_%s_wraps" % tag, dilation([1, 1], [1, 1], "VALID"),
        [np.full((1, 2, 2, 1), info.max, dt), np.full((1, 1, 1), info.max, dt)])
w.add("dilation_f16_rounds", dilation([1, 1], [1, 1], "VALID"),
      [np.array([2049, 2048, 1, 60000], np.float16).reshape(1, 2, 2, 1),
       np.array([[[1]], [[1]]], np.float16).reshape(2, 1, 1)])
w.add("dilation_f32_large", dilation([1, 1], [1, 1], "SAME"),
      [values((2, 20, 21, 4), np.float32), values((5, 4, 4), np.float32)])
w.add("dilation_f32_nonfinite", dilation([1, 1], [1, 1], "SAME"),
      [np.array([np.nan, 1, np.inf, -np.inf, 2, np.nan, 0, -1, 3], np.float32)
       .reshape(1, 3, 3, 1), np.array([0, np.nan, 1, 0], np.float32).reshape(2, 2, 1)])
w.add("dilation_f32_all_nan", dilation([1, 1], [1, 1], "VALID"),
      [np.full((1, 2, 2, 1), np.nan, np.float32), np.zeros((1, 1, 1), np.float32)])
w.add("dilation_f32_rate0", dilation([1, 1], [0, 1], "VALID"),
      [values((1, 5, 5, 2), np.float32), values((2, 2, 2), np.float32)])
w.add("dilation_f32_negative_rate", dilation([1, 1], [-1, 1], "VALID"),
      [values((1, 5, 5, 2), np.float32), values((2, 2, 2), np.float32)])
w.add("dilation_f32_empty_filter", dilation([1, 1], [1, 1], "VALID"),
      [values((1, 5, 4, 2), np.float32), np.zeros((0, 2, 2), np.float32)])
w.add("dilation_f32_filter_too_big", dilation([1, 1], [1, 1], "VALID"),
      [values((1, 5, 4, 2), np.float32), values((6, 2, 2), np.float32)])
w.add("dilation_i32_same_padding_lowest", dilation([1, 1], [3, 3], "SAME"),
      [values((1, 2, 2, 1), np.int32), values((3, 3, 1), np.int32)])
w.add("dilation_f32_empty_batch", dilation([1, 1], [1, 1], "SAME"),
      [np.zeros((0, 5, 5, 2), np.float32), values((2, 2, 2), np.float32)])
XD = values((1, 5, 5, 2), np.float32)
FD = values((2, 2, 2), np.float32)
add_error("err_dilation_stride_batch",
          lambda x, f: R.Dilation2D(input=x, filter=f, strides=[2, 1, 1, 1], rates=[1, 1, 1, 1],
                                    padding="VALID"),
          [XD, FD], "Stride is only supported across spatial dimensions.")
add_error("err_dilation_rate_depth",
          lambda x, f: R.Dilation2D(input=x, filter=f, strides=[1, 1, 1, 1], rates=[1, 1, 1, 2],
                                    padding="VALID"),
          [XD, FD], "Rate is only supported across spatial dimensions.")
add_error("err_dilation_stride_zero", dilation([0, 1], [1, 1], "VALID"), [XD, FD],
          "Stride must be > 0, but got 0")
add_error("err_dilation_input_rank3", dilation([1, 1], [1, 1], "VALID"), [XD[0], FD],
          "input must be 4-dimensional[5,5,2]")
add_error("err_dilation_filter_rank2", dilation([1, 1], [1, 1], "VALID"), [XD, FD[0]],
          "filter must be 3-dimensional: [2,2]")
add_error("err_dilation_depth", dilation([1, 1], [1, 1], "VALID"),
          [XD, values((2, 2, 3), np.float32)], "input and filter must have the same depth: 2 vs 3")
add_error("err_dilation_negative_size", dilation([1, 1], [6, 1], "VALID"), [XD, FD],
          "Computed output size would be negative")


# ---- MaxPoolWithArgmax ---------------------------------------------------------------------
def argmax_pool(k, s, p, targmax=tf.int64, batch=False):
  return lambda x: R.MaxPoolWithArgmax(input=x, ksize=[1] + k + [1], strides=[1] + s + [1],
                                       padding=p, Targmax=targmax, include_batch_in_index=batch)


for tag, dt in REAL:
  x = values((1, 6, 7, 3), dt, -3, 3)  # many ties
  for targ in (tf.int32, tf.int64):
    w.add("argmax_%s_%s_same" % (tag, targ.name), argmax_pool([3, 3], [2, 2], "SAME", targ),
          [x])
  w.add("argmax_%s_valid_batch_index" % tag, argmax_pool([2, 3], [1, 2], "VALID", batch=True),
        [x])
w.add("argmax_f32_large", argmax_pool([3, 3], [2, 2], "SAME"), [values((2, 20, 22, 4),
                                                                     np.float32)])
w.add("argmax_f32_large_batch_index", argmax_pool([2, 2], [2, 2], "VALID", tf.int32, True),
      [values((2, 20, 22, 4), np.float32)])
w.add("argmax_f32_nonfinite", argmax_pool([2, 2], [1, 1], "VALID"),
      [np.array([np.nan, 1, 2, np.nan, 3, -np.inf, np.inf, 0, np.nan], np.float32)
       .reshape(1, 3, 3, 1)])
w.add("argmax_f32_window_bigger_than_stride", argmax_pool([4, 4], [1, 3], "SAME"),
      [values((1, 7, 8, 2), np.float32)])
w.add("argmax_f32_window_too_big", argmax_pool([6, 1], [1, 1], "VALID"),
      [values((1, 5, 5, 2), np.float32)])
w.add("argmax_f32_depth_window",
      lambda x: R.MaxPoolWithArgmax(input=x, ksize=[1, 1, 1, 2], strides=[1, 1, 1, 2],
                                    padding="VALID"),
      [values((1, 2, 3, 4), np.float32)])
XM = values((1, 5, 5, 2), np.float32)
add_error("err_argmax_batch_window",
          lambda x: R.MaxPoolWithArgmax(input=x, ksize=[2, 2, 2, 1], strides=[1, 1, 1, 1],
                                        padding="VALID"),
          [XM], "Pooling is not yet supported on the batch dimension.")
add_error("err_argmax_depth_and_space",
          lambda x: R.MaxPoolWithArgmax(input=x, ksize=[1, 2, 2, 2], strides=[1, 1, 1, 1],
                                        padding="VALID"),
          [XM], "MaxPooling supports exactly one of pooling across depth or pooling across "
                "width/height.")
# A zero stride or ksize fails MaxPool's shape function when the graph is built, before any
# kernel runs (graph/ops/window_ops_test.cc).
add_error("err_argmax_rank3", argmax_pool([2, 2], [1, 1], "VALID"), [XM[0]],
          "tensor_in must be 4-dimensional")
add_error("err_argmax_empty", argmax_pool([2, 2], [1, 1], "VALID"),
          [np.zeros((0, 5, 5, 2), np.float32)], "tensor_in must not be empty")
add_error("err_argmax_empty_rank3", argmax_pool([2, 2], [1, 1], "VALID"),
          [np.zeros((0, 5, 2), np.float32)], "tensor_in must be")
add_error("err_argmax_empty_rows", argmax_pool([1, 1], [1, 1], "VALID"),
          [np.zeros((1, 0, 5, 2), np.float32)], "tensor_in must not be empty")

w.write()
