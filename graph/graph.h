// Graph: the in-memory dataflow graph that passes transform and executors run.
//
// A Graph owns its Nodes and Edges; they and its NodeDefs live on a protobuf arena (see
// arena() below for the ownership rules). Every Graph has two special nodes: _SOURCE (id 0)
// and _SINK (id 1), connected by a control edge; the importer gives each op node without
// inputs a control edge from _SOURCE and each one without outputs a control edge to _SINK
// (FixupSourceAndSinkEdges in algorithm.h), so that traversals have one root and one leaf.
// An Edge joins output `src_output` of `src` to input `dst_input` of `dst`; a control edge
// uses Graph::kControlSlot (-1) for both.
//
// Contracts:
//  - Ids are dense, assigned in creation order, and never reused after a removal, so a
//    vector indexed by id (size num_node_ids()) is a valid side table. The same holds for
//    edge ids.
//  - Node names are unique within a Graph. AddNode rejects a taken name; renaming a node to
//    a name another node holds is a programming error (CHECK).
//  - Node::def()'s input list always mirrors the node's in-edges: entry i is the producer of
//    data input i ("src" or "src:k"; "" while input i has no edge), followed by one "^src"
//    per control edge, sorted by name. Edges from _SOURCE and to _SINK are not listed. Edge
//    changes and renames keep it current, so def() can be printed or hashed at any time.
//  - in_edges()/out_edges() iterate in a deterministic order that depends only on the
//    sequence of edge additions and removals. Do not add or remove edges of a node while
//    iterating its edge sets: copy them first.
//  - Methods taking slot indices CHECK that they are in range (a programming error); the
//    importer validates user GraphDefs before it calls them.
//
// Thread safety: a const Graph may be read from many threads; any mutation needs exclusive
// access.
#ifndef SLUICE_GRAPH_GRAPH_H_
#define SLUICE_GRAPH_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/arena.h"
#include "graph/core/types.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/versions.pb.h"

namespace sluice {

class Edge;
class Graph;
class Node;
namespace import_internal {
class GraphConstructor;
}  // namespace import_internal

// The in- or out-edges of one node: a set with constant-time insert and erase (by
// position bookkeeping kept in the Edge) and deterministic iteration. Only Graph mutates it.
class EdgeSet {
 public:
  // Most nodes have one or two edges each way: those are kept inside the Node, in the same
  // space a std::vector would take.
  using Edges = absl::InlinedVector<Edge*, 2>;
  // Dereferences to an Edge*; Edge has no public mutators, so this reads as const Edge*.
  using const_iterator = Edges::const_iterator;

  const_iterator begin() const { return edges_.begin(); }
  const_iterator end() const { return edges_.end(); }
  size_t size() const { return edges_.size(); }
  bool empty() const { return edges_.empty(); }

 private:
  friend class Graph;
  Edges edges_;
};

class Edge {
 public:
  Node* src() const { return src_; }
  Node* dst() const { return dst_; }
  int id() const { return id_; }
  // The output of src() this edge carries; kControlSlot for a control edge.
  int src_output() const { return src_output_; }
  // The input of dst() this edge feeds; kControlSlot for a control edge.
  int dst_input() const { return dst_input_; }
  bool IsControlEdge() const;
  // "[id=3 a:0 -> b:1]".
  std::string DebugString() const;

 private:
  friend class Graph;
  Edge() = default;

  Node* src_ = nullptr;
  Node* dst_ = nullptr;
  int id_ = -1;
  int src_output_ = 0;
  int dst_input_ = 0;
  // Positions of this edge in src_->out_edges() and dst_->in_edges(), for O(1) erase.
  size_t out_pos_ = 0;
  size_t in_pos_ = 0;
};

class Node {
 public:
  int id() const { return id_; }
  const std::string& name() const { return def_->name(); }
  // Renames the node and rewrites the input strings of its consumers. REQUIRES: no other
  // node of the graph has `name`.
  void set_name(std::string name);

  const std::string& type_string() const { return def_->op(); }
  const NodeDef& def() const { return *def_; }
  // Valid for the lifetime of the registry that resolved it (ops are never removed).
  const OpDef& op_def() const { return *op_def_; }
  AttrSlice attrs() const { return AttrSlice(*def_); }

  // Flat input and output types, fixed when the node was added.
  int num_inputs() const { return static_cast<int>(input_types_.size()); }
  DataType input_type(int i) const;
  const DataTypeVector& input_types() const { return input_types_; }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DataType output_type(int o) const;
  const DataTypeVector& output_types() const { return output_types_; }

  // The device the NodeDef asks for (its `device` field), possibly partial or empty.
  const std::string& requested_device() const { return def_->device(); }
  void set_requested_device(const std::string& device) { def_->set_device(device); }
  // The full device name placement chose; empty until then.
  const std::string& assigned_device_name() const { return assigned_device_name_; }
  void set_assigned_device_name(const std::string& name) { assigned_device_name_ = name; }
  bool has_assigned_device_name() const { return !assigned_device_name_.empty(); }

  // Sets an attr (any value AddNodeAttr accepts). Types computed at AddNode are not
  // recomputed: changing an attr that types depend on is a programming error.
  template <typename T>
  void AddAttr(const std::string& name, const T& value) {
    AddNodeAttr(name, value, def_);
  }
  void ClearAttr(const std::string& name) { def_->mutable_attr()->erase(name); }
  // The node's own NodeDef, on the graph's arena, for a caller about to destroy the graph
  // that wants it without a copy (Partition of a graph it consumes). The caller may change
  // it; once it has, def() no longer describes the node, and nothing but destruction may
  // follow.
  NodeDef* ReleaseDefForDestruction() { return def_; }

  const EdgeSet& in_edges() const { return in_edges_; }
  const EdgeSet& out_edges() const { return out_edges_; }

  // The edge feeding data input `idx`. INVALID_ARGUMENT if idx is out of range, NOT_FOUND if
  // the input has no edge.
  absl::Status input_edge(int idx, const Edge** e) const;
  // The edges feeding all data inputs, by input index. NOT_FOUND if any input lacks an edge.
  absl::Status input_edges(std::vector<const Edge*>* edges) const;
  // The producer of data input `idx`; errors as input_edge.
  absl::Status input_node(int idx, const Node** n) const;

  bool IsSource() const { return id_ == 0; }
  bool IsSink() const { return id_ == 1; }
  // Neither _SOURCE nor _SINK.
  bool IsOp() const { return id_ > 1; }

  // Classes of op, by type name (Ref variants included, as TensorFlow's Node does).
  bool IsConstant() const { return class_ == kConstant; }
  bool IsPlaceholder() const { return class_ == kPlaceholder; }
  bool IsVariable() const { return class_ == kVariable; }
  bool IsIdentity() const { return class_ == kIdentity; }
  bool IsNoOp() const { return class_ == kNoOp; }
  bool IsSend() const { return class_ == kSend || class_ == kHostSend; }
  bool IsRecv() const { return class_ == kRecv || class_ == kHostRecv; }
  bool IsHostSend() const { return class_ == kHostSend; }
  bool IsHostRecv() const { return class_ == kHostRecv; }
  bool IsSwitch() const { return class_ == kSwitch; }
  bool IsMerge() const { return class_ == kMerge; }
  bool IsEnter() const { return class_ == kEnter; }
  bool IsExit() const { return class_ == kExit; }
  bool IsNextIteration() const { return class_ == kNextIteration; }
  bool IsLoopCond() const { return class_ == kLoopCond; }
  bool IsControlTrigger() const { return class_ == kControlTrigger; }
  bool IsArg() const { return class_ == kArg; }
  bool IsRetval() const { return class_ == kRetval; }
  // Switch, Merge, Enter, Exit or NextIteration (not LoopCond), as in TensorFlow.
  bool IsControlFlow() const;
  // From the OpDef's is_stateful flag.
  bool IsStateful() const { return op_def_->is_stateful(); }

  // "{name:'c' id:4 op:'Mul' device:{requested:'', assigned:''} def:{...}}".
  std::string DebugString() const;

  Graph* graph() const { return graph_; }

 private:
  friend class Graph;

  enum NodeClass {
    kOther,
    kConstant,
    kPlaceholder,
    kVariable,
    kIdentity,
    kNoOp,
    kSend,
    kRecv,
    kHostSend,
    kHostRecv,
    kSwitch,
    kMerge,
    kEnter,
    kExit,
    kNextIteration,
    kLoopCond,
    kControlTrigger,
    kArg,
    kRetval,
  };
  static NodeClass ClassForOp(absl::string_view op);

  Node() = default;

  int id_ = -1;
  Graph* graph_ = nullptr;
  // On the graph's arena: it lives as long as the arena, even after the node is removed.
  NodeDef* def_ = nullptr;
  const OpDef* op_def_ = nullptr;
  NodeClass class_ = kOther;
  DataTypeVector input_types_;
  DataTypeVector output_types_;
  std::string assigned_device_name_;
  EdgeSet in_edges_;
  EdgeSet out_edges_;
};

// Iterates the live entries of a Graph's node or edge table (skipping removed ids, and for
// op_nodes() also _SOURCE and _SINK), in id order. Invalidated by additions and removals.
template <typename T>
class GraphIterable {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T*;
    using difference_type = std::ptrdiff_t;
    using pointer = T**;
    using reference = T*;

    Iterator(const std::vector<T*>* items, size_t pos, bool ops_only)
        : items_(items), pos_(pos), ops_only_(ops_only) {
      Skip();
    }
    T* operator*() const { return (*items_)[pos_]; }
    Iterator& operator++() {
      ++pos_;
      Skip();
      return *this;
    }
    bool operator==(const Iterator& other) const { return pos_ == other.pos_; }
    bool operator!=(const Iterator& other) const { return pos_ != other.pos_; }

   private:
    void Skip() {
      while (pos_ < items_->size() && ((*items_)[pos_] == nullptr || (ops_only_ && pos_ < 2))) {
        ++pos_;
      }
    }
    const std::vector<T*>* items_;
    size_t pos_;
    bool ops_only_;
  };

  GraphIterable(const std::vector<T*>* items, bool ops_only) : items_(items), ops_only_(ops_only) {}
  Iterator begin() const { return Iterator(items_, 0, ops_only_); }
  Iterator end() const { return Iterator(items_, items_->size(), ops_only_); }

 private:
  const std::vector<T*>* items_;
  bool ops_only_;
};

using NodeIterable = GraphIterable<Node>;
using EdgeIterable = GraphIterable<Edge>;

class Graph {
 public:
  static constexpr int kControlSlot = -1;

  // Creates _SOURCE (id 0) and _SINK (id 1) and the control edge between them. `ops` must
  // outlive the graph; it resolves the op of every node added, and after it the functions of
  // the graph's library do (op_registry()). The graph allocates on
  // `arena` (shared with whoever else holds it), or on an arena of its own when it is null.
  explicit Graph(const OpRegistryInterface* ops,
                 std::shared_ptr<google::protobuf::Arena> arena = nullptr);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Adds a node for `node_def` without edges: node_def.input() is dropped (the caller adds
  // the edges, and def().input() follows them). The op is resolved in the registry and the
  // flat input and output types computed from the attrs, which must already hold every attr
  // the types depend on (defaults are not added here). Errors: NOT_FOUND for an unknown op
  // (the registry's message), INVALID_ARGUMENT for a name already in the graph
  // ("Node 'x' is not unique") or attrs that do not give types; each names the node.
  absl::StatusOr<Node*> AddNode(NodeDef node_def);
  // Adds a node with the op, attrs, requested and assigned device of `node` (which may
  // belong to another graph with the same registry), without edges. It keeps node's name
  // when that is free in this graph, and otherwise gets NewName(node->name()).
  Node* CopyNode(const Node* node);
  // Removes `node` and all its edges. REQUIRES: node is an op node of this graph.
  void RemoveNode(Node* node);

  // Adds an edge from output x of source to input y of dest (both kControlSlot for a control
  // edge). Does not check whether input y already has an edge.
  const Edge* AddEdge(Node* source, int x, Node* dest, int y);
  // Adds a control edge. Unless allow_duplicates, returns nullptr and adds nothing when the
  // edge already exists.
  const Edge* AddControlEdge(Node* source, Node* dest, bool allow_duplicates = false);
  // Removes an edge of this graph (data or control).
  void RemoveEdge(const Edge* e);
  // Removes a control edge. REQUIRES: e->IsControlEdge().
  void RemoveControlEdge(const Edge* e);
  // Replaces the edge feeding input dst_index of dst by one from output new_src_index of
  // new_src. INVALID_ARGUMENT if either index is out of range or the input has no edge.
  absl::Status UpdateEdge(Node* new_src, int new_src_index, Node* dst, int dst_index);

  // nullptr if no live node/edge has that id.
  Node* FindNodeId(int id) const;
  const Edge* FindEdgeId(int id) const;
  // nullptr if no node has that name. Constant time.
  Node* FindNodeByName(absl::string_view name) const;

  // One past the largest id ever assigned.
  int num_node_ids() const { return static_cast<int>(nodes_.size()); }
  int num_edge_ids() const { return static_cast<int>(edges_.size()); }
  // Live counts; num_nodes() includes _SOURCE and _SINK, num_edges() the edges touching them.
  int num_nodes() const { return num_nodes_; }
  int num_op_nodes() const { return num_nodes_ - 2; }
  int num_edges() const { return num_edges_; }

  Node* source_node() const { return nodes_[0]; }
  Node* sink_node() const { return nodes_[1]; }

  // Range-for over live Node* (all, or op nodes only) and const Edge*, in id order.
  NodeIterable nodes() const { return NodeIterable(&nodes_, false); }
  NodeIterable op_nodes() const { return NodeIterable(&nodes_, true); }
  EdgeIterable edges() const { return EdgeIterable(&edges_, false); }

  // Resolves ops as TensorFlow's FunctionLibraryDefinition does: the registry the graph was
  // made with, then the functions of library() by name, whose OpDef is their signature. A
  // node whose op is a function's name calls it (it has the signature's inputs and outputs;
  // its shape function gives unknown output shapes); LowerFunctionalOps (passes/) inlines
  // such calls before a graph runs.
  const OpRegistryInterface* op_registry() const { return &library_ops_; }
  // Whether `op` names a function of library() (rather than an op of the base registry).
  bool IsFunction(absl::string_view op) const { return library_ops_.IsFunction(op); }

  // The arena that holds the graph's NodeDefs. They are many small objects: allocating them
  // together makes building, walking and destroying a graph cheaper, and a GraphDef parsed
  // onto this arena (google::protobuf::Arena::CreateMessage<GraphDef>(graph.arena())) and
  // moved into ConvertGraphDefToGraph gives the graph its NodeDefs without copying them.
  // Memory taken from it is released only when the arena goes: with the graph, unless
  // someone else shares it (shared_arena()), as the partitions of a consumed graph do.
  google::protobuf::Arena* arena() const { return arena_.get(); }
  const std::shared_ptr<google::protobuf::Arena>& shared_arena() const { return arena_; }

  const FunctionDefLibrary& library() const { return library_; }
  // Adds the functions and gradients of `lib`, and makes op_registry() resolve the new
  // functions. A function named like an op of the base registry, or a function or gradient
  // already present with a different definition, is INVALID_ARGUMENT (and nothing is added);
  // an identical one is skipped.
  absl::Status AddFunctionLibrary(const FunctionDefLibrary& lib);

  const VersionDef& versions() const { return versions_; }
  void set_versions(const VersionDef& versions) { versions_ = versions; }

  // Writes the op nodes in id order, with inputs regenerated from the edges (data inputs by
  // index, then "^ctrl" sorted by name) and the device set to the assigned device when there
  // is one (else the requested device), plus the versions and library.
  void ToGraphDef(GraphDef* graph_def) const;
  // "prefix/_N", unique within the graph.
  std::string NewName(absl::string_view prefix);

 private:
  friend class Node;
  friend class import_internal::GraphConstructor;

  // Puts back a library the graph had before (the importer undoing a failed import, which
  // has removed the nodes that called the functions now dropped).
  void RestoreFunctionLibrary(FunctionDefLibrary library);
  // AddNode for a NodeDef the importer has validated: `op_def` is its op and `inputs` and
  // `outputs` its flat types (ValidateNodeDef computed them). REQUIRES: the name is free,
  // and `node_def` is on arena().
  Node* AddValidatedNode(NodeDef* node_def, const OpDef* op_def, DataTypeVector inputs,
                         DataTypeVector outputs) {
    return AllocateNode(node_def, op_def, std::move(inputs), std::move(outputs));
  }
  // A NodeDef on arena() with `def`'s contents: `def` itself swapped in when it is on
  // arena(), else a copy whose tensors' bytes are moved from `def` rather than copied.
  NodeDef* AdoptNodeDef(NodeDef&& def);
  // REQUIRES: `def` is on arena().
  Node* AllocateNode(NodeDef* def, const OpDef* op_def, DataTypeVector inputs,
                     DataTypeVector outputs);
  // Nodes and edges are made on the arena, in creation order, so that walks over a graph
  // read memory that lies together.
  template <typename T>
  T* NewOnArena();
  template <typename T>
  void DeleteOnArena(T* object);
  void RemoveEdgeInternal(Edge* e, bool update_dst_def);
  // Keep the dst's def().input() in step with its in-edges.
  void RecordInput(const Edge* e);
  void ForgetInput(const Edge* e);
  void Rename(Node* node, std::string name);

  const OpRegistryInterface* ops_;
  // ops_, then the functions of library_.
  LibraryOpRegistry library_ops_;
  // Declared first so that it outlives everything that points into it.
  std::shared_ptr<google::protobuf::Arena> arena_;
  // Owned, by id; nullptr once removed (and deleted).
  std::vector<Node*> nodes_;
  std::vector<Edge*> edges_;
  // Keyed by views of the nodes' own names (a NodeDef outlives its node, and a rename
  // re-keys the node before its name changes).
  absl::flat_hash_map<absl::string_view, Node*> names_;
  int num_nodes_ = 0;
  int num_edges_ = 0;
  int64_t name_counter_ = 0;
  VersionDef versions_;
  FunctionDefLibrary library_;
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_GRAPH_H_
