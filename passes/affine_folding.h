// FoldAffineIntoContractions: folds the per-channel scale and shift that follow a
// convolution or matrix product with a constant filter into the filter and a bias, so that
// batch normalization frozen as arithmetic (Keras emits `x * (gamma * rsqrt(var + eps))`
// then `+ (beta - mean * scale)`) costs nothing at run time and the remapper can fuse what
// is left (contraction → BiasAdd → activation) into one kernel.
//
// Pattern, each node consuming the previous one's output 0 (either operand for Mul/Add):
//   c = Conv2D | DepthwiseConv2dNative | MatMul   (filter input a float Const; NHWC)
//   [→ BiasAdd(c, b)]                               (b a Const, NHWC)
//   [→ Mul(·, s)]                                   (s a Const)
//   [→ Add | AddV2(·, t)]                           (t a Const)
// with at least one Mul or Add, where s and t are per-output-channel: one element, or C
// elements in shape [C] or [1, ..., 1, C] of rank at most the contraction's output rank.
// Rewrite: c reads filter W·s (scaled along its output channels) and the chain's last node
// becomes BiasAdd(c, b·s + t) under the last node's name, with its consumers and the union of
// the chain's control inputs. Float32 only. Inner nodes must have that one consumer, no
// control consumers, and not be protected; every node must be on the same device. The
// arithmetic is reassociated (conv(x, W·s) instead of conv(x, W)·s), which changes float
// results in the last bits, as TensorFlow's own folding of constants into convolutions does.
//
// `*changed` says whether anything was folded. Errors: malformed Const values (a Const whose
// value does not parse) are INVALID_ARGUMENT naming the node. Not thread-safe w.r.t. `g`.
#ifndef SLUICE_PASSES_AFFINE_FOLDING_H_
#define SLUICE_PASSES_AFFINE_FOLDING_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace sluice {

class Graph;

struct AffineFoldingOptions {
  // Fed, fetched or targeted node names: never folded away.
  absl::flat_hash_set<std::string> protected_names;
};

absl::Status FoldAffineIntoContractions(const AffineFoldingOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_AFFINE_FOLDING_H_
