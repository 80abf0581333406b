// AutoMixedPrecision: TensorFlow's auto-mixed-precision graph rewrite (grappler's
// AutoMixedPrecision optimizer) as a pass. Matrix products and convolutions, and the nodes
// around them that it pays to keep in the same precision, run in a 16-bit float type:
//   - float16 on the nodes assigned to GPU devices, when `float16_on_gpu` is set
//     (RewriterConfig.auto_mixed_precision);
//   - bfloat16 on the nodes assigned to CPU devices, when `bfloat16_on_cpu` is set
//     (RewriterConfig.auto_mixed_precision_onednn_bfloat16, formerly _mkl).
// With both set, float16 on GPUs is decided and applied first, then bfloat16 on CPUs.
//
// What is decided, per target (TensorFlow's algorithm; the lists and what they mean are in
// passes/auto_mixed_precision_lists.h; docs/mixed_precision.md walks through it). The unit is
// a node's type attr, not the node: a FusedBatchNormV3 can take T = half and keep U = float.
// Only type attrs whose value is float32 are ever changed. A node is a candidate when it is
// assigned to (else requests) a device of the target's type and is not in `protected_names`
// (fed, fetched, targeted or watched nodes keep every dtype, as TensorFlow preserves them); a
// type attr of a candidate can change when the op allows the low type for it and
// `kernel_exists` says the node with it changed has a kernel on its device (and the node has no
// reference-typed argument).
//   1. Allow-list nodes whose type attr can change are painted allow.
//   2. Deny spreads forward from every deny-list node through the infer- and clear-list nodes
//      that lead (through clear nodes) to a deny or infer node.
//   3. Clear and infer nodes that lie on a path from one allow node to another (through
//      clear and infer nodes only) and are not denied become allow.
//   4. (bfloat16 only) An infer node that is fed by an allow node and by no denied one
//      becomes allow.
//   5. Allow spreads from allow nodes through clear-list nodes, both ways, except past a
//      denied node or an Identity/Enter reading a non-resource variable.
//   6. A NextIteration and the Merges it feeds end up the same: all allow, or none.
//   7. An existing Cast to float32 whose consumers are all allow casts to the low type
//      instead.
// Then the allow type attrs are set to the low type and a `Cast` (SrcT, DstT, Truncate =
// false) is put on every data edge whose two ends now differ: float32 -> low into an allow
// input, low -> float32 out of one. One Cast serves all the consumers of one output that need
// the same type; it is named "<producer>/CastToFp16/_N" (CastToBf16, CastToFp32), requested
// and assigned to the producer's device when that device has a kernel for it, else to the
// first consumer's. Nodes keep their names; a retyped node is rebuilt (new id) with the same
// edges, requested and assigned device.
//
// Guarantees: a fetched or fed tensor keeps its dtype (its node is never retyped, and a Cast
// back to float32 is put before any float32 consumer, _Retval and _Send included); nothing
// changes when neither target is set, when no allow-list node can change, or when
// `kernel_exists` is unset.
//
// Differences from TensorFlow, on purpose: an allow-list node is painted only if its kernel
// exists for the low type (TensorFlow checks only the op's type constraint, and fails at run
// time); the allow nodes found in step 1 (not every allow-list node) are the ends of step 3's
// paths; a NextIteration feeding anything but Merges is left float32 (TensorFlow fails).
// Not done: TensorList clusters (their ops are on no list here, so they stay float32 and
// Casts go around them), FusedBatchNorm (v1) -> V2 conversion, the CPU float16 modes, and
// TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_LEVEL. Functional control flow is lowered before this
// pass runs in the pipeline, so loop and branch bodies are rewritten like any other nodes.
//
// `*changed` is set to whether any node was retyped or Cast added. Errors: INVALID_ARGUMENT
// when the lists share an op (ValidateLists); internal ones from a graph that cannot take
// a rebuilt node or Cast, which may leave the graph partly rewritten. Not thread-safe with
// respect to `g`; `kernel_exists` is called from the calling thread only.
#ifndef SLUICE_PASSES_AUTO_MIXED_PRECISION_H_
#define SLUICE_PASSES_AUTO_MIXED_PRECISION_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "passes/auto_mixed_precision_lists.h"
#include "proto/node_def.pb.h"

namespace sluice {

class Graph;

struct AutoMixedPrecisionOptions {
  // float16 on nodes assigned to GPU devices.
  bool float16_on_gpu = false;
  // bfloat16 on nodes assigned to CPU devices.
  bool bfloat16_on_cpu = false;
  // The lists for each target (ApplyListOverrides may have edited them).
  MixedPrecisionLists float16_lists = Float16Lists();
  MixedPrecisionLists bfloat16_lists = Bfloat16Lists();
  // Fed, fetched, targeted and watched nodes: never retyped.
  absl::flat_hash_set<std::string> protected_names;
  // Whether a kernel for `node` exists on the device named `device` (a full name). Unset:
  // nothing changes.
  std::function<bool(const NodeDef& node, const std::string& device)> kernel_exists;
};

absl::Status AutoMixedPrecision(const AutoMixedPrecisionOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_AUTO_MIXED_PRECISION_H_
