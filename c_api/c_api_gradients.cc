// Gradients (tensorflow/c/c_api.h): TF_AddGradients and TF_AddGradientsWithPrefix add the
// nodes computing d(sum y)/dx to a TF_Graph through the C++ API's AddSymbolicGradients and
// the gradient functions registered with it (cc_api/gradients/).
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "cc_api/gradients.h"
#include "cc_api/scope.h"

using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;
using sluice::c_api::ToOperation;

namespace {

std::vector<sluice::Output> ToOutputs(const TF_Output* outputs, int n) {
  std::vector<sluice::Output> result;
  result.reserve(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) result.emplace_back(ToNode(outputs[i].oper), outputs[i].index);
  return result;
}

// The first node named `prefix` or under "prefix/", if any.
const sluice::Node* NodeUnderPrefix(const sluice::Graph& graph, const std::string& prefix) {
  const std::string scope = prefix + "/";
  for (const sluice::Node* node : graph.op_nodes()) {
    if (node->name() == prefix || absl::StartsWith(node->name(), scope)) return node;
  }
  return nullptr;
}

absl::Status CheckOutputs(const sluice::Graph& graph, const TF_Output* outputs, int n,
                          const char* what) {
  if (n > 0 && outputs == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("'", what, "' is null"));
  }
  for (int i = 0; i < n; ++i) {
    const sluice::Node* node = ToNode(outputs[i].oper);
    if (node == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(what, "[", i, "] has no operation"));
    }
    if (graph.FindNodeId(node->id()) != node) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, "[", i, "] is not an operation of this graph"));
    }
    if (outputs[i].index < 0 || outputs[i].index >= node->num_outputs()) {
      return absl::OutOfRangeError(absl::StrCat(what, "[", i, "]: output index ", outputs[i].index,
                                                " of '", node->name(), "' is out of range (it has ",
                                                node->num_outputs(), ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

extern "C" {

void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y, int ny, TF_Output* x,
                               int nx, TF_Output* dx, TF_Status* status, TF_Output* dy) {
  if (g == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("'g' is null"));
  }
  if (nx > 0 && dy == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("'dy' is null"));
  }
  absl::MutexLock lock(&g->mu);
  absl::Status checked = CheckOutputs(g->graph, y, ny, "y");
  if (checked.ok()) checked = CheckOutputs(g->graph, x, nx, "x");
  if (checked.ok() && dx != nullptr) checked = CheckOutputs(g->graph, dx, ny, "dx");
  if (!checked.ok()) return SetStatus(status, checked);

  std::string child_scope_name = "gradients";
  if (prefix != nullptr) {
    // A caller's prefix must be new to the graph, as TensorFlow requires.
    if (const sluice::Node* taken = NodeUnderPrefix(g->graph, prefix)) {
      return SetStatus(
          status, absl::InvalidArgumentError(absl::StrCat(
                      "prefix [", prefix, "] conflicts with existing node in the graph named [",
                      taken->name(), "]")));
    }
    child_scope_name = prefix;
  }

  absl::Status build_status;
  sluice::Scope scope = sluice::Scope::NewInternalScope(&g->graph, &build_status, &g->refiner)
                            .NewSubScope(child_scope_name);
  std::vector<sluice::Output> grads;
  absl::Status s;
  if (dx != nullptr) {
    s = sluice::AddSymbolicGradients(scope, ToOutputs(y, ny), ToOutputs(x, nx), ToOutputs(dx, ny),
                                     &grads);
  } else {
    s = sluice::AddSymbolicGradients(scope, ToOutputs(y, ny), ToOutputs(x, nx), &grads);
  }
  if (s.ok()) s = build_status;
  if (!s.ok()) return SetStatus(status, s);
  for (int i = 0; i < nx; ++i) {
    // A null operation where no gradient flows to x[i], as in TensorFlow.
    dy[i].oper = ToOperation(grads[i].node());
    dy[i].index = grads[i].node() == nullptr ? 0 : grads[i].index();
  }
  SetStatus(status, absl::OkStatus());
}

void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx, TF_Output* dx,
                     TF_Status* status, TF_Output* dy) {
  TF_AddGradientsWithPrefix(g, nullptr, y, ny, x, nx, dx, status, dy);
}

}  // extern "C"
