#!/usr/bin/env python3
"""Dumps TensorFlow's registered OpDefs for the ops Sluice's CPU kernel library runs.

Writes tests/op_defs/tf_op_defs.pbtxt: an OpList in protobuf text format, docs stripped,
which op_def_conformance_test compares against Sluice's registry. Regenerate with

    python3 tests/op_defs/gen_tf_op_defs.py

from the repository root (needs `pip install tensorflow-cpu`). The file's header names the
TensorFlow version that produced it.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import op_def_pb2  # noqa: E402
from tensorflow.python.framework import op_def_registry  # noqa: E402

OPS = [
    # Lookup tables.
    "HashTableV2", "AnonymousHashTable", "MutableHashTableV2", "AnonymousMutableHashTable",
    "MutableHashTableOfTensorsV2", "AnonymousMutableHashTableOfTensors",
    "MutableDenseHashTableV2", "AnonymousMutableDenseHashTable", "LookupTableFindV2",
    "LookupTableInsertV2", "LookupTableRemoveV2", "LookupTableSizeV2", "LookupTableExportV2",
    "LookupTableImportV2", "InitializeTableV2", "InitializeTableFromTextFileV2",
    "HashTable", "MutableHashTable", "MutableHashTableOfTensors", "LookupTableFind",
    "LookupTableInsert", "LookupTableSize", "LookupTableExport", "LookupTableImport",
    "InitializeTable", "InitializeTableFromTextFile",
    # Plumbing.
    "Const", "Placeholder", "PlaceholderWithDefault", "Identity", "IdentityN", "NoOp",
    "StopGradient", "PreventGradient", "Snapshot", "CheckNumerics", "EnsureShape",
    # Binary elementwise with broadcasting.
    "Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "FloorDiv", "FloorMod",
    "TruncateDiv", "TruncateMod", "Maximum", "Minimum", "Pow", "SquaredDifference", "BiasAdd",
    "Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual", "LogicalAnd",
    "LogicalOr",
    # Unary.
    "Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p",
    "Reciprocal", "Inv", "Floor", "Ceil", "Round", "Rint", "Sin", "Cos", "Tanh", "Sigmoid", "Relu",
    "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign", "Erf", "Erfc", "LogicalNot",
    "IsNan", "IsInf", "IsFinite",
    # Other math.
    "AddN", "Select", "SelectV2", "Cast", "ClipByValue",
    # Reductions.
    "Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "ArgMax", "ArgMin",
    # Neural networks.
    "MatMul", "BatchMatMul", "BatchMatMulV2", "Einsum", "Conv2D", "DepthwiseConv2dNative",
    "Conv2DBackpropInput", "MaxPool", "AvgPool", "MaxPoolV2", "FusedBatchNorm",
    "FusedBatchNormV3", "Softmax", "LogSoftmax", "LRN",
    # Fusions the remapper pass creates.
    "_FusedConv2D", "_FusedDepthwiseConv2dNative", "_FusedMatMul",
    # Array.
    "Reshape", "Squeeze", "ExpandDims", "Shape", "ShapeN", "Size", "Rank", "Fill",
    "ZerosLike", "OnesLike", "Range", "Concat", "ConcatV2", "Pack", "Unpack", "Split",
    "SplitV", "Slice", "StridedSlice", "StridedSliceGrad", "Transpose", "Pad", "PadV2", "MirrorPad",
    "Tile",
    "Gather", "GatherV2", "GatherNd", "OneHot", "BroadcastTo", "ReverseV2", "Cumsum",
    "TopKV2", "TopK", "LinSpace", "ConjugateTranspose", "DynamicPartition", "BiasAddV1",
    "FusedBatchNormV2", "DataFormatDimMap", "DataFormatVecPermute", "NthElement",
    "CheckNumericsV2", "GuaranteeConst", "DeepCopy",
    "Where", "SpaceToDepth", "DepthToSpace", "ResizeBilinear",
    "ResizeNearestNeighbor",
    # Control flow (v1).
    "Switch", "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter", "Exit", "RefExit",
    "NextIteration", "RefNextIteration", "LoopCond", "ControlTrigger", "Abort",
    # Cross-device transfers inserted by partitioning.
    "_Send", "_Recv", "_HostSend", "_HostRecv",
    # Function bodies and calls.
    "_Arg", "_Retval", "_DeviceArg", "_DeviceRetval", "PartitionedCall",
    "StatefulPartitionedCall",
    # Variables: ref (TF1) and resource (TF2).
    "VariableV2", "Assign", "AssignAdd", "AssignSub", "IsVariableInitialized", "VarHandleOp",
    "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
    "VarIsInitializedOp", "DestroyResourceOp",
    # Detection, set and histogram ops; assertions and printing.
    "NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5", "Unique", "UniqueV2",
    "ReverseSequence", "Cumprod", "Bincount", "DenseBincount", "Assert", "Print", "PrintV2",
    "StringFormat",
    # Dilated convolutions, causal masks, discretization, resizing, 3-D convolution and pooling.
    "SpaceToBatchND", "BatchToSpaceND", "MatrixBandPart", "Bucketize", "ResizeBicubic",
    "ResizeArea", "Conv3D", "MaxPool3D", "AvgPool3D",
    # TensorLists (variant tensors) and TF1 TensorArrays.
    "EmptyTensorList", "TensorListReserve", "TensorListFromTensor", "TensorListSplit",
    "TensorListScatter", "TensorListScatterV2", "TensorListScatterIntoExistingList",
    "TensorListLength", "TensorListElementShape", "TensorListGetItem", "TensorListSetItem",
    "TensorListPushBack", "TensorListPopBack", "TensorListResize", "TensorListStack",
    "TensorListGather", "TensorListConcatV2", "TensorArrayV3", "TensorArrayWriteV3",
    "TensorArrayReadV3", "TensorArrayGatherV3", "TensorArrayScatterV3", "TensorArrayConcatV3",
    "TensorArraySplitV3", "TensorArraySizeV3", "TensorArrayCloseV3", "TensorArrayGradV3",
    "TensorArrayGradWithShape",
    # Stacks (TF1's gradients of while loops).
    "StackV2", "StackPushV2", "StackPopV2", "StackCloseV2",
    # Keras preprocessing: hashing, crossing, lanczos resizing; transposed 3-D convolution.
    "AsString", "StringToHashBucketFast", "StringToHashBucketStrong", "StringToHashBucket",
    "SparseToDense", "SparseCross", "SparseCrossV2", "SparseCrossHashed",
    "SparseFillEmptyRows", "SparseFillEmptyRowsGrad", "SparseReshape", "SparseReorder",
    "SparseTensorDenseMatMul", "SparseAdd", "SparseAddGrad", "SparseTensorDenseAdd",
    "SparseReduceSum", "SparseReduceSumSparse", "SparseReduceMax", "SparseReduceMaxSparse",
    "SparseSlice", "SparseConcat", "SparseSoftmax", "SparseDenseCwiseAdd", "SparseDenseCwiseMul",
    "SparseDenseCwiseDiv", "SparseSparseMaximum", "SparseSparseMinimum", "SparseSplit",
    "ScaleAndTranslate",
    "Conv3DBackpropInputV2", "Conv3DBackpropInput",
    # Spectral and complex ops (MelSpectrogram, STFT), BroadcastArgs.
    "FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D", "RFFT", "IRFFT", "RFFT2D", "IRFFT2D",
    "RFFT3D", "IRFFT3D", "Real", "Imag", "ComplexAbs", "Complex", "Conj", "Angle",
    "BroadcastArgs",
    # TF1 summaries for TensorBoard.
    "ScalarSummary", "HistogramSummary", "TensorSummaryV2", "TensorSummary", "ImageSummary",
    "AudioSummaryV2", "AudioSummary", "MergeSummary",
    # Random numbers: stateful (seeded by attrs) and stateless (seed pair; key and counter).
    "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
    "StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
    "StatelessRandomUniformInt", "StatelessRandomUniformFullInt", "StatelessRandomUniformV2",
    "StatelessRandomNormalV2", "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2",
    "StatelessRandomUniformFullIntV2", "StatelessRandomGetKeyCounterAlg",
    "StatelessRandomGetKeyCounter", "StatelessRandomGetAlg", "Multinomial", "StatelessMultinomial",
    "RandomShuffle",
    # Fake quantization of quantization-aware training.
    "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel",
    # Quantization to integer types and back; quantize-dequantize rounding (gen_quantize.py).
    "QuantizeV2", "Dequantize", "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3",
    "QuantizeAndDequantizeV4", "QuantizeAndDequantizeV4Grad",
    # Decoding encoded images.
    "DecodeJpeg", "DecodeAndCropJpeg", "DecodePng", "DecodeImage", "ExtractJpegShape",
    "DecodeBmp", "DecodeGif",
    # Encoding images.
    "EncodePng", "EncodeJpeg", "EncodeJpegVariableQuality",
    "Timestamp",
    # Scatter into slices (gen_scatter.py).
    "ScatterNd", "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
    "TensorScatterMax", "TensorScatterMin",
    # Segment reductions (gen_segment.py).
    "UnsortedSegmentSum", "UnsortedSegmentProd", "UnsortedSegmentMax", "UnsortedSegmentMin",
    "SegmentSum", "SegmentMean", "SegmentProd", "SegmentMax", "SegmentMin", "SparseSegmentSum",
    "SparseSegmentMean", "SparseSegmentSqrtN", "SparseSegmentSumWithNumSegments",
    "SparseSegmentMeanWithNumSegments", "SparseSegmentSqrtNWithNumSegments",
    "SparseSegmentSumGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad",
    "SparseSegmentSumGradV2", "SparseSegmentMeanGradV2", "SparseSegmentSqrtNGradV2",
    "EuclideanNorm", "L2Loss", "CumulativeLogsumexp",
    # Text preprocessing: string transforms, regular expressions.
    "StringJoin", "ReduceJoin", "StringLower", "StringUpper", "StringLength", "StringStrip",
    "Substr", "StringToNumber", "EncodeBase64", "DecodeBase64", "StaticRegexReplace",
    "RegexReplace", "StaticRegexFullMatch", "RegexFullMatch",
    # Text preprocessing: splitting.
    "StringSplit", "StringSplitV2", "StringNGrams",
    # Text preprocessing: Unicode decoding, encoding, transcoding and scripts.
    "UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeEncode", "UnicodeTranscode",
    "UnicodeScript",
    # Ragged tensors made dense.
    "RaggedTensorToTensor",
    # Parsing strings.
    "DecodeRaw", "DecodeCSV", "ParseExample", "ParseExampleV2", "ParseSingleExample", "ParseTensor",
    "SerializeTensor",
    # Training losses and metrics; detection and image ops (crops, NMS forms, patches, color).
    "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "InTopK", "InTopKV2",
    "CropAndResize", "CombinedNonMaxSuppression", "NonMaxSuppression", "NonMaxSuppressionV2",
    "NonMaxSuppressionWithOverlaps", "ExtractImagePatches", "Dilation2D", "MaxPoolWithArgmax",
    "RGBToHSV", "HSVToRGB", "AdjustContrastv2", "AdjustSaturation", "AdjustHue",
    # Trigonometric, bitwise and special math functions.
    "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Atan2",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift",
    "PopulationCount", "Mod", "ApproximateEqual", "Xlogy", "Xdivy", "Xlog1py", "MulNoNan",
    "NextAfter", "Lgamma", "Digamma", "Erfinv", "Ndtri", "BesselI0e", "BesselI1e", "Igamma",
    "Igammac", "Zeta", "Polygamma", "Betainc",
    "BesselI0", "BesselI1", "BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "BesselK0",
    "BesselK0e", "BesselK1", "BesselK1e", "Dawsn", "Expint", "FresnelCos", "FresnelSin", "Spence",
    # Diagonals (tf.eye, tf.linalg.diag, diag_part, set_diag, trace).
    "MatrixDiag", "MatrixDiagV2", "MatrixDiagV3", "MatrixDiagPart", "MatrixDiagPartV2",
    "MatrixDiagPartV3", "MatrixSetDiag", "MatrixSetDiagV2", "MatrixSetDiagV3", "Diag", "DiagPart",
    # Rearranging elements.
    "Roll", "InvertPermutation", "UnravelIndex", "Bitcast", "Empty",
    # Set differences, counted uniques, searchsorted.
    "ListDiff", "UniqueWithCounts", "UniqueWithCountsV2", "LowerBound", "UpperBound",
    # Cross products, histograms.
    "Cross", "HistogramFixedWidth",
    # Dense linear algebra (tf.linalg).
    "MatrixInverse", "MatrixDeterminant", "LogMatrixDeterminant", "Cholesky", "MatrixSolve",
    "MatrixTriangularSolve", "Qr", "SelfAdjointEigV2", "Svd", "Lu", "MatrixSolveLs",
    # Checkpoints (V2 tensor bundles) and TensorFlow 2 save functions.
    "SaveV2", "RestoreV2", "MergeV2Checkpoints", "ShardedFilename", "ShardedFilespec",
    "DisableCopyOnRead",
    # NN backprop ops (nngrad)
    "Conv2DBackpropFilter", "Conv2DBackpropFilterV2", "Conv2DBackpropInputV2",
    "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter", "MaxPoolGrad",
    "MaxPoolGradV2", "AvgPoolGrad", "FusedBatchNormGrad", "FusedBatchNormGradV2",
    "FusedBatchNormGradV3",
    # Resize and 3-D convolution/pooling backprop ops (nnback).
    "ResizeBilinearGrad", "ResizeNearestNeighborGrad", "ResizeBicubicGrad",
    "Conv3DBackpropFilterV2", "MaxPool3DGrad", "AvgPool3DGrad",
    # Gradient ops (gradops)
    "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "SoftplusGrad", "SoftsignGrad",
    "LeakyReluGrad", "TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad",
    "InvGrad", "BroadcastGradientArgs", "ConcatOffset", "BiasAddGrad", "DynamicStitch",
    "ParallelDynamicStitch",
    # Training ops (optim): optimizers' updates and the scatter/gather ops on variables.
    "ApplyGradientDescent", "ResourceApplyGradientDescent", "ApplyProximalGradientDescent",
    "SparseApplyProximalGradientDescent", "ResourceApplyProximalGradientDescent",
    "ResourceSparseApplyProximalGradientDescent", "ApplyAdadelta", "SparseApplyAdadelta",
    "ResourceApplyAdadelta", "ResourceSparseApplyAdadelta", "ApplyAdagrad", "SparseApplyAdagrad",
    "ResourceApplyAdagrad", "ResourceSparseApplyAdagrad", "ApplyAdagradV2", "SparseApplyAdagradV2",
    "ResourceApplyAdagradV2", "ResourceSparseApplyAdagradV2", "ApplyProximalAdagrad",
    "SparseApplyProximalAdagrad", "ResourceApplyProximalAdagrad",
    "ResourceSparseApplyProximalAdagrad", "ApplyAdagradDA", "SparseApplyAdagradDA",
    "ResourceApplyAdagradDA", "ResourceSparseApplyAdagradDA", "ApplyFtrl", "SparseApplyFtrl",
    "ResourceApplyFtrl", "ResourceSparseApplyFtrl", "ApplyFtrlV2", "SparseApplyFtrlV2",
    "ResourceApplyFtrlV2", "ResourceSparseApplyFtrlV2", "ApplyMomentum", "SparseApplyMomentum",
    "ResourceApplyMomentum", "ResourceSparseApplyMomentum", "ResourceApplyKerasMomentum",
    "ResourceSparseApplyKerasMomentum", "ApplyAdam", "ResourceApplyAdam",
    "ResourceApplyAdamWithAmsgrad", "ApplyAdaMax", "ResourceApplyAdaMax", "ApplyRMSProp",
    "SparseApplyRMSProp", "ResourceApplyRMSProp", "ResourceSparseApplyRMSProp",
    "ApplyCenteredRMSProp", "SparseApplyCenteredRMSProp", "ResourceApplyCenteredRMSProp",
    "ResourceSparseApplyCenteredRMSProp", "ApplyAddSign", "ResourceApplyAddSign", "ApplyPowerSign",
    "ResourceApplyPowerSign", "ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul",
    "ScatterDiv", "ScatterMin", "ScatterMax", "ResourceGather", "ResourceGatherNd",
    "ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterDiv",
    "ResourceScatterMin", "ResourceScatterMax", "ResourceScatterUpdate",
    # CTC loss and decoders.
    "CTCLoss", "CTCLossV2", "CTCGreedyDecoder", "CTCBeamSearchDecoder",
    # Gradient ops and matmul forms of the C++ gradient registry.
    "MirrorPadGrad", "LRNGrad", "BatchMatMulV3", "CropAndResizeGradImage",
    "CropAndResizeGradBoxes",
    # Fused recurrent cells (tf.contrib.rnn).
    "GRUBlockCell", "LSTMBlockCell", "BlockLSTM", "BlockLSTMV2", "GRUBlockCellGrad",
    "LSTMBlockCellGrad", "BlockLSTMGrad", "BlockLSTMGradV2",
    # Audio: WAV files, spectrograms, MFCCs.
    "DecodeWav", "EncodeWav", "AudioSpectrogram", "Mfcc",
    # Fractional pooling and its gradients.
    "FractionalMaxPool", "FractionalAvgPool", "FractionalMaxPoolGrad", "FractionalAvgPoolGrad",
]


def stripped(op_def):
  """Returns a copy of `op_def` without documentation or full-type annotations."""
  op = op_def_pb2.OpDef()
  op.CopyFrom(op_def)
  op.ClearField("summary")
  op.ClearField("description")
  op.ClearField("deprecation")
  for arg in list(op.input_arg) + list(op.output_arg):
    arg.ClearField("description")
    arg.ClearField("experimental_full_type")
  for attr in op.attr:
    attr.ClearField("description")
  return op


def main():
  op_list = op_def_pb2.OpList()
  for name in OPS:
    op_def = op_def_registry.get(name)
    if op_def is None:
      sys.exit(f"TensorFlow {tf.__version__} has no op named {name}")
    op_list.op.append(stripped(op_def))
  out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_op_defs.pbtxt")
  with open(out, "w") as f:
    f.write(f"# Generated by tests/op_defs/gen_tf_op_defs.py from TensorFlow {tf.__version__}.\n")
    f.write("# OpDefs of the ops Sluice's CPU kernels run; docs stripped. Do not edit.\n")
    f.write(str(op_list))
  print(f"wrote {len(op_list.op)} OpDefs to {out}")


if __name__ == "__main__":
  main()
