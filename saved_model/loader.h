// Loading a SavedModel into a session (TensorFlow's tensorflow/cc/saved_model/loader.h):
// read the MetaGraphDef of a tag set, give its graph to a new session, restore the variables
// from the export directory's checkpoint and run the initialisation op, so that the session
// is ready to run the model's signatures.
//
// What LoadSavedModel runs, as TensorFlow's loader does:
//  1. ReadMetaGraphDefFromSavedModel (reader.h);
//  2. checks the graph (a Const without a value, or a value whose shape has unknown or negative
//     dimensions, is FAILED_PRECONDITION; so is a library function that calls itself);
//  3. NewSession(session_options) and Session::Create(graph_def);
//  4. when the MetaGraphDef has a SaverDef and variables/variables.index exists: one step that
//     feeds saver_def.filename_tensor_name with "<export_dir>/variables/variables" (and every
//     asset's tensor with its path under assets/) and runs saver_def.restore_op_name;
//  5. the initialisation op, if any — the output of signature "__saved_model_init_op", else
//     the one node of collection "saved_model_main_op", else of "legacy_init_op" — run as a
//     target with the asset tensors fed.
// Each step runs through a callable that is released afterwards, so nothing of the restore or
// init subgraphs stays cached in the session; the variables and tables they set do.
//
// Errors are the failing stage's, unchanged: the reader's, the session's (an op without a
// kernel, a missing checkpoint key from RestoreV2), FAILED_PRECONDITION "Expected exactly one
// main op in : <export_dir>" for a main-op collection that does not hold one node name.
#ifndef SLUICE_SAVED_MODEL_LOADER_H_
#define SLUICE_SAVED_MODEL_LOADER_H_

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "proto/config.pb.h"
#include "proto/meta_graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {

// A loaded SavedModel: the session, restored and initialised, and the MetaGraphDef it was
// made from (signatures, collections, the graph itself). The session is closed on destruction.
struct SavedModelBundle {
  SavedModelBundle() = default;
  SavedModelBundle(SavedModelBundle&&) = default;
  SavedModelBundle& operator=(SavedModelBundle&&) = default;
  ~SavedModelBundle();

  Session* GetSession() const { return session.get(); }
  const google::protobuf::Map<std::string, SignatureDef>& GetSignatures() const {
    return meta_graph_def.signature_def();
  }

  std::unique_ptr<Session> session;
  MetaGraphDef meta_graph_def;
};

// Steps 1-5 above. On error `bundle` holds whatever was made before the failing stage.
absl::Status LoadSavedModel(const SessionOptions& session_options, const RunOptions& run_options,
                            const std::string& export_dir,
                            const std::unordered_set<std::string>& tags, SavedModelBundle* bundle);

// Steps 2 and 3: a new session holding meta_graph's graph.
absl::Status LoadMetagraphIntoSession(const SessionOptions& session_options,
                                      const MetaGraphDef& meta_graph,
                                      std::unique_ptr<Session>* session);

// Steps 4 and 5, on a session that holds meta_graph's graph.
absl::Status RestoreSession(const RunOptions& run_options, const MetaGraphDef& meta_graph,
                            const std::string& export_dir, std::unique_ptr<Session>* session);

// The assets the init and restore steps feed: meta_graph.asset_file_def, or for older
// SavedModels the AssetFileDefs packed in collection "saved_model_assets".
// INVALID_ARGUMENT for a packed value that is not an AssetFileDef.
absl::Status GetAssetFileDefs(const MetaGraphDef& meta_graph,
                              std::vector<AssetFileDef>* asset_file_defs);

// The name of the initialisation op (step 5), or "" when the model has none.
absl::Status GetInitOp(const std::string& export_dir, const MetaGraphDef& meta_graph,
                       std::string* init_op_name);

// True when `export_dir` holds a saved_model.pb or saved_model.pbtxt (it may still not parse).
bool MaybeSavedModelDirectory(const std::string& export_dir);

}  // namespace sluice

#endif  // SLUICE_SAVED_MODEL_LOADER_H_
