// Sessions (tensorflow/c/c_api.h): options, TF_Session over a TF_Graph, runs, devices, and the
// deprecated GraphDef-fed session that older bindings still call.
//
// A TF_Session sends its graph to the Sluice session lazily: before each run, the nodes the
// graph gained since the last run go in through Session::Extend, so operations added after
// the session was made are runnable, as with TensorFlow.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"

using sluice::c_api::MessageToBuffer;
using sluice::c_api::OutputName;
using sluice::c_api::SetStatus;
using sluice::c_api::ToNode;

struct TF_DeprecatedSession {
  std::unique_ptr<sluice::Session> session;
};

namespace {

// Sends the graph's new nodes to the session. REQUIRES: session->mu held.
absl::Status ExtendSessionGraph(TF_Session* session) ABSL_EXCLUSIVE_LOCKS_REQUIRED(session->mu) {
  TF_Graph* graph = session->graph;
  sluice::GraphDef def;
  int num_node_ids;
  {
    absl::MutexLock lock(&graph->mu);
    num_node_ids = graph->graph.num_node_ids();
    if (num_node_ids <= session->num_node_ids_sent) return absl::OkStatus();
    for (int id = std::max(session->num_node_ids_sent, 2); id < num_node_ids; ++id) {
      const sluice::Node* node = graph->graph.FindNodeId(id);
      if (node != nullptr) *def.add_node() = node->def();
    }
    *def.mutable_versions() = graph->graph.versions();
    if (session->num_node_ids_sent == 0) *def.mutable_library() = graph->graph.library();
  }
  absl::Status extended = session->session->Extend(def);
  if (extended.ok()) session->num_node_ids_sent = num_node_ids;
  return extended;
}

absl::Status ParseRunOptions(const TF_Buffer* buffer, sluice::RunOptions* options) {
  if (buffer == nullptr) return absl::OkStatus();
  if (!sluice::c_api::ParseFromBytes(buffer->data, buffer->length, options)) {
    return absl::InvalidArgumentError("Unparseable RunOptions proto");
  }
  return absl::OkStatus();
}

// Runs one step with named feeds, fetches and targets; the shared part of TF_SessionRun and
// TF_Run. Output slots are null unless the whole run succeeded.
void RunWithNames(sluice::Session* session, const TF_Buffer* run_options,
                  const std::vector<std::string>& input_names, TF_Tensor* const* input_values,
                  const std::vector<std::string>& output_names, TF_Tensor** output_values,
                  const std::vector<std::string>& target_names, TF_Buffer* run_metadata,
                  TF_Status* status) {
  for (size_t i = 0; i < output_names.size(); ++i) output_values[i] = nullptr;
  sluice::RunOptions options;
  absl::Status parsed = ParseRunOptions(run_options, &options);
  if (!parsed.ok()) return SetStatus(status, parsed);
  if (run_metadata != nullptr && run_metadata->data != nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("Passing non-empty run_metadata is invalid."));
  }
  if (!input_names.empty() && input_values == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The input values are null."));
  }
  std::vector<std::pair<std::string, sluice::Tensor>> feeds;
  feeds.reserve(input_names.size());
  for (size_t i = 0; i < input_names.size(); ++i) {
    absl::StatusOr<sluice::Tensor> value = sluice::c_api::TensorFromTF(input_values[i]);
    if (!value.ok()) {
      return SetStatus(status, absl::Status(value.status().code(),
                                            absl::StrCat("Feed '", input_names[i],
                                                         "': ", value.status().message())));
    }
    feeds.emplace_back(input_names[i], *std::move(value));
  }
  std::vector<sluice::Tensor> outputs;
  sluice::RunMetadata metadata;
  absl::Status ran = session->Run(options, feeds, output_names, target_names, &outputs,
                                  run_metadata == nullptr ? nullptr : &metadata);
  if (!ran.ok()) return SetStatus(status, ran);
  if (outputs.size() != output_names.size()) {
    return SetStatus(status, absl::InternalError(absl::StrCat("The session returned ",
                                                              outputs.size(), " outputs for ",
                                                              output_names.size(), " fetches")));
  }
  std::vector<TF_Tensor*> converted(outputs.size(), nullptr);
  for (size_t i = 0; i < outputs.size(); ++i) {
    absl::StatusOr<TF_Tensor*> tensor = sluice::c_api::TensorToTF(outputs[i]);
    if (!tensor.ok()) {
      for (TF_Tensor* done : converted) TF_DeleteTensor(done);
      return SetStatus(status, tensor.status());
    }
    converted[i] = *tensor;
  }
  if (run_metadata != nullptr) {
    absl::Status written = MessageToBuffer(metadata, run_metadata);
    if (!written.ok()) {
      for (TF_Tensor* done : converted) TF_DeleteTensor(done);
      return SetStatus(status, written);
    }
  }
  for (size_t i = 0; i < converted.size(); ++i) output_values[i] = converted[i];
  SetStatus(status, absl::OkStatus());
}

// INVALID_ARGUMENT unless every output is an output of an operation of the graph.
absl::Status ValidateOutputs(const TF_Output* outputs, int n, const char* what) {
  if (n > 0 && outputs == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(what, "s are null for a count of ", n));
  }
  for (int i = 0; i < n; ++i) {
    const sluice::Node* node = ToNode(outputs[i].oper);
    if (node == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(what, " ", i, " has a null operation"));
    }
    if (outputs[i].index < 0 || outputs[i].index >= node->num_outputs()) {
      return absl::OutOfRangeError(absl::StrCat(what, " ", i, ": node '", node->name(), "' has ",
                                                node->num_outputs(), " outputs; index ",
                                                outputs[i].index, " is out of range"));
    }
  }
  return absl::OkStatus();
}

TF_DeviceList* ListDevices(sluice::Session* session, TF_Status* status) {
  auto list = std::make_unique<TF_DeviceList>();
  absl::Status listed = session->ListDevices(&list->devices);
  SetStatus(status, listed);
  return listed.ok() ? list.release() : nullptr;
}

const sluice::DeviceAttributes* DeviceAt(const TF_DeviceList* list, int index, TF_Status* status) {
  if (list == nullptr || index < 0 || index >= static_cast<int>(list->devices.size())) {
    SetStatus(status, absl::InvalidArgumentError(
                          absl::StrCat("Index out of range: ", index, " for a list of ",
                                       list == nullptr ? 0 : list->devices.size(), " devices")));
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return &list->devices[index];
}

std::vector<std::string> Names(const char* const* names, int n) {
  std::vector<std::string> out;
  out.reserve(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) out.emplace_back(names[i] == nullptr ? "" : names[i]);
  return out;
}

absl::Status PartialRunsUnsupported(const char* function) {
  return absl::UnimplementedError(
      absl::StrCat(function,
                   ": partial runs are not supported by Sluice yet; run the fetches with one "
                   "TF_SessionRun call"));
}

}  // namespace

extern "C" {

TF_SessionOptions* TF_NewSessionOptions(void) { return new TF_SessionOptions; }

void TF_SetTarget(TF_SessionOptions* options, const char* target) {
  options->options.target = target == nullptr ? "" : target;
}

void TF_SetConfig(TF_SessionOptions* options, const void* proto, size_t proto_len,
                  TF_Status* status) {
  sluice::ConfigProto config;
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, &config)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable ConfigProto"));
  }
  options->options.config = std::move(config);
  SetStatus(status, absl::OkStatus());
}

void TF_DeleteSessionOptions(TF_SessionOptions* options) { delete options; }

TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts, TF_Status* status) {
  if (graph == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("TF_NewSession: the graph is null"));
    return nullptr;
  }
  const sluice::SessionOptions defaults;
  std::unique_ptr<sluice::Session> session;
  absl::Status made = sluice::NewSession(opts == nullptr ? defaults : opts->options, &session);
  if (!made.ok()) {
    SetStatus(status, made);
    return nullptr;
  }
  {
    absl::MutexLock lock(&graph->mu);
    ++graph->num_sessions;
  }
  SetStatus(status, absl::OkStatus());
  return new TF_Session(std::move(session), graph);
}

void TF_CloseSession(TF_Session* session, TF_Status* status) {
  {
    absl::MutexLock lock(&session->mu);
    session->closed = true;
  }
  SetStatus(status, session->session->Close());
}

void TF_DeleteSession(TF_Session* session, TF_Status* status) {
  if (session == nullptr) return;
  SetStatus(status, session->session->Close());
  TF_Graph* graph = session->graph;
  bool delete_graph = false;
  {
    absl::MutexLock lock(&graph->mu);
    --graph->num_sessions;
    delete_graph = graph->delete_requested && graph->num_sessions == 0;
  }
  delete session;
  if (delete_graph) delete graph;
}

void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options, const TF_Output* inputs,
                   TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                   TF_Tensor** output_values, int noutputs, const TF_Operation* const* target_opers,
                   int ntargets, TF_Buffer* run_metadata, TF_Status* status) {
  for (int i = 0; i < noutputs; ++i) output_values[i] = nullptr;
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    return SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                                 "TF_SessionRun: negative count (ninputs ", ninputs, ", noutputs ",
                                 noutputs, ", ntargets ", ntargets, ")")));
  }
  for (int i = 0; i < ninputs; ++i) {
    if (input_values == nullptr || input_values[i] == nullptr) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   absl::StrCat("TF_SessionRun: input value ", i, " is null")));
    }
  }
  for (int i = 0; i < ntargets; ++i) {
    if (target_opers == nullptr || target_opers[i] == nullptr) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   absl::StrCat("TF_SessionRun: target ", i, " is null")));
    }
  }
  absl::Status valid = ValidateOutputs(inputs, ninputs, "Input");
  if (valid.ok()) valid = ValidateOutputs(outputs, noutputs, "Output");
  if (!valid.ok()) return SetStatus(status, valid);
  {
    absl::MutexLock lock(&session->mu);
    if (!session->closed) {
      absl::Status extended = ExtendSessionGraph(session);
      if (!extended.ok()) return SetStatus(status, extended);
    }
  }
  std::vector<std::string> input_names(ninputs);
  for (int i = 0; i < ninputs; ++i) input_names[i] = OutputName(inputs[i]);
  std::vector<std::string> output_names(noutputs);
  for (int i = 0; i < noutputs; ++i) output_names[i] = OutputName(outputs[i]);
  std::vector<std::string> target_names(ntargets);
  for (int i = 0; i < ntargets; ++i) target_names[i] = ToNode(target_opers[i])->name();
  RunWithNames(session->session.get(), run_options, input_names, input_values, output_names,
               output_values, target_names, run_metadata, status);
}

void TF_SessionPRunSetup(TF_Session*, const TF_Output*, int, const TF_Output*, int,
                         const TF_Operation* const*, int, const char** handle, TF_Status* status) {
  *handle = nullptr;
  SetStatus(status, PartialRunsUnsupported("TF_SessionPRunSetup"));
}

void TF_SessionPRun(TF_Session*, const char*, const TF_Output*, TF_Tensor* const*, int,
                    const TF_Output*, TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const*, int, TF_Status* status) {
  for (int i = 0; i < noutputs; ++i) output_values[i] = nullptr;
  SetStatus(status, PartialRunsUnsupported("TF_SessionPRun"));
}

void TF_DeletePRunHandle(const char* handle) { delete[] handle; }

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  return ListDevices(session->session.get(), status);
}

void TF_DeleteDeviceList(TF_DeviceList* list) { delete list; }

int TF_DeviceListCount(const TF_DeviceList* list) {
  return list == nullptr ? 0 : static_cast<int>(list->devices.size());
}

const char* TF_DeviceListName(const TF_DeviceList* list, int index, TF_Status* status) {
  const sluice::DeviceAttributes* device = DeviceAt(list, index, status);
  return device == nullptr ? nullptr : device->name().c_str();
}

const char* TF_DeviceListType(const TF_DeviceList* list, int index, TF_Status* status) {
  const sluice::DeviceAttributes* device = DeviceAt(list, index, status);
  return device == nullptr ? nullptr : device->device_type().c_str();
}

int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index, TF_Status* status) {
  const sluice::DeviceAttributes* device = DeviceAt(list, index, status);
  return device == nullptr ? -1 : device->memory_limit();
}

uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index, TF_Status* status) {
  const sluice::DeviceAttributes* device = DeviceAt(list, index, status);
  return device == nullptr ? 0 : device->incarnation();
}

// The deprecated session, fed GraphDefs by TF_ExtendGraph and run by tensor names.

TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions* opts, TF_Status* status) {
  const sluice::SessionOptions defaults;
  std::unique_ptr<sluice::Session> session;
  absl::Status made = sluice::NewSession(opts == nullptr ? defaults : opts->options, &session);
  SetStatus(status, made);
  if (!made.ok()) return nullptr;
  return new TF_DeprecatedSession{std::move(session)};
}

void TF_CloseDeprecatedSession(TF_DeprecatedSession* session, TF_Status* status) {
  SetStatus(status, session->session->Close());
}

void TF_DeleteDeprecatedSession(TF_DeprecatedSession* session, TF_Status* status) {
  if (session == nullptr) return;
  SetStatus(status, session->session->Close());
  delete session;
}

void TF_Reset(const TF_SessionOptions*, const char**, int, TF_Status* status) {
  SetStatus(status, absl::UnimplementedError(
                        "TF_Reset is not supported by Sluice: in-process sessions keep their "
                        "resources until TF_CloseSession"));
}

void TF_ExtendGraph(TF_DeprecatedSession* session, const void* proto, size_t proto_len,
                    TF_Status* status) {
  sluice::GraphDef def;
  if (!sluice::c_api::ParseFromBytes(proto, proto_len, &def)) {
    return SetStatus(status, absl::InvalidArgumentError("Invalid GraphDef"));
  }
  SetStatus(status, session->session->Extend(def));
}

void TF_Run(TF_DeprecatedSession* session, const TF_Buffer* run_options, const char** input_names,
            TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
            int noutputs, const char** target_oper_names, int ntargets, TF_Buffer* run_metadata,
            TF_Status* status) {
  RunWithNames(session->session.get(), run_options, Names(input_names, ninputs), inputs,
               Names(output_names, noutputs), outputs, Names(target_oper_names, ntargets),
               run_metadata, status);
}

void TF_PRunSetup(TF_DeprecatedSession*, const char**, int, const char**, int, const char**, int,
                  const char** handle, TF_Status* status) {
  *handle = nullptr;
  SetStatus(status, PartialRunsUnsupported("TF_PRunSetup"));
}

void TF_PRun(TF_DeprecatedSession*, const char*, const char**, TF_Tensor**, int, const char**,
             TF_Tensor** outputs, int noutputs, const char**, int, TF_Status* status) {
  for (int i = 0; i < noutputs; ++i) outputs[i] = nullptr;
  SetStatus(status, PartialRunsUnsupported("TF_PRun"));
}

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* session, TF_Status* status) {
  return ListDevices(session->session.get(), status);
}

}  // extern "C"
