// The op names of each list, as TensorFlow's grappler lists them (see the header for what
// each list means and which of TensorFlow's list sets each function reproduces).
#include "passes/auto_mixed_precision_lists.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

using Names = absl::Span<const char* const>;

// Matrix products and convolutions, in both targets.
constexpr const char* kAllowCommon[] = {
    "BatchMatMul",
    "BatchMatMulV2",
    "Conv2D",
    "Conv2DBackpropFilter",
    "Conv2DBackpropInput",
    "Conv3D",
    "Conv3DBackpropFilterV2",
    "Conv3DBackpropInputV2",
    "DepthwiseConv2dNative",
    "DepthwiseConv2dNativeBackpropFilter",
    "DepthwiseConv2dNativeBackpropInput",
    "Einsum",
    "MatMul",
};
// The recurrent cells cuDNN and the GPU kernels run fast in float16.
constexpr const char* kAllowFloat16Only[] = {
    "BlockLSTM",
    "BlockLSTMGrad",
    "BlockLSTMGradV2",
    "BlockLSTMV2",
    "Conv3DBackpropFilter",
    "Conv3DBackpropInput",
    "CudnnRNN",
    "CudnnRNNBackprop",
    "CudnnRNNBackpropV2",
    "CudnnRNNBackpropV3",
    "CudnnRNNV2",
    "CudnnRNNV3",
    "FusedConv2DBiasActivation",
    "GRUBlockCell",
    "GRUBlockCellGrad",
    "LSTMBlockCell",
    "LSTMBlockCellGrad",
};
constexpr const char* kAllowBfloat16Only[] = {
    "FusedPadConv2D",
};

constexpr const char* kInferCommon[] = {
    "Add",
    "AddN",
    "AddV2",
    "AvgPool",
    "AvgPool3D",
    "AvgPool3DGrad",
    "AvgPoolGrad",
    "BiasAdd",
    "BiasAddGrad",
    "BiasAddV1",
    "Elu",
    "EluGrad",
    "Erf",
    "Erfc",
    "FloorDiv",
    "FusedBatchNormGradV2",
    "FusedBatchNormGradV3",
    "FusedBatchNormV2",
    "FusedBatchNormV3",
    "Inv",
    "LeakyRelu",
    "LeakyReluGrad",
    "Log",
    "Log1p",
    "LogSoftmax",
    "Mul",
    "Prod",
    "RealDiv",
    "Reciprocal",
    "Selu",
    "SeluGrad",
    "Sigmoid",
    "SigmoidGrad",
    "Softmax",
    "Softplus",
    "SoftplusGrad",
    "Softsign",
    "SoftsignGrad",
    "Sqrt",
    "Sub",
    "Tanh",
    "TanhGrad",
    "_FusedBatchNormEx",
};
// oneDNN's bfloat16 reductions accumulate in float32, so Mean and Sum are safe there.
constexpr const char* kInferBfloat16Only[] = {
    "Mean", "Rsqrt", "Square", "SquaredDifference", "Sum",
};

constexpr const char* kDenyCommon[] = {
    "Exp",
    "Expm1",
    "L2Loss",
    "Pow",
    "SaveV2",
    "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits",
};
constexpr const char* kDenyFloat16Only[] = {"Mean", "Sum"};

constexpr const char* kClearCommon[] = {
    "Abs",
    "ArgMax",
    "ArgMin",
    "BatchToSpace",
    "BatchToSpaceND",
    "BroadcastTo",
    "Ceil",
    "CheckNumerics",
    "ClipByValue",
    "Concat",
    "ConcatV2",
    "DepthToSpace",
    "DynamicPartition",
    "DynamicStitch",
    "Enter",
    "EnsureShape",
    "Equal",
    "Exit",
    "ExpandDims",
    "Fill",
    "Floor",
    "Gather",
    "GatherNd",
    "GatherV2",
    "Greater",
    "GreaterEqual",
    "Identity",
    "IdentityN",
    "IsFinite",
    "IsInf",
    "IsNan",
    "Less",
    "LessEqual",
    "Max",
    "MaxPool",
    "MaxPool3D",
    "MaxPool3DGrad",
    "MaxPoolGrad",
    "MaxPoolGradGrad",
    "MaxPoolGradGradV2",
    "MaxPoolGradV2",
    "MaxPoolV2",
    "Maximum",
    "Merge",
    "Min",
    "Minimum",
    "MirrorPad",
    "MirrorPadGrad",
    "Neg",
    "NextIteration",
    "NotEqual",
    "OnesLike",
    "Pack",
    "Pad",
    "PadV2",
    "PreventGradient",
    "Rank",
    "Relu",
    "Relu6",
    "Relu6Grad",
    "ReluGrad",
    "Reshape",
    "ResizeNearestNeighbor",
    "ResizeNearestNeighborGrad",
    "Reverse",
    "ReverseSequence",
    "ReverseV2",
    "Round",
    "Select",
    "SelectV2",
    "Shape",
    "ShapeN",
    "Sign",
    "Slice",
    "Snapshot",
    "SpaceToBatch",
    "SpaceToBatchND",
    "SpaceToDepth",
    "Split",
    "SplitV",
    "Squeeze",
    "StopGradient",
    "StridedSlice",
    "StridedSliceGrad",
    "Switch",
    "Tile",
    "TopK",
    "TopKV2",
    "Transpose",
    "Unpack",
    "Where",
    "ZerosLike",
};
constexpr const char* kClearFloat16Only[] = {"MaxPool3DGradGrad", "OneHot", "Size"};
constexpr const char* kClearBfloat16Only[] = {"ResizeBilinear", "ScatterNd"};

absl::flat_hash_set<std::string> Union(Names a, Names b) {
  absl::flat_hash_set<std::string> out(a.begin(), a.end());
  out.insert(b.begin(), b.end());
  return out;
}

// Adds the names in the variable `add`, then removes those in `remove`.
void Edit(const std::function<const char*(const char*)>& getenv, const std::string& list,
          absl::flat_hash_set<std::string>* names) {
  const std::string prefix = absl::StrCat("TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_", list);
  const char* add = getenv(absl::StrCat(prefix, "_ADD").c_str());
  if (add != nullptr) {
    for (absl::string_view op : absl::StrSplit(add, ',', absl::SkipWhitespace())) {
      names->insert(std::string(op));
    }
  }
  const char* remove = getenv(absl::StrCat(prefix, "_REMOVE").c_str());
  if (remove != nullptr) {
    for (absl::string_view op : absl::StrSplit(remove, ',', absl::SkipWhitespace())) {
      names->erase(op);
    }
  }
}

}  // namespace

MixedPrecisionLists Float16Lists() {
  MixedPrecisionLists lists;
  lists.allow = Union(kAllowCommon, kAllowFloat16Only);
  lists.infer = Union(kInferCommon, {});
  lists.deny = Union(kDenyCommon, kDenyFloat16Only);
  lists.clear = Union(kClearCommon, kClearFloat16Only);
  return lists;
}

MixedPrecisionLists Bfloat16Lists() {
  MixedPrecisionLists lists;
  lists.allow = Union(kAllowCommon, kAllowBfloat16Only);
  lists.infer = Union(kInferCommon, kInferBfloat16Only);
  lists.deny = Union(kDenyCommon, {});
  lists.clear = Union(kClearCommon, kClearBfloat16Only);
  return lists;
}

void ApplyListOverrides(const std::function<const char*(const char*)>& getenv,
                        MixedPrecisionLists* lists) {
  // The old names first, as TensorFlow reads both.
  Edit(getenv, "ALLOWLIST", &lists->allow);
  Edit(getenv, "WHITELIST", &lists->allow);
  Edit(getenv, "INFERLIST", &lists->infer);
  Edit(getenv, "GRAYLIST", &lists->infer);
  Edit(getenv, "DENYLIST", &lists->deny);
  Edit(getenv, "BLACKLIST", &lists->deny);
  Edit(getenv, "CLEARLIST", &lists->clear);
}

absl::Status ValidateLists(const MixedPrecisionLists& lists) {
  const absl::flat_hash_set<std::string>* all[] = {&lists.allow, &lists.infer, &lists.deny,
                                                   &lists.clear};
  std::vector<std::string> repeated;
  for (int i = 0; i < 4; ++i) {
    for (const std::string& op : *all[i]) {
      for (int j = i + 1; j < 4; ++j) {
        if (all[j]->contains(op)) {
          repeated.push_back(op);
          break;
        }
      }
    }
  }
  if (repeated.empty()) return absl::OkStatus();
  std::sort(repeated.begin(), repeated.end());
  return errors::InvalidArgument("Ops on more than one mixed-precision list: ",
                                 absl::StrJoin(repeated, ", "));
}

}  // namespace sluice
