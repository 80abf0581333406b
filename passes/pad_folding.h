// FoldPadIntoConvolutions: a convolution whose input is zero-padded by a Pad just before it
// pads that input itself, so the padded copy of the activation is never written. Keras emits
// such pairs for every stride-2 convolution whose padding it corrects by hand
// (`ZeroPadding2D` then `padding='valid'`: MobileNetV2, EfficientNet, ResNet's stem).
//
// Pattern: p = Pad(x, paddings) or PadV2(x, paddings, 0) → c = Conv2D | DepthwiseConv2dNative
// (p's output 0 at c's input 0), with
//   - paddings a Const of shape [4, 2], int32 or int64, non-negative, zero along the batch
//     and channel dims of c's data_format (NHWC or NCHW); PadV2's constant a zero Const;
//   - c's padding VALID, or (Conv2D only) EXPLICIT;
//   - p with that one consumer, no control consumers, not protected, on c's device.
// Rewrite: c reads x directly and
//   - Conv2D takes padding EXPLICIT with p's spatial paddings added to its own;
//   - DepthwiseConv2dNative takes padding SAME when p's paddings are exactly what SAME would
//     pad for x's spatial size (inferred from the graph; it must be known), c's filter size,
//     strides and dilations. Otherwise it is left alone: TensorFlow's fused depthwise
//     convolution, which the remapper makes next, has no EXPLICIT padding.
// p is removed (its control inputs move to c), and its paddings or constant Const too when
// nothing else reads it. Results are bit-identical: the convolution pads with the same zeros.
//
// `*changed` says whether anything was folded. Errors: none but internal ones (shape
// inference failures only mean a depthwise pad is not folded). Not thread-safe w.r.t. `g`.
#ifndef SLUICE_PASSES_PAD_FOLDING_H_
#define SLUICE_PASSES_PAD_FOLDING_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace sluice {

class Graph;

struct PadFoldingOptions {
  // Fed, fetched or targeted node names: never folded away.
  absl::flat_hash_set<std::string> protected_names;
};

absl::Status FoldPadIntoConvolutions(const PadFoldingOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_PAD_FOLDING_H_
