#!/usr/bin/env python3
"""Writes the cases of //tests/gradients:tf_gradients_test: forward graphs built with
TensorFlow, and TensorFlow's gradients of them.

Each case is a small graph under the name scope `<case>/`: inputs `<case>/x0`, `<case>/x1`...
(Const), the differentiated output `<case>/y` (an Identity), the seed `<case>/dy` (Const,
shaped like y) and TensorFlow's gradients `<case>/expected0`... (Const; tf.gradients of y with
respect to each x, seeded with dy). The test imports the graph, adds Sluice's gradients with
AddSymbolicGradients (the C++ API TensorFlow's C API and C++ clients use) and compares.

    python3 tests/gradients/gen_gradient_cases.py   # writes tests/gradients/gradient_cases.pb

Needs `pip install tensorflow-cpu` (the version is written into gradient_cases.txt).
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1
raw = tf.raw_ops
HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261207)


def normal(*shape, dtype=np.float32):
  if np.issubdtype(dtype, np.complexfloating):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
  return rng.standard_normal(shape).astype(dtype)


def uniform(lo, hi, *shape, dtype=np.float32):
  return rng.uniform(lo, hi, shape).astype(dtype)


CASES = []


def case(name, inputs, fn, diff=None):
  """inputs: arrays (the x's); fn: builds y from the Const tensors; diff: indices of the x's
  to differentiate (all floating and complex ones by default)."""
  CASES.append((name, inputs, fn, diff))


# ---- Unary math ----
pos = lambda: uniform(0.5, 3.0, 3, 4)
unit = lambda: uniform(-0.9, 0.9, 3, 4)
for op, x in [
    ("Abs", normal(3, 4)), ("Neg", normal(3, 4)), ("Reciprocal", pos()), ("Square", normal(3, 4)),
    ("Sqrt", pos()), ("Rsqrt", pos()), ("Exp", normal(3, 4)), ("Expm1", normal(3, 4)),
    ("Log", pos()), ("Log1p", pos()), ("Sinh", normal(3, 4)), ("Cosh", normal(3, 4)),
    ("Tanh", normal(3, 4)), ("Asinh", normal(3, 4)), ("Acosh", uniform(1.5, 4, 3, 4)),
    ("Atanh", unit()), ("Sigmoid", normal(3, 4)), ("Sin", normal(3, 4)), ("Cos", normal(3, 4)),
    ("Tan", unit()), ("Asin", unit()), ("Acos", unit()), ("Atan", normal(3, 4)),
    ("Erf", normal(3, 4)), ("Sign", normal(3, 4)), ("Identity", normal(3, 4)),
    ("Relu", normal(3, 4)), ("Relu6", uniform(-3, 9, 3, 4)), ("Elu", normal(3, 4)),
    ("Selu", normal(3, 4)), ("Softplus", normal(3, 4)), ("Softsign", normal(3, 4)),
    ("Softmax", normal(3, 4)), ("LogSoftmax", normal(3, 4)), ("Floor", normal(3, 4)),
]:
  case(op, [x], lambda xs, op=op: getattr(raw, op)(**{
      ("logits" if op in ("Softmax", "LogSoftmax") else
       "features" if op in ("Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign") else
       "input" if op == "Identity" else "x"): xs[0]}))
case("Tanh_double", [normal(5, dtype=np.float64)], lambda xs: raw.Tanh(x=xs[0]))
case("LeakyRelu", [normal(3, 4)], lambda xs: raw.LeakyRelu(features=xs[0], alpha=0.3))
case("L2Loss", [normal(3, 4)], lambda xs: raw.L2Loss(t=xs[0]))
case("Cast_to_double", [normal(3, 4)], lambda xs: raw.Cast(x=xs[0], DstT=tf.float64))

# ---- Binary math, with broadcasting ----
for op, a, b in [
    ("AddV2", normal(3, 4), normal(4)), ("Add", normal(2, 1, 3), normal(4, 1)),
    ("Sub", normal(3, 1), normal(1, 4)), ("Mul", normal(2, 3, 4), normal(3, 1)),
    ("RealDiv", normal(3, 4), uniform(0.5, 2, 4)), ("Div", normal(3, 4), uniform(0.5, 2, 3, 1)),
    ("DivNoNan", normal(3, 4), np.array([1.5, 0.0, -2.0, 0.7], np.float32)),
    ("SquaredDifference", normal(3, 4), normal(4)), ("Pow", uniform(0.5, 2, 3, 4), normal(3, 4)),
    ("Maximum", normal(3, 4), normal(4)), ("Minimum", normal(3, 4), normal(3, 1)),
    ("Atan2", normal(3, 4), normal(3, 4)),
]:
  case(op, [a, b], lambda xs, op=op: getattr(raw, op)(x=xs[0], y=xs[1])
       if op != "Atan2" else raw.Atan2(y=xs[0], x=xs[1]))
case("Maximum_ties", [np.array([1., 2., 3.], np.float32), np.array([1., 0., 3.], np.float32)],
     lambda xs: raw.Maximum(x=xs[0], y=xs[1]))
case("AddN", [normal(2, 3), normal(2, 3), normal(2, 3)], lambda xs: raw.AddN(inputs=xs))
case("Mul_shared_input", [normal(3)], lambda xs: raw.Mul(x=xs[0], y=raw.Exp(x=xs[0])))

# ---- Reductions ----
for op in ["Sum", "Mean", "Max", "Min"]:
  for axes, keep in [([1], False), ([0, 2], True), ([-1], False), ([0, 1, 2], False)]:
    x = normal(2, 3, 4)
    if op in ("Max", "Min"):
      x[0, 0, :] = 1.0  # ties share the gradient
    case(f"{op}_{'_'.join(map(str, axes)).replace('-', 'm')}_{'keep' if keep else 'drop'}", [x],
         lambda xs, op=op, axes=axes, keep=keep: getattr(raw, op)(
             input=xs[0], axis=tf.constant(axes, tf.int32), keep_dims=keep))
case("Sum_int64_axis", [normal(3, 4)],
     lambda xs: raw.Sum(input=xs[0], axis=tf.constant([0], tf.int64), keep_dims=False))
case("Cumsum", [normal(3, 4)], lambda xs: raw.Cumsum(x=xs[0], axis=1))
case("Cumsum_exclusive_reverse", [normal(3, 4)],
     lambda xs: raw.Cumsum(x=xs[0], axis=0, exclusive=True, reverse=True))

# ---- Matrix products ----
for ta in (False, True):
  for tb in (False, True):
    a = normal(4, 3) if ta else normal(3, 4)
    b = normal(5, 4) if tb else normal(4, 5)
    case(f"MatMul_{int(ta)}{int(tb)}", [a, b],
         lambda xs, ta=ta, tb=tb: raw.MatMul(a=xs[0], b=xs[1], transpose_a=ta, transpose_b=tb))
case("BatchMatMulV2_broadcast", [normal(2, 1, 3, 4), normal(3, 4, 5)],
     lambda xs: raw.BatchMatMulV2(x=xs[0], y=xs[1]))
case("BatchMatMulV2_adj", [normal(2, 4, 3), normal(2, 5, 4)],
     lambda xs: raw.BatchMatMulV2(x=xs[0], y=xs[1], adj_x=True, adj_y=True))
case("BatchMatMul", [normal(2, 3, 4), normal(2, 4, 5)],
     lambda xs: raw.BatchMatMul(x=xs[0], y=xs[1]))

# ---- Selection ----
cond = np.array([[True, False, True, False]] * 3)
case("Select", [normal(3, 4), normal(3, 4)],
     lambda xs: raw.Select(condition=tf.constant(cond), x=xs[0], y=xs[1]))
case("SelectV2_broadcast", [normal(4), normal(3, 1)],
     lambda xs: raw.SelectV2(condition=tf.constant(cond), t=xs[0], e=xs[1]))

# ---- NN ----
case("BiasAdd_NHWC", [normal(2, 3, 3, 4), normal(4)],
     lambda xs: raw.BiasAdd(value=xs[0], bias=xs[1]))
case("BiasAdd_NCHW", [normal(2, 4, 3, 3), normal(4)],
     lambda xs: raw.BiasAdd(value=xs[0], bias=xs[1], data_format="NCHW"))
labels = np.eye(5, dtype=np.float32)[[1, 3, 0]] * 0.8 + 0.04
case("SoftmaxCrossEntropyWithLogits", [normal(3, 5), labels],
     lambda xs: raw.SoftmaxCrossEntropyWithLogits(features=xs[0], labels=xs[1])[0])
case("SparseSoftmaxCrossEntropyWithLogits", [normal(3, 5)],
     lambda xs: raw.SparseSoftmaxCrossEntropyWithLogits(
         features=xs[0], labels=tf.constant([1, 4, 0]))[0])
for pad, stride, dil in [("SAME", 1, 1), ("VALID", 2, 1), ("SAME", 1, 2)]:
  case(f"Conv2D_{pad}_s{stride}_d{dil}", [normal(2, 7, 7, 3), normal(3, 3, 3, 4)],
       lambda xs, pad=pad, stride=stride, dil=dil: raw.Conv2D(
           input=xs[0], filter=xs[1], strides=[1, stride, stride, 1], padding=pad,
           dilations=[1, dil, dil, 1]))
case("DepthwiseConv2dNative", [normal(2, 6, 6, 3), normal(3, 3, 3, 2)],
     lambda xs: raw.DepthwiseConv2dNative(input=xs[0], filter=xs[1], strides=[1, 1, 1, 1],
                                          padding="SAME"))
for pad in ["SAME", "VALID"]:
  case(f"MaxPool_{pad}", [normal(2, 5, 5, 3)], lambda xs, pad=pad: raw.MaxPool(
      input=xs[0], ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding=pad))
  case(f"AvgPool_{pad}", [normal(2, 5, 5, 3)], lambda xs, pad=pad: raw.AvgPool(
      value=xs[0], ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding=pad))
for training in (True, False):
  case(f"FusedBatchNormV3_{'train' if training else 'infer'}",
       [normal(2, 3, 3, 4), uniform(0.5, 1.5, 4), normal(4)],
       lambda xs, training=training: raw.FusedBatchNormV3(
           x=xs[0], scale=xs[1], offset=xs[2], mean=tf.constant(normal(4)) if not training
           else tf.zeros([0]), variance=tf.constant(uniform(0.5, 1.5, 4)) if not training
           else tf.zeros([0]), epsilon=0.001, is_training=training)[0])

# ---- Array ----
case("Reshape", [normal(3, 4)], lambda xs: raw.Reshape(tensor=xs[0], shape=[2, 6]))
case("ExpandDims", [normal(3, 4)], lambda xs: raw.ExpandDims(input=xs[0], axis=1))
case("Squeeze", [normal(3, 1, 4)], lambda xs: raw.Squeeze(input=xs[0]))
case("Transpose", [normal(2, 3, 4)], lambda xs: raw.Transpose(x=xs[0], perm=[2, 0, 1]))
case("ReverseV2", [normal(2, 3, 4)], lambda xs: raw.ReverseV2(tensor=xs[0], axis=[1, 2]))
case("Pack", [normal(3, 4), normal(3, 4)], lambda xs: raw.Pack(values=xs, axis=1))
case("Unpack", [normal(3, 4)], lambda xs: raw.Unpack(value=xs[0], num=4, axis=1)[2])
case("ConcatV2", [normal(2, 3), normal(2, 5)], lambda xs: raw.ConcatV2(values=xs, axis=-1))
case("Split", [normal(6, 4)], lambda xs: raw.Split(axis=0, value=xs[0], num_split=3)[1])
case("SplitV", [normal(3, 7)], lambda xs: raw.SplitV(
    value=xs[0], size_splits=[2, 4, 1], axis=1, num_split=3)[1])
case("Slice", [normal(4, 5)], lambda xs: raw.Slice(input=xs[0], begin=[1, 2], size=[2, -1]))
case("StridedSlice", [normal(5, 6, 3)], lambda xs: raw.StridedSlice(
    input=xs[0], begin=[1, -1, 0], end=[5, 0, 2], strides=[2, -2, 1], shrink_axis_mask=0))
case("StridedSlice_shrink", [normal(4, 6)], lambda xs: raw.StridedSlice(
    input=xs[0], begin=[0, -1], end=[0, 0], strides=[1, 1], begin_mask=1, end_mask=1,
    shrink_axis_mask=2))
case("Pad", [normal(2, 3)], lambda xs: raw.Pad(input=xs[0], paddings=[[1, 0], [2, 1]]))
case("PadV2", [normal(2, 3)], lambda xs: raw.PadV2(input=xs[0], paddings=[[0, 1], [1, 1]],
                                                  constant_values=1.5))
case("Tile", [normal(2, 3)], lambda xs: raw.Tile(input=xs[0], multiples=[2, 3]))
case("BroadcastTo", [normal(3, 1)], lambda xs: raw.BroadcastTo(input=xs[0], shape=[2, 3, 4]))
case("Fill", [np.float32(1.5)], lambda xs: raw.Fill(dims=[2, 3], value=xs[0]))
case("GatherV2_axis0", [normal(5, 3)], lambda xs: raw.GatherV2(
    params=xs[0], indices=[[0, 3], [3, 4]], axis=0))
case("GatherV2_axis1", [normal(2, 5, 3)], lambda xs: raw.GatherV2(
    params=xs[0], indices=[4, 0, 4], axis=1))
case("Gather", [normal(4, 2)], lambda xs: raw.Gather(params=xs[0], indices=[1, 1, 3]))

# ---- Forms the sections above leave out ----
case("Inv", [uniform(0.5, 3.0, 3, 4)], lambda xs: raw.Inv(x=xs[0]))
case("EnsureShape", [normal(3, 4)], lambda xs: raw.EnsureShape(input=xs[0], shape=[3, 4]))
case("Concat_v1", [normal(2, 3), normal(2, 2)], lambda xs: raw.Concat(concat_dim=1, values=xs))
case("ConcatV2_axis0", [normal(1, 3), normal(2, 3)], lambda xs: raw.ConcatV2(values=xs, axis=0))
case("MaxPoolV2", [normal(2, 4, 4, 3)], lambda xs: raw.MaxPoolV2(
    input=xs[0], ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"))
case("FusedBatchNorm_train", [normal(2, 3, 3, 4), uniform(0.5, 1.5, 4), normal(4)],
     lambda xs: raw.FusedBatchNorm(x=xs[0], scale=xs[1], offset=xs[2], mean=tf.zeros([0]),
                                   variance=tf.zeros([0]), is_training=True)[0])
case("DepthwiseConv2dNative_strided", [normal(1, 7, 7, 2), normal(3, 3, 2, 3)],
     lambda xs: raw.DepthwiseConv2dNative(input=xs[0], filter=xs[1], strides=[1, 2, 2, 1],
                                          padding="VALID"))
# Both outputs of the loss used: the second-order term of the backprop output.
backprop_weights = normal(3, 5)
case("SoftmaxCrossEntropyWithLogits_both_outputs", [normal(3, 5), labels],
     lambda xs: (lambda out: raw.AddV2(
         x=raw.Sum(input=out[0], axis=[0]),
         y=raw.Sum(input=raw.Mul(x=out[1], y=tf.constant(backprop_weights)), axis=[0, 1])))(
             raw.SoftmaxCrossEntropyWithLogits(features=xs[0], labels=xs[1])))
case("Mean_all_keep", [normal(2, 3)], lambda xs: raw.Mean(
    input=xs[0], axis=tf.constant([0, 1]), keep_dims=True))
case("Sum_no_axes", [normal(2, 3)], lambda xs: raw.Sum(
    input=xs[0], axis=tf.constant([], tf.int32), keep_dims=False))
case("Max_vector", [np.array([1., 3., 3., 2.], np.float32)], lambda xs: raw.Max(
    input=xs[0], axis=tf.constant(0), keep_dims=False))

# ---- Compositions: what a training step differentiates ----
def mlp(xs):
  h = raw.Relu(features=raw.BiasAdd(value=raw.MatMul(a=xs[0], b=xs[1]), bias=xs[2]))
  logits = raw.MatMul(a=h, b=xs[3])
  loss = raw.SparseSoftmaxCrossEntropyWithLogits(features=logits, labels=tf.constant([0, 2, 1, 2]))[0]
  return raw.Mean(input=loss, axis=[0])
case("mlp_loss", [normal(4, 6), normal(6, 8), normal(8), normal(8, 3)], mlp, diff=[1, 2, 3])


def cnn(xs):
  c = raw.Conv2D(input=xs[0], filter=xs[1], strides=[1, 1, 1, 1], padding="SAME")
  bn = raw.FusedBatchNormV3(x=c, scale=xs[2], offset=xs[3], mean=tf.zeros([0]),
                            variance=tf.zeros([0]), is_training=True)[0]
  p = raw.MaxPool(input=raw.Relu(features=bn), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                  padding="VALID")
  flat = raw.Reshape(tensor=p, shape=[2, -1])
  return raw.Sum(input=raw.Square(x=raw.Tanh(x=flat)), axis=[0, 1])
case("cnn_loss", [normal(2, 6, 6, 2), normal(3, 3, 2, 4), uniform(0.5, 1.5, 4), normal(4)], cnn,
     diff=[1, 2, 3])

# ---- Resizes and 3-D convolution and pooling (nnback) ----
for mode, align, half in [("legacy", False, False), ("align", True, False),
                          ("half", False, True)]:
  for op in ("ResizeBilinear", "ResizeBicubic", "ResizeNearestNeighbor"):
    case(f"{op}_{mode}", [normal(2, 3, 4, 2)], lambda xs, op=op, align=align, half=half:
         getattr(raw, op)(images=xs[0], size=[6, 7], align_corners=align,
                          half_pixel_centers=half))
case("ResizeBilinear_down", [normal(1, 6, 5, 3)], lambda xs: raw.ResizeBilinear(
    images=xs[0], size=[4, 2], half_pixel_centers=True))
case("ResizeBicubic_double", [normal(1, 3, 3, 2, dtype=np.float64)], lambda xs: raw.ResizeBicubic(
    images=xs[0], size=[5, 4]))
for pad in ("VALID", "SAME"):
  case(f"Conv3D_{pad}", [normal(2, 4, 5, 4, 2), normal(2, 3, 2, 2, 3)],
       lambda xs, pad=pad: raw.Conv3D(input=xs[0], filter=xs[1], strides=[1, 1, 1, 1, 1],
                                      padding=pad))
  case(f"MaxPool3D_{pad}", [normal(2, 4, 5, 3, 2)], lambda xs, pad=pad: raw.MaxPool3D(
      input=xs[0], ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding=pad))
  case(f"AvgPool3D_{pad}", [normal(2, 4, 5, 3, 2)], lambda xs, pad=pad: raw.AvgPool3D(
      input=xs[0], ksize=[1, 2, 3, 2, 1], strides=[1, 2, 2, 1, 1], padding=pad))
case("Conv3D_strided", [normal(1, 5, 5, 5, 2), normal(3, 3, 3, 2, 2)],
     lambda xs: raw.Conv3D(input=xs[0], filter=xs[1], strides=[1, 2, 2, 2, 1], padding="SAME"))


# ---- TensorFlow's C++ registry, more of it: complex parts, special functions, products,
# segments, clipping, space/depth moves, diagonals, gather/scatter, batched gathers, einsum,
# stitching, rolling, second-order backprops. The block draws its inputs from a generator of
# its own, so that the cases before it keep their values. ----
rng_before_block, rng = rng, np.random.default_rng(20261208)
case("Erfinv", [uniform(-0.9, 0.9, 3, 4)], lambda xs: raw.Erfinv(x=xs[0]))
case("Ndtri", [uniform(0.05, 0.95, 3, 4)], lambda xs: raw.Ndtri(x=xs[0]))
case("Lgamma", [uniform(0.5, 4.0, 3, 4)], lambda xs: raw.Lgamma(x=xs[0]))
case("ApproximateEqual_no_gradient", [np.array([1.0, 2.0, 3.0], np.float32)],
     lambda xs: raw.Mul(x=xs[0], y=raw.Cast(x=raw.ApproximateEqual(
         x=xs[0], y=tf.constant([1.0, 2.5, 3.0]), tolerance=0.1), DstT=tf.float32)))
case("Pow_zero_base", [np.array([0.0, 0.0, 2.0, 0.5], np.float32),
                       np.array([2.0, 1.0, 3.0, 3.0], np.float32)],
     lambda xs: raw.Pow(x=xs[0], y=xs[1]))


# One Complex node per use (written when Sluice's AddN had no complex kernel; kept so that the
# recorded graph stays as it was).
def complex_parts(xs):
  c = lambda: raw.Complex(real=xs[0], imag=xs[1])
  return raw.AddV2(x=raw.Mul(x=raw.Real(input=c()), y=raw.Imag(input=c())),
                   y=raw.Imag(input=raw.Conj(input=c())))
case("Complex_Real_Imag_Conj", [normal(3, 4), normal(4)], complex_parts)
case("Angle", [normal(3, 4), normal(3, 4)],
     lambda xs: raw.Angle(input=raw.Complex(real=xs[0], imag=xs[1])))
case("Angle_complex128", [normal(5, dtype=np.float64), normal(5, dtype=np.float64)],
     lambda xs: raw.Angle(input=raw.Complex(real=xs[0], imag=xs[1], Tout=tf.complex128),
                          Tout=tf.float64))
clip_x = np.array([[-2.0, -0.5, 0.1, 3.0], [0.9, -1.5, 2.5, 0.0], [-0.2, 1.7, -3.0, 0.4]],
                  np.float32)
case("ClipByValue_broadcast_bounds", [clip_x, np.float32(-1.0),
                                      np.array([1.0, 2.0, 0.5, 1.0], np.float32)],
     lambda xs: raw.ClipByValue(t=xs[0], clip_value_min=xs[1], clip_value_max=xs[2]))
prod_x = uniform(0.5, 1.5, 2, 3, 4)
prod_x[0, 1, 2] = 0.0
prod_x[1, :, 3] = 0.0
for axes, keep in [([1], False), ([0, 2], True), ([-1], False), ([0, 1, 2], False)]:
  case(f"Prod_{'_'.join(map(str, axes)).replace('-', 'm')}_{'keep' if keep else 'drop'}",
       [prod_x], lambda xs, axes=axes, keep=keep: raw.Prod(
           input=xs[0], axis=tf.constant(axes, tf.int32), keep_dims=keep))
# SegmentSum's output rows depend on the ids' values: a Reshape gives y a static shape.
case("SegmentSum", [normal(5, 3)], lambda xs: raw.Reshape(tensor=raw.SegmentSum(
    data=xs[0], segment_ids=tf.constant([0, 0, 1, 3, 3])), shape=[4, 3]))
case("UnsortedSegmentSum_negative_ids", [normal(5, 2, 3)], lambda xs: raw.UnsortedSegmentSum(
    data=xs[0], segment_ids=tf.constant([2, 0, -1, 2, 1]), num_segments=4))
seg_x = normal(6, 3)
seg_x[1] = seg_x[0]  # ties share the gradient
for op in ["UnsortedSegmentMax", "UnsortedSegmentMin"]:
  case(op, [seg_x], lambda xs, op=op: getattr(raw, op)(
      data=xs[0], segment_ids=tf.constant([0, 0, 2, -1, 2, 0]), num_segments=4))
case("SpaceToBatchND", [normal(2, 4, 6, 3)], lambda xs: raw.SpaceToBatchND(
    input=xs[0], block_shape=[2, 3], paddings=[[0, 2], [1, 2]]))
case("BatchToSpaceND", [normal(12, 2, 3, 2)], lambda xs: raw.BatchToSpaceND(
    input=xs[0], block_shape=[2, 3], crops=[[1, 0], [0, 2]]))
case("SpaceToDepth", [normal(2, 4, 6, 3)], lambda xs: raw.SpaceToDepth(
    input=xs[0], block_size=2))
case("DepthToSpace", [normal(2, 2, 3, 8)], lambda xs: raw.DepthToSpace(
    input=xs[0], block_size=2))
case("CheckNumerics", [normal(3, 4)], lambda xs: raw.CheckNumerics(
    tensor=xs[0], message="forward"))
case("Diag", [normal(2, 3)], lambda xs: raw.Diag(diagonal=xs[0]))
case("DiagPart", [normal(3, 2, 3, 2)], lambda xs: raw.DiagPart(input=xs[0]))
case("MatrixDiag", [normal(2, 3)], lambda xs: raw.MatrixDiag(diagonal=xs[0]))
case("MatrixBandPart", [normal(2, 4, 5)], lambda xs: raw.MatrixBandPart(
    input=xs[0], num_lower=1, num_upper=2))
case("GatherNd_rows_repeated", [normal(4, 3)], lambda xs: raw.GatherNd(
    params=xs[0], indices=tf.constant([[1], [3], [1]])))
case("GatherNd_elements_int64", [normal(3, 4)], lambda xs: raw.GatherNd(
    params=xs[0], indices=tf.constant([[0, 1], [2, 3], [0, 1]], tf.int64)))
case("ScatterNd", [normal(3, 2)], lambda xs: raw.ScatterNd(
    indices=tf.constant([[1], [3], [1]]), updates=xs[0], shape=[5, 2]))
case("ReverseSequence", [normal(3, 5, 2)], lambda xs: raw.ReverseSequence(
    input=xs[0], seq_lengths=tf.constant([2, 5, 1], tf.int64), seq_dim=1, batch_dim=0))
case("ReverseSequence_batch_dim_2", [normal(4, 2, 3)], lambda xs: raw.ReverseSequence(
    input=xs[0], seq_lengths=tf.constant([3, 0]), seq_dim=0, batch_dim=1))
case("GatherV2_batch_dims_1", [normal(2, 5, 3)], lambda xs: raw.GatherV2(
    params=xs[0], indices=tf.constant([[0, 4, 4], [1, 1, 2]]), axis=1, batch_dims=1))
case("GatherV2_batch_dims_1_axis_2", [normal(2, 3, 5)], lambda xs: raw.GatherV2(
    params=xs[0], indices=tf.constant([[4, 0], [2, 2]], tf.int64), axis=2, batch_dims=1))
case("GatherV2_batch_dims_2", [normal(2, 3, 4, 2)], lambda xs: raw.GatherV2(
    params=xs[0], indices=tf.constant([[[3, 0], [1, 1], [2, 0]], [[0, 0], [3, 2], [1, 3]]]),
    axis=2, batch_dims=2))
case("GatherV2_negative_axis_scalar_index", [normal(2, 5, 3)], lambda xs: raw.GatherV2(
    params=xs[0], indices=tf.constant(4), axis=-2))
case("Conv2DBackpropInput", [normal(3, 3, 2, 4), normal(2, 5, 5, 4)],
     lambda xs: raw.Conv2DBackpropInput(input_sizes=[2, 5, 5, 2], filter=xs[0],
                                        out_backprop=xs[1], strides=[1, 1, 1, 1], padding="SAME"))
case("Conv2DBackpropInput_strided", [normal(3, 3, 2, 3), normal(1, 3, 3, 3)],
     lambda xs: raw.Conv2DBackpropInput(input_sizes=[1, 7, 7, 2], filter=xs[0],
                                        out_backprop=xs[1], strides=[1, 2, 2, 1],
                                        padding="VALID"))
case("LeakyReluGrad", [normal(3, 4)], lambda xs: raw.LeakyReluGrad(
    gradients=xs[0], features=tf.constant(normal(3, 4)), alpha=0.3))
for name, eq, shapes in [
    ("matmul", "ij,jk->ik", [(3, 4), (4, 5)]),
    ("batch", "bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ellipsis_one_side", "...ij,jk->...ik", [(2, 3, 4), (4, 5)]),
    ("ellipsis_broadcast", "...ij,...jk->...ik", [(2, 1, 3, 4), (3, 4, 5)]),
    ("reduced_label", "abc,cd->ad", [(2, 3, 4), (4, 5)]),
    ("dot", "ij,ij->", [(3, 4), (3, 4)]),
    ("outer", "i,j->ij", [(3,), (4,)]),
    ("transpose", "ijk->kij", [(2, 3, 4)]),
    ("sum", "ijk->ik", [(2, 3, 4)]),
    ("sum_transposed", "ijk->ki", [(2, 3, 4)]),
    ("trace", "ii->", [(4, 4)]),
    ("diagonal", "ii->i", [(4, 4)]),
]:
  case(f"Einsum_{name}", [normal(*s) for s in shapes],
       lambda xs, eq=eq: raw.Einsum(inputs=xs, equation=eq))
case("DynamicStitch_overlapping", [normal(2, 3), normal(3, 3)], lambda xs: raw.DynamicStitch(
    indices=[tf.constant([0, 2]), tf.constant([1, 2, 3])], data=xs))
case("ParallelDynamicStitch", [normal(3), normal(2, 2)], lambda xs: raw.ParallelDynamicStitch(
    indices=[tf.constant([[0], [4], [2]]), tf.constant([[1, 3], [5, 6]])],
    data=[raw.Reshape(tensor=xs[0], shape=[3, 1]), xs[1]]))
# QuantizeAndDequantize: straight through (V2, V3), masked to [min, max] (V4).
case("QuantizeAndDequantizeV2", [normal(3, 4), np.float32(-1), np.float32(1)],
     lambda xs: raw.QuantizeAndDequantizeV2(input=xs[0], input_min=xs[1], input_max=xs[2],
                                           range_given=True), diff=[0])
case("QuantizeAndDequantizeV3", [normal(3, 4), np.float32(-1), np.float32(1), np.int32(4)],
     lambda xs: raw.QuantizeAndDequantizeV3(input=xs[0], input_min=xs[1], input_max=xs[2],
                                           num_bits=xs[3]), diff=[0])
case("QuantizeAndDequantizeV4", [normal(3, 4), np.float32(-0.5), np.float32(1)],
     lambda xs: raw.QuantizeAndDequantizeV4(input=xs[0], input_min=xs[1], input_max=xs[2],
                                           range_given=True))
case("QuantizeAndDequantizeV4_axis", [normal(3, 4), np.float32([-1, 0, -0.5, 0.2]),
                                      np.float32([1, 0.5, 2, 0.3])],
     lambda xs: raw.QuantizeAndDequantizeV4(input=xs[0], input_min=xs[1], input_max=xs[2],
                                           axis=1))
case("Roll", [normal(3, 4)], lambda xs: raw.Roll(input=xs[0], shift=[1, -2], axis=[0, 1]))
case("Roll_same_axis_twice", [normal(5)], lambda xs: raw.Roll(
    input=xs[0], shift=tf.constant([2, 4], tf.int64), axis=[0, 0]))
# Complex values: TensorFlow's gradients conjugate the derivatives.
cnormal = lambda *shape: normal(*shape, dtype=np.complex64)
for op in ["Square", "Exp", "Expm1", "Log", "Log1p", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh",
           "Atanh", "Sigmoid", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Reciprocal", "Sqrt",
           "Rsqrt", "Neg", "Conj"]:
  case(f"{op}_complex64", [cnormal(3, 4)], lambda xs, op=op: getattr(raw, op)(
      **{"input" if op == "Conj" else "x": xs[0]}))
# (Binary ops and matrix products of complex values follow in the kern2 block below, once
# Sluice's Sum, AddN, MatMul and BatchMatMulV2 had complex kernels.)
case("Einsum_complex64", [cnormal(3, 4), cnormal(4, 5)],
     lambda xs: raw.Einsum(inputs=xs, equation="ij,jk->ik"))
case("Real_of_complex_input", [cnormal(3, 4)], lambda xs: raw.Real(input=xs[0]))
case("Imag_of_complex128_input", [normal(3, 4, dtype=np.complex128)],
     lambda xs: raw.Imag(input=xs[0], Tout=tf.float64))
case("Angle_of_complex_input", [cnormal(3, 4)], lambda xs: raw.Angle(input=xs[0]))
rng = rng_before_block


# ---- The kernels the registry still lacked (kern2): MirrorPad and its fold, LRN, BatchMatMulV3,
# complex sums, products and matrix products, CropAndResize. Its own generator, as above. ----
rng_before_block, rng = rng, np.random.default_rng(20261209)
for mode in ("REFLECT", "SYMMETRIC"):
  case(f"MirrorPad_{mode}", [normal(3, 4)], lambda xs, mode=mode: raw.MirrorPad(
      input=xs[0], paddings=[[1, 2], [2, 0]], mode=mode))
  case(f"MirrorPadGrad_{mode}", [normal(6, 6)], lambda xs, mode=mode: raw.MirrorPadGrad(
      input=xs[0], paddings=tf.constant([[1, 2], [2, 0]], tf.int64), mode=mode))
case("MirrorPad_3d_int64_paddings", [normal(2, 3, 4)], lambda xs: raw.MirrorPad(
    input=xs[0], paddings=tf.constant([[0, 1], [2, 2], [1, 1]], tf.int64), mode="SYMMETRIC"))
case("LRN_defaults", [normal(2, 3, 3, 8)], lambda xs: raw.LRN(input=xs[0]))
case("LRN_attrs", [normal(2, 2, 3, 6)], lambda xs: raw.LRN(
    input=xs[0], depth_radius=2, bias=2.0, alpha=0.3, beta=0.75))
case("BatchMatMulV3_broadcast", [normal(2, 1, 3, 4), normal(3, 4, 5)],
     lambda xs: raw.BatchMatMulV3(x=xs[0], y=xs[1], Tout=tf.float32))
case("BatchMatMulV3_adj_double", [normal(2, 4, 3, dtype=np.float64),
                                  normal(2, 5, 4, dtype=np.float64)],
     lambda xs: raw.BatchMatMulV3(x=xs[0], y=xs[1], Tout=tf.float64, adj_x=True, adj_y=True))
# Complex values through the sums, products and matrix products their gradients need.
c64 = lambda *shape: normal(*shape, dtype=np.complex64)
for op, a, b in [("Mul", c64(3, 4), c64(4)), ("AddV2", c64(2, 3), c64(2, 1)),
                 ("Sub", c64(3, 1), c64(1, 4)), ("RealDiv", c64(3, 4), c64(3, 4))]:
  case(f"{op}_complex64_broadcast", [a, b], lambda xs, op=op: getattr(raw, op)(x=xs[0], y=xs[1]))
case("AddN_complex64", [c64(2, 3), c64(2, 3), c64(2, 3)], lambda xs: raw.AddN(inputs=xs))
case("Mul_complex64_shared_input", [c64(3)], lambda xs: raw.Mul(x=xs[0], y=raw.Exp(x=xs[0])))
# (Prod of complex values is left out: its gradient's Cumprod has no complex kernel in Sluice.)
for op in ("Sum", "Mean"):
  case(f"{op}_complex64", [c64(2, 3, 4)], lambda xs, op=op: getattr(raw, op)(
      input=xs[0], axis=tf.constant([0, 2]), keep_dims=False))
for ta, tb in [(False, False), (True, True)]:
  case(f"MatMul_complex64_{int(ta)}{int(tb)}",
       [c64(4, 3) if ta else c64(3, 4), c64(5, 4) if tb else c64(4, 5)],
       lambda xs, ta=ta, tb=tb: raw.MatMul(a=xs[0], b=xs[1], transpose_a=ta, transpose_b=tb))
case("BatchMatMulV2_complex128_adj_broadcast",
     [normal(2, 1, 4, 3, dtype=np.complex128), normal(3, 5, 4, dtype=np.complex128)],
     lambda xs: raw.BatchMatMulV2(x=xs[0], y=xs[1], adj_x=True, adj_y=True))
case("BatchMatMul_complex64_adj_x", [c64(2, 4, 3), c64(2, 4, 5)],
     lambda xs: raw.BatchMatMul(x=xs[0], y=xs[1], adj_x=True))
crop_boxes = np.array([[0.1, 0.2, 0.7, 0.9], [0.0, 0.0, 1.0, 1.0], [0.3, 0.1, 0.6, 0.8]],
                      np.float32)
for method in ("bilinear", "nearest"):
  case(f"CropAndResize_{method}", [normal(2, 6, 7, 2), crop_boxes],
       lambda xs, method=method: raw.CropAndResize(
           image=xs[0], boxes=xs[1], box_ind=tf.constant([0, 1, 1]), crop_size=[4, 3],
           method=method))
case("CropAndResize_one_pixel_double", [normal(1, 5, 5, 1, dtype=np.float64), crop_boxes[:1]],
     lambda xs: raw.CropAndResize(image=xs[0], boxes=xs[1], box_ind=tf.constant([0]),
                                  crop_size=[1, 1]))
# No gradient flows through the boxes' selection; the gathered scores carry it. The boxes are
# apart, so three are selected (a Reshape gives y a static shape).
nms_boxes = (np.arange(5, dtype=np.float32)[:, None] * 2 + np.array([0, 0, 1, 1], np.float32))
case("NonMaxSuppressionV3_no_gradient", [uniform(0.1, 0.9, 5), nms_boxes],
     lambda xs: raw.Reshape(tensor=raw.GatherV2(params=xs[0], indices=raw.NonMaxSuppressionV3(
         boxes=xs[1], scores=xs[0], max_output_size=3, iou_threshold=0.5,
         score_threshold=0.0), axis=0), shape=[3]))
rng = rng_before_block

# DynamicPartition: the gradients go back to the slices' positions (one partition empty).
case("DynamicPartition", [normal(5, 2)], lambda xs: raw.Reshape(tensor=raw.ConcatV2(
    values=raw.DynamicPartition(data=xs[0], partitions=tf.constant([2, 0, 2, 1, 0]),
                                num_partitions=4), axis=0), shape=[5, 2]))
case("DynamicPartition_2d_partitions", [normal(2, 3, 2)], lambda xs: raw.AddN(inputs=[
    raw.Sum(input=p, axis=[0]) for p in raw.DynamicPartition(
        data=xs[0], partitions=tf.constant([[0, 1, 1], [1, 0, 0]]), num_partitions=2)]))

# ---- Fractional pooling (fracpool): seeded, deterministic nodes, so that Sluice replays
# TensorFlow's windows. Its own generator, as above. ----
rng_before_block, rng = rng, np.random.default_rng(20261210)
for overlapping in (False, True):
  for pseudo_random in (False, True):
    suffix = f"{'ov' if overlapping else 'noov'}_{'pr' if pseudo_random else 'rand'}"
    for op in ("FractionalMaxPool", "FractionalAvgPool"):
      case(f"{op}_{suffix}", [normal(2, 7, 9, 3)],
           lambda xs, op=op, o=overlapping, p=pseudo_random: getattr(raw, op)(
               value=xs[0], pooling_ratio=[1.0, 1.44, 1.73, 1.0], pseudo_random=p,
               overlapping=o, deterministic=True, seed=5, seed2=9)[0])
case("FractionalAvgPool_double", [normal(1, 6, 5, 2, dtype=np.float64)],
     lambda xs: raw.FractionalAvgPool(value=xs[0], pooling_ratio=[1.0, 1.5, 1.2, 1.0],
                                      deterministic=True, seed=3, seed2=1)[0])
rng = rng_before_block


# ---- tf.math.special: the Bessel functions, Dawsn, Expint, the Fresnel integrals, Spence.
# Zeros where TensorFlow's gradient takes a value of its own (BesselI1, BesselI1e, BesselJ1),
# and Spence at 1. Its own generator, so that the cases before it keep their values. ----
rng_before_block, rng = rng, np.random.default_rng(20261209)
for op, lo, hi in [("BesselI0", -4, 4), ("BesselI0e", -4, 4), ("BesselI1", -4, 4),
                   ("BesselI1e", -4, 4), ("BesselJ0", -9, 9), ("BesselJ1", -9, 9),
                   ("BesselY0", 0.3, 9), ("BesselY1", 0.3, 9), ("BesselK0", 0.3, 9),
                   ("BesselK0e", 0.3, 9), ("BesselK1", 0.3, 9), ("BesselK1e", 0.3, 9),
                   ("Dawsn", -7, 7), ("Expint", 0.2, 6), ("FresnelCos", -3, 3),
                   ("FresnelSin", -3, 3), ("Spence", 0.1, 4)]:
  x = uniform(lo, hi, 3, 4)
  if op in ("BesselI1", "BesselI1e", "BesselJ1"):
    x[0, 0] = 0.0
  if op == "Spence":
    x[0, 0] = 1.0
  case(op, [x], lambda xs, op=op: getattr(raw, op)(x=xs[0]))
case("BesselJ1_double", [np.array([0.0, 0.5, -2.0, 7.25], np.float64)],
     lambda xs: raw.BesselJ1(x=xs[0]))
case("Spence_double", [np.array([1.0, 0.25, 2.5, 9.0], np.float64)],
     lambda xs: raw.Spence(x=xs[0]))
rng = rng_before_block

def write():
  graph = tf.Graph()
  names = []
  gradient_ops = set()
  with graph.as_default():
    for name, inputs, fn, diff in CASES:
      with tf.name_scope(name + "/"):
        xs = [tf.constant(v, name=f"x{i}") for i, v in enumerate(inputs)]
        y = tf.identity(fn(xs), name="y")
        dy = tf.constant(normal(*y.shape.as_list(), dtype=y.dtype.as_numpy_dtype), name="dy")
        wanted = [i for i in (diff if diff is not None else range(len(xs)))
                  if xs[i].dtype.is_floating or xs[i].dtype.is_complex]
        before = {op.name for op in graph.get_operations()}
        # IndexedSlices (GatherV2's gradient) become dense here, so that their conversion's
        # ops count as gradient ops too.
        grads = [None if g is None else tf.convert_to_tensor(g)
                 for g in tf.gradients(y, [xs[i] for i in wanted], grad_ys=dy)]
        gradient_ops.update(op.name for op in graph.get_operations() if op.name not in before)
        names.append((name, wanted, grads))
  with v1.Session(graph=graph) as sess:
    values = sess.run([[g for g in grads if g is not None] for _, _, grads in names])
  # The file holds only the forward graphs, the seeds and the expected values: TensorFlow's
  # own gradient nodes are left out, so that Sluice must build its own.
  gd = graph.as_graph_def()
  kept = [n for n in gd.node if n.name not in gradient_ops]
  del gd.node[:]
  gd.node.extend(kept)
  for (name, wanted, grads), computed in zip(names, values):
    for i, v in zip([i for i, g in zip(wanted, grads) if g is not None], computed):
      node = gd.node.add(name=f"{name}/expected{i}", op="Const")
      node.attr["dtype"].type = tf.as_dtype(v.dtype).as_datatype_enum
      node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(v))
  with open(os.path.join(HERE, "gradient_cases.pb"), "wb") as f:
    f.write(gd.SerializeToString())
  with open(os.path.join(HERE, "gradient_cases.txt"), "w") as f:
    f.write(f"# TensorFlow {tf.__version__}: case, then the inputs differentiated "
            "(\"i-\": TensorFlow gives x<i> no gradient)\n")
    for name, wanted, grads in names:
      f.write(" ".join([name] + [str(i) + ("-" if g is None else "")
                                 for i, g in zip(wanted, grads)]) + "\n")
  print(f"{len(names)} cases, {len(gd.node)} nodes")


if __name__ == "__main__":
  v1.disable_eager_execution()
  write()
