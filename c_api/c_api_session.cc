// Sessions (tensorflow/c/c_api.h): options, TF_Session over a TF_Graph, runs, devices, and the
// deprecated GraphDef-fed session that older bindings still call.
//
// A TF_Session sends its graph to the Sluice session lazily: before each run, the nodes the
// graph gained since the last run go in through Session::Extend, so operations added after
// the session was made are runnable, as with TensorFlow.
#include <cstring>
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

// The feeds of a run as the session takes them: each name with its value (fixed-size tensors
// share the caller's bytes).
absl::Status ConvertFeeds(const std::vector<std::string>& input_names,
                          TF_Tensor* const* input_values,
                          std::vector<std::pair<std::string, sluice::Tensor>>* feeds) {
  if (!input_names.empty() && input_values == nullptr) {
    return absl::InvalidArgumentError("The input values are null.");
  }
  feeds->reserve(input_names.size());
  for (size_t i = 0; i < input_names.size(); ++i) {
    absl::StatusOr<sluice::Tensor> value = sluice::c_api::TensorFromTF(input_values[i]);
    if (!value.ok()) {
      return absl::Status(value.status().code(),
                          absl::StrCat("Feed '", input_names[i], "': ", value.status().message()));
    }
    feeds->emplace_back(input_names[i], *std::move(value));
  }
  return absl::OkStatus();
}

// New TF_Tensors for the session's outputs of `num_fetches` fetches, all or none: on error
// none is left allocated.
absl::Status ConvertOutputs(const std::vector<sluice::Tensor>& outputs, size_t num_fetches,
                            std::vector<TF_Tensor*>* converted) {
  if (outputs.size() != num_fetches) {
    return absl::InternalError(absl::StrCat("The session returned ", outputs.size(),
                                            " outputs for ", num_fetches, " fetches"));
  }
  converted->assign(outputs.size(), nullptr);
  for (size_t i = 0; i < outputs.size(); ++i) {
    absl::StatusOr<TF_Tensor*> tensor = sluice::c_api::TensorToTF(outputs[i]);
    if (!tensor.ok()) {
      for (TF_Tensor* done : *converted) TF_DeleteTensor(done);
      converted->clear();
      return tensor.status();
    }
    (*converted)[i] = *tensor;
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
  std::vector<std::pair<std::string, sluice::Tensor>> feeds;
  absl::Status converted_feeds = ConvertFeeds(input_names, input_values, &feeds);
  if (!converted_feeds.ok()) return SetStatus(status, converted_feeds);
  std::vector<sluice::Tensor> outputs;
  sluice::RunMetadata metadata;
  absl::Status ran = session->Run(options, feeds, output_names, target_names, &outputs,
                                  run_metadata == nullptr ? nullptr : &metadata);
  if (!ran.ok()) return SetStatus(status, ran);
  std::vector<TF_Tensor*> converted;
  absl::Status converted_outputs = ConvertOutputs(outputs, output_names.size(), &converted);
  if (!converted_outputs.ok()) return SetStatus(status, converted_outputs);
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

// Starts a partial run with named feeds, fetches and targets; the shared part of
// TF_SessionPRunSetup and TF_PRunSetup. *handle is a new C string, or null on error.
void PRunSetupWithNames(sluice::Session* session, const std::vector<std::string>& input_names,
                        const std::vector<std::string>& output_names,
                        const std::vector<std::string>& target_names, const char** handle,
                        TF_Status* status) {
  std::string new_handle;
  absl::Status set_up = session->PRunSetup(input_names, output_names, target_names, &new_handle);
  if (!set_up.ok()) return SetStatus(status, set_up);
  // TF_DeletePRunHandle frees it with delete[].
  char* copy = new char[new_handle.size() + 1];
  std::memcpy(copy, new_handle.c_str(), new_handle.size() + 1);
  *handle = copy;
  SetStatus(status, absl::OkStatus());
}

// Continues a partial run with named feeds and fetches; the shared part of TF_SessionPRun and
// TF_PRun. Output slots are null unless the whole call succeeded. Targets are those given at
// setup, as in TensorFlow, whose PRun takes none.
void PRunWithNames(sluice::Session* session, const char* handle,
                   const std::vector<std::string>& input_names, TF_Tensor* const* input_values,
                   const std::vector<std::string>& output_names, TF_Tensor** output_values,
                   TF_Status* status) {
  for (size_t i = 0; i < output_names.size(); ++i) output_values[i] = nullptr;
  std::vector<std::pair<std::string, sluice::Tensor>> feeds;
  absl::Status converted_feeds = ConvertFeeds(input_names, input_values, &feeds);
  if (!converted_feeds.ok()) return SetStatus(status, converted_feeds);
  std::vector<sluice::Tensor> outputs;
  absl::Status ran = session->PRun(handle == nullptr ? "" : handle, feeds, output_names, &outputs);
  if (!ran.ok()) return SetStatus(status, ran);
  std::vector<TF_Tensor*> converted;
  absl::Status converted_outputs = ConvertOutputs(outputs, output_names.size(), &converted);
  if (!converted_outputs.ok()) return SetStatus(status, converted_outputs);
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

// The checks TF_SessionRun makes of its arguments, shared with the partial-run functions
// (`function` names the caller in the messages); input_values may be null when the caller
// feeds no values (TF_SessionPRunSetup).
absl::Status ValidateRunArguments(const char* function, const TF_Output* inputs,
                                  TF_Tensor* const* input_values, bool has_values, int ninputs,
                                  const TF_Output* outputs, int noutputs,
                                  const TF_Operation* const* target_opers, int ntargets) {
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": negative count (ninputs ", ninputs,
                                                   ", noutputs ", noutputs, ", ntargets ", ntargets,
                                                   ")"));
  }
  for (int i = 0; has_values && i < ninputs; ++i) {
    if (input_values == nullptr || input_values[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(function, ": input value ", i, " is null"));
    }
  }
  for (int i = 0; i < ntargets; ++i) {
    if (target_opers == nullptr || target_opers[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(function, ": target ", i, " is null"));
    }
  }
  absl::Status valid = ValidateOutputs(inputs, ninputs, "Input");
  if (!valid.ok()) return valid;
  return ValidateOutputs(outputs, noutputs, "Output");
}

// The names the session takes for outputs and targets.
std::vector<std::string> OutputNames(const TF_Output* outputs, int n) {
  std::vector<std::string> names(n);
  for (int i = 0; i < n; ++i) names[i] = OutputName(outputs[i]);
  return names;
}

std::vector<std::string> TargetNames(const TF_Operation* const* target_opers, int n) {
  std::vector<std::string> names(n);
  for (int i = 0; i < n; ++i) names[i] = ToNode(target_opers[i])->name();
  return names;
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

// The checks of the deprecated session's partial-run functions: a session, counts that are
// not negative, and arrays present for the names they count (a null name reads as "", which
// the session then refuses by name).
absl::Status ValidateNameLists(const char* function, const TF_DeprecatedSession* session,
                               const char* const* input_names, int ninputs,
                               const char* const* output_names, int noutputs,
                               const char* const* target_names, int ntargets) {
  if (session == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": the session is null"));
  }
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": negative count (ninputs ", ninputs,
                                                   ", noutputs ", noutputs, ", ntargets ", ntargets,
                                                   ")"));
  }
  if ((ninputs > 0 && input_names == nullptr) || (noutputs > 0 && output_names == nullptr) ||
      (ntargets > 0 && target_names == nullptr)) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": a list of names is null"));
  }
  return absl::OkStatus();
}

}  // namespace

namespace sluice {
namespace c_api {

absl::Status ExtendIfOpen(TF_Session* session) {
  absl::MutexLock lock(&session->mu);
  if (session->closed) return absl::OkStatus();
  return ExtendSessionGraph(session);
}

}  // namespace c_api
}  // namespace sluice

using sluice::c_api::ExtendIfOpen;

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
  absl::Status valid =
      ValidateRunArguments("TF_SessionRun", inputs, input_values,
                           /*has_values=*/true, ninputs, outputs, noutputs, target_opers, ntargets);
  if (!valid.ok()) return SetStatus(status, valid);
  absl::Status extended = ExtendIfOpen(session);
  if (!extended.ok()) return SetStatus(status, extended);
  RunWithNames(session->session.get(), run_options, OutputNames(inputs, ninputs), input_values,
               OutputNames(outputs, noutputs), output_values, TargetNames(target_opers, ntargets),
               run_metadata, status);
}

void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs, int ninputs,
                         const TF_Output* outputs, int noutputs,
                         const TF_Operation* const* target_opers, int ntargets, const char** handle,
                         TF_Status* status) {
  if (handle == nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("TF_SessionPRunSetup: the handle pointer is null"));
  }
  *handle = nullptr;
  if (session == nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("TF_SessionPRunSetup: the session is null"));
  }
  absl::Status valid =
      ValidateRunArguments("TF_SessionPRunSetup", inputs, nullptr, /*has_values=*/false, ninputs,
                           outputs, noutputs, target_opers, ntargets);
  if (!valid.ok()) return SetStatus(status, valid);
  absl::Status extended = ExtendIfOpen(session);
  if (!extended.ok()) return SetStatus(status, extended);
  PRunSetupWithNames(session->session.get(), OutputNames(inputs, ninputs),
                     OutputNames(outputs, noutputs), TargetNames(target_opers, ntargets), handle,
                     status);
}

void TF_SessionPRun(TF_Session* session, const char* handle, const TF_Output* inputs,
                    TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
                    TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const* target_opers, int ntargets, TF_Status* status) {
  for (int i = 0; i < noutputs; ++i) output_values[i] = nullptr;
  if (session == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("TF_SessionPRun: the session is null"));
  }
  absl::Status valid =
      ValidateRunArguments("TF_SessionPRun", inputs, input_values, /*has_values=*/true, ninputs,
                           outputs, noutputs, target_opers, ntargets);
  if (!valid.ok()) return SetStatus(status, valid);
  absl::Status extended = ExtendIfOpen(session);
  if (!extended.ok()) return SetStatus(status, extended);
  PRunWithNames(session->session.get(), handle, OutputNames(inputs, ninputs), input_values,
                OutputNames(outputs, noutputs), output_values, status);
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

void TF_PRunSetup(TF_DeprecatedSession* session, const char** input_names, int ninputs,
                  const char** output_names, int noutputs, const char** target_oper_names,
                  int ntargets, const char** handle, TF_Status* status) {
  if (handle == nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("TF_PRunSetup: the handle pointer is null"));
  }
  *handle = nullptr;
  absl::Status valid = ValidateNameLists("TF_PRunSetup", session, input_names, ninputs,
                                         output_names, noutputs, target_oper_names, ntargets);
  if (!valid.ok()) return SetStatus(status, valid);
  PRunSetupWithNames(session->session.get(), Names(input_names, ninputs),
                     Names(output_names, noutputs), Names(target_oper_names, ntargets), handle,
                     status);
}

void TF_PRun(TF_DeprecatedSession* session, const char* handle, const char** input_names,
             TF_Tensor** inputs, int ninputs, const char** output_names, TF_Tensor** outputs,
             int noutputs, const char** target_oper_names, int ntargets, TF_Status* status) {
  for (int i = 0; i < noutputs; ++i) outputs[i] = nullptr;
  absl::Status valid = ValidateNameLists("TF_PRun", session, input_names, ninputs, output_names,
                                         noutputs, target_oper_names, ntargets);
  for (int i = 0; valid.ok() && i < ninputs; ++i) {
    if (inputs == nullptr || inputs[i] == nullptr) {
      valid = absl::InvalidArgumentError(absl::StrCat("TF_PRun: input value ", i, " is null"));
    }
  }
  if (!valid.ok()) return SetStatus(status, valid);
  PRunWithNames(session->session.get(), handle, Names(input_names, ninputs), inputs,
                Names(output_names, noutputs), outputs, status);
}

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* session, TF_Status* status) {
  return ListDevices(session->session.get(), status);
}

}  // extern "C"
