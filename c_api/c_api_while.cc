// TF_NewWhile, TF_FinishWhile, TF_AbortWhile: while loops built through the C API, as
// TensorFlow builds them. TF_NewWhile gives the caller two fresh graphs, each holding one
// Placeholder per loop input ("cond_input<i>", "body_input<i>"); the caller builds the
// condition and the body in them and names the loop. TF_FinishWhile then builds the loop in
// the parent graph with ops::BuildWhileLoop, whose cond and body functions import the caller's
// graphs under the loop's scope with each Placeholder replaced by the loop's value. The two
// graphs are freed by TF_FinishWhile (even when it fails) or TF_AbortWhile.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "cc_api/scope.h"
#include "cc_api/while_loop.h"
#include "graph/core/errors.h"
#include "graph/import/graph_constructor.h"

using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;
using sluice::c_api::ToOperation;

namespace {

TF_WhileParams EmptyWhileParams() {
  return {0, nullptr, nullptr, {nullptr, 0}, nullptr, nullptr, nullptr, nullptr};
}

void FreeWhileResources(const TF_WhileParams* params) {
  TF_DeleteGraph(params->cond_graph);
  TF_DeleteGraph(params->body_graph);
  delete[] params->cond_inputs;
  delete[] params->body_inputs;
  delete[] params->body_outputs;
}

// A Placeholder in `g` standing for loop input `parent_input`.
bool CreateLoopInput(const TF_Output& parent_input, TF_Graph* g, const std::string& name,
                     TF_Output* input, TF_Status* status) {
  TF_OperationDescription* desc = TF_NewOperation(g, "Placeholder", name.c_str());
  TF_SetAttrType(desc, "dtype", TF_OperationOutputType(parent_input));
  TF_Operation* oper = TF_FinishOperation(desc, status);
  if (TF_GetCode(status) != TF_OK) return false;
  *input = {oper, 0};
  return true;
}

// Params whose graphs TF_NewWhile made (and so TF_FinishWhile may free).
absl::Status CheckMadeByNewWhile(const TF_WhileParams& params) {
  if (params.cond_graph == nullptr || params.body_graph == nullptr ||
      params.cond_graph->parent == nullptr ||
      params.cond_graph->parent != params.body_graph->parent ||
      params.cond_graph->parent_inputs != params.body_graph->parent_inputs || params.ninputs <= 0 ||
      params.cond_inputs == nullptr || params.body_inputs == nullptr ||
      params.body_outputs == nullptr) {
    return absl::InvalidArgumentError(
        "TF_WhileParams must be created by successful TF_NewWhile() call");
  }
  return absl::OkStatus();
}

// The fields the caller must fill before TF_FinishWhile.
absl::Status CheckFilledIn(const TF_WhileParams& params) {
  if (params.cond_output.oper == nullptr) {
    return absl::InvalidArgumentError("TF_WhileParams `cond_output` field isn't set");
  }
  for (int i = 0; i < params.ninputs; ++i) {
    if (params.body_outputs[i].oper == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("TF_WhileParams `body_outputs[", i, "]` field isn't set"));
    }
  }
  if (params.name == nullptr) {
    return absl::InvalidArgumentError("TF_WhileParams `name` field is null");
  }
  return absl::OkStatus();
}

sluice::TensorIndex Index(const TF_Output& output) {
  return {ToNode(output.oper)->name(), output.index};
}

// Imports `src` (a cond or body graph) into the loop's graph under `scope`: each of its
// placeholders `src_inputs[i]` reads `dst_inputs[i]` instead, every imported node without an
// imported input waits for the scope's control dependencies (so it runs in the loop's frame),
// and *returned holds the imports of `returns[0..n)`.
absl::Status ImportLoopGraph(TF_Graph* src, const TF_Output* src_inputs,
                             const std::vector<sluice::Output>& dst_inputs,
                             const sluice::Scope& scope, const TF_Output* returns, int n,
                             std::vector<sluice::Output>* returned) {
  sluice::GraphDef gdef;
  sluice::ImportGraphDefOptions opts;
  {
    absl::MutexLock lock(&src->mu);
    src->graph.ToGraphDef(&gdef);
    for (size_t i = 0; i < dst_inputs.size(); ++i) {
      opts.input_map[Index(src_inputs[i])] = {dst_inputs[i].node()->name(), dst_inputs[i].index()};
    }
    for (int i = 0; i < n; ++i) opts.return_tensors.push_back(Index(returns[i]));
  }
  opts.prefix = scope.name();
  opts.skip_mapped_nodes = true;
  for (const sluice::Operation& op : scope.control_deps()) {
    opts.control_dependencies.push_back(op.node()->name());
  }
  sluice::ImportGraphDefResults results;
  RETURN_IF_ERROR(sluice::ImportGraphDef(opts, gdef, scope.graph(), scope.refiner(), &results));
  for (const auto& [node, index] : results.return_tensors) returned->emplace_back(node, index);
  return absl::OkStatus();
}

void FinishWhile(const TF_WhileParams* params, TF_Status* status, TF_Output* outputs) {
  if (absl::Status s = CheckFilledIn(*params); !s.ok()) return SetStatus(status, s);
  TF_Graph* parent = params->cond_graph->parent;
  const int num_loop_vars = params->ninputs;

  sluice::ops::CondGraphBuilderFn cond = [params](const sluice::Scope& scope,
                                                  const std::vector<sluice::Output>& inputs,
                                                  sluice::Output* output) {
    std::vector<sluice::Output> returned;
    RETURN_IF_ERROR(ImportLoopGraph(params->cond_graph, params->cond_inputs, inputs, scope,
                                    &params->cond_output, 1, &returned));
    *output = returned[0];
    return absl::OkStatus();
  };
  sluice::ops::BodyGraphBuilderFn body =
      [params, num_loop_vars](const sluice::Scope& scope, const std::vector<sluice::Output>& inputs,
                              std::vector<sluice::Output>* next) {
        return ImportLoopGraph(params->body_graph, params->body_inputs, inputs, scope,
                               params->body_outputs, num_loop_vars, next);
      };

  absl::MutexLock lock(&parent->mu);
  std::vector<sluice::Output> inputs;
  for (int i = 0; i < num_loop_vars; ++i) {
    inputs.emplace_back(ToNode(params->cond_graph->parent_inputs[i].oper),
                        params->cond_graph->parent_inputs[i].index);
  }
  absl::Status build_status;
  const sluice::Scope scope =
      sluice::Scope::NewInternalScope(&parent->graph, &build_status, &parent->refiner)
          .NewSubScope(params->name);
  sluice::OutputList loop_outputs;
  absl::Status s =
      sluice::ops::BuildWhileLoop(scope, inputs, cond, body, params->name, &loop_outputs);
  if (s.ok()) s = build_status;
  if (!s.ok()) return SetStatus(status, s);
  for (int i = 0; i < num_loop_vars; ++i) {
    outputs[i] = {ToOperation(loop_outputs[i].node()), loop_outputs[i].index()};
  }
  SetStatus(status, absl::OkStatus());
}

}  // namespace

extern "C" {

TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs, TF_Status* status) {
  if (ninputs <= 0) {
    SetStatus(status,
              absl::InvalidArgumentError("TF_NewWhile() must be passed at least one input"));
    return EmptyWhileParams();
  }
  if (g == nullptr || inputs == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("TF_NewWhile() needs a graph and its inputs"));
    return EmptyWhileParams();
  }
  for (int i = 0; i < ninputs; ++i) {
    const sluice::Node* node = ToNode(inputs[i].oper);
    if (node == nullptr || inputs[i].index < 0 || inputs[i].index >= node->num_outputs()) {
      SetStatus(status, absl::InvalidArgumentError(absl::StrCat("TF_NewWhile() input ", i,
                                                                " is not an operation's output")));
      return EmptyWhileParams();
    }
  }
  TF_Graph* cond_graph = TF_NewGraph();
  TF_Graph* body_graph = TF_NewGraph();
  cond_graph->parent = body_graph->parent = g;
  cond_graph->parent_inputs = body_graph->parent_inputs = inputs;
  auto* cond_inputs = new TF_Output[ninputs];
  auto* body_inputs = new TF_Output[ninputs];
  auto* body_outputs = new TF_Output[ninputs];
  for (int i = 0; i < ninputs; ++i) body_outputs[i] = {nullptr, -1};
  SetStatus(status, absl::OkStatus());
  for (int i = 0; i < ninputs; ++i) {
    if (!CreateLoopInput(inputs[i], cond_graph, absl::StrCat("cond_input", i), &cond_inputs[i],
                         status) ||
        !CreateLoopInput(inputs[i], body_graph, absl::StrCat("body_input", i), &body_inputs[i],
                         status)) {
      break;
    }
  }
  TF_WhileParams params = {ninputs,    cond_graph,  cond_inputs,  {nullptr, -1},
                           body_graph, body_inputs, body_outputs, nullptr};
  if (TF_GetCode(status) != TF_OK) {
    FreeWhileResources(&params);
    return EmptyWhileParams();
  }
  return params;
}

void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status, TF_Output* outputs) {
  if (params == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("'params' is null"));
  }
  // Params TF_NewWhile did not make are not freed.
  if (absl::Status s = CheckMadeByNewWhile(*params); !s.ok()) return SetStatus(status, s);
  FinishWhile(params, status, outputs);
  FreeWhileResources(params);
}

void TF_AbortWhile(const TF_WhileParams* params) {
  if (params != nullptr) FreeWhileResources(params);
}

}  // extern "C"
