// ModelRunner: request checks, then a DirectSession configured from the flags.
#include "tools/cli/runner.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/device_type.h"
#include "saved_model/loader.h"
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

// FAILED_PRECONDITION unless `session` has a GPU device: asked for a GPU, the user must not
// get the CPU silently.
absl::Status CheckHasGpu(Session& session) {
  std::vector<DeviceAttributes> devices;
  RETURN_IF_ERROR(session.ListDevices(&devices));
  for (const DeviceAttributes& device : devices) {
    if (device.device_type() == DEVICE_GPU) return absl::OkStatus();
  }
  return errors::FailedPrecondition(
      "--device gpu: no GPU device is available here (no CUDA driver or GPU, "
      "CUDA_VISIBLE_DEVICES hides them, or cuBLAS/cuDNN could not be loaded)");
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
  if (options.memory_limit_mb < 0 || options.memory_limit_mb > kMaxMemoryLimitMb) {
    return errors::InvalidArgument("--memory-limit-mb must be between 0 and ", kMaxMemoryLimitMb,
                                   " (0: no limit), got ", options.memory_limit_mb);
  }
  return absl::OkStatus();
}

ModelRunner::~ModelRunner() {
  if (session_ != nullptr) session_->Close().IgnoreError();
}

absl::Status ModelRunner::Create(GraphDef graph_def, const RunnerOptions& options,
                                 std::vector<std::pair<std::string, Tensor>> feeds,
                                 std::vector<std::string> fetches,
                                 std::unique_ptr<ModelRunner>* runner,
                                 const SavedModelSource* saved_model) {
  std::unique_ptr<ModelRunner> result(new ModelRunner());
  RETURN_IF_ERROR(ValidateRunnerOptions(options));
  RETURN_IF_ERROR(CheckDevice(options.device, &result->device_type_));

  std::vector<std::string> fed;
  for (const auto& feed : feeds) fed.push_back(feed.first);
  // On a GPU, nodes without a GPU kernel run on the CPU (soft placement, as TensorFlow places
  // them): every node needs a CPU kernel at least.
  RETURN_IF_ERROR(
      CheckKernels(graph_def, fetches, fed,
                   result->device_type_ == DEVICE_GPU ? DEVICE_CPU : result->device_type_));

  SessionOptions session_options;
  ConfigProto& config = session_options.config;
  config.set_intra_op_parallelism_threads(static_cast<int32_t>(options.threads));
  config.set_inter_op_parallelism_threads(static_cast<int32_t>(options.inter_op_threads));
  config.mutable_experimental()->set_disable_thread_spinning(options.no_thread_spinning);
  session_options.memory_limit_bytes = options.memory_limit_mb << 20;
  if (options.keep_every_node) {
    OptimizerOptions* optimizer = config.mutable_graph_options()->mutable_optimizer_options();
    optimizer->set_opt_level(OptimizerOptions::L0);
    optimizer->set_do_constant_folding(false);
    optimizer->set_do_common_subexpression_elimination(false);
  }
  if (result->device_type_ == DEVICE_GPU) {
    config.set_allow_soft_placement(true);
    for (NodeDef& node : *graph_def.mutable_node()) {
      if (node.device().empty()) node.set_device("/device:GPU:0");
    }
  } else {
    (*config.mutable_device_count())[DEVICE_GPU] = 0;
  }
  const absl::Status made = NewSession(session_options, &result->session_);
  if (made.code() == absl::StatusCode::kResourceExhausted) {
    return absl::Status(made.code(),
                        absl::StrCat(made.message(), " (--threads ", options.threads,
                                     ", --inter-op-threads ", options.inter_op_threads, ")"));
  }
  RETURN_IF_ERROR(made);
  if (result->device_type_ == DEVICE_GPU) RETURN_IF_ERROR(CheckHasGpu(*result->session_));
  RETURN_IF_ERROR(result->session_->Create(std::move(graph_def)));
  if (saved_model != nullptr) {
    RETURN_IF_ERROR(
        errors::PrependToMessage(RestoreSession(RunOptions(), saved_model->meta_graph,
                                                saved_model->export_dir, &result->session_),
                                 saved_model->export_dir, ": restoring the SavedModel: "));
  }
  result->feeds_ = std::move(feeds);
  result->fetches_ = std::move(fetches);
  *runner = std::move(result);
  return absl::OkStatus();
}

absl::Status ModelRunner::Run(const RunOptions& run_options, std::vector<Tensor>* outputs,
                              RunMetadata* run_metadata, NodeOutputObserver* observer) {
  if (observer != nullptr) {
    return session_->RunWithObserver(run_options, feeds_, fetches_, {}, outputs, run_metadata,
                                     observer);
  }
  return session_->Run(run_options, feeds_, fetches_, {}, outputs, run_metadata);
}

}  // namespace cli
}  // namespace sluice
