// DirectSession: graph management, the executor cache and the running of steps (see the
// header). The per-signature build lives in direct_session_executors.cc.
#include "runtime/session/direct_session.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/op/op_registry.h"
#include "graph/shape_refiner.h"
#include "runtime/debug/debug_watch_observer.h"
#include "runtime/device/core_budget.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/device_mgr.h"
#include "runtime/device/session_options.h"
#include "runtime/device/thread_pool.h"
#include "runtime/executor/step_stats_collector.h"
#include "runtime/framework/call_frame.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/local_rendezvous.h"
#include "runtime/framework/resource_mgr.h"
#include "runtime/session/direct_session_executors.h"
#include "runtime/session/host_constant_evaluator.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {

// One Run in flight: its services, and the bookkeeping that ends it.
struct SessionStep {
  SessionStep(int64_t id, ResourceMgr* resources) : step_id(id), step_container(id, resources) {}

  // Records the first failure and stops the rest of the step: pending Recvs wake up with
  // it and blocked kernels see the cancellation. Later failures change nothing.
  void Abort(const absl::Status& failure) {
    {
      absl::MutexLock lock(&mu);
      if (!status.ok()) return;
      status = failure;
      failed.store(true, std::memory_order_release);
    }
    rendezvous.StartAbort(failure);
    cancellation.StartCancel();
  }

  // Lock-free: asked once per partition on every Run, and a failure is rare.
  bool aborted() const { return failed.load(std::memory_order_acquire); }

  // One partition's executor is done. The notification is touched last: once it fires the
  // waiting Run may destroy the step.
  void PartitionDone(const absl::Status& partition_status) {
    if (!partition_status.ok()) Abort(partition_status);
    if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) all_done.Notify();
  }

  const int64_t step_id;
  // Destroyed with the step, after every partition is done: the step's TensorArrays go.
  ScopedStepContainer step_container;
  LocalRendezvous rendezvous;
  CancellationManager cancellation;
  std::unique_ptr<StepStatsCollector> stats;
  NodeOutputObserver* observer = nullptr;  // RunWithObserver's; not owned
  std::atomic<int> pending{0};
  absl::Notification all_done;

  absl::Mutex mu;
  absl::Status status ABSL_GUARDED_BY(mu);
  std::atomic<bool> failed{false};  // !status.ok(), readable without mu
};

// One partial run: its step, kept between PRun calls, and which of its declared feeds and
// fetches have been claimed. Whoever drops the last reference after the executors started
// has waited for step.all_done (EndPartialRun, Close), so the executors never outlive it.
struct PartialRun {
  PartialRun(int64_t step_id, ResourceMgr* resources,
             std::shared_ptr<const SessionExecutors> signature)
      : step(step_id, resources),
        executors(std::move(signature)),
        fed(executors->feeds.size(), false),
        fetched(executors->fetches.size(), false),
        remaining(static_cast<int>(executors->feeds.size() + executors->fetches.size())) {}

  SessionStep step;
  const std::shared_ptr<const SessionExecutors> executors;

  absl::Mutex mu;
  // Claimed by a PRun call, which then sends (receives) it or ends the partial run.
  std::vector<bool> fed ABSL_GUARDED_BY(mu);
  std::vector<bool> fetched ABSL_GUARDED_BY(mu);
  // Feeds and fetches not yet sent or received; the call that brings it to 0 ends the run.
  int remaining ABSL_GUARDED_BY(mu);
};

namespace {

constexpr char kHostPrefix[] = "/job:localhost/replica:0/task:0";

absl::Status ClosedError() { return errors::Cancelled("Session has been closed."); }

// SignatureKey of the lists as given, built in one string: it is computed on every Run, and
// the cache hit it serves must not first copy the feed names into a vector.
std::string ExactSignatureKey(const std::vector<std::pair<std::string, Tensor>>& inputs,
                              const std::vector<std::string>& outputs,
                              const std::vector<std::string>& targets,
                              const std::vector<std::string>& watched) {
  size_t size = 3 + inputs.size() + outputs.size() + targets.size() + watched.size();
  for (const auto& input : inputs) size += input.first.size();
  for (const std::string& name : outputs) size += name.size();
  for (const std::string& name : targets) size += name.size();
  for (const std::string& name : watched) size += name.size();
  std::string key;
  key.reserve(size);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i > 0) key.push_back(',');
    key.append(inputs[i].first);
  }
  key.push_back('|');
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i > 0) key.push_back(',');
    key.append(outputs[i]);
  }
  key.push_back('|');
  for (size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) key.push_back(',');
    key.append(targets[i]);
  }
  // As SignatureKey: the watched nodes only when there are some.
  for (size_t i = 0; i < watched.size(); ++i) {
    key.push_back(i == 0 ? '|' : ',');
    key.append(watched[i]);
  }
  return key;
}

// Shows each output to the caller's observer (RunWithObserver), then to the Run's debug
// watches; the first failure ends the step.
class ObserverPair : public NodeOutputObserver {
 public:
  ObserverPair(NodeOutputObserver* first, NodeOutputObserver* second)
      : first_(first), second_(second) {}
  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override {
    RETURN_IF_ERROR(first_->OnOutput(node, output, value));
    return second_->OnOutput(node, output, value);
  }

 private:
  NodeOutputObserver* const first_;
  NodeOutputObserver* const second_;
};

// The observer of a debugged Run of `executors` (step `step_id`): its watches, which first
// write the partitions' graphs and the Run's core metadata (debug_watch_observer.h).
absl::Status StartDebugWatches(const DebugOptions& debug, const SessionExecutors& executors,
                               int64_t step_id, std::unique_ptr<DebugWatchObserver>* watches) {
  RunCoreMetadata metadata;
  metadata.global_step = debug.global_step();
  metadata.session_run_index = step_id;
  metadata.executor_step_index = executors.debug_steps.fetch_add(1, std::memory_order_relaxed);
  // TensorFlow records the signature's sorted lists too.
  metadata.input_names = executors.feeds;
  metadata.output_names = executors.fetches;
  metadata.target_nodes = executors.targets;
  std::vector<DebugPartition> partitions;
  for (size_t i = 0; i < executors.partitions.size(); ++i) {
    partitions.push_back({executors.partitions[i].device->name(), &executors.partition_graphs[i]});
  }
  return DebugWatchObserver::Start(debug, executors.watched_nodes, partitions, metadata, watches);
}

// Debian's Abseil is a debug build: with deadlock detection on, every Mutex a step locks or
// destroys (the step's, the rendezvous', the cancellation manager's, the notification's)
// updates a process-wide lock graph under a global lock, thousands of instructions per Run
// and a point of contention between concurrent Runs. Release builds of Abseil (and
// TensorFlow's) have no such detection; sessions turn it off once per process.
void DisableMutexDeadlockDetection() {
  static const bool disabled = [] {
    absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
    return true;
  }();
  (void)disabled;
}

// One per core this process may use (affinity mask and cgroup quota), as for intra-op.
int DefaultThreadCount() { return CoreBudget::Get().usable_cores(); }

// Sorted; duplicates removed when `unique`.
std::vector<std::string> Canonical(std::vector<std::string> names, bool unique) {
  std::sort(names.begin(), names.end());
  if (unique) names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// The extension's nodes appended to `base`, checked for names `base` already has. The
// first graph gives the versions; functions are added unless one of that name exists.
absl::Status MergeExtension(const GraphDef& extension, GraphDef* base) {
  absl::flat_hash_set<std::string> names;
  for (const NodeDef& node : base->node()) names.insert(node.name());
  for (const NodeDef& node : extension.node()) {
    if (names.contains(node.name())) {
      return errors::InvalidArgument("GraphDef argument to Extend includes node '", node.name(),
                                     "', which was created by a previous call to Create or "
                                     "Extend in this session.");
    }
    *base->add_node() = node;
  }
  if (!base->has_versions()) *base->mutable_versions() = extension.versions();
  absl::flat_hash_set<std::string> functions;
  for (const FunctionDef& f : base->library().function()) functions.insert(f.signature().name());
  for (const FunctionDef& f : extension.library().function()) {
    if (!functions.contains(f.signature().name())) *base->mutable_library()->add_function() = f;
  }
  return absl::OkStatus();
}

// A pool and the runners executors use on it.
DirectSession::InterOpPool PoolOf(std::shared_ptr<Eigen::ThreadPoolInterface> pool,
                                  int parallelism) {
  DirectSession::InterOpPool runners;
  Eigen::ThreadPoolInterface* raw = pool.get();
  runners.pool = std::move(pool);
  runners.pool_runner = [raw](std::function<void()> fn) { raw->Schedule(std::move(fn)); };
  if (parallelism >= 2) {
    runners.runner = runners.pool_runner;
    runners.load_sampler = AcquireLoadSampler();
  }
  return runners;
}

// The thread that calls Run runs nodes too, so a pool has one thread fewer than the
// parallelism asked for: at most that many nodes run at once, as in TensorFlow (whose caller
// only waits). With a parallelism of 1 every node runs on the caller, and the pool's one
// thread only runs a step whose caller must watch a deadline.
absl::Status NewInterOpPool(int parallelism, bool spinning,
                            std::shared_ptr<Eigen::ThreadPoolInterface>* pool) {
  absl::StatusOr<std::unique_ptr<ThreadPool>> started =
      StartThreadPool(std::max(parallelism - 1, 1), spinning, "the session's inter-op pool");
  if (!started.ok()) return started.status();
  *pool = *std::move(started);
  return absl::OkStatus();
}

// The process-wide pool ThreadPoolOptionProto.global_name names, made by the first session
// that names it and kept for the life of the process, as TensorFlow's.
absl::Status GlobalInterOpPool(const std::string& name, int parallelism, bool spinning,
                               std::shared_ptr<Eigen::ThreadPoolInterface>* pool) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* pools =
      new absl::flat_hash_map<std::string,
                              std::pair<int, std::shared_ptr<Eigen::ThreadPoolInterface>>>();
  absl::MutexLock lock(&mu);
  auto [it, made] = pools->try_emplace(name);
  if (made) {
    std::shared_ptr<Eigen::ThreadPoolInterface> started;
    const absl::Status status = NewInterOpPool(parallelism, spinning, &started);
    if (!status.ok()) {
      pools->erase(it);
      return status;
    }
    it->second = {parallelism, std::move(started)};
  } else if (it->second.first != parallelism) {
    return errors::InvalidArgument("Pool ", name,
                                   " configured previously with num_threads=", it->second.first,
                                   "; cannot re-configure with num_threads=", parallelism);
  }
  *pool = it->second.second;
  return absl::OkStatus();
}

// The session's inter-op pools (see the header).
absl::Status MakeInterOpPools(const ConfigProto& config,
                              std::vector<DirectSession::InterOpPool>* pools) {
  const bool spinning = !config.experimental().disable_thread_spinning();
  const int threads = config.inter_op_parallelism_threads();
  if (threads > kMaxThreadsPerPool) {
    return errors::InvalidArgument("Invalid inter_op_parallelism_threads: ", threads, " (at most ",
                                   kMaxThreadsPerPool, ")");
  }
  const int default_parallelism = threads > 0 ? threads : DefaultThreadCount();
  for (const ThreadPoolOptionProto& option : config.session_inter_op_thread_pool()) {
    if (option.num_threads() > kMaxThreadsPerPool) {
      return errors::InvalidArgument("Invalid session_inter_op_thread_pool num_threads: ",
                                     option.num_threads(), " (at most ", kMaxThreadsPerPool, ")");
    }
    const int parallelism = option.num_threads() > 0 ? option.num_threads() : default_parallelism;
    std::shared_ptr<Eigen::ThreadPoolInterface> pool;
    if (option.global_name().empty()) {
      RETURN_IF_ERROR(NewInterOpPool(parallelism, spinning, &pool));
    } else {
      RETURN_IF_ERROR(GlobalInterOpPool(option.global_name(), parallelism, spinning, &pool));
    }
    pools->push_back(PoolOf(std::move(pool), parallelism));
  }
  if (!pools->empty()) return absl::OkStatus();
  // TensorFlow's meaning of a negative count: run everything on the caller's thread. Empty
  // runners tell the executor exactly that.
  if (threads < 0) {
    pools->emplace_back();
  } else {
    std::shared_ptr<Eigen::ThreadPoolInterface> pool;
    RETURN_IF_ERROR(NewInterOpPool(default_parallelism, spinning, &pool));
    pools->push_back(PoolOf(std::move(pool), default_parallelism));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DirectSession::Make(const SessionOptions& options, std::unique_ptr<Session>* session) {
  session->reset();
  DisableMutexDeadlockDetection();
  std::vector<std::unique_ptr<Device>> devices;
  RETURN_IF_ERROR(DeviceFactory::AddDevices(options, kHostPrefix, &devices));
  if (std::none_of(devices.begin(), devices.end(), [](const std::unique_ptr<Device>& device) {
        return device->device_type() == DEVICE_CPU;
      })) {
    return errors::NotFound("No CPU devices are available in this process");
  }
  std::vector<InterOpPool> pools;
  RETURN_IF_ERROR(MakeInterOpPools(options.config, &pools));
  session->reset(new DirectSession(options, std::make_unique<DeviceMgr>(std::move(devices)),
                                   std::move(pools)));
  return absl::OkStatus();
}

DirectSession::DirectSession(const SessionOptions& options, std::unique_ptr<DeviceMgr> device_mgr,
                             std::vector<InterOpPool> inter_op_pools)
    : options_(options),
      device_mgr_(std::move(device_mgr)),
      inter_op_pools_(std::move(inter_op_pools)),
      resource_mgr_(std::make_unique<ResourceMgr>()),
      constant_evaluator_(std::make_unique<HostConstantEvaluator>()) {}

DirectSession::~DirectSession() { Close().IgnoreError(); }

absl::Status DirectSession::CheckCreateLocked(int node_count) {
  {
    absl::MutexLock steps_lock(&steps_mu_);
    if (closed_) return ClosedError();
  }
  if (node_count > 0 && graph_def_ != nullptr) {
    return errors::AlreadyExists("A Graph has already been created for this session.");
  }
  return absl::OkStatus();
}

absl::Status DirectSession::Create(const GraphDef& graph) {
  absl::MutexLock lock(&graph_mu_);
  RETURN_IF_ERROR(CheckCreateLocked(graph.node_size()));
  if (graph.node_size() == 0) return absl::OkStatus();
  return AdoptLocked(StoredGraphDef::Copy(graph));
}

absl::Status DirectSession::Create(GraphDef&& graph) {
  absl::MutexLock lock(&graph_mu_);
  RETURN_IF_ERROR(CheckCreateLocked(graph.node_size()));
  if (graph.node_size() == 0) return absl::OkStatus();
  // Stored (serialized) before it is converted, so that the caller's parsed copy is gone
  // while the conversion's memory peaks.
  return AdoptLocked(StoredGraphDef::Take(std::move(graph)));
}

absl::Status DirectSession::Extend(const GraphDef& graph) {
  absl::MutexLock lock(&graph_mu_);
  {
    absl::MutexLock steps_lock(&steps_mu_);
    if (closed_) return ClosedError();
  }
  if (graph_def_ == nullptr) return AdoptLocked(StoredGraphDef::Copy(graph));
  GraphDef merged;
  RETURN_IF_ERROR(graph_def_->Parse(&merged));
  RETURN_IF_ERROR(MergeExtension(graph, &merged));
  return AdoptLocked(StoredGraphDef::Take(std::move(merged)));
}

absl::Status DirectSession::AdoptLocked(std::shared_ptr<const StoredGraphDef> graph) {
  auto check = std::make_unique<Graph>(OpRegistry::Global());
  // Shape functions run here, as when TensorFlow builds or imports a graph (Python, the C
  // API): a graph they reject (a PlaceholderWithDefault whose default contradicts its
  // shape, a reduction axis of rank 2) is INVALID_ARGUMENT at Create, not run. An op
  // without a shape function (a custom op's) just has unknown shapes, as in TensorFlow's
  // C++ session.
  GraphConstructorOptions options = SessionGraphOptions();
  options.validate_shape = true;
  ShapeRefiner refiner(check->op_registry());
  refiner.set_require_shape_inference_fns(false);
  // Parsed onto the graph's arena, whose nodes the graph then takes as they are.
  GraphDef* parsed = nullptr;
  RETURN_IF_ERROR(graph->ParseOnto(check->arena(), &parsed));
  RETURN_IF_ERROR(ConvertGraphDefToGraph(options, std::move(*parsed), check.get(), &refiner));
  graph_def_ = std::move(graph);
  validated_graph_ = std::move(check);
  return absl::OkStatus();
}

absl::Status DirectSession::ListDevices(std::vector<DeviceAttributes>* response) {
  response->clear();
  device_mgr_->ListDeviceAttributes(response);
  return absl::OkStatus();
}

int DirectSession::num_cached_signatures() const {
  absl::ReaderMutexLock lock(&executors_mu_);
  return static_cast<int>(executors_.size());
}

int DirectSession::num_partial_runs() const {
  absl::MutexLock lock(&steps_mu_);
  return static_cast<int>(partial_runs_.size());
}

absl::Status DirectSession::BeginStep(SessionStep* step) {
  absl::MutexLock lock(&steps_mu_);
  if (closed_) return ClosedError();
  steps_.insert(step);
  return absl::OkStatus();
}

void DirectSession::EndStep(SessionStep* step) {
  absl::MutexLock lock(&steps_mu_);
  steps_.erase(step);
}

bool DirectSession::IdleLocked() const { return steps_.empty() && partial_run_calls_ == 0; }

absl::Status DirectSession::Close() {
  std::vector<std::shared_ptr<PartialRun>> partial_runs;
  {
    absl::MutexLock lock(&steps_mu_);
    if (closed_) return absl::OkStatus();
    closed_ = true;
    // Steps unregister themselves (EndStep, under this mutex) only after their executors
    // are done, so every step in the set is alive while it is aborted here.
    for (SessionStep* step : steps_) step->Abort(ClosedError());
    // Aborting a partial run wakes its executors' _Recvs and the PRun calls receiving from
    // it; a run being set up is aborted before its executors start, which then start none.
    for (auto& [handle, run] : partial_runs_) {
      run->step.Abort(ClosedError());
      partial_runs.push_back(std::move(run));
    }
    partial_runs_.clear();
    steps_mu_.Await(absl::Condition(this, &DirectSession::IdleLocked));
  }
  // No call uses the partial runs any more; their executors finish on the abort.
  for (const std::shared_ptr<PartialRun>& run : partial_runs)
    run->step.all_done.WaitForNotification();
  partial_runs.clear();
  // No step runs and none can start: the executors (and their kernels) can go.
  {
    absl::MutexLock lock(&executors_mu_);
    executors_by_exact_key_.clear();
    executors_.clear();
    prun_executors_.clear();
  }
  absl::MutexLock lock(&graph_mu_);
  graph_def_.reset();
  validated_graph_.reset();
  return absl::OkStatus();
}

absl::Status DirectSession::BuildExecutors(bool partial_run, std::vector<std::string> feeds,
                                           std::vector<std::string> fetches,
                                           std::vector<std::string> targets,
                                           std::vector<std::string> watched,
                                           CallFrameDevices devices,
                                           std::unique_ptr<SessionExecutors>* built) {
  std::shared_ptr<const StoredGraphDef> graph;
  std::unique_ptr<Graph> converted;
  {
    absl::MutexLock lock(&graph_mu_);
    graph = graph_def_;
    converted = std::move(validated_graph_);
  }
  if (graph == nullptr) {
    return errors::FailedPrecondition("Session was not created with a graph before ",
                                      partial_run ? "PRunSetup()!" : "Run()!");
  }
  if (converted == nullptr) {
    // Not the first build: the stored graph is parsed and converted again (without shape
    // functions, which Create ran).
    converted = std::make_unique<Graph>(OpRegistry::Global());
    GraphDef* parsed = nullptr;
    RETURN_IF_ERROR(graph->ParseOnto(converted->arena(), &parsed));
    RETURN_IF_ERROR(
        ConvertGraphDefToGraph(SessionGraphOptions(), std::move(*parsed), converted.get()));
  }
  ExecutorBuildContext context;
  context.options = &options_;
  context.device_mgr = device_mgr_.get();
  context.constant_evaluator = constant_evaluator_.get();
  context.partial_run = partial_run;
  context.watched_nodes = std::move(watched);
  context.call_frame_devices = std::move(devices);
  return BuildSessionExecutors(context, std::move(converted), std::move(feeds), std::move(fetches),
                               std::move(targets), built);
}

absl::Status DirectSession::GetOrCreateExecutors(
    const std::vector<std::pair<std::string, Tensor>>& inputs,
    const std::vector<std::string>& outputs, const std::vector<std::string>& targets,
    const std::vector<std::string>& watched, const CallFrameDevices& devices,
    std::shared_ptr<const SessionExecutors>* executors) {
  // Most callers repeat their exact lists, so those are looked up before any sorting.
  const std::string devices_key = devices.Key();
  const std::string exact_key = ExactSignatureKey(inputs, outputs, targets, watched) + devices_key;
  {
    absl::ReaderMutexLock lock(&executors_mu_);
    auto it = executors_by_exact_key_.find(exact_key);
    if (it != executors_by_exact_key_.end()) {
      *executors = it->second;
      return absl::OkStatus();
    }
  }
  std::vector<std::string> feeds;
  feeds.reserve(inputs.size());
  for (const auto& input : inputs) feeds.push_back(input.first);
  // Feeds keep their duplicates so that pruning reports them; a fetch may repeat.
  feeds = Canonical(std::move(feeds), /*unique=*/false);
  std::vector<std::string> fetches = Canonical(outputs, /*unique=*/true);
  std::vector<std::string> sorted_targets = Canonical(targets, /*unique=*/true);
  const std::string key = SignatureKey(feeds, fetches, sorted_targets, watched) + devices_key;
  {
    absl::MutexLock lock(&executors_mu_);
    auto it = executors_.find(key);
    if (it != executors_.end()) {
      executors_by_exact_key_.emplace(exact_key, it->second);
      *executors = it->second;
      return absl::OkStatus();
    }
  }

  // Built without the lock, so that steps of cached signatures are not held up; when two
  // threads build the same signature at once, the first to finish wins.
  std::unique_ptr<SessionExecutors> built;
  RETURN_IF_ERROR(BuildExecutors(/*partial_run=*/false, std::move(feeds), std::move(fetches),
                                 std::move(sorted_targets), watched, devices, &built));
  absl::MutexLock lock(&executors_mu_);
  auto inserted = executors_.emplace(key, std::move(built));
  executors_by_exact_key_.emplace(exact_key, inserted.first->second);
  *executors = inserted.first->second;
  return absl::OkStatus();
}

absl::Status DirectSession::RunPartitions(const SessionExecutors& executors,
                                          CallFrameInterface* call_frame, int64_t timeout_ms,
                                          SessionStep* step, int inter_op_pool) {
  // With -1 pool 0 still starts the partitions of a step whose caller watches a deadline.
  const InterOpPool& pool = inter_op_pools_[std::max(inter_op_pool, 0)];
  const std::function<void(std::function<void()>)> runner =
      inter_op_pool < 0 ? nullptr : pool.runner;
  Executor::Args args;
  args.step_id = step->step_id;
  args.rendezvous = &step->rendezvous;
  args.call_frame = call_frame;
  args.cancellation_manager = &step->cancellation;
  args.resource_manager = resource_mgr_.get();
  args.step_container = &step->step_container;
  args.stats_collector = step->stats.get();
  args.output_observer = step->observer;
  args.runner = runner;

  const int n = static_cast<int>(executors.partitions.size());
  step->pending.store(n, std::memory_order_release);
  if (n == 0) step->all_done.Notify();
  for (int i = 0; i < n; ++i) {
    // A step cancelled before it started (by Close) starts none of its partitions.
    if (step->aborted()) {
      step->PartitionDone(absl::OkStatus());
      continue;
    }
    Executor* executor = executors.partitions[i].executor.get();
    auto start = [executor, &args, step] {
      executor->RunAsync(args, [step](const absl::Status& s) { step->PartitionDone(s); });
    };
    // RunAsync runs the first ready nodes on the calling thread. This thread takes the last
    // partition itself (all of them when nodes run only here), unless it must keep watch
    // over a deadline.
    if (pool.pool_runner && timeout_ms > 0) {
      pool.pool_runner(start);
    } else if (runner && i + 1 < n) {
      runner(start);
    } else {
      start();
    }
  }
  if (timeout_ms > 0) {
    if (!step->all_done.WaitForNotificationWithTimeout(absl::Milliseconds(timeout_ms))) {
      step->Abort(errors::DeadlineExceeded("Timed out waiting for notification"));
      // Executors hold pointers into the step; they must be done before it goes away.
      step->all_done.WaitForNotification();
    }
  } else {
    step->all_done.WaitForNotification();
  }
  // Every partition is done, so a failure recorded by one of them is visible through
  // `failed`. Locking mu on the OK path would cost more than the mutex itself: absl's
  // debug builds register every locked mutex in a process-wide deadlock graph.
  if (!step->aborted()) return absl::OkStatus();
  absl::MutexLock lock(&step->mu);
  return step->status;
}

absl::Status DirectSession::Run(const RunOptions& run_options,
                                const std::vector<std::pair<std::string, Tensor>>& inputs,
                                const std::vector<std::string>& output_tensor_names,
                                const std::vector<std::string>& target_node_names,
                                std::vector<Tensor>* outputs, RunMetadata* run_metadata) {
  return RunWithObserver(run_options, inputs, output_tensor_names, target_node_names, outputs,
                         run_metadata, nullptr);
}

absl::Status DirectSession::RunWithObserver(
    const RunOptions& run_options, const std::vector<std::pair<std::string, Tensor>>& inputs,
    const std::vector<std::string>& output_tensor_names,
    const std::vector<std::string>& target_node_names, std::vector<Tensor>* outputs,
    RunMetadata* run_metadata, NodeOutputObserver* observer) {
  return RunOnDevices(run_options, inputs, output_tensor_names, target_node_names,
                      CallFrameDevices(), outputs, run_metadata, observer);
}

absl::Status DirectSession::RunOnDevices(const RunOptions& run_options,
                                         const std::vector<std::pair<std::string, Tensor>>& inputs,
                                         const std::vector<std::string>& output_tensor_names,
                                         const std::vector<std::string>& target_node_names,
                                         const CallFrameDevices& devices,
                                         std::vector<Tensor>* outputs, RunMetadata* run_metadata,
                                         NodeOutputObserver* observer) {
  // Without an output vector the fetched values are computed and dropped, as TensorFlow's
  // session does (clients run assignments as fetches: session.Run({assign}, nullptr)).
  std::vector<Tensor> discarded;
  if (outputs == nullptr) outputs = &discarded;
  outputs->clear();
  SessionStep step(next_step_id_.fetch_add(1, std::memory_order_relaxed), resource_mgr_.get());
  step.observer = observer;
  RETURN_IF_ERROR(BeginStep(&step));
  absl::Status s = RunStep(run_options, inputs, output_tensor_names, target_node_names, devices,
                           &step, outputs, run_metadata);
  EndStep(&step);
  if (!s.ok()) outputs->clear();
  return s;
}

absl::Status DirectSession::RunStep(const RunOptions& run_options,
                                    const std::vector<std::pair<std::string, Tensor>>& inputs,
                                    const std::vector<std::string>& output_tensor_names,
                                    const std::vector<std::string>& target_node_names,
                                    const CallFrameDevices& devices, SessionStep* step,
                                    std::vector<Tensor>* outputs, RunMetadata* run_metadata) {
  const int inter_op_pool = run_options.inter_op_thread_pool();
  if (inter_op_pool < -1 || inter_op_pool >= static_cast<int>(inter_op_pools_.size())) {
    return errors::InvalidArgument("Invalid inter_op_thread_pool: ", inter_op_pool);
  }
  const DebugOptions& debug = run_options.debug_options();
  const bool debugging = DebugWatchObserver::HasWatches(debug);
  std::vector<std::string> watched;
  if (debugging) {
    RETURN_IF_ERROR(DebugWatchObserver::CheckUrls(debug));
    watched = DebugWatchObserver::WatchedNodes(debug);
  }
  std::shared_ptr<const SessionExecutors> executors;
  RETURN_IF_ERROR(GetOrCreateExecutors(inputs, output_tensor_names, target_node_names, watched,
                                       devices, &executors));

  std::vector<Tensor> args(executors->feeds.size());
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    const int index = executors->feed_index.at(inputs[i].first);
    RETURN_IF_ERROR(ValidateFeed(executors->feed_specs[index], i, inputs[i].second));
    args[index] = AlignedFeed(inputs[i].second);
  }
  FunctionCallFrame call_frame(executors->arg_types, executors->ret_types);
  RETURN_IF_ERROR(call_frame.SetArgs(std::move(args)));

  std::unique_ptr<DebugWatchObserver> watches;
  std::unique_ptr<ObserverPair> both;
  if (debugging) {
    RETURN_IF_ERROR(StartDebugWatches(debug, *executors, step->step_id, &watches));
    if (step->observer == nullptr) {
      step->observer = watches.get();
    } else {
      both = std::make_unique<ObserverPair>(step->observer, watches.get());
      step->observer = both.get();
    }
  }

  StepStats local_stats;
  if (run_options.trace_level() != RunOptions::NO_TRACE) {
    step->stats = std::make_unique<StepStatsCollector>(
        run_metadata != nullptr ? run_metadata->mutable_step_stats() : &local_stats);
  }
  const int64_t timeout_ms = run_options.timeout_in_ms() > 0
                                 ? run_options.timeout_in_ms()
                                 : options_.config.operation_timeout_in_ms();
  absl::Status s = RunPartitions(*executors, &call_frame, timeout_ms, step, inter_op_pool);
  if (step->stats != nullptr) step->stats->Finalize();
  RETURN_IF_ERROR(s);

  std::vector<Tensor> retvals;
  RETURN_IF_ERROR(call_frame.ConsumeRetvals(&retvals));
  outputs->reserve(output_tensor_names.size());
  for (const std::string& name : output_tensor_names) {
    outputs->push_back(retvals[executors->fetch_index.at(name)]);
  }
  if (run_metadata != nullptr && run_options.output_partition_graphs()) {
    for (const GraphDef& partition : executors->partition_graphs) {
      *run_metadata->add_partition_graphs() = partition;
    }
  }
  return absl::OkStatus();
}

// Callables.

namespace {

// The full names of the devices `devices` names, by tensor; INVALID_ARGUMENT for a device the
// session does not have. Tensors on the host CPU are left out (they need nothing).
absl::Status ResolveCallFrameDevices(const google::protobuf::Map<std::string, std::string>& devices,
                                     const char* what, const DeviceMgr& device_mgr,
                                     const Device& host,
                                     absl::flat_hash_map<std::string, std::string>* resolved,
                                     std::vector<Device*>* used) {
  for (const auto& [tensor, name] : devices) {
    Device* device = nullptr;
    if (!device_mgr.LookupDevice(name, &device).ok()) {
      return errors::InvalidArgument("The ", what, " device '", name, "' of ", tensor,
                                     " is not one of the session's devices");
    }
    if (device == &host) continue;
    (*resolved)[tensor] = device->name();
    if (used != nullptr && std::find(used->begin(), used->end(), device) == used->end()) {
      used->push_back(device);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DirectSession::MakeCallable(const CallableOptions& callable_options,
                                         CallableHandle* out_handle) {
  {
    absl::MutexLock lock(&steps_mu_);
    if (closed_) return ClosedError();
  }
  {
    absl::MutexLock lock(&graph_mu_);
    if (graph_def_ == nullptr) {
      return errors::FailedPrecondition(
          "Session was not created with a graph before MakeCallable()!");
    }
  }
  if (DebugWatchObserver::HasWatches(callable_options.run_options().debug_options())) {
    return errors::Unimplemented(
        "Debug options are not currently supported via the C++ MakeCallable interface.");
  }
  if (callable_options.tensor_connection_size() > 0) {
    return errors::Unimplemented("CallableOptions.tensor_connection is not supported yet.");
  }
  const Device* host = device_mgr_->HostCPU();
  CallableSpec spec;
  RETURN_IF_ERROR(ResolveCallFrameDevices(callable_options.feed_devices(), "Feed", *device_mgr_,
                                          *host, &spec.devices.feeds, nullptr));
  std::vector<Device*> fetch_devices;
  RETURN_IF_ERROR(ResolveCallFrameDevices(callable_options.fetch_devices(), "Fetch", *device_mgr_,
                                          *host, &spec.devices.fetches, &fetch_devices));
  // TensorFlow refuses fetch_skip_sync = false with fetch devices (UNIMPLEMENTED); Sluice
  // synchronises the fetches' devices after each run instead, so either setting works.
  if (!callable_options.fetch_skip_sync()) spec.sync_after_run = std::move(fetch_devices);
  spec.feeds.assign(callable_options.feed().begin(), callable_options.feed().end());
  spec.fetches.assign(callable_options.fetch().begin(), callable_options.fetch().end());
  spec.targets.assign(callable_options.target().begin(), callable_options.target().end());
  spec.run_options = callable_options.run_options();
  // The executors are built now, as TensorFlow builds them: a bad name fails here, and the
  // first run costs no more than the others.
  std::vector<std::pair<std::string, Tensor>> inputs;
  inputs.reserve(spec.feeds.size());
  for (const std::string& feed : spec.feeds) inputs.emplace_back(feed, Tensor());
  std::shared_ptr<const SessionExecutors> executors;
  RETURN_IF_ERROR(
      GetOrCreateExecutors(inputs, spec.fetches, spec.targets, {}, spec.devices, &executors));
  *out_handle = callables_.Add(std::move(spec));
  return absl::OkStatus();
}

absl::Status DirectSession::RunCallable(CallableHandle handle,
                                        const std::vector<Tensor>& feed_tensors,
                                        std::vector<Tensor>* fetch_tensors,
                                        RunMetadata* run_metadata) {
  std::shared_ptr<const CallableSpec> spec;
  RETURN_IF_ERROR(callables_.Get(handle, &spec));
  if (feed_tensors.size() != spec->feeds.size()) {
    return errors::InvalidArgument("Expected ", spec->feeds.size(), " feed tensors, but got ",
                                   feed_tensors.size());
  }
  if (fetch_tensors == nullptr && !spec->fetches.empty()) {
    return errors::InvalidArgument(
        "`fetch_tensors` must be provided when the callable has one or more outputs.");
  }
  std::vector<std::pair<std::string, Tensor>> inputs;
  inputs.reserve(feed_tensors.size());
  for (size_t i = 0; i < feed_tensors.size(); ++i) {
    inputs.emplace_back(spec->feeds[i], feed_tensors[i]);
  }
  RETURN_IF_ERROR(RunOnDevices(spec->run_options, inputs, spec->fetches, spec->targets,
                               spec->devices, fetch_tensors, run_metadata, nullptr));
  for (Device* device : spec->sync_after_run) RETURN_IF_ERROR(device->Sync());
  return absl::OkStatus();
}

absl::Status DirectSession::ReleaseCallable(CallableHandle handle) {
  return callables_.Release(handle);
}

// Partial runs.

absl::Status DirectSession::BeginPartialRunCall() {
  absl::MutexLock lock(&steps_mu_);
  if (closed_) return ClosedError();
  ++partial_run_calls_;
  return absl::OkStatus();
}

void DirectSession::EndPartialRunCall() {
  absl::MutexLock lock(&steps_mu_);
  --partial_run_calls_;
}

absl::Status DirectSession::GetOrCreatePartialRunExecutors(
    const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
    const std::vector<std::string>& targets, std::shared_ptr<const SessionExecutors>* executors) {
  // Feeds keep their duplicates so that pruning reports them.
  std::vector<std::string> feeds = Canonical(inputs, /*unique=*/false);
  std::vector<std::string> fetches = Canonical(outputs, /*unique=*/true);
  std::vector<std::string> sorted_targets = Canonical(targets, /*unique=*/true);
  const std::string key = SignatureKey(feeds, fetches, sorted_targets);
  {
    absl::ReaderMutexLock lock(&executors_mu_);
    auto it = prun_executors_.find(key);
    if (it != prun_executors_.end()) {
      *executors = it->second;
      return absl::OkStatus();
    }
  }
  std::unique_ptr<SessionExecutors> built;
  RETURN_IF_ERROR(BuildExecutors(/*partial_run=*/true, std::move(feeds), std::move(fetches),
                                 std::move(sorted_targets), /*watched=*/{}, CallFrameDevices(),
                                 &built));
  absl::MutexLock lock(&executors_mu_);
  // When two threads build the same signature at once, the first to finish wins.
  *executors = prun_executors_.emplace(key, std::move(built)).first->second;
  return absl::OkStatus();
}

absl::Status DirectSession::PRunSetup(const std::vector<std::string>& input_names,
                                      const std::vector<std::string>& output_names,
                                      const std::vector<std::string>& target_nodes,
                                      std::string* handle) {
  handle->clear();
  RETURN_IF_ERROR(BeginPartialRunCall());
  absl::Status s = SetupPartialRun(input_names, output_names, target_nodes, handle);
  EndPartialRunCall();
  return s;
}

absl::Status DirectSession::SetupPartialRun(const std::vector<std::string>& input_names,
                                            const std::vector<std::string>& output_names,
                                            const std::vector<std::string>& target_nodes,
                                            std::string* handle) {
  std::shared_ptr<const SessionExecutors> executors;
  RETURN_IF_ERROR(
      GetOrCreatePartialRunExecutors(input_names, output_names, target_nodes, &executors));
  // TensorFlow's handles are the signature and a counter; only uniqueness matters.
  std::string new_handle =
      absl::StrCat(SignatureKey(executors->feeds, executors->fetches, executors->targets), ";",
                   next_partial_run_.fetch_add(1, std::memory_order_relaxed));
  auto run = std::make_shared<PartialRun>(next_step_id_.fetch_add(1, std::memory_order_relaxed),
                                          resource_mgr_.get(), std::move(executors));
  {
    absl::MutexLock lock(&steps_mu_);
    if (closed_) return ClosedError();  // Its executors never started.
    if (!partial_runs_.emplace(new_handle, run).second) {
      return errors::Internal("The handle '", new_handle,
                              "' created for this partial run is not unique.");
    }
  }
  // Registered before it starts, so that a Close from now on aborts it; this call counts as
  // in progress, so Close waits for the start (where an aborted run starts no executor).
  StartPartialRun(run.get());
  *handle = std::move(new_handle);
  return absl::OkStatus();
}

void DirectSession::StartPartialRun(PartialRun* run) {
  SessionStep* step = &run->step;
  Executor::Args args;
  args.step_id = step->step_id;
  args.rendezvous = &step->rendezvous;
  args.cancellation_manager = &step->cancellation;
  args.resource_manager = resource_mgr_.get();
  args.step_container = &step->step_container;
  // PRunSetup has no RunOptions to choose a pool: pool 0, as TensorFlow's.
  const std::function<void(std::function<void()>)>& runner = inter_op_pools_[0].runner;
  args.runner = runner;
  const SessionExecutors& executors = *run->executors;
  const int n = static_cast<int>(executors.partitions.size());
  step->pending.store(n, std::memory_order_release);
  if (n == 0) step->all_done.Notify();
  for (int i = 0; i < n; ++i) {
    if (step->aborted()) {
      step->PartitionDone(absl::OkStatus());
      continue;
    }
    Executor* executor = executors.partitions[i].executor.get();
    // The closure owns its copy of the args: it may run after this function returned.
    auto start = [executor, args, step] {
      executor->RunAsync(args, [step](const absl::Status& s) { step->PartitionDone(s); });
    };
    // As in RunPartitions, this thread takes the last partition (all of them without a
    // pool). It runs only what is ready without the feeds: every _Recv of a feed is
    // asynchronous, so nothing here waits for a later PRun.
    if (runner && i + 1 < n) {
      runner(std::move(start));
    } else {
      start();
    }
  }
}

absl::Status DirectSession::EndPartialRun(const std::string& handle, PartialRun* run,
                                          absl::Status status) {
  SessionStep* step = &run->step;
  if (!status.ok()) step->Abort(status);
  // The targets may still be running; as TensorFlow, wait for them within the operation
  // timeout.
  const int64_t timeout_ms = options_.config.operation_timeout_in_ms();
  if (timeout_ms > 0) {
    if (!step->all_done.WaitForNotificationWithTimeout(absl::Milliseconds(timeout_ms))) {
      step->Abort(errors::DeadlineExceeded("Timed out waiting for notification"));
      step->all_done.WaitForNotification();
    }
  } else {
    step->all_done.WaitForNotification();
  }
  {
    absl::MutexLock lock(&steps_mu_);
    auto it = partial_runs_.find(handle);
    // Close may have taken it already.
    if (it != partial_runs_.end() && it->second.get() == run) partial_runs_.erase(it);
  }
  if (!status.ok() || !step->aborted()) return status;
  absl::MutexLock lock(&step->mu);
  return step->status;
}

absl::Status DirectSession::PRun(const std::string& handle,
                                 const std::vector<std::pair<std::string, Tensor>>& inputs,
                                 const std::vector<std::string>& output_names,
                                 std::vector<Tensor>* outputs) {
  std::vector<Tensor> discarded;
  if (outputs == nullptr) {
    if (!output_names.empty()) {
      return errors::InvalidArgument("PRun fetches ", output_names.size(),
                                     " tensors but was given no output vector");
    }
    outputs = &discarded;
  }
  outputs->clear();
  std::shared_ptr<PartialRun> run;
  {
    absl::MutexLock lock(&steps_mu_);
    if (closed_) return ClosedError();
    auto it = partial_runs_.find(handle);
    if (it == partial_runs_.end()) {
      return errors::InvalidArgument("Must run 'setup' before performing partial runs!");
    }
    run = it->second;
    ++partial_run_calls_;
  }
  absl::Status s = ContinuePartialRun(handle, run.get(), inputs, output_names, outputs);
  // Dropped before the call ends: once Close has stopped waiting, the last reference must
  // not be this thread's (its executors refer to the session's devices).
  run.reset();
  EndPartialRunCall();
  if (!s.ok()) outputs->clear();
  return s;
}

absl::Status DirectSession::ContinuePartialRun(
    const std::string& handle, PartialRun* run,
    const std::vector<std::pair<std::string, Tensor>>& inputs,
    const std::vector<std::string>& output_names, std::vector<Tensor>* outputs) {
  const SessionExecutors& executors = *run->executors;

  // The arguments first; a call refused for them changes nothing.
  std::vector<int> feed_ids;
  feed_ids.reserve(inputs.size());
  for (const auto& input : inputs) {
    auto it = executors.feed_index.find(input.first);
    if (it == executors.feed_index.end()) {
      return errors::InvalidArgument("The feed ", input.first,
                                     " was not specified in partial_run_setup.");
    }
    if (std::find(feed_ids.begin(), feed_ids.end(), it->second) != feed_ids.end()) {
      return errors::InvalidArgument("Endpoint \"", input.first, "\" fed more than once.");
    }
    feed_ids.push_back(it->second);
  }
  std::vector<int> fetch_ids;
  fetch_ids.reserve(output_names.size());
  std::vector<int> unique_fetches;  // A name fetched twice in one call is received once.
  for (const std::string& name : output_names) {
    auto it = executors.fetch_index.find(name);
    if (it == executors.fetch_index.end()) {
      return errors::InvalidArgument("The fetch ", name,
                                     " was not specified in partial_run_setup.");
    }
    fetch_ids.push_back(it->second);
    if (std::find(unique_fetches.begin(), unique_fetches.end(), it->second) ==
        unique_fetches.end()) {
      unique_fetches.push_back(it->second);
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    RETURN_IF_ERROR(
        ValidateFeed(executors.feed_specs[feed_ids[i]], static_cast<int>(i), inputs[i].second));
  }
  {
    absl::MutexLock lock(&run->mu);
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (run->fed[feed_ids[i]]) {
        return errors::InvalidArgument("The feed ", inputs[i].first, " has already been fed.");
      }
    }
    for (size_t i = 0; i < output_names.size(); ++i) {
      if (run->fetched[fetch_ids[i]]) {
        return errors::InvalidArgument("The fetch ", output_names[i], " has already been fetched.");
      }
    }
    // A fetch that needs a feed nobody has given would wait for it forever.
    for (int fetch : unique_fetches) {
      for (int feed : executors.fetch_needs[fetch]) {
        if (run->fed[feed] || std::find(feed_ids.begin(), feed_ids.end(), feed) != feed_ids.end()) {
          continue;
        }
        return errors::InvalidArgument("Fetch ", executors.feed_specs[feed].tensor,
                                       " can't be computed from the feeds that have been fed so "
                                       "far.");
      }
    }
    for (int feed : feed_ids) run->fed[feed] = true;
    for (int fetch : unique_fetches) run->fetched[fetch] = true;
  }

  // A step that failed already (a kernel error no PRun waited on) fails this call.
  if (run->step.aborted()) {
    absl::Status failure;
    {
      absl::MutexLock lock(&run->step.mu);
      failure = run->step.status;
    }
    return EndPartialRun(handle, run, failure);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::Status sent = run->step.rendezvous.Send(executors.feed_keys[feed_ids[i]],
                                                  AlignedFeed(inputs[i].second), /*is_dead=*/false);
    if (!sent.ok()) return EndPartialRun(handle, run, sent);
  }
  std::vector<Tensor> received(executors.fetches.size());
  for (int fetch : unique_fetches) {
    bool is_dead = false;
    absl::Status got =
        run->step.rendezvous.Recv(executors.fetch_keys[fetch], &received[fetch], &is_dead,
                                  options_.config.operation_timeout_in_ms());
    if (got.ok() && is_dead) {
      got = errors::InvalidArgument("The tensor returned for ", executors.fetches[fetch],
                                    " was not valid.");
    }
    if (!got.ok()) return EndPartialRun(handle, run, got);
  }
  outputs->reserve(output_names.size());
  for (int fetch : fetch_ids) outputs->push_back(received[fetch]);

  bool last = false;
  {
    absl::MutexLock lock(&run->mu);
    run->remaining -= static_cast<int>(feed_ids.size() + unique_fetches.size());
    last = run->remaining == 0;
  }
  if (!last) return absl::OkStatus();
  return EndPartialRun(handle, run, absl::OkStatus());
}

}  // namespace sluice
