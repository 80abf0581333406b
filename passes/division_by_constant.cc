// ReduceDivisionByConstant: collect the divisions first (the graph changes as they are
// rewritten), then give each a Reciprocal node and replace it by a Mul of the same name.
#include "passes/division_by_constant.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/errors.h"
#include "graph/graph.h"
#include "graph/node_def_util.h"
#include "graph/types.h"
#include "passes/fused_node_splice.h"
#include "proto/node_def.pb.h"

namespace sluice {
namespace {

bool IsFloatingOrComplex(DataType t) {
  return t == DT_HALF || t == DT_BFLOAT16 || t == DT_FLOAT || t == DT_DOUBLE ||
         t == DT_COMPLEX64 || t == DT_COMPLEX128;
}

// The division's data inputs, when it is one to rewrite.
bool Match(const Node* n, const DivisionByConstantOptions& opts, const Edge** x,
           const Edge** c) {
  if (n->type_string() != "Div" && n->type_string() != "RealDiv") return false;
  if (n->num_inputs() != 2 || !IsFloatingOrComplex(n->output_type(0)) ||
      opts.protected_names.contains(n->name())) {
    return false;
  }
  *x = *c = nullptr;
  for (const Edge* e : n->in_edges()) {
    if (e->IsControlEdge()) continue;
    (e->dst_input() == 0 ? *x : *c) = e;
  }
  return *x != nullptr && *c != nullptr && (*c)->src()->IsConstant();
}

std::string UniqueName(const Graph& g, const std::string& base) {
  std::string name = base;
  for (int i = 1; g.FindNodeByName(name) != nullptr; ++i) name = absl::StrCat(base, "_", i);
  return name;
}

}  // namespace

absl::Status ReduceDivisionByConstant(const DivisionByConstantOptions& opts, Graph* g,
                                      bool* changed) {
  *changed = false;
  std::vector<int> divisions;
  for (const Node* n : g->op_nodes()) {
    const Edge* x = nullptr;
    const Edge* c = nullptr;
    if (Match(n, opts, &x, &c)) divisions.push_back(n->id());
  }
  for (int id : divisions) {
    Node* div = g->FindNodeId(id);
    const Edge* x = nullptr;
    const Edge* c = nullptr;
    if (div == nullptr || !Match(div, opts, &x, &c)) continue;
    const DataType dtype = div->output_type(0);
    NodeDef reciprocal;
    reciprocal.set_name(UniqueName(*g, absl::StrCat(div->name(), "/reciprocal")));
    reciprocal.set_op("Reciprocal");
    reciprocal.set_device(div->requested_device());
    AddNodeAttr("T", dtype, &reciprocal);
    ASSIGN_OR_RETURN(Node * recip, g->AddNode(std::move(reciprocal)));
    recip->set_assigned_device_name(div->assigned_device_name());
    g->AddEdge(c->src(), c->src_output(), recip, 0);

    NodeDef mul;
    mul.set_name(div->name());
    mul.set_op("Mul");
    mul.set_device(div->requested_device());
    AddNodeAttr("T", dtype, &mul);
    const std::pair<Node*, int> sources[] = {{x->src(), x->src_output()}, {recip, 0}};
    Node* const members[] = {div};
    RETURN_IF_ERROR(SpliceFusedNode(g, members, div, std::move(mul), sources).status());
    *changed = true;
  }
  return absl::OkStatus();
}

}  // namespace sluice
