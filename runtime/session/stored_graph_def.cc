#include "runtime/session/stored_graph_def.h"

#include <cstddef>
#include <limits>
#include <utility>

#include "graph/import/graph_def_io.h"

namespace sluice {

namespace {

// The wire format of `graph` in *bytes; false for a graph over protobuf's 2 GiB limit.
bool SerializeWithinLimit(const GraphDef& graph, std::string* bytes) {
  if (graph.ByteSizeLong() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !graph.SerializeToString(bytes)) {
    bytes->clear();
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<const StoredGraphDef> StoredGraphDef::Take(GraphDef&& graph) {
  std::unique_ptr<StoredGraphDef> stored(new StoredGraphDef());
  stored->node_count_ = graph.node_size();
  if (!SerializeWithinLimit(graph, &stored->bytes_)) {
    stored->parsed_ = std::make_unique<GraphDef>();
    stored->parsed_->Swap(&graph);
    return stored;
  }
  // Swapped with an empty message rather than cleared: Clear keeps the nodes' memory for
  // reuse, and the point is to give it back.
  GraphDef().Swap(&graph);
  return stored;
}

std::unique_ptr<const StoredGraphDef> StoredGraphDef::Copy(const GraphDef& graph) {
  std::unique_ptr<StoredGraphDef> stored(new StoredGraphDef());
  stored->node_count_ = graph.node_size();
  if (!SerializeWithinLimit(graph, &stored->bytes_)) {
    stored->parsed_ = std::make_unique<GraphDef>(graph);
  }
  return stored;
}

absl::Status StoredGraphDef::ParseOnto(google::protobuf::Arena* arena, GraphDef** graph) const {
  *graph = google::protobuf::Arena::CreateMessage<GraphDef>(arena);
  if (parsed_ != nullptr) {
    (*graph)->CopyFrom(*parsed_);
    return absl::OkStatus();
  }
  return ParseBinaryProto(bytes_, *graph);
}

absl::Status StoredGraphDef::Parse(GraphDef* graph) const {
  if (parsed_ != nullptr) {
    *graph = *parsed_;
    return absl::OkStatus();
  }
  return ParseBinaryProto(bytes_, graph);
}

}  // namespace sluice
