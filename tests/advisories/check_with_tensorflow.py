"""Runs each advisory graph of tests/advisories/ in real TensorFlow and prints what it did.

Usage (from the repository root, with TensorFlow 2.21 installed, e.g. /tmp/tfvenv):
    python3 tests/advisories/check_with_tensorflow.py [case-name-substring]

Each case builds one op in a tf.compat.v1 graph twice: with Const inputs (so TensorFlow's
shape function sees the values, and Grappler may fold them) and with Placeholders of unknown
shape fed at run time (so only the kernel sees the values). For each it prints one line:
    <case> <const|fed> <ERROR_CODE or OK> <first line of the message, or the output's shape>
An error raised while the graph is built (the shape function) prints as INVALID_ARGUMENT
with a "(graph)" mark, as TensorFlow raises it as ValueError there. The C++ tests in this
folder expect these codes.

Every case runs twice more, in TensorFlow's two CPU configurations: "onednn" (the default
of the x86 wheels: oneDNN rewrites Conv2D, DepthwiseConv2dNative, Conv3DBackpropInputV2 and
others into its own kernels) and "reference" (TF_ENABLE_ONEDNN_OPTS=0, TensorFlow's own
kernels, which the fixtures of tests/fixtures use). The two disagree on some empty inputs;
README.md says which one Sluice follows there.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import subprocess
import sys

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
raw = tf.raw_ops

F32, I32, I64 = np.float32, np.int32, np.int64


def z(shape, dtype=F32):
    return np.zeros(shape, dtype)


def arr(values, dtype):
    return np.array(values, dtype)


CODES = {
    tf.errors.INVALID_ARGUMENT: "INVALID_ARGUMENT",
    tf.errors.OUT_OF_RANGE: "OUT_OF_RANGE",
    tf.errors.UNIMPLEMENTED: "UNIMPLEMENTED",
    tf.errors.RESOURCE_EXHAUSTED: "RESOURCE_EXHAUSTED",
    tf.errors.INTERNAL: "INTERNAL",
    tf.errors.FAILED_PRECONDITION: "FAILED_PRECONDITION",
    tf.errors.NOT_FOUND: "NOT_FOUND",
    tf.errors.ABORTED: "ABORTED",
    tf.errors.UNKNOWN: "UNKNOWN",
}


def first_line(text):
    """The line that says what was wrong: the one before TensorFlow's "[[{{node" line, or
    the first line when there is none."""
    lines = [l.strip() for l in str(text).splitlines() if l.strip()]
    pick = lines[0] if lines else ""
    for i, line in enumerate(lines):
        if line.startswith("[[") and i > 0:
            pick = lines[i - 1]
            break
    return pick[:200]


def run_case(name, op, inputs, attrs, fed, fetch=0):
    """inputs: list of (arg name, numpy value or list of numpy values)."""
    graph = tf1.Graph()
    feed = {}
    try:
        with graph.as_default():
            kwargs = {}
            for arg, value in inputs:
                def make(v, idx=""):
                    v = np.asarray(v)
                    if fed:
                        p = tf1.placeholder(tf.as_dtype(v.dtype), shape=None)
                        feed[p] = v
                        return p
                    return tf.constant(v)
                if isinstance(value, list):
                    kwargs[arg] = [make(v) for v in value]
                else:
                    kwargs[arg] = make(value)
            kwargs.update(attrs)
            out = getattr(raw, op)(**kwargs)
            if isinstance(out, (list, tuple)):
                out = out[fetch]
    except ValueError as e:
        return "INVALID_ARGUMENT", "(graph) " + first_line(e)
    except tf.errors.OpError as e:
        return CODES.get(e.error_code, str(e.error_code)), "(graph) " + first_line(e.message)
    try:
        with tf1.Session(graph=graph) as sess:
            value = sess.run(out, feed_dict=feed)
    except tf.errors.OpError as e:
        return CODES.get(e.error_code, str(e.error_code)), first_line(e.message)
    value = np.asarray(value)
    flat = value.reshape(-1)[:8].tolist()
    return "OK", "shape=%s values=%s" % (list(value.shape), flat)


CONV2D = dict(strides=[1, 1, 1, 1], padding="SAME")
CONV3D = dict(strides=[1, 1, 1, 1, 1], padding="SAME")
FBN = dict(epsilon=0.0, data_format="NHWC", is_training=False)

# name -> (op, inputs, attrs[, fetch index])
CASES = [
    # ---- convolutions ----
    ("Tfsa2021_006_Conv3DZeroFilterInDepth", "Conv3D",
     [("input", z([1, 2, 2, 2, 3])), ("filter", z([1, 1, 1, 0, 2]))], CONV3D),
    ("Tfsa2021_006_Conv3DAllEmpty", "Conv3D",
     [("input", z([0, 0, 0, 0, 0])), ("filter", z([0, 0, 0, 0, 0]))],
     dict(strides=[1, 56, 56, 56, 1], padding="VALID")),
    ("Tfsa2021_006_Conv3DDepthMismatch", "Conv3D",
     [("input", z([2, 2, 2, 2, 0])), ("filter", z([0, 0, 2, 6, 2]))],
     dict(strides=[1, 56, 39, 34, 1], padding="VALID")),
    ("Tfsa2021_010_Conv3DBackpropInputFilterDepthMismatch", "Conv3DBackpropInputV2",
     [("input_sizes", arr([1, 1, 1, 1, 2], I32)), ("filter", z([4, 1, 6, 1, 1])),
      ("out_backprop", z([1, 1, 1, 1, 1]))],
     dict(strides=[1, 89, 29, 89, 1], padding="SAME")),
    ("Tfsa2021_011_Conv3DBackpropInputEmpty", "Conv3DBackpropInputV2",
     [("input_sizes", arr([0, 0, 0, 0, 0], I32)), ("filter", z([0, 0, 0, 1, 0])),
      ("out_backprop", z([0, 0, 0, 0, 0]))], CONV3D),
    ("Tfsa2021_014_Conv2DBackpropInputEmptyFilter", "Conv2DBackpropInput",
     [("input_sizes", arr([52, 1, 1, 5], I32)), ("filter", z([0, 1, 5, 0])),
      ("out_backprop", z([52, 1, 1, 0]))], CONV2D),
    ("Tfsa2021_015_Conv2DAllEmpty", "Conv2D",
     [("input", z([0, 0, 0, 0])), ("filter", z([0, 0, 0, 0]))], CONV2D),
    ("Tfsa2021_187_Conv2DZeroOutChannels", "Conv2D",
     [("input", z([1, 3, 3, 2])), ("filter", z([1, 1, 2, 0]))], CONV2D),
    ("Tfsa2021_187_Conv2DZeroFilterHeight", "Conv2D",
     [("input", z([1, 3, 3, 2])), ("filter", z([0, 1, 2, 2]))], CONV2D),
    ("Tfsa2021_187_DepthwiseZeroMultiplier", "DepthwiseConv2dNative",
     [("input", z([1, 3, 3, 2])), ("filter", z([1, 1, 2, 0]))], CONV2D),
    ("Tfsa2021_187_DepthwiseZeroFilterHeight", "DepthwiseConv2dNative",
     [("input", z([1, 3, 3, 2])), ("filter", z([0, 1, 2, 1]))], CONV2D),
    # ---- batch norm ----
    ("Tfsa2021_043_FusedBatchNormZeroChannels", "FusedBatchNorm",
     [("x", z([1, 1, 1, 0])), ("scale", z([0])), ("offset", z([0])), ("mean", z([0])),
      ("variance", z([0]))], FBN),
    ("Tfsa2021_072_FusedBatchNormShortScale", "FusedBatchNorm",
     [("x", z([10, 10, 10, 6])), ("scale", z([1])), ("offset", z([1])), ("mean", z([1])),
      ("variance", z([1]))], FBN),
    ("Tfsa2021_072_FusedBatchNormEmptyVectors", "FusedBatchNorm",
     [("x", z([10, 10, 10, 1])), ("scale", z([0])), ("offset", z([0])), ("mean", z([0])),
      ("variance", z([0]))], FBN),
    ("Tfsa2021_072_FusedBatchNormV3ShortMean", "FusedBatchNormV3",
     [("x", z([3, 2, 4, 2])), ("scale", z([2])), ("offset", z([2])), ("mean", z([0])),
      ("variance", z([2]))], FBN),
    # ---- FFT ----
    ("Tfsa2021_050_IrfftZeroLength", "IRFFT",
     [("input", z([10, 13], np.complex64)), ("fft_length", arr([0], I32))], {}),
    ("Tfsa2021_051_RfftZeroLength", "RFFT",
     [("input", arr([1], F32)), ("fft_length", arr([0], I32))], {}),
    # ---- array ops ----
    ("Tfsa2021_061_ReverseSequenceNegativeSeqDim", "ReverseSequence",
     [("input", z([1, 1, 1], I32)), ("seq_lengths", arr([0], I32))],
     dict(seq_dim=-2, batch_dim=0)),
    ("Tfsa2021_061_ReverseSequenceBatchDimOutOfRange", "ReverseSequence",
     [("input", z([1, 1, 1], I32)), ("seq_lengths", arr([0], I32))],
     dict(seq_dim=1, batch_dim=5)),
    ("Tfsa2021_061_ReverseSequenceNegativeBatchDim", "ReverseSequence",
     [("input", z([1, 1, 1], I32)), ("seq_lengths", arr([0], I32))],
     dict(seq_dim=1, batch_dim=-1)),
    ("Tfsa2021_173_SplitVNegativeSizes", "SplitV",
     [("value", z([0])), ("size_splits", arr([-1, -2], I32)), ("axis", arr(0, I32))],
     dict(num_split=2)),
    ("Tfsa2021_179_TransposeNegativePerm", "Transpose",
     [("x", arr([1, 2, 3, 4], I32)), ("perm", arr([-10], I32))], {}),
    ("Tfsa2021_196_TileOverflow", "Tile",
     [("input", np.ones([1, 1, 1], F32)), ("multiples", arr([10**8] * 3, I32))], {}),
    ("Tfsa2021_198_FillOverflow", "Fill",
     [("dims", arr([2**40, 2**40], I64)), ("value", arr(1.0, F32))], {}),
    ("Tfsa2021_198_ReshapeRank255", "Reshape",
     [("tensor", arr([[1]], I32)), ("shape", arr([0] * 255, I64))], {}),
    ("Tfsa2021_194_RangeHugeFloat", "Range",
     [("start", arr(-1e38, F32)), ("limit", arr(1, F32)), ("delta", arr(1, F32))], {}),
    # ---- image ----
    ("Tfsa2021_195_ResizeNearestOverflow", "ResizeNearestNeighbor",
     [("images", np.ones([5, 1, 1, 1], F32)), ("size", arr([1610637938, 1610637938], I32))], {}),
    ("Tfsa2021_195_ResizeBilinearOverflow", "ResizeBilinear",
     [("images", np.ones([5, 1, 1, 1], F32)), ("size", arr([1610637938, 1610637938], I32))], {}),
    ("Tfsa2021_143_NmsV5NegativeMaxOutput", "NonMaxSuppressionV5",
     [("boxes", arr([[0.1] * 4, [0.2] * 4, [0.3] * 4], F32)), ("scores", arr([1, 2, 3], F32)),
      ("max_output_size", arr(-1, I32)), ("iou_threshold", arr(0.5, F32)),
      ("score_threshold", arr(0.5, F32)), ("soft_nms_sigma", arr(1.0, F32))],
     dict(pad_to_max_output_size=True)),
    ("Tfsa2021_143_NmsV4NegativeMaxOutput", "NonMaxSuppressionV4",
     [("boxes", arr([[0.1] * 4, [0.2] * 4, [0.3] * 4], F32)), ("scores", arr([1, 2, 3], F32)),
      ("max_output_size", arr(-1, I32)), ("iou_threshold", arr(0.5, F32)),
      ("score_threshold", arr(0.5, F32))],
     dict(pad_to_max_output_size=True)),
    # ---- einsum ----
    ("Tfsa2021_192_EinsumWithoutEllipsis", "Einsum",
     [("inputs", [arr([[1, 2], [3, 4]], F32), arr([[1, 0], [0, 1]], F32)])],
     dict(equation="ij,jk->ik")),
    # ---- sparse cross ----
    ("Tfsa2021_008_SparseCrossStringOutFromInts", "SparseCross",
     [("indices", [arr([[0, 6]], I64), arr([[0, 0]], I64)]),
      ("values", [arr([0], I64), arr([72], I64)]),
      ("shapes", [arr([4, 122], I64), arr([4, 188], I64)]),
      ("dense_inputs", [arr([[188], [127], [336], [0]], I64)])],
     dict(hashed_output=False, num_buckets=0, hash_key=0, out_type=tf.string,
          internal_type=tf.string), 1),
]


# ---- 2022 ----
CASES += [
    ("Tfsa2022_120_MaxPoolWindowLargerThanInput", "MaxPool",
     [("input", np.ones([1, 1, 1, 1], F32))],
     dict(ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="VALID")),
    ("Tfsa2022_121_Conv2DBackpropInputEmptyOutBackprop", "Conv2DBackpropInput",
     [("input_sizes", arr([3, 1, 1, 2], I32)), ("filter", np.ones([1, 3, 2, 3], F32)),
      ("out_backprop", np.ones([3, 1, 0, 3], F32))],
     dict(strides=[1, 1, 2, 1], padding="VALID")),
    ("Tfsa2022_124_Conv2DEmptyInputExplicitPadding", "Conv2D",
     [("input", np.ones([1, 0, 2, 1], F32)), ("filter", np.ones([1, 1, 1, 1], F32))],
     dict(strides=[1, 1, 1, 1], padding="EXPLICIT", explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0])),
    ("Tfsa2022_153_BroadcastArgsBeyondInt32", "BroadcastArgs",
     [("s0", arr([2, 1024, 1024, 1024], I64)), ("s1", arr([1], I64))], {}),
    ("Tfsa2022_153_BroadcastArgsHugeDim", "BroadcastArgs",
     [("s0", arr([2**40], I64)), ("s1", arr([1, 1], I64))], {}),
]

# ---- 2022 and 2023, second pass ----
CASES += [
    ("Tfsa2022_002_ReverseSequenceFarNegativeDims", "ReverseSequence",
     [("input", arr([1, 2], I32)), ("seq_lengths", arr([1, 1, 1], I32))],
     dict(seq_dim=-10, batch_dim=-10)),
    ("Tfsa2022_007_ConcatV2HugeNegativeAxis", "ConcatV2",
     [("values", [arr([1, 2, 3], I32), arr([4, 5, 6], I32)]),
      ("axis", arr(0xb500005b - 2**32, I32))], {}),
    ("Tfsa2022_007_ConcatV2HugeInt64Axis", "ConcatV2",
     [("values", [arr([1, 2, 3], I32), arr([4, 5, 6], I32)]),
      ("axis", arr(0xb500005b, I64))], {}),
    ("Tfsa2022_017_DenseBincountVectorSize", "DenseBincount",
     [("input", arr([[0], [1], [2]], I32)), ("size", arr([1], I32)),
      ("weights", arr([3, 2, 1], F32))], dict(binary_output=False)),
    ("Tfsa2022_017_DenseBincountWeightsMismatch", "DenseBincount",
     [("input", arr([[0], [1], [2]], I32)), ("size", arr(3, I32)),
      ("weights", arr([3, 2, 1], F32))], dict(binary_output=False)),
    ("Tfsa2022_017_DenseBincountRank3Input", "DenseBincount",
     [("input", z([1, 1, 1], I32)), ("size", arr(3, I32)), ("weights", arr([], F32))],
     dict(binary_output=False)),
    ("Tfsa2022_017_DenseBincountNegativeSize", "DenseBincount",
     [("input", arr([0, 1], I32)), ("size", arr(-1, I32)), ("weights", arr([], F32))],
     dict(binary_output=False)),
    ("Tfsa2022_017_BincountNegativeSize", "Bincount",
     [("arr", arr([0, 1], I32)), ("size", arr(-1, I32)), ("weights", arr([], F32))], {}),
    ("Tfsa2022_017_BincountVectorSize", "Bincount",
     [("arr", arr([0, 1], I32)), ("size", arr([3], I32)), ("weights", arr([], F32))], {}),
    ("Tfsa2023_177_BincountWeightsMismatch", "Bincount",
     [("arr", arr(6, I32)), ("size", arr(804, I32)), ("weights", arr([52, 351], I32))], {}),
    ("Tfsa2022_076_SpaceToBatchNDOverflow", "SpaceToBatchND",
     [("input", z([10, 19, 22])), ("block_shape", arr([-1879048192] * 2, I64)),
      ("paddings", z([2, 2], I32))], {}),
    ("Tfsa2022_076_SpaceToBatchNDHugeBlocks", "SpaceToBatchND",
     [("input", z([1, 2, 2, 1])), ("block_shape", arr([2**62, 2**62], I64)),
      ("paddings", arr([[0, 2**62 - 2], [0, 2**62 - 2]], I64))], {}),
    ("Tfsa2022_082_Rfft2dEmptyInputNegativeLength", "RFFT2D",
     [("input", z([6, 0])), ("fft_length", arr([1, -1], I32))], {}),
    ("Tfsa2022_082_Rfft2dNegativeFftLength", "RFFT2D",
     [("input", z([2, 3])), ("fft_length", arr([-2, -3], I32))], {}),
    ("Tfsa2022_091_AvgPoolZeroKsize", "AvgPool",
     [("value", np.ones([1, 1, 1, 1], F32))],
     dict(ksize=[1, 0, 1, 1], strides=[1, 1, 1, 1], padding="SAME")),
    ("Tfsa2022_091_AvgPoolNegativeKsize", "AvgPool",
     [("value", np.ones([1, 1, 1, 1], F32))],
     dict(ksize=[1, -5, 1, 1], strides=[1, 1, 1, 1], padding="SAME")),
    ("Tfsa2022_091_AvgPoolHugeKsize", "AvgPool",
     [("value", np.ones([1, 1, 1, 1], F32))],
     dict(ksize=[1, 2**40, 1, 1], strides=[1, 1, 1, 1], padding="SAME")),
    ("Tfsa2023_186_PrintSummarizeZeroBools", "Print",
     [("input", arr([1, 1, 1, 1], I32)),
      ("data", [arr([False] * 4, np.bool_), arr([False], np.bool_), arr([False] * 3, np.bool_)])],
     dict(message="tmp/I", first_n=100, summarize=0)),
]

# ---- 2022 and 2023, third pass ----
CASES += [
    ("Tfsa2022_028_RangeInt64SpanOverflow", "Range",
     [("start", arr(-2**63, I64)), ("limit", arr(2**63 - 1, I64)), ("delta", arr(1, I64))], {}),
    ("Tfsa2022_028_RangeInt64MinDelta", "Range",
     [("start", arr(0, I64)), ("limit", arr(-1, I64)), ("delta", arr(-2**63, I64))], {}),
    ("Tfsa2022_141_RangeFloatSizeAtInt64Limit", "Range",
     [("start", arr(0, F32)), ("limit", arr(2.0**63, F32)), ("delta", arr(1, F32))], {}),
    ("Tfsa2022_141_RangeDoubleSizeAtInt64Limit", "Range",
     [("start", arr(0, np.float64)), ("limit", arr(2.0**63, np.float64)),
      ("delta", arr(1, np.float64))], {}),
    ("Tfsa2022_085_ReshapeRank255Int64Zeros", "Reshape",
     [("tensor", arr([[1]], I32)), ("shape", arr([0] * 255, I64))], {}),
    ("Tfsa2022_085_ReshapeElementCountOverflow", "Reshape",
     [("tensor", arr([[1]], I32)), ("shape", arr([2**32, 2**32], I64))], {}),
    ("Tfsa2022_085_ReshapeUnknownDimKnownOverflow", "Reshape",
     [("tensor", arr([[1]], I32)), ("shape", arr([-1, 2**62, 4], I64))], {}),
    ("Tfsa2022_101_Conv2DBackpropInputRank1InputSizes", "Conv2DBackpropInput",
     [("input_sizes", arr([65534, 65534], I32)), ("filter", np.full([3, 3, 2, 2], 0.16, F32)),
      ("out_backprop", arr(0, F32))],
     dict(strides=[1, 1, 1, 1], padding="SAME")),
    ("Tfsa2022_118_DenseBincountScalarWeightsEmptyInput", "DenseBincount",
     [("input", z([0, 0], I32)), ("size", arr(3, I32)), ("weights", arr(1.5, F32))],
     dict(binary_output=True)),
    ("Tfsa2022_123_SparseCrossV2VectorSeparator", "SparseCrossV2",
     [("indices", []), ("values", []), ("shapes", []), ("dense_inputs", []),
      ("sep", arr([b"a", b"b"], object))], {}),
]

# ---- 2021, the complete pass ----
CASES += [
    ("Tfsa2021_199_MaxPool3DZeroWindowDim", "MaxPool3D",
     [("input", z([3, 4, 10, 11, 12]))],
     dict(ksize=[1, 2, 2, 0, 1], strides=[1, 1, 1, 1, 1], padding="VALID")),
    ("Tfsa2021_199_MaxPool3DNegativeWindowDim", "MaxPool3D",
     [("input", z([3, 4, 10, 11, 12]))],
     dict(ksize=[1, 2, -2, 2, 1], strides=[1, 1, 1, 1, 1], padding="VALID")),
    # TFSA-2021-045 is Reverse (no Sluice kernel); the same empty first dimension for ReverseV2.
    ("Tfsa2021_045_ReverseV2EmptyFirstDim", "ReverseV2",
     [("tensor", z([0, 1, 1], I32)), ("axis", arr([1], I32))], {}),
]


# ---- 2018-2020, the complete pass ----
CASES += [
    # fill went into a printf format unchecked: "n" and "s" crashed, "h" changed the output.
    ("Tfsa2020_013_AsStringFillN", "AsString",
     [("input", arr([1234], I32))], dict(width=6, fill="n")),
    ("Tfsa2020_013_AsStringFillS", "AsString",
     [("input", arr([1234], I32))], dict(width=6, fill="s")),
    ("Tfsa2020_013_AsStringFillH", "AsString",
     [("input", arr([1234], I32))], dict(width=6, fill="h")),
    # Eager mode read the Switch output that was not produced; in a graph, fetch each side.
    ("Tfsa2020_026_SwitchFetchTakenSide", "Switch",
     [("data", arr([1.5], F32)), ("pred", arr(False, np.bool_))], {}, 0),
    ("Tfsa2020_026_SwitchFetchUntakenSide", "Switch",
     [("data", arr([1.5], F32)), ("pred", arr(False, np.bool_))], {}, 1),
]


# ---- the backprop, training and sparse kernels (ops once in the "no kernel" lists) ----
F16, F64 = np.float16, np.float64
CASES += [
    ("Tfsa2021_013_Conv2DBackpropFilterEmptyInputDepth", "Conv2DBackpropFilter",
     [("input", z([0, 0, 1, 0])), ("filter_sizes", arr([1, 1, 1, 1], I32)),
      ("out_backprop", z([0, 0, 1, 1]))], dict(strides=[1, 66, 18, 1], padding="SAME")),
    ("Tfsa2021_027_Conv2DBackpropFilterAllEmpty", "Conv2DBackpropFilter",
     [("input", z([0, 0, 0, 0])), ("filter_sizes", arr([0, 0, 0, 0], I32)),
      ("out_backprop", z([0, 0, 0, 0]))], CONV2D),
    ("Tfsa2021_028_Conv2DBackpropFilterDepthMismatch", "Conv2DBackpropFilter",
     [("input", arr([[[[386.078431372549, 386.07843139643234]]]], F32)),
      ("filter_sizes", arr([1, 1, 1, 1], I32)), ("out_backprop", arr([[[[386.078431372549]]]], F32))],
     dict(strides=[1, 66, 49, 1], padding="VALID")),
    ("Tfsa2021_028_Conv2DBackpropFilterEmptyBatch", "Conv2DBackpropFilter",
     [("input", z([0, 1, 1, 5])), ("filter_sizes", arr([3, 8, 1, 1], I32)),
      ("out_backprop", z([0, 1, 1, 1]))], dict(strides=[1, 66, 49, 1], padding="VALID")),
    ("Tfsa2022_070_Conv3DBackpropFilterScalarSizes", "Conv3DBackpropFilterV2",
     [("input", np.full([2, 2, 2, 2, 1], .5053710941, F16)), ("filter_sizes", arr(0, I32)),
      ("out_backprop", np.full([2, 2, 2, 2, 1], .5053710941, F16))],
     dict(strides=[1, 1, 1, 1, 1], padding="VALID")),
    ("Tfsa2022_071_DepthwiseBackpropFilterSizesOverflow", "DepthwiseConv2dNativeBackpropFilter",
     [("input", np.ones([1, 4, 4, 3], F32)), ("filter_sizes", np.full([13], 1879048192, I32)),
      ("out_backprop", np.ones([1, 4, 4, 3], F32))], CONV2D),
    ("Tfsa2021_068_MaxPoolGradEmptyGrad", "MaxPoolGrad",
     [("orig_input", z([1, 1, 1, 1])), ("orig_output", z([1, 1, 1, 1])), ("grad", z([0, 0, 0, 0]))],
     dict(ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding="SAME")),
    ("Tfsa2021_148_MaxPoolGradExplicitPaddingEmpty", "MaxPoolGrad",
     [("orig_input", z([3, 0, 0, 2])), ("orig_output", z([3, 0, 0, 2])), ("grad", z([3, 0, 0, 2]))],
     dict(ksize=[1, 16, 16, 1], strides=[1, 16, 18, 1], padding="EXPLICIT",
          explicit_paddings=[0, 0, 14, 3, 15, 5, 0, 0])),
    ("Tfsa2021_065_AvgPool3DGradShapeMismatch", "AvgPool3DGrad",
     [("orig_input_shape", arr([10, 6, 3, 7, 7], I32)),
      ("grad", arr([0.01, 0, 0], F32).reshape([3, 1, 1, 1, 1]))],
     dict(ksize=[1, 1, 1, 1, 1], strides=[1, 1, 1, 1, 1], padding="SAME")),
    ("Tfsa2022_100_AvgPoolGradNegativeShape", "AvgPoolGrad",
     [("orig_input_shape", np.full([4], -536870912, I32)),
      ("grad", np.full([1, 5, 7, 1], .0890338004362538, F64))],
     dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")),
    # TFSA-2022-094's title names AvgPool3DGrad, its graph is -100's; both ops here.
    ("Tfsa2022_094_AvgPool3DGradNegativeShape", "AvgPool3DGrad",
     [("orig_input_shape", np.full([5], -536870912, I32)),
      ("grad", np.full([1, 5, 7, 3, 1], .0890338004362538, F32))],
     dict(ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding="VALID")),
    ("Tfsa2023_010_AvgPoolGradGradTooLarge", "AvgPoolGrad",
     [("orig_input_shape", arr([11, 9, 78, 9], I32)),
      ("grad", (np.arange(16 ** 4) % 257 - 128).astype(F32).reshape([16, 16, 16, 16]))],
     dict(ksize=[1, 40, 128, 1], strides=[1, 128, 128, 30], padding="SAME")),
    ("Tfsa2023_010_AvgPoolGradGradTooLargeUnitDepthStride", "AvgPoolGrad",
     [("orig_input_shape", arr([11, 9, 78, 9], I32)),
      ("grad", (np.arange(16 ** 4) % 257 - 128).astype(F32).reshape([16, 16, 16, 16]))],
     dict(ksize=[1, 40, 128, 1], strides=[1, 128, 128, 1], padding="SAME")),
    # The advisory's depth stride of 30: TensorFlow's AvgPoolGrad ignores it.
    ("Tfsa2023_010_AvgPoolGradDepthStrideIgnored", "AvgPoolGrad",
     [("orig_input_shape", arr([1, 4, 4, 2], I32)), ("grad", np.ones([1, 2, 2, 2], F32))],
     dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 30], padding="SAME")),
    ("Tfsa2023_019_AvgPoolGradZeroWindowNchw", "AvgPoolGrad",
     [("orig_input_shape", arr([1, 0, 0, 0], I32)), ("grad", arr([[[[0.39117979]]]], F32))],
     dict(ksize=[1, 0, 0, 0], strides=[1, 0, 0, 0], padding="SAME", data_format="NCHW")),
    ("Tfsa2023_019_AvgPoolGradZeroWindowNhwc", "AvgPoolGrad",
     [("orig_input_shape", arr([1, 0, 0, 0], I32)), ("grad", arr([[[[0.39117979]]]], F32))],
     dict(ksize=[1, 0, 0, 0], strides=[1, 0, 0, 0], padding="SAME")),
    ("Tfsa2021_169_FusedBatchNormGradShortReserveSpace", "FusedBatchNormGrad",
     [("y_backprop", np.arange(9, dtype=F32).reshape([1, 1, 3, 3])),
      ("x", np.arange(2, dtype=F32).reshape([1, 1, 1, 2])), ("scale", arr([1, 1], F32)),
      ("reserve_space_1", arr([1, 1], F32)), ("reserve_space_2", arr([1, 1, 1], F32))],
     dict(epsilon=1.0, data_format="NCHW", is_training=True)),
    ("Tfsa2021_169_FusedBatchNormGradV3ShortReserveSpace", "FusedBatchNormGradV3",
     [("y_backprop", np.arange(9, dtype=F32).reshape([1, 1, 3, 3])),
      ("x", np.arange(2, dtype=F32).reshape([1, 1, 1, 2])), ("scale", arr([1, 1], F32)),
      ("reserve_space_1", arr([1, 1], F32)), ("reserve_space_2", arr([1, 1, 1], F32)),
      ("reserve_space_3", arr([0], F32))],
     dict(epsilon=1.0, data_format="NCHW", is_training=True)),
    ("Tfsa2021_133_SqrtGradEmptyDy", "SqrtGrad", [("y", arr([4, 16], F32)), ("dy", arr([], F32))], {}),
    ("Tfsa2021_133_RsqrtGradShortDy", "RsqrtGrad",
     [("y", arr([4, 16], F32)), ("dy", arr([1], F32))], {}),
    ("Tfsa2021_133_TanhGradEmptyDy", "TanhGrad", [("y", arr([4, 16], F32)), ("dy", arr([], F32))], {}),
    ("Tfsa2021_133_SigmoidGradEmptyDy", "SigmoidGrad",
     [("y", arr([4, 16], F32)), ("dy", arr([], F32))], {}),
    ("Tfsa2021_133_ReciprocalGradEmptyDy", "ReciprocalGrad",
     [("y", arr([4, 16], F32)), ("dy", arr([], F32))], {}),
    ("Tfsa2021_133_ReluGradEmptyGradients", "ReluGrad",
     [("gradients", arr([], F32)), ("features", arr([4, 16], F32))], {}),
    ("Tfsa2022_149_ResizeNearestNeighborGradHugeSize", "ResizeNearestNeighborGrad",
     [("grads", np.ones([1, 8, 16, 3], F16)), ("size", arr([1879048192, 1879048192], I32))],
     dict(align_corners=True, half_pixel_centers=False)),
    ("Tfsa2022_145_DynamicStitchMoreDataThanIndices", "DynamicStitch",
     [("indices", [arr([[0, 1]], I32)]), ("data", [arr([[5, 6]], I32), arr([[7, 8]], I32)])], {}),
    ("Tfsa2023_018_DynamicStitchNegativeIndex", "DynamicStitch",
     [("indices", [arr([0xdeadbeef - 2**32], I32), arr([405], I32), arr([519], I32),
                   arr([758], I32), arr([1015], I32)]),
      ("data", [arr([110.27793884277344], F32), arr([120.29475402832031], F32),
                arr([157.2418212890625], F32), arr([157.2626953125], F32),
                arr([188.45382690429688], F32)])], {}),
    ("Tfsa2023_018_ParallelDynamicStitchNegativeIndex", "ParallelDynamicStitch",
     [("indices", [arr([0xdeadbeef - 2**32], I32), arr([405], I32)]),
      ("data", [arr([110.27793884277344], F32), arr([120.29475402832031], F32)])], {}),
    ("Tfsa2023_018_DynamicStitchDataShapeMismatch", "DynamicStitch",
     [("indices", [arr([0, 1], I32)]), ("data", [arr([5.0], F32)])], {}),
    # ---- sparse ----
    ("Tfsa2021_024_SparseConcatShapeOverflow", "SparseConcat",
     [("indices", [arr([[514, 514], [514, 514]], I64), arr([[514, 530], [599, 877]], I64)]),
      ("values", [z([0], I64), z([0], I64)]),
      ("shapes", [arr([442, 514, 514, 515, 606, 347, 943, 61, 2], I64), z([9], I64)])],
     dict(concat_dim=2)),
    ("Tfsa2021_046_SparseSplitIndexOutOfShape", "SparseSplit",
     [("split_dim", arr(0, I64)), ("indices", np.ones([1, 1], I64)), ("values", np.ones([1], I64)),
      ("shape", np.ones([1], I64))], dict(num_split=1)),
    ("Tfsa2021_071_SparseSplitShapeOverflow", "SparseSplit",
     [("split_dim", arr(1, I64)),
      ("indices", arr([[0, 0], [0, 1], [0, 2], [4, 3], [5, 0], [5, 1]], I64)),
      ("values", np.ones([6], F32)), ("shape", arr([2**60 - 1, 2**60 - 1], I64))],
     dict(num_split=2)),
    ("Tfsa2022_029_SparseSplitVectorSplitDim", "SparseSplit",
     [("split_dim", arr([1, 2], I64)), ("indices", arr([[0, 0, 0], [0, 1, 1]], I64)),
      ("values", arr([1, 2], F32)), ("shape", arr([1, 32, 32], I64))], dict(num_split=3)),
    ("Tfsa2021_053_SparseFillEmptyRowsEmptyDenseShape", "SparseFillEmptyRows",
     [("indices", z([0, 0], I64)), ("values", z([0], I64)), ("dense_shape", z([0], I64)),
      ("default_value", arr(0, I64))], {}),
    ("Tfsa2021_172_SparseFillEmptyRowsValuesShort", "SparseFillEmptyRows",
     [("indices", arr([[0, 0], [0, 0], [0, 0]], I64)), ("values", arr([b"s" * 63], object)),
      ("dense_shape", arr([5, 3], I64)), ("default_value", arr(b"o", object))], {}),
    ("Tfsa2020_021_SparseFillEmptyRowsGradIndexOutOfRange", "SparseFillEmptyRowsGrad",
     [("reverse_index_map", arr([0, 5], I64)), ("grad_values", arr([1, 2], F32))], {}),
    ("Tfsa2020_022_SparseFillEmptyRowsGradMatrixGradValues", "SparseFillEmptyRowsGrad",
     [("reverse_index_map", arr([0, 1], I64)), ("grad_values", arr([[1, 2]], F32))], {}),
    ("Tfsa2022_160_SparseFillEmptyRowsGradEmpty", "SparseFillEmptyRowsGrad",
     [("reverse_index_map", z([0], I64)), ("grad_values", z([0]))], {}),
    ("Tfsa2021_056_SparseDenseCwiseMulIndicesMismatch", "SparseDenseCwiseMul",
     [("sp_indices", z([10, 0], I64)), ("sp_values", z([0], I64)), ("sp_shape", arr([0, 0], I64)),
      ("dense", z([0], I64))], {}),
    ("Tfsa2021_110_SparseDenseCwiseDivIntegerByZero", "SparseDenseCwiseDiv",
     [("sp_indices", arr([[4]], I64)), ("sp_values", arr([-400], I64)),
      ("sp_shape", arr([647], I64)), ("dense", arr([0], I64))], {}),
    ("Tfsa2022_011_SparseDenseCwiseDivShapeOverflow", "SparseDenseCwiseDiv",
     [("sp_indices", arr([[9]], I64)), ("sp_values", arr([5], I64)),
      ("sp_shape", arr([92233720368, 92233720368], I64)), ("dense", arr([4], I64))], {}),
    ("Tfsa2021_096_SparseAddEmptyShape", "SparseAdd",
     [("a_indices", z([10, 97], I64)), ("a_values", z([10], I64)), ("a_shape", z([0], I64)),
      ("b_indices", z([0, 0], I64)), ("b_values", z([0], I64)), ("b_shape", z([0], I64)),
      ("thresh", arr(0, I64))], {}),
    ("Tfsa2021_097_SparseSparseMinimumIndicesRankMismatch", "SparseSparseMinimum",
     [("a_indices", np.ones([45, 92], I64)), ("a_values", np.ones([45], I64)),
      ("a_shape", np.ones([1], I64)), ("b_indices", np.ones([1, 1], I64)),
      ("b_values", np.ones([1], I64)), ("b_shape", np.ones([1], I64))], {}),
    ("Tfsa2023_006_SparseSparseMaximumEmptyIndexRow", "SparseSparseMaximum",
     [("a_indices", arr([[1]], I64)), ("a_values", arr([0.1], F32)), ("a_shape", arr([2], I64)),
      ("b_indices", z([1, 0], I64)), ("b_values", arr([2], F32)), ("b_shape", arr([2], I64))], {}),
    ("Tfsa2021_098_SparseReshapeIndicesShapeMismatch", "SparseReshape",
     [("input_indices", arr([[41]], I64)), ("input_shape", z([11], I64)),
      ("new_shape", z([1], I64))], {}),
    ("Tfsa2021_114_SparseReshapeToEmptyShape", "SparseReshape",
     [("input_indices", np.ones([1, 3], I64)), ("input_shape", arr([1, 1, 0], I64)),
      ("new_shape", arr([1, 0], I64))], {}),
    ("Tfsa2021_109_SparseReduceSumIndexOutOfShape", "SparseReduceSum",
     [("input_indices", arr([[773, 773, 773], [773, 773, 773]], I64)),
      ("input_values", arr([1, 1], I32)), ("input_shape", arr([337, 337, 337], I64)),
      ("reduction_axes", arr(1, I32))], {}),
    ("Tfsa2021_109_SparseReduceMaxIndexOutOfShape", "SparseReduceMax",
     [("input_indices", arr([[773, 773, 773], [773, 773, 773]], I64)),
      ("input_values", arr([1, 1], I32)), ("input_shape", arr([337, 337, 337], I64)),
      ("reduction_axes", arr(1, I32))], {}),
    ("Tfsa2022_074_SparseTensorDenseAddValuesShort", "SparseTensorDenseAdd",
     [("a_indices", z([17, 2], I64)), ("a_values", z([0])), ("a_shape", arr([6, 12], I64)),
      ("b", np.full([6, 12], -0.223668531, F32))], {}),
]


def list_case(build):
    """A case whose op consumes a TensorList made from Consts; `build(fed, feed)` returns the
    tensor to fetch (a list's length where the op makes a list, as a variant cannot be
    fetched)."""
    def run(fed):
        graph = tf1.Graph()
        feed = {}
        try:
            with graph.as_default():
                out = build(fed, feed)
        except ValueError as e:
            return "INVALID_ARGUMENT", "(graph) " + first_line(e)
        except tf.errors.OpError as e:
            return CODES.get(e.error_code, str(e.error_code)), "(graph) " + first_line(e.message)
        try:
            with tf1.Session(graph=graph) as sess:
                value = sess.run(out, feed_dict=feed)
        except tf.errors.OpError as e:
            return CODES.get(e.error_code, str(e.error_code)), first_line(e.message)
        value = np.asarray(value)
        return "OK", "shape=%s values=%s" % (list(value.shape), value.reshape(-1)[:8].tolist())
    return run


def value_or_fed(value, fed, feed):
    value = np.asarray(value)
    if not fed:
        return tf.constant(value)
    p = tf1.placeholder(tf.as_dtype(value.dtype), shape=None)
    feed[p] = value
    return p


def empty_list_rank2_shape(fed, feed):
    handle = raw.EmptyTensorList(element_shape=value_or_fed(np.ones([1, 0], I32), fed, feed),
                                 max_num_elements=value_or_fed(arr(1, I32), fed, feed),
                                 element_dtype=tf.int32)
    return raw.TensorListLength(input_handle=handle)


def list_from_tensor_rank2_shape(fed, feed):
    handle = raw.TensorListFromTensor(tensor=value_or_fed(z([6, 6, 2]), fed, feed),
                                      element_shape=value_or_fed(z([6, 9], I64), fed, feed))
    return raw.TensorListLength(input_handle=handle)


def list_of_scalars(fed, feed):
    return raw.TensorListFromTensor(tensor=value_or_fed(arr([1, 2, 3], F32), fed, feed),
                                    element_shape=value_or_fed(arr(-1, I32), fed, feed))


def concat_scalar_elements(fed, feed):
    return raw.TensorListConcatV2(input_handle=list_of_scalars(fed, feed),
                                  element_shape=value_or_fed(arr([], I32), fed, feed),
                                  leading_dims=value_or_fed(arr([], I64), fed, feed),
                                  element_dtype=tf.float32)[0]


def resize_nonscalar_size(fed, feed):
    handle = raw.TensorListResize(input_handle=list_of_scalars(fed, feed),
                                  size=value_or_fed(z([0, 2, 3, 3], I32), fed, feed))
    return raw.TensorListLength(input_handle=handle)


def scatter_rank3_shape(fed, feed):
    handle = raw.TensorListScatter(tensor=value_or_fed(z([2, 2, 2]), fed, feed),
                                   indices=value_or_fed(z([2, 2, 2], I32), fed, feed),
                                   element_shape=value_or_fed(z([2, 2, 2], I32), fed, feed))
    return raw.TensorListLength(input_handle=handle)


def scatter_v2_rank3_shape(fed, feed):
    handle = raw.TensorListScatterV2(tensor=value_or_fed(z([2, 2, 2]), fed, feed),
                                     indices=value_or_fed(z([2, 2, 2], I32), fed, feed),
                                     element_shape=value_or_fed(z([2, 2, 2], I32), fed, feed),
                                     num_elements=value_or_fed(arr(2, I32), fed, feed))
    return raw.TensorListLength(input_handle=handle)


def split_lengths_short_of_tensor(fed, feed):
    handle = raw.TensorListSplit(tensor=value_or_fed(arr([1], F32), fed, feed),
                                 element_shape=value_or_fed(arr(-1, I32), fed, feed),
                                 lengths=value_or_fed(arr([0], I64), fed, feed))
    return raw.TensorListLength(input_handle=handle)


def exit_without_enter(fed):
    graph = tf1.Graph()
    with graph.as_default():
        data = tf1.placeholder(tf.bool, shape=None) if fed else tf.constant([False, False])
        out = raw.Exit(data=data)
    try:
        with tf1.Session(graph=graph) as sess:
            value = sess.run(out, feed_dict={data: [False, False]} if fed else None)
    except tf.errors.OpError as e:
        return CODES.get(e.error_code, str(e.error_code)), first_line(e.message)
    return "OK", "values=%s" % np.asarray(value).tolist()


def reserve_vector_num_elements(fed, feed):
    handle = raw.TensorListReserve(element_shape=value_or_fed(arr([1, 1], I32), fed, feed),
                                   num_elements=value_or_fed(arr([1, 1], I32), fed, feed),
                                   element_dtype=tf.float32)
    return raw.TensorListLength(input_handle=handle)


def reserve_negative_num_elements(fed, feed):
    handle = raw.TensorListReserve(element_shape=value_or_fed(arr([1], I32), fed, feed),
                                   num_elements=value_or_fed(arr(-1, I32), fed, feed),
                                   element_dtype=tf.int32)
    return raw.TensorListLength(input_handle=handle)


def broadcast_to_leading_zero(fed, feed):
    """The output's shape: numpy cannot hold an empty array of that shape (TFSA-2022-146 was
    that crash in the Python bridge)."""
    out = raw.BroadcastTo(input=value_or_fed(arr([1], I32), fed, feed),
                          shape=value_or_fed(arr(list(range(21)), I64), fed, feed))
    return raw.Shape(input=out, out_type=tf.int64)


def assign_uninitialized_rhs(fed):
    """Assigns a variable that was never initialized to another: fed picks the `ref` side's
    state (initialized first, or not), as there is nothing to feed."""
    graph = tf1.Graph()
    with graph.as_default():
        lhs = raw.VariableV2(shape=[2], dtype=tf.float32, name="lhs")
        rhs = raw.VariableV2(shape=[2], dtype=tf.float32, name="rhs")
        init = raw.Assign(ref=lhs, value=tf.constant([1.0, 2.0]))
        out = raw.Assign(ref=lhs, value=rhs, validate_shape=False)
    try:
        with tf1.Session(graph=graph) as sess:
            if fed:
                sess.run(init)
            value = sess.run(out)
    except tf.errors.OpError as e:
        return CODES.get(e.error_code, str(e.error_code)), first_line(e.message)
    return "OK", "values=%s" % np.asarray(value).tolist()


SPECIAL = {
    "Tfsa2021_175_ExitWithoutEnter": exit_without_enter,
    "Tfsa2022_122_EmptyTensorListRank2Shape": list_case(empty_list_rank2_shape),
    "Tfsa2022_128_TensorListFromTensorRank2Shape": list_case(list_from_tensor_rank2_shape),
    "Tfsa2022_154_TensorListConcatScalarElements": list_case(concat_scalar_elements),
    "Tfsa2022_155_TensorListResizeNonScalarSize": list_case(resize_nonscalar_size),
    "Tfsa2022_129_TensorListScatterRank3Shape": list_case(scatter_rank3_shape),
    "Tfsa2022_129_TensorListScatterV2Rank3Shape": list_case(scatter_v2_rank3_shape),
    "Tfsa2023_181_TensorListSplitLengthsShortOfTensor": list_case(split_lengths_short_of_tensor),
    "Tfsa2022_088_TensorListReserveVectorNumElements": list_case(reserve_vector_num_elements),
    "Tfsa2021_117_TensorListReserveNegativeNumElements":
        list_case(reserve_negative_num_elements),
    "Tfsa2022_037_AssignUninitializedRhs": assign_uninitialized_rhs,
    "Tfsa2022_146_BroadcastToShapeWithLeadingZero": list_case(broadcast_to_leading_zero),
}


def on_variable(init, var_dtype, op, **kwargs):
    """A case whose op works on a resource variable holding `init` (assigned first, in the
    same run): kwargs are its other inputs (numpy arrays: Consts, or fed) and attrs; for the
    scatter ops, which output nothing, the variable's value after the op is fetched."""
    def build(fed, feed):
        var = raw.VarHandleOp(dtype=var_dtype, shape=np.asarray(init).shape, shared_name="v")
        assign = raw.AssignVariableOp(resource=var, value=tf.constant(init, dtype=var_dtype))
        inputs = {k: value_or_fed(v, fed, feed) if isinstance(v, np.ndarray) else v
                  for k, v in kwargs.items()}
        with tf1.control_dependencies([assign]):
            out = getattr(raw, op)(resource=var, **inputs)
        if op.startswith("ResourceScatter"):
            with tf1.control_dependencies([out]):
                return raw.ReadVariableOp(resource=var, dtype=var_dtype)
        return out
    return list_case(build)


SPECIAL.update({
    "Tfsa2021_127_ResourceGatherBatchDimsOfEmpty": on_variable(
        np.zeros([0, 1], np.uint32), tf.uint32, "ResourceGather",
        indices=arr([0], I32), batch_dims=1, validate_indices=False, dtype=tf.uint32),
    "Tfsa2021_128_ResourceGatherBatchDimsBeyondRank": on_variable(
        arr([[1, 2], [3, 4], [5, 6]], np.uint32), tf.uint32, "ResourceGather",
        indices=arr([0], I32), batch_dims=10, validate_indices=False, dtype=tf.uint32),
    "Tfsa2021_129_ResourceScatterUpdateTooManyUpdates": on_variable(
        arr([b"vvv"], object), tf.string, "ResourceScatterUpdate",
        indices=arr([0], I32), updates=arr([b"1", b"2", b"3", b"4", b"5"], object)),
    "Tfsa2021_115_ResourceScatterDivIntegerByZero": on_variable(
        arr([1, 2, 3], I32), tf.int32, "ResourceScatterDiv",
        indices=arr([1], I32), updates=arr([0], I32)),
})


QI32 = tf.qint32.as_numpy_dtype
QU8 = tf.quint8.as_numpy_dtype
S = object


def png_header(width, height):
    """A PNG whose IHDR announces width x height (8-bit gray), with no image data."""
    import struct
    import zlib

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def gif_without_color_map():
    """A 1x1 GIF89a with neither a global nor a local color map: the screen descriptor's
    and the image descriptor's flags are 0, then LZW data (minimum code size 2: clear,
    index 0, end) and the trailer."""
    import struct
    screen = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0, 0, 0)
    image = b"," + struct.pack("<HHHHB", 0, 0, 1, 1, 0)
    return screen + image + bytes([2, 2, 0x44, 0x01, 0]) + b";"


def bmp(width, height, offset=54):
    """A 24-bit BMP with a 40-byte info header announcing width x height, pixel data at
    `offset`, and zero pixel bytes for |width| x |height| (none when that is huge)."""
    import struct
    rows = abs(height) if abs(height) < 1000 else 0
    pixels = b"\0" * (((abs(width) * 3 + 3) // 4 * 4) * rows)
    header = struct.pack("<2sIHHi", b"BM", 54 + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 0, 0, 0, 0)
    return header + info + pixels


QAD2 = dict(signed_input=True, num_bits=8, range_given=False, round_mode="HALF_TO_EVEN",
            narrow_range=False)

# ---- kernels added after the passes above (fourth pass over the kernel list) ----
CASES += [
    ("Tfsa2021_004_MatrixDiagV2EmptyPaddingValue", "MatrixDiagV2",
     [("diagonal", arr([], F32)), ("k", arr(0, I32)), ("num_rows", arr(0, I32)),
      ("num_cols", arr(0, I32)), ("padding_value", arr([], F32))], {}),
    ("Tfsa2021_004_MatrixDiagV3EmptyPaddingValue", "MatrixDiagV3",
     [("diagonal", arr([], F32)), ("k", arr(0, I32)), ("num_rows", arr(0, I32)),
      ("num_cols", arr(0, I32)), ("padding_value", arr([], F32))], {}),
    ("Tfsa2021_131_MatrixDiagV3EmptyK", "MatrixDiagV3",
     [("diagonal", arr([1, 0], I32)), ("k", arr([], I32)), ("num_rows", arr([1, 2, 3], I32)),
      ("num_cols", arr([4, 5], I32)), ("padding_value", arr([], I32))],
     dict(align="RIGHT_RIGHT")),
    ("Tfsa2021_131_MatrixDiagV2EmptyK", "MatrixDiagV2",
     [("diagonal", arr([1, 0], I32)), ("k", arr([], I32)), ("num_rows", arr(-1, I32)),
      ("num_cols", arr(-1, I32)), ("padding_value", arr(0, I32))], {}),
    ("Tfsa2021_118_MatrixDiagPartV2EmptyPaddingValue", "MatrixDiagPartV2",
     [("input", np.ones([2], I32)), ("k", np.ones([2], I32)), ("padding_value", arr([], I32))], {}),
    ("Tfsa2021_118_MatrixDiagPartV3EmptyPaddingValue", "MatrixDiagPartV3",
     [("input", np.ones([2, 2], I32)), ("k", arr(0, I32)), ("padding_value", arr([], I32))], {}),
    ("Tfsa2021_132_MatrixSetDiagV3EmptyK", "MatrixSetDiagV3",
     [("input", arr([1, 2, 3], I32)), ("diagonal", arr([1, 1], I32)), ("k", arr([], I32))],
     dict(align="RIGHT_LEFT")),
    ("Tfsa2021_132_MatrixSetDiagV2EmptyKOnMatrix", "MatrixSetDiagV2",
     [("input", np.ones([2, 2], I32)), ("diagonal", arr([1, 1], I32)), ("k", arr([], I32))], {}),
    ("Tfsa2021_039_MatrixTriangularSolveEmptyNonSquare", "MatrixTriangularSolve",
     [("matrix", z([1, 0])), ("rhs", z([0, 1]))], dict(lower=False, adjoint=False)),
    ("Tfsa2021_039_MatrixTriangularSolveRank1", "MatrixTriangularSolve",
     [("matrix", z([0])), ("rhs", z([0]))], dict(lower=False, adjoint=False)),
    ("Tfsa2021_029_StringNGramsOnlyPadding", "StringNGrams",
     [("data", arr([b""] * 11, S)), ("data_splits", arr([0] * 115 + [3], I64))],
     dict(separator=b"\x02\x00", ngram_widths=[7, 6, 11], left_pad=b"\x7f" * 5,
          right_pad=b"\x7f\x7f\x25\x5d\x53\x74", pad_width=50, preserve_short_sequences=True)),
    ("Tfsa2021_030_StringNGramsSplitsPastData", "StringNGrams",
     [("data", arr([b""] * 11, S)), ("data_splits", arr([0] * 115 + [3], I64))],
     dict(separator=b"Ss", ngram_widths=[7, 6, 11], left_pad=b"ABCDE", right_pad=b"ZYXWVU",
          pad_width=50, preserve_short_sequences=True)),
    ("Tfsa2021_120_StringNGramsNegativeWidths", "StringNGrams",
     [("data", arr([b"", b""], S)), ("data_splits", arr([0, 2], I64))],
     dict(separator=b" " * 100, ngram_widths=[-80, 0, 0, -60], left_pad=b" ", right_pad=b" ",
          pad_width=100, preserve_short_sequences=False)),
    ("Tfsa2022_009_StringNGramsNegativePadWidth", "StringNGrams",
     [("data", arr([b"123456"], S)), ("data_splits", arr([0, 1], I64))],
     dict(separator=b"a" * 15, ngram_widths=[], left_pad=b"", right_pad=b"", pad_width=-5,
          preserve_short_sequences=True)),
    ("Tfsa2020_011_StringNGramsSplitPastData", "StringNGrams",
     [("data", arr([b"aa", b"bb", b"cc", b"dd", b"ee", b"ff"], S)),
      ("data_splits", arr([0, 8], I64))],
     dict(separator=b" ", ngram_widths=[3], left_pad=b"", right_pad=b"", pad_width=0,
          preserve_short_sequences=False)),
    ("Tfsa2021_048_RaggedTensorToTensorSplitsLongerThanParent", "RaggedTensorToTensor",
     [("shape", arr([10, 10], I64)), ("values", arr([0], I64)), ("default_value", arr(0, I64)),
      ("row_partition_tensors", [arr([849] + [0] * 214, I64).reshape([5, 43])])],
     dict(row_partition_types=["ROW_SPLITS"])),
    ("Tfsa2021_048_RaggedTensorToTensorFlatSplits", "RaggedTensorToTensor",
     [("shape", arr([10, 10], I64)), ("values", arr([0], I64)), ("default_value", arr(0, I64)),
      ("row_partition_tensors", [arr([849] + [0] * 214, I64)])],
     dict(row_partition_types=["ROW_SPLITS"])),
    ("Tfsa2021_095_RaggedTensorToTensorEmptyValues", "RaggedTensorToTensor",
     [("shape", arr([-1, -1], I64)), ("values", arr([], I64)), ("default_value", arr(404, I64)),
      ("row_partition_tensors", [arr([269, 404, 0, 0, 0, 0, 0], I64)])],
     dict(row_partition_types=["ROW_SPLITS"])),
    ("Tfsa2021_112_RaggedTensorToTensorNoPartitionTypes", "RaggedTensorToTensor",
     [("shape", arr(1, I32)), ("values", arr(10, I32)), ("default_value", arr(21, I32)),
      ("row_partition_tensors", [arr([0, 0, 0, 0], I32)])],
     dict(row_partition_types=[])),
    ("Tfsa2021_106_SubstrNegativePosOfTwo", "Substr",
     [("input", arr(b"abc", S)), ("pos", arr([1, -1], I32)), ("len", arr(1, I32))], {}),
    ("Tfsa2021_106_SubstrPosVectorOnScalar", "Substr",
     [("input", arr(b"abc", S)), ("pos", arr([1, 2], I32)), ("len", arr(1, I32))], {}),
    ("Tfsa2021_122_SaveV2NoShapeAndSlices", "SaveV2",
     [("prefix", arr([b"tfsa_2021_122_ckpt"], S)), ("tensor_names", arr([b"v"], S)),
      ("shape_and_slices", arr([], S)), ("tensors", [arr([1, 2, 3], I32)])], {}),
    ("Tfsa2021_142_UnravelIndexZeroDim", "UnravelIndex",
     [("indices", arr(-1, I32)), ("dims", arr([1, 0, 2], I32))], {}),
    ("Tfsa2022_006_UnravelIndexDimsProductOverflow", "UnravelIndex",
     [("indices", arr(-0x100000, I32)), ("dims", arr([0x100000, 0x100000], I32))], {}),
    ("Tfsa2021_144_UpperBoundRank1SortedInput", "UpperBound",
     [("sorted_inputs", arr([1, 2, 3], I64)),
      ("values", arr([[0, 0, 0], [1, 1, 1], [2, 2, 2]], I64))], dict(out_type=tf.int64)),
    ("Tfsa2021_144_LowerBoundRank1SortedInput", "LowerBound",
     [("sorted_inputs", arr([1, 2, 3], I64)),
      ("values", arr([[0, 0, 0], [1, 1, 1], [2, 2, 2]], I64))], dict(out_type=tf.int64)),
    ("Tfsa2022_097_LowerBoundEmptySortedInputs", "LowerBound",
     [("sorted_inputs", z([10, 0])), ("values", z([10, 10, 0, 10, 0]))],
     dict(out_type=tf.int32)),
    ("Tfsa2022_097_UpperBoundEmptySortedInputs", "UpperBound",
     [("sorted_inputs", z([2, 2, 0, 0, 0, 0, 0, 2])), ("values", np.full([2, 4], 0.372660398, F32))],
     dict(out_type=tf.int64)),
] + [
    ("Tfsa2021_200_%sHugeSegmentId" % op, op,
     [("data", np.ones([1, 10, 1], np.float64)), ("segment_ids", arr([1676240524292489355], I64))],
     {}) for op in ("SegmentMax", "SegmentMin", "SegmentMean", "SegmentSum", "SegmentProd")
] + [
    ("Tfsa2019_002_UnsortedSegmentSumSegmentsBeyondInt32", "UnsortedSegmentSum",
     [("data", z([1, 0])), ("segment_ids", arr([0], I32)), ("num_segments", arr(2**32 + 1, I64))],
     {}),
    ("Tfsa2019_002_UnsortedSegmentSumSegmentsNegativeAsInt32", "UnsortedSegmentSum",
     [("data", z([1, 0])), ("segment_ids", arr([0], I32)), ("num_segments", arr(2**31 + 1, I64))],
     {}),
    ("Tfsa2020_028_CropAndResizeInfiniteBox", "CropAndResize",
     [("image", np.ones([1, 2, 2, 1], F32)), ("boxes", arr([[np.inf, 0, 1, 1]], F32)),
      ("box_ind", arr([0], I32)), ("crop_size", arr([2, 2], I32))], {}),
    ("Tfsa2020_028_CropAndResizeNanBox", "CropAndResize",
     [("image", np.ones([1, 2, 2, 1], F32)), ("boxes", arr([[np.nan, 0, 1, 1]], F32)),
      ("box_ind", arr([0], I32)), ("crop_size", arr([2, 2], I32))], {}),
    ("Tfsa2022_047_DecodePngHugeSize", "DecodePng",
     [("contents", arr(png_header(0x7fffffff, 0x7fffffff), S))], {}),
    ("Tfsa2022_048_DecodePngTruncated", "DecodePng",
     [("contents", arr(png_header(4, 4)[:20], S))], {}),
    ("Tfsa2022_048_DecodePngNoImageData", "DecodePng",
     [("contents", arr(png_header(4, 4), S))], {}),
    ("Tfsa2022_061_TensorSummaryV2EmptyMetadata", "TensorSummaryV2",
     [("tag", arr(b"test", S)), ("tensor", arr(3, I64)),
      ("serialized_summary_metadata", arr([], S))], {}),
    ("Tfsa2022_080_HistogramFixedWidthNan", "HistogramFixedWidth",
     [("values", arr(np.nan, np.float64)), ("value_range", arr([1, 2], np.float64)),
      ("nbins", arr(100, I32))], {}),
    ("Tfsa2022_103_FakeQuantWithMinMaxVarsMatrixMinMax", "FakeQuantWithMinMaxVars",
     [("inputs", z([2, 3])), ("min", z([2, 3])), ("max", z([2, 3]))],
     dict(num_bits=8, narrow_range=False)),
    ("Tfsa2022_106_FakeQuantPerChannelRank3Min", "FakeQuantWithMinMaxVarsPerChannel",
     [("inputs", z([4])), ("min", z([4, 0, 0])), ("max", z([4]))],
     dict(num_bits=8, narrow_range=False)),
    ("Tfsa2022_119_SvdEmptyBatch", "Svd",
     [("input", z([0, 1, 1]))], dict(compute_uv=False)),
    ("Tfsa2022_125_AudioSummaryV2VectorSampleRate", "AudioSummaryV2",
     [("tag", arr(b"", S)), ("tensor", np.full([1, 1], 0.5, F32)),
      ("sample_rate", np.full([2, 1], 0.5, F32))], dict(max_outputs=3)),
    ("Tfsa2023_009_RandomShuffleScalar", "RandomShuffle",
     [("value", arr(1e20, F32))], dict(seed=-4294967297, seed2=-2147483649)),
    # ---- the quantization, CTC, Unicode, LRN and MirrorPad kernels ----
    ("Tfsa2020_027_QuantizeAndDequantizeV2AxisBeyondRank", "QuantizeAndDequantizeV2",
     [("input", arr([2.5, 2.5], F32)), ("input_min", arr([0, 0], F32)),
      ("input_max", arr([1, 1], F32))], dict(QAD2, axis=10)),
    ("Tfsa2021_099_QuantizeAndDequantizeV2AxisBelowMinusOne", "QuantizeAndDequantizeV2",
     [("input", arr([0.0], F32)), ("input_min", arr(-10.0, F32)), ("input_max", arr(-10.0, F32))],
     dict(QAD2, signed_input=False, num_bits=1, axis=-2)),
    ("Tfsa2021_031_QuantizeAndDequantizeV4GradMatrixMinMax", "QuantizeAndDequantizeV4Grad",
     [("gradients", arr([0.0], F32)), ("input", arr([0.0], F32)),
      ("input_min", arr([[0.0]], F32)), ("input_max", arr([[0.0]], F32))], dict(axis=0)),
    ("Tfsa2021_119_QuantizeAndDequantizeV4GradAxisMinus100", "QuantizeAndDequantizeV4Grad",
     [("gradients", arr([1.0, 2.0], F32)), ("input", arr([1.0, 1.0], F32)),
      ("input_min", arr([0.0], F32)), ("input_max", arr([10.0], F32))], dict(axis=-100)),
    ("Tfsa2021_040_QuantizeAndDequantizeV3AxisBeyondRank", "QuantizeAndDequantizeV3",
     [("input", arr([2.5, 2.5], F32)), ("input_min", arr([0, 0], F32)),
      ("input_max", arr([1, 1], F32)), ("num_bits", arr([30], I32))],
     dict(signed_input=False, range_given=False, narrow_range=False, axis=3)),
    ("Tfsa2021_185_QuantizeAndDequantizeV2AxisMinus100", "QuantizeAndDequantizeV2",
     [("input", arr([1.0, 1.0], F32)), ("input_min", arr([1.0, 10.0], F32)),
      ("input_max", arr([1.0, 10.0], F32))],
     dict(QAD2, signed_input=False, num_bits=10, axis=-100)),
    ("Tfsa2021_185_QuantizeAndDequantizeV3AxisMinus100", "QuantizeAndDequantizeV3",
     [("input", arr([1.0, 1.0], F32)), ("input_min", arr([1.0, 10.0], F32)),
      ("input_max", arr([1.0, 10.0], F32)), ("num_bits", arr(10, I32))],
     dict(signed_input=False, range_given=False, narrow_range=False, axis=-100)),
    ("Tfsa2021_185_QuantizeAndDequantizeV4AxisMinus100", "QuantizeAndDequantizeV4",
     [("input", arr([1.0, 1.0], F32)), ("input_min", arr([1.0, 10.0], F32)),
      ("input_max", arr([1.0, 10.0], F32))],
     dict(QAD2, signed_input=False, num_bits=10, axis=-100)),
    ("Tfsa2021_185_QuantizeAndDequantizeV4GradAxisMinus100", "QuantizeAndDequantizeV4Grad",
     [("gradients", arr([1.0, 1.0], F32)), ("input", arr([1.0, 1.0], F32)),
      ("input_min", arr([1.0, 10.0], F32)), ("input_max", arr([1.0, 10.0], F32))],
     dict(axis=-100)),
    ("Tfsa2022_168_QuantizeAndDequantizeV2AxisInt32Max", "QuantizeAndDequantizeV2",
     [("input", arr([2.5], F32)), ("input_min", arr([1.0], F32)),
      ("input_max", arr([10.0], F32))],
     dict(signed_input=True, num_bits=1, range_given=True, round_mode="HALF_TO_EVEN",
          narrow_range=True, axis=0x7fffffff)),
    ("Tfsa2023_002_QuantizeAndDequantizeV3AxisInt32Max", "QuantizeAndDequantizeV3",
     [("input", arr([2.5], F32)), ("input_min", arr([1.0], F32)),
      ("input_max", arr([10.0], F32)), ("num_bits", arr(1, I32))],
     dict(signed_input=True, range_given=True, narrow_range=True, axis=0x7fffffff)),
    ("Tfsa2023_002_QuantizeAndDequantizeV4GradAxisInt32Max", "QuantizeAndDequantizeV4Grad",
     [("gradients", arr([2.5], F32)), ("input", arr([2.5], F32)),
      ("input_min", arr([1.0], F32)), ("input_max", arr([10.0], F32))], dict(axis=0x7fffffff)),
    ("Tfsa2022_062_QuantizeAndDequantizeV4GradEmptyMin", "QuantizeAndDequantizeV4Grad",
     [("gradients", np.ones([2, 2], np.float64)), ("input", np.ones([2, 2], np.float64)),
      ("input_min", z([0], np.float64)), ("input_max", arr(-10, np.float64))], dict(axis=-1)),
    ("Tfsa2022_112_QuantizeAndDequantizeV3EmptyNumBits", "QuantizeAndDequantizeV3",
     [("input", arr([-3.5], F32)), ("input_min", arr([-3.5], F32)),
      ("input_max", arr([-3.5], F32)), ("num_bits", arr([], I32))],
     dict(signed_input=True, range_given=False, narrow_range=False, axis=-1)),
    ("Tfsa2021_070_DequantizeMinMaxLengthsDiffer", "Dequantize",
     [("input", arr(np.array([75] * 4 + [250, 247] + [246] * 44) % 256, QU8).reshape([5, 10])),
      ("min_range", arr([-10], F32)), ("max_range", arr([24, 758, 758, 758, 758], F32))],
     dict(mode="SCALED", narrow_range=True, axis=0, dtype=tf.float32)),
    ("Tfsa2021_151_DequantizeAxisMinus10", "Dequantize",
     [("input", arr(246, QU8)), ("min_range", z([0])), ("max_range", z([0]))],
     dict(mode="MIN_COMBINED", narrow_range=False, axis=-10, dtype=tf.float32)),
    ("Tfsa2022_003_DequantizeAxisInt32Max", "Dequantize",
     [("input", arr([1, 1], QI32)), ("min_range", arr([1.0], F32)),
      ("max_range", arr([10.0], F32))],
     dict(mode="MIN_COMBINED", narrow_range=False, axis=2**31 - 1, dtype=tf.bfloat16)),
    ("Tfsa2021_138_QuantizeV2EmptyMaxRange", "QuantizeV2",
     [("input", arr([1, 2, 3], F32)), ("min_range", arr([1, 2], F32)),
      ("max_range", arr([], F32))],
     dict(T=tf.qint32, mode="SCALED", round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False,
          axis=1, ensure_minimum_range=3.0)),
    ("Tfsa2021_184_QuantizeV2AxisMinus100", "QuantizeV2",
     [("input", arr([1.0, 1.0], F32)), ("min_range", arr([1.0, 10.0], F32)),
      ("max_range", arr([1.0, 10.0], F32))],
     dict(T=tf.qint32, mode="MIN_COMBINED", round_mode="HALF_TO_EVEN", narrow_range=False,
          axis=-100, ensure_minimum_range=10.0)),
    ("Tfsa2021_032_CTCGreedyDecoderNegativeLength", "CTCGreedyDecoder",
     [("inputs", z([18, 2, 0])), ("sequence_length", arr([-100, 17], I32))],
     dict(merge_repeated=False)),
    ("Tfsa2021_069_CTCBeamSearchDecoderEmptyClasses", "CTCBeamSearchDecoder",
     [("inputs", z([18, 8, 0])),
      ("sequence_length", arr([11, -43, -92, 11, -89, -83, -35, -100], I32))],
     dict(beam_width=10, top_paths=3, merge_repeated=True)),
    ("Tfsa2021_101_CTCLossEmptyClassesIndexColumns", "CTCLoss",
     [("inputs", z([10, 16, 0])), ("labels_indices", z([8, 0], I64)),
      ("labels_values", arr([-100] * 8, I32)), ("sequence_length", arr([-100] * 16, I32))],
     dict(preprocess_collapse_repeated=True, ctc_merge_repeated=False,
          ignore_longer_outputs_than_inputs=True)),
    ("Tfsa2021_101_CTCLossNegativeIndices", "CTCLoss",
     [("inputs", z([7, 2, 0])), ("labels_indices", arr([[-100], [-100]], I64)),
      ("labels_values", arr([-100, -100], I32)), ("sequence_length", arr([-100, -100], I32))],
     dict(preprocess_collapse_repeated=False, ctc_merge_repeated=False,
          ignore_longer_outputs_than_inputs=False)),
    ("Tfsa2021_101_CTCLossNoTimeSteps", "CTCLoss",
     [("inputs", z([0, 2, 11])), ("labels_indices", z([0, 2], I64)),
      ("labels_values", z([0], I32)), ("sequence_length", arr([-100, -100], I32))],
     dict(preprocess_collapse_repeated=False, ctc_merge_repeated=False,
          ignore_longer_outputs_than_inputs=False)),
    ("Tfsa2021_047_UnicodeEncodeSplitsPastValues", "UnicodeEncode",
     [("input_values", arr([58], I32)), ("input_splits", arr([81, 101, 0], I32))],
     dict(output_encoding="UTF-8")),
    ("Tfsa2021_141_UnicodeEncodeEmptySplits", "UnicodeEncode",
     [("input_values", arr([], I32)), ("input_splits", arr([], I64))],
     dict(output_encoding="UTF-8", errors="ignore", replacement_char=97)),
    ("Tfsa2022_116_LRNGradRank6OutputImage", "LRNGrad",
     [("input_grads", np.ones([4, 4, 4, 4], F32)), ("input_image", np.ones([4, 4, 4, 4], F32)),
      ("output_image", np.ones([4, 4, 4, 4, 4, 4], F32))],
     dict(depth_radius=1, bias=1.59018219, alpha=0.117728651, beta=0.404427052)),
    ("Tfsa2022_157_MirrorPadGradHugePaddings", "MirrorPadGrad",
     [("input", arr([1], I32)), ("paddings", arr([[0x77f00000, 0xa000000]], I32))],
     dict(mode="REFLECT")),
] + [
    # ---- audio, RNN, image codec, ConjugateTranspose and data-format kernels (seventh pass) ----
    ("Tfsa2022_158_MfccHugeFilterbankChannelCount", "Mfcc",
     [("spectrogram", arr([[[1.38, 6.32, 5.75, 9.51]]], F32)), ("sample_rate", arr(2, I32))],
     dict(upper_frequency_limit=5.0, lower_frequency_limit=1.0,
          filterbank_channel_count=2**31 - 1, dct_coefficient_count=1)),
    ("Tfsa2023_008_AudioSpectrogramZeroStride", "AudioSpectrogram",
     [("input", arr([[14.0], [24.0]], F32))],
     dict(window_size=1, stride=0, magnitude_squared=False)),
    ("Tfsa2023_008_AudioSpectrogramZeroStrideWindow2", "AudioSpectrogram",
     [("input", arr([[14.0], [24.0]], F32))],
     dict(window_size=2, stride=0, magnitude_squared=False)),
    ("Tfsa2022_069_LSTMBlockCellScalarWci", "LSTMBlockCell",
     [("x", np.full([28, 29], 0.837607, F32)), ("cs_prev", z([28, 17])),
      ("h_prev", np.full([28, 17], 0.592631638, F32)), ("w", np.full([46, 68], 0.887386262, F32)),
      ("wci", z([])), ("wcf", z([17])), ("wco", np.full([28, 17], 0.592631638, F32)),
      ("b", np.full([68], 0.75259006, F32))],
     dict(forget_bias=1.0, cell_clip=0.0, use_peephole=False)),
    ("Tfsa2022_096_BlockLSTMGradV2Rank3Everything", "BlockLSTMGradV2",
     [("seq_len_max", arr(1, I64))] +
     [(n, np.full([1, 1, 1], 0.504355371, F32)) for n in
      ("x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b", "i", "cs", "f", "o", "ci",
       "co", "h", "cs_grad", "h_grad")],
     dict(use_peephole=False)),
    ("Tfsa2023_020_GRUBlockCellGradScalarBc", "GRUBlockCellGrad",
     [("x", arr([[21.1, 156.2], [83.3, 115.4]], F32)), ("h_prev", arr([[136.5], [136.6]], F32)),
      ("w_ru", arr([[26.7, 0.8], [47.9, 26.1], [26.2, 26.3]], F32)),
      ("w_c", arr([[0.4], [31.5], [0.6]], F32)), ("b_ru", arr([0.1, 0.2], F32)),
      ("b_c", arr(0x41414141, F32)), ("r", arr([[0.3], [0.4]], F32)),
      ("u", arr([[5.7], [5.8]], F32)), ("c", arr([[52.9], [53.1]], F32)),
      ("d_h", arr([[172.2], [188.3]], F32))], {}),
    ("Tfsa2019_001_DecodeGifNoColorMap", "DecodeGif",
     [("contents", arr(gif_without_color_map(), S))], {}),
    ("Tfsa2018_002_DecodeGifHeaderOnly", "DecodeGif",
     [("contents", arr(b"GIF89a", S))], {}),
    ("Tfsa2018_002_DecodeGifCutAfterScreen", "DecodeGif",
     [("contents", arr(gif_without_color_map()[:13], S))], {}),
    ("Tfsa2018_002_DecodeGifNoImage", "DecodeGif",
     [("contents", arr(gif_without_color_map()[:13] + b";", S))], {}),
    ("Tfsa2018_001_DecodeBmpCutInHeader", "DecodeBmp",
     [("contents", arr(bmp(2, 2)[:20], S))], dict(channels=0)),
    ("Tfsa2018_001_DecodeBmpNegativeWidth", "DecodeBmp",
     [("contents", arr(bmp(-2, 2), S))], dict(channels=0)),
    ("Tfsa2018_001_DecodeBmpOffsetPastEnd", "DecodeBmp",
     [("contents", arr(bmp(2, 2, offset=0x7fffffff), S))], dict(channels=0)),
    ("Tfsa2018_001_DecodeBmpNegativeOffset", "DecodeBmp",
     [("contents", arr(bmp(2, 2, offset=-100), S))], dict(channels=0)),
    ("Tfsa2018_001_DecodeBmpNoPixels", "DecodeBmp",
     [("contents", arr(bmp(2, 2)[:54], S))], dict(channels=0)),
    ("Tfsa2018_001_DecodeBmpHugeHeight", "DecodeBmp",
     [("contents", arr(bmp(2, -0x7fffffff), S))], dict(channels=0)),
    ("Tfsa2021_020_EncodePngEmpty", "EncodePng",
     [("image", z([0, 0, 3], np.uint8))], dict(compression=-1)),
    ("Tfsa2021_105_ConjugateTransposeComplexScalar", "ConjugateTranspose",
     [("x", arr(1 + 2j, np.complex64)), ("perm", arr([], I32))], {}),
] + [
    ("Tfsa2020_030_DataFormatVecPermute_%s_%s_%s" % (src, dst, "x".join(
        str(d) for d in np.shape(x))), "DataFormatVecPermute",
     [("x", arr(x, I32))], dict(src_format=src, dst_format=dst))
    for x, src, dst in [
        ([1, 4], "1234", "1234"), ([1, 4], "HHHH", "WWWW"), ([1, 4], "H", "W"),
        ([1, 2, 3, 4], "1234", "1253"), ([1, 2, 3, 4], "1234", "1223"),
        ([1, 2, 3, 4], "1224", "1423"), ([1, 2, 3, 4], "1234", "432"),
        ([1, 2, 3, 4], "12345678", "87654321"),
        ([[1, 5], [2, 6], [3, 7], [4, 8]], "12345678", "87654321")]
] + [
    ("Tfsa2020_030_DataFormatDimMap_%s_%s" % (src, dst), "DataFormatDimMap",
     [("x", arr([[1, 5], [2, 6], [3, 7], [4, 8]], I32))], dict(src_format=src, dst_format=dst))
    for src, dst in [("1234", "8765"), ("NHWC", "NCHW")]
]


def run_one(name, fed):
    for case in CASES:
        if case[0] == name:
            fetch = case[4] if len(case) > 4 else 0
            return run_case(name, case[1], case[2], case[3], fed, fetch)
    return SPECIAL[name](fed)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        code, text = run_one(sys.argv[2], sys.argv[3] == "fed")
        print("%s %s %s %s" % (sys.argv[2], sys.argv[3], code, text), flush=True)
        return
    # Each case runs in its own process: some still abort TensorFlow itself.
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    print("TensorFlow", tf.__version__, flush=True)
    names = [case[0] for case in CASES] + list(SPECIAL)
    for name in names:
        if wanted not in name:
            continue
        for mode in ("const", "fed"):
            for config, onednn in (("onednn", "1"), ("reference", "0")):
                env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS=onednn)
                child = subprocess.run([sys.executable, __file__, "--one", name, mode],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, env=env)
                if child.returncode != 0:
                    last = [l for l in child.stderr.splitlines() if l.strip()][-1:]
                    line = "%s %s CRASH(rc=%d) %s" % (name, mode, child.returncode,
                                                      last[0][:160] if last else "")
                else:
                    line = child.stdout.strip()
                print("[%s] %s" % (config, line), flush=True)


if __name__ == "__main__":
    main()
