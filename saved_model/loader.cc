#include "saved_model/loader.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "saved_model/constants.h"
#include "saved_model/reader.h"

namespace sluice {
namespace {

// TensorFlow's loader checks these before the session sees the graph: a Const's value must
// have a fully known shape, and a Const must have a value.
absl::Status ValidateNode(const NodeDef& node) {
  const auto value = node.attr().find("value");
  if (value != node.attr().end()) {
    if (value->second.has_tensor()) {
      const TensorShapeProto& shape = value->second.tensor().tensor_shape();
      bool known = !shape.unknown_rank();
      for (const auto& dim : shape.dim()) known = known && dim.size() >= 0;
      if (!known) {
        return errors::FailedPrecondition("Saved model contains node \"", node.name(), "\" (op \"",
                                          node.op(),
                                          "\") which initializes from a tensor with -1 elements");
      }
    }
  } else if (node.op() == "Const") {
    return errors::FailedPrecondition("Saved model contains node \"", node.name(),
                                      "\" which is a constant tensor but no value has been "
                                      "provided");
  }
  return absl::OkStatus();
}

absl::Status ValidateSavedTensors(const GraphDef& graph_def) {
  for (const NodeDef& node : graph_def.node()) RETURN_IF_ERROR(ValidateNode(node));
  for (const FunctionDef& function : graph_def.library().function()) {
    for (const NodeDef& node : function.node_def()) {
      RETURN_IF_ERROR(ValidateNode(node));
      if (node.op() == function.signature().name()) {
        return errors::FailedPrecondition("Function ", function.signature().name(),
                                          " is self recursive and TensorFlow does not support "
                                          "this scenario.");
      }
    }
  }
  return absl::OkStatus();
}

Tensor StringScalar(const std::string& value) {
  Tensor tensor(DT_STRING, TensorShape({}));
  tensor.scalar<std::string>()() = value;
  return tensor;
}

void AddAssetFeeds(const std::string& export_dir, const std::vector<AssetFileDef>& assets,
                   std::vector<std::pair<std::string, Tensor>>* feeds) {
  for (const AssetFileDef& asset : assets) {
    feeds->emplace_back(
        asset.tensor_info().name(),
        StringScalar(JoinExportPath(export_dir, kSavedModelAssetsDirectory, asset.filename())));
  }
}

// One step through a callable released afterwards (see loader.h).
absl::Status RunOnce(const RunOptions& run_options,
                     const std::vector<std::pair<std::string, Tensor>>& feeds,
                     const std::string& target, Session* session) {
  CallableOptions callable;
  *callable.mutable_run_options() = run_options;
  std::vector<Tensor> feed_values;
  feed_values.reserve(feeds.size());
  for (const auto& [name, value] : feeds) {
    callable.add_feed(name);
    feed_values.push_back(value);
  }
  callable.add_target(target);
  Session::CallableHandle handle = 0;
  RETURN_IF_ERROR(session->MakeCallable(callable, &handle));
  std::vector<Tensor> no_fetches;
  const absl::Status ran = session->RunCallable(handle, feed_values, &no_fetches, nullptr);
  session->ReleaseCallable(handle).IgnoreError();
  return ran;
}

absl::Status RunRestore(const RunOptions& run_options, const std::string& export_dir,
                        const SaverDef& saver, const std::vector<AssetFileDef>& assets,
                        Session* session) {
  const std::string prefix =
      JoinExportPath(export_dir, kSavedModelVariablesDirectory, kSavedModelVariablesFilename);
  // A model without variables has no checkpoint; TensorFlow restores nothing then.
  if (!IsExistingFile(prefix + ".index")) return absl::OkStatus();
  std::vector<std::pair<std::string, Tensor>> feeds = {
      {saver.filename_tensor_name(), StringScalar(prefix)}};
  AddAssetFeeds(export_dir, assets, &feeds);
  return RunOnce(run_options, feeds, saver.restore_op_name(), session);
}

}  // namespace

SavedModelBundle::~SavedModelBundle() {
  if (session != nullptr) session->Close().IgnoreError();
}

bool MaybeSavedModelDirectory(const std::string& export_dir) {
  return IsExistingFile(JoinExportPath(export_dir, kSavedModelFilenamePb)) ||
         IsExistingFile(JoinExportPath(export_dir, kSavedModelFilenamePbTxt));
}

absl::Status GetAssetFileDefs(const MetaGraphDef& meta_graph,
                              std::vector<AssetFileDef>* asset_file_defs) {
  asset_file_defs->clear();
  if (meta_graph.asset_file_def_size() > 0) {
    asset_file_defs->assign(meta_graph.asset_file_def().begin(), meta_graph.asset_file_def().end());
    return absl::OkStatus();
  }
  const auto assets = meta_graph.collection_def().find(kSavedModelAssetsKey);
  if (assets == meta_graph.collection_def().end()) return absl::OkStatus();
  for (const google::protobuf::Any& packed : assets->second.any_list().value()) {
    AssetFileDef asset;
    // TensorFlow packs them as type.googleapis.com/tensorflow.AssetFileDef.
    if (!absl::EndsWith(packed.type_url(), "/tensorflow.AssetFileDef") ||
        !asset.ParseFromString(packed.value())) {
      return errors::InvalidArgument("The type of serialized message '", packed.type_url(),
                                     "' in collection ", kSavedModelAssetsKey,
                                     " is not tensorflow.AssetFileDef");
    }
    asset_file_defs->push_back(std::move(asset));
  }
  return absl::OkStatus();
}

absl::Status GetInitOp(const std::string& export_dir, const MetaGraphDef& meta_graph,
                       std::string* init_op_name) {
  init_op_name->clear();
  const auto signature = meta_graph.signature_def().find(kSavedModelInitOpSignatureKey);
  if (signature != meta_graph.signature_def().end()) {
    const auto output = signature->second.outputs().find(kSavedModelInitOpSignatureKey);
    if (output == signature->second.outputs().end()) {
      return errors::FailedPrecondition("Could not find output ", kSavedModelInitOpSignatureKey);
    }
    *init_op_name = output->second.name();
    return absl::OkStatus();
  }
  const auto& collections = meta_graph.collection_def();
  auto init = collections.find(kSavedModelMainOpKey);
  if (init == collections.end()) init = collections.find(kSavedModelLegacyInitOpKey);
  if (init == collections.end()) return absl::OkStatus();
  if (init->second.node_list().value_size() != 1) {
    return errors::FailedPrecondition("Expected exactly one main op in : ", export_dir);
  }
  *init_op_name = init->second.node_list().value(0);
  return absl::OkStatus();
}

absl::Status LoadMetagraphIntoSession(const SessionOptions& session_options,
                                      const MetaGraphDef& meta_graph,
                                      std::unique_ptr<Session>* session) {
  RETURN_IF_ERROR(NewSession(session_options, session));
  RETURN_IF_ERROR(ValidateSavedTensors(meta_graph.graph_def()));
  return (*session)->Create(meta_graph.graph_def());
}

absl::Status RestoreSession(const RunOptions& run_options, const MetaGraphDef& meta_graph,
                            const std::string& export_dir, std::unique_ptr<Session>* session) {
  std::vector<AssetFileDef> assets;
  RETURN_IF_ERROR(GetAssetFileDefs(meta_graph, &assets));
  if (meta_graph.has_saver_def()) {
    RETURN_IF_ERROR(
        RunRestore(run_options, export_dir, meta_graph.saver_def(), assets, session->get()));
  }
  std::string init_op;
  RETURN_IF_ERROR(GetInitOp(export_dir, meta_graph, &init_op));
  if (init_op.empty()) return absl::OkStatus();
  std::vector<std::pair<std::string, Tensor>> feeds;
  AddAssetFeeds(export_dir, assets, &feeds);
  return RunOnce(run_options, feeds, init_op, session->get());
}

absl::Status LoadSavedModel(const SessionOptions& session_options, const RunOptions& run_options,
                            const std::string& export_dir,
                            const std::unordered_set<std::string>& tags, SavedModelBundle* bundle) {
  RETURN_IF_ERROR(ReadMetaGraphDefFromSavedModel(export_dir, tags, &bundle->meta_graph_def));
  RETURN_IF_ERROR(
      LoadMetagraphIntoSession(session_options, bundle->meta_graph_def, &bundle->session));
  return RestoreSession(run_options, bundle->meta_graph_def, export_dir, &bundle->session);
}

}  // namespace sluice
