"""Writes fixtures/nn_grad.pbtxt: the backprop ops of convolution, pooling and batch norm in
TensorFlow (Conv2DBackpropFilter, DepthwiseConv2dNativeBackpropInput/Filter, MaxPoolGrad(V2),
AvgPoolGrad, FusedBatchNormGrad(V2, V3)), replayed by //kernels/cpu/nn:nn_grad_conformance_test.

Run from anywhere: python3 tests/kernels/gen_nn_grad.py (needs TensorFlow 2.x and numpy).

Tolerances (|got - want| <= atol + rtol * |want|):
  Convolution gradients: relative, plus the same absolute term per unit of the output's
    largest magnitude (a sum of products of either sign loses digits to cancellation):
    float32 1e-5 (each output sums up to a few hundred products, in another order than
    TensorFlow's oneDNN or Eigen), float64 1e-10, float16 1e-2 and bfloat16 3e-2 (a few units
    in the last place: Sluice sums in float and rounds once, TensorFlow's half kernel rounds
    partial sums to half).
  MaxPoolGrad: exact, every dtype (the same maxima, gradients added in the same order).
  AvgPoolGrad: exact for float64 and float16 (TensorFlow's Eigen kernel: the same products and
    sums in the same order); float32 1e-6 and bfloat16 1e-2 (TensorFlow's oneDNN kernel sums
    in its own order).
  FusedBatchNormGrad: float32 1e-5 relative, atol 1e-5 * sqrt(values per channel) (TensorFlow
    sums each channel in float, Sluice in double); float16 and bfloat16 x_backprop within 1 rounding of the type (rtol 1e-2 / 2e-2),
    their float statistics 1e-4.

Every error case asserts here that TensorFlow fails with the message part the fixture checks.
Shape errors of the convolution gradients are recorded in float64, where TensorFlow runs its
own kernel; for float32 its oneDNN kernel reports most of them as INTERNAL from inside oneDNN
(or aborts: an input of the wrong rank), while Sluice says INVALID_ARGUMENT for every dtype.

Left out, where TensorFlow aborts or returns what is not the gradient (Sluice's answers are
checked in the kernel unit tests, kernels/cpu/linalg/conv_grad_ops_test.cc and
kernels/cpu/nn/nn_grad_ops_test.cc):
  - inputs of the wrong rank to the float32 convolution gradients and to AvgPoolGrad's
    float32 kernel, and an orig_input_shape of the wrong length: TensorFlow aborts;
  - dilations of the depthwise gradients (TensorFlow's float kernels fail inside oneDNN, the
    others ignore the attr), and of Conv2DBackpropFilter in float64 and float16 (TensorFlow:
    "not yet supported"), and float64/float16 grouped or unequally strided convolutions,
    which only TensorFlow's oneDNN kernels take: Sluice computes all of them;
  - empty gradients where TensorFlow returns uninitialised memory (Sluice zeros): the
    depthwise gradients' empty filters and batches in float64/float16, Conv2DBackpropFilter
    in float64 with no output rows, and MaxPoolGrad with an empty output;
  - AvgPoolGrad in float64/float16 with a window larger than the padded input on both sides:
    TensorFlow's Eigen kernel divides by min(input size, window), not by the number of
    elements the window covers; Sluice gives AvgPool's derivative, as TensorFlow's float32
    kernel does (recorded);
  - an AvgPoolGrad grad whose shape is not AvgPool's output shape, and a ksize of 0 in
    float64: TensorFlow reads out of step or returns zeros, Sluice says INVALID_ARGUMENT;
  - NCHW with EXPLICIT padding, which TensorFlow's oneDNN kernels do not take (its own say
    "only supports NHWC"): Sluice computes it for float32 and bfloat16 as for VALID and SAME;
  - the empty float32 convolution gradients with an empty input depth, and output sizes that
    would be negative: TensorFlow's oneDNN kernel returns an empty or zero result where its
    own kernel (float64, recorded) says INVALID_ARGUMENT, as Sluice does.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
F16, F32, F64 = np.float16, np.float32, np.float64
FLOATS = [F32, F64, F16, BF16]
rng = np.random.default_rng(20270417)
w = CaseWriter("nn_grad")


def name_of(dtype):
  return {np.dtype(BF16): "bf16", np.dtype(F16): "f16", np.dtype(F32): "f32",
          np.dtype(F64): "f64"}.get(np.dtype(dtype), np.dtype(dtype).name)


def normal(shape, dtype=F32):
  return rng.standard_normal(shape).astype(dtype)


def ints(*v):
  return np.array(v, np.int32)


def add_error(name, build, inputs, substr=None):
  """A case where TensorFlow fails; `substr` must be part of its message."""
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  if substr:
    message = w._cases[-1].split("error_message: ")[1].split("\n")[0]  # pylint: disable=protected-access
    assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message differs: " + message


def add_ok(name, build, inputs, rtol=0.0, atol=0.0):
  code = w.add(name, build, inputs, rtol=rtol, atol=atol)
  assert code == 0, name + ": TensorFlow failed"


def conv_tol(dtype, magnitude):
  """(rtol, atol) of a convolution gradient whose outputs reach about `magnitude`."""
  d = np.dtype(dtype)
  if d == np.dtype(F64):
    return 1e-10, 1e-10
  if d == np.dtype(F32):
    return 1e-5, 1e-5 * max(1.0, magnitude)
  tol = 1e-2 if d == np.dtype(F16) else 3e-2
  return tol, tol * max(1.0, magnitude)


# ---- Conv2DBackpropFilter ------------------------------------------------------------------
def bpf(strides=(1, 1, 1, 1), padding="VALID", fmt="NHWC", dil=(1, 1, 1, 1), pads=()):
  return lambda x, s, dy: R.Conv2DBackpropFilter(
      input=x, filter_sizes=s, out_backprop=dy, strides=list(strides), padding=padding,
      data_format=fmt, dilations=list(dil), explicit_paddings=list(pads))


def filter_grad_reference(x, sizes, dy, strides, padding, dil, pads):
  """The filter gradient in float64 NHWC with numpy: it sets the tolerance's scale."""
  n, h, wd, _ = x.shape
  kh, kw = sizes[0], sizes[1]
  sh, sw, dh, dw = strides[1], strides[2], dil[1], dil[2]
  oh, ow = dy.shape[1], dy.shape[2]
  if padding == "EXPLICIT":
    top, left = pads[2], pads[4]
  elif padding == "SAME":
    top = max(0, (oh - 1) * sh + (kh - 1) * dh + 1 - h) // 2
    left = max(0, (ow - 1) * sw + (kw - 1) * dw + 1 - wd) // 2
  else:
    top = left = 0
  big = max(h, wd) + 2 * (max(kh, kw) * max(dh, dw) + max(sh, sw) * (max(oh, ow) + 1))
  xp = np.zeros((n, big, big, x.shape[3]))
  xp[:, top:top + h, left:left + wd, :] = x
  grad = np.zeros(sizes)
  for i in range(kh):
    for j in range(kw):
      xs = xp[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
      grad[i, j] = np.einsum("nhwc,nhwo->co", xs, dy)
  return grad


def out_size(n, k, s, padding, d=1, before=0, after=0):
  eff = (k - 1) * d + 1
  if padding == "VALID":
    return (n - eff + s) // s
  if padding == "SAME":
    return -(-n // s)
  return (n + before + after - eff + s) // s


def add_bpf(name, x_shape, f_shape, dtype, strides=(1, 1), padding="VALID", fmt="NHWC",
            dil=(1, 1), pads=None):
  """A Conv2DBackpropFilter case; shapes are NHWC, transposed for NCHW."""
  n, h, wd, c = x_shape
  ph = pads or (0, 0, 0, 0)
  oh = out_size(h, f_shape[0], strides[0], padding, dil[0], ph[0], ph[1])
  ow = out_size(wd, f_shape[1], strides[1], padding, dil[1], ph[2], ph[3])
  x = normal(x_shape, dtype)
  dy = normal((n, oh, ow, f_shape[3]), dtype)
  s4 = (1, strides[0], strides[1], 1)
  d4 = (1, dil[0], dil[1], 1)
  p8 = (0, 0, ph[0], ph[1], ph[2], ph[3], 0, 0) if pads else ()
  want = filter_grad_reference(x.astype(F64), f_shape, dy.astype(F64), s4, padding, d4, p8)
  if fmt == "NCHW":
    x = x.transpose(0, 3, 1, 2)
    dy = dy.transpose(0, 3, 1, 2)
    s4 = (1, 1, strides[0], strides[1])
    d4 = (1, 1, dil[0], dil[1])
    p8 = (0, 0, 0, 0, ph[0], ph[1], ph[2], ph[3]) if pads else ()
  magnitude = float(np.max(np.abs(want))) if want.size else 1.0
  rtol, atol = conv_tol(dtype, magnitude)
  add_ok(name, bpf(s4, padding, fmt, d4, p8), [x, ints(*f_shape), dy], rtol, atol)


for dt in FLOATS:
  n = name_of(dt)
  add_bpf("bpf_%s_valid" % n, (2, 6, 5, 3), (3, 3, 3, 4), dt)
  add_bpf("bpf_%s_same_s2" % n, (2, 7, 6, 3), (3, 3, 3, 5), dt, (2, 2), "SAME")
  add_bpf("bpf_%s_explicit" % n, (1, 5, 6, 2), (3, 2, 2, 3), dt, (2, 1), "EXPLICIT",
          pads=(1, 2, 0, 1))
  add_bpf("bpf_%s_filter_1x1" % n, (2, 4, 4, 5), (1, 1, 5, 3), dt)
  add_bpf("bpf_%s_filter_larger_same" % n, (1, 3, 4, 2), (5, 5, 2, 3), dt, padding="SAME")
for dt in [F32, BF16]:
  n = name_of(dt)
  add_bpf("bpf_%s_nchw_same_s2" % n, (2, 7, 6, 3), (3, 3, 3, 4), dt, (2, 2), "SAME", "NCHW")
  add_bpf("bpf_%s_dilated" % n, (2, 8, 7, 3), (3, 2, 3, 4), dt, padding="SAME", dil=(2, 3))
  add_bpf("bpf_%s_nchw_dilated" % n, (1, 8, 7, 2), (3, 3, 2, 4), dt, (1, 1), "VALID", "NCHW",
          dil=(2, 2))
add_bpf("bpf_f32_unequal_strides", (2, 9, 8, 3), (3, 2, 3, 4), F32, (3, 2), "SAME")
add_bpf("bpf_f32_many_channels", (1, 6, 6, 16), (3, 3, 16, 32), F32, (1, 1), "SAME")
add_bpf("bpf_f32_stride_larger_than_filter", (1, 10, 9, 2), (2, 2, 2, 3), F32, (3, 4))
add_bpf("bpf_f32_larger", (2, 12, 12, 8), (3, 3, 8, 8), F32, (2, 2), "SAME")
add_bpf("bpf_f64_larger", (1, 9, 9, 4), (5, 5, 4, 6), F64, (1, 1), "SAME")


def grouped_case(name, dtype):
  # Input depth 6, filter depth 3: 2 groups of 3 input and 2 output channels.
  x = normal((2, 5, 5, 6), dtype)
  dy = normal((2, 3, 3, 4), dtype)
  add_ok(name, bpf(), [x, ints(3, 3, 3, 4), dy], 1e-5, 1e-4)


grouped_case("bpf_f32_grouped", F32)
x5 = normal((2, 5, 5, 3))
nan_x = x5.copy()
nan_x[0, 1, 2, 0] = np.nan
nan_x[1, 3, 3, 2] = np.inf
add_ok("bpf_f32_nan_inf", bpf(), [nan_x, ints(3, 3, 3, 4), normal((2, 3, 3, 4))], 1e-5, 1e-4)
add_ok("bpf_f32_empty_batch", bpf(), [normal((0, 5, 5, 3)), ints(3, 3, 3, 4),
                                      normal((0, 3, 3, 4))])
add_ok("bpf_f32_no_out_channels", bpf(), [x5, ints(3, 3, 3, 0), normal((2, 3, 3, 0))])
add_ok("bpf_f64_empty_batch", bpf(), [normal((0, 5, 5, 3), F64), ints(3, 3, 3, 4),
                                      normal((0, 3, 3, 4), F64)])

X64 = normal((2, 5, 5, 3), F64)
DY64 = normal((2, 3, 3, 4), F64)
FS = ints(3, 3, 3, 4)
B = bpf()
add_error("bpf_err_sizes_rank", B, [X64, FS.reshape(2, 2), DY64],
          "filter_sizes input must be 1-dim, not 2")
add_error("bpf_err_sizes_three", B, [X64, ints(3, 3, 3), DY64], "filter must be 4-dimensional")
add_error("bpf_err_sizes_negative", B, [X64, ints(3, -3, 3, 4), DY64], "must be >= 0")
add_error("bpf_err_input_rank", B, [normal((5, 5, 3), F64), FS, DY64],
          "input must be 4-dimensional")
add_error("bpf_err_out_backprop_rank", B, [X64, FS, normal((3, 3, 4), F64)],
          "out_backprop must be 4-dimensional")
add_error("bpf_err_in_depth", B, [X64, ints(3, 3, 2, 4), DY64],
          "input depth must be evenly divisible by filter depth")
add_error("bpf_err_out_depth", B, [X64, ints(3, 3, 3, 5), DY64],
          "filter and out_backprop must have the same out_depth")
add_error("bpf_err_batch", B, [normal((1, 5, 5, 3), F64), FS, DY64],
          "input and out_backprop must have the same batch size. Input batch: 1, outbackprop "
          "batch: 2, batch_dim: 0")
add_error("bpf_err_spatial", B, [X64, FS, normal((2, 3, 4, 4), F64)],
          "Size of out_backprop doesn't match computed: actual = 4, computed = 3 spatial_dim: 2 "
          "input: 5 filter: 3 output: 4 stride: 1 dilation: 1")
add_error("bpf_err_negative_output", B, [normal((2, 1, 5, 3), F64), FS,
                                         normal((2, 0, 3, 4), F64)],
          "Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, "
          "stride: 1]")
add_error("bpf_err_zero_filter_depth", B, [normal((2, 5, 5, 0), F64), ints(3, 3, 0, 4), DY64],
          "filter depth must be strictly greated than zero")
add_error("bpf_err_batch_stride", bpf((2, 1, 1, 1)), [X64, FS, DY64],
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.")
add_error("bpf_err_zero_stride", bpf((1, 0, 1, 1)), [X64, FS, DY64])
add_error("bpf_err_batch_dilation", bpf(dil=(2, 1, 1, 1)), [X64, FS, DY64],
          "Current implementation does not yet support dilations in the batch and depth "
          "dimensions.")
add_error("bpf_err_three_dilations", bpf(dil=(1, 2, 2)), [X64, FS, DY64],
          "Sliding window dilations field must specify 4 dimensions")
add_error("bpf_err_zero_dilation", bpf(dil=(1, 0, 1, 1)), [normal((2, 5, 5, 3)), FS,
                                                            normal((2, 3, 3, 4))],
          "Dilated rates should be larger than 0.")
add_error("bpf_err_pads_for_valid", bpf(pads=(0, 0, 1, 1, 1, 1, 0, 0)), [X64, FS, DY64],
          "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT")
add_error("bpf_err_six_pads", bpf(padding="EXPLICIT", pads=(0, 0, 1, 1, 1, 1)), [X64, FS, DY64],
          "explicit_paddings attribute must contain 8 values, but got: 6")
add_error("bpf_err_negative_pad", bpf(padding="EXPLICIT", pads=(0, 0, -1, 1, 1, 1, 0, 0)),
          [X64, FS, DY64], "All elements of explicit_paddings must be nonnegative")
add_error("bpf_err_batch_pad", bpf(padding="EXPLICIT", pads=(1, 0, 1, 1, 1, 1, 0, 0)),
          [X64, FS, DY64],
          "Nonzero explicit padding in the batch or depth dimensions is not supported")
for dt in [F64, F16]:
  add_error("bpf_err_nchw_" + name_of(dt), bpf(fmt="NCHW"),
            [normal((2, 3, 5, 5), dt), FS, normal((2, 4, 3, 3), dt)],
            "Conv2DCustomBackpropFilterOp only supports NHWC.")


# ---- DepthwiseConv2dNativeBackpropInput / Filter -------------------------------------------
def dwi(strides=(1, 1, 1, 1), padding="VALID", fmt="NHWC", pads=()):
  return lambda s, f, dy: R.DepthwiseConv2dNativeBackpropInput(
      input_sizes=s, filter=f, out_backprop=dy, strides=list(strides), padding=padding,
      data_format=fmt, explicit_paddings=list(pads))


def dwf(strides=(1, 1, 1, 1), padding="VALID", fmt="NHWC", pads=()):
  return lambda x, s, dy: R.DepthwiseConv2dNativeBackpropFilter(
      input=x, filter_sizes=s, out_backprop=dy, strides=list(strides), padding=padding,
      data_format=fmt, explicit_paddings=list(pads))


def depthwise_grads(x, f, dy, strides, padding, pads):
  """Both gradients by autodiff of DepthwiseConv2dNative in float32 NHWC (TensorFlow's own
  float64 kernel takes equal strides only): they set the tolerances' scale."""
  x, f, dy = x.astype(F32), f.astype(F32), dy.astype(F32)
  xv = tf.Variable(x)
  fv = tf.Variable(f)
  with tf.GradientTape() as tape:
    y = R.DepthwiseConv2dNative(input=xv, filter=fv, strides=list(strides), padding=padding,
                                explicit_paddings=list(pads))
    loss = tf.reduce_sum(y * dy)
  gx, gf = tape.gradient(loss, [xv, fv])
  return gx.numpy(), gf.numpy()


def add_depthwise(name, x_shape, f_shape, dtypes, strides=(1, 1), padding="VALID", fmt="NHWC",
                  pads=None, sizes2=False):
  n, h, wd, c = x_shape
  ph = pads or (0, 0, 0, 0)
  oh = out_size(h, f_shape[0], strides[0], padding, 1, ph[0], ph[1])
  ow = out_size(wd, f_shape[1], strides[1], padding, 1, ph[2], ph[3])
  x0 = normal(x_shape, F64)
  f0 = normal(f_shape, F64)
  dy0 = normal((n, oh, ow, c * f_shape[3]), F64)
  s4 = (1, strides[0], strides[1], 1)
  p8 = (0, 0, ph[0], ph[1], ph[2], ph[3], 0, 0) if pads else ()
  gx, gf = depthwise_grads(x0, f0, dy0, s4, padding, p8)
  if fmt == "NCHW":
    x0 = x0.transpose(0, 3, 1, 2)
    dy0 = dy0.transpose(0, 3, 1, 2)
    s4 = (1, 1, strides[0], strides[1])
    p8 = (0, 0, 0, 0, ph[0], ph[1], ph[2], ph[3]) if pads else ()
  for dt in dtypes:
    nm = name_of(dt)
    sizes = ints(*x0.shape) if not sizes2 else ints(*(x0.shape[1:3] if fmt == "NHWC"
                                                      else x0.shape[2:4]))
    rtol, atol = conv_tol(dt, float(np.max(np.abs(gx))))
    add_ok("dwi_%s_%s" % (nm, name), dwi(s4, padding, fmt, p8),
           [sizes, f0.astype(dt), dy0.astype(dt)], rtol, atol)
    if sizes2:
      continue
    rtol, atol = conv_tol(dt, float(np.max(np.abs(gf))))
    add_ok("dwf_%s_%s" % (nm, name), dwf(s4, padding, fmt, p8),
           [x0.astype(dt), ints(*f_shape), dy0.astype(dt)], rtol, atol)


add_depthwise("valid", (2, 6, 5, 3), (3, 3, 3, 2), FLOATS)
add_depthwise("same_s2", (2, 7, 6, 4), (3, 3, 4, 1), FLOATS, (2, 2), "SAME")
add_depthwise("explicit", (1, 5, 6, 2), (3, 2, 2, 3), FLOATS, (2, 2), "EXPLICIT",
              pads=(1, 2, 0, 1))
add_depthwise("filter_larger_same", (1, 3, 4, 2), (5, 5, 2, 2), FLOATS, padding="SAME")
add_depthwise("nchw_same", (2, 6, 6, 3), (3, 3, 3, 2), [F32, BF16], (1, 1), "SAME", "NCHW")
add_depthwise("unequal_strides", (2, 9, 8, 3), (3, 3, 3, 2), [F32, BF16], (2, 3), "SAME")
add_depthwise("many_channels", (1, 6, 6, 32), (3, 3, 32, 1), [F32], (1, 1), "SAME")
add_depthwise("multiplier_4", (1, 7, 7, 8), (3, 3, 8, 4), [F32, F64], (2, 2), "VALID")
add_depthwise("sizes2", (2, 6, 5, 3), (3, 3, 3, 2), [F32], sizes2=True)
add_depthwise("nchw_sizes2", (2, 6, 5, 3), (3, 3, 3, 2), [F32], (1, 1), "SAME", "NCHW",
              sizes2=True)

F3 = normal((3, 3, 3, 2))
add_ok("dwi_f32_empty_batch", dwi(), [ints(0, 5, 5, 3), F3, normal((0, 3, 3, 6))])
add_ok("dwi_f32_no_multiplier", dwi(), [ints(2, 5, 5, 3), normal((3, 3, 3, 0)),
                                        normal((2, 3, 3, 0))])
add_ok("dwi_f64_empty_depth", dwi(), [ints(2, 5, 5, 0), normal((3, 3, 0, 2), F64),
                                      normal((2, 3, 3, 0), F64)])
add_ok("dwf_f32_empty_batch", dwf(), [normal((0, 5, 5, 3)), ints(3, 3, 3, 2),
                                      normal((0, 3, 3, 6))])
add_ok("dwf_f32_no_multiplier", dwf(), [normal((2, 5, 5, 3)), ints(3, 3, 3, 0),
                                        normal((2, 3, 3, 0))])
add_ok("dwf_f64_empty_depth", dwf(), [normal((2, 5, 5, 0), F64), ints(3, 3, 0, 2),
                                      normal((2, 3, 3, 0), F64)])

XS = ints(2, 5, 5, 3)
F64F = normal((3, 3, 3, 2), F64)
DW_DY = normal((2, 3, 3, 6), F64)
DW_X = normal((2, 5, 5, 3), F64)
DWFS = ints(3, 3, 3, 2)
add_error("dwi_err_sizes_rank", dwi(), [XS.reshape(2, 2), F64F, DW_DY],
          "input_sizes input must be 1-dim, not 2")
add_error("dwi_err_sizes_three", dwi(), [ints(2, 5, 5), F64F, DW_DY])
add_error("dwi_err_sizes_negative", dwi(), [ints(2, -5, 5, 3), F64F, DW_DY])
add_error("dwi_err_filter_rank", dwi(), [XS, normal((3, 3, 3), F64), DW_DY],
          "DepthwiseConv2DBackpropInput: filter must be 4-dimensional")
add_error("dwi_err_out_backprop_rank", dwi(), [XS, F64F, normal((3, 3, 6), F64)],
          "DepthwiseConv2DBackpropInput: out_backprop must be 4-dimensional")
add_error("dwi_err_in_depth", dwi(), [ints(2, 5, 5, 4), F64F, DW_DY],
          "DepthwiseConv2DBackpropInput: input and filter must have the same in_depth")
add_error("dwi_err_out_depth", dwi(), [XS, F64F, normal((2, 3, 3, 5), F64)],
          "DepthwiseConv2DBackpropInput: depth_multiplier * in_depth not equal to out_depth")
add_error("dwi_err_batch", dwi(), [ints(1, 5, 5, 3), F64F, DW_DY],
          "DepthwiseConv2DBackpropInput: input and out_backprop must have the same batch size")
add_error("dwi_err_cols", dwi(), [XS, F64F, normal((2, 3, 4, 6), F64)],
          "DepthwiseConv2DBackpropInput: Number of cols of out_backprop doesn't match computed: "
          "actual = 4, computed = 3")
add_error("dwi_err_rows", dwi(), [XS, F64F, normal((2, 2, 3, 6), F64)],
          "DepthwiseConv2DBackpropInput: Number of rows of out_backprop doesn't match computed: "
          "actual = 2, computed = 3")
add_error("dwi_err_negative_output", dwi(), [ints(2, 1, 5, 3), F64F, normal((2, 0, 3, 6), F64)],
          "Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, "
          "stride: 1]")
add_error("dwi_err_batch_stride", dwi((2, 1, 1, 1)), [XS, F64F, DW_DY],
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.")
add_error("dwi_err_zero_stride", dwi((1, 0, 0, 1)), [XS, F64F, DW_DY])
add_error("dwi_err_three_strides", dwi((1, 1, 1)), [XS, F64F, DW_DY],
          "Sliding window strides field must specify 4 dimensions")
add_error("dwi_err_six_pads", dwi(padding="EXPLICIT", pads=(0, 0, 1, 1, 1, 1)),
          [XS, F64F, DW_DY], "explicit_paddings attribute must contain 8 values, but got: 6")
add_error("dwf_err_sizes_rank", dwf(), [DW_X, DWFS.reshape(2, 2), DW_DY],
          "filter_sizes input must be 1-dim, not 2")
add_error("dwf_err_sizes_three", dwf(), [DW_X, ints(3, 3, 3), DW_DY],
          "DepthwiseConv2DBackpropFilter: filter must be 4-dimensional")
add_error("dwf_err_sizes_negative", dwf(), [DW_X, ints(3, -3, 3, 2), DW_DY],
          "Dimension 1 of filter_sizes must be >= 0")
add_error("dwf_err_input_rank", dwf(), [normal((5, 5, 3), F64), DWFS, DW_DY],
          "DepthwiseConv2DBackpropFilter: input must be 4-dimensional")
add_error("dwf_err_out_backprop_rank", dwf(), [DW_X, DWFS, normal((3, 3, 6), F64)],
          "DepthwiseConv2DBackpropFilter: out_backprop must be 4-dimensional")
add_error("dwf_err_in_depth", dwf(), [DW_X, ints(3, 3, 4, 2), normal((2, 3, 3, 8), F64)],
          "DepthwiseConv2DBackpropFilter: input and filter must have the same in_depth")
add_error("dwf_err_out_depth", dwf(), [DW_X, DWFS, normal((2, 3, 3, 5), F64)],
          "DepthwiseConv2DBackpropFilter: depth_multiplier * in_depth not equal to out_depth")
add_error("dwf_err_batch", dwf(), [normal((1, 5, 5, 3), F64), DWFS, DW_DY],
          "DepthwiseConv2DBackpropFilter: input and out_backprop must have the same batch size")
add_error("dwf_err_cols", dwf(), [DW_X, DWFS, normal((2, 3, 4, 6), F64)],
          "DepthwiseConv2DBackpropFilter: Number of cols of out_backprop doesn't match "
          "computed: actual = 4, computed = 3")
for dt in [F64, F16]:
  add_error("dwi_err_nchw_" + name_of(dt), dwi(fmt="NCHW"),
            [ints(2, 3, 5, 5), F64F.astype(dt), normal((2, 6, 3, 3), dt)],
            "Depthwise convolution on CPU is only supported for NHWC format")
  add_error("dwf_err_nchw_" + name_of(dt), dwf(fmt="NCHW"),
            [normal((2, 3, 5, 5), dt), DWFS, normal((2, 6, 3, 3), dt)],
            "Depthwise convolution on CPU is only supported for NHWC format")


# ---- MaxPoolGrad, MaxPoolGradV2 ------------------------------------------------------------
def mpg(ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID", pads=(), fmt="NHWC"):
  return lambda x, y, g: R.MaxPoolGrad(
      orig_input=x, orig_output=y, grad=g, ksize=list(ksize), strides=list(strides),
      padding=padding, explicit_paddings=list(pads), data_format=fmt)


def mpg2(padding="VALID", fmt="NHWC"):
  return lambda x, y, g, k, s: R.MaxPoolGradV2(
      orig_input=x, orig_output=y, grad=g, ksize=k, strides=s, padding=padding, data_format=fmt)


def max_pool(x, ksize, strides, padding, pads=()):
  if padding == "EXPLICIT":
    padding = [[pads[0], pads[1]], [pads[2], pads[3]], [pads[4], pads[5]], [pads[6], pads[7]]]
  return tf.nn.max_pool2d(tf.constant(x), list(ksize), list(strides), padding).numpy()


INTS = [np.int32, np.int64, np.uint8, np.int16, np.int8, np.uint16, np.uint32, np.uint64]


def values(shape, dtype):
  """Values for a pooling case: normal floats; small integers (ties happen) otherwise."""
  if np.issubdtype(np.dtype(dtype), np.integer):
    return rng.integers(0, 6, shape).astype(dtype)
  return normal(shape, dtype)


def add_mpg(name, x_shape, dtype, ksize=(2, 2), strides=(2, 2), padding="VALID", pads=None,
            v2=False):
  x = values(x_shape, dtype)
  k4 = (1, ksize[0], ksize[1], 1)
  s4 = (1, strides[0], strides[1], 1)
  p8 = (0, 0, pads[0], pads[1], pads[2], pads[3], 0, 0) if pads else ()
  # orig_output only needs its shape; its values are the real maxima all the same.
  y = max_pool(x.astype(F64), k4, s4, padding, p8).astype(dtype)
  g = values(y.shape, dtype)
  if v2:
    add_ok(name, mpg2(padding), [x, y, g, ints(*k4), ints(*s4)])
  else:
    add_ok(name, mpg(k4, s4, padding, p8), [x, y, g])


for dt in FLOATS + INTS:
  n = name_of(dt)
  add_mpg("mpg_%s_valid" % n, (2, 6, 6, 3), dt)
  add_mpg("mpg_%s_same_overlapping" % n, (2, 5, 6, 3), dt, (3, 3), (1, 1), "SAME")
for dt in [F32, F64, F16, BF16, np.int32]:
  n = name_of(dt)
  add_mpg("mpg_%s_same_s2" % n, (1, 7, 6, 4), dt, (3, 2), (2, 2), "SAME")
  add_mpg("mpg_%s_explicit" % n, (2, 5, 6, 3), dt, (3, 3), (2, 1), "EXPLICIT", (1, 2, 2, 0))
  add_mpg("mpg_%s_v2_same" % n, (2, 5, 7, 3), dt, (2, 3), (2, 2), "SAME", v2=True)
# int8 gradients of 100 reaching the same input element wrap around, as in TensorFlow.
add_ok("mpg_int8_wrap", mpg((1, 2, 2, 1), (1, 1, 1, 1)),
       [np.zeros((1, 3, 3, 1), np.int8), np.zeros((1, 2, 2, 1), np.int8),
        np.full((1, 2, 2, 1), 100, np.int8)])
add_mpg("mpg_f32_window_larger_same", (1, 3, 2, 2), F32, (5, 4), (1, 1), "SAME")
add_mpg("mpg_f32_stride_larger_than_window", (1, 9, 10, 2), F32, (2, 2), (3, 4))
add_mpg("mpg_f32_larger", (2, 12, 12, 8), F32, (3, 3), (2, 2), "SAME")
add_mpg("mpg_f32_empty_batch", (0, 4, 4, 3), F32)

# Ties keep the first element of the window; NaN wins only as the first; all -inf: the first.
for dt in [F32, F16, BF16, F64]:
  n = name_of(dt)
  k1 = mpg(strides=(1, 1, 1, 1))
  one = np.ones((1, 1, 1, 1), dt)
  for case, vals in [("tie", [1, 3, 3, 2]), ("nan_first", [np.nan, 3, 3, 2]),
                     ("nan_later", [1, np.nan, 3, 2]), ("all_ninf", [-np.inf] * 4)]:
    x = np.array(vals, dt).reshape(1, 2, 2, 1)
    add_ok("mpg_%s_%s" % (n, case), k1, [x, np.zeros((1, 1, 1, 1), dt), one])

X = normal((2, 4, 4, 3))
Y = normal((2, 2, 2, 3))
G = normal((2, 2, 2, 3))
M = mpg()
add_error("mpg_err_input_rank", M, [normal((4, 4, 3)), Y, G], "tensor_in must be 4-dimensional")
add_error("mpg_err_output_rank", M, [X, normal((2, 2, 3)), G], "tensor_out must be 4-dimensional")
add_error("mpg_err_grad_rank", M, [X, Y, normal((2, 2, 3))], "out_backprop must be 4-dimensional")
add_error("mpg_err_output_shape", M, [X, normal((2, 2, 3, 3)), G],
          "Expected orig_output shape to be [2,2,2,3], but got [2,2,3,3]")
add_error("mpg_err_grad_shape", M, [X, Y, normal((2, 3, 2, 3))],
          "Expected grad shape to be [2,2,2,3], but got [2,3,2,3]")
add_error("mpg_err_zero_stride", mpg(strides=(1, 0, 2, 1)), [X, Y, G],
          "Stride must be > 0, but got 0")
add_error("mpg_err_batch_window", mpg(ksize=(2, 2, 2, 1)), [X, Y, G],
          "Pooling is not yet supported on the batch dimension.")
add_error("mpg_err_batch_stride", mpg(strides=(2, 2, 2, 1)), [X, Y, G],
          "Pooling is not yet supported on the batch dimension.")
add_error("mpg_err_depth_window", mpg((1, 1, 1, 3), (1, 1, 1, 3)),
          [X, normal((2, 4, 4, 1)), normal((2, 4, 4, 1))],
          "MaxPoolingGrad is not yet supported on the depth dimension.")
add_error("mpg_err_pad_not_smaller", mpg(strides=(1, 1, 1, 1), padding="EXPLICIT",
                                         pads=(0, 0, 2, 0, 0, 0, 0, 0)),
          [X, normal((2, 5, 3, 3)), normal((2, 5, 3, 3))],
          "Top padding 2 needs to be smaller than the window size 2")
add_error("mpg_err_six_pads", mpg(strides=(1, 1, 1, 1), padding="EXPLICIT",
                                  pads=(0, 0, 1, 1, 1, 1)),
          [X, normal((2, 5, 5, 3)), normal((2, 5, 5, 3))],
          "explicit_paddings attribute must contain 8 values, but got: 6")
for dt in [F32, F64]:
  add_error("mpg_err_nchw_" + name_of(dt), mpg((1, 1, 2, 2), (1, 1, 2, 2), fmt="NCHW"),
            [X.astype(dt), Y.astype(dt), G.astype(dt)],
            "Default MaxPoolingGradOp only supports NHWC on device type CPU")
M2 = mpg2()
K = ints(1, 2, 2, 1)
add_ok("mpg_f32_v2_matrix_ksize", M2, [X, max_pool(X, K, K, "VALID"), G, K.reshape(2, 2), K])
add_error("mpg_err_v2_three_ksize", M2, [X, Y, G, ints(1, 2, 2), K],
          "Sliding window ksize field must specify 4 dimensions")
add_error("mpg_err_v2_three_strides", M2, [X, Y, G, K, ints(1, 2, 2)],
          "Sliding window strides field must specify 4 dimensions")
add_error("mpg_err_v2_batch_window", M2, [X, Y, G, ints(2, 2, 2, 1), K],
          "Pooling is not yet supported on the batch dimension.")
add_error("mpg_err_v2_output_shape", M2, [X, Y, G, ints(1, 3, 2, 1), K],
          "Expected orig_output shape to be [2,1,2,3], but got [2,2,2,3]")
add_error("mpg_err_v2_nchw", mpg2(fmt="NCHW"), [X, Y, G, ints(1, 1, 2, 2), ints(1, 1, 2, 2)],
          "Default MaxPoolingGradOp only supports NHWC on device type CPU")


# ---- AvgPoolGrad ---------------------------------------------------------------------------
def apg(ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID", fmt="NHWC"):
  return lambda s, g: R.AvgPoolGrad(orig_input_shape=s, grad=g, ksize=list(ksize),
                                    strides=list(strides), padding=padding, data_format=fmt)


def apg_tol(dtype):
  d = np.dtype(dtype)
  if d == np.dtype(F32):
    return 1e-6, 1e-6
  if d == np.dtype(BF16):
    return 1e-2, 1e-2
  return 0.0, 0.0


def add_apg(name, x_shape, dtype, ksize=(2, 2), strides=(2, 2), padding="VALID", fmt="NHWC"):
  n, h, wd, c = x_shape
  oh = out_size(h, ksize[0], strides[0], padding)
  ow = out_size(wd, ksize[1], strides[1], padding)
  g = normal((n, oh, ow, c), dtype)
  k4 = (1, ksize[0], ksize[1], 1)
  s4 = (1, strides[0], strides[1], 1)
  sizes = ints(*x_shape)
  if fmt == "NCHW":
    g = g.transpose(0, 3, 1, 2)
    k4 = (1, 1, ksize[0], ksize[1])
    s4 = (1, 1, strides[0], strides[1])
    sizes = ints(n, c, h, wd)
  rtol, atol = apg_tol(dtype)
  add_ok(name, apg(k4, s4, padding, fmt), [sizes, g], rtol, atol)


for dt in FLOATS:
  n = name_of(dt)
  add_apg("apg_%s_valid" % n, (2, 6, 6, 3), dt)
  add_apg("apg_%s_same_s2" % n, (2, 5, 5, 3), dt, (3, 3), (2, 2), "SAME")
  add_apg("apg_%s_same_overlapping" % n, (1, 6, 5, 4), dt, (3, 2), (1, 1), "SAME")
  add_apg("apg_%s_valid_stride_larger" % n, (1, 9, 10, 2), dt, (2, 2), (3, 4))
for dt in [F32, BF16]:
  n = name_of(dt)
  add_apg("apg_%s_nchw_same" % n, (2, 5, 6, 3), dt, (3, 3), (2, 2), "SAME", "NCHW")
  add_apg("apg_%s_nchw_valid" % n, (1, 6, 6, 2), dt, (2, 3), (2, 1), "VALID", "NCHW")
  # Windows larger than the input on both sides (see the module doc).
  add_apg("apg_%s_window_larger_same" % n, (1, 4, 3, 2), dt, (5, 5), (1, 1), "SAME")
add_apg("apg_f32_larger", (2, 12, 12, 8), F32, (3, 3), (2, 2), "SAME")
add_apg("apg_f32_empty_batch", (0, 4, 4, 3), F32)
add_apg("apg_f64_empty_output", (2, 1, 4, 3), F64)

AS = ints(2, 4, 4, 3)
AG = normal((2, 2, 2, 3), F64)
A = apg()
add_error("apg_err_sizes_rank", A, [AS.reshape(2, 2), AG],
          "out_backprop must be 1-dimensional and 4 elements")
add_error("apg_err_sizes_three", A, [ints(2, 4, 4), AG],
          "out_backprop must be 1-dimensional and 4 elements")
add_error("apg_err_grad_rank", A, [AS, normal((2, 2, 3), F64)],
          "out_backprop must be 4-dimensional")
add_error("apg_err_negative_size", A, [ints(2, -4, 4, 3), AG],
          "Expected a non-negative size, got -4")
add_error("apg_err_zero_window", apg(ksize=(1, 0, 2, 1)), [AS, normal((2, 2, 2, 3))],
          "Sliding window ksize must be positive. The specified or inferred ksize is: 1,0,2,1")
add_error("apg_err_zero_stride", apg(strides=(1, 0, 2, 1)), [AS, AG],
          "Stride must be > 0, but got 0")
add_error("apg_err_batch_window", apg(ksize=(2, 2, 2, 1)), [AS, AG],
          "Pooling is not yet supported on the batch dimension.")
add_error("apg_err_depth_window", apg((1, 1, 1, 3), (1, 1, 1, 3)), [AS, normal((2, 4, 4, 1), F64)],
          "Non-spatial pooling is not yet supported. Volunteers? :)")
add_error("apg_err_grad_batch", A, [AS, normal((1, 2, 2, 3))],
          "Expected first dimension of orig_input and diff_dst to match, got 2 and 1")
for dt in [F64, F16]:
  add_error("apg_err_nchw_" + name_of(dt), apg((1, 1, 2, 2), (1, 1, 2, 2), fmt="NCHW"),
            [ints(2, 3, 4, 4), normal((2, 3, 2, 2), dt)],
            "Default AvgPoolingGradOp only supports NHWC on device type CPU")


# ---- FusedBatchNormGrad, V2, V3 ------------------------------------------------------------
def fbg(version, is_training=True, fmt="NHWC", epsilon=0.001):
  if version == 1:
    return lambda dy, x, s, m, v: R.FusedBatchNormGrad(
        y_backprop=dy, x=x, scale=s, reserve_space_1=m, reserve_space_2=v, epsilon=epsilon,
        data_format=fmt, is_training=is_training)
  if version == 2:
    return lambda dy, x, s, m, v: R.FusedBatchNormGradV2(
        y_backprop=dy, x=x, scale=s, reserve_space_1=m, reserve_space_2=v, epsilon=epsilon,
        data_format=fmt, is_training=is_training)
  return lambda dy, x, s, m, v, r: R.FusedBatchNormGradV3(
      y_backprop=dy, x=x, scale=s, reserve_space_1=m, reserve_space_2=v, reserve_space_3=r,
      epsilon=epsilon, data_format=fmt, is_training=is_training)


def fbg_tol(dtype, per_channel):
  """TensorFlow sums each channel's `per_channel` values in float, Sluice in double: the sums
  differ by about sqrt(per_channel) float roundings."""
  d = np.dtype(dtype)
  if d == np.dtype(F16):
    return 1e-2, 1e-2
  if d == np.dtype(BF16):
    return 2e-2, 2e-2
  return 1e-5, 1e-5 * max(1.0, np.sqrt(per_channel))


def add_fbg(name, x_shape, dtype, version=3, is_training=True, fmt="NHWC"):
  channels = x_shape[-1] if fmt in ("NHWC", "NDHWC") else x_shape[1]
  x = (normal(x_shape) * 2 + 0.5).astype(dtype)
  dy = normal(x_shape, dtype)
  axes = tuple(i for i in range(len(x_shape)) if i != (len(x_shape) - 1 if fmt in
                                                        ("NHWC", "NDHWC") else 1))
  if is_training:
    # The statistics FusedBatchNorm saves: the batch mean and biased variance.
    mean = x.astype(F64).mean(axis=axes).astype(F32)
    var = x.astype(F64).var(axis=axes).astype(F32)
  else:
    mean = normal((channels,))
    var = (rng.random(channels) + 0.5).astype(F32)
  scale = normal((channels,))
  inputs = [dy, x, scale, mean, var]
  if version == 3:
    inputs.append(np.zeros((0,), F32))
  rtol, atol = fbg_tol(dtype, x.size // max(channels, 1))
  add_ok(name, fbg(version, is_training, fmt), inputs, rtol, atol)


for training in [True, False]:
  mode = "train" if training else "infer"
  add_fbg("fbg_v1_%s" % mode, (2, 3, 4, 5), F32, 1, training)
  add_fbg("fbg_v1_%s_nchw" % mode, (2, 5, 3, 4), F32, 1, training, "NCHW")
  for dt in [F32, F16, BF16]:
    n = name_of(dt)
    add_fbg("fbg_v2_%s_%s" % (n, mode), (2, 3, 4, 5), dt, 2, training)
    add_fbg("fbg_v3_%s_%s" % (n, mode), (3, 4, 5, 6), dt, 3, training)
    add_fbg("fbg_v3_%s_%s_ndhwc" % (n, mode), (2, 2, 3, 4, 5), dt, 3, training, "NDHWC")
    add_fbg("fbg_v3_%s_%s_ndhwc_4d" % (n, mode), (2, 3, 4, 5), dt, 3, training, "NDHWC")
  for dt in [F32, BF16]:
    add_fbg("fbg_v3_%s_%s_nchw" % (name_of(dt), mode), (2, 5, 3, 4), dt, 3, training, "NCHW")
for dt in [F32, F16, BF16]:
  n = name_of(dt)
  add_fbg("fbg_v3_%s_train_ncdhw" % n, (2, 3, 2, 3, 4), dt, 3, True, "NCDHW")
add_fbg("fbg_v3_f16_train_nchw", (2, 5, 3, 4), F16, 3, True, "NCHW")
add_fbg("fbg_v3_f16_train_5d_nhwc", (2, 2, 3, 4, 5), F16, 3, True, "NHWC")
add_fbg("fbg_v3_f32_train_larger", (4, 8, 8, 8), F32, 3, True)
add_fbg("fbg_v3_f32_train_larger_nchw", (4, 8, 8, 8), F32, 3, True, "NCHW")
add_fbg("fbg_v3_f32_one_element_per_channel", (1, 1, 1, 4), F32, 3, True)
add_ok("fbg_v3_f32_scalar_reserve_space_3", fbg(3),
       [normal((2, 3, 3, 4)), normal((2, 3, 3, 4)), normal((4,)), normal((4,)),
        np.ones((4,), F32), np.float32(0)], 1e-5, 1e-5)
for dt in [F32, F16]:
  z4 = np.zeros((4,), F32)
  add_ok("fbg_v3_%s_empty_batch" % name_of(dt), fbg(3),
         [normal((0, 3, 3, 4), dt), normal((0, 3, 3, 4), dt), z4, z4, z4, np.zeros(0, F32)])
  z0 = np.zeros((0,), F32)
  add_ok("fbg_v3_%s_no_channels" % name_of(dt), fbg(3),
         [normal((2, 3, 3, 0), dt), normal((2, 3, 3, 0), dt), z0, z0, z0, z0])

D = normal((2, 3, 3, 4))
S = normal((4,))
V = np.ones((4,), F32)
R3 = np.zeros((0,), F32)
for dt in [F32, F16]:
  n = name_of(dt)
  Dt = D.astype(dt)
  rank_msg = "input must be 4-dimensional" if dt == F32 else "input must be 4 or 5-dimensional"
  add_error("fbg_err_%s_x_rank" % n, fbg(3), [Dt, normal((3, 3, 4), dt), S, S, V, R3],
            rank_msg + "[3,3,4]")
  add_error("fbg_err_%s_dy_rank" % n, fbg(3), [normal((3, 3, 4), dt), Dt, S, S, V, R3],
            rank_msg + "[3,3,4]")
  add_error("fbg_err_%s_shapes" % n, fbg(3), [normal((2, 3, 2, 4), dt), Dt, S, S, V, R3],
            "x and y_backprop must have same shape, but x has shape [2,3,3,4] and y_backprop "
            "has shape [2,3,2,4]")
  add_error("fbg_err_%s_scale_rank" % n, fbg(3), [Dt, Dt, normal((2, 2)), S, V, R3],
            "scale must be 1-dimensional[2,2]")
  add_error("fbg_err_%s_mean_rank" % n, fbg(3), [Dt, Dt, S, normal((2, 2)), V, R3],
            "saved mean must be 1-dimensional[2,2]")
  add_error("fbg_err_%s_variance_rank" % n, fbg(3), [Dt, Dt, S, S, normal((2, 2)), R3],
            "saved variance must be 1-dimensional[2,2]")
  add_error("fbg_err_%s_scale_size" % n, fbg(3), [Dt, Dt, normal((3,)), S, V, R3],
            "scale must have the same number of elements as the channels of x, got 3 and 4")
  add_error("fbg_err_%s_mean_size" % n, fbg(3), [Dt, Dt, S, normal((3,)), V, R3],
            "reserve_space_1 must have the same number of elements as the channels of x, got 3 "
            "and 4")
  add_error("fbg_err_%s_variance_size" % n, fbg(3), [Dt, Dt, S, S, np.ones((3,), F32), R3],
            "reserve_space_2 must have the same number of elements as the channels of x, got 3 "
            "and 4")
add_error("fbg_err_f32_5d_nhwc", fbg(3), [normal((2, 2, 3, 3, 4)), normal((2, 2, 3, 3, 4)),
                                          S, S, V, R3],
          "input must be 4-dimensional[2,2,3,3,4]")
add_error("fbg_err_f32_ncdhw_4d_channels", fbg(3, fmt="NCDHW"), [D, D, S, S, V, R3],
          "scale must have the same number of elements as the channels of x, got 4 and 3")
FIVE = normal((2, 3, 2, 2, 2))
THREE = normal((3,))
for dt in [F32, F16]:
  add_error("fbg_err_%s_infer_ncdhw" % name_of(dt), fbg(3, False, "NCDHW"),
            [FIVE.astype(dt), FIVE.astype(dt), THREE, THREE, np.ones(3, F32), R3],
            "The implementation of FusedBatchNormGrad with is_training=False only support NHWC "
            "tensor format for now.")
add_error("fbg_err_f16_infer_nchw", fbg(3, False, "NCHW"),
          [D.astype(F16), D.astype(F16), THREE, THREE, np.ones(3, F32), R3],
          "The implementation of FusedBatchNormGrad with is_training=False only support NHWC "
          "tensor format for now.")
add_error("fbg_err_v1_x_rank", fbg(1), [D, normal((3, 3, 4)), S, S, V],
          "input must be 4-dimensional[3,3,4]")

w.write()
