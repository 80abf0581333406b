// Debug ops: what a tensor watch (proto/debug.proto) does with each value it sees.
//
// A spec names the op and may set attributes: "DebugNumericSummary(lower_bound=-1;
// mute_if_healthy=true)". The ops, and the attributes each accepts (the others of TensorFlow's
// OpDefs, such as tensor_name and device_name, are refused here):
//   DebugIdentity        the value itself                                  gated_grpc
//   DebugNanCount        int64 [1], its NaN count (debug_numerics.h)       gated_grpc
//   DebugNumericSummary  double [14 + ndims] (debug_numerics.h)            gated_grpc,
//                        lower_bound, upper_bound (floats),  mute_if_healthy: nothing is
//                        dumped when the value has no NaN and no infinity
// gated_grpc only matters to gRPC URLs, which Sluice does not serve; it is parsed and kept.
//
// Creating a watch's ops goes in TensorFlow's two steps, with its FAILED_PRECONDITION texts:
//  1. ParseDebugOpSpec, for every op of the watch (TensorFlow's Copy node): a malformed spec
//     ("DebugIdentity(", "Op(key)"), a repeated attribute or a gated_grpc that is not a bool
//     fails the Run whatever the watch's tolerate_debug_op_creation_failures says.
//  2. MakeDebugOp, op by op (TensorFlow's debug nodes): an unknown op, an attribute the op
//     does not have or whose value does not parse, and a dtype the op has no kernel for
//     (debug_numerics.h) fail; a watch that tolerates failures skips that op instead.
// Both run only for watches of tensors the Run computes, so a bad spec on a node that does
// not run is never seen, as in TensorFlow.
#ifndef SLUICE_RUNTIME_DEBUG_DEBUG_OP_H_
#define SLUICE_RUNTIME_DEBUG_DEBUG_OP_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/debug/debug_numerics.h"

namespace sluice {

// A spec split into its op name and attributes (in the order written).
struct DebugOpSpec {
  std::string spec;  // as the watch gave it
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  bool gated_grpc = false;
};

struct DebugOp {
  enum class Kind { kIdentity, kNanCount, kNumericSummary };
  Kind kind = Kind::kIdentity;
  // The op's name without attributes: dumps are filed under it.
  std::string name;
  bool gated_grpc = false;
  bool mute_if_healthy = false;
  NumericSummaryBounds bounds;
};

// Step 1 (see above) for the spec of one op watching `tensor_name` ("node:slot").
absl::Status ParseDebugOpSpec(const std::string& spec, const std::string& tensor_name,
                              DebugOpSpec* parsed);

// Step 2: the op at position `index` of the watch of `tensor_name`, a tensor of `dtype`.
absl::Status MakeDebugOp(const DebugOpSpec& spec, const std::string& tensor_name, int index,
                         DataType dtype, DebugOp* op);

// The op's value for `value` (a tensor of the dtype it was made for); false when nothing is
// to be dumped (a muted healthy summary).
bool ApplyDebugOp(const DebugOp& op, const Tensor& value, Tensor* out);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEBUG_DEBUG_OP_H_
