// Session: runs steps of a graph (TensorFlow's Session API).
//
// A client builds a session with NewSession, gives it a graph with Create (and may add nodes
// later with Extend), then calls Run any number of times with the tensors to feed, the
// tensors to fetch and the nodes to run for their effects. Close releases the session's
// resources; a session is closed by its destructor at the latest.
//
// Run semantics, as in TensorFlow: each fed tensor replaces the value its producer would
// compute; fetch i lands in (*outputs)[i] (a name may be fetched twice); only what the
// fetches and targets need runs. Variables and other per-session state persist across Runs.
//
// Partial runs (TensorFlow's PRunSetup/PRun): one step fed and fetched over several calls.
// PRunSetup declares every tensor the step will be fed and fetched and the nodes it runs, starts
// the step (it runs as far as it can without the feeds) and returns a handle. Each PRun then
// feeds some declared feeds not fed before and fetches some declared fetches not fetched
// before; every node runs at most once in the whole partial run, so stateful ops see one step.
// Once every declared feed has been fed and every fetch fetched, the PRun that completed them
// waits for the targets and releases the partial run; so does a PRun that fails at run time (a
// kernel error, a deadline). A PRun rejected for its arguments leaves the partial run as it was.
//
// Errors are absl::Status with TensorFlow's codes and wording; the failure of one step leaves
// the session usable. After Close, Create, Extend, Run, PRunSetup and PRun are CANCELLED
// "Session has been closed.".
//
// Thread safety: every method may be called concurrently; concurrent Runs are independent
// steps. Close waits for the steps in flight to finish (or be cancelled).
#ifndef SLUICE_RUNTIME_SESSION_SESSION_H_
#define SLUICE_RUNTIME_SESSION_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "proto/config.pb.h"
#include "proto/device_attributes.pb.h"
#include "proto/graph.pb.h"
#include "runtime/framework/node_output_observer.h"

namespace sluice {

struct SessionOptions;

class Session {
 public:
  virtual ~Session() = default;

  // Sets the session's graph. A GraphDef without nodes is accepted and changes nothing;
  // otherwise ALREADY_EXISTS if a graph was created before. Errors of GraphDef validation
  // (unknown ops, bad attrs, dangling inputs, cycles...) leave the session without a graph.
  virtual absl::Status Create(const GraphDef& graph) = 0;
  // The same, taking `graph` over (it is left unspecified) instead of copying it: for big
  // graphs, one copy of the nodes fewer. By default, Create(graph).
  virtual absl::Status Create(GraphDef&& graph) {
    return Create(static_cast<const GraphDef&>(graph));
  }
  // Adds the nodes of `graph` to the session's graph (Create when there is none yet). A node
  // whose name the graph already has is INVALID_ARGUMENT; on any error nothing is added.
  virtual absl::Status Extend(const GraphDef& graph) = 0;

  // Runs one step. `inputs` pairs tensor names ("x", "x:1") with values; `outputs` receives
  // one tensor per output name, in order (it may be null: the fetched values are dropped).
  // `run_metadata` may be null; when not, it receives
  // step stats if run_options.trace_level asks for them and the partition graphs if
  // run_options.output_partition_graphs. On error *outputs is cleared.
  virtual absl::Status Run(const RunOptions& run_options,
                           const std::vector<std::pair<std::string, Tensor>>& inputs,
                           const std::vector<std::string>& output_tensor_names,
                           const std::vector<std::string>& target_node_names,
                           std::vector<Tensor>* outputs, RunMetadata* run_metadata) = 0;
  // Run, with every node output of the step shown to `observer` (node_output_observer.h)
  // while it runs; the fetched outputs are the same as Run's. The observer must outlive the
  // call. Sluice's own (TensorFlow watches through RunOptions.debug_options, which still
  // apply: they see each output after `observer`). The default: UNIMPLEMENTED.
  virtual absl::Status RunWithObserver(const RunOptions& run_options,
                                       const std::vector<std::pair<std::string, Tensor>>& inputs,
                                       const std::vector<std::string>& output_tensor_names,
                                       const std::vector<std::string>& target_node_names,
                                       std::vector<Tensor>* outputs, RunMetadata* run_metadata,
                                       NodeOutputObserver* observer);
  // Run with default RunOptions and no metadata.
  absl::Status Run(const std::vector<std::pair<std::string, Tensor>>& inputs,
                   const std::vector<std::string>& output_tensor_names,
                   const std::vector<std::string>& target_node_names, std::vector<Tensor>* outputs);

  // Starts a partial run that will feed `input_names`, fetch `output_names` and run
  // `target_nodes` (names as Run takes them), and sets *handle to its handle. Errors of the
  // names are Run's. The default: UNIMPLEMENTED.
  virtual absl::Status PRunSetup(const std::vector<std::string>& input_names,
                                 const std::vector<std::string>& output_names,
                                 const std::vector<std::string>& target_nodes, std::string* handle);
  // Continues partial run `handle`: feeds `inputs` and fetches `output_names` (fetch i lands in
  // (*outputs)[i]; *outputs is cleared on error). Names must be spelled as at PRunSetup.
  // INVALID_ARGUMENT, leaving the partial run as it was, for an unknown handle ("Must run
  // 'setup' before performing partial runs!"), a feed or fetch not declared at setup ("The
  // feed x was not specified in partial_run_setup."), one fed or fetched before ("The feed x
  // has already been fed.", "The fetch y has already been fetched."), a fetch that needs a
  // declared feed not fed yet, not even by this call ("Fetch x:0 can't be computed from the
  // feeds that have been fed so far."), and a fed value whose dtype or shape the graph
  // refuses. A kernel error the fetches (or, in the last PRun, the targets) depend on is
  // returned and ends the partial run. The default: UNIMPLEMENTED.
  virtual absl::Status PRun(const std::string& handle,
                            const std::vector<std::pair<std::string, Tensor>>& inputs,
                            const std::vector<std::string>& output_names,
                            std::vector<Tensor>* outputs);

  // Callables (TensorFlow's Session::MakeCallable): a step signature made once — feeds,
  // fetches, targets and the RunOptions of its runs — then run by handle with the feeds' values
  // in the order of callable_options.feed. MakeCallable builds the step's executors, so errors
  // of names and placement come from it; RunCallable's feed_tensors must number the feeds
  // ("Expected N feed tensors, but got M") and fetch_tensors may be null only without fetches.
  // Unknown handles and released ones are INVALID_ARGUMENT (callables.h).
  // feed_devices/fetch_devices name, by tensor, the device whose memory a feed arrives in or a
  // fetch stays in (default: the host CPU; a device the session lacks is INVALID_ARGUMENT):
  // such a feed must already be in that device's memory (nothing checks; int32 always lives on
  // the host), and such a fetch comes back in it, so that steps chain on a GPU without host
  // copies. With fetch_skip_sync the run returns while the device may still be computing the
  // fetch (work on the same GPU is ordered after it; anything else must Sync the device first);
  // without it, the run synchronises the fetches' devices (TensorFlow refuses that setting with
  // fetch devices). Sluice does not take tensor_connection or debug watches (UNIMPLEMENTED).
  // The defaults: UNIMPLEMENTED.
  using CallableHandle = int64_t;
  virtual absl::Status MakeCallable(const CallableOptions& callable_options,
                                    CallableHandle* out_handle);
  virtual absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                                   std::vector<Tensor>* fetch_tensors, RunMetadata* run_metadata);
  virtual absl::Status ReleaseCallable(CallableHandle handle);

  // The attributes of every device the session runs on.
  virtual absl::Status ListDevices(std::vector<DeviceAttributes>* response) = 0;

  // Cancels the steps and partial runs in flight (their pending calls return CANCELLED),
  // waits for them to end and releases the graph, the cached executors and the per-session
  // resources. Idempotent.
  virtual absl::Status Close() = 0;
};

// Builds a session for options.target: "" (or "direct") gives an in-process DirectSession.
// Other targets are NOT_FOUND, as TensorFlow answers when no session factory accepts them.
// Errors from setting up the devices are returned and *session is reset.
absl::Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* session);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_SESSION_H_
