// Automatic mixed precision (see the header for the contract).
//
// Algorithm: build a "type graph" whose vertices are the type attrs of the nodes (one per
// single type attr, one per element of a list(type) attr, one per distinct fixed dtype of a
// node's arguments) and whose edges follow the data edges from the type attr of an output to
// the type attr of the input it feeds. Colour the vertices allow or deny in the header's
// steps 1-7, with depth-first walks over that graph. Finally record every data edge whose
// two ends differ in colour, rebuild the nodes with allow type attrs with those attrs set to
// the low type, and put one Cast per (producer output, direction, device) on the recorded
// edges.
#include "passes/auto_mixed_precision.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graph/core/device_name.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_def_util.h"
#include "proto/op_def.pb.h"

namespace sluice {
namespace {

struct Target {
  DataType dtype;
  const char* device_type;
  const MixedPrecisionLists* lists;
  // Step 4 runs for bfloat16 only (as TensorFlow's oneDNN mode).
  bool infer_follows_allow;
};

// One vertex of the type graph.
struct Slot {
  Node* node = nullptr;
  // The type attr; empty for a fixed dtype.
  std::string attr;
  // The element of a list(type) attr; -1 for a single type attr.
  int index = -1;
  DataType dtype = DT_INVALID;
};

class MixedPrecisionRewrite {
 public:
  MixedPrecisionRewrite(const AutoMixedPrecisionOptions& opts, const Target& target, Graph* g)
      : opts_(opts), target_(target), lists_(*target.lists), g_(g) {}

  absl::Status Run(bool* changed);

 private:
  enum class Walk { kInputs, kOutputs, kBoth };

  void BuildTypeGraph();
  // The node's ports mapped to its slots from its OpDef; false if its attrs do not give them.
  bool MapPortsFromOpDef(Node* n);
  void MapPortsByFlatTypes(Node* n);
  int SlotFor(Node* n, const std::string& attr, int index, DataType dtype);
  bool OnTargetDevice(const Node& n) const;
  bool HasRefArg(const Node& n) const;

  bool InList(const absl::flat_hash_set<std::string>& list, int s) const {
    return list.contains(slots_[s].node->type_string());
  }
  bool IsFloat32(int s) const { return slots_[s].dtype == DT_FLOAT; }
  bool Process(int s) const { return process_[slots_[s].node->id()]; }
  // The op allows the low type for the slot and a kernel exists with it (memoised).
  bool CanChange(int s);
  bool ReadsRefVariable(const Node& n) const;

  // Visits `root` and every slot reachable from it through slots for which `enter` holds,
  // each once, calling `visit` as it enters them.
  template <typename Enter, typename Visit>
  void Dfs(int root, Walk walk, Enter enter, Visit visit);

  void PaintAllowList();
  void SpreadDeny();
  void PaintBetweenAllow();
  void PaintInferAfterAllow();
  void SpreadAllowThroughClear();
  void MatchLoopColours();
  void PaintCastsBeforeAllow();
  absl::Status Apply(bool* changed);
  absl::StatusOr<Node*> Rebuild(Node* n);

  const AutoMixedPrecisionOptions& opts_;
  const Target target_;
  const MixedPrecisionLists& lists_;
  Graph* const g_;

  std::vector<Slot> slots_;
  std::vector<std::vector<int>> fanin_;
  std::vector<std::vector<int>> fanout_;
  // By node id.
  std::vector<std::vector<int>> node_slots_;
  std::vector<std::vector<int>> input_slot_;
  std::vector<std::vector<int>> output_slot_;
  std::vector<char> process_;

  std::vector<char> allow_;
  std::vector<char> deny_;
  // -1 unknown, else 0/1.
  std::vector<signed char> can_change_;
  // Dfs bookkeeping: a slot is seen in the current walk when seen_[s] == walk_.
  std::vector<int> seen_;
  int walk_ = 0;
};

int MixedPrecisionRewrite::SlotFor(Node* n, const std::string& attr, int index, DataType dtype) {
  for (int s : node_slots_[n->id()]) {
    const Slot& slot = slots_[s];
    if (slot.attr == attr && slot.index == index && (!attr.empty() || slot.dtype == dtype)) {
      return s;
    }
  }
  Slot slot;
  slot.node = n;
  slot.attr = attr;
  slot.index = index;
  slot.dtype = dtype;
  slots_.push_back(std::move(slot));
  const int s = static_cast<int>(slots_.size()) - 1;
  node_slots_[n->id()].push_back(s);
  return s;
}

bool MixedPrecisionRewrite::MapPortsFromOpDef(Node* n) {
  const OpDef& op_def = n->op_def();
  const AttrSlice attrs = n->attrs();
  for (const bool inputs : {true, false}) {
    const auto& args = inputs ? op_def.input_arg() : op_def.output_arg();
    std::vector<int>& ports = inputs ? input_slot_[n->id()] : output_slot_[n->id()];
    ports.clear();
    for (const OpDef::ArgDef& arg : args) {
      int64_t count = 1;
      if (!arg.number_attr().empty() && !TryGetNodeAttr(attrs, arg.number_attr(), &count)) {
        return false;
      }
      if (!arg.type_list_attr().empty()) {
        DataTypeVector types;
        if (!TryGetNodeAttr(attrs, arg.type_list_attr(), &types)) return false;
        for (int k = 0; k < static_cast<int>(types.size()); ++k) {
          ports.push_back(SlotFor(n, arg.type_list_attr(), k, types[k]));
        }
        continue;
      }
      int s = -1;
      if (!arg.type_attr().empty()) {
        DataType dtype = DT_INVALID;
        if (!TryGetNodeAttr(attrs, arg.type_attr(), &dtype)) return false;
        s = SlotFor(n, arg.type_attr(), -1, dtype);
      } else {
        s = SlotFor(n, "", -1, arg.type());
      }
      for (int64_t k = 0; k < count; ++k) ports.push_back(s);
    }
    if (static_cast<int>(ports.size()) != (inputs ? n->num_inputs() : n->num_outputs())) {
      return false;
    }
  }
  return true;
}

// A node whose OpDef does not describe its ports (a malformed one never gets here, but a
// pass must not crash on it): every port a fixed slot of its own dtype.
void MixedPrecisionRewrite::MapPortsByFlatTypes(Node* n) {
  input_slot_[n->id()].clear();
  output_slot_[n->id()].clear();
  for (DataType t : n->input_types())
    input_slot_[n->id()].push_back(SlotFor(n, "", -1, BaseType(t)));
  for (DataType t : n->output_types()) {
    output_slot_[n->id()].push_back(SlotFor(n, "", -1, BaseType(t)));
  }
}

bool MixedPrecisionRewrite::OnTargetDevice(const Node& n) const {
  const std::string& device =
      n.has_assigned_device_name() ? n.assigned_device_name() : n.requested_device();
  ParsedDeviceName parsed;
  return !device.empty() && ParseFullOrLocalName(device, &parsed) && parsed.has_type &&
         parsed.type == target_.device_type;
}

bool MixedPrecisionRewrite::HasRefArg(const Node& n) const {
  for (const auto* args : {&n.op_def().input_arg(), &n.op_def().output_arg()}) {
    for (const OpDef::ArgDef& arg : *args) {
      if (arg.is_ref()) return true;
    }
  }
  return false;
}

void MixedPrecisionRewrite::BuildTypeGraph() {
  const int num_ids = g_->num_node_ids();
  node_slots_.assign(num_ids, {});
  input_slot_.assign(num_ids, {});
  output_slot_.assign(num_ids, {});
  process_.assign(num_ids, 0);
  for (Node* n : g_->op_nodes()) {
    if (!MapPortsFromOpDef(n)) {
      for (int s : node_slots_[n->id()]) slots_[s].node = nullptr;  // orphaned, never used
      node_slots_[n->id()].clear();
      MapPortsByFlatTypes(n);
    }
    process_[n->id()] = OnTargetDevice(*n) && !opts_.protected_names.contains(n->name());
  }
  fanin_.assign(slots_.size(), {});
  fanout_.assign(slots_.size(), {});
  for (const Edge* e : g_->edges()) {
    if (e->IsControlEdge() || !e->src()->IsOp() || !e->dst()->IsOp()) continue;
    const int s = output_slot_[e->src()->id()][e->src_output()];
    const int d = input_slot_[e->dst()->id()][e->dst_input()];
    fanout_[s].push_back(d);
    fanin_[d].push_back(s);
  }
  allow_.assign(slots_.size(), 0);
  deny_.assign(slots_.size(), 0);
  can_change_.assign(slots_.size(), -1);
  seen_.assign(slots_.size(), 0);
}

bool MixedPrecisionRewrite::CanChange(int s) {
  if (can_change_[s] >= 0) return can_change_[s] == 1;
  const Slot& slot = slots_[s];
  bool ok = false;
  if (slot.node != nullptr && !slot.attr.empty() && Process(s) && opts_.kernel_exists &&
      !HasRefArg(*slot.node)) {
    const OpDef::AttrDef* attr = FindAttr(slot.attr, slot.node->op_def());
    ok = attr != nullptr;
    if (ok && attr->has_allowed_values() && attr->allowed_values().list().type_size() > 0) {
      ok = false;
      for (int t : attr->allowed_values().list().type()) ok |= t == target_.dtype;
    }
    if (ok) {
      NodeDef probe = slot.node->def();
      probe.clear_input();
      AttrValue& value = (*probe.mutable_attr())[slot.attr];
      if (slot.index < 0) {
        value.set_type(target_.dtype);
      } else {
        value.mutable_list()->set_type(slot.index, target_.dtype);
      }
      ok = opts_.kernel_exists(probe, slot.node->assigned_device_name());
    }
  }
  can_change_[s] = ok ? 1 : 0;
  return ok;
}

bool MixedPrecisionRewrite::ReadsRefVariable(const Node& n) const {
  if (!n.IsIdentity() && !n.IsEnter()) return false;
  const Node* input = nullptr;
  if (!n.input_node(0, &input).ok()) return false;
  if (n.IsIdentity()) {
    return input->type_string() == "VariableV2" || input->type_string() == "Variable";
  }
  return ReadsRefVariable(*input);
}

template <typename Enter, typename Visit>
void MixedPrecisionRewrite::Dfs(int root, Walk walk, Enter enter, Visit visit) {
  ++walk_;
  std::vector<int> stack = {root};
  seen_[root] = walk_;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    visit(s);
    for (const bool outputs : {false, true}) {
      if ((outputs && walk == Walk::kInputs) || (!outputs && walk == Walk::kOutputs)) continue;
      for (int next : outputs ? fanout_[s] : fanin_[s]) {
        if (seen_[next] == walk_ || !enter(next)) continue;
        seen_[next] = walk_;
        stack.push_back(next);
      }
    }
  }
}

// Step 1.
void MixedPrecisionRewrite::PaintAllowList() {
  for (int s = 0; s < static_cast<int>(slots_.size()); ++s) {
    if (slots_[s].node != nullptr && Process(s) && InList(lists_.allow, s) && IsFloat32(s) &&
        CanChange(s)) {
      allow_[s] = 1;
    }
  }
}

// Step 2: deny reaches, forward, only nodes that are upstream (through clear nodes) of a
// deny or infer node.
void MixedPrecisionRewrite::SpreadDeny() {
  const int n = static_cast<int>(slots_.size());
  std::vector<char> upstream(n, 0);
  for (int root = 0; root < n; ++root) {
    if (slots_[root].node == nullptr ||
        !(InList(lists_.deny, root) || InList(lists_.infer, root))) {
      continue;
    }
    Dfs(
        root, Walk::kInputs, [&](int s) { return !upstream[s] && InList(lists_.clear, s); },
        [&](int s) { upstream[s] = 1; });
  }
  for (int root = 0; root < n; ++root) {
    if (slots_[root].node == nullptr || deny_[root] || !InList(lists_.deny, root)) continue;
    Dfs(
        root, Walk::kOutputs, [&](int s) { return !deny_[s] && upstream[s]; },
        [&](int s) { deny_[s] = 1; });
  }
}

// Step 3.
void MixedPrecisionRewrite::PaintBetweenAllow() {
  const int n = static_cast<int>(slots_.size());
  std::vector<char> downstream(n, 0);
  for (int root = 0; root < n; ++root) {
    if (!allow_[root]) continue;
    Dfs(
        root, Walk::kOutputs,
        [&](int s) {
          return !downstream[s] && !InList(lists_.allow, s) && !deny_[s] && Process(s) &&
                 IsFloat32(s) && (InList(lists_.clear, s) || InList(lists_.infer, s)) &&
                 CanChange(s);
        },
        [&](int s) { downstream[s] = 1; });
  }
  std::vector<char> upstream(n, 0);
  for (int root = 0; root < n; ++root) {
    if (!allow_[root] || upstream[root] || !InList(lists_.allow, root)) continue;
    Dfs(
        root, Walk::kInputs, [&](int s) { return !upstream[s] && downstream[s]; },
        [&](int s) {
          upstream[s] = 1;
          allow_[s] = 1;
        });
  }
}

// Step 4.
void MixedPrecisionRewrite::PaintInferAfterAllow() {
  if (!target_.infer_follows_allow) return;
  for (int s = 0; s < static_cast<int>(slots_.size()); ++s) {
    if (slots_[s].node == nullptr || !Process(s) || allow_[s] || deny_[s] ||
        !InList(lists_.infer, s) || !IsFloat32(s) || !CanChange(s)) {
      continue;
    }
    bool any_allow = false;
    bool any_deny = false;
    for (int in : fanin_[s]) {
      any_allow |= allow_[in] != 0;
      any_deny |= deny_[in] != 0;
    }
    if (any_allow && !any_deny) allow_[s] = 1;
  }
}

// Step 5.
void MixedPrecisionRewrite::SpreadAllowThroughClear() {
  const int n = static_cast<int>(slots_.size());
  std::vector<char> reached(n, 0);
  for (int root = 0; root < n; ++root) {
    if (!allow_[root] || reached[root] || !Process(root)) continue;
    Dfs(
        root, Walk::kBoth,
        [&](int s) {
          return !allow_[s] && !deny_[s] && Process(s) && IsFloat32(s) && InList(lists_.clear, s) &&
                 CanChange(s) && !ReadsRefVariable(*slots_[s].node);
        },
        [&](int s) {
          reached[s] = 1;
          allow_[s] = 1;
        });
  }
}

// Step 6: a Cast on a loop's back edge would sit between NextIteration and Merge, so the
// two keep one colour.
void MixedPrecisionRewrite::MatchLoopColours() {
  for (Node* next : g_->op_nodes()) {
    if (!next->IsNextIteration() || output_slot_[next->id()].empty()) continue;
    const int next_slot = output_slot_[next->id()][0];
    bool all_allow = allow_[next_slot] || (Process(next_slot) && IsFloat32(next_slot) &&
                                           !deny_[next_slot] && CanChange(next_slot));
    std::vector<int> merges;
    for (const Edge* e : next->out_edges()) {
      if (e->IsControlEdge() || !e->dst()->IsOp()) continue;
      const int in = input_slot_[e->dst()->id()][e->dst_input()];
      all_allow &= e->dst()->IsMerge() && allow_[in] != 0;
      merges.push_back(in);
    }
    for (int m : merges) allow_[m] = all_allow && !merges.empty();
    allow_[next_slot] = all_allow && !merges.empty();
  }
}

// Step 7.
void MixedPrecisionRewrite::PaintCastsBeforeAllow() {
  for (Node* n : g_->op_nodes()) {
    if (n->type_string() != "Cast" || output_slot_[n->id()].size() != 1) continue;
    const int s = output_slot_[n->id()][0];
    if (allow_[s] || !Process(s) || !IsFloat32(s) || slots_[s].attr != "DstT" ||
        fanout_[s].empty()) {
      continue;
    }
    bool all_allow = true;
    for (int d : fanout_[s]) all_allow &= allow_[d] != 0;
    if (all_allow && CanChange(s)) allow_[s] = 1;
  }
}

absl::StatusOr<Node*> MixedPrecisionRewrite::Rebuild(Node* n) {
  NodeDef def = n->def();
  def.clear_input();
  for (int s : node_slots_[n->id()]) {
    if (!allow_[s] || !IsFloat32(s)) continue;
    AttrValue& value = (*def.mutable_attr())[slots_[s].attr];
    if (slots_[s].index < 0) {
      value.set_type(target_.dtype);
    } else {
      value.mutable_list()->set_type(slots_[s].index, target_.dtype);
    }
  }
  struct Link {
    Node* node;
    int src_output;
    int dst_input;
  };
  std::vector<Link> ins;
  std::vector<Link> outs;
  for (const Edge* e : n->in_edges()) ins.push_back({e->src(), e->src_output(), e->dst_input()});
  for (const Edge* e : n->out_edges()) {
    outs.push_back({e->dst(), e->src_output(), e->dst_input()});
  }
  const std::string assigned = n->assigned_device_name();
  g_->RemoveNode(n);
  ASSIGN_OR_RETURN(Node * rebuilt, g_->AddNode(std::move(def)));
  rebuilt->set_assigned_device_name(assigned);
  for (const Link& in : ins) {
    if (in.dst_input == Graph::kControlSlot) {
      g_->AddControlEdge(in.node, rebuilt);
    } else {
      g_->AddEdge(in.node, in.src_output, rebuilt, in.dst_input);
    }
  }
  for (const Link& out : outs) {
    if (out.dst_input == Graph::kControlSlot) {
      g_->AddControlEdge(rebuilt, out.node);
    } else {
      g_->AddEdge(rebuilt, out.src_output, out.node, out.dst_input);
    }
  }
  return rebuilt;
}

absl::Status MixedPrecisionRewrite::Apply(bool* changed) {
  // The edges that need a Cast, by node names (rebuilt nodes keep theirs).
  struct Boundary {
    std::string src;
    int src_output;
    std::string dst;
    int dst_input;
    bool to_low;
  };
  std::vector<Boundary> boundaries;
  for (const Edge* e : g_->edges()) {
    if (e->IsControlEdge() || !e->src()->IsOp() || !e->dst()->IsOp()) continue;
    const int s = output_slot_[e->src()->id()][e->src_output()];
    const int d = input_slot_[e->dst()->id()][e->dst_input()];
    if (!IsFloat32(s) || allow_[s] == allow_[d]) continue;
    boundaries.push_back(
        {e->src()->name(), e->src_output(), e->dst()->name(), e->dst_input(), allow_[d] != 0});
  }
  std::vector<int> retype;
  for (Node* n : g_->op_nodes()) {
    for (int s : node_slots_[n->id()]) {
      if (allow_[s] && IsFloat32(s)) {
        retype.push_back(n->id());
        break;
      }
    }
  }
  for (int id : retype) {
    RETURN_IF_ERROR(Rebuild(g_->FindNodeId(id)).status());
    *changed = true;
  }

  const char* low_name = target_.dtype == DT_HALF ? "CastToFp16" : "CastToBf16";
  // (producer, output, to_low, device) -> its Cast.
  absl::flat_hash_map<std::tuple<std::string, int, bool, std::string>, Node*> casts;
  for (const Boundary& b : boundaries) {
    Node* src = g_->FindNodeByName(b.src);
    Node* dst = g_->FindNodeByName(b.dst);
    if (src == nullptr || dst == nullptr) {
      return errors::Internal("auto_mixed_precision lost node ", src == nullptr ? b.src : b.dst);
    }
    NodeDef def;
    def.set_op("Cast");
    AddNodeAttr("SrcT", b.to_low ? DT_FLOAT : target_.dtype, &def);
    AddNodeAttr("DstT", b.to_low ? target_.dtype : DT_FLOAT, &def);
    AddNodeAttr("Truncate", false, &def);
    const Node* home = src;
    if (!opts_.kernel_exists(def, src->assigned_device_name())) home = dst;
    Node*& cast = casts[{b.src, b.src_output, b.to_low, home->assigned_device_name()}];
    if (cast == nullptr) {
      def.set_name(g_->NewName(absl::StrCat(b.src, "/", b.to_low ? low_name : "CastToFp32")));
      def.set_device(home->requested_device());
      ASSIGN_OR_RETURN(cast, g_->AddNode(std::move(def)));
      cast->set_assigned_device_name(home->assigned_device_name());
      g_->AddEdge(src, b.src_output, cast, 0);
      *changed = true;
    }
    RETURN_IF_ERROR(g_->UpdateEdge(cast, 0, dst, b.dst_input));
  }
  return absl::OkStatus();
}

absl::Status MixedPrecisionRewrite::Run(bool* changed) {
  RETURN_IF_ERROR(ValidateLists(lists_));
  BuildTypeGraph();
  PaintAllowList();
  bool any = false;
  for (char a : allow_) any |= a != 0;
  if (!any) return absl::OkStatus();
  SpreadDeny();
  PaintBetweenAllow();
  PaintInferAfterAllow();
  SpreadAllowThroughClear();
  MatchLoopColours();
  PaintCastsBeforeAllow();
  return Apply(changed);
}

}  // namespace

absl::Status AutoMixedPrecision(const AutoMixedPrecisionOptions& opts, Graph* g, bool* changed) {
  *changed = false;
  if (!opts.kernel_exists) return absl::OkStatus();
  if (opts.float16_on_gpu) {
    const Target target{DT_HALF, "GPU", &opts.float16_lists, false};
    RETURN_IF_ERROR(MixedPrecisionRewrite(opts, target, g).Run(changed));
  }
  if (opts.bfloat16_on_cpu) {
    const Target target{DT_BFLOAT16, "CPU", &opts.bfloat16_lists, true};
    bool cpu_changed = false;
    RETURN_IF_ERROR(MixedPrecisionRewrite(opts, target, g).Run(&cpu_changed));
    *changed |= cpu_changed;
  }
  return absl::OkStatus();
}

}  // namespace sluice
