// TF_GraphToFunction and TF_GraphToFunctionWithControlOutputs (tensorflow/c/c_api.h): the
// caller's arrays checked as TensorFlow checks them (tensorflow/c/c_api_function.cc), with its
// messages, then the FunctionDef made by GraphToFunctionDef (graph/graph_to_function_def.h).
//
// Beyond TensorFlow, which crashes on them, null arrays with non-zero counts, null
// operations or names, negative counts and operations of another graph are INVALID_ARGUMENT.
// `opts` is ignored, as in TensorFlow.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph_to_function_def.h"

using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;

namespace {

// A Status with `context` appended as TensorFlow's TF_RETURN_WITH_CONTEXT_IF_ERROR does.
absl::Status WithContext(const absl::Status& status, const std::string& context) {
  return absl::Status(status.code(), absl::StrCat(status.message(), "\n\t", context));
}

// TensorFlow's Graph::IsValidNode.
absl::Status ValidNode(const sluice::Graph& graph, const sluice::Node* node) {
  if (node == nullptr) return absl::InvalidArgumentError("Node is null");
  const int id = node->id();
  if (id < 0) return absl::InvalidArgumentError(absl::StrCat("node id ", id, " is less than zero"));
  if (id >= graph.num_node_ids()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "node id ", id, " is >= than number of nodes in graph ", graph.num_node_ids()));
  }
  if (graph.FindNodeId(id) != node) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node with id ", id,
                     " is different from the passed in node. Does it belong to a different "
                     "graph?"));
  }
  return absl::OkStatus();
}

// TensorFlow's Graph::IsValidOutputTensor, then its check that the output is not a ref.
absl::Status ValidOutput(const sluice::Graph& graph, const TF_Output& output,
                         const std::string& context, const std::string& ref_context) {
  const sluice::Node* node = output.oper == nullptr ? nullptr : ToNode(output.oper);
  absl::Status s = ValidNode(graph, node);
  if (s.ok() && (output.index < 0 || output.index >= node->num_outputs())) {
    s = absl::OutOfRangeError(absl::StrCat(
        "Node '", node->name(), "' (type: '", node->type_string(),
        "', num of outputs: ", node->num_outputs(), ") does not have output ", output.index));
  }
  if (!s.ok()) return WithContext(s, context);
  const sluice::DataType type = node->output_type(output.index);
  if (sluice::IsRefType(type)) {
    return WithContext(absl::InvalidArgumentError(
                           absl::StrCat("Output ", output.index, " of node '", node->name(),
                                        "' has a reference type ", sluice::DataTypeString(type))),
                       ref_context);
  }
  return absl::OkStatus();
}

absl::Status CheckArray(const void* array, int n, const char* what) {
  if (n < 0) return absl::InvalidArgumentError(absl::StrCat("'", what, "' count is negative"));
  if (n > 0 && array == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("'", what, "' is null but its count is ", n));
  }
  return absl::OkStatus();
}

// Names from a caller's array: empty when the array is null, else n non-null strings.
absl::Status Names(const char* const* names, int n, const char* what,
                   std::vector<std::string>* out) {
  if (names == nullptr) return absl::OkStatus();
  for (int i = 0; i < n; ++i) {
    if (names[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("'", what, "[", i, "]' is null"));
    }
    out->emplace_back(names[i]);
  }
  return absl::OkStatus();
}

absl::Status BuildSpec(const sluice::Graph& graph, const char* fn_name, int num_opers,
                       const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
                       int noutputs, const TF_Output* outputs, const char* const* output_names,
                       int ncontrol_outputs, const TF_Operation* const* control_outputs,
                       const char* const* control_output_names,
                       sluice::GraphToFunctionDefSpec* spec) {
  if (fn_name == nullptr) return absl::InvalidArgumentError("'fn_name' is null");
  spec->name = fn_name;
  RETURN_IF_ERROR(CheckArray(inputs, ninputs, "inputs"));
  RETURN_IF_ERROR(CheckArray(outputs, noutputs, "outputs"));
  RETURN_IF_ERROR(CheckArray(control_outputs, ncontrol_outputs, "control_outputs"));
  if (num_opers < -1) return absl::InvalidArgumentError("'num_opers' is below -1");
  RETURN_IF_ERROR(CheckArray(opers, std::max(num_opers, 0), "opers"));

  // The inputs, each tensor once; the output indices each input node gives.
  absl::flat_hash_map<const sluice::Node*, std::vector<int>> input_nodes;
  for (int i = 0; i < ninputs; ++i) {
    const std::string context =
        absl::StrCat("Encountered while processing input ", i, " into function '", fn_name, "'");
    RETURN_IF_ERROR(ValidOutput(graph, inputs[i], context, context));
    const sluice::Node* node = ToNode(inputs[i].oper);
    std::vector<int>& indices = input_nodes[node];
    if (std::find(indices.begin(), indices.end(), inputs[i].index) != indices.end()) {
      return absl::InvalidArgumentError(absl::StrCat("TF_Output ", node->name(), ":",
                                                     inputs[i].index,
                                                     " appears more than once in the input list"));
    }
    indices.push_back(inputs[i].index);
    spec->inputs.push_back({node, inputs[i].index});
  }
  for (int i = 0; i < noutputs; ++i) {
    RETURN_IF_ERROR(ValidOutput(
        graph, outputs[i],
        absl::StrCat("Encountered while processing output ", i, " from function '", fn_name, "'"),
        absl::StrCat("Encountered while creating function '", fn_name, "'")));
    spec->outputs.push_back({ToNode(outputs[i].oper), outputs[i].index});
  }
  RETURN_IF_ERROR(Names(output_names, noutputs, "output_names", &spec->output_names));
  RETURN_IF_ERROR(Names(control_output_names, ncontrol_outputs, "control_output_names",
                        &spec->control_output_names));

  if (num_opers == -1) {
    // Every operation but the input nodes, which must then have a single output.
    for (const sluice::Node* node : graph.op_nodes()) {
      if (!input_nodes.contains(node)) {
        spec->body.push_back(node);
      } else if (node->num_outputs() != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "When `num_opers` is set to -1, nodes referenced in `inputs` must have a single "
            "output. Node ",
            node->name(), " has ", node->num_outputs(),
            " outputs. Encountered while creating function '", fn_name, "'"));
      }
    }
  } else {
    for (int i = 0; i < num_opers; ++i) {
      const sluice::Node* node = opers[i] == nullptr ? nullptr : ToNode(opers[i]);
      absl::Status s = ValidNode(graph, node);
      if (!s.ok()) {
        return WithContext(s, absl::StrCat("Encountered while processing operation ", i,
                                           " of the body of function '", fn_name, "'"));
      }
      spec->body.push_back(node);
    }
  }
  for (int i = 0; i < ncontrol_outputs; ++i) {
    const sluice::Node* node = control_outputs[i] == nullptr ? nullptr : ToNode(control_outputs[i]);
    absl::Status s = ValidNode(graph, node);
    if (!s.ok()) {
      return WithContext(s, absl::StrCat("Encountered while processing control output ", i,
                                         " of function '", fn_name, "'"));
    }
    spec->control_outputs.push_back(node);
  }
  return absl::OkStatus();
}

}  // namespace

extern "C" {

TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names, int ncontrol_outputs,
    const TF_Operation* const* control_outputs, const char* const* control_output_names,
    const TF_FunctionOptions* /*opts*/, const char* description, TF_Status* status) {
  if (fn_body == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("'fn_body' is null"));
    return nullptr;
  }
  TF_Graph* graph = const_cast<TF_Graph*>(fn_body);
  absl::MutexLock lock(&graph->mu);
  sluice::GraphToFunctionDefSpec spec;
  absl::Status s =
      BuildSpec(graph->graph, fn_name, num_opers, opers, ninputs, inputs, noutputs, outputs,
                output_names, ncontrol_outputs, control_outputs, control_output_names, &spec);
  if (!s.ok()) {
    SetStatus(status, s);
    return nullptr;
  }
  spec.append_hash_to_name = append_hash_to_fn_name != 0;
  if (description != nullptr) spec.description = description;
  auto* func = new TF_Function;
  s = sluice::GraphToFunctionDef(spec, &func->fdef);
  SetStatus(status, s);
  if (!s.ok()) {
    delete func;
    return nullptr;
  }
  return func;
}

TF_Function* TF_GraphToFunction(const TF_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name, int num_opers,
                                const TF_Operation* const* opers, int ninputs,
                                const TF_Output* inputs, int noutputs, const TF_Output* outputs,
                                const char* const* output_names, const TF_FunctionOptions* opts,
                                const char* description, TF_Status* status) {
  return TF_GraphToFunctionWithControlOutputs(
      fn_body, fn_name, append_hash_to_fn_name, num_opers, opers, ninputs, inputs, noutputs,
      outputs, output_names, 0, nullptr, nullptr, opts, description, status);
}

}  // extern "C"
