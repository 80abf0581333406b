// FuseContractions: TensorFlow's remapper for the CPU, restricted to the fusions that pay in
// inference graphs — a convolution or matrix product, the bias or batch normalization that
// follows it, and an activation become one `_FusedConv2D` / `_FusedDepthwiseConv2dNative` /
// `_FusedMatMul` node, so that the kernel applies them while the product is still in cache
// (oneDNN post-ops) instead of three passes over memory.
//
// Patterns (c → b → a, each consuming the previous one's output 0 as its input 0):
//   Conv2D → BiasAdd [→ act]           fused_ops ["BiasAdd"(, act)],        args [bias]
//   Conv2D → FusedBatchNorm(V3) [→ act] fused_ops ["FusedBatchNorm"(, act)], args [scale,
//            (is_training = false)       offset, mean, variance], epsilon from the norm
//   DepthwiseConv2dNative → BiasAdd [→ act]  (not with EXPLICIT padding)
//                                      → _FusedDepthwiseConv2dNative, args [bias]
//   MatMul → BiasAdd [→ act]           fused_ops ["BiasAdd"(, act)],        args [bias]
//   Conv2D → BiasAdd → Add/AddV2(·, r) [→ act]   fused_ops ["BiasAdd", "Add"(, act)],
//                                      args [bias, r] (a residual connection; BiasAdd's
//                                      output may be either operand of the add)
// with act one of Relu, Relu6, Elu, LeakyRelu (its alpha becomes leakyrelu_alpha) and, after
// MatMul only, Tanh and Sigmoid. BiasAdd's data_format must be the convolution's (NHWC for
// MatMul); the batch norm's too. A residual add is fused only when its two operands have the
// same inferred shape (dims equal, or the very same unknown dim), since the fused kernel does
// not broadcast; the pass infers the graph's shapes once, and only when such an add exists.
// Swish is not matched after a residual add (the fused kernels do not take that form).
//
// Swish (SiLU) after any of them becomes the activation "_FusedSwish" (TensorFlow's oneDNN
// builds use the same name): b's output feeds exactly a Sigmoid and a Mul of b by that
// Sigmoid, in either operand order, or — as Keras 3's silu writes it — Mul(1, b) → Sigmoid
// → Mul(b, ·), with the constant one a float/double scalar or one-element vector. The
// Sigmoid (and the Mul by one) are inner nodes, the final Mul is the chain's last node.
//
// A chain is fused only when every node in it is on the same assigned device, the inner
// nodes (c, and b when an activation follows) have that one consumer and no control
// consumers and are not in `protected_names`, batch norm's other outputs are unused, and
// `kernel_exists` says the fused node has a kernel on that device. The fused node takes the
// name, requested and assigned device, and consumers of the chain's last node (so fetches of
// it still resolve) and the union of the chain's control inputs.
//
// `*changed` is set to whether anything was fused. Errors: only internal ones (a graph that
// cannot take the new node). Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_REMAPPER_H_
#define SLUICE_PASSES_REMAPPER_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Graph;

struct RemapperOptions {
  // Node names that callers observe as inputs of the step (feeds) or whose intermediate
  // values they fetch; such nodes are never folded into a fusion's inside.
  absl::flat_hash_set<std::string> protected_names;
  // Whether a kernel for `node` exists on the device named `device`. Unset: nothing is fused.
  std::function<bool(const NodeDef& node, const std::string& device)> kernel_exists;
};

absl::Status FuseContractions(const RemapperOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_REMAPPER_H_
