// Session's convenience Run and NewSession (see session.h).
#include "runtime/session/session.h"

#include "graph/core/errors.h"
#include "runtime/device/session_options.h"
#include "runtime/session/direct_session.h"

namespace sluice {

absl::Status Session::Run(const std::vector<std::pair<std::string, Tensor>>& inputs,
                          const std::vector<std::string>& output_tensor_names,
                          const std::vector<std::string>& target_node_names,
                          std::vector<Tensor>* outputs) {
  return Run(RunOptions(), inputs, output_tensor_names, target_node_names, outputs, nullptr);
}

absl::Status Session::RunWithObserver(const RunOptions&,
                                      const std::vector<std::pair<std::string, Tensor>>&,
                                      const std::vector<std::string>&,
                                      const std::vector<std::string>&, std::vector<Tensor>* outputs,
                                      RunMetadata*, NodeOutputObserver*) {
  if (outputs != nullptr) outputs->clear();
  return errors::Unimplemented("Observed runs are not supported by this session.");
}

absl::Status Session::PRunSetup(const std::vector<std::string>&, const std::vector<std::string>&,
                                const std::vector<std::string>&, std::string* handle) {
  handle->clear();
  return errors::Unimplemented("Partial runs are not supported by this session.");
}

absl::Status Session::PRun(const std::string&, const std::vector<std::pair<std::string, Tensor>>&,
                           const std::vector<std::string>&, std::vector<Tensor>* outputs) {
  if (outputs != nullptr) outputs->clear();
  return errors::Unimplemented("Partial runs are not supported by this session.");
}

absl::Status Session::MakeCallable(const CallableOptions&, CallableHandle*) {
  return errors::Unimplemented("MakeCallable() is not supported by this session.");
}

absl::Status Session::RunCallable(CallableHandle, const std::vector<Tensor>&,
                                  std::vector<Tensor>* fetch_tensors, RunMetadata*) {
  if (fetch_tensors != nullptr) fetch_tensors->clear();
  return errors::Unimplemented("RunCallable() is not supported by this session.");
}

absl::Status Session::ReleaseCallable(CallableHandle) {
  return errors::Unimplemented("ReleaseCallable() is not supported by this session.");
}

absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* session) {
  session->reset();
  if (!options.target.empty() && options.target != "direct") {
    return errors::NotFound(
        "No session factory registered for the given session options: {target: \"", options.target,
        "\"} Registered factories are {DIRECT_SESSION}.");
  }
  return DirectSession::Make(options, session);
}

}  // namespace sluice
