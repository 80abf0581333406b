"""Writes fixtures/nn.pbtxt: pooling, batch normalization, softmax, LRN and LRNGrad in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_nn.py (needs TensorFlow 2.x and numpy).

Tolerances (|got - want| <= atol + rtol * |want|), per op and dtype:
  MaxPool, MaxPoolV2:        exact (a max selects an input element).
  AvgPool:                   float 1e-5/1e-6, double 1e-12, half 2e-3, bfloat16 2e-2
                             (summation order differs from TensorFlow's).
  Softmax, LogSoftmax:       float 1e-5/1e-6, double 1e-12, half 2e-3, bfloat16 2e-2.
  FusedBatchNorm(V3):        float 1e-4 (statistics accumulate in double here, in float in
                             TensorFlow), half 4e-3, bfloat16 3e-2 (y is rounded to T).
  LRN:                       float 1e-5, half 2e-3.
  LRNGrad:                   float 1e-5 (atol 1e-6), half 1e-2 (both compute in T as
                             TensorFlow's kernel; the sums' order and pow differ).
TensorFlow's CPU runs float and bfloat16 pooling, softmax and 4-D batch norm through
oneDNN; cases that only show oneDNN's own quirks (NaN handling of float softmax, ABORTED for
a scalar float softmax, AvgPool over channels) use the dtypes TensorFlow's Eigen kernels
serve instead. One large uint8 MaxPool exercises the parallel split; the other kernels'
parallel paths are covered by their unit tests, which keeps this file small. Shapes that
crash TensorFlow itself (float MaxPool with an empty VALID output) are not recorded.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(2024)
bf16 = tf.bfloat16.as_numpy_dtype
w = CaseWriter("nn")
raw = tf.raw_ops

FLOATS = [("f32", np.float32), ("f64", np.float64), ("f16", np.float16), ("bf16", bf16)]
INTS = [("i32", np.int32), ("i64", np.int64), ("u8", np.uint8), ("i16", np.int16),
        ("i8", np.int8), ("u16", np.uint16)]
TOL = {"f32": (1e-5, 1e-6), "f64": (1e-12, 1e-12), "f16": (2e-3, 2e-3), "bf16": (2e-2, 2e-2)}


def normal(shape, dtype=np.float32):
  return rng.standard_normal(shape).astype(np.float32).astype(dtype)


def ints(shape, dtype):
  lo, hi = (0, 200) if np.dtype(dtype).kind == "u" else (-100, 100)
  return rng.integers(lo, hi, shape).astype(dtype)


def maxpool(ksize, strides, padding, data_format="NHWC", explicit_paddings=()):
  return lambda x: raw.MaxPool(input=x, ksize=ksize, strides=strides, padding=padding,
                               explicit_paddings=list(explicit_paddings),
                               data_format=data_format)


def avgpool(ksize, strides, padding, data_format="NHWC"):
  return lambda x: raw.AvgPool(value=x, ksize=ksize, strides=strides, padding=padding,
                               data_format=data_format)


def maxpool_v2(padding, data_format="NHWC"):
  return lambda x, k, s: raw.MaxPoolV2(input=x, ksize=k, strides=s, padding=padding,
                                       data_format=data_format)


i32 = lambda *v: np.array(v, np.int32)

# ---- MaxPool ---------------------------------------------------------------------------
for name, dt in FLOATS + INTS:
  x = normal((2, 5, 5, 3), dt) if name in dict(FLOATS) else ints((2, 5, 5, 3), dt)
  w.add("maxpool_%s_valid" % name, maxpool([1, 2, 2, 1], [1, 2, 2, 1], "VALID"), [x])
  w.add("maxpool_%s_same" % name, maxpool([1, 3, 3, 1], [1, 2, 2, 1], "SAME"), [x])
  w.add("maxpool_%s_explicit" % name,
        maxpool([1, 3, 2, 1], [1, 2, 1, 1], "EXPLICIT",
                explicit_paddings=[0, 0, 2, 1, 1, 0, 0, 0]), [x])
  w.add("maxpool_%s_depthwise" % name, maxpool([1, 1, 1, 3], [1, 1, 1, 3], "VALID"),
        [x[..., :3].repeat(2, axis=-1)])
for name, dt in [("f32", np.float32), ("bf16", bf16)]:
  x = normal((2, 3, 6, 5), dt)
  w.add("maxpool_%s_nchw_valid" % name, maxpool([1, 1, 2, 2], [1, 1, 2, 2], "VALID", "NCHW"), [x])
  w.add("maxpool_%s_nchw_same" % name, maxpool([1, 1, 3, 3], [1, 1, 2, 1], "SAME", "NCHW"), [x])
nan_row = np.array([np.nan, 1, 2, np.nan, -np.inf, -np.inf, np.inf, 3]).reshape(1, 1, 8, 1)
for name, dt in [("f32", np.float32), ("f64", np.float64), ("f16", np.float16)]:
  w.add("maxpool_%s_nan_inf" % name, maxpool([1, 1, 2, 1], [1, 1, 2, 1], "VALID"),
        [nan_row.astype(dt)])
x = normal((2, 4, 4, 3))
w.add("maxpool_f32_empty_batch", maxpool([1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
      [np.zeros((0, 4, 4, 3), np.float32)])
w.add("maxpool_f32_empty_depth", maxpool([1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
      [np.zeros((1, 4, 4, 0), np.float32)])
w.add("maxpool_f64_empty_valid_output", maxpool([1, 5, 5, 1], [1, 1, 1, 1], "VALID"),
      [x.astype(np.float64)])
w.add("maxpool_f32_window_over_input_same", maxpool([1, 7, 7, 1], [1, 1, 1, 1], "SAME"), [x])
w.add("maxpool_f32_stride_over_window", maxpool([1, 1, 1, 1], [1, 3, 3, 1], "SAME"), [x])
w.add("maxpool_f32_depth_stride_ignored", maxpool([1, 2, 2, 1], [1, 1, 1, 3], "VALID"), [x])
# The one large case (uint8 keeps the fixture small): an output above the parallel threshold.
w.add("maxpool_u8_large_parallel", maxpool([1, 3, 3, 1], [1, 1, 1, 1], "SAME"),
      [rng.integers(40, 120, (1, 32, 32, 40)).astype(np.uint8)])
# Bad inputs.
w.add("maxpool_rank3", maxpool([1, 2, 2, 1], [1, 1, 1, 1], "VALID"), [x[0]])
w.add("maxpool_rank5", maxpool([1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
      [x[None].astype(np.float64)])
w.add("maxpool_batch_window", maxpool([2, 2, 2, 1], [1, 1, 1, 1], "VALID"), [x])
w.add("maxpool_batch_stride", maxpool([1, 2, 2, 1], [2, 1, 1, 1], "VALID"), [x])
w.add("maxpool_ksize_zero", maxpool([1, 0, 2, 1], [1, 1, 1, 1], "VALID"), [x])
w.add("maxpool_ksize_negative", maxpool([1, -2, 2, 1], [1, 1, 1, 1], "VALID"),
      [x.astype(np.float64)])
w.add("maxpool_depth_and_spatial", maxpool([1, 2, 1, 3], [1, 1, 1, 3], "VALID"), [x])
w.add("maxpool_depth_not_dividing", maxpool([1, 1, 1, 2], [1, 1, 1, 2], "VALID"), [x])
w.add("maxpool_depth_stride_mismatch", maxpool([1, 1, 1, 3], [1, 1, 1, 1], "VALID"), [x])
w.add("maxpool_depthwise_explicit",
      maxpool([1, 1, 1, 3], [1, 1, 1, 3], "EXPLICIT", explicit_paddings=[0] * 8),
      [x.astype(np.float64)])
w.add("maxpool_negative_output", maxpool([1, 5, 1, 1], [1, 1, 1, 1], "VALID"), [x[:, :1]])
w.add("maxpool_explicit_pad_too_big",
      maxpool([1, 2, 2, 1], [1, 1, 1, 1], "EXPLICIT",
              explicit_paddings=[0, 0, 2, 0, 0, 0, 0, 0]), [x])
w.add("maxpool_explicit_right_pad_too_big",
      maxpool([1, 2, 2, 1], [1, 1, 1, 1], "EXPLICIT",
              explicit_paddings=[0, 0, 1, 0, 0, 2, 0, 0]), [x])
for name, dt in [("f64", np.float64), ("f16", np.float16), ("i32", np.int32)]:
  w.add("maxpool_%s_nchw_unsupported" % name,
        maxpool([1, 1, 2, 2], [1, 1, 2, 2], "VALID", "NCHW"), [x.astype(dt)])
w.add("maxpool_f32_nchw_explicit_unsupported",
      maxpool([1, 1, 2, 2], [1, 1, 1, 1], "EXPLICIT", "NCHW", [0, 0, 0, 0, 1, 0, 0, 1]), [x])

# ---- MaxPoolV2 -------------------------------------------------------------------------
for name, dt in [("f32", np.float32), ("f16", np.float16), ("i32", np.int32), ("u8", np.uint8)]:
  x = normal((2, 5, 6, 3), dt) if dt != np.int32 and dt != np.uint8 else ints((2, 5, 6, 3), dt)
  w.add("maxpoolv2_%s_valid" % name, maxpool_v2("VALID"), [x, i32(1, 2, 2, 1), i32(1, 2, 2, 1)])
  w.add("maxpoolv2_%s_same" % name, maxpool_v2("SAME"), [x, i32(1, 3, 3, 1), i32(1, 2, 1, 1)])
x = normal((2, 4, 4, 6))
w.add("maxpoolv2_f32_depthwise", maxpool_v2("VALID"), [x, i32(1, 1, 1, 3), i32(1, 1, 1, 3)])
w.add("maxpoolv2_f32_ksize_matrix", maxpool_v2("VALID"),
      [x, np.array([[1, 2], [2, 1]], np.int32), i32(1, 1, 1, 1)])
w.add("maxpoolv2_ksize_3", maxpool_v2("VALID"), [x, i32(1, 2, 2), i32(1, 1, 1, 1)])
w.add("maxpoolv2_strides_3", maxpool_v2("VALID"), [x, i32(1, 2, 2, 1), i32(1, 1, 1)])
w.add("maxpoolv2_batch_window", maxpool_v2("VALID"), [x, i32(2, 2, 2, 1), i32(1, 1, 1, 1)])
w.add("maxpoolv2_ksize_zero", maxpool_v2("VALID"), [x, i32(1, 0, 2, 1), i32(1, 1, 1, 1)])
w.add("maxpoolv2_stride_zero", maxpool_v2("VALID"), [x, i32(1, 2, 2, 1), i32(1, 0, 1, 1)])
w.add("maxpoolv2_rank3", maxpool_v2("VALID"), [x[0], i32(1, 2, 2, 1), i32(1, 1, 1, 1)])
w.add("maxpoolv2_nchw_unsupported", maxpool_v2("VALID", "NCHW"),
      [x, i32(1, 1, 2, 2), i32(1, 1, 2, 2)])

# ---- AvgPool ---------------------------------------------------------------------------
for name, dt in FLOATS:
  rtol, atol = TOL[name]
  x = normal((2, 5, 5, 3), dt)
  w.add("avgpool_%s_valid" % name, avgpool([1, 2, 2, 1], [1, 2, 2, 1], "VALID"), [x],
        rtol=rtol, atol=atol)
  w.add("avgpool_%s_same" % name, avgpool([1, 3, 3, 1], [1, 2, 2, 1], "SAME"), [x],
        rtol=rtol, atol=atol)
  w.add("avgpool_%s_same_stride1" % name, avgpool([1, 2, 3, 1], [1, 1, 1, 1], "SAME"), [x],
        rtol=rtol, atol=atol)
for name, dt in [("f32", np.float32), ("bf16", bf16)]:
  rtol, atol = TOL[name]
  x = normal((2, 3, 6, 5), dt)
  w.add("avgpool_%s_nchw_valid" % name, avgpool([1, 1, 2, 2], [1, 1, 2, 2], "VALID", "NCHW"),
        [x], rtol=rtol, atol=atol)
  w.add("avgpool_%s_nchw_same" % name, avgpool([1, 1, 3, 3], [1, 1, 2, 1], "SAME", "NCHW"),
        [x], rtol=rtol, atol=atol)
x = normal((2, 4, 4, 3))
w.add("avgpool_f32_window_over_input_same", avgpool([1, 5, 5, 1], [1, 1, 1, 1], "SAME"), [x],
      rtol=1e-5, atol=1e-6)
w.add("avgpool_f64_empty_valid_output", avgpool([1, 5, 2, 1], [1, 1, 1, 1], "VALID"),
      [x.astype(np.float64)])
w.add("avgpool_f32_empty_rows", avgpool([1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
      [np.zeros((1, 0, 4, 2), np.float32)])
w.add("avgpool_f32_inf", avgpool([1, 1, 2, 1], [1, 1, 2, 1], "VALID"),
      [np.array([np.inf, 1, -np.inf, 2, np.inf, -np.inf], np.float32).reshape(1, 1, 6, 1)])
w.add("avgpool_rank3", avgpool([1, 2, 2, 1], [1, 1, 1, 1], "VALID"), [x[0]])
w.add("avgpool_batch_window", avgpool([2, 2, 2, 1], [1, 1, 1, 1], "VALID"), [x])
w.add("avgpool_ksize_zero", avgpool([1, 0, 2, 1], [1, 1, 1, 1], "VALID"),
      [x.astype(np.float64)])
w.add("avgpool_f64_over_channels", avgpool([1, 1, 1, 3], [1, 1, 1, 3], "VALID"),
      [x.astype(np.float64)])
w.add("avgpool_depth_and_spatial", avgpool([1, 2, 1, 3], [1, 1, 1, 3], "VALID"), [x])
w.add("avgpool_negative_output", avgpool([1, 5, 1, 1], [1, 1, 1, 1], "VALID"), [x[:, :1]])
for name, dt in [("f64", np.float64), ("f16", np.float16)]:
  w.add("avgpool_%s_nchw_unsupported" % name,
        avgpool([1, 1, 2, 2], [1, 1, 2, 2], "VALID", "NCHW"), [x.astype(dt)])


# ---- FusedBatchNorm, FusedBatchNormV3 --------------------------------------------------
BN_TOL = {"f32": (1e-4, 1e-4), "f16": (4e-3, 4e-3), "bf16": (3e-2, 3e-2)}


def batch_norm(v3, is_training, data_format="NHWC", epsilon=0.001, factor=1.0):
  op = raw.FusedBatchNormV3 if v3 else raw.FusedBatchNorm
  return lambda x, s, o, m, v: op(x=x, scale=s, offset=o, mean=m, variance=v,
                                  epsilon=epsilon, exponential_avg_factor=factor,
                                  data_format=data_format, is_training=is_training)


def channel_stats(c):
  return [rng.uniform(0.5, 1.5, c).astype(np.float32) for _ in range(4)]


for v3 in (False, True):
  tag = "v3" if v3 else "v1"
  for fmt, shape in (("NHWC", (2, 3, 4, 5)), ("NCHW", (2, 5, 3, 4))):
    for training in (True, False):
      for factor in ((1.0, 0.25) if training else (1.0,)):
        x = normal(shape) * 2 + 0.5
        w.add("fbn_%s_f32_%s_%s_f%g" % (tag, fmt.lower(), "train" if training else "infer",
                                         factor),
              batch_norm(v3, training, fmt, factor=factor), [x] + channel_stats(5),
              rtol=1e-4, atol=1e-4)
for name, dt in (("f16", np.float16), ("bf16", bf16)):
  rtol, atol = BN_TOL[name]
  for fmt, shape in (("NHWC", (2, 3, 4, 5)), ("NCHW", (2, 5, 3, 4))):
    for factor in (1.0, 0.5):
      w.add("fbn_v3_%s_%s_train_f%g" % (name, fmt.lower(), factor),
            batch_norm(True, True, fmt, factor=factor), [normal(shape, dt)] + channel_stats(5),
            rtol=rtol, atol=atol)
# TensorFlow's Eigen kernel (5-D data, half) leaves reserve_space_1/2 unwritten in
# inference, so only training is recorded there; the unit tests cover inference.
for fmt, shape in (("NDHWC", (2, 2, 3, 2, 4)), ("NCDHW", (2, 4, 2, 3, 2))):
  w.add("fbn_v3_f32_%s_train" % fmt.lower(), batch_norm(True, True, fmt),
        [normal(shape)] + channel_stats(4), rtol=1e-4, atol=1e-4)
w.add("fbn_v3_f32_train_single_element", batch_norm(True, True),
      [normal((1, 1, 1, 3))] + channel_stats(3), rtol=1e-4, atol=1e-4)
w.add("fbn_v3_f32_train_empty_running_stats", batch_norm(True, True),
      [normal((2, 2, 2, 3))] + channel_stats(3)[:2] + [np.zeros(0, np.float32)] * 2,
      rtol=1e-4, atol=1e-4)
w.add("fbn_v3_f32_train_empty_x", batch_norm(True, True),
      [np.zeros((0, 2, 2, 3), np.float32)] + channel_stats(3))
w.add("fbn_v3_f32_infer_empty_x", batch_norm(True, False),
      [np.zeros((0, 2, 2, 3), np.float32)] + channel_stats(3))
x = normal((2, 2, 2, 3))
s3 = channel_stats(3)
w.add("fbn_rank3", batch_norm(True, True), [x[0].astype(np.float16)] + s3)
w.add("fbn_scale_rank2", batch_norm(True, True), [x, s3[0][None]] + s3[1:])
w.add("fbn_offset_rank2", batch_norm(True, True), [x, s3[0], s3[1][None]] + s3[2:])
w.add("fbn_mean_rank0", batch_norm(True, True), [x] + s3[:2] + [np.float32(1), s3[3]])
w.add("fbn_scale_wrong_size", batch_norm(True, True), [x, s3[0][:2]] + s3[1:])
w.add("fbn_offset_wrong_size", batch_norm(True, True, "NCHW"), [x.astype(np.float16)] + s3)
w.add("fbn_infer_mean_wrong_size", batch_norm(True, False),
      [x.astype(np.float16)] + s3[:2] + [s3[2][:2], s3[3]])
w.add("fbn_infer_variance_wrong_size", batch_norm(False, False), [x] + s3[:3] + [s3[3][:1]])
w.add("fbn_factor_variance_wrong_size", batch_norm(True, True, factor=0.5),
      [x.astype(np.float16)] + s3[:3] + [s3[3][:2]])

# ---- Softmax, LogSoftmax ---------------------------------------------------------------
softmax = lambda x: raw.Softmax(logits=x)
log_softmax = lambda x: raw.LogSoftmax(logits=x)
for op_name, op in (("softmax", softmax), ("logsoftmax", log_softmax)):
  for name, dt in FLOATS:
    rtol, atol = TOL[name]
    w.add("%s_%s_1d" % (op_name, name), op, [normal((7,), dt)], rtol=rtol, atol=atol)
    w.add("%s_%s_2d" % (op_name, name), op, [(normal((4, 9)) * 5).astype(dt)],
          rtol=rtol, atol=atol)
    w.add("%s_%s_3d" % (op_name, name), op, [normal((2, 3, 5), dt)], rtol=rtol, atol=atol)
    w.add("%s_%s_huge_logits" % (op_name, name), op,
          [np.array([[1000, 1000, -1000], [60000, 0, -60000]], np.float32).astype(dt)
           if name != "f16" else np.array([[1000, 1000, -1000]], dt)],
          rtol=rtol, atol=atol)
  for name, dt in (("f64", np.float64), ("f16", np.float16)):
    w.add("%s_%s_nan_inf" % (op_name, name), op,
          [np.array([[1, np.nan, 2], [np.inf, 1, 2], [-np.inf, -np.inf, -np.inf],
                     [-np.inf, 0, 1]]).astype(dt)], rtol=TOL[name][0], atol=TOL[name][1])
    w.add("%s_%s_scalar" % (op_name, name), op, [np.array(1.5, dt)])
  w.add("%s_f32_minus_inf" % op_name, op,
        [np.array([[-np.inf, 0, 1], [0, -np.inf, -np.inf]], np.float32)], rtol=1e-5, atol=1e-6)
  w.add("%s_f32_empty_rows" % op_name, op, [np.zeros((0, 3), np.float32)])
  w.add("%s_f32_empty_classes" % op_name, op, [np.zeros((3, 0), np.float64)])
  w.add("%s_f32_single_class" % op_name, op, [normal((5, 1))], rtol=1e-5, atol=1e-6)

# ---- LRN -------------------------------------------------------------------------------
def lrn(radius=5, bias=1.0, alpha=1.0, beta=0.5):
  return lambda x: raw.LRN(input=x, depth_radius=radius, bias=bias, alpha=alpha, beta=beta)


for name, dt, rtol in (("f32", np.float32, 1e-5), ("f16", np.float16, 2e-3)):
  x = normal((2, 3, 3, 8), dt)
  w.add("lrn_%s_defaults" % name, lrn(), [x], rtol=rtol, atol=rtol)
  w.add("lrn_%s_r1_b075" % name, lrn(1, 2.0, 0.5, 0.75), [x], rtol=rtol, atol=rtol)
  w.add("lrn_%s_r2_b1" % name, lrn(2, 0.5, 0.1, 1.0), [x], rtol=rtol, atol=rtol)
  w.add("lrn_%s_r0" % name, lrn(0, 1.0, 2.0, 0.3), [x], rtol=rtol, atol=rtol)
  w.add("lrn_%s_radius_over_depth" % name, lrn(100, 1.0, 0.01, 0.5), [x], rtol=rtol, atol=rtol)
  w.add("lrn_%s_rank3" % name, lrn(), [x[0]])
  w.add("lrn_%s_negative_radius" % name, lrn(-1), [x])
w.add("lrn_f32_beta0", lrn(2, 2.0, 0.1, 0.0), [normal((1, 2, 2, 5))], rtol=1e-6)
w.add("lrn_f32_radius_int_max", lrn(2**31 - 1), [normal((1, 1, 2, 3))])
w.add("lrn_f32_empty", lrn(), [np.zeros((0, 2, 2, 3), np.float32)])

# ---- LRNGrad: the incoming gradient, LRN's input and its output (from TensorFlow's LRN) ----
grad_rng = np.random.default_rng(2025)


def lrn_grad(radius=5, bias=1.0, alpha=1.0, beta=0.5):
  return lambda dy, x, y: raw.LRNGrad(input_grads=dy, input_image=x, output_image=y,
                                      depth_radius=radius, bias=bias, alpha=alpha, beta=beta)


def lrn_grad_inputs(shape, dt, radius=5, bias=1.0, alpha=1.0, beta=0.5, zero_some_dy=False):
  x = grad_rng.standard_normal(shape).astype(dt)
  dy = grad_rng.standard_normal(shape).astype(dt)
  if zero_some_dy:
    dy[..., ::3] = 0
  y = tf.raw_ops.LRN(input=x, depth_radius=radius, bias=bias, alpha=alpha, beta=beta)
  return [dy, x, np.asarray(y).astype(dt)]


for name, dt, rtol, atol in (("f32", np.float32, 1e-5, 1e-6), ("f16", np.float16, 1e-2, 1e-2)):
  for tag, attrs in (("defaults", ()), ("r1_b075", (1, 2.0, 0.5, 0.75)),
                     ("r2_b1", (2, 0.5, 0.1, 1.0)), ("r0", (0, 1.0, 2.0, 0.3)),
                     ("radius_over_depth", (100, 1.0, 0.01, 0.5))):
    w.add("lrngrad_%s_%s" % (name, tag), lrn_grad(*attrs),
          lrn_grad_inputs((2, 3, 3, 8), dt, *attrs), rtol=rtol, atol=atol)
  w.add("lrngrad_%s_rank3" % name, lrn_grad(), [a[0] for a in lrn_grad_inputs((2, 2, 2, 3), dt)])
  w.add("lrngrad_%s_negative_radius" % name, lrn_grad(-1), lrn_grad_inputs((1, 2, 2, 3), dt))
# Zero gradients skip their window, so an infinite input beside them stays out of dx.
inf_inputs = lrn_grad_inputs((1, 2, 2, 6), np.float32, 1, 1.0, 0.5, 0.75, zero_some_dy=True)
inf_inputs[1][0, 0, 0, 0] = np.inf
w.add("lrngrad_f32_zero_dy_beside_inf", lrn_grad(1, 1.0, 0.5, 0.75), inf_inputs, rtol=1e-5,
      atol=1e-6)
w.add("lrngrad_f32_large", lrn_grad(2, 1.0, 1e-3, 0.75),
      lrn_grad_inputs((2, 8, 8, 16), np.float32, 2, 1.0, 1e-3, 0.75), rtol=1e-5, atol=1e-6)
w.add("lrngrad_f32_empty", lrn_grad(), [np.zeros((0, 2, 2, 3), np.float32)] * 3)
w.add("lrngrad_f32_image_shape_differs", lrn_grad(),
      [np.zeros((1, 2, 2, 3), np.float32), np.zeros((1, 2, 2, 4), np.float32),
       np.zeros((1, 2, 2, 3), np.float32)])
w.add("lrngrad_f32_output_shape_differs", lrn_grad(),
      [np.zeros((1, 2, 2, 3), np.float32), np.zeros((1, 2, 2, 3), np.float32),
       np.zeros((1, 2, 3, 3), np.float32)])
w.add("lrngrad_f32_output_rank3", lrn_grad(),
      [np.zeros((1, 2, 2, 3), np.float32), np.zeros((1, 2, 2, 3), np.float32),
       np.zeros((2, 2, 3), np.float32)])
w.add("lrngrad_f32_radius_int_max", lrn_grad(2**31 - 1), lrn_grad_inputs((1, 1, 2, 3), np.float32))
# ---- FusedBatchNormV2 (V1 with T apart from U) --------------------------------------------
def batch_norm_v2(is_training, data_format, factor):
  return lambda x, s, o, m, v: raw.FusedBatchNormV2(
      x=x, scale=s, offset=o, mean=m, variance=v, epsilon=0.001, exponential_avg_factor=factor,
      data_format=data_format, is_training=is_training)


for name, dt in (("f32", np.float32), ("f16", np.float16), ("bf16", bf16)):
  rtol, atol = BN_TOL[name]
  for fmt, shape in (("NHWC", (2, 3, 4, 5)), ("NCHW", (2, 5, 3, 4))):
    for training, factor in ((True, 1.0), (True, 0.5), (False, 1.0)):
      if name == "f16" and not training:
        continue  # TensorFlow's Eigen kernel leaves reserve_space_1/2 unwritten here.
      w.add("fbn_v2_%s_%s_%s_f%g" % (name, fmt.lower(), "train" if training else "infer",
                                       factor),
            batch_norm_v2(training, fmt, factor), [normal(shape, dt)] + channel_stats(5),
            rtol=rtol, atol=atol)

# ---- DataFormatDimMap, DataFormatVecPermute ------------------------------------------------
def dim_map(src, dst):
  return lambda x: raw.DataFormatDimMap(x=x, src_format=src, dst_format=dst)


def vec_permute(src, dst):
  return lambda x: raw.DataFormatVecPermute(x=x, src_format=src, dst_format=dst)


FORMATS = (("NHWC", "NCHW"), ("NCHW", "NHWC"), ("NHWC", "HWNC"), ("NHWC", "NWHC"),
           ("NDHWC", "NCDHW"), ("NCDHW", "NDHWC"))
for src, dst in FORMATS:
  n = len(src)
  tag = "%s_%s" % (src.lower(), dst.lower())
  w.add("dim_map_" + tag, dim_map(src, dst), [np.arange(-3 * n, 3 * n, dtype=np.int32)])
  w.add("vec_permute_" + tag, vec_permute(src, dst), [np.arange(10, 10 + n, dtype=np.int32)])
  w.add("vec_permute_spatial_" + tag, vec_permute(src, dst),
        [np.arange(10, 8 + n, dtype=np.int64)])
  w.add("vec_permute_rows_" + tag, vec_permute(src, dst),
        [np.arange(2 * n, dtype=np.int32).reshape(n, 2)])
  w.add("vec_permute_spatial_rows_" + tag, vec_permute(src, dst),
        [np.arange(2 * n - 4, dtype=np.int64).reshape(n - 2, 2)])
w.add("dim_map_i64_matrix", dim_map("NHWC", "NCHW"), [np.array([[0, 1], [2, 3]], np.int64)])
w.add("dim_map_extremes", dim_map("NHWC", "NCHW"),
      [np.array([2**31 - 1, 2**31 - 3, -2**31, -2**31 + 1, 100, -100, 7], np.int32)])
w.add("dim_map_i64_extremes", dim_map("NDHWC", "NCDHW"),
      [np.array([2**63 - 1, 2**63 - 4, -2**63, -2**63 + 3, -7], np.int64)])
w.add("dim_map_empty", dim_map("NHWC", "NCHW"), [np.zeros((0,), np.int32)])
w.add("dim_map_scalar", dim_map("NCHW", "NHWC"), [np.int64(-3)])
for op, fn in (("dim_map", dim_map), ("vec_permute", vec_permute)):
  w.add(op + "_short_src", fn("NHW", "NCHW"), [np.arange(4, dtype=np.int32)])
  w.add(op + "_long_dst", fn("NHWC", "NCHWXY"), [np.arange(4, dtype=np.int32)])
  w.add(op + "_not_permutation", fn("NHWC", "NHWD"), [np.arange(4, dtype=np.int32)])
  w.add(op + "_lengths_differ", fn("NHWC", "NCDHW"), [np.arange(4, dtype=np.int32)])
w.add("vec_permute_scalar", vec_permute("NHWC", "NCHW"), [np.int32(3)])
w.add("vec_permute_rank3", vec_permute("NHWC", "NCHW"), [np.zeros((1, 1, 1), np.int32)])
w.add("vec_permute_size3", vec_permute("NHWC", "NCHW"), [np.arange(3, dtype=np.int32)])
w.add("vec_permute_size4_5d", vec_permute("NDHWC", "NCDHW"), [np.arange(4, dtype=np.int32)])
w.add("vec_permute_empty", vec_permute("NHWC", "NCHW"), [np.zeros((0,), np.int32)])
w.add("vec_permute_rows3", vec_permute("NHWC", "NCHW"), [np.zeros((3, 2), np.int32)])
w.add("vec_permute_cols3", vec_permute("NHWC", "NCHW"), [np.zeros((4, 3), np.int32)])

w.write()
