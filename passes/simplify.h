// SimplifyGraph: removes forwarding nodes (Identity, StopGradient, PreventGradient,
// IdentityN) and NoOps that nothing observes by name, keeping every data value and every
// control dependency. (Keras wraps each custom-gradient activation in an IdentityN, which
// would otherwise hide its producers' real consumers from the remapper.)
//
// A removable node n is bypassed as follows:
//   - a forwarding node's data consumers read its input tensor directly; its control
//     consumers get a control edge from that input's producer;
//   - every consumer of n (data or control) gets a control edge from each of n's control
//     inputs, so whatever had to run before n still runs before n's consumers.
// A control edge is not added where the consumer already has an edge from that producer.
//
// An IdentityN is bypassed (consumers of its output k read its input k) only when it has no
// control inputs or control consumers, under the same device/ref/Switch/_Recv rules.
//
// A node is kept when:
//   - its name is in `protected_names` (fetched, fed, targeted);
//   - bypassing it would add edges: (#inputs * #consumers) > (#inputs + #consumers), counting
//     data and control inputs and distinct consumers, the bound TensorFlow's dependency
//     optimizer uses; or bypassing it would add device-crossing edges;
//   - for a forwarding node: its input is ref-typed; its input comes from a Switch (the node
//     pins one branch) or a _Recv; its input's producer is on another device (the node
//     is a copy between devices). "Device" is the assigned device, else the requested one;
//   - it has control inputs and a consumer is a Merge (dead-tensor semantics would change).
// Nodes are visited in topological order, so chains of removable nodes collapse in one call.
// Source and sink edges are fixed up when anything was removed.
//
// Names outside `protected_names` are taken to be unobserved: such a node with no consumers
// is simply removed.
//
// `*changed` is set to whether any node was removed. Always returns OK (the Status keeps the
// signature the pipeline runs passes with). Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_SIMPLIFY_H_
#define SLUICE_PASSES_SIMPLIFY_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace sluice {

class Graph;

struct SimplifyOptions {
  // Node names that callers observe (fetches, feeds, targets); such nodes are never removed.
  absl::flat_hash_set<std::string> protected_names;
};

absl::Status SimplifyGraph(const SimplifyOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_SIMPLIFY_H_
