// ReduceDivisionByConstant: collect the divisions first (the graph changes as they are
// rewritten), then give each its reciprocal (a Const, or a Reciprocal node to fold) and
// replace it by a Mul of the same name.
#include "passes/division_by_constant.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "numerics/float_environment.h"
#include "numerics/reciprocal.h"
#include "passes/fused_node_splice.h"
#include "proto/node_def.pb.h"

namespace sluice {
namespace {

bool IsFloatingOrComplex(DataType t) {
  return t == DT_HALF || t == DT_BFLOAT16 || t == DT_FLOAT || t == DT_DOUBLE || t == DT_COMPLEX64 ||
         t == DT_COMPLEX128;
}

// The division's data inputs, when it is one to rewrite.
bool Match(const Node* n, const DivisionByConstantOptions& opts, const Edge** x, const Edge** c) {
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

// For float and double, 1/c computed here as the Reciprocal kernel computes it, in the
// kernels' floating-point mode: TensorFlow's constant folding of that Reciprocal gives float
// the processor's estimate and a Newton step over all but the last size % 8 elements
// (numerics/reciprocal.h), double one IEEE division per element. This skips a round of
// constant folding through the evaluator (202 such nodes took 13-18 ms of the pipeline
// benchmark's folding). Other types get a Reciprocal node for the next folding.
Tensor Reciprocals(const Tensor& c) {
  Tensor out(c.dtype(), c.shape());
  const int64_t n = c.NumElements();
  numerics::ScopedFlushDenormals kernel_mode;
  if (c.dtype() == DT_FLOAT) {
    numerics::ReciprocalFloat(c.flat<float>().data(), out.flat<float>().data(), n);
  } else {
    const double* in = c.flat<double>().data();
    double* r = out.flat<double>().data();
    for (int64_t i = 0; i < n; ++i) r[i] = 1.0 / in[i];
  }
  return out;
}

bool ReciprocalConst(const Node& c, DataType dtype, Tensor* out) {
  if (dtype != DT_FLOAT && dtype != DT_DOUBLE) return false;
  const auto it = c.def().attr().find("value");
  if (it == c.def().attr().end() || !it->second.has_tensor()) return false;
  Tensor value;
  if (!TensorFromProto(it->second.tensor(), &value).ok() || value.dtype() != dtype) return false;
  *out = Reciprocals(value);
  return true;
}

std::string UniqueName(const Graph& g, const std::string& base) {
  std::string name = base;
  for (int i = 1; g.FindNodeByName(name) != nullptr; ++i) name = absl::StrCat(base, "_", i);
  return name;
}

// 1/c for `div`, placed with it: a Const where ReciprocalConst computes it, else a
// Reciprocal node reading c.
absl::StatusOr<Node*> AddReciprocal(Graph* g, const Node& div, const Edge& c) {
  const DataType dtype = div.output_type(0);
  const std::string name = UniqueName(*g, absl::StrCat(div.name(), "/reciprocal"));
  Node* recip = nullptr;
  if (Tensor value; ReciprocalConst(*c.src(), dtype, &value)) {
    ASSIGN_OR_RETURN(recip, g->AddNode(MakeConstNodeDef(name, value, div.requested_device())));
  } else {
    NodeDef reciprocal;
    reciprocal.set_name(name);
    reciprocal.set_op("Reciprocal");
    reciprocal.set_device(div.requested_device());
    AddNodeAttr("T", dtype, &reciprocal);
    ASSIGN_OR_RETURN(recip, g->AddNode(std::move(reciprocal)));
    g->AddEdge(c.src(), c.src_output(), recip, 0);
  }
  recip->set_assigned_device_name(div.assigned_device_name());
  return recip;
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
  // (divisor node id, output, device) -> its reciprocal there
  absl::flat_hash_map<std::tuple<int, int, std::string>, Node*> reciprocal_of;
  for (int id : divisions) {
    Node* div = g->FindNodeId(id);
    const Edge* x = nullptr;
    const Edge* c = nullptr;
    if (div == nullptr || !Match(div, opts, &x, &c)) continue;
    const DataType dtype = div->output_type(0);
    // Divisions by the same constant on the same device share its reciprocal.
    Node*& recip = reciprocal_of[{c->src()->id(), c->src_output(), div->assigned_device_name()}];
    if (recip == nullptr) {
      ASSIGN_OR_RETURN(recip, AddReciprocal(g, *div, *c));
    }

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
