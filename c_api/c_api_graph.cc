// Graphs (tensorflow/c/c_api.h): creation, tensor shapes, iteration, GraphDef export and
// import, edges.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/op/graph_def_util.h"
#include "graph/shape/shape_inference.h"
#include "proto/graph.pb.h"
#include "proto/op_def.pb.h"

using sluice::c_api::MessageToBuffer;
using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;
using sluice::c_api::ToOperation;

namespace {

// INVALID_ARGUMENT unless `output` names an output of an operation.
absl::Status ValidateOutput(const TF_Output& output) {
  if (output.oper == nullptr) return absl::InvalidArgumentError("The operation is null.");
  const sluice::Node* node = ToNode(output.oper);
  if (output.index < 0 || output.index >= node->num_outputs()) {
    return absl::OutOfRangeError(absl::StrCat(
        "Node '", node->name(), "' (type: '", node->type_string(),
        "', num of outputs: ", node->num_outputs(), ") does not have output ", output.index));
  }
  return absl::OkStatus();
}

}  // namespace

// The refiner resolves ops as the graph does, so that an operation calling a function of the
// graph's library (TF_GraphCopyFunction) by name gets that function's shape function.
TF_Graph::TF_Graph() : graph(sluice::OpRegistry::Global()), refiner(graph.op_registry()) {
  sluice::VersionDef versions;
  versions.set_producer(sluice::kGraphDefVersion);
  versions.set_min_consumer(sluice::kGraphDefVersionMinConsumer);
  graph.set_versions(versions);
}

extern "C" {

TF_Graph* TF_NewGraph(void) { return new TF_Graph; }

void TF_DeleteGraph(TF_Graph* graph) {
  if (graph == nullptr) return;
  bool delete_now;
  {
    absl::MutexLock lock(&graph->mu);
    graph->delete_requested = true;
    delete_now = graph->num_sessions == 0;
  }
  if (delete_now) delete graph;
}

void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output, const int64_t* dims,
                            const int num_dims, TF_Status* status) {
  absl::Status valid = ValidateOutput(output);
  if (!valid.ok()) return SetStatus(status, valid);
  sluice::Node* node = ToNode(output.oper);
  absl::MutexLock lock(&graph->mu);
  sluice::shape_inference::InferenceContext* context = graph->refiner.GetContext(node);
  if (context == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                                 "Node '", node->name(), "' was not found in the graph")));
  }
  if (num_dims > 0 && dims == nullptr) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("TF_GraphSetTensorShape: dims is null for ",
                                                        num_dims, " dimensions")));
  }
  sluice::PartialTensorShape partial;
  if (num_dims >= 0) {
    absl::Status built = sluice::PartialTensorShape::BuildPartialTensorShape(
        absl::Span<const int64_t>(dims, num_dims), &partial);
    if (!built.ok()) return SetStatus(status, built);
  }
  sluice::shape_inference::ShapeHandle handle;
  absl::Status made = context->MakeShapeFromPartialTensorShape(partial, &handle);
  if (!made.ok()) return SetStatus(status, made);
  SetStatus(status, graph->refiner.SetShape(node, output.index, handle));
}

int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output, TF_Status* status) {
  absl::Status valid = ValidateOutput(output);
  if (!valid.ok()) {
    SetStatus(status, valid);
    return -1;
  }
  absl::MutexLock lock(&graph->mu);
  sluice::PartialTensorShape shape;
  absl::Status found = graph->refiner.GetOutputShape(ToNode(output.oper), output.index, &shape);
  SetStatus(status, found);
  return found.ok() ? shape.dims() : -1;
}

void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims, int num_dims,
                            TF_Status* status) {
  absl::Status valid = ValidateOutput(output);
  if (!valid.ok()) return SetStatus(status, valid);
  absl::MutexLock lock(&graph->mu);
  sluice::PartialTensorShape shape;
  absl::Status found = graph->refiner.GetOutputShape(ToNode(output.oper), output.index, &shape);
  if (!found.ok()) return SetStatus(status, found);
  if (shape.dims() != num_dims) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Expected rank is ", num_dims,
                                                        " but actual rank is ", shape.dims())));
  }
  for (int i = 0; i < num_dims; ++i) dims[i] = shape.dim_size(i);
  SetStatus(status, absl::OkStatus());
}

TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name) {
  if (graph == nullptr || oper_name == nullptr) return nullptr;
  absl::MutexLock lock(&graph->mu);
  sluice::Node* node = graph->graph.FindNodeByName(oper_name);
  return node == nullptr || !node->IsOp() ? nullptr : ToOperation(node);
}

TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos) {
  // As TensorFlow's: *pos is the id of the operation returned (programs print it), so the first
  // call moves past ids 0 and 1 (_SOURCE and _SINK) and each later one to the next id; at the
  // end *pos is past the last id.
  *pos += *pos == 0 ? 2 : 1;
  absl::MutexLock lock(&graph->mu);
  const size_t limit = static_cast<size_t>(graph->graph.num_node_ids());
  for (; *pos < limit; ++*pos) {
    sluice::Node* node = graph->graph.FindNodeId(static_cast<int>(*pos));
    if (node != nullptr) return ToOperation(node);
  }
  return nullptr;
}

void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def, TF_Status* status) {
  sluice::GraphDef def;
  {
    absl::MutexLock lock(&graph->mu);
    graph->graph.ToGraphDef(&def);
  }
  SetStatus(status, MessageToBuffer(def, output_graph_def));
}

void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name, TF_Buffer* output_op_def,
                      TF_Status* status) {
  const sluice::OpDef* op_def = nullptr;
  absl::Status found;
  {
    absl::MutexLock lock(&graph->mu);
    found = graph->graph.op_registry()->LookUpOpDef(op_name == nullptr ? "" : op_name, &op_def);
  }
  if (!found.ok()) return SetStatus(status, found);
  SetStatus(status, MessageToBuffer(*op_def, output_op_def));
}

void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def, TF_Status* status) {
  sluice::VersionDef versions;
  {
    absl::MutexLock lock(&graph->mu);
    versions = graph->graph.versions();
  }
  SetStatus(status, MessageToBuffer(versions, output_version_def));
}

void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def, TF_Status* status) {
  SetStatus(status, MessageToBuffer(ToNode(oper)->def(), output_node_def));
}

void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst, TF_Status* status) {
  absl::Status valid = ValidateOutput(new_src);
  if (!valid.ok()) return SetStatus(status, valid);
  sluice::Node* src_node = ToNode(new_src.oper);
  sluice::Node* dst_node = ToNode(dst.oper);
  if (dst_node == nullptr || dst.index < 0 || dst.index >= dst_node->num_inputs()) {
    return SetStatus(status, absl::OutOfRangeError("The destination input is out of range."));
  }
  if (src_node->output_type(new_src.index) != dst_node->input_type(dst.index)) {
    return SetStatus(status,
                     absl::InvalidArgumentError(absl::StrCat(
                         "Input ", dst.index, " of node '", dst_node->name(), "' expects type ",
                         sluice::DataTypeString(dst_node->input_type(dst.index)), " but '",
                         src_node->name(), ":", new_src.index, "' is ",
                         sluice::DataTypeString(src_node->output_type(new_src.index)))));
  }
  absl::MutexLock lock(&graph->mu);
  absl::Status updated = graph->graph.UpdateEdge(src_node, new_src.index, dst_node, dst.index);
  if (!updated.ok()) return SetStatus(status, updated);
  bool refined = false;
  SetStatus(status, graph->refiner.UpdateNode(dst_node, /*relax=*/false, &refined));
}

// Import options and results.

TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void) { return new TF_ImportGraphDefOptions; }

void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts) { delete opts; }

void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts, const char* prefix) {
  opts->opts.prefix = prefix == nullptr ? "" : prefix;
}

void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* opts, const char* device) {
  opts->opts.default_device = device == nullptr ? "" : device;
}

void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* opts,
                                              unsigned char uniquify_names) {
  opts->opts.uniquify_names = uniquify_names != 0;
}

void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* opts,
                                               unsigned char uniquify_prefix) {
  opts->opts.uniquify_prefix = uniquify_prefix != 0;
}

void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts, const char* src_name,
                                             int src_index, TF_Output dst) {
  opts->opts.input_map[{src_name, src_index}] = {ToNode(dst.oper)->name(), dst.index};
}

void TF_ImportGraphDefOptionsRemapControlDependency(TF_ImportGraphDefOptions* opts,
                                                    const char* src_name, TF_Operation* dst) {
  opts->opts.input_map[{src_name, sluice::Graph::kControlSlot}] = {ToNode(dst)->name(),
                                                                   sluice::Graph::kControlSlot};
}

void TF_ImportGraphDefOptionsAddControlDependency(TF_ImportGraphDefOptions* opts,
                                                  TF_Operation* oper) {
  opts->opts.control_dependencies.push_back(ToNode(oper)->name());
}

void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts, const char* oper_name,
                                             int index) {
  opts->opts.return_tensors.emplace_back(oper_name, index);
}

int TF_ImportGraphDefOptionsNumReturnOutputs(const TF_ImportGraphDefOptions* opts) {
  return static_cast<int>(opts->opts.return_tensors.size());
}

void TF_ImportGraphDefOptionsAddReturnOperation(TF_ImportGraphDefOptions* opts,
                                                const char* oper_name) {
  opts->opts.return_nodes.push_back(oper_name);
}

int TF_ImportGraphDefOptionsNumReturnOperations(const TF_ImportGraphDefOptions* opts) {
  return static_cast<int>(opts->opts.return_nodes.size());
}

void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results, int* num_outputs,
                                           TF_Output** outputs) {
  *num_outputs = static_cast<int>(results->return_tensors.size());
  *outputs = results->return_tensors.data();
}

void TF_ImportGraphDefResultsReturnOperations(TF_ImportGraphDefResults* results, int* num_opers,
                                              TF_Operation*** opers) {
  *num_opers = static_cast<int>(results->return_nodes.size());
  *opers = results->return_nodes.data();
}

void TF_ImportGraphDefResultsMissingUnusedInputMappings(TF_ImportGraphDefResults* results,
                                                        int* num_missing_unused_input_mappings,
                                                        const char*** src_names,
                                                        int** src_indexes) {
  *num_missing_unused_input_mappings = static_cast<int>(results->missing_unused_key_names.size());
  *src_names = results->missing_unused_key_names.data();
  *src_indexes = results->missing_unused_key_indexes.data();
}

void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results) { delete results; }

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(TF_Graph* graph,
                                                            const TF_Buffer* graph_def,
                                                            const TF_ImportGraphDefOptions* options,
                                                            TF_Status* status) {
  if (graph_def == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The GraphDef buffer is null."));
    return nullptr;
  }
  sluice::GraphDef def;
  if (!sluice::c_api::ParseFromBytes(graph_def->data, graph_def->length, &def)) {
    SetStatus(status, absl::InvalidArgumentError("Invalid GraphDef"));
    return nullptr;
  }
  const sluice::ImportGraphDefOptions defaults;
  const sluice::ImportGraphDefOptions& opts = options == nullptr ? defaults : options->opts;
  sluice::ImportGraphDefResults imported;
  absl::Status status_of_import;
  {
    absl::MutexLock lock(&graph->mu);
    status_of_import = sluice::ImportGraphDef(opts, def, &graph->graph, &graph->refiner, &imported);
  }
  if (!status_of_import.ok()) {
    SetStatus(status, status_of_import);
    return nullptr;
  }
  auto results = std::make_unique<TF_ImportGraphDefResults>();
  for (const auto& [node, index] : imported.return_tensors) {
    results->return_tensors.push_back(TF_Output{ToOperation(node), index});
  }
  for (sluice::Node* node : imported.return_nodes) {
    results->return_nodes.push_back(ToOperation(node));
  }
  results->missing_unused_key_storage.reserve(imported.missing_unused_input_map_keys.size());
  for (const auto& [name, index] : imported.missing_unused_input_map_keys) {
    results->missing_unused_key_storage.push_back(name);
    results->missing_unused_key_indexes.push_back(index);
  }
  for (const std::string& name : results->missing_unused_key_storage) {
    results->missing_unused_key_names.push_back(name.c_str());
  }
  SetStatus(status, absl::OkStatus());
  return results.release();
}

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResultsNoSerialization(
    TF_Graph*, const TF_Buffer*, const TF_ImportGraphDefOptions*, TF_Status* status) {
  // The buffer holds a pointer to a C++ tensorflow::GraphDef, a type of TensorFlow's own
  // build that Sluice's library cannot read; the serialized form works everywhere.
  SetStatus(status,
            absl::UnimplementedError(
                "TF_GraphImportGraphDefWithResultsNoSerialization is not supported by "
                "Sluice: pass the serialized GraphDef to TF_GraphImportGraphDefWithResults"));
  return nullptr;
}

void TF_GraphImportGraphDefWithReturnOutputs(TF_Graph* graph, const TF_Buffer* graph_def,
                                             const TF_ImportGraphDefOptions* options,
                                             TF_Output* return_outputs, int num_return_outputs,
                                             TF_Status* status) {
  const int expected = options == nullptr ? 0 : TF_ImportGraphDefOptionsNumReturnOutputs(options);
  if (num_return_outputs != expected) {
    return SetStatus(
        status, absl::InvalidArgumentError(absl::StrCat("Expected 'num_return_outputs' to be ",
                                                        expected, ", got ", num_return_outputs)));
  }
  TF_ImportGraphDefResults* results =
      TF_GraphImportGraphDefWithResults(graph, graph_def, options, status);
  if (results == nullptr) return;
  for (int i = 0; i < num_return_outputs; ++i) return_outputs[i] = results->return_tensors[i];
  delete results;
}

void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                            const TF_ImportGraphDefOptions* options, TF_Status* status) {
  delete TF_GraphImportGraphDefWithResults(graph, graph_def, options, status);
}

}  // extern "C"
