// GraphPartitions: the per-device GraphDefs that Partition makes of one graph.
//
// The GraphDefs live on an arena that the container shares. When Partition consumes the
// graph, that is the graph's own arena, so each node's NodeDef becomes its partition's
// without a copy; a graph importing a partition on the same arena (Graph's constructor
// takes it) then takes the NodeDefs over in turn. Otherwise the container has an arena of
// its own. The GraphDefs stay valid while the container lives; moving the container keeps
// them where they are.
#ifndef SLUICE_PASSES_GRAPH_PARTITIONS_H_
#define SLUICE_PASSES_GRAPH_PARTITIONS_H_

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>

#include "google/protobuf/arena.h"
#include "proto/graph.pb.h"

namespace sluice {

class GraphPartitions {
 public:
  using Map = std::unordered_map<std::string, GraphDef*>;

  // Empty, on an arena of its own.
  GraphPartitions();
  // Move-only: a copy would share the GraphDefs, not copy them.
  GraphPartitions(GraphPartitions&&) = default;
  GraphPartitions& operator=(GraphPartitions&&) = default;
  GraphPartitions(const GraphPartitions&) = delete;
  GraphPartitions& operator=(const GraphPartitions&) = delete;

  // Drops every partition and continues on `arena` (a new one of its own when null).
  void Reset(std::shared_ptr<google::protobuf::Arena> arena = nullptr);

  size_t size() const { return graphs_.size(); }
  bool empty() const { return graphs_.empty(); }
  // The partition of `device` (a full device name); nullptr if it has none.
  GraphDef* Find(const std::string& device) const;
  // The partition of `device`. REQUIRES (CHECK): there is one.
  const GraphDef& at(const std::string& device) const;
  // The partition of `device`, made empty on the arena if there was none.
  GraphDef* GetOrAdd(const std::string& device);
  // Forgets the partition of `device`; its messages stay on the arena.
  void Erase(const std::string& device) { graphs_.erase(device); }

  // Device full name -> partition, in no particular order.
  const Map& graphs() const { return graphs_; }
  google::protobuf::Arena* arena() const { return arena_.get(); }
  const std::shared_ptr<google::protobuf::Arena>& shared_arena() const { return arena_; }

 private:
  // Declared first, so that it outlives the pointers into it.
  std::shared_ptr<google::protobuf::Arena> arena_;
  Map graphs_;
};

}  // namespace sluice

#endif  // SLUICE_PASSES_GRAPH_PARTITIONS_H_
