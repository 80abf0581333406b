// ModelRunner: request checks, then a DirectSession configured from the flags.
#include "tools/cli/runner.h"

#include <algorithm>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/notification.h"
#include "graph/core/errors.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/device_type.h"
#include "tools/cli/graph_needs.h"
#include "tools/cli/kernel_info.h"

namespace sluice {
namespace cli {
namespace {

absl::Status CheckDevice(const std::string& device, std::string* device_type) {
  *device_type = absl::AsciiStrToUpper(device);
  if (*device_type != DEVICE_CPU && *device_type != DEVICE_GPU) {
    return errors::InvalidArgument("--device must be cpu or gpu, got '", device, "'");
  }
  std::vector<std::string> types = DeviceFactory::DeviceTypes();
  if (std::find(types.begin(), types.end(), *device_type) == types.end()) {
    return errors::InvalidArgument("--device ", device, ": this build of Sluice has no ",
                                   *device_type, " device (it has: ", absl::StrJoin(types, ", "),
                                   ")");
  }
  return absl::OkStatus();
}

int64_t ThreadsOrCores(int64_t threads) {
  return threads > 0 ? threads : std::max<int64_t>(std::thread::hardware_concurrency(), 1);
}

}  // namespace

absl::Status ValidateRunnerOptions(const RunnerOptions& options) {
  for (const auto& [flag, value] : {std::pair<const char*, int64_t>{"threads", options.threads},
                                    {"inter-op-threads", options.inter_op_threads}}) {
    if (value < 0 || value > kMaxThreads) {
      return errors::InvalidArgument("--", flag, " must be between 0 and ", kMaxThreads,
                                     " (0: one per core), got ", value);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckThreadsCanStart(int64_t count, const std::string& what) {
  absl::Notification release;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(std::max<int64_t>(count, 0)));
  std::string refusal;
  for (int64_t i = 0; i < count; ++i) {
    try {
      threads.emplace_back([&release] { release.WaitForNotification(); });
    } catch (const std::system_error& error) {
      refusal = error.code().message();
      break;
    } catch (const std::bad_alloc&) {
      refusal = "out of memory";
      break;
    }
  }
  release.Notify();
  for (std::thread& thread : threads) thread.join();
  if (refusal.empty()) return absl::OkStatus();
  return errors::ResourceExhausted("cannot start the ", count, " threads ", what,
                                   " need: the system refused a thread after ", threads.size(),
                                   " (", refusal,
                                   "); use fewer threads, or raise the process's limits "
                                   "(ulimit -v, ulimit -u)");
}

ModelRunner::~ModelRunner() {
  if (session_ != nullptr) session_->Close().IgnoreError();
}

absl::Status ModelRunner::Create(GraphDef graph_def, const RunnerOptions& options,
                                 std::vector<std::pair<std::string, Tensor>> feeds,
                                 std::vector<std::string> fetches,
                                 std::unique_ptr<ModelRunner>* runner) {
  std::unique_ptr<ModelRunner> result(new ModelRunner());
  RETURN_IF_ERROR(ValidateRunnerOptions(options));
  RETURN_IF_ERROR(CheckDevice(options.device, &result->device_type_));

  std::vector<std::string> fed;
  for (const auto& feed : feeds) fed.push_back(feed.first);
  RETURN_IF_ERROR(CheckKernels(graph_def, fetches, fed, result->device_type_));

  SessionOptions session_options;
  ConfigProto& config = session_options.config;
  config.set_intra_op_parallelism_threads(static_cast<int32_t>(options.threads));
  config.set_inter_op_parallelism_threads(static_cast<int32_t>(options.inter_op_threads));
  config.mutable_experimental()->set_disable_thread_spinning(options.no_thread_spinning);
  if (result->device_type_ == DEVICE_GPU) {
    config.set_allow_soft_placement(true);
    for (NodeDef& node : *graph_def.mutable_node()) {
      if (node.device().empty()) node.set_device("/device:GPU:0");
    }
  } else {
    (*config.mutable_device_count())[DEVICE_GPU] = 0;
  }
  // The session's pools would abort the process on a thread the system refuses (Eigen's
  // pool cannot unwind a half-built pool), so the threads are tried first: the intra-op pool's
  // and the inter-op pool's (one fewer: the calling thread runs nodes too).
  RETURN_IF_ERROR(
      CheckThreadsCanStart(ThreadsOrCores(options.threads) +
                               std::max<int64_t>(ThreadsOrCores(options.inter_op_threads) - 1, 1),
                           absl::StrCat("the thread pools (--threads ", options.threads,
                                        ", --inter-op-threads ", options.inter_op_threads, ")")));
  RETURN_IF_ERROR(NewSession(session_options, &result->session_));
  RETURN_IF_ERROR(result->session_->Create(std::move(graph_def)));
  result->feeds_ = std::move(feeds);
  result->fetches_ = std::move(fetches);
  *runner = std::move(result);
  return absl::OkStatus();
}

absl::Status ModelRunner::Run(const RunOptions& run_options, std::vector<Tensor>* outputs,
                              RunMetadata* run_metadata) {
  return session_->Run(run_options, feeds_, fetches_, {}, outputs, run_metadata);
}

}  // namespace cli
}  // namespace sluice
