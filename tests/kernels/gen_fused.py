"""Writes fixtures/fused.pbtxt: _FusedConv2D, _FusedDepthwiseConv2dNative and _FusedMatMul
(TensorFlow's internal fused contractions, which passes/remapper.cc creates), replayed
through kernels/cpu/linalg:fused_ops.

Run from anywhere: python3 tests/kernels/gen_fused.py (needs TensorFlow 2.x and numpy).

tf.raw_ops has no internal ops, so each case builds the fused node itself with
Graph._create_op_internal and records TensorFlow's output for it. Where TensorFlow 2.21's
CPU kernel for a combination is broken (its oneDNN depthwise kernel leaves the output unset
for LeakyRelu: "Missing 0-th output"), the case keeps the fused NodeDef and records the
output of the equivalent unfused TensorFlow graph instead (DepthwiseConv2dNative, BiasAdd,
LeakyRelu); those cases are named *_unfused.

Tolerances (|got - want| <= atol + rtol * |want|), per element type
(the shapes that exercise ParallelFor are in fused_ops_test.cc, to keep this file small):
  float32  rtol 1e-4, atol 1e-4 (oneDNN and TensorFlow sum in different orders; batch norm
           is folded into the filter; oneDNN's Elu/Gelu/Sigmoid/Tanh are polynomial fits)
  float64  rtol 1e-9, atol 1e-9
  float16  rtol 1e-2, atol 1e-2 (computed in float, rounded once)
  bfloat16 rtol 3e-2, atol 3e-2
Not recorded, because TensorFlow's oneDNN kernels abort the process or fail with ABORTED /
INTERNAL instead of a checked error, or do not check at all: inputs of the wrong rank to the
convolutions, a float _FusedConv2D of batch 0 (TensorFlow returns the input unchanged),
bias or batch-norm vectors of the wrong length for the convolutions,
num_args that disagree with fused_ops for _FusedMatMul, no fused ops. Sluice rejects all of
them with INVALID_ARGUMENT; kernels/cpu/linalg/fused_ops_test.cc covers them.
"""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # pylint: disable=g-import-not-at-top
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(21)
w = CaseWriter("fused")

BF16 = tf.bfloat16.as_numpy_dtype
TOL = {
    np.dtype(np.float32): (1e-4, 1e-4),
    np.dtype(np.float64): (1e-9, 1e-9),
    np.dtype(np.float16): (1e-2, 1e-2),
    np.dtype(BF16): (3e-2, 3e-2),
}
NAME = {np.dtype(BF16): "bf16", np.dtype(np.float16): "f16", np.dtype(np.float32): "f32",
        np.dtype(np.float64): "f64"}
CONV_ACTS = ["Relu", "Relu6", "Elu", "LeakyRelu"]
MATMUL_ACTS = CONV_ACTS + ["Tanh", "Sigmoid", "GeluApproximate", "GeluExact"]


def values(shape, dtype, lo=-2.0, hi=2.0):
  return rng.uniform(lo, hi, shape).astype(np.float32).astype(dtype)


def attr(v):
  """An AttrValue proto for a Python value."""
  if isinstance(v, attr_value_pb2.AttrValue):
    return v
  if isinstance(v, bool):
    return attr_value_pb2.AttrValue(b=v)
  if isinstance(v, int):
    return attr_value_pb2.AttrValue(i=v)
  if isinstance(v, float):
    return attr_value_pb2.AttrValue(f=v)
  if isinstance(v, str):
    return attr_value_pb2.AttrValue(s=v.encode())
  if isinstance(v, tf.DType):
    return attr_value_pb2.AttrValue(type=v.as_datatype_enum)
  lst = attr_value_pb2.AttrValue.ListValue()
  for x in v:
    if isinstance(x, str):
      lst.s.append(x.encode())
    elif isinstance(x, tf.DType):
      lst.type.append(x.as_datatype_enum)
    else:
      lst.i.append(x)
  return attr_value_pb2.AttrValue(list=lst)


def fused_node(op, dtype, fused_ops, num_args, **attrs):
  """A callable that builds one fused node of `op` on its inputs."""
  dt = tf.as_dtype(dtype)
  full = {"T": dt, "num_args": num_args, "fused_ops": list(fused_ops)}
  if op == "_FusedConv2D":
    full.update(TArgs=[dt] * num_args, num_host_args=0)
  if op != "_FusedMatMul":
    full.setdefault("strides", [1, 1, 1, 1])
    full.setdefault("padding", "SAME")
  full.update(attrs)

  def build(*xs):
    graph = tf.compat.v1.get_default_graph()
    return graph._create_op_internal(  # pylint: disable=protected-access
        op, list(xs), dtypes=[dt], attrs={k: attr(v) for k, v in full.items()}, name="fused")
  return build


def tol(dtype):
  return TOL[np.dtype(dtype)]


def add(name, build, inputs, dtype, **kw):
  rtol, atol = tol(dtype)
  w.add(name, build, inputs, rtol=rtol, atol=atol, **kw)


def add_expect(name, build, inputs, dtype, code, **kw):
  """Adds an error case only if TensorFlow fails with `code` (else drops it, saying so)."""
  got = w.add(name, build, inputs, rtol=tol(dtype)[0], atol=tol(dtype)[1], **kw)
  if got != code:
    w._cases.pop()  # pylint: disable=protected-access
    print("dropped %s: TensorFlow gave code %d, expected %d" % (name, got, code),
          file=sys.stderr)


def add_unfused(name, build_fused, build_reference, inputs, dtype):
  """The fused NodeDef, with outputs from TensorFlow's unfused graph of the same math."""
  rtol, atol = tol(dtype)
  graph = tf.Graph()
  with graph.as_default():
    phs = [tf.compat.v1.placeholder(tf.as_dtype(x.dtype), shape=None, name="input%d" % i)
           for i, x in enumerate(inputs)]
    node_def = build_fused(*phs).node_def
    ref = build_reference(*phs)
  with tf.compat.v1.Session(graph=graph) as session:
    out = session.run(ref, feed_dict=dict(zip(phs, inputs)))
  parts = ["  name: %s\n" % oracle._quote(name),  # pylint: disable=protected-access
           "  node {\n" + oracle._indent(str(node_def), "    ") + "  }\n"]  # pylint: disable=protected-access
  parts += ["  inputs { " + oracle._tensor_text(x) + " }\n" for x in inputs]  # pylint: disable=protected-access
  parts.append("  outputs { " + oracle._tensor_text(np.asarray(out)) + " }\n")  # pylint: disable=protected-access
  parts.append("  rtol: %r\n  atol: %r\n" % (float(rtol), float(atol)))
  w._cases.append("cases {\n" + "".join(parts) + "}\n")  # pylint: disable=protected-access


def conv_inputs(dtype, in_shape, f_shape, batch_norm, out_depth):
  x = values(in_shape, dtype)
  f = values(f_shape, dtype, -1, 1)
  if batch_norm:
    args = [values(out_depth, dtype, 0.5, 1.5), values(out_depth, dtype),
            values(out_depth, dtype), values(out_depth, dtype, 0.1, 2)]
  else:
    args = [values(out_depth, dtype)]
  return [x, f] + args


# ---- _FusedConv2D --------------------------------------------------------------------
for dt in [np.float32, np.float64]:
  n = NAME[np.dtype(dt)]
  for post in ["BiasAdd", "FusedBatchNorm"]:
    bn = post == "FusedBatchNorm"
    for act in [None] + CONV_ACTS:
      ops = [post] + ([act] if act else [])
      extra = {"leakyrelu_alpha": 0.3} if act == "LeakyRelu" else {}
      if bn:
        extra["epsilon"] = 0.001
      add("conv_%s_%s_%s" % (n, post.lower(), (act or "none").lower()),
          fused_node("_FusedConv2D", dt, ops, 4 if bn else 1, **extra),
          conv_inputs(dt, (2, 5, 5, 3), (3, 3, 3, 4), bn, 4), dt)
  # Geometry: strides, VALID, dilations, explicit padding, 1x1, grouped.
  add("conv_%s_valid_stride2_relu" % n,
      fused_node("_FusedConv2D", dt, ["BiasAdd", "Relu"], 1, strides=[1, 2, 2, 1],
                 padding="VALID"),
      conv_inputs(dt, (1, 7, 6, 2), (3, 2, 2, 5), False, 5), dt)
  add("conv_%s_dilated_bn_relu6" % n,
      fused_node("_FusedConv2D", dt, ["FusedBatchNorm", "Relu6"], 4, dilations=[1, 2, 2, 1]),
      conv_inputs(dt, (1, 7, 7, 2), (3, 3, 2, 3), True, 3), dt)
  add("conv_%s_explicit_elu" % n,
      fused_node("_FusedConv2D", dt, ["BiasAdd", "Elu"], 1, padding="EXPLICIT",
                 explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0]),
      conv_inputs(dt, (1, 4, 4, 3), (2, 2, 3, 2), False, 2), dt)
  add("conv_%s_1x1_bn" % n, fused_node("_FusedConv2D", dt, ["FusedBatchNorm"], 4),
      conv_inputs(dt, (3, 2, 2, 6), (1, 1, 6, 8), True, 8), dt)
  add("conv_%s_grouped_relu" % n, fused_node("_FusedConv2D", dt, ["BiasAdd", "Relu"], 1),
      conv_inputs(dt, (1, 4, 4, 4), (3, 3, 2, 6), False, 6), dt)
  add("conv_%s_nan_inf" % n, fused_node("_FusedConv2D", dt, ["BiasAdd"], 1),
      [np.array([np.nan, 1, np.inf, 2], dt).reshape(1, 2, 2, 1),
       np.ones((1, 1, 1, 2), dt), np.array([1, -1], dt)], dt)
add("conv_f64_zero_batch", fused_node("_FusedConv2D", np.float64, ["BiasAdd", "Relu"], 1),
    conv_inputs(np.float64, (0, 3, 3, 2), (2, 2, 2, 4), False, 4), np.float64)
add("conv_f32_nchw_bn_relu",
    fused_node("_FusedConv2D", np.float32, ["FusedBatchNorm", "Relu"], 4, data_format="NCHW"),
    conv_inputs(np.float32, (2, 3, 5, 5), (3, 3, 3, 4), True, 4), np.float32)
add("conv_f32_nchw_bias_leakyrelu",
    fused_node("_FusedConv2D", np.float32, ["BiasAdd", "LeakyRelu"], 1, data_format="NCHW",
               strides=[1, 1, 2, 2]),
    conv_inputs(np.float32, (1, 2, 6, 6), (3, 3, 2, 3), False, 3), np.float32)
add("conv_f32_large_bias_relu", fused_node("_FusedConv2D", np.float32, ["BiasAdd", "Relu"], 1),
    conv_inputs(np.float32, (1, 10, 10, 16), (3, 3, 16, 32), False, 32), np.float32)
add("conv_f32_large_bn_relu6",
    fused_node("_FusedConv2D", np.float32, ["FusedBatchNorm", "Relu6"], 4),
    conv_inputs(np.float32, (1, 10, 10, 16), (3, 3, 16, 24), True, 24), np.float32)
add("conv_f64_large_bn_elu", fused_node("_FusedConv2D", np.float64, ["FusedBatchNorm", "Elu"], 4),
    conv_inputs(np.float64, (1, 8, 8, 8), (3, 3, 8, 24), True, 24), np.float64)

# Errors TensorFlow checks.
F32 = np.float32
ci = conv_inputs(F32, (1, 3, 3, 2), (2, 2, 2, 4), False, 4)
add_expect("conv_err_bias_two_args", fused_node("_FusedConv2D", F32, ["BiasAdd"], 2),
           ci + [ci[2]], F32, 3)
add_expect("conv_err_bn_three_args", fused_node("_FusedConv2D", F32, ["FusedBatchNorm"], 3),
           ci + [ci[2], ci[2]], F32, 3)
add_expect("conv_err_relu_then_bias", fused_node("_FusedConv2D", F32, ["Relu", "BiasAdd"], 1),
           ci, F32, 12)
add_expect("conv_err_tanh", fused_node("_FusedConv2D", F32, ["BiasAdd", "Tanh"], 1), ci, F32,
           12, error_substr="Fusion is not implemented: [BiasAdd,Tanh]")
add_expect("conv_err_depth_mismatch", fused_node("_FusedConv2D", F32, ["BiasAdd"], 1),
           [ci[0], values((2, 2, 3, 4), F32), ci[2]], F32, 3)
add_expect("conv_f64_err_tanh", fused_node("_FusedConv2D", np.float64, ["BiasAdd", "Tanh"], 1),
           [x.astype(np.float64) for x in ci], np.float64, 12)


# ---- _FusedDepthwiseConv2dNative ------------------------------------------------------
def dw_reference(act, alpha=0.2, **conv_attrs):
  def build(x, f, b):
    y = tf.raw_ops.DepthwiseConv2dNative(input=x, filter=f, strides=[1, 1, 1, 1],
                                         padding="SAME", **conv_attrs)
    y = tf.raw_ops.BiasAdd(value=y, bias=b, data_format=conv_attrs.get("data_format", "NHWC"))
    return tf.raw_ops.LeakyRelu(features=y, alpha=alpha) if act == "LeakyRelu" else y
  return build


for dt in [np.float32, BF16]:
  n = NAME[np.dtype(dt)]
  for act in [None, "Relu", "Relu6", "Elu"]:
    ops = ["BiasAdd"] + ([act] if act else [])
    add("dw_%s_%s" % (n, (act or "none").lower()),
        fused_node("_FusedDepthwiseConv2dNative", dt, ops, 1),
        conv_inputs(dt, (2, 5, 5, 3), (3, 3, 3, 2), False, 6), dt)
  add_unfused("dw_%s_leakyrelu_unfused" % n,
              fused_node("_FusedDepthwiseConv2dNative", dt, ["BiasAdd", "LeakyRelu"], 1,
                         leakyrelu_alpha=0.25),
              dw_reference("LeakyRelu", 0.25), conv_inputs(dt, (1, 4, 4, 3), (3, 3, 3, 1),
                                                           False, 3), dt)
  add("dw_%s_valid_stride2_relu6" % n,
      fused_node("_FusedDepthwiseConv2dNative", dt, ["BiasAdd", "Relu6"], 1,
                 strides=[1, 2, 2, 1], padding="VALID"),
      conv_inputs(dt, (1, 7, 7, 4), (3, 3, 4, 1), False, 4), dt)
add("dw_f32_nchw_relu",
    fused_node("_FusedDepthwiseConv2dNative", F32, ["BiasAdd", "Relu"], 1, data_format="NCHW"),
    conv_inputs(F32, (1, 3, 5, 5), (3, 3, 3, 2), False, 6), F32)
add("dw_f32_dilated_elu",
    fused_node("_FusedDepthwiseConv2dNative", F32, ["BiasAdd", "Elu"], 1,
               dilations=[1, 2, 2, 1]),
    conv_inputs(F32, (1, 6, 6, 2), (2, 2, 2, 1), False, 2), F32)
add("dw_f32_large_relu6",
    fused_node("_FusedDepthwiseConv2dNative", F32, ["BiasAdd", "Relu6"], 1),
    conv_inputs(F32, (1, 12, 12, 32), (3, 3, 32, 1), False, 32), F32)
add("dw_f32_zero_batch",
    fused_node("_FusedDepthwiseConv2dNative", F32, ["BiasAdd", "Relu"], 1),
    conv_inputs(F32, (0, 3, 3, 2), (2, 2, 2, 1), False, 2), F32)
di = conv_inputs(F32, (1, 3, 3, 2), (2, 2, 2, 1), False, 2)
add_expect("dw_err_bias_two_args",
           fused_node("_FusedDepthwiseConv2dNative", F32, ["BiasAdd"], 2), di + [di[2]], F32, 3)
add_expect("dw_err_depth_mismatch",
           fused_node("_FusedDepthwiseConv2dNative", F32, ["BiasAdd"], 1),
           [di[0], values((2, 2, 3, 1), F32), values(3, F32)], F32, 3)


# ---- _FusedMatMul ---------------------------------------------------------------------
def mm(dt, ops, **attrs):
  return fused_node("_FusedMatMul", dt, ops, 1, **attrs)


for dt in [np.float32, BF16, np.float16]:
  n = NAME[np.dtype(dt)]
  acts = MATMUL_ACTS if dt != np.float16 else MATMUL_ACTS[:6]
  for act in [None] + acts:
    ops = ["BiasAdd"] + ([act] if act else [])
    extra = {"leakyrelu_alpha": 0.1} if act == "LeakyRelu" else {}
    add("mm_%s_%s" % (n, (act or "none").lower()), mm(dt, ops, **extra),
        [values((3, 5), dt), values((5, 4), dt, -1, 1), values(4, dt)], dt)
  for ta in (False, True):
    for tb in (False, True):
      a = values((5, 3) if ta else (3, 5), dt)
      b = values((4, 5) if tb else (5, 4), dt, -1, 1)
      add("mm_%s_t%d%d_relu" % (n, ta, tb), mm(dt, ["BiasAdd", "Relu"], transpose_a=ta,
                                                 transpose_b=tb), [a, b, values(4, dt)], dt)
add("mm_f32_large_gelu", mm(F32, ["BiasAdd", "GeluExact"]),
    [values((32, 96), F32), values((96, 48), F32, -0.3, 0.3), values(48, F32)], F32)
add("mm_f32_large_tanh_tb", mm(F32, ["BiasAdd", "Tanh"], transpose_b=True),
    [values((24, 64), F32), values((40, 64), F32, -0.3, 0.3), values(40, F32)], F32)
add("mm_f32_empty_m", mm(F32, ["BiasAdd", "Relu"]),
    [values((0, 3), F32), values((3, 4), F32), values(4, F32)], F32)
add("mm_f32_nan_inf", mm(F32, ["BiasAdd"]),
    [np.array([[np.nan, 1], [np.inf, 1]], F32), np.array([[1, 2], [3, 4]], F32),
     np.array([1, -1], F32)], F32)
mi = [values((2, 3), F32), values((3, 4), F32), values(4, F32)]
add_expect("mm_err_bias_length", mm(F32, ["BiasAdd"]), [mi[0], mi[1], values(3, F32)], F32, 3)
add_expect("mm_err_k_mismatch", mm(F32, ["BiasAdd"]), [mi[0], values((2, 4), F32), mi[2]],
           F32, 3)
add_expect("mm_err_rank3", mm(F32, ["BiasAdd"]), [values((1, 2, 3), F32), mi[1], mi[2]], F32, 3)
add_expect("mm_err_b_rank1", mm(F32, ["BiasAdd"]), [mi[0], values(3, F32), mi[2]], F32, 3)
add_expect("mm_err_relu_first", fused_node("_FusedMatMul", F32, ["Relu"], 0), mi[:2], F32, 3)
add_expect("mm_err_three_ops", mm(F32, ["BiasAdd", "Relu", "Relu"]), mi, F32, 3)
add_expect("mm_f16_err_gelu", mm(np.float16, ["BiasAdd", "GeluExact"]),
           [x.astype(np.float16) for x in mi], np.float16, 12)
add_expect("mm_f16_err_relu_first", fused_node("_FusedMatMul", np.float16, ["Relu"], 0),
           [x.astype(np.float16) for x in mi[:2]], np.float16, 12)

w.write()
