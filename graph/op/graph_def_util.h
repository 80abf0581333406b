// Whole-GraphDef checks and rewrites against an op registry, and GraphDef version checks.
//
// These work node by node, as TensorFlow's graph_def_util does: they check each NodeDef
// against its OpDef but not the graph's structure (duplicate names, dangling inputs, cycles),
// which is the importer's job. Errors name the node and its op. Nodes whose op is a function
// of the GraphDef's own library are reported as UNIMPLEMENTED: Sluice does not run functions
// yet.
//
// All functions are thread-compatible: they read the registry (itself thread-safe) and
// mutate only the GraphDef they are given.
#ifndef SLUICE_GRAPH_OP_GRAPH_DEF_UTIL_H_
#define SLUICE_GRAPH_OP_GRAPH_DEF_UTIL_H_

#include "absl/status/status.h"
#include "google/protobuf/repeated_field.h"
#include "graph/op/op_registry.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"
#include "proto/versions.pb.h"

namespace sluice {

// GraphDef versions, with TensorFlow's meaning (tensorflow/core/public/version.h):
//  - kGraphDefVersion: the version Sluice produces and consumes. It equals TensorFlow 2.21's
//    TF_GRAPH_DEF_VERSION, so Sluice reads whatever TensorFlow up to 2.21 reads.
//  - kGraphDefVersionMinConsumer: the oldest consumer able to read graphs Sluice writes.
//  - kGraphDefVersionMinProducer: the oldest producer whose graphs Sluice reads. TensorFlow
//    still reads graphs of producer 0, and so does Sluice.
inline constexpr int kGraphDefVersion = 2474;
inline constexpr int kGraphDefVersionMinConsumer = 0;
inline constexpr int kGraphDefVersionMinProducer = 0;

// OK if a GraphDef with these versions may be consumed by Sluice: producer >= the minimum
// producer, min_consumer <= kGraphDefVersion, and kGraphDefVersion not in bad_consumers.
// INVALID_ARGUMENT otherwise, worded as TensorFlow words it:
//   "GraphDef producer version -1 below min producer 0 supported by Sluice.  Please
//    regenerate your graph."
//   "GraphDef min consumer version 3000 above current version 2474 for Sluice.  Please
//    upgrade Sluice."
//   "GraphDef disallows consumer version 2474.  Please upgrade Sluice: this version is likely
//    buggy."
absl::Status CheckGraphDefVersions(const VersionDef& versions);

// Checks every node of `graph_def`: its name and inputs are well formed
// (ValidateExternalNodeDefSyntax), its op is in `registry`, and, once the op's default attrs
// are filled in on a copy, it satisfies ValidateNodeDef. Stops at the first failure:
// INVALID_ARGUMENT or NOT_FOUND (unknown op), with the node and op named.
absl::Status ValidateGraphDefAgainstOpRegistry(const GraphDef& graph_def,
                                               const OpRegistryInterface& registry);

// Adds, to each node from index `node_offset` on, the default-valued attrs its OpDef
// declares and the node lacks. INVALID_ARGUMENT if node_offset is negative or past the
// end; the registry's NOT_FOUND (with the node named) for an unknown op. Nodes before the
// failing one keep their added defaults.
absl::Status AddDefaultAttrsToGraphDef(GraphDef* graph_def, const OpRegistryInterface& registry,
                                       int node_offset = 0);

// The inverse: removes from each node every attr whose value equals its OpDef's default,
// which is how TensorFlow keeps graphs readable by consumers that predate an attr. Nodes
// of ops unknown to `registry` are left alone, so this cannot fail.
void StripDefaultAttributes(const OpRegistryInterface& registry,
                            google::protobuf::RepeatedPtrField<NodeDef>* nodes);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_GRAPH_DEF_UTIL_H_
