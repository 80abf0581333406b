// The GraphDef a session accumulates through Create and Extend, held compactly until a build
// or an Extend needs it parsed.
//
// A parsed GraphDef takes about ten times its wire size (a NodeDef, its strings, its attr
// map, each an allocation), and a session holds its GraphDef for its whole life while the
// first build already has a converted Graph (direct_session.h). So the graph is kept
// serialized, and parsed again when a later signature is built or Extend merges into it: a
// one-million-node graph costs 43 MB instead of about 500 MB. A GraphDef too big for the wire
// format (over 2 GiB serialized) is kept parsed instead.
//
// Immutable once made; shared by builds in progress (std::shared_ptr<const StoredGraphDef>).
#ifndef SLUICE_RUNTIME_SESSION_STORED_GRAPH_DEF_H_
#define SLUICE_RUNTIME_SESSION_STORED_GRAPH_DEF_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "google/protobuf/arena.h"
#include "proto/graph.pb.h"

namespace sluice {

class StoredGraphDef {
 public:
  // Takes `graph` over; it is left empty, its memory released.
  static std::unique_ptr<const StoredGraphDef> Take(GraphDef&& graph);
  // Stores a copy of `graph`.
  static std::unique_ptr<const StoredGraphDef> Copy(const GraphDef& graph);

  // A copy of the graph, allocated on `arena` (never null): a Graph on that arena takes its
  // nodes without copying them again (graph/import/graph_constructor.h). DATA_LOSS only if
  // the stored bytes no longer parse, which would be a bug here.
  absl::Status ParseOnto(google::protobuf::Arena* arena, GraphDef** graph) const;
  // A copy of the graph in *graph.
  absl::Status Parse(GraphDef* graph) const;

  int node_count() const { return node_count_; }

 private:
  StoredGraphDef() = default;

  std::string bytes_;                 // the wire format, unless parsed_ is set
  std::unique_ptr<GraphDef> parsed_;  // a graph too big to serialize
  int node_count_ = 0;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_STORED_GRAPH_DEF_H_
