"""Writes fixtures/linalg.pbtxt: MatMul, BatchMatMul(V2, V3), Conv2D, DepthwiseConv2dNative and
Conv2DBackpropInput in TensorFlow, replayed through kernels/cpu/linalg.

Run from anywhere: python3 tests/kernels/gen_linalg.py (needs TensorFlow 2.x and numpy).
Tolerances (|got - want| <= atol + rtol * |want|), per element type:
  float32  rtol 1e-5, atol 1e-5 (oneDNN and TensorFlow sum in different orders)
  float64  rtol 1e-12, atol 1e-12
  float16  rtol 1e-2, atol 1e-2 (computed in float, rounded once)
  bfloat16 rtol 2e-2, atol 2e-2
  complex  rtol 1e-5, atol 1e-5 (complex64), 1e-12 (complex128)
  integers exact (products wrap on overflow as in TensorFlow)
Attr errors that TensorFlow's shape functions reject while building the graph cannot be
recorded here, nor inputs of the wrong rank to the convolutions or negative input_sizes (TensorFlow's
oneDNN kernels abort on them); the kernel unit tests cover those.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(11)
w = CaseWriter("linalg")

BF16 = tf.bfloat16.as_numpy_dtype
FLOATS = [np.float32, np.float64, np.float16, BF16]
TOL = {
    np.dtype(np.float32): (1e-5, 1e-5),
    np.dtype(np.float64): (1e-12, 1e-12),
    np.dtype(np.float16): (1e-2, 1e-2),
    np.dtype(BF16): (2e-2, 2e-2),
}


def name_of(dtype):
  return {np.dtype(BF16): "bf16", np.dtype(np.float16): "f16", np.dtype(np.float32): "f32",
          np.dtype(np.float64): "f64"}.get(np.dtype(dtype), np.dtype(dtype).name)


def values(shape, dtype):
  if np.issubdtype(np.dtype(dtype), np.integer):
    return rng.integers(-5, 6, shape).astype(dtype)
  return rng.uniform(-1, 1, shape).astype(np.float32).astype(dtype)


def add(name, build, inputs, **kw):
  dts = [np.dtype(x.dtype) for x in inputs if np.dtype(x.dtype) in TOL]
  if dts and "rtol" not in kw:
    rtol, atol = TOL[dts[0]]
    kw.update(rtol=rtol, atol=atol)
  w.add(name, build, inputs, **kw)


# ---- MatMul --------------------------------------------------------------------------
def matmul(ta=False, tb=False):
  return lambda a, b: tf.raw_ops.MatMul(a=a, b=b, transpose_a=ta, transpose_b=tb)


for dt in FLOATS + [np.int32, np.int64]:
  n = name_of(dt)
  for ta in (False, True):
    for tb in (False, True):
      a = values((4, 3) if ta else (3, 4), dt)
      b = values((5, 4) if tb else (4, 5), dt)
      add("matmul_%s_t%d%d" % (n, ta, tb), matmul(ta, tb), [a, b])
add("matmul_f32_large", matmul(), [values((32, 64), np.float32), values((64, 32), np.float32)])
add("matmul_f64_large", matmul(False, True),
    [values((16, 40), np.float64), values((24, 40), np.float64)])
add("matmul_i32_large", matmul(), [values((24, 64), np.int32), values((64, 24), np.int32)])
add("matmul_f32_vec", matmul(), [values((1, 7), np.float32), values((7, 1), np.float32)])
add("matmul_f32_empty_m", matmul(), [values((0, 3), np.float32), values((3, 4), np.float32)])
add("matmul_f32_zero_k", matmul(), [values((2, 0), np.float32), values((0, 4), np.float32)])
add("matmul_i32_zero_k", matmul(), [values((2, 0), np.int32), values((0, 4), np.int32)])
add("matmul_f32_nan_inf", matmul(),
    [np.array([[np.nan, 1], [np.inf, 1], [1, 2]], np.float32),
     np.array([[1, 2], [3, 4]], np.float32)])
add("matmul_i32_wraps", matmul(),
    [np.array([[2**30, 2**30]], np.int32), np.array([[4], [4]], np.int32)])
add("matmul_i64_wraps", matmul(),
    [np.array([[2**62]], np.int64), np.array([[4]], np.int64)])
add("matmul_rank3", matmul(), [values((2, 3, 4), np.float32), values((4, 5), np.float32)])
add("matmul_rank1_b", matmul(), [values((3, 4), np.float32), values((4,), np.float32)])
add("matmul_mismatch", matmul(), [values((3, 4), np.float32), values((5, 6), np.float32)],
    error_substr="Matrix size-incompatible")
add("matmul_mismatch_transposed", matmul(True, False),
    [values((3, 4), np.float32), values((4, 6), np.float32)])


# ---- BatchMatMul, BatchMatMulV2 --------------------------------------------------------
def bmm(op, ax=False, ay=False):
  return lambda x, y: op(x=x, y=y, adj_x=ax, adj_y=ay)


V1, V2 = tf.raw_ops.BatchMatMul, tf.raw_ops.BatchMatMulV2
for dt in FLOATS + [np.int32, np.int64]:
  n = name_of(dt)
  add("bmm_%s" % n, bmm(V1), [values((2, 3, 4), dt), values((2, 4, 5), dt)])
  add("bmm_%s_adj" % n, bmm(V1, True, True), [values((2, 4, 3), dt), values((2, 5, 4), dt)])
  add("bmmv2_%s_bcast" % n, bmm(V2), [values((2, 1, 3, 4), dt), values((3, 4, 2), dt)])
add("bmmv2_i16_bcast", bmm(V2), [values((2, 1, 3, 4), np.int16), values((3, 4, 2), np.int16)])
add("bmmv2_i16_wraps", bmm(V2),
    [np.array([[[200, 200]]], np.int16), np.array([[[200], [200]]], np.int16)])
add("bmm_f32_adj_x", bmm(V1, True, False), [values((3, 4, 3), np.float32),
                                             values((3, 4, 2), np.float32)])
add("bmm_f32_adj_y", bmm(V1, False, True), [values((3, 2, 4), np.float32),
                                             values((3, 5, 4), np.float32)])
add("bmm_f32_rank4", bmm(V1), [values((2, 3, 2, 4), np.float32),
                                values((2, 3, 4, 3), np.float32)])
add("bmm_f32_rank2", bmm(V1), [values((3, 4), np.float32), values((4, 2), np.float32)])
add("bmm_f32_large", bmm(V1), [values((4, 16, 24), np.float32),
                                values((4, 24, 16), np.float32)])
add("bmmv2_f64_large", bmm(V2, False, True), [values((3, 12, 20), np.float64),
                                               values((1, 12, 20), np.float64)])
add("bmmv2_f32_rank2_x", bmm(V2), [values((3, 4), np.float32), values((5, 4, 2), np.float32)])
add("bmmv2_f32_bcast_both", bmm(V2, True, False),
    [values((1, 3, 1, 4, 2), np.float32), values((2, 1, 4, 4, 3), np.float32)])
add("bmmv2_f32_bcast_inner", bmm(V2), [values((2, 3, 2, 4), np.float32),
                                        values((2, 1, 4, 3), np.float32)])
add("bmmv2_f32_empty_batch", bmm(V2), [values((0, 2, 3), np.float32),
                                        values((1, 3, 4), np.float32)])
add("bmmv2_f32_zero_k", bmm(V2), [values((2, 2, 0), np.float32), values((2, 0, 4), np.float32)])
add("bmm_different_ndims", bmm(V1), [values((2, 3, 4), np.float32),
                                      values((2, 1, 4, 5), np.float32)])
add("bmm_batch_mismatch", bmm(V1), [values((2, 3, 4), np.float32),
                                     values((3, 4, 5), np.float32)])
add("bmm_rank1", bmm(V1), [values((4,), np.float32), values((4,), np.float32)])
add("bmm_size_mismatch", bmm(V1), [values((2, 3, 4), np.float32),
                                    values((2, 3, 5), np.float32)])
add("bmmv2_incompatible_batch", bmm(V2), [values((2, 3, 4), np.float32),
                                           values((3, 4, 5), np.float32)],
    error_substr="compatible batch dimensions")
add("bmmv2_rank1", bmm(V2), [values((4,), np.float32), values((2, 4, 5), np.float32)])
add("bmmv2_size_mismatch", bmm(V2, False, True), [values((2, 3, 4), np.float32),
                                                   values((2, 3, 5), np.float32)])


# ---- Conv2D, DepthwiseConv2dNative -----------------------------------------------------
# Empty outputs are recorded in float64, where TensorFlow runs its own kernels: its oneDNN
# float kernels return wrongly shaped outputs for them.
def conv(strides=(1, 1, 1, 1), padding="VALID", fmt="NHWC", dil=(1, 1, 1, 1), pads=()):
  return lambda x, f: tf.raw_ops.Conv2D(
      input=x, filter=f, strides=list(strides), padding=padding, data_format=fmt,
      dilations=list(dil), explicit_paddings=list(pads))


def dw(strides=(1, 1, 1, 1), padding="VALID", fmt="NHWC", dil=(1, 1, 1, 1), pads=()):
  return lambda x, f: tf.raw_ops.DepthwiseConv2dNative(
      input=x, filter=f, strides=list(strides), padding=padding, data_format=fmt,
      dilations=list(dil), explicit_paddings=list(pads))


def nchw(x):
  return np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2)))


for dt in FLOATS + [np.int32]:
  n = name_of(dt)
  add("conv_%s_valid" % n, conv(), [values((2, 5, 6, 3), dt), values((3, 2, 3, 4), dt)])
  add("conv_%s_same_s2" % n, conv((1, 2, 2, 1), "SAME"),
      [values((1, 7, 6, 2), dt), values((3, 3, 2, 3), dt)])
  add("conv_%s_nchw" % n, conv((1, 1, 2, 1), "SAME", "NCHW"),
      [values((2, 3, 5, 5), dt), values((3, 3, 3, 2), dt)])
  if dt is not np.int32:
    add("dw_%s_same" % n, dw(padding="SAME"), [values((2, 5, 5, 3), dt),
                                               values((3, 3, 3, 2), dt)])
    add("dw_%s_nchw_s2" % n, dw((1, 1, 2, 2), "SAME", "NCHW"),
        [values((1, 4, 6, 6), dt), values((3, 3, 4, 1), dt)])

x = values((1, 6, 7, 4), np.float32)
f = values((3, 3, 4, 5), np.float32)
add("conv_f32_dilated", conv(padding="SAME", dil=(1, 2, 2, 1)), [x, f])
add("conv_f32_dilated_valid_s2", conv((1, 2, 1, 1), "VALID", dil=(1, 1, 2, 1)), [x, f])
add("conv_f32_explicit", conv(padding="EXPLICIT", pads=(0, 0, 1, 2, 0, 3, 0, 0)), [x, f])
add("conv_f32_explicit_nchw", conv(padding="EXPLICIT", fmt="NCHW",
                                   pads=(0, 0, 0, 0, 2, 0, 1, 1)), [nchw(x), f])
add("conv_f32_nchw_dilated_s2", conv((1, 1, 2, 2), "SAME", "NCHW", (1, 1, 2, 2)),
    [nchw(x), f])
add("conv_f32_1x1", conv(), [x, values((1, 1, 4, 6), np.float32)])
add("conv_f32_grouped", conv(padding="SAME"), [x, values((3, 3, 2, 6), np.float32)])
add("conv_f32_grouped_nchw", conv(padding="SAME", fmt="NCHW"),
    [nchw(x), values((3, 3, 1, 8), np.float32)])
add("conv_f64_grouped_dilated", conv(padding="SAME", dil=(1, 2, 1, 1)),
    [x.astype(np.float64), values((3, 3, 2, 4), np.float64)])
add("conv_i32_explicit_dilated", conv((1, 2, 1, 1), "EXPLICIT", dil=(1, 1, 2, 1),
                                      pads=(0, 0, 2, 1, 1, 1, 0, 0)),
    [values((1, 6, 7, 4), np.int32), values((2, 3, 4, 3), np.int32)])
add("conv_f32_filter_larger_same", conv(padding="SAME"),
    [values((1, 2, 2, 2), np.float32), values((5, 5, 2, 2), np.float32)])
add("conv_f32_large", conv((1, 1, 1, 1), "SAME"),
    [values((1, 12, 12, 16), np.float32), values((3, 3, 16, 8), np.float32)])
add("conv_f64_large", conv(padding="SAME"),
    [values((1, 12, 12, 8), np.float64), values((3, 3, 8, 8), np.float64)])
add("conv_f64_empty_batch", conv(padding="SAME"),
    [values((0, 4, 4, 4), np.float64), f.astype(np.float64)])
add("conv_f32_nan_inf", conv(),
    [np.array([np.nan, 1, np.inf, 2], np.float32).reshape(1, 2, 2, 1),
     np.ones((1, 1, 1, 2), np.float32)])
add("conv_i32_wraps", conv(), [np.full((1, 1, 2, 1), 2**30, np.int32),
                                np.full((1, 2, 1, 1), 2, np.int32)])
add("conv_bad_filter_rank", conv(), [x, values((3, 4, 5), np.float32)])
add("conv_depth_not_divisible", conv(), [x, values((3, 3, 3, 5), np.float32)],
    error_substr="evenly divisible")
add("conv_groups_out_depth", conv(), [x, values((3, 3, 2, 3), np.float32)])
add("conv_f64_filter_too_big_valid", conv(),
    [values((1, 2, 2, 4), np.float64), f.astype(np.float64)])
add("conv_batch_stride", conv((2, 1, 1, 1)), [x, f])
add("conv_depth_dilation", conv(dil=(1, 1, 1, 2)), [x, f])
add("conv_zero_filter_depth", conv(), [x, values((3, 3, 0, 5), np.float32)])
add("conv_zero_filter_rows", conv(padding="SAME"), [x, values((0, 3, 4, 5), np.float32)])
add("dw_f32_dilated", dw(padding="SAME", dil=(1, 2, 2, 1)), [x, values((3, 3, 4, 2), np.float32)])
add("dw_f32_explicit", dw(padding="EXPLICIT", pads=(0, 0, 1, 0, 2, 1, 0, 0)),
    [x, values((2, 3, 4, 3), np.float32)])
add("dw_f32_large", dw((1, 2, 2, 1), "SAME"),
    [values((1, 16, 16, 16), np.float32), values((3, 3, 16, 1), np.float32)])
add("dw_f32_uneven_strides", dw((1, 1, 2, 1), "SAME"), [x, values((3, 3, 4, 1), np.float32)])
add("dw_depth_mismatch", dw(), [x, values((3, 3, 3, 1), np.float32)])
add("dw_f64_filter_too_big_valid", dw(), [values((1, 2, 2, 4), np.float64),
                                          values((3, 3, 4, 1), np.float64)])
add("dw_batch_stride", dw((2, 1, 1, 1)), [x, values((3, 3, 4, 1), np.float32)])


# ---- Conv2DBackpropInput ----------------------------------------------------------------
# Its shape errors are recorded in float64, where TensorFlow runs its own kernel
# (INVALID_ARGUMENT); for float32 TensorFlow's oneDNN kernel reports them as ABORTED from
# inside oneDNN, while Sluice says INVALID_ARGUMENT for every dtype.
def bpi(strides=(1, 1, 1, 1), padding="VALID", fmt="NHWC", dil=(1, 1, 1, 1), pads=()):
  return lambda s, f, g: tf.raw_ops.Conv2DBackpropInput(
      input_sizes=s, filter=f, out_backprop=g, strides=list(strides), padding=padding,
      data_format=fmt, dilations=list(dil), explicit_paddings=list(pads))


def sizes(*v):
  return np.array(v, np.int32)


for dt in FLOATS + [np.int32]:
  n = name_of(dt)
  add("bpi_%s_same_s2" % n, bpi((1, 2, 2, 1), "SAME"),
      [sizes(1, 7, 6, 2), values((3, 3, 2, 3), dt), values((1, 4, 3, 3), dt)])
  add("bpi_%s_valid_nchw" % n, bpi(fmt="NCHW"),
      [sizes(2, 3, 5, 6), values((2, 3, 3, 4), dt), values((2, 4, 4, 4), dt)])
add("bpi_f32_sizes2", bpi((1, 2, 2, 1), "SAME"),
    [sizes(8, 8), values((3, 3, 4, 6), np.float32), values((2, 4, 4, 6), np.float32)])
add("bpi_f32_dilated", bpi(padding="SAME", dil=(1, 2, 2, 1)),
    [sizes(1, 6, 7, 4), values((3, 3, 4, 5), np.float32), values((1, 6, 7, 5), np.float32)])
add("bpi_f32_explicit", bpi((1, 2, 1, 1), "EXPLICIT", pads=(0, 0, 1, 1, 2, 0, 0, 0)),
    [sizes(1, 6, 7, 4), values((3, 3, 4, 5), np.float32), values((1, 3, 7, 5), np.float32)])
add("bpi_f64_dilated_s2", bpi((1, 2, 2, 1), "SAME", dil=(1, 1, 1, 1)),
    [sizes(1, 9, 9, 3), values((4, 4, 3, 2), np.float64), values((1, 5, 5, 2), np.float64)])
add("bpi_f32_large", bpi((1, 2, 2, 1), "SAME"),
    [sizes(1, 24, 24, 8), values((4, 4, 8, 8), np.float32), values((1, 12, 12, 8), np.float32)])
add("bpi_f32_grouped", bpi(padding="SAME"),
    [sizes(1, 5, 5, 4), values((3, 3, 2, 6), np.float32), values((1, 5, 5, 6), np.float32)])
add("bpi_f32_empty_out", bpi(padding="SAME"),
    [sizes(0, 5, 5, 4), values((3, 3, 4, 6), np.float32), values((0, 5, 5, 6), np.float32)])
add("bpi_size_mismatch", bpi(),
    [sizes(1, 6, 7, 4), values((3, 3, 4, 5), np.float64), values((1, 5, 5, 5), np.float64)])
add("bpi_sizes_rank2", bpi(),
    [sizes(1, 6, 7, 4).reshape(2, 2), values((3, 3, 4, 5), np.float32),
     values((1, 4, 5, 5), np.float32)])
add("bpi_batch_mismatch", bpi(),
    [sizes(2, 6, 7, 4), values((3, 3, 4, 5), np.float64), values((1, 4, 5, 5), np.float64)])
add("bpi_out_depth_mismatch", bpi(),
    [sizes(1, 6, 7, 4), values((3, 3, 4, 5), np.float64), values((1, 4, 5, 3), np.float64)])
add("bpi_batch_stride", bpi((2, 1, 1, 1)),
    [sizes(1, 6, 7, 4), values((3, 3, 4, 5), np.float32), values((1, 4, 5, 5), np.float32)])


# ---- Complex matrix products, BatchMatMulV3 (own generator: the cases above
# keep their values) ----
rng = np.random.default_rng(12)
CTOL = {np.complex64: (1e-5, 1e-5), np.complex128: (1e-12, 1e-12)}


def cvalues(shape, dtype):
  return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)


for dt, n in ((np.complex64, "c64"), (np.complex128, "c128")):
  rtol, atol = CTOL[dt]
  for ta in (False, True):
    for tb in (False, True):
      add("matmul_%s_t%d%d" % (n, ta, tb), matmul(ta, tb),
          [cvalues((4, 3) if ta else (3, 4), dt), cvalues((5, 4) if tb else (4, 5), dt)],
          rtol=rtol, atol=atol)
  # The batch ops' adj_x/adj_y conjugate.
  add("bmm_%s_adj" % n, bmm(V1, True, True), [cvalues((2, 4, 3), dt), cvalues((2, 5, 4), dt)],
      rtol=rtol, atol=atol)
  add("bmmv2_%s_bcast_adj_x" % n, bmm(V2, True, False),
      [cvalues((2, 1, 4, 3), dt), cvalues((3, 4, 2), dt)], rtol=rtol, atol=atol)
  add("bmmv2_%s_adj_y" % n, bmm(V2, False, True), [cvalues((2, 3, 4), dt), cvalues((5, 4), dt)],
      rtol=rtol, atol=atol)
add("matmul_c64_large", matmul(), [cvalues((24, 40), np.complex64),
                                   cvalues((40, 24), np.complex64)], rtol=1e-5, atol=1e-5)
# (TensorFlow registers int16 MatMul and BatchMatMul kernels, but their OpDefs exclude int16.)


def bmm3(tout, ax=False, ay=False):
  return lambda x, y: tf.raw_ops.BatchMatMulV3(x=x, y=y, Tout=tout, adj_x=ax, adj_y=ay)


for dt in [np.float32, np.float64, BF16, np.int16, np.int32, np.int64]:
  n = name_of(dt)
  add("bmmv3_%s_bcast" % n, bmm3(tf.as_dtype(dt)),
      [values((2, 1, 3, 4), dt), values((3, 4, 2), dt)])
  add("bmmv3_%s_adj" % n, bmm3(tf.as_dtype(dt), True, True),
      [values((2, 4, 3), dt), values((2, 5, 4), dt)])
for dt, n in ((np.complex64, "c64"), (np.complex128, "c128")):
  add("bmmv3_%s_adj_x" % n, bmm3(tf.as_dtype(dt), True, False),
      [cvalues((2, 4, 3), dt), cvalues((4, 2), dt)], rtol=CTOL[dt][0], atol=CTOL[dt][1])
u8 = lambda shape: rng.integers(0, 256, shape).astype(np.uint8)
i8 = lambda shape: rng.integers(-128, 128, shape).astype(np.int8)
eighths = lambda shape: (rng.integers(-8, 9, shape) / 8).astype(BF16)
for xa, xn in ((u8, "u8"), (i8, "i8")):
  for ya, yn in ((u8, "u8"), (i8, "i8")):
    add("bmmv3_%s_%s_to_i32" % (xn, yn), bmm3(tf.int32), [xa((2, 3, 16)), ya((2, 16, 4))])
  # TensorFlow sums these in bfloat16 (Sluice in float, rounding once): small integers times
  # eighths keep every partial sum exact in bfloat16, so both agree exactly.
  small = lambda shape, xa=xa: (xa(shape) % 8).astype(xa(()).dtype)
  add("bmmv3_%s_bf16" % xn, bmm3(tf.bfloat16), [small((2, 3, 4)), eighths((4, 5))])
  add("bmmv3_bf16_%s_adj_y" % xn, bmm3(tf.bfloat16, False, True),
      [eighths((3, 4)), small((2, 5, 4))])
add("bmmv3_f32_empty_batch", bmm3(tf.float32),
    [values((0, 2, 3), np.float32), values((1, 3, 4), np.float32)])
add("bmmv3_f32_zero_k", bmm3(tf.float32),
    [values((2, 2, 0), np.float32), values((2, 0, 4), np.float32)])
add("bmmv3_f32_batch_mismatch", bmm3(tf.float32),
    [values((2, 3, 4), np.float32), values((3, 4, 5), np.float32)])
add("bmmv3_f32_size_mismatch", bmm3(tf.float32),
    [values((2, 3, 4), np.float32), values((2, 3, 5), np.float32)])
add("bmmv3_i8_rank1", bmm3(tf.int32), [i8((4,)), i8((4, 2))])
w.write()
