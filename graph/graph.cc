// Graph, Node and Edge bookkeeping.
//
// Edge sets are vectors; each Edge remembers its index in its src's out-set and its dst's
// in-set, so erase swaps the last element into the hole (O(1), deterministic order). Each
// node's def().input() is rewritten on every edge change touching it: data input i lives
// at index i (num_inputs() slots, "" while unconnected), control inputs follow, sorted.
#include "graph/graph.h"

#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/core/errors.h"
#include "graph/op/graph_def_util.h"
#include "graph/shape/common_shape_fns.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace {

// _SOURCE and _SINK are NoOps whose OpDef does not come from the registry, so that a Graph
// works with any registry.
const OpDef& SourceSinkOpDef() {
  static const OpDef* const op_def = [] {
    auto* def = new OpDef;
    def->set_name("NoOp");
    return def;
  }();
  return *op_def;
}

std::string DataInputString(const Edge& e) {
  if (e.src_output() == 0) return e.src()->name();
  return absl::StrCat(e.src()->name(), ":", e.src_output());
}

// A removed node's NodeDef stays until the arena goes, which may be long after (a session's
// executors share the arena of the graph their partitions came from). Its tensors' bytes are
// what makes it large (a frozen model's weights): their heap buffers are released now.
void ReleaseTensorBytes(NodeDef* def) {
  auto release = [](TensorProto* tensor) { std::string().swap(*tensor->mutable_tensor_content()); };
  for (auto& [name, value] : *def->mutable_attr()) {
    if (value.has_tensor()) release(value.mutable_tensor());
    if (value.has_list()) {
      for (TensorProto& tensor : *value.mutable_list()->mutable_tensor()) release(&tensor);
    }
  }
}

// Edges touching _SOURCE or _SINK are structural and not part of any NodeDef.
bool ListedInDef(const Edge& e) { return e.src()->IsOp() && e.dst()->IsOp(); }

// Moves the last element of `inputs` left until the control inputs in [first, end) are
// sorted again.
void SiftLastControlInput(int first, google::protobuf::RepeatedPtrField<std::string>* inputs) {
  for (int i = inputs->size() - 1; i > first && inputs->Get(i) < inputs->Get(i - 1); --i) {
    inputs->SwapElements(i, i - 1);
  }
}

void EraseInputAt(int index, google::protobuf::RepeatedPtrField<std::string>* inputs) {
  inputs->DeleteSubrange(index, 1);
}

}  // namespace

// ---- Edge ---------------------------------------------------------------------------------

bool Edge::IsControlEdge() const { return src_output_ == Graph::kControlSlot; }

std::string Edge::DebugString() const {
  return absl::StrCat("[id=", id_, " ", src_->name(), ":", src_output_, " -> ", dst_->name(), ":",
                      dst_input_, "]");
}

// ---- Node ---------------------------------------------------------------------------------

Node::NodeClass Node::ClassForOp(absl::string_view op) {
  static const auto* const classes = new absl::flat_hash_map<std::string, NodeClass>{
      {"Const", kConstant},
      {"HostConst", kConstant},
      {"Placeholder", kPlaceholder},
      {"PlaceholderV2", kPlaceholder},
      {"Variable", kVariable},
      {"VariableV2", kVariable},
      {"Identity", kIdentity},
      {"RefIdentity", kIdentity},
      {"NoOp", kNoOp},
      {"_Send", kSend},
      {"_Recv", kRecv},
      {"_HostSend", kHostSend},
      {"_HostRecv", kHostRecv},
      {"Switch", kSwitch},
      {"RefSwitch", kSwitch},
      {"_SwitchN", kSwitch},
      {"Merge", kMerge},
      {"RefMerge", kMerge},
      {"Enter", kEnter},
      {"RefEnter", kEnter},
      {"Exit", kExit},
      {"RefExit", kExit},
      {"NextIteration", kNextIteration},
      {"RefNextIteration", kNextIteration},
      {"LoopCond", kLoopCond},
      {"ControlTrigger", kControlTrigger},
      {"_Arg", kArg},
      {"_DeviceArg", kArg},
      {"_Retval", kRetval},
      {"_DeviceRetval", kRetval},
  };
  auto it = classes->find(op);
  return it == classes->end() ? kOther : it->second;
}

void Node::set_name(std::string name) { graph_->Rename(this, std::move(name)); }

DataType Node::input_type(int i) const {
  CHECK(i >= 0 && i < num_inputs()) << "input " << i << " of node " << name();
  return input_types_[i];
}

DataType Node::output_type(int o) const {
  CHECK(o >= 0 && o < num_outputs()) << "output " << o << " of node " << name();
  return output_types_[o];
}

absl::Status Node::input_edge(int idx, const Edge** e) const {
  if (idx < 0 || idx >= num_inputs()) {
    return errors::InvalidArgument("Invalid input_edge index: ", idx, ", Node ", name(),
                                   " only has ", num_inputs(), " inputs.");
  }
  for (const Edge* edge : in_edges_) {
    if (edge->dst_input() == idx) {
      *e = edge;
      return absl::OkStatus();
    }
  }
  return errors::NotFound("Could not find input edge ", idx, " for ", name());
}

absl::Status Node::input_edges(std::vector<const Edge*>* edges) const {
  edges->assign(num_inputs(), nullptr);
  for (const Edge* edge : in_edges_) {
    if (!edge->IsControlEdge()) (*edges)[edge->dst_input()] = edge;
  }
  for (int i = 0; i < num_inputs(); ++i) {
    if ((*edges)[i] == nullptr) {
      edges->clear();
      return errors::NotFound("Missing edge input number: ", i, " of node ", name());
    }
  }
  return absl::OkStatus();
}

absl::Status Node::input_node(int idx, const Node** n) const {
  const Edge* e = nullptr;
  RETURN_IF_ERROR(input_edge(idx, &e));
  *n = e->src();
  return absl::OkStatus();
}

bool Node::IsControlFlow() const {
  return IsSwitch() || IsMerge() || IsEnter() || IsExit() || IsNextIteration();
}

std::string Node::DebugString() const {
  std::string out = absl::StrCat("{name:'", name(), "' id:", id_);
  if (IsSource()) return absl::StrCat(out, " source}");
  if (IsSink()) return absl::StrCat(out, " sink}");
  return absl::StrCat(out, " op:'", type_string(), "' device:{requested:'", requested_device(),
                      "', assigned:'", assigned_device_name_, "'} def:{", SummarizeNodeDef(*def_),
                      "}}");
}

// ---- Graph: nodes -------------------------------------------------------------------------

Graph::Graph(const OpRegistryInterface* ops, std::shared_ptr<google::protobuf::Arena> arena)
    : ops_(ops),
      library_ops_(ops, shape_inference::UnknownShape),
      arena_(arena != nullptr ? std::move(arena) : std::make_shared<google::protobuf::Arena>()) {
  versions_.set_producer(kGraphDefVersion);
  versions_.set_min_consumer(kGraphDefVersionMinConsumer);
  for (const char* name : {"_SOURCE", "_SINK"}) {
    NodeDef* def = google::protobuf::Arena::CreateMessage<NodeDef>(arena_.get());
    def->set_name(name);
    def->set_op("NoOp");
    AllocateNode(def, &SourceSinkOpDef(), {}, {});
  }
  AddControlEdge(source_node(), sink_node());
}

Graph::~Graph() {
  // Nodes and edges live on the arena; edges need no destructor.
  for (Node* n : nodes_) {
    if (n != nullptr) n->~Node();
  }
}

template <typename T>
T* Graph::NewOnArena() {
  return new (arena_->AllocateAligned(sizeof(T), alignof(T))) T;
}

template <typename T>
void Graph::DeleteOnArena(T* object) {
  object->~T();
  // The arena keeps the memory until the graph goes: let ASan still catch a use after removal.
  ASAN_POISON_MEMORY_REGION(object, sizeof(T));
}

NodeDef* Graph::AdoptNodeDef(NodeDef&& def) {
  NodeDef* adopted = google::protobuf::Arena::CreateMessage<NodeDef>(arena_.get());
  if (def.GetArena() == arena_.get()) {
    adopted->Swap(&def);
    return adopted;
  }
  // From elsewhere the message is copied, but for its tensors' bytes, which can be large (a
  // folded weight): they are std::strings on either side, so they move.
  std::vector<std::pair<std::string, std::string>> tensor_bytes;
  for (auto& [name, value] : *def.mutable_attr()) {
    if (value.has_tensor() && !value.tensor().tensor_content().empty()) {
      tensor_bytes.emplace_back(name, std::move(*value.mutable_tensor()->mutable_tensor_content()));
    }
  }
  adopted->CopyFrom(def);
  for (auto& [name, bytes] : tensor_bytes) {
    adopted->mutable_attr()->at(name).mutable_tensor()->mutable_tensor_content()->swap(bytes);
  }
  return adopted;
}

Node* Graph::AllocateNode(NodeDef* def, const OpDef* op_def, DataTypeVector inputs,
                          DataTypeVector outputs) {
  Node* node = NewOnArena<Node>();
  node->id_ = static_cast<int>(nodes_.size());
  node->graph_ = this;
  node->class_ = Node::ClassForOp(def->op());
  node->op_def_ = op_def;
  node->input_types_ = std::move(inputs);
  node->output_types_ = std::move(outputs);
  node->def_ = def;
  // Clearing keeps the input strings' storage, which the edges' inputs then reuse.
  def->clear_input();
  for (int i = 0; i < node->num_inputs(); ++i) def->add_input();
  names_[node->name()] = node;
  nodes_.push_back(node);
  ++num_nodes_;
  return node;
}

absl::StatusOr<Node*> Graph::AddNode(NodeDef node_def) {
  if (names_.contains(node_def.name())) {
    return errors::InvalidArgument("Node '", node_def.name(), "' is not unique");
  }
  const OpDef* op_def = nullptr;
  absl::Status s = library_ops_.LookUpOpDef(node_def.op(), &op_def);
  if (!s.ok()) return AttachDef(s, node_def);
  DataTypeVector inputs, outputs;
  RETURN_IF_ERROR(AttachDef(InOutTypesForNode(node_def, *op_def, &inputs, &outputs), node_def));
  return AllocateNode(AdoptNodeDef(std::move(node_def)), op_def, std::move(inputs),
                      std::move(outputs));
}

Node* Graph::CopyNode(const Node* node) {
  NodeDef* def = google::protobuf::Arena::CreateMessage<NodeDef>(arena_.get());
  def->CopyFrom(node->def());
  if (names_.contains(def->name())) def->set_name(NewName(def->name()));
  // A call of another graph's function keeps an OpDef that graph owns: take this graph's
  // own when it has the function, so the copy does not outlive what it points to.
  const OpDef* op_def = node->op_def_;
  const OpDef* own = nullptr;
  if (node->graph_ != this && node->graph_->IsFunction(def->op()) &&
      library_ops_.LookUpOpDef(def->op(), &own).ok()) {
    op_def = own;
  }
  Node* copy = AllocateNode(def, op_def, node->input_types_, node->output_types_);
  copy->assigned_device_name_ = node->assigned_device_name_;
  return copy;
}

void Graph::RemoveNode(Node* node) {
  CHECK(node != nullptr && node->graph_ == this && node->IsOp())
      << "RemoveNode needs an op node of this graph";
  // Edges into `node` need not update its own def, which is about to go.
  while (!node->in_edges_.empty()) RemoveEdgeInternal(node->in_edges_.edges_.back(), false);
  while (!node->out_edges_.empty()) RemoveEdgeInternal(node->out_edges_.edges_.back(), true);
  names_.erase(node->name());
  ReleaseTensorBytes(node->def_);
  nodes_[node->id_] = nullptr;
  --num_nodes_;
  DeleteOnArena(node);
}

void Graph::Rename(Node* node, std::string name) {
  if (name == node->name()) return;
  CHECK(!names_.contains(name)) << "Renaming node " << node->name() << " to " << name
                                << ", which another node of the graph holds";
  const std::string old_control = absl::StrCat("^", node->name());
  names_.erase(node->name());
  node->def_->set_name(std::move(name));
  names_[node->name()] = node;
  // Consumers spell this node's name in their inputs.
  for (Edge* e : node->out_edges_.edges_) {
    if (!ListedInDef(*e)) continue;
    if (e->IsControlEdge()) {
      Node* dst = e->dst();
      auto* inputs = dst->def_->mutable_input();
      for (int i = dst->num_inputs(); i < inputs->size(); ++i) {
        if (inputs->Get(i) == old_control) {
          EraseInputAt(i, inputs);
          break;
        }
      }
    }
    RecordInput(e);
  }
}

Node* Graph::FindNodeId(int id) const {
  if (id < 0 || id >= num_node_ids()) return nullptr;
  return nodes_[id];
}

const Edge* Graph::FindEdgeId(int id) const {
  if (id < 0 || id >= num_edge_ids()) return nullptr;
  return edges_[id];
}

Node* Graph::FindNodeByName(absl::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? nullptr : it->second;
}

std::string Graph::NewName(absl::string_view prefix) {
  while (true) {
    std::string name = absl::StrCat(prefix, "/_", name_counter_++);
    if (!names_.contains(name)) return name;
  }
}

// ---- Graph: edges -------------------------------------------------------------------------

const Edge* Graph::AddEdge(Node* source, int x, Node* dest, int y) {
  CHECK(source != nullptr && dest != nullptr && source->graph_ == this && dest->graph_ == this)
      << "AddEdge needs two nodes of this graph";
  CHECK_EQ(x == kControlSlot, y == kControlSlot)
      << "edge " << source->name() << ":" << x << " -> " << dest->name() << ":" << y
      << " mixes a control slot with a data slot";
  if (x != kControlSlot) {
    CHECK(x >= 0 && x < source->num_outputs())
        << "no output " << x << " on node " << source->name();
    CHECK(y >= 0 && y < dest->num_inputs()) << "no input " << y << " on node " << dest->name();
  }
  Edge* e = NewOnArena<Edge>();
  e->id_ = static_cast<int>(edges_.size());
  e->src_ = source;
  e->dst_ = dest;
  e->src_output_ = x;
  e->dst_input_ = y;
  e->out_pos_ = source->out_edges_.edges_.size();
  source->out_edges_.edges_.push_back(e);
  e->in_pos_ = dest->in_edges_.edges_.size();
  dest->in_edges_.edges_.push_back(e);
  edges_.push_back(e);
  ++num_edges_;
  if (ListedInDef(*e)) RecordInput(e);
  return e;
}

const Edge* Graph::AddControlEdge(Node* source, Node* dest, bool allow_duplicates) {
  if (!allow_duplicates) {
    for (const Edge* e : dest->in_edges_) {
      if (e->IsControlEdge() && e->src() == source) return nullptr;
    }
  }
  return AddEdge(source, kControlSlot, dest, kControlSlot);
}

void Graph::RemoveEdge(const Edge* e) {
  CHECK(e != nullptr && FindEdgeId(e->id()) == e) << "RemoveEdge needs an edge of this graph";
  RemoveEdgeInternal(edges_[e->id()], true);
}

void Graph::RemoveControlEdge(const Edge* e) {
  CHECK(e != nullptr && e->IsControlEdge()) << "RemoveControlEdge needs a control edge";
  RemoveEdge(e);
}

void Graph::RemoveEdgeInternal(Edge* e, bool update_dst_def) {
  if (update_dst_def && ListedInDef(*e)) ForgetInput(e);
  EdgeSet::Edges& out = e->src_->out_edges_.edges_;
  Edge* last_out = out.back();
  out[e->out_pos_] = last_out;
  last_out->out_pos_ = e->out_pos_;
  out.pop_back();
  EdgeSet::Edges& in = e->dst_->in_edges_.edges_;
  Edge* last_in = in.back();
  in[e->in_pos_] = last_in;
  last_in->in_pos_ = e->in_pos_;
  in.pop_back();
  edges_[e->id_] = nullptr;
  --num_edges_;
  DeleteOnArena(e);
}

absl::Status Graph::UpdateEdge(Node* new_src, int new_src_index, Node* dst, int dst_index) {
  if (new_src_index < 0 || new_src_index >= new_src->num_outputs()) {
    return errors::InvalidArgument("Node '", new_src->name(), "' (type: '", new_src->type_string(),
                                   "', num of outputs: ", new_src->num_outputs(),
                                   ") does not have output ", new_src_index);
  }
  if (dst_index < 0 || dst_index >= dst->num_inputs()) {
    return errors::InvalidArgument("Node '", dst->name(), "' (type: '", dst->type_string(),
                                   "', num of inputs: ", dst->num_inputs(),
                                   ") does not have input ", dst_index);
  }
  const Edge* old = nullptr;
  for (const Edge* e : dst->in_edges_) {
    if (e->dst_input() == dst_index) old = e;
  }
  if (old == nullptr) {
    return errors::InvalidArgument("Couldn't find edge to ", FormatNodeDefForError(dst->def()));
  }
  RemoveEdge(old);
  AddEdge(new_src, new_src_index, dst, dst_index);
  return absl::OkStatus();
}

void Graph::RecordInput(const Edge* e) {
  Node* dst = e->dst();
  auto* inputs = dst->def_->mutable_input();
  if (!e->IsControlEdge()) {
    *inputs->Mutable(e->dst_input()) = DataInputString(*e);
    return;
  }
  inputs->Add(absl::StrCat("^", e->src()->name()));
  SiftLastControlInput(dst->num_inputs(), inputs);
}

void Graph::ForgetInput(const Edge* e) {
  Node* dst = e->dst();
  auto* inputs = dst->def_->mutable_input();
  if (!e->IsControlEdge()) {
    if (inputs->Get(e->dst_input()) == DataInputString(*e))
      inputs->Mutable(e->dst_input())->clear();
    return;
  }
  const std::string spelled = absl::StrCat("^", e->src()->name());
  for (int i = dst->num_inputs(); i < inputs->size(); ++i) {
    if (inputs->Get(i) == spelled) {
      EraseInputAt(i, inputs);
      return;
    }
  }
}

// ---- Graph: library and export ------------------------------------------------------------

absl::Status Graph::AddFunctionLibrary(const FunctionDefLibrary& lib) {
  using google::protobuf::util::MessageDifferencer;
  // Work on a copy so that a failure leaves the library unchanged.
  FunctionDefLibrary merged = library_;
  for (const FunctionDef& fdef : lib.function()) {
    const std::string& name = fdef.signature().name();
    const OpDef* op_def = nullptr;
    if (ops_->LookUpOpDef(name, &op_def).ok()) {
      return errors::InvalidArgument("Cannot add function '", name,
                                     "' because an op with the same name already exists.");
    }
    const FunctionDef* existing = nullptr;
    for (const FunctionDef& have : merged.function()) {
      if (have.signature().name() == name) existing = &have;
    }
    if (existing == nullptr) {
      *merged.add_function() = fdef;
    } else if (!MessageDifferencer::Equals(*existing, fdef)) {
      return errors::InvalidArgument("Cannot add function '", name,
                                     "' because a different function with the same name "
                                     "already exists.");
    }
  }
  for (const GradientDef& grad : lib.gradient()) {
    const GradientDef* existing = nullptr;
    for (const GradientDef& have : merged.gradient()) {
      if (have.function_name() == grad.function_name()) existing = &have;
    }
    if (existing == nullptr) {
      *merged.add_gradient() = grad;
    } else if (existing->gradient_func() != grad.gradient_func()) {
      return errors::InvalidArgument(
          "Cannot assign gradient function '", grad.gradient_func(), "' to '", grad.function_name(),
          "' because it already has gradient function '", existing->gradient_func(), "'");
    }
  }
  library_ = std::move(merged);
  library_ops_.AddFunctions(library_);
  return absl::OkStatus();
}

void Graph::RestoreFunctionLibrary(FunctionDefLibrary library) {
  library_ = std::move(library);
  library_ops_.RetainOnly(library_);
}

void Graph::ToGraphDef(GraphDef* graph_def) const {
  graph_def->Clear();
  *graph_def->mutable_versions() = versions_;
  *graph_def->mutable_library() = library_;
  graph_def->mutable_node()->Reserve(num_op_nodes());
  for (const Node* node : op_nodes()) {
    NodeDef* out = graph_def->add_node();
    *out = node->def();
    if (node->has_assigned_device_name()) out->set_device(node->assigned_device_name());
  }
}

}  // namespace sluice
