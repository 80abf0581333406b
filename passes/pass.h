// What a graph pass is: the one signature every transform in passes/ has.
//
//   absl::Status SomePass(const SomePassOptions& options, Graph* graph, bool* changed);
//
// Contract, for every pass:
//  - The pass rewrites `graph` in place. Its options carry everything else it reads (the names
//    callers observe, callbacks into the runtime, an evaluator); a pass has no global state.
//  - *changed is set to whether the graph changed: a node or edge added, removed or rewired, or
//    a node's op, attrs or device set. It is false when nothing changed, so the pipeline can
//    stop repeating its rounds.
//  - Errors are returned as a Status naming the node and op where one is at fault. Each pass's
//    header says whether an error can leave the graph partly transformed; the pipeline stops at
//    the first error either way.
//  - Passes are not thread-safe with respect to `graph`; callbacks in the options are called
//    from the calling thread only.
//
// Turning a Graph into one subgraph per device (passes/partition.h) is not a pass in this
// sense: it consumes the graph and produces GraphDefs, and ends the pipeline.
#ifndef SLUICE_PASSES_PASS_H_
#define SLUICE_PASSES_PASS_H_

#include "absl/status/status.h"

namespace sluice {

class Graph;

// A pass taking `Options`; pipeline.cc builds its table from these, so a pass of another
// shape does not compile there.
template <typename Options>
using GraphPass = absl::Status (*)(const Options& options, Graph* graph, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_PASS_H_
