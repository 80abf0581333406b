// ClientSession: runs the graph of a Scope (TensorFlow's tensorflow/cc/client/client_session.h).
//
// Built from a Scope, it owns a Session over the Scope's graph. Each Run first sends the
// session the nodes added to the graph since the previous Run (Session::Extend), so a graph
// may keep growing between Runs. Feeds are Outputs paired with any Input::Initializer value
// ({{1, 2}, {3, 4}}, 3.f, a Tensor); fetches are Outputs; run_outputs are Operations run for
// their effects only.
//
// Errors: a feed whose initializer failed returns that error; a fetch, feed or target without
// a node (what a failed op wrapper leaves) is INVALID_ARGUMENT; otherwise the Session's
// Status. Construction failures of the Session itself are reported by every Run.
//
// Thread safety: Run may be called from many threads at once (steps run concurrently); the
// Scope's graph must not be extended while a Run is in flight.
#ifndef SLUICE_CC_API_CLIENT_SESSION_H_
#define SLUICE_CC_API_CLIENT_SESSION_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "cc_api/ops.h"
#include "cc_api/scope.h"
#include "graph/core/tensor.h"
// The typed views through which callers read the outputs (outputs[0].matrix<float>()), as
// TensorFlow's client_session.h gives them.
#include "graph/core/tensor_types.h"
#include "proto/config.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {

class ClientSession {
 public:
  using FeedType = std::unordered_map<Output, Input::Initializer, OutputHash>;

  // A local session ("" target) with default options.
  explicit ClientSession(const Scope& scope);
  ClientSession(const Scope& scope, const std::string& target);
  ClientSession(const Scope& scope, const SessionOptions& session_options);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  // Evaluates `fetch_outputs` into *outputs (one tensor each, in order).
  absl::Status Run(const std::vector<Output>& fetch_outputs, std::vector<Tensor>* outputs) const;
  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   std::vector<Tensor>* outputs) const;
  // Also runs `run_outputs` (targets), whose results are not returned.
  absl::Status Run(const FeedType& inputs, const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs) const;
  // With RunOptions (timeout, tracing) and RunMetadata (step stats, partition graphs);
  // run_metadata may be null.
  absl::Status Run(const RunOptions& run_options, const FeedType& inputs,
                   const std::vector<Output>& fetch_outputs,
                   const std::vector<Operation>& run_outputs, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata) const;

  // Callables, as TensorFlow's ClientSession offers them: the graph built so far is sent to the
  // session first; then Session::MakeCallable / RunCallable / ReleaseCallable (session.h).
  using CallableHandle = Session::CallableHandle;
  absl::Status MakeCallable(const CallableOptions& callable_options, CallableHandle* out_handle);
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors, RunMetadata* run_metadata);
  absl::Status ReleaseCallable(CallableHandle handle);

  // The underlying session (for ListDevices, Close).
  Session* session() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sluice

#endif  // SLUICE_CC_API_CLIENT_SESSION_H_
