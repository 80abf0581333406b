"""Writes fixtures/conv3d_pool3d.pbtxt: Conv3D, MaxPool3D and AvgPool3D in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_conv3d_pool3d.py (needs TensorFlow 2.x and
numpy). Sums are in another order than TensorFlow's Eigen contraction (Conv3D) and, for
bfloat16, in float where TensorFlow sums in the type itself (AvgPool3D), hence rtol 1e-5 for
float/double and 1e-2 (3e-2 for bfloat16) for the 16-bit types; MaxPool3D is exact.
error_substr is checked here against TensorFlow's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261210)
w = CaseWriter("conv3d_pool3d")


def conv(strides=(1, 1, 1, 1, 1), padding="VALID", dilations=(1, 1, 1, 1, 1),
         data_format="NDHWC"):
  return lambda x, f: R.Conv3D(input=x, filter=f, strides=list(strides), padding=padding,
                               dilations=list(dilations), data_format=data_format)


def pool(op, ksize, strides, padding="VALID", data_format="NDHWC"):
  return lambda x: op(input=x, ksize=list(ksize), strides=list(strides), padding=padding,
                      data_format=data_format)


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


def tol(dtype):
  if dtype is BF16:
    return 3e-2
  return 1e-2 if dtype == np.float16 else 1e-5


def normal(shape, dtype=np.float32):
  return rng.standard_normal(shape).astype(dtype)


# Conv3D.
X = normal((2, 4, 5, 5, 3))
F = normal((2, 3, 3, 3, 4))
w.add("conv_valid", conv(), [X, F], rtol=1e-5, atol=1e-5)
w.add("conv_same", conv(padding="SAME"), [X, F], rtol=1e-5, atol=1e-5)
w.add("conv_same_strided", conv((1, 2, 2, 2, 1), "SAME"), [X, F], rtol=1e-5, atol=1e-5)
w.add("conv_valid_strided", conv((1, 1, 3, 2, 1), "VALID"), [X, F], rtol=1e-5, atol=1e-5)
w.add("conv_1x1x1", conv(), [X, normal((1, 1, 1, 3, 5))], rtol=1e-5, atol=1e-5)
w.add("conv_filter_larger_same", conv(padding="SAME"), [normal((1, 2, 2, 2, 2)),
                                                          normal((3, 3, 3, 2, 2))],
      rtol=1e-5, atol=1e-5)
w.add("conv_many_cells", conv(padding="SAME"), [normal((1, 6, 7, 8, 2)),
                                                 normal((3, 3, 3, 2, 3))],
      rtol=1e-5, atol=1e-5)
# bfloat16 is left out: TensorFlow's contraction rounds its partial sums to bfloat16 (errors
# of 0.1 on these sums of 54 products), Sluice sums in float and rounds once.
for dtype in [np.float64, np.float16]:
  name = np.dtype(dtype).name
  w.add("conv_dtype_" + name, conv(padding="SAME"), [X.astype(dtype), F.astype(dtype)],
        rtol=tol(dtype), atol=tol(dtype))
w.add("conv_empty_batch", conv(), [np.zeros((0, 5, 6, 7, 3), np.float32), F])
w.add("conv_empty_output", conv(), [np.zeros((1, 1, 6, 7, 3), np.float32), F])
add_error("conv_err_input_rank", conv(), [np.zeros((5, 6, 7, 3), np.float32), F],
          "input must be 5-dimensional")
add_error("conv_err_filter_rank", conv(), [X, np.zeros((3, 3, 3, 4), np.float32)],
          "filter must be 5-dimensional")
add_error("conv_err_depth", conv(), [X, normal((2, 2, 2, 2, 4))],
          "Input depth must be evenly divisible by filter depth: 3 vs 2")
add_error("conv_err_groups", conv(), [normal((1, 3, 3, 3, 4)), normal((1, 1, 1, 2, 4))],
          "Number of channels in filter (2) must match last dimension of input (4)")
add_error("conv_err_filter_depth_zero", conv(), [X, np.zeros((2, 2, 2, 0, 4), np.float32)],
          "filter_depth must be non-zero")
add_error("conv_err_empty_filter", conv(), [X, np.zeros((2, 0, 2, 3, 4), np.float32)],
          "filter must not have zero elements")
add_error("conv_err_negative_output", conv(), [normal((1, 1, 6, 7, 3)), normal((3, 3, 3, 3, 4))],
          "Computed output size would be negative")
add_error("conv_err_dilated", conv(dilations=(1, 2, 1, 1, 1)), [X, F],
          "CPU implementation of Conv3D currently only supports dilated rates of 1.")
add_error("conv_err_ncdhw", conv(data_format="NCDHW"), [normal((1, 3, 5, 6, 7)), F],
          "CPU implementation of Conv3D currently only supports the NHWC tensor format.")
add_error("conv_err_batch_stride", conv(strides=(2, 1, 1, 1, 1)), [X, F],
          "Current implementation does not yet support strides in the batch and depth")
add_error("conv_err_depth_dilation", conv(dilations=(1, 1, 1, 1, 2)), [X, F],
          "Current implementation does not yet support dilation rates in the batch and depth")

# MaxPool3D and AvgPool3D.
P = normal((1, 5, 4, 6, 2))
for op, short in [(R.MaxPool3D, "max"), (R.AvgPool3D, "avg")]:
  exact = short == "max"
  t = {} if exact else {"rtol": 1e-5, "atol": 1e-6}
  w.add(short + "_valid", pool(op, (1, 2, 2, 2, 1), (1, 2, 2, 2, 1)), [P], **t)
  w.add(short + "_same", pool(op, (1, 2, 2, 2, 1), (1, 2, 2, 2, 1), "SAME"), [P], **t)
  w.add(short + "_same_overlap", pool(op, (1, 3, 3, 3, 1), (1, 1, 2, 1, 1), "SAME"), [P], **t)
  w.add(short + "_valid_overlap", pool(op, (1, 3, 2, 4, 1), (1, 1, 2, 3, 1)), [P], **t)
  w.add(short + "_window_larger_same", pool(op, (1, 4, 4, 4, 1), (1, 1, 1, 1, 1), "SAME"),
        [normal((1, 2, 3, 2, 2))], **t)
  w.add(short + "_neg_inf_same", pool(op, (1, 2, 2, 2, 1), (1, 1, 1, 1, 1), "SAME"),
        [np.full((1, 2, 2, 2, 1), -np.inf, np.float32)])
  w.add(short + "_neg_inf_valid", pool(op, (1, 2, 2, 2, 1), (1, 1, 1, 1, 1)),
        [np.full((1, 2, 2, 2, 1), -np.inf, np.float32)])
  lowest = np.full((1, 2, 2, 2, 2), 1.0, np.float32)
  lowest[0, 0, 0, 0, 0] = np.finfo(np.float32).min
  w.add(short + "_lowest_value", pool(op, (1, 2, 2, 2, 1), (1, 1, 1, 1, 1)), [lowest], **t)
  nan = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2, 1)
  nan[0, 0, 1, 0, 0] = np.nan
  w.add(short + "_nan", pool(op, (1, 2, 2, 2, 1), (1, 1, 1, 1, 1)), [nan])
  w.add(short + "_empty_batch", pool(op, (1, 2, 2, 2, 1), (1, 2, 2, 2, 1)),
        [np.zeros((0, 4, 4, 4, 2), np.float32)])
  # TensorFlow's CPU kernels are float and bfloat16 only (the OpDefs allow more).
  for dtype in [BF16]:
    name = "bf16" if dtype is BF16 else np.dtype(dtype).name
    w.add("%s_dtype_%s" % (short, name), pool(op, (1, 2, 3, 2, 1), (1, 1, 2, 2, 1), "SAME"),
          [P.astype(dtype)], **({} if exact else {"rtol": tol(dtype), "atol": tol(dtype)}))
  add_error(short + "_err_rank", pool(op, (1, 2, 2, 2, 1), (1, 1, 1, 1, 1)),
            [np.zeros((5, 6, 7, 3), np.float32)], "tensor_in must be 5-dimensional")
  add_error(short + "_err_batch", pool(op, (2, 2, 2, 2, 1), (1, 1, 1, 1, 1)), [P],
            "Pooling is not yet supported on the batch dimension.")
  add_error(short + "_err_depth", pool(op, (1, 2, 2, 2, 2), (1, 1, 1, 1, 1)), [P],
            "Pooling is not yet supported on the depth dimension.")
  add_error(short + "_err_ksize_zero", pool(op, (1, 0, 2, 2, 1), (1, 1, 1, 1, 1)), [P],
            "Sliding window ksize field must have non-negative dimensions")
  add_error(short + "_err_ncdhw", pool(op, (1, 1, 2, 2, 2), (1, 1, 1, 1, 1), "VALID", "NCDHW"),
            [P], "Default Pooling3DOp only supports NDHWC on device type CPU")
  add_error(short + "_err_negative_output", pool(op, (1, 7, 2, 2, 1), (1, 1, 1, 1, 1)), [P],
            "Computed output size would be negative")

w.write()
