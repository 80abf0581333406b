// sluice run: feeds a model, runs one step and summarises (and optionally saves) its outputs.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"
#include "io/npy.h"
#include "tools/cli/accuracy.h"
#include "tools/cli/args.h"
#include "tools/cli/capture.h"
#include "tools/cli/commands.h"
#include "tools/cli/feeds.h"
#include "tools/cli/model.h"
#include "tools/cli/numerics_check.h"
#include "tools/cli/page_policy.h"
#include "tools/cli/report.h"
#include "tools/cli/runner.h"
#include "tools/cli/summary.h"

namespace sluice {
namespace cli {
namespace {

struct RunFlags {
  std::string model;
  std::string tags = "serve";
  SavedModelSelection saved_model;
  std::vector<std::string> outputs;
  std::string save_dir;
  std::string labels;
  RunnerOptions runner;
  FeedOptions feeds;
  int64_t seed = 0;
  bool check_numerics = false;
  CaptureOptions capture;
};

// Shows every output to each observer in turn; the first failure ends the step.
class ObserverList : public NodeOutputObserver {
 public:
  void Add(NodeOutputObserver* observer) { observers_.push_back(observer); }
  bool empty() const { return observers_.empty(); }
  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override {
    for (NodeOutputObserver* observer : observers_) {
      RETURN_IF_ERROR(observer->OnOutput(node, output, value));
    }
    return absl::OkStatus();
  }

 private:
  std::vector<NodeOutputObserver*> observers_;
};

// The most steps a run may make (folders of inputs, --step-batch): each step's outputs are
// summarised on the terminal.
constexpr int64_t kMaxSteps = 1000000;

// The fetches: --output names resolved, or the model's default outputs.
absl::Status ResolveOutputs(const Model& model, const std::vector<std::string>& names,
                            std::vector<std::string>* fetches) {
  const GraphDef& graph_def = model.graph_def;
  std::vector<std::string> wanted = names.empty() ? DefaultOutputs(model) : names;
  if (wanted.empty()) {
    return errors::InvalidArgument("the model has no obvious outputs; name them with --output");
  }
  for (const std::string& name : wanted) {
    std::string tensor;
    DataType dtype;
    RETURN_IF_ERROR(
        errors::PrependToMessage(ResolveOutput(graph_def, name, &tensor, &dtype), "--output: "));
    fetches->push_back(tensor);
  }
  return absl::OkStatus();
}

// `dir` for a one-step run; DIR/step_<k> for step k of several.
std::string StepDir(const std::string& dir, int64_t step, int64_t steps) {
  return steps == 1 ? dir : absl::StrCat(dir, "/step_", step);
}

absl::Status SaveOutputs(const std::string& dir, const std::vector<Tensor>& outputs) {
  const std::string path = UserPath(dir);
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) {
    return errors::InvalidArgument("--save-outputs: cannot create ", path, ": ", error.message());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string file = absl::StrCat(path, "/out_", i, ".npy");
    Tensor output = outputs[i];
    if (output.dtype() == DT_BFLOAT16) {
      // numpy has no bfloat16; float32 holds every bfloat16 value exactly.
      Tensor widened(DT_FLOAT, output.shape());
      for (int64_t j = 0; j < output.NumElements(); ++j) {
        widened.base<float>()[j] = static_cast<float>(output.base<bfloat16>()[j]);
      }
      output = widened;
      std::printf("Output %zu is bfloat16; saved as float32\n", i);
    }
    RETURN_IF_ERROR(errors::PrependToMessage(WriteNpyFile(file, output), file, ": "));
    std::printf("Saved %s\n", Printable(file).c_str());
  }
  return absl::OkStatus();
}

// Top-1 accuracy of the first output against the labels in `path`.
absl::Status ReportAccuracy(const std::string& path, const std::vector<std::string>& fetches,
                            const std::vector<Tensor>& outputs) {
  Tensor labels;
  RETURN_IF_ERROR(errors::PrependToMessage(ReadNpyFile(UserPath(path), &labels), "--labels: "));
  Accuracy accuracy;
  RETURN_IF_ERROR(TopOneAccuracy(outputs[0], labels, &accuracy));
  const double percent =
      accuracy.total == 0 ? 0.0 : 100.0 * accuracy.correct / static_cast<double>(accuracy.total);
  std::printf("Accuracy of %s against %s: %lld of %lld correct (%.2f%%)\n",
              Printable(fetches[0]).c_str(), Printable(path).c_str(),
              static_cast<long long>(accuracy.correct), static_cast<long long>(accuracy.total),
              percent);
  return absl::OkStatus();
}

absl::Status Run(const RunFlags& flags) {
  // A run is a few steps at most, whose time is mostly first touches of memory: small pages
  // throughout (page_policy.h says why).
  UseSmallPages(true);
  Model model;
  SavedModelSelection selection = flags.saved_model;
  selection.tags = absl::StrSplit(flags.tags, ',', absl::SkipEmpty());
  RETURN_IF_ERROR(LoadModel(flags.model, &model, selection));
  std::vector<std::string> fetches;
  RETURN_IF_ERROR(ResolveOutputs(model, flags.outputs, &fetches));
  FeedOptions feed_options = flags.feeds;
  feed_options.max_steps = kMaxSteps;
  feed_options.seed = static_cast<uint64_t>(flags.seed);
  std::vector<Feed> feeds;
  std::vector<std::string> unneeded;
  RETURN_IF_ERROR(BuildFeeds(model.graph_def, fetches, feed_options, &feeds, &unneeded));

  std::vector<std::pair<std::string, Tensor>> feed_pairs;
  std::printf("Inputs (%zu):\n", feeds.size());
  for (const Feed& feed : feeds) {
    std::printf("  %s: %s\n", Printable(feed.tensor).c_str(), Printable(feed.description).c_str());
    feed_pairs.emplace_back(feed.tensor, feed.value);
  }
  if (!unneeded.empty()) {
    std::printf("Not fed, as the outputs do not need them (--shape ignored): %s\n",
                Printable(absl::StrJoin(unneeded, ", ")).c_str());
  }
  int64_t steps = 1;
  RETURN_IF_ERROR(StepCount(feeds, &steps));
  if (steps > kMaxSteps) {
    return errors::InvalidArgument("the inputs make ", steps, " steps; at most ", kMaxSteps,
                                   " are allowed (use a larger --step-batch)");
  }
  if (steps > 1 && !flags.labels.empty()) {
    return errors::InvalidArgument("--labels needs a run of one step; the inputs make ", steps);
  }
  if (steps > 1) std::printf("Steps: %lld\n", static_cast<long long>(steps));
  const bool capturing = !flags.capture.dir.empty();
  RunnerOptions runner_options = flags.runner;
  runner_options.keep_every_node = flags.check_numerics || capturing;
  std::unique_ptr<ModelRunner> runner;
  RETURN_IF_ERROR(ModelRunner::Create(
      std::move(model.graph_def), runner_options, std::move(feed_pairs), fetches, &runner,
      model.saved_model.has_value() ? &*model.saved_model : nullptr));
  NumericsChecker checker;
  std::unique_ptr<TensorCapture> capture;
  ObserverList observers;
  if (capturing) {
    ASSIGN_OR_RETURN(capture, TensorCapture::Create(flags.capture));
    observers.Add(capture.get());
  }
  if (flags.check_numerics) observers.Add(&checker);
  RunOptions run_options;
  // Checked steps run their nodes one at a time on this thread, so that the first bad
  // value reported is the first in execution order.
  if (flags.check_numerics) run_options.set_inter_op_thread_pool(-1);
  NodeOutputObserver* observer = observers.empty() ? nullptr : &observers;
  for (int64_t step = 0; step < steps; ++step) {
    for (size_t i = 0; i < feeds.size(); ++i) {
      if (!feeds[i].step_values.empty()) runner->SetFeedValue(i, feeds[i].ValueAt(step));
    }
    checker.BeginStep(step);
    if (capture != nullptr) capture->BeginStep(step);
    std::vector<Tensor> outputs;
    const auto start = std::chrono::steady_clock::now();
    const absl::Status ran = runner->Run(run_options, &outputs, nullptr, observer);
    // What was captured up to a failure (a NaN found, say) is kept.
    if (capture != nullptr) {
      const absl::Status finished = ran.ok() ? capture->EndStep() : capture->Finish();
      RETURN_IF_ERROR(ran);
      RETURN_IF_ERROR(finished);
    }
    RETURN_IF_ERROR(ran);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::string which = steps == 1 ? "" : absl::StrCat(" of step ", step);
    std::printf("Outputs%s (%zu), computed on %s in %.3f ms%s:\n", which.c_str(), outputs.size(),
                runner->device_type().c_str(), ms,
                step == 0 ? " (first run, including setup)" : "");
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::fputs(SummarizeOutput(Printable(fetches[i]), outputs[i]).c_str(), stdout);
    }
    if (!flags.labels.empty()) RETURN_IF_ERROR(ReportAccuracy(flags.labels, fetches, outputs));
    if (!flags.save_dir.empty()) {
      RETURN_IF_ERROR(SaveOutputs(StepDir(flags.save_dir, step, steps), outputs));
    }
  }
  if (flags.check_numerics) {
    std::printf("--check-numerics: no NaN or infinity in any node output of %lld step(s)\n",
                static_cast<long long>(steps));
  }
  if (capture != nullptr) {
    RETURN_IF_ERROR(capture->Finish());
    std::printf("Captured %lld values in %s (statistics in %s/index.json)\n",
                static_cast<long long>(capture->recorded()),
                Printable(capture->event_file()).c_str(), Printable(flags.capture.dir).c_str());
  }
  return absl::OkStatus();
}

}  // namespace

int RunCommand(const Args& args) {
  RunFlags flags;
  ArgParser parser(
      "run MODEL [--input NAME=FILE.npy|DIR|random|zeros]... [--output NAME[:i]]... [flags]",
      "Runs a frozen GraphDef (.pb or .pbtxt), or a SavedModel directory (restored and\n"
      "initialised first), and summarises each output: shape, dtype, min/max/mean, the first\n"
      "values and, for 2-D scores, the top-5 classes. Outputs default to a SavedModel\n"
      "signature's outputs, else to the nodes nothing else reads. The Placeholders the outputs\n"
      "need that --input does not name get random values; those the outputs do not need are\n"
      "ignored. One step runs, or one per .npy file of an input folder, or per batch of\n"
      "--step-batch rows.");
  parser.AddPositional("MODEL", "a .pb or .pbtxt GraphDef, or a SavedModel directory",
                       &flags.model);
  parser.AddString("tags", "TAG,TAG...",
                   "a SavedModel's MetaGraphDef by its tag set (default serve)", &flags.tags);
  parser.AddString("signature", "KEY",
                   "a SavedModel's signature whose outputs are the default outputs\n"
                   "(default serving_default)",
                   &flags.saved_model.signature_key);
  parser.AddRepeated("input", "NAME=SPEC",
                     "feed NAME (a Placeholder, or node:i) from FILE.npy, random or zeros, or\n"
                     "from the .npy files of folder DIR in name order, one per step",
                     &flags.feeds.inputs);
  parser.AddRepeated("shape", "NAME=D0,D1,...", "shape of a generated input", &flags.feeds.shapes);
  parser.AddRepeated("output", "NAME[:i]", "fetch this tensor (default: likely outputs)",
                     &flags.outputs);
  parser.AddString("save-outputs", "DIR", "write DIR/out_0.npy, out_1.npy, ... in --output order",
                   &flags.save_dir);
  parser.AddString("labels", "FILE.npy",
                   "integer labels: report the first output's top-1 accuracy against them",
                   &flags.labels);
  parser.AddString("device", "cpu|gpu", "where to run (default cpu)", &flags.runner.device);
  parser.AddInt("threads", "N", "intra-op threads, at most 4096 (default 0: one per core)",
                &flags.runner.threads, 0, kMaxThreads);
  parser.AddInt("inter-op-threads", "N", "inter-op threads, at most 4096 (default 0: one per core)",
                &flags.runner.inter_op_threads, 0, kMaxThreads);
  parser.AddBool("no-thread-spinning", "idle pool threads sleep at once (no spinning)",
                 &flags.runner.no_thread_spinning);
  parser.AddInt("memory-limit-mb", "MB",
                "the most MiB the model's tensors may hold at once (default 0: no limit)",
                &flags.runner.memory_limit_mb, 0, kMaxMemoryLimitMb);
  parser.AddInt("batch", "B", "size of unknown dim 0 of generated inputs (default 1)",
                &flags.feeds.batch);
  parser.AddInt("seed", "S", "seed of generated inputs (default 0)", &flags.seed);
  parser.AddInt("step-batch", "B",
                "cut every input read from files along dim 0 into batches of B rows, one per\n"
                "step (default 0: the files' values whole)",
                &flags.feeds.step_batch, 0, std::numeric_limits<int64_t>::max());
  parser.AddString("capture", "DIR",
                   "record node outputs as they run into a TensorBoard event file in DIR, and\n"
                   "their statistics into DIR/index.json (for sluice board or TensorBoard)",
                   &flags.capture.dir);
  parser.AddString("capture-nodes", "REGEX",
                   "with --capture: only nodes whose name matches (RE2, found anywhere in the\n"
                   "name; default: every node)",
                   &flags.capture.nodes);
  parser.AddInt("capture-every", "N", "with --capture: record steps 0, N, 2N, ... (default 1)",
                &flags.capture.every, 1, std::numeric_limits<int64_t>::max());
  parser.AddBool("check-numerics",
                 "stop at the first node output holding a NaN or an infinity and describe it,\n"
                 "its op, its inputs and the step (nodes then run one at a time)",
                 &flags.check_numerics);
  const int parsed = HandleParseResult("run", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  if (flags.feeds.batch < 1) return ReportUsageError("run", parser, "--batch must be >= 1");
  if (flags.capture.dir.empty() && (!flags.capture.nodes.empty() || flags.capture.every != 1)) {
    return ReportUsageError("run", parser, "--capture-nodes and --capture-every need --capture");
  }
  absl::Status status = Run(flags);
  return status.ok() ? 0 : ReportError("run", status);
}

}  // namespace cli
}  // namespace sluice
