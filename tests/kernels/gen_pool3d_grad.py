"""Writes fixtures/pool3d_grad.pbtxt: MaxPool3DGrad and AvgPool3DGrad in TensorFlow, replayed by
//kernels/cpu/nn:pool3d_grad_conformance_test.

Run from anywhere: python3 tests/kernels/gen_pool3d_grad.py (needs TensorFlow 2.x and numpy).
Sluice adds every term in TensorFlow's order with its arithmetic, so every case is exact
(rtol 0), float and bfloat16 (TensorFlow's CPU kernels). Covered: Keras's MaxPooling3D and
AveragePooling3D (2x2x2, stride 2), VALID and SAME, overlapping and strided windows, windows
larger than the volume (where TensorFlow's clipping of SAME windows reaches past the volume's
end), maxima tied or within 1e-5 of each other (every one of them gets the gradient), NaN and
infinities, empty volumes, AvgPool3DGrad's grad larger than the pooling's output (TensorFlow
does not check it), and every error of TensorFlow's checks (each error_substr checked here
against TensorFlow's message).

TensorFlow runs with its oneDNN rewrites off (its reference kernels, as gen_conv3d_backprop.py):
with them on, a graph's AvgPool3DGrad runs oneDNN's kernel, which skips the index check above.
"""
import os
import sys

os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # pylint: disable=g-import-not-at-top,wrong-import-position
import tensorflow as tf  # pylint: disable=g-import-not-at-top,wrong-import-position

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20260715)
w = CaseWriter("pool3d_grad")


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  message = w._cases[-1].split("error_message: ")[1].split("\n")[0]  # pylint: disable=protected-access
  assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message differs: " + message


def normal(shape, dtype=np.float32):
  return rng.standard_normal(shape).astype(dtype)


def out_size(n, k, s, padding):
  return (n - k) // s + 1 if padding == "VALID" else -(-n // s)


def max_grad(ksize, strides, padding, data_format="NDHWC"):
  return lambda x, y, g: R.MaxPool3DGrad(orig_input=x, orig_output=y, grad=g, ksize=list(ksize),
                                         strides=list(strides), padding=padding,
                                         data_format=data_format)


def avg_grad(ksize, strides, padding, data_format="NDHWC"):
  return lambda s, g: R.AvgPool3DGrad(orig_input_shape=s, grad=g, ksize=list(ksize),
                                      strides=list(strides), padding=padding,
                                      data_format=data_format)


def pooled(x, ksize, strides, padding):
  """MaxPool3D of x in TensorFlow (the orig_output a training graph feeds MaxPool3DGrad)."""
  return R.MaxPool3D(input=x, ksize=list(ksize), strides=list(strides),
                     padding=padding).numpy()


# (name, input shape, spatial ksize, spatial strides, padding)
GEOMETRIES = [
    ("keras_2x2x2", (2, 4, 4, 4, 3), (2, 2, 2), (2, 2, 2), "VALID"),
    ("keras_same_odd", (1, 5, 5, 3, 2), (2, 2, 2), (2, 2, 2), "SAME"),
    ("overlap_valid", (1, 5, 6, 4, 2), (3, 3, 2), (1, 2, 1), "VALID"),
    ("overlap_same", (2, 4, 5, 6, 1), (3, 2, 3), (1, 1, 2), "SAME"),
    ("stride_past_window", (1, 7, 7, 7, 2), (2, 1, 2), (3, 3, 2), "VALID"),
    ("window_larger_same", (1, 2, 4, 3, 2), (3, 5, 4), (1, 1, 1), "SAME"),
    ("channels_70", (1, 3, 3, 3, 70), (2, 2, 2), (1, 1, 1), "VALID"),
]

for dt, dname in [(np.float32, "f32"), (BF16, "bf16")]:
  for name, shape, k, s, pad in GEOMETRIES:
    ksize, strides = (1,) + k + (1,), (1,) + s + (1,)
    x = normal(shape, dt)
    y = pooled(x, ksize, strides, pad)
    g = normal(y.shape, dt)
    w.add("max_%s_%s" % (name, dname), max_grad(ksize, strides, pad), [x, y, g])
    gshape = [shape[0]] + [out_size(shape[i + 1], k[i], s[i], pad) for i in range(3)] + [shape[4]]
    w.add("avg_%s_%s" % (name, dname), avg_grad(ksize, strides, pad),
          [np.array(shape, np.int32), normal(gshape, dt)])

K2, S2 = (1, 2, 2, 2, 1), (1, 2, 2, 2, 1)
# Ties and near-ties: every entry within 1e-5 of the maximum gets the gradient.
x = np.zeros((1, 2, 2, 2, 1), np.float32)
x.ravel()[:] = [1.0, 1.0, 1.000005, 1.000001, 1.00002, -3, 1.0, 0.0]
y = np.array(1.0, np.float32).reshape(1, 1, 1, 1, 1)
w.add("max_ties", max_grad(K2, S2, "VALID"), [x, y, np.full((1, 1, 1, 1, 1), 3.0, np.float32)])
w.add("max_ties_bf16", max_grad(K2, S2, "VALID"),
      [x.astype(BF16), y.astype(BF16), np.full((1, 1, 1, 1, 1), 3.0, BF16)])
# An orig_output that is no input value: nothing gets the gradient.
w.add("max_no_match", max_grad(K2, S2, "VALID"),
      [x, np.array(7.0, np.float32).reshape(1, 1, 1, 1, 1), np.ones((1, 1, 1, 1, 1), np.float32)])
x = normal((1, 4, 4, 4, 2))
x[0, 1, 1, 1, 0] = np.nan
x[0, 2, 3, 0, 1] = np.inf
x[0, 0, 0, 3, 1] = -np.inf
y = pooled(x, K2, S2, "VALID")
g = normal(y.shape)
g[0, 1, 0, 1, 0] = np.inf
g[0, 0, 1, 1, 1] = np.nan
w.add("max_nan_inf", max_grad(K2, S2, "VALID"), [x, y, g])
g = normal((1, 2, 2, 2, 2))
g[0, 1, 0, 1, 0] = np.inf
g[0, 0, 1, 1, 1] = np.nan
w.add("avg_nan_inf", avg_grad(K2, S2, "VALID"), [np.array((1, 4, 4, 4, 2), np.int32), g])
E = np.zeros((0, 4, 4, 4, 2), np.float32)
w.add("max_empty_batch", max_grad(K2, S2, "VALID"), [E, np.zeros((0, 2, 2, 2, 2), np.float32),
                                                     np.zeros((0, 2, 2, 2, 2), np.float32)])
w.add("avg_empty_batch", avg_grad(K2, S2, "VALID"), [np.array((0, 4, 4, 4, 2), np.int32),
                                                     np.zeros((0, 2, 2, 2, 2), np.float32)])
w.add("avg_empty_volume_same", avg_grad(K2, S2, "SAME"), [np.array((1, 0, 4, 4, 2), np.int32),
                                                          np.zeros((1, 0, 2, 2, 2), np.float32)])
w.add("avg_no_channels", avg_grad(K2, S2, "VALID"), [np.array((1, 4, 4, 4, 0), np.int32),
                                                     np.zeros((1, 2, 2, 2, 0), np.float32)])
# AvgPool3DGrad reads grad's own spatial sizes: one more column than the output adds into the
# clipped windows; two more start past the volume.
w.add("avg_grad_larger", avg_grad((1, 2, 2, 2, 1), (1, 1, 1, 1, 1), "VALID"),
      [np.array((1, 3, 3, 3, 1), np.int32), normal((1, 2, 2, 3, 1))])
w.add("avg_grad_smaller", avg_grad(K2, S2, "VALID"),
      [np.array((1, 4, 4, 4, 1), np.int32), normal((1, 1, 2, 1, 1))])
# A VALID window one larger than the volume gives 0 planes, no error (TensorFlow's arithmetic).
w.add("max_window_past_volume_valid", max_grad((1, 5, 2, 2, 1), S2, "VALID"),
      [normal((1, 4, 4, 4, 1)), np.zeros((1, 0, 2, 2, 1), np.float32),
       np.zeros((1, 0, 2, 2, 1), np.float32)])
w.add("avg_window_past_volume_valid", avg_grad((1, 5, 2, 2, 1), S2, "VALID"),
      [np.array((1, 4, 4, 4, 1), np.int32), normal((1, 1, 2, 2, 1))])
add_error("avg_err_index_past_volume", avg_grad((1, 2, 2, 2, 1), (1, 2, 2, 2, 1), "VALID"),
          [np.array((1, 4, 4, 4, 1), np.int32), normal((1, 2, 2, 4, 1))],
          "index * stride must be less than or equal to input size")

X = normal((1, 4, 4, 4, 2))
Y = pooled(X, K2, S2, "VALID")
G = normal(Y.shape)
M = max_grad(K2, S2, "VALID")
A = avg_grad(K2, S2, "VALID")
SH = np.array((1, 4, 4, 4, 2), np.int32)
add_error("max_err_ncdhw", max_grad(K2, S2, "VALID", "NCDHW"), [X, Y, G],
          "Default MaxPooling3dGradOp only supports NDHWC on device type CPU")
add_error("max_err_ksize_six", max_grad((1, 2, 2, 2, 1, 1), S2, "VALID"), [X, Y, G],
          "Sliding window ksize field must specify 5 dimensions")
add_error("max_err_strides_six", max_grad(K2, (1, 2, 2, 2, 1, 1), "VALID"), [X, Y, G],
          "Sliding window stride field must specify 5 dimensions")
add_error("max_err_batch_window", max_grad((2, 2, 2, 2, 1), S2, "VALID"), [X, Y, G],
          "Pooling is not yet supported on the batch dimension.")
add_error("max_err_depth_stride", max_grad(K2, (1, 2, 2, 2, 2), "VALID"), [X, Y, G],
          "Pooling is not yet supported on the depth dimension.")
add_error("max_err_input_rank", M, [X[0], Y, G], "tensor_in must be 5-dimensional")
add_error("max_err_output_rank", M, [X, Y[0], G], "tensor_out must be 5-dimensional")
add_error("max_err_grad_rank", M, [X, Y, G[0]], "out_backprop must be 5-dimensional")
add_error("max_err_output_shape", M, [X, normal((1, 2, 2, 1, 2)), G],
          "Expected orig_output shape to be [1,2,2,2,2], but got [1,2,2,1,2]")
add_error("max_err_grad_shape", M, [X, Y, normal((1, 2, 2, 2, 3))],
          "Expected grad shape to be [1,2,2,2,2], but got [1,2,2,2,3]")
add_error("max_err_negative_output", max_grad((1, 7, 2, 2, 1), (1, 1, 2, 2, 1), "VALID"), [X, Y, G],
          "Computed output size would be negative")
add_error("max_err_stride_zero", max_grad(K2, (1, 2, 0, 2, 1), "VALID"), [X, Y, G],
          "Stride must be > 0")
add_error("avg_err_ncdhw", avg_grad(K2, S2, "VALID", "NCDHW"), [SH, G],
          "Default AvgPooling3dGradOp only supports NDHWC on device type CPU")
add_error("avg_err_ksize_zero", avg_grad((1, 2, 0, 2, 1), S2, "VALID"), [SH, G],
          "ksize must be positive, got: 0")
add_error("avg_err_ksize_six", avg_grad((1, 2, 2, 2, 1, 1), S2, "VALID"), [SH, G],
          "Sliding window ksize field must specify 5 dimensions")
add_error("avg_err_strides_six", avg_grad(K2, (1, 2, 2, 2, 1, 1), "VALID"), [SH, G],
          "Sliding window stride field must specify 5 dimensions")
add_error("avg_err_batch_stride", avg_grad(K2, (2, 2, 2, 2, 1), "VALID"), [SH, G],
          "Pooling is not yet supported on the batch dimension.")
add_error("avg_err_depth_window", avg_grad((1, 2, 2, 2, 2), S2, "VALID"), [SH, G],
          "Pooling is not yet supported on the depth dimension.")
add_error("avg_err_shape_rank", A, [SH.reshape(1, 5), G],
          "tensor_in must be 1-dimensional and 5 elements")
add_error("avg_err_shape_four", A, [SH[:4], G], "tensor_in must be 1-dimensional and 5 elements")
add_error("avg_err_grad_rank", A, [SH, G[0]], "out_backprop must be 5-dimensional")
add_error("avg_err_negative_output", avg_grad((1, 7, 2, 2, 1), (1, 1, 2, 2, 1), "VALID"), [SH, G],
          "Computed output size would be negative")
add_error("avg_err_batch", A, [np.array((2, 4, 4, 4, 2), np.int32), G],
          "Expected first dimension of tensor_in_shape and out_backprop to match, got 2 and 1")
add_error("avg_err_depth", A, [np.array((1, 4, 4, 4, 3), np.int32), G],
          "Expected last dimension of tensor_in_shape and out_backprop to match, got 3 and 2")

w.write()
