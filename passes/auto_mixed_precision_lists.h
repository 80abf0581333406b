// The four op lists that drive automatic mixed precision (passes/auto_mixed_precision.h), with
// TensorFlow's contents for each target:
//
//   allow  worth running in the low precision and safe there: matrix products and
//          convolutions. Always converted (when the node can be).
//   infer  safe in the low precision, but only worth it next to allow nodes, and made unsafe
//          by a deny node upstream (Add, BiasAdd, Mul, Tanh, Softmax...).
//   deny   numerically dangerous in the low precision, and so are the infer and clear nodes
//          downstream that only pass their values on (Exp, Pow, the cross entropies...).
//   clear  no numerical effect of their own (Identity, Reshape, Relu, MaxPool, ConcatV2...):
//          they take the precision of their neighbours.
//
// Float16Lists are TensorFlow's float16 lists for CUDA GPUs (AutoMixedPrecisionListsFp16 in
// its CUDA mode, for CUDA >= 9.1 and cuDNN >= 8, so BatchMatMul, Conv3D and the depthwise
// convolutions are allowed); Google-internal ops of that list are left out. Bfloat16Lists
// are TensorFlow's oneDNN bfloat16 lists for CPUs (AutoMixedPrecisionListsMkl): Mean and Sum
// are infer ops there, not deny.
//
// ApplyListOverrides edits a set of lists as TensorFlow's environment variables do:
// TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_<LIST>_ADD and ..._REMOVE, comma-separated op names,
// for LIST in ALLOWLIST, INFERLIST, DENYLIST, CLEARLIST (and the old names WHITELIST,
// GRAYLIST, BLACKLIST for the first three). ValidateLists: INVALID_ARGUMENT naming the ops
// that are on more than one list.
#ifndef SLUICE_PASSES_AUTO_MIXED_PRECISION_LISTS_H_
#define SLUICE_PASSES_AUTO_MIXED_PRECISION_LISTS_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace sluice {

struct MixedPrecisionLists {
  absl::flat_hash_set<std::string> allow;
  absl::flat_hash_set<std::string> infer;
  absl::flat_hash_set<std::string> deny;
  absl::flat_hash_set<std::string> clear;
};

MixedPrecisionLists Float16Lists();
MixedPrecisionLists Bfloat16Lists();

// `getenv` returns the value of an environment variable or null (std::getenv in the
// pipeline; tests pass their own).
void ApplyListOverrides(const std::function<const char*(const char*)>& getenv,
                        MixedPrecisionLists* lists);

absl::Status ValidateLists(const MixedPrecisionLists& lists);

}  // namespace sluice

#endif  // SLUICE_PASSES_AUTO_MIXED_PRECISION_LISTS_H_
