// DirectSession: the in-process Session (TensorFlow's DirectSession).
//
// Side effect: the first session made turns off Abseil's Mutex deadlock detection for the
// process (Debian's Abseil has it on, at thousands of instructions per Run; see
// direct_session.cc).
//
// Construction makes the devices (DeviceFactory, ConfigProto.device_count), the inter-op
// thread pools on which executors run kernels, and a ResourceMgr whose state (variables)
// lives as long as the session. The pools: one per ConfigProto.session_inter_op_thread_pool
// entry (num_threads, 0 = inter_op_parallelism_threads or one per core; a global_name pool is
// shared by every session that names it and lives as long as the process), else one of
// inter_op_parallelism_threads (0 = one thread per core; negative = nodes run on the thread
// that calls Run). RunOptions.inter_op_thread_pool picks a step's pool by index; -1 runs its
// nodes on the calling thread.
//
// Create/Extend accumulate one GraphDef, validated as a whole (ConvertGraphDefToGraph) before
// it is accepted. Run finds the executors of its signature (sorted feeds, fetches, targets)
// in a cache, or builds them once: prune, place, optimise and partition the graph
// (passes/pipeline.h), then one executor per partition, whose kernels are created once and
// reused by every later step. Extend keeps the cache: new nodes can only consume existing
// ones, so no cached signature's pruned graph changes.
//
// A step: feeds are checked against the graph (dtype, and a Placeholder's static shape) and
// handed to the executors through a call frame; every partition's executor runs
// concurrently on the inter-op pool with a fresh rendezvous and cancellation manager. The
// first error aborts the rendezvous and cancels the rest of the step, and is returned. A
// deadline (RunOptions.timeout_in_ms, else ConfigProto.operation_timeout_in_ms) cancels
// only that step, which then returns DEADLINE_EXCEEDED.
//
// Debug watches (RunOptions.debug_options, proto/debug.proto) make a step dump the watched node
// outputs for TensorFlow's debugger, as TensorFlow's DirectSession does (tfdbg v1 file dumps;
// runtime/debug/debug_watch_observer.h says which watches dump what, and the errors). The
// watched nodes are kept through optimisation, so a Run with watches has executors of its own,
// cached by its signature and the watched node names (not by ops or URLs). The debug URLs are
// checked before anything is built; the ops, the graphs and the core metadata (whose
// session_run_index is the step id, counted per session, and executor_step_index counts the
// debugged Runs of those executors) after the feeds are checked and before the step starts.
// RunWithObserver's observer sees every output before the watches do.
//
// Partial runs (PRunSetup/PRun, see session.h) build executors of their own per signature,
// cached apart from Run's, in which feeds and fetches go through the step's rendezvous: each
// feed is a client-terminated _Recv on the host CPU, each fetch a _Send (passes/prune.h), so a
// feed that arrives in a later PRun wakes an asynchronous _Recv and no thread of the inter-op
// pool waits for it. PRunSetup starts the step's executors and keeps the step (rendezvous,
// cancellation manager) under its handle; PRun sends its feeds into that rendezvous and
// receives its fetches from it (bounded by operation_timeout_in_ms, as in TensorFlow). Which
// feeds a fetch needs is worked out once per signature on the full graph, so that a fetch that
// would wait for a feed not given yet is refused instead of blocking.
//
// Thread safety: all methods may be called concurrently. The graph and the executor cache
// are guarded by mutexes taken only outside steps; steps share nothing but the immutable
// executors, the devices and the ResourceMgr (thread-safe). Close cancels the steps and
// partial runs in flight and waits for them, and for the PRunSetup/PRun calls in progress,
// before freeing anything. Several PRun calls on one handle may run at once: each claims its
// feeds and fetches before it sends or receives, so no tensor is fed or fetched twice.
#ifndef SLUICE_RUNTIME_SESSION_DIRECT_SESSION_H_
#define SLUICE_RUNTIME_SESSION_DIRECT_SESSION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/graph.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/device/core_budget.h"
#include "runtime/device/session_options.h"
#include "runtime/session/callables.h"
#include "runtime/session/session.h"
#include "runtime/session/stored_graph_def.h"

namespace Eigen {
class ThreadPoolInterface;
}  // namespace Eigen

namespace sluice {

class CallFrameInterface;
class DeviceMgr;
class HostConstantEvaluator;
class ResourceMgr;
struct PartialRun;
struct SessionExecutors;
struct SessionStep;

class DirectSession : public Session {
 public:
  // An inter-op pool and how executors use it.
  struct InterOpPool {
    // Null when nodes run on the thread that calls Run.
    std::shared_ptr<Eigen::ThreadPoolInterface> pool;
    // Schedules a closure on `pool`; empty without a pool.
    std::function<void(std::function<void()>)> pool_runner;
    // What executors hand nodes to: pool_runner when the pool's parallelism is 2 or more, else
    // empty (every node runs on the thread that calls Run).
    std::function<void(std::function<void()>)> runner;
    // Keeps the core budget's load sampler running while nodes may be handed to the pool (the
    // executor hands them over only while other processes leave a core free).
    std::shared_ptr<LoadSampler> load_sampler;
  };

  // Makes the devices and thread pools. Errors from the device factories are returned;
  // NOT_FOUND without a CPU device (device_count {key: "CPU" value: 0}), as TensorFlow;
  // INVALID_ARGUMENT for a global pool name already made with another thread count.
  static absl::Status Make(const SessionOptions& options, std::unique_ptr<Session>* session);

  ~DirectSession() override;

  absl::Status Create(const GraphDef& graph) override;
  absl::Status Create(GraphDef&& graph) override;
  absl::Status Extend(const GraphDef& graph) override;
  absl::Status Run(const RunOptions& run_options,
                   const std::vector<std::pair<std::string, Tensor>>& inputs,
                   const std::vector<std::string>& output_tensor_names,
                   const std::vector<std::string>& target_node_names, std::vector<Tensor>* outputs,
                   RunMetadata* run_metadata) override;
  absl::Status RunWithObserver(const RunOptions& run_options,
                               const std::vector<std::pair<std::string, Tensor>>& inputs,
                               const std::vector<std::string>& output_tensor_names,
                               const std::vector<std::string>& target_node_names,
                               std::vector<Tensor>* outputs, RunMetadata* run_metadata,
                               NodeOutputObserver* observer) override;
  using Session::Run;
  absl::Status PRunSetup(const std::vector<std::string>& input_names,
                         const std::vector<std::string>& output_names,
                         const std::vector<std::string>& target_nodes,
                         std::string* handle) override;
  absl::Status PRun(const std::string& handle,
                    const std::vector<std::pair<std::string, Tensor>>& inputs,
                    const std::vector<std::string>& output_names,
                    std::vector<Tensor>* outputs) override;
  absl::Status MakeCallable(const CallableOptions& callable_options,
                            CallableHandle* out_handle) override;
  absl::Status RunCallable(CallableHandle handle, const std::vector<Tensor>& feed_tensors,
                           std::vector<Tensor>* fetch_tensors, RunMetadata* run_metadata) override;
  absl::Status ReleaseCallable(CallableHandle handle) override;
  absl::Status ListDevices(std::vector<DeviceAttributes>* response) override;
  absl::Status Close() override;

  // Signatures whose executors are cached (for tests of the cache); Run's only.
  int num_cached_signatures() const;
  // Partial runs set up and not yet ended (for tests of their release).
  int num_partial_runs() const;

 private:
  DirectSession(const SessionOptions& options, std::unique_ptr<DeviceMgr> device_mgr,
                std::vector<InterOpPool> inter_op_pools);

  // Prunes, places, optimises and partitions the current graph for one signature and makes
  // its executors (feeds and fetches through the rendezvous when `partial_run`).
  absl::Status BuildExecutors(bool partial_run, std::vector<std::string> feeds,
                              std::vector<std::string> fetches, std::vector<std::string> targets,
                              std::vector<std::string> watched, CallFrameDevices devices,
                              std::unique_ptr<SessionExecutors>* built);
  // Executors of the step's signature, from the cache or built now; `watched` (sorted, unique:
  // the nodes a debugged Run watches) are kept through optimisation and, with `devices` (where
  // a callable's feeds and fetches live), are part of the key.
  absl::Status GetOrCreateExecutors(const std::vector<std::pair<std::string, Tensor>>& inputs,
                                    const std::vector<std::string>& outputs,
                                    const std::vector<std::string>& targets,
                                    const std::vector<std::string>& watched,
                                    const CallFrameDevices& devices,
                                    std::shared_ptr<const SessionExecutors>* executors);
  // RunWithObserver, for feeds and fetches on `devices` (RunCallable).
  absl::Status RunOnDevices(const RunOptions& run_options,
                            const std::vector<std::pair<std::string, Tensor>>& inputs,
                            const std::vector<std::string>& output_tensor_names,
                            const std::vector<std::string>& target_node_names,
                            const CallFrameDevices& devices, std::vector<Tensor>* outputs,
                            RunMetadata* run_metadata, NodeOutputObserver* observer);
  // Run, once the step is registered.
  absl::Status RunStep(const RunOptions& run_options,
                       const std::vector<std::pair<std::string, Tensor>>& inputs,
                       const std::vector<std::string>& output_tensor_names,
                       const std::vector<std::string>& target_node_names,
                       const CallFrameDevices& devices, SessionStep* step,
                       std::vector<Tensor>* outputs, RunMetadata* run_metadata);
  // Runs every partition of one step on inter_op_pools_[inter_op_pool] (-1: nodes on the
  // calling thread; the index is valid) and waits for the last one; at the deadline
  // (timeout_ms > 0) the step is aborted with DEADLINE_EXCEEDED.
  absl::Status RunPartitions(const SessionExecutors& executors, CallFrameInterface* call_frame,
                             int64_t timeout_ms, SessionStep* step, int inter_op_pool = 0);

  // The partial-run executors of a signature, from their cache or built now.
  absl::Status GetOrCreatePartialRunExecutors(const std::vector<std::string>& inputs,
                                              const std::vector<std::string>& outputs,
                                              const std::vector<std::string>& targets,
                                              std::shared_ptr<const SessionExecutors>* executors);
  // PRunSetup and PRun once the call is registered (BeginPartialRunCall).
  absl::Status SetupPartialRun(const std::vector<std::string>& input_names,
                               const std::vector<std::string>& output_names,
                               const std::vector<std::string>& target_nodes, std::string* handle);
  absl::Status ContinuePartialRun(const std::string& handle, PartialRun* run,
                                  const std::vector<std::pair<std::string, Tensor>>& inputs,
                                  const std::vector<std::string>& output_names,
                                  std::vector<Tensor>* outputs);
  // Starts the executors of a partial run's step, which then wait for its feeds.
  void StartPartialRun(PartialRun* run);
  // Ends partial run `handle`: aborts its step with `status` unless that is OK, waits for its
  // executors (at most operation_timeout_in_ms before aborting them) and forgets the handle.
  // Returns `status`, or the step's failure when `status` is OK.
  absl::Status EndPartialRun(const std::string& handle, PartialRun* run, absl::Status status);
  // A PRunSetup/PRun call in progress, which Close waits for; CANCELLED once closed.
  absl::Status BeginPartialRunCall();
  void EndPartialRunCall();
  // Nothing runs: no step, no partial-run call (Close waits for this).
  bool IdleLocked() const ABSL_SHARED_LOCKS_REQUIRED(steps_mu_);

  // Registers a step so that Close can cancel it; CANCELLED once the session is closed.
  absl::Status BeginStep(SessionStep* step);
  // Create/Extend: validates `graph` (the whole graph, extension included) and makes it the
  // session's, keeping the validated Graph for the next build.
  absl::Status AdoptLocked(std::shared_ptr<const StoredGraphDef> graph)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(graph_mu_);
  // The checks Create makes before adopting a graph of `node_count` nodes.
  absl::Status CheckCreateLocked(int node_count) ABSL_EXCLUSIVE_LOCKS_REQUIRED(graph_mu_);
  void EndStep(SessionStep* step);

  // Constant after construction.
  const SessionOptions options_;
  const std::unique_ptr<DeviceMgr> device_mgr_;
  // At least one; RunOptions.inter_op_thread_pool indexes them.
  const std::vector<InterOpPool> inter_op_pools_;
  std::unique_ptr<ResourceMgr> resource_mgr_;
  std::unique_ptr<HostConstantEvaluator> constant_evaluator_;

  std::atomic<int64_t> next_step_id_{1};

  // The graph, kept serialized (stored_graph_def.h). Extend replaces it with a bigger one,
  // so that a build in progress keeps reading the version it started with without holding
  // the lock.
  mutable absl::Mutex graph_mu_;
  std::shared_ptr<const StoredGraphDef> graph_def_ ABSL_GUARDED_BY(graph_mu_);
  // graph_def_ as Create/Extend converted and validated it, until a build takes it instead of
  // converting graph_def_ again (a big graph's import is most of its first run).
  std::unique_ptr<Graph> validated_graph_ ABSL_GUARDED_BY(graph_mu_);

  // Executors per canonical signature key.
  mutable absl::Mutex executors_mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<const SessionExecutors>> executors_
      ABSL_GUARDED_BY(executors_mu_);
  // The same executors by the lists exactly as callers gave them (no sorting per step).
  absl::flat_hash_map<std::string, std::shared_ptr<const SessionExecutors>> executors_by_exact_key_
      ABSL_GUARDED_BY(executors_mu_);
  // Partial runs' executors per canonical signature key.
  absl::flat_hash_map<std::string, std::shared_ptr<const SessionExecutors>> prun_executors_
      ABSL_GUARDED_BY(executors_mu_);

  // Makes partial-run handles unique within the session.
  std::atomic<int64_t> next_partial_run_{0};

  // The steps in flight, so that Close can cancel them.
  CallableRegistry callables_;

  mutable absl::Mutex steps_mu_;
  bool closed_ ABSL_GUARDED_BY(steps_mu_) = false;
  absl::flat_hash_set<SessionStep*> steps_ ABSL_GUARDED_BY(steps_mu_);
  // The partial runs set up and not ended, by handle. Shared with the PRun calls using them.
  absl::flat_hash_map<std::string, std::shared_ptr<PartialRun>> partial_runs_
      ABSL_GUARDED_BY(steps_mu_);
  // PRunSetup and PRun calls in progress.
  int partial_run_calls_ ABSL_GUARDED_BY(steps_mu_) = 0;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_DIRECT_SESSION_H_
