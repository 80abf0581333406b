#include "passes/lower_functional_ops.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/import/function_body.h"
#include "graph/import/graph_constructor.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace {

struct Source {
  Node* node = nullptr;
  int index = 0;
};

bool IsCallType(absl::string_view op) {
  return op == "PartitionedCall" || op == "StatefulPartitionedCall";
}
bool IsIfType(absl::string_view op) { return op == "If" || op == "StatelessIf"; }
bool IsCaseType(absl::string_view op) { return op == "Case" || op == "StatelessCase"; }
bool IsWhileType(absl::string_view op) { return op == "While" || op == "StatelessWhile"; }

bool IsCall(const Node& n) { return IsCallType(n.type_string()); }
bool IsIf(const Node& n) { return IsIfType(n.type_string()); }
bool IsCase(const Node& n) { return IsCaseType(n.type_string()); }
bool IsWhile(const Node& n) { return IsWhileType(n.type_string()); }
// A node whose op is the name of a function of its graph's library.
bool CallsLibraryFunction(const Node& n) { return n.graph()->IsFunction(n.type_string()); }

class Lowerer {
 public:
  explicit Lowerer(Graph* g) : g_(g) {}

  absl::Status Lower(Node* n) {
    if (IsCall(*n)) {
      const NameAttrList* f = nullptr;
      RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "f", &f));
      return LowerCall(n, *f);
    }
    if (CallsLibraryFunction(*n)) {
      // As a PartitionedCall of the function with the node's attrs (those not starting with
      // '_', which belong to the runtime) as the function's.
      NameAttrList f;
      f.set_name(n->type_string());
      for (const auto& [name, value] : n->def().attr()) {
        if (!name.empty() && name[0] != '_') (*f.mutable_attr())[name] = value;
      }
      return LowerCall(n, f);
    }
    if (IsIf(*n)) return LowerIf(n);
    if (IsCase(*n)) return LowerCase(n);
    return LowerWhile(n);
  }

 private:
  absl::Status LowerCall(Node* n, const NameAttrList& f) {
    std::vector<Source> in;
    RETURN_IF_ERROR(DataInputs(n, &in));
    // Nodes of the body without inputs must run where the call runs (inside a loop, once
    // per iteration): they wait for a NoOp that waits for every input of the call.
    NodeDef gate = Def(n, "input_control_node", "NoOp");
    ASSIGN_OR_RETURN(Node * gate_node, g_->AddNode(std::move(gate)));
    for (const Source& s : in) g_->AddControlEdge(s.node, gate_node);
    CopyControlInputs(n, gate_node);
    std::vector<Source> rets;
    std::vector<Node*> control_rets;
    RETURN_IF_ERROR(ImportBody(n, f, "body", in, {gate_node}, &rets, &control_rets));
    RETURN_IF_ERROR(CheckCallOutputs(n, f, rets));
    return ReplaceWithOutputs(n, rets, control_rets);
  }

  // The function's results against the outputs the call node declares (its Tout), which a
  // GraphDef may contradict: the consumers of a missing or mistyped output must not be wired.
  absl::Status CheckCallOutputs(Node* n, const NameAttrList& f, const std::vector<Source>& rets) {
    if (static_cast<int>(rets.size()) < n->num_outputs()) {
      return errors::Internal("Missing ", rets.size(), "-th output from {{node ", n->name(), "}}");
    }
    if (static_cast<int>(rets.size()) > n->num_outputs()) {
      return AttachDef(
          errors::InvalidArgument("Function '", f.name(), "' returns ", rets.size(),
                                  " values; the node has ", n->num_outputs(), " outputs"),
          n->def());
    }
    for (size_t i = 0; i < rets.size(); ++i) {
      const DataType returned = rets[i].node->output_type(rets[i].index);
      if (returned != n->output_type(static_cast<int>(i))) {
        return AttachDef(
            errors::InvalidArgument("Function '", f.name(), "' returns ", DataTypeString(returned),
                                    " as output ", i, "; the node declares ",
                                    DataTypeString(n->output_type(static_cast<int>(i)))),
            n->def());
      }
    }
    return absl::OkStatus();
  }

  absl::Status LowerIf(Node* n) {
    const NameAttrList* then_branch = nullptr;
    const NameAttrList* else_branch = nullptr;
    RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "then_branch", &then_branch));
    RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "else_branch", &else_branch));
    std::vector<Source> in;
    RETURN_IF_ERROR(DataInputs(n, &in));
    ASSIGN_OR_RETURN(Source pred, AsBool(n, in[0]));
    ASSIGN_OR_RETURN(Node * switch_pred, AddSwitch(n, "switch_pred", pred, pred));
    CopyControlInputs(n, switch_pred);
    ASSIGN_OR_RETURN(Node * else_pivot, AddIdentity(n, "else_pivot", {switch_pred, 0}));
    ASSIGN_OR_RETURN(Node * then_pivot, AddIdentity(n, "then_pivot", {switch_pred, 1}));
    std::vector<Source> then_args, else_args;
    for (size_t k = 1; k < in.size(); ++k) {
      ASSIGN_OR_RETURN(Node * sw, AddSwitch(n, absl::StrCat("switch_", k - 1), in[k], pred));
      g_->AddControlEdge(switch_pred, sw);
      else_args.push_back({sw, 0});
      then_args.push_back({sw, 1});
    }
    std::vector<std::vector<Source>> rets(2);
    std::vector<std::vector<Node*>> control_rets(2);
    RETURN_IF_ERROR(
        ImportBody(n, *then_branch, "then", then_args, {then_pivot}, &rets[0], &control_rets[0]));
    RETURN_IF_ERROR(
        ImportBody(n, *else_branch, "else", else_args, {else_pivot}, &rets[1], &control_rets[1]));
    return MergeBranches(n, {then_pivot, else_pivot}, rets, control_rets);
  }

  absl::Status LowerCase(Node* n) {
    std::vector<NameAttrList> branches;
    RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "branches", &branches));
    std::vector<Source> in;
    RETURN_IF_ERROR(DataInputs(n, &in));
    const int num = static_cast<int>(branches.size());
    ASSIGN_OR_RETURN(Node * switch_index, AddSwitchN(n, "switch_index", in[0], in[0], num));
    CopyControlInputs(n, switch_index);
    std::vector<Node*> pivots;
    for (int b = 0; b < num; ++b) {
      ASSIGN_OR_RETURN(Node * pivot,
                       AddIdentity(n, absl::StrCat("branch_", b, "_pivot"), {switch_index, b}));
      pivots.push_back(pivot);
    }
    std::vector<std::vector<Source>> args(num);
    for (size_t k = 1; k < in.size(); ++k) {
      ASSIGN_OR_RETURN(Node * sw, AddSwitchN(n, absl::StrCat("switch_", k - 1), in[k], in[0], num));
      g_->AddControlEdge(switch_index, sw);
      for (int b = 0; b < num; ++b) args[b].push_back({sw, b});
    }
    std::vector<std::vector<Source>> rets(num);
    std::vector<std::vector<Node*>> control_rets(num);
    for (int b = 0; b < num; ++b) {
      RETURN_IF_ERROR(ImportBody(n, branches[b], absl::StrCat("branch_", b), args[b], {pivots[b]},
                                 &rets[b], &control_rets[b]));
    }
    return MergeBranches(n, pivots, rets, control_rets);
  }

  absl::Status LowerWhile(Node* n) {
    const NameAttrList* cond = nullptr;
    const NameAttrList* body = nullptr;
    RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "cond", &cond));
    RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "body", &body));
    int64_t parallel_iterations = 10;
    if (n->attrs().Find("parallel_iterations") != nullptr) {
      RETURN_IF_ERROR(GetNodeAttr(n->attrs(), "parallel_iterations", &parallel_iterations));
    }
    std::vector<Source> in;
    RETURN_IF_ERROR(DataInputs(n, &in));
    if (in.empty()) {
      return AttachDef(errors::Unimplemented("A While loop without loop variables"), n->def());
    }
    const std::string frame = n->name();
    std::vector<Node*> merges;
    for (size_t i = 0; i < in.size(); ++i) {
      NodeDef enter = Def(n, absl::StrCat("enter_", i), "Enter");
      AddNodeAttr("T", in[i].node->output_type(in[i].index), &enter);
      AddNodeAttr("frame_name", frame, &enter);
      AddNodeAttr("is_constant", false, &enter);
      AddNodeAttr("parallel_iterations", parallel_iterations, &enter);
      ASSIGN_OR_RETURN(Node * enter_node, g_->AddNode(std::move(enter)));
      g_->AddEdge(in[i].node, in[i].index, enter_node, 0);
      CopyControlInputs(n, enter_node);
      NodeDef merge = Def(n, absl::StrCat("merge_", i), "Merge");
      AddNodeAttr("T", in[i].node->output_type(in[i].index), &merge);
      AddNodeAttr("N", int64_t{2}, &merge);
      ASSIGN_OR_RETURN(Node * merge_node, g_->AddNode(std::move(merge)));
      g_->AddEdge(enter_node, 0, merge_node, 0);
      merges.push_back(merge_node);
    }
    std::vector<Source> cond_args;
    for (Node* m : merges) cond_args.push_back({m, 0});
    std::vector<Source> cond_rets;
    std::vector<Node*> cond_control;
    RETURN_IF_ERROR(
        ImportBody(n, *cond, "cond", cond_args, {merges[0]}, &cond_rets, &cond_control));
    if (cond_rets.size() != 1) {
      return AttachDef(errors::InvalidArgument("The condition of a While must return one value, "
                                               "not ",
                                               cond_rets.size()),
                       n->def());
    }
    ASSIGN_OR_RETURN(Source pred, AsBool(n, cond_rets[0]));
    NodeDef loop_cond = Def(n, "loop_cond", "LoopCond");
    ASSIGN_OR_RETURN(Node * loop_cond_node, g_->AddNode(std::move(loop_cond)));
    g_->AddEdge(pred.node, pred.index, loop_cond_node, 0);
    for (Node* c : cond_control) g_->AddControlEdge(c, loop_cond_node);

    std::vector<Source> exits, body_args;
    for (size_t i = 0; i < in.size(); ++i) {
      ASSIGN_OR_RETURN(
          Node * sw, AddSwitch(n, absl::StrCat("switch_", i), {merges[i], 0}, {loop_cond_node, 0}));
      NodeDef exit = Def(n, absl::StrCat("exit_", i), "Exit");
      AddNodeAttr("T", merges[i]->output_type(0), &exit);
      ASSIGN_OR_RETURN(Node * exit_node, g_->AddNode(std::move(exit)));
      g_->AddEdge(sw, 0, exit_node, 0);
      exits.push_back({exit_node, 0});
      ASSIGN_OR_RETURN(Node * body_in, AddIdentity(n, absl::StrCat("body_input_", i), {sw, 1}));
      body_args.push_back({body_in, 0});
    }
    std::vector<Source> body_rets;
    std::vector<Node*> body_control;
    RETURN_IF_ERROR(
        ImportBody(n, *body, "body", body_args, {body_args[0].node}, &body_rets, &body_control));
    if (body_rets.size() != in.size()) {
      return AttachDef(errors::InvalidArgument("The body of a While returns ", body_rets.size(),
                                               " values for ", in.size(), " loop variables"),
                       n->def());
    }
    for (size_t i = 0; i < in.size(); ++i) {
      NodeDef next = Def(n, absl::StrCat("next_iteration_", i), "NextIteration");
      AddNodeAttr("T", merges[i]->output_type(0), &next);
      ASSIGN_OR_RETURN(Node * next_node, g_->AddNode(std::move(next)));
      g_->AddEdge(body_rets[i].node, body_rets[i].index, next_node, 0);
      for (Node* c : body_control) g_->AddControlEdge(c, next_node);
      g_->AddEdge(next_node, 0, merges[i], 1);
    }
    return ReplaceWithOutputs(n, exits, {});
  }

  // Each output is the Merge of the branches' values; the node's control outputs wait for
  // whichever branch ran (and its side effects).
  absl::Status MergeBranches(Node* n, const std::vector<Node*>& pivots,
                             const std::vector<std::vector<Source>>& rets,
                             const std::vector<std::vector<Node*>>& control_rets) {
    const int num_outputs = n->num_outputs();
    for (const std::vector<Source>& branch : rets) {
      if (static_cast<int>(branch.size()) != num_outputs) {
        return AttachDef(errors::InvalidArgument("A branch returns ", branch.size(),
                                                 " values; the node has ", num_outputs, " outputs"),
                         n->def());
      }
    }
    std::vector<Source> outputs;
    for (int j = 0; j < num_outputs; ++j) {
      NodeDef merge = Def(n, absl::StrCat("merge_", j), "Merge");
      AddNodeAttr("T", n->output_type(j), &merge);
      AddNodeAttr("N", static_cast<int64_t>(rets.size()), &merge);
      ASSIGN_OR_RETURN(Node * merge_node, g_->AddNode(std::move(merge)));
      for (size_t b = 0; b < rets.size(); ++b) {
        g_->AddEdge(rets[b][j].node, rets[b][j].index, merge_node, static_cast<int>(b));
      }
      outputs.push_back({merge_node, 0});
    }
    NodeDef executed = Def(n, "branch_executed", "Merge");
    AddNodeAttr("T", pivots[0]->output_type(0), &executed);
    AddNodeAttr("N", static_cast<int64_t>(pivots.size()), &executed);
    ASSIGN_OR_RETURN(Node * executed_node, g_->AddNode(std::move(executed)));
    for (size_t b = 0; b < pivots.size(); ++b) {
      ASSIGN_OR_RETURN(Node * done,
                       AddIdentity(n, absl::StrCat("branch_", b, "_done"), {pivots[b], 0}));
      for (Node* c : control_rets[b]) g_->AddControlEdge(c, done);
      g_->AddEdge(done, 0, executed_node, static_cast<int>(b));
    }
    return ReplaceWithOutputs(n, outputs, {executed_node});
  }

  // Inlines `func` with its arguments mapped to `args`; nodes without inputs wait for
  // `control_deps`.
  absl::Status ImportBody(Node* n, const NameAttrList& func, const std::string& tag,
                          const std::vector<Source>& args, const std::vector<Node*>& control_deps,
                          std::vector<Source>* rets, std::vector<Node*>* control_rets) {
    const FunctionDef* fdef = FindFunction(g_->library(), func.name());
    if (fdef == nullptr) {
      return AttachDef(
          errors::NotFound("Function '", func.name(), "' is not in the graph's function library"),
          n->def());
    }
    FunctionBody body;
    absl::Status s =
        InstantiateFunctionBody(*fdef, func.attr(), g_->library(), *g_->op_registry(), &body);
    if (!s.ok()) return AttachDef(s, n->def());
    if (body.arg_nodes.size() != args.size()) {
      return AttachDef(
          errors::InvalidArgument("Function '", func.name(), "' takes ", body.arg_nodes.size(),
                                  " arguments; ", args.size(), " are given"),
          n->def());
    }
    *body.graph.mutable_versions() = g_->versions();
    ImportGraphDefOptions opts;
    opts.prefix = g_->NewName(absl::StrCat(n->name(), "/", tag));
    opts.skip_mapped_nodes = true;
    opts.validate_shape = false;
    opts.validate_colocation_constraints = false;
    opts.default_device = n->requested_device();
    for (size_t i = 0; i < args.size(); ++i) {
      opts.input_map[{body.arg_nodes[i], 0}] = {args[i].node->name(), args[i].index};
      // A control input from an argument ("^x", as TF_GraphToFunction writes one from an
      // input node) waits for the node that gives the argument.
      opts.input_map[{body.arg_nodes[i], Graph::kControlSlot}] = {args[i].node->name(),
                                                                  Graph::kControlSlot};
    }
    for (Node* c : control_deps) opts.control_dependencies.push_back(c->name());
    for (const std::string& ret : body.rets) {
      std::pair<std::string, std::string> parts = absl::StrSplit(ret, ':');
      int index = 0;
      if (!absl::SimpleAtoi(parts.second, &index)) index = 0;
      opts.return_tensors.emplace_back(parts.first, index);
    }
    ImportGraphDefResults results;
    s = ImportGraphDef(opts, body.graph, g_, nullptr, &results);
    if (!s.ok()) {
      return AttachDef(absl::Status(s.code(), absl::StrCat("Inlining function '", func.name(),
                                                           "': ", s.message())),
                       n->def());
    }
    rets->clear();
    for (const auto& [node, index] : results.return_tensors) rets->push_back({node, index});
    control_rets->clear();
    for (const std::string& name : body.control_rets) {
      Node* c = g_->FindNodeByName(absl::StrCat(opts.prefix, "/", name));
      if (c != nullptr) control_rets->push_back(c);
    }
    return absl::OkStatus();
  }

  // Removes `n` and puts in its place, under its name, an IdentityN of `outputs` (a NoOp
  // without outputs) that waits for `control_sources`; n's consumers read it instead.
  absl::Status ReplaceWithOutputs(Node* n, const std::vector<Source>& outputs,
                                  const std::vector<Node*>& control_sources) {
    struct OutEdge {
      Node* dst;
      int src_output;
      int dst_input;
    };
    std::vector<OutEdge> out;
    for (const Edge* e : n->out_edges()) out.push_back({e->dst(), e->src_output(), e->dst_input()});
    NodeDef def;
    def.set_name(n->name());
    def.set_device(n->requested_device());
    if (outputs.empty()) {
      def.set_op("NoOp");
    } else {
      def.set_op("IdentityN");
      DataTypeVector types;
      for (const Source& s : outputs) types.push_back(s.node->output_type(s.index));
      AddNodeAttr("T", types, &def);
    }
    g_->RemoveNode(n);
    ASSIGN_OR_RETURN(Node * replacement, g_->AddNode(std::move(def)));
    for (size_t i = 0; i < outputs.size(); ++i) {
      g_->AddEdge(outputs[i].node, outputs[i].index, replacement, static_cast<int>(i));
    }
    for (Node* c : control_sources) g_->AddControlEdge(c, replacement);
    for (const OutEdge& e : out) {
      if (e.src_output == Graph::kControlSlot) {
        g_->AddControlEdge(replacement, e.dst);
      } else {
        g_->AddEdge(replacement, e.src_output, e.dst, e.dst_input);
      }
    }
    return absl::OkStatus();
  }

  absl::Status DataInputs(Node* n, std::vector<Source>* in) {
    std::vector<const Edge*> edges;
    RETURN_IF_ERROR(n->input_edges(&edges));
    in->clear();
    for (const Edge* e : edges) in->push_back({e->src(), e->src_output()});
    return absl::OkStatus();
  }

  void CopyControlInputs(Node* from, Node* to) {
    for (const Edge* e : from->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) g_->AddControlEdge(e->src(), to);
    }
  }

  NodeDef Def(Node* n, const std::string& suffix, const std::string& op) {
    NodeDef def;
    def.set_name(g_->NewName(absl::StrCat(n->name(), "/", suffix)));
    def.set_op(op);
    def.set_device(n->requested_device());
    return def;
  }

  absl::StatusOr<Node*> AddIdentity(Node* n, const std::string& suffix, Source input) {
    NodeDef def = Def(n, suffix, "Identity");
    AddNodeAttr("T", input.node->output_type(input.index), &def);
    ASSIGN_OR_RETURN(Node * node, g_->AddNode(std::move(def)));
    g_->AddEdge(input.node, input.index, node, 0);
    return node;
  }

  absl::StatusOr<Node*> AddSwitch(Node* n, const std::string& suffix, Source data, Source pred) {
    NodeDef def = Def(n, suffix, "Switch");
    AddNodeAttr("T", data.node->output_type(data.index), &def);
    ASSIGN_OR_RETURN(Node * node, g_->AddNode(std::move(def)));
    g_->AddEdge(data.node, data.index, node, 0);
    g_->AddEdge(pred.node, pred.index, node, 1);
    return node;
  }

  absl::StatusOr<Node*> AddSwitchN(Node* n, const std::string& suffix, Source data, Source index,
                                   int num_outs) {
    NodeDef def = Def(n, suffix, "_SwitchN");
    AddNodeAttr("T", data.node->output_type(data.index), &def);
    AddNodeAttr("num_outs", static_cast<int64_t>(num_outs), &def);
    ASSIGN_OR_RETURN(Node * node, g_->AddNode(std::move(def)));
    g_->AddEdge(data.node, data.index, node, 0);
    g_->AddEdge(index.node, index.index, node, 1);
    return node;
  }

  // A bool predicate from `value`: itself if bool, else Cast to bool (non-zero is true).
  absl::StatusOr<Source> AsBool(Node* n, Source value) {
    const DataType type = value.node->output_type(value.index);
    if (type == DT_BOOL) return value;
    NodeDef def = Def(n, "to_bool", "Cast");
    AddNodeAttr("SrcT", type, &def);
    AddNodeAttr("DstT", DT_BOOL, &def);
    AddNodeAttr("Truncate", false, &def);
    ASSIGN_OR_RETURN(Node * node, g_->AddNode(std::move(def)));
    g_->AddEdge(value.node, value.index, node, 0);
    return Source{node, 0};
  }

  Graph* const g_;
};

}  // namespace

bool IsLoweredFunctionalOpType(absl::string_view op) {
  return IsCallType(op) || IsIfType(op) || IsCaseType(op) || IsWhileType(op);
}

bool IsLoweredFunctionalOp(const Node& node) {
  return IsLoweredFunctionalOpType(node.type_string()) || CallsLibraryFunction(node);
}

absl::Status LowerFunctionalOps(const LowerFunctionalOpsOptions& options, Graph* graph,
                                bool* changed) {
  *changed = false;
  Lowerer lowerer(graph);
  for (int depth = 0;; ++depth) {
    std::vector<Node*> pending;
    for (Node* n : graph->op_nodes()) {
      if (IsLoweredFunctionalOp(*n)) pending.push_back(n);
    }
    if (pending.empty()) return absl::OkStatus();
    if (depth >= options.kMaxDepth) {
      return AttachDef(errors::InvalidArgument("Functions nested more than ", options.kMaxDepth,
                                               " deep (a recursive function?)"),
                       pending[0]->def());
    }
    for (Node* n : pending) {
      if (graph->num_op_nodes() > options.kMaxNodes) {
        return AttachDef(
            errors::InvalidArgument("Lowering function calls grew the graph past ",
                                    options.kMaxNodes, " nodes (a recursive function?)"),
            n->def());
      }
      RETURN_IF_ERROR(lowerer.Lower(n));
      *changed = true;
    }
  }
}

}  // namespace sluice
