#include "cc_api/client_session.h"

#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "proto/graph.pb.h"

namespace sluice {

class ClientSession::Impl {
 public:
  Impl(std::shared_ptr<Graph> graph, const SessionOptions& options) : graph_(std::move(graph)) {
    std::unique_ptr<Session> session;
    create_status_ = NewSession(options, &session);
    session_ = std::move(session);
  }

  // Sends the session the nodes added since the last call.
  absl::Status MaybeExtendGraph() {
    absl::MutexLock lock(&mu_);
    RETURN_IF_ERROR(create_status_);
    const int num_ids = graph_->num_node_ids();
    if (num_ids <= last_num_node_ids_) return absl::OkStatus();
    GraphDef delta;
    *delta.mutable_versions() = graph_->versions();
    if (last_num_node_ids_ == 0) *delta.mutable_library() = graph_->library();
    for (Node* node : graph_->op_nodes()) {
      if (node->id() >= last_num_node_ids_) *delta.add_node() = node->def();
    }
    if (delta.node_size() > 0) RETURN_IF_ERROR(session_->Extend(delta));
    last_num_node_ids_ = num_ids;
    return absl::OkStatus();
  }

  Session* session() const { return session_.get(); }
  // The session's construction failure, if any (reported by every call).
  const absl::Status& create_status() const { return create_status_; }

 private:
  const std::shared_ptr<Graph> graph_;
  absl::Status create_status_;
  std::shared_ptr<Session> session_;

  absl::Mutex mu_;
  // Node ids below this were sent to the session.
  int last_num_node_ids_ ABSL_GUARDED_BY(mu_) = 0;
};

namespace {

SessionOptions OptionsForTarget(const std::string& target) {
  SessionOptions options;
  options.target = target;
  return options;
}

}  // namespace

ClientSession::ClientSession(const Scope& scope) : ClientSession(scope, SessionOptions()) {}

ClientSession::ClientSession(const Scope& scope, const std::string& target)
    : ClientSession(scope, OptionsForTarget(target)) {}

ClientSession::ClientSession(const Scope& scope, const SessionOptions& session_options)
    : impl_(std::make_unique<Impl>(scope.graph_as_shared_ptr(), session_options)) {}

ClientSession::~ClientSession() = default;

Session* ClientSession::session() const { return impl_->session(); }

absl::Status ClientSession::Run(const std::vector<Output>& fetch_outputs,
                                std::vector<Tensor>* outputs) const {
  return Run(FeedType{}, fetch_outputs, {}, outputs);
}

absl::Status ClientSession::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                                std::vector<Tensor>* outputs) const {
  return Run(inputs, fetch_outputs, {}, outputs);
}

absl::Status ClientSession::Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                                const std::vector<Operation>& run_outputs,
                                std::vector<Tensor>* outputs) const {
  return Run(RunOptions(), inputs, fetch_outputs, run_outputs, outputs, nullptr);
}

absl::Status ClientSession::Run(const RunOptions& run_options, const FeedType& inputs,
                                const std::vector<Output>& fetch_outputs,
                                const std::vector<Operation>& run_outputs,
                                std::vector<Tensor>* outputs, RunMetadata* run_metadata) const {
  std::vector<std::pair<std::string, Tensor>> feeds;
  feeds.reserve(inputs.size());
  for (const auto& [output, value] : inputs) {
    RETURN_IF_ERROR(value.status);
    if (output.node() == nullptr) {
      return errors::InvalidArgument("A feed names no node (its op failed to build)");
    }
    feeds.emplace_back(output.name(), value.tensor);
  }
  std::vector<std::string> output_tensor_names;
  output_tensor_names.reserve(fetch_outputs.size());
  for (const Output& output : fetch_outputs) {
    if (output.node() == nullptr) {
      return errors::InvalidArgument("A fetch names no node (its op failed to build)");
    }
    output_tensor_names.push_back(output.name());
  }
  std::vector<std::string> target_node_names;
  target_node_names.reserve(run_outputs.size());
  for (const Operation& op : run_outputs) {
    if (op.node() == nullptr) {
      return errors::InvalidArgument("A target names no node (its op failed to build)");
    }
    target_node_names.push_back(op.node()->name());
  }
  RETURN_IF_ERROR(impl_->MaybeExtendGraph());
  return impl_->session()->Run(run_options, feeds, output_tensor_names, target_node_names, outputs,
                               run_metadata);
}

absl::Status ClientSession::MakeCallable(const CallableOptions& callable_options,
                                         CallableHandle* out_handle) {
  RETURN_IF_ERROR(impl_->MaybeExtendGraph());
  return impl_->session()->MakeCallable(callable_options, out_handle);
}

absl::Status ClientSession::RunCallable(CallableHandle handle,
                                        const std::vector<Tensor>& feed_tensors,
                                        std::vector<Tensor>* fetch_tensors,
                                        RunMetadata* run_metadata) {
  RETURN_IF_ERROR(impl_->create_status());
  return impl_->session()->RunCallable(handle, feed_tensors, fetch_tensors, run_metadata);
}

absl::Status ClientSession::ReleaseCallable(CallableHandle handle) {
  RETURN_IF_ERROR(impl_->create_status());
  return impl_->session()->ReleaseCallable(handle);
}

}  // namespace sluice
