// TF_LoadSessionFromSavedModel (tensorflow/c/c_api.h): a SavedModel directory loaded through
// saved_model/loader.h (restored and initialised), its graph imported into the caller's empty
// TF_Graph, and a TF_Session over both.
//
// The session was created from the MetaGraphDef's GraphDef, and the TF_Graph holds the same
// nodes with the same names, so the TF_Session starts with every node of the graph already
// sent: operations the caller adds later reach the session through the usual Extend before
// the next run, as with TensorFlow.
#include <string>
#include <unordered_set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/import/graph_constructor.h"
#include "proto/config.pb.h"
#include "saved_model/loader.h"

using sluice::c_api::MessageToBuffer;
using sluice::c_api::SetStatus;

extern "C" {

TF_Session* TF_LoadSessionFromSavedModel(const TF_SessionOptions* session_options,
                                         const TF_Buffer* run_options, const char* export_dir,
                                         const char* const* tags, int tags_len, TF_Graph* graph,
                                         TF_Buffer* meta_graph_def, TF_Status* status) {
  if (graph == nullptr || export_dir == nullptr || (tags == nullptr && tags_len > 0) ||
      tags_len < 0) {
    SetStatus(status, absl::InvalidArgumentError(
                          "TF_LoadSessionFromSavedModel: the graph, the export directory and "
                          "the tags (when tags_len > 0) must not be null, nor tags_len negative"));
    return nullptr;
  }
  {
    absl::MutexLock lock(&graph->mu);
    if (graph->graph.num_op_nodes() > 0) {
      SetStatus(status, absl::InvalidArgumentError("Graph is non-empty."));
      return nullptr;
    }
  }
  sluice::RunOptions run_options_proto;
  if (run_options != nullptr &&
      !sluice::c_api::ParseFromBytes(run_options->data, run_options->length, &run_options_proto)) {
    SetStatus(status, absl::InvalidArgumentError("Unparseable RunOptions proto"));
    return nullptr;
  }
  std::unordered_set<std::string> tag_set;
  for (int i = 0; i < tags_len; ++i) {
    if (tags[i] == nullptr) {
      SetStatus(status, absl::InvalidArgumentError(
                            absl::StrCat("TF_LoadSessionFromSavedModel: tag ", i, " is null")));
      return nullptr;
    }
    tag_set.insert(tags[i]);
  }

  const sluice::SessionOptions defaults;
  sluice::SavedModelBundle bundle;
  absl::Status loaded =
      sluice::LoadSavedModel(session_options == nullptr ? defaults : session_options->options,
                             run_options_proto, export_dir, tag_set, &bundle);
  if (!loaded.ok()) {
    SetStatus(status, loaded);
    return nullptr;
  }

  int num_node_ids = 0;
  {
    absl::MutexLock lock(&graph->mu);
    // Checked again under the lock held for the import: the graph must still be empty.
    if (graph->graph.num_op_nodes() > 0) {
      SetStatus(status, absl::InvalidArgumentError("Graph is non-empty."));
      return nullptr;
    }
    sluice::ImportGraphDefResults unused;
    absl::Status imported =
        sluice::ImportGraphDef(sluice::ImportGraphDefOptions(), bundle.meta_graph_def.graph_def(),
                               &graph->graph, &graph->refiner, &unused);
    if (!imported.ok()) {
      SetStatus(status, imported);
      return nullptr;
    }
    num_node_ids = graph->graph.num_node_ids();
  }
  if (meta_graph_def != nullptr) {
    absl::Status written = MessageToBuffer(bundle.meta_graph_def, meta_graph_def);
    if (!written.ok()) {
      SetStatus(status, written);
      return nullptr;
    }
  }

  auto* session = new TF_Session(std::move(bundle.session), graph);
  {
    absl::MutexLock lock(&session->mu);
    session->num_node_ids_sent = num_node_ids;
  }
  {
    absl::MutexLock lock(&graph->mu);
    ++graph->num_sessions;
  }
  SetStatus(status, absl::OkStatus());
  return session;
}

}  // extern "C"
