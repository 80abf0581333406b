"""Writes fixtures/subnormal.pbtxt: ops given subnormal numbers, or making them, in TensorFlow.

TensorFlow's CPU kernels run with subnormal numbers flushed to zero (x86's FTZ and DAZ: a
subnormal operand reads as zero, a subnormal result becomes zero), and so do Sluice's
(numerics/float_environment.h). These cases pin that down op by op, exactly (no tolerance):
arithmetic flushes, sign-bit operations and copies keep the bits, and casts that widen or
narrow go through the same rules.

Run from anywhere: python3 tests/kernels/gen_subnormal.py (needs TensorFlow 2.x and numpy).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

w = CaseWriter("subnormal")
raw = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype

FLT_MIN = np.float32(1.17549435e-38)
# Subnormal floats of both signs (the smallest, the largest, some between), the smallest
# normal ones (where a function's intermediate products may underflow and be flushed), zeros
# and ordinary numbers. 32 elements: every vectorised loop of TensorFlow's (AVX2 or AVX-512,
# on 64-byte aligned buffers) covers them all, with no scalar tail, whose functions treat
# subnormals differently from the vectorised ones in places.
F32 = np.array([1e-40, -1e-40, 1e-45, -1e-45, 1.1e-38, -1.1e-38, 5e-39, 3e-42,
                FLT_MIN, -FLT_MIN, 0.0, -0.0, 1.0, -2.5, 1e-30, 7e-39, -6e-39, 2e-44,
                1.5e-38, 0.5, 2e-38, 3e-38, 5e-38, 1e-37, -2e-38, -1e-37, 1e-36, 2.4e-38,
                4.7e-38, 1e-35, -3e-38, 1e-20], np.float32)
F64 = np.array([1e-310, -1e-310, 5e-324, -5e-324, 2.2e-308, 2.225073858507201e-308,
                2.2250738585072014e-308, 0.0, -0.0, 1.0, -2.5, 1e-300, 3e-320, 0.5,
                3e-308, -5e-308], np.float64)

# Functions whose normal-range results TensorFlow's newer Eigen rounds differently in the last
# place (see gen_unary.py): compared with a relative tolerance and no absolute one, so a
# flushed zero against a subnormal (or a subnormal against a zero) still fails.
TRANSCENDENTAL = {"Rsqrt", "Reciprocal", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos", "Tanh",
                  "Sigmoid", "Erf", "Erfc", "Elu", "Selu", "Softplus"}


def rtol(op, dtype):
  if op not in TRANSCENDENTAL:
    return 0.0
  return 2e-6 if dtype == np.float32 else 1e-12


def unary(op):
  return lambda x: getattr(raw, op)(x=x)


def feature(op, **attrs):
  return lambda x: getattr(raw, op)(features=x, **attrs)


UNARY = {
    "Neg": unary("Neg"), "Abs": unary("Abs"), "Sign": unary("Sign"),
    "Square": unary("Square"), "Sqrt": unary("Sqrt"), "Rsqrt": unary("Rsqrt"),
    "Reciprocal": unary("Reciprocal"), "Exp": unary("Exp"), "Expm1": unary("Expm1"),
    "Log": unary("Log"), "Log1p": unary("Log1p"), "Sin": unary("Sin"), "Cos": unary("Cos"),
    "Tanh": unary("Tanh"), "Sigmoid": unary("Sigmoid"), "Erf": unary("Erf"),
    "Erfc": unary("Erfc"), "Floor": unary("Floor"), "Ceil": unary("Ceil"),
    "Round": unary("Round"), "Rint": unary("Rint"), "IsFinite": unary("IsFinite"),
    "Relu": feature("Relu"), "Relu6": feature("Relu6"), "Elu": feature("Elu"),
    "Selu": feature("Selu"), "Softplus": feature("Softplus"), "Softsign": feature("Softsign"),
    "LeakyRelu": feature("LeakyRelu", alpha=0.2),
    "Identity": lambda x: raw.Identity(input=x),
}
for name, build in UNARY.items():
  w.add("%s_f32" % name.lower(), build, [F32], rtol=rtol(name, np.float32))
for name in ["Neg", "Abs", "Square", "Sqrt", "Exp", "Log", "Reciprocal", "Tanh", "Relu"]:
  w.add("%s_f64" % name.lower(), UNARY[name], [F64], rtol=rtol(name, np.float64))

# Arithmetic of two tensors: subnormal operands read as zero, subnormal results flush.
G32 = np.array([1e-40, 1e-20, -1e-20, 1e-38, 1.0, 1e-45, FLT_MIN, 3.0, -1e-40, 0.5, 2e-39,
                1e-19, 7.0, -3e-39, 1e-30, 4.0, 1e-40, 8e-39, 1e-10, -1.0, 0.5, 0.25, 1e-40,
                -1e-40, 2.0, 0.1, 1e-2, 0.5, 0.5, 1e-3, 1e-40, 1e-18], np.float32)
# Not Maximum and Minimum: TensorFlow's return the zero a subnormal operand reads as (x86's
# max and min instructions in its mode), Sluice's the operand's own bits (a compare and a
# select, in the kernels, _FusedElementwise and compiled clusters alike); a known difference
# (README, "Subnormal numbers").
for op in ["AddV2", "Sub", "Mul", "RealDiv", "SquaredDifference", "DivNoNan", "Pow"]:
  w.add("%s_f32" % op.lower(), lambda x, y, op=op: getattr(raw, op)(x=x, y=y), [F32, G32],
        rtol=2e-6 if op == "Pow" else 0.0)
w.add("addv2_f64", lambda x, y: raw.AddV2(x=x, y=y), [F64, F64[::-1].copy()])
w.add("mul_f64", lambda x, y: raw.Mul(x=x, y=y), [F64, np.full(F64.shape, 1e-10)])
# A subnormal result of two normal numbers.
w.add("mul_to_subnormal_f32", lambda x, y: raw.Mul(x=x, y=y),
      [np.array([1e-20, 3e-20, -1e-19, 1e-19, 2e-19], np.float32),
       np.array([1e-20, 1e-20, 1e-20, 1e-19, 1e-19], np.float32)])

# Products and sums inside larger kernels.
a = np.array([[1e-20, 2e-20, 1.0], [3e-20, 1e-19, 1e-40]], np.float32)
b = np.array([[1e-20, 1.0], [1e-20, 2e-39], [1e-40, 0.5]], np.float32)
w.add("matmul_f32", lambda x, y: raw.MatMul(a=x, b=y), [a, b])
w.add("sum_f32", lambda x, y: raw.Sum(input=x, axis=y),
      [F32.reshape(4, 8), np.array([1], np.int32)])
w.add("mean_f32", lambda x, y: raw.Mean(input=x, axis=y),
      [F32.reshape(4, 8), np.array([0], np.int32)])
w.add("bias_add_f32", lambda x, y: raw.BiasAdd(value=x, bias=y),
      [F32.reshape(4, 8),
       np.array([1e-40, 0.0, 1e-39, -1e-40, 1.0, 2e-38, -1e-38, 1e-20], np.float32)])
# exp(-100) and exp(-90) are subnormal: flushed in the probabilities.
w.add("softmax_f32", lambda x: raw.Softmax(logits=x),
      [np.array([[0.0, -100.0, -90.0, -10.0, -87.0, -88.0, -103.0]], np.float32)])

# Casts: widening reads the operand (DAZ), narrowing writes the result (FTZ).
w.add("cast_f32_to_f64", lambda x: raw.Cast(x=x, DstT=tf.float64), [F32])
w.add("cast_f64_to_f32", lambda x: raw.Cast(x=x, DstT=tf.float32),
      [np.array([1e-40, -1e-40, 1e-45, 2e-38, 1e-39, 1.0, 1e-310, 0.0], np.float64)])
w.add("cast_f32_to_f16", lambda x: raw.Cast(x=x, DstT=tf.float16),
      [np.array([1e-40, 1e-6, -1e-7, 6e-5, 3e-8, 1.0], np.float32)])
w.add("cast_f32_to_bf16", lambda x: raw.Cast(x=x, DstT=tf.bfloat16), [F32])
w.add("cast_f16_to_f32", lambda x: raw.Cast(x=x, DstT=tf.float32),
      [np.array([1e-6, -1e-7, 6e-5, 6e-8, 1.0, 0.0], np.float16)])
w.add("cast_bf16_to_f32", lambda x: raw.Cast(x=x, DstT=tf.float32), [F32.astype(BF16)])
w.add("cast_f32_to_i32", lambda x: raw.Cast(x=x, DstT=tf.int32), [F32])

# Half and bfloat16 arithmetic (computed in float, whose range holds their subnormals).
F16 = np.array([1e-6, -1e-7, 6e-5, 6e-8, 1.0, 0.0, 3e-5, -5e-6], np.float16)
w.add("mul_f16", lambda x, y: raw.Mul(x=x, y=y), [F16, np.full(F16.shape, 0.5, np.float16)])
w.add("exp_f16", unary("Exp"), [F16])
w.add("mul_bf16", lambda x, y: raw.Mul(x=x, y=y),
      [F32.astype(BF16), np.full(F32.shape, 0.5, BF16)])

w.write()
