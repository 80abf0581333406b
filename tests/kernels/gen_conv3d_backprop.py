"""Writes fixtures/conv3d_backprop.pbtxt: Conv3DBackpropInputV2 and Conv3DBackpropFilterV2 in
TensorFlow.

Run from anywhere: python3 tests/kernels/gen_conv3d_backprop.py (needs TensorFlow 2.x and
numpy). Sluice's sums run in another order than TensorFlow's Eigen matrix products, and in
float where TensorFlow sums half and bfloat16 in the type itself, hence rtol 1e-5 for float
and double and 1e-2 for half; the bfloat16 case sums small integers, exact in both. Every
error_substr is checked here against TensorFlow's message.

Left out: Conv3DBackpropInput (version 1), which TensorFlow 2.x refuses to build (removed at
GraphDef version 10); kernels/cpu/linalg/conv3d_op_test.cc checks that it gives V2's answers.
Conv3DBackpropFilterV2 (Keras's Conv3D training step): Sluice runs oneDNN (float, bfloat16;
half widened to float) or a gather (double) where TensorFlow contracts im2col patches with
Eigen, hence the same tolerances; its bfloat16 cases sum small integers, exact in both.

Also left out: an empty batch with an empty filter, where TensorFlow's kernel divides by
zero (its temp-buffer overhead is over the tensors' total size); and a filter of no output
channels, where TensorFlow returns uninitialised memory (Sluice's zeros are checked in
conv3d_op_test.cc).
"""
import os
import sys

# TensorFlow's oneDNN kernel of Conv3DBackpropInputV2 aborts the process on an input_sizes
# that is not a vector (err_sizes_rank); its reference kernels are the oracle here.
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # pylint: disable=g-import-not-at-top,wrong-import-position
import tensorflow as tf  # pylint: disable=g-import-not-at-top,wrong-import-position

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261212)
w = CaseWriter("conv3d_backprop")


def backprop(strides=(1, 1, 1, 1, 1), padding="VALID", dilations=(1, 1, 1, 1, 1),
             data_format="NDHWC"):
  return lambda sizes, f, dy: R.Conv3DBackpropInputV2(
      input_sizes=sizes, filter=f, out_backprop=dy, strides=list(strides), padding=padding,
      dilations=list(dilations), data_format=data_format)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  message = w._cases[-1].split("error_message: ")[1].split("\n")[0]  # pylint: disable=protected-access
  assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message differs"


def tol(dtype):
  if dtype is BF16:
    return 3e-2
  return 1e-2 if dtype == np.float16 else 1e-5


def normal(shape, dtype=np.float32):
  return rng.standard_normal(shape).astype(dtype)


def out_size(n, f, s, padding):
  return (n - f) // s + 1 if padding == "VALID" else -(-n // s)


def add(name, in_shape, filter_shape, strides=(1, 1, 1), padding="VALID", dtype=np.float32,
        sizes_dtype=np.int32):
  """A case whose out_backprop has the forward convolution's output shape."""
  dy_shape = [in_shape[0]] + [out_size(in_shape[i + 1], filter_shape[i], strides[i], padding)
                              for i in range(3)] + [filter_shape[4]]
  t = tol(dtype)
  w.add(name, backprop((1,) + tuple(strides) + (1,), padding),
        [np.array(in_shape, sizes_dtype), normal(filter_shape, dtype), normal(dy_shape, dtype)],
        rtol=t, atol=t)


# Keras's Conv3DTranspose: stride 2, VALID or SAME.
add("keras_stride2_valid", (2, 7, 7, 7, 3), (3, 3, 3, 3, 2), (2, 2, 2))
add("keras_stride2_same", (2, 6, 6, 6, 3), (3, 3, 3, 3, 2), (2, 2, 2), "SAME")
add("valid", (2, 4, 5, 5, 3), (2, 3, 3, 3, 4))
add("same", (2, 4, 5, 5, 3), (2, 3, 3, 3, 4), padding="SAME")
add("same_strided_odd", (1, 5, 6, 7, 3), (2, 3, 3, 3, 4), (2, 2, 2), "SAME")
add("valid_mixed_strides", (1, 5, 7, 8, 2), (2, 3, 2, 2, 3), (1, 2, 3))
add("stride_larger_than_filter", (1, 7, 7, 7, 2), (1, 2, 1, 2, 3), (3, 3, 2))
add("filter_1x1x1", (2, 3, 4, 5, 3), (1, 1, 1, 3, 5))
add("filter_larger_same", (1, 2, 2, 2, 2), (3, 3, 3, 2, 2), padding="SAME")
add("many_cells", (1, 8, 9, 10, 2), (3, 3, 3, 2, 3), padding="SAME")
add("input_sizes_int64", (1, 4, 4, 4, 2), (2, 2, 2, 2, 3), (2, 2, 2), "SAME",
    sizes_dtype=np.int64)
for dt in [np.float64, np.float16]:
  add("dtype_" + ("bf16" if dt is BF16 else np.dtype(dt).name), (2, 4, 5, 5, 3),
      (2, 3, 3, 3, 4), (1, 2, 1), "SAME", dtype=dt)

I = lambda *v: np.array(v, np.int32)  # noqa: E731
# bfloat16: TensorFlow sums in bfloat16 (errors of 0.1 on sums of normal values), so the values
# are -1, 0 and 1, whose sums (at most 108 terms) every partial sum holds exactly.
w.add("dtype_bf16", backprop((1, 1, 2, 1, 1), "SAME"),
      [I(2, 4, 5, 5, 3), rng.integers(-1, 2, (2, 3, 3, 3, 4)).astype(BF16),
       rng.integers(-1, 2, (2, 4, 3, 5, 4)).astype(BF16)])
B = backprop()
w.add("empty_batch", B, [I(0, 4, 5, 5, 3), normal((2, 3, 3, 3, 4)),
                         np.zeros((0, 3, 3, 3, 4), np.float32)])
w.add("empty_filter", B, [I(1, 4, 5, 5, 3), np.zeros((2, 0, 3, 3, 4), np.float32),
                          normal((1, 3, 6, 3, 4))])
w.add("no_output_cells", B, [I(1, 1, 5, 5, 3), normal((2, 3, 3, 3, 4)),
                             np.zeros((1, 0, 3, 3, 4), np.float32)])
w.add("empty_input_same", backprop(padding="SAME"),
      [I(1, 4, 0, 5, 3), normal((2, 3, 3, 3, 4)), np.zeros((1, 4, 0, 5, 4), np.float32)])
nan_dy = normal((1, 3, 3, 3, 2))
nan_dy[0, 1, 1, 1, 0] = np.nan
nan_dy[0, 2, 0, 1, 1] = np.inf
w.add("nan_inf", B, [I(1, 4, 4, 4, 2), normal((2, 2, 2, 2, 2)), nan_dy], rtol=1e-5, atol=1e-5)

F = normal((2, 3, 3, 3, 4))
DY = normal((2, 3, 3, 3, 4))
add_error("err_sizes_rank", B, [I(2, 4, 5, 5, 3).reshape(1, 5), F, DY],
          "shape must be a vector of {int32,int64}, got shape [1,5]")
add_error("err_sizes_four", B, [I(2, 4, 5, 5), F, DY], "input tensor must have 5 dimensions")
add_error("err_sizes_negative", B, [I(2, -4, 5, 5, 3), F, DY], "Dimension -4 must be >= 0")
add_error("err_filter_rank", B, [I(2, 4, 5, 5, 3), normal((3, 3, 3, 4)), DY],
          "filter_sizes tensor must have 5 dimensions")
add_error("err_out_backprop_rank", B, [I(2, 4, 5, 5, 3), F, normal((3, 3, 3, 4))],
          "out_backprop tensor must have 5 dimensions")
add_error("err_in_channels", B, [I(2, 4, 5, 5, 2), F, DY],
          "input and filter_sizes must have the same number of channels. Got 2 for input and 3 "
          "for filter_sizes")
add_error("err_out_channels", B, [I(2, 4, 5, 5, 3), F, normal((2, 3, 3, 3, 5))],
          "out_backprop and filter_sizes must have the same number of channels. Got 5 for "
          "out_backprop and 4 for filter_sizes")
add_error("err_batch", B, [I(3, 4, 5, 5, 3), F, DY],
          "Conv3DBackpropInputOp: input and out_backprop must have the same batch size. Input "
          "batch: 3, outbackprop batch: 2, batch_dim: 0")
add_error("err_spatial", B, [I(2, 4, 5, 5, 3), F, normal((2, 3, 4, 3, 4))],
          "Conv3DBackpropInputOp: Size of out_backprop doesn't match computed: actual = 4, "
          "computed = 3 spatial_dim: 2 input: 5 filter: 3 output: 4 stride: 1 dilation: 1")
add_error("err_negative_output", B,
          [I(1, 1, 5, 5, 3), normal((3, 3, 3, 3, 4)), normal((1, 1, 3, 3, 4))],
          "Computed output size would be negative")
add_error("err_zero_filter_depth", B, [I(1, 4, 5, 5, 0), np.zeros((2, 3, 3, 0, 4), np.float32),
                                       normal((1, 3, 3, 3, 4))],
          "Conv3DBackpropInputOp: filter depth must be strictly greated than zero")
add_error("err_nothing_to_compute", B, [I(1, 1, 5, 5, 3), np.zeros((2, 3, 3, 3, 0), np.float32),
                                        np.zeros((1, 0, 3, 3, 0), np.float32)],
          "input, filter_sizes and out_backprop tensors must all have at least 1 element")
add_error("err_nothing_to_compute_same", backprop(padding="SAME"),
          [I(1, 4, 0, 5, 3), np.zeros((0, 3, 3, 3, 4), np.float32),
           np.zeros((1, 4, 0, 5, 4), np.float32)],
          "input, filter_sizes and out_backprop tensors must all have at least 1 element")
add_error("err_ncdhw", backprop(data_format="NCDHW"), [I(2, 3, 4, 5, 5), F, DY],
          "Conv3DBackpropInputOpV2 only supports NDHWC on the CPU.")
add_error("err_dilated", backprop(dilations=(1, 2, 1, 1, 1)), [I(2, 4, 5, 5, 3), F, DY],
          "Current CPU implementation does not yet support dilation rates larger than 1.")
add_error("err_channel_dilation", backprop(dilations=(1, 1, 1, 1, 2)), [I(2, 4, 5, 5, 3), F, DY],
          "Current implementation does not yet support dilation rates in the batch and depth "
          "dimensions.")
add_error("err_dilations_six", backprop(dilations=(1, 1, 1, 1, 1, 1)), [I(2, 4, 5, 5, 3), F, DY],
          "Dilation rates field must specify 5 dimensions")
add_error("err_batch_stride", backprop(strides=(2, 1, 1, 1, 1)), [I(2, 4, 5, 5, 3), F, DY],
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.")
add_error("err_strides_six", backprop(strides=(1, 1, 1, 1, 1, 1)), [I(2, 4, 5, 5, 3), F, DY],
          "Sliding window strides field must specify 5 dimensions")
add_error("err_stride_zero", backprop(strides=(1, 0, 1, 1, 1)), [I(2, 4, 5, 5, 3), F, DY],
          "Stride must be > 0, but got 0")
add_error("err_bf16_nothing_to_compute", B,
          [I(1, 1, 5, 5, 3), np.zeros((2, 3, 3, 3, 0), BF16), np.zeros((1, 0, 3, 3, 0), BF16)],
          "input, filter_sizes and out_backprop tensors must all have at least 1 element")


# ---- Conv3DBackpropFilterV2 ---------------------------------------------------------------


def filter_backprop(strides=(1, 1, 1, 1, 1), padding="VALID", dilations=(1, 1, 1, 1, 1),
                    data_format="NDHWC"):
  return lambda x, sizes, dy: R.Conv3DBackpropFilterV2(
      input=x, filter_sizes=sizes, out_backprop=dy, strides=list(strides), padding=padding,
      dilations=list(dilations), data_format=data_format)


def add_filter(name, in_shape, filter_shape, strides=(1, 1, 1), padding="VALID",
               dtype=np.float32, atol=None):
  """A filter-gradient case whose out_backprop has the forward convolution's output shape.

  half and bfloat16 take the values -1, 0 and 1: TensorFlow sums them in their own precision
  (errors of 0.02 on sums of normal values), and integers' partial sums stay exact.
  """
  dy_shape = [in_shape[0]] + [out_size(in_shape[i + 1], filter_shape[i], strides[i], padding)
                              for i in range(3)] + [filter_shape[4]]
  if dtype in (np.float16, BF16):
    x, dy = (rng.integers(-1, 2, s).astype(dtype) for s in (in_shape, dy_shape))
    t = 0
  else:
    x, dy = normal(in_shape, dtype), normal(dy_shape, dtype)
    t = tol(dtype)
  w.add("filter_" + name, filter_backprop((1,) + tuple(strides) + (1,), padding),
        [x, np.array(filter_shape, np.int32), dy], rtol=t, atol=t if atol is None else atol)


add_filter("keras_3x3x3_valid", (1, 6, 6, 6, 3), (3, 3, 3, 3, 4))
add_filter("keras_3x3x3_same", (1, 5, 5, 5, 3), (3, 3, 3, 3, 4), padding="SAME")
add_filter("stride2_valid", (2, 7, 7, 5, 3), (3, 3, 3, 3, 2), (2, 2, 2))
add_filter("stride2_same", (2, 6, 6, 6, 3), (3, 3, 3, 3, 2), (2, 2, 2), "SAME")
add_filter("same_strided_odd", (1, 5, 6, 7, 3), (2, 3, 3, 3, 4), (2, 2, 2), "SAME")
add_filter("valid_mixed_strides", (1, 5, 7, 8, 2), (2, 3, 2, 2, 3), (1, 2, 3))
add_filter("stride_larger_than_filter", (1, 7, 7, 7, 2), (1, 2, 1, 2, 3), (3, 3, 2))
add_filter("filter_1x1x1", (2, 3, 4, 5, 3), (1, 1, 1, 3, 5))
add_filter("filter_larger_same", (1, 2, 2, 2, 2), (3, 3, 3, 2, 2), padding="SAME")
# Sums of 720 products, whose partial sums reach 30: float's rounding differs by 1e-4.
add_filter("many_cells", (2, 6, 6, 10, 2), (3, 3, 3, 2, 4), padding="SAME", atol=2e-4)
add_filter("one_channel", (3, 5, 5, 5, 1), (2, 2, 2, 1, 1))
for dt in [np.float64, np.float16]:
  add_filter("dtype_" + np.dtype(dt).name, (2, 4, 5, 5, 3), (2, 3, 3, 3, 4), (1, 2, 1), "SAME",
             dtype=dt)
  add_filter("dtype_%s_valid" % np.dtype(dt).name, (1, 5, 5, 5, 2), (3, 3, 3, 2, 3), (2, 2, 2),
             dtype=dt)
add_filter("dtype_bf16", (2, 4, 5, 5, 3), (2, 3, 3, 3, 4), (1, 2, 1), "SAME", dtype=BF16)
add_filter("dtype_bf16_valid", (1, 4, 4, 4, 2), (2, 2, 2, 2, 3), dtype=BF16)
# Left out: NaN and infinities, which TensorFlow's contraction spreads to filter entries whose
# sums never read them (it returns NaN for every entry of the infinity's channel).
FB = filter_backprop()
w.add("filter_empty_batch", FB, [np.zeros((0, 4, 5, 5, 3), np.float32), I(2, 3, 3, 3, 4),
                                 np.zeros((0, 3, 3, 3, 4), np.float32)])
w.add("filter_empty_input_same", filter_backprop(padding="SAME"),
      [np.zeros((1, 4, 0, 5, 3), np.float32), I(2, 3, 3, 3, 4),
       np.zeros((1, 4, 0, 5, 4), np.float32)])
w.add("filter_no_out_channels", FB, [normal((1, 4, 5, 5, 3)), I(2, 3, 3, 3, 0),
                                     np.zeros((1, 3, 3, 3, 0), np.float32)])
w.add("filter_zero_window", FB, [normal((1, 4, 5, 5, 3)), I(0, 3, 3, 3, 4),
                                 normal((1, 5, 3, 3, 4))])

X = normal((2, 4, 5, 5, 3))
DYF = normal((2, 3, 3, 3, 4))
S = I(2, 3, 3, 3, 4)
add_error("filter_err_sizes_rank", FB, [X, S.reshape(1, 5), DYF],
          "filter_sizes shape must be rank 1 but is rank 2")
add_error("filter_err_sizes_negative", FB, [X, I(2, 3, -3, 3, 4), DYF],
          "Dimension -3 must be >= 0")
add_error("filter_err_input_rank", FB, [normal((4, 5, 5, 3)), S, DYF],
          "input tensor must have 5 dimensions")
add_error("filter_err_sizes_four", FB, [X, I(2, 3, 3, 3), DYF],
          "filter_sizes tensor must have 5 dimensions")
add_error("filter_err_out_backprop_rank", FB, [X, S, normal((3, 3, 3, 4))],
          "out_backprop tensor must have 5 dimensions")
add_error("filter_err_in_channels", FB, [X, I(2, 3, 3, 2, 4), DYF],
          "input and filter_sizes must have the same number of channels. Got 3 for input and 2 "
          "for filter_sizes")
add_error("filter_err_out_channels", FB, [X, S, normal((2, 3, 3, 3, 5))],
          "out_backprop and filter_sizes must have the same number of channels. Got 5 for "
          "out_backprop and 4 for filter_sizes")
add_error("filter_err_batch", FB, [normal((3, 4, 5, 5, 3)), S, DYF],
          "Conv3DBackpropFilterOp: input and out_backprop must have the same batch size. Input "
          "batch: 3, outbackprop batch: 2, batch_dim: 0")
add_error("filter_err_spatial", FB, [X, S, normal((2, 3, 4, 3, 4))],
          "Conv3DBackpropFilterOp: Size of out_backprop doesn't match computed: actual = 4, "
          "computed = 3 spatial_dim: 2 input: 5 filter: 3 output: 4 stride: 1 dilation: 1")
add_error("filter_err_negative_output", FB,
          [normal((1, 1, 5, 5, 3)), I(3, 3, 3, 3, 4), normal((1, 1, 3, 3, 4))],
          "Computed output size would be negative")
add_error("filter_err_zero_filter_depth", FB,
          [np.zeros((1, 4, 5, 5, 0), np.float32), I(2, 3, 3, 0, 4), normal((1, 3, 3, 3, 4))],
          "Conv3DBackpropFilterOp: filter depth must be strictly greated than zero")
add_error("filter_err_nothing_to_compute", FB,
          [normal((1, 4, 5, 5, 3)), I(0, 3, 3, 3, 0), np.zeros((1, 5, 3, 3, 0), np.float32)],
          "input, filter_sizes and out_backprop tensors must all have at least 1 element")
add_error("filter_err_ncdhw", filter_backprop(data_format="NCDHW"), [X, S, DYF],
          "Conv3DBackpropFilterOpV2 only supports NDHWC on the CPU.")
add_error("filter_err_dilated", filter_backprop(dilations=(1, 2, 1, 1, 1)), [X, S, DYF],
          "Current CPU implementation does not yet support dilation rates larger than 1.")
add_error("filter_err_channel_dilation", filter_backprop(dilations=(1, 1, 1, 1, 2)), [X, S, DYF],
          "Current implementation does not yet support dilation rates in the batch and depth "
          "dimensions.")
add_error("filter_err_dilations_six", filter_backprop(dilations=(1, 1, 1, 1, 1, 1)), [X, S, DYF],
          "Dilation rates field must specify 5 dimensions")
add_error("filter_err_batch_stride", filter_backprop(strides=(2, 1, 1, 1, 1)), [X, S, DYF],
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.")
add_error("filter_err_strides_six", filter_backprop(strides=(1, 1, 1, 1, 1, 1)), [X, S, DYF],
          "Sliding window strides field must specify 5 dimensions")
add_error("filter_err_stride_zero", filter_backprop(strides=(1, 0, 1, 1, 1)), [X, S, DYF],
          "Stride must be > 0, but got 0")

w.write()
