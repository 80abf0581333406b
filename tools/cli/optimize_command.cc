// sluice optimize: runs the session's pass pipeline (prune, place, constant folding, CSE,
// simplification) for the model's fetches on one CPU device and writes the result as a
// GraphDef that loads anywhere: placement is dropped again, Placeholders stay inputs. The
// model is loaded as `run` loads it (LoadModel), so what run rejects before a step (a Const
// whose value is not of its dtype, ...) is an error here too, not written out; --dump-dir
// must be writable (an error otherwise, before any pass runs). --emit-mlir DIR also runs the
// fusions a session runs (the remapper, compiled clusters, elementwise fusion: the written
// graph is then the one a session executes) and writes each compiled cluster's MLIR into DIR
// (cluster_mlir.h).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/op_registry.h"
#include "passes/pipeline.h"
#include "runtime/framework/device_type.h"
#include "runtime/session/host_constant_evaluator.h"
#include "runtime/session/runtime_device_support.h"
#include "tools/cli/args.h"
#include "tools/cli/cluster_mlir.h"
#include "tools/cli/commands.h"
#include "tools/cli/model.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

constexpr char kDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";

struct OptimizeFlags {
  std::string model;
  std::string out;
  std::vector<std::string> fetches;
  std::string level = "L1";
  std::string dump_dir;
  std::string emit_mlir;
};

// --dump-dir must be a directory this process can write in: created if missing, then tried
// with a file of its own. (The pipeline only warns when a dump cannot be written, so a wrong
// directory would otherwise pass unnoticed.)
absl::Status CheckDumpDir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::ErrnoToStatus(error.value(),
                               absl::StrCat("--dump-dir: cannot create directory ", dir));
  }
  if (!std::filesystem::is_directory(dir, error)) {
    return errors::InvalidArgument("--dump-dir: ", dir, " is not a directory");
  }
  const std::string probe = absl::StrCat(dir, "/.sluice_dump_check");
  const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("--dump-dir: cannot write in ", dir));
  close(fd);
  unlink(probe.c_str());
  return absl::OkStatus();
}

absl::Status Optimize(const OptimizeFlags& flags) {
  const std::string dump_dir = flags.dump_dir.empty() ? "" : UserPath(flags.dump_dir);
  if (!dump_dir.empty()) RETURN_IF_ERROR(CheckDumpDir(dump_dir));
  Model model;
  RETURN_IF_ERROR(LoadModel(flags.model, &model));
  PipelineOptions opts;
  std::vector<std::string> fetches =
      flags.fetches.empty() ? LikelyOutputs(model.graph_def) : flags.fetches;
  for (const std::string& name : fetches) {
    std::string tensor;
    DataType dtype;
    RETURN_IF_ERROR(errors::PrependToMessage(ResolveOutput(model.graph_def, name, &tensor, &dtype),
                                             "--fetch: "));
    opts.prune.fetches.push_back(tensor);
  }
  if (opts.prune.fetches.empty()) {
    return errors::InvalidArgument("the model has no obvious outputs; name them with --fetch");
  }
  opts.prune.rewrite_feeds_and_fetches = false;
  opts.optimizer_options.set_opt_level(flags.level == "L0" ? OptimizerOptions::L0
                                                           : OptimizerOptions::L1);
  opts.placer.devices.push_back({kDevice, DEVICE_CPU});
  opts.placer.device_support = MakeDeviceSupport({DeviceType(DEVICE_CPU)});
  opts.placer.allow_soft_placement = true;
  opts.placer.default_device = kDevice;
  HostConstantEvaluator evaluator;
  opts.constant_evaluator = &evaluator;
  opts.partition.get_incarnation = [](const std::string&) -> uint64_t { return 1; };
  SetMemoryTypeCallbacks(&opts.partition);
  opts.dump_dir = dump_dir;
  if (!flags.emit_mlir.empty()) opts.kernel_exists = MakeKernelExists();

  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  GraphConstructorOptions graph_options;
  graph_options.allow_internal_ops = true;
  RETURN_IF_ERROR(ConvertGraphDefToGraph(graph_options, model.graph_def, graph.get()));
  PipelineResult result;
  absl::Status status = RunPipeline(opts, std::move(graph), &result);
  std::fputs(FormatPassStats(result.stats).c_str(), stdout);
  RETURN_IF_ERROR(status);
  const GraphDef* partition = result.partitions.Find(kDevice);
  if (partition == nullptr) {
    return errors::Internal("the pipeline produced no graph for ", kDevice);
  }
  GraphDef optimized = *partition;
  for (NodeDef& node : *optimized.mutable_node()) {
    if (node.device() == kDevice) node.clear_device();
  }
  *optimized.mutable_versions() = model.graph_def.versions();
  *optimized.mutable_library() = model.graph_def.library();
  const std::string out = UserPath(flags.out);
  const bool text = absl::EndsWith(out, ".pbtxt") || absl::EndsWith(out, ".txt");
  RETURN_IF_ERROR(text ? WriteTextProtoFile(out, optimized) : WriteBinaryProtoFile(out, optimized));
  std::printf("Wrote %s: %d nodes (the input had %d)\n", Printable(out).c_str(),
              optimized.node_size(), model.graph_def.node_size());
  if (!flags.emit_mlir.empty()) {
    const std::string dir = UserPath(flags.emit_mlir);
    int clusters = 0;
    RETURN_IF_ERROR(EmitClusterMlir(optimized, dir, &clusters));
    std::printf("Wrote the MLIR of %d compiled cluster(s) into %s\n", clusters,
                Printable(dir).c_str());
  }
  return absl::OkStatus();
}

}  // namespace

int OptimizeCommand(const Args& args) {
  OptimizeFlags flags;
  ArgParser parser(
      "optimize MODEL -o OUT [--fetch NAME]... [--level L0|L1] [--dump-dir DIR] [--emit-mlir DIR]",
      "Runs Sluice's graph pipeline (prune, place, constant folding, CSE, simplify) for the\n"
      "fetched tensors and writes the optimized GraphDef (text if OUT ends in .pbtxt), with\n"
      "per-pass statistics: nodes before and after, and time.");
  parser.AddPositional("MODEL", "a .pb or .pbtxt GraphDef", &flags.model);
  parser.AddString("output", "OUT", "the file to write", &flags.out);
  parser.AddAlias('o', "output");
  parser.AddRepeated("fetch", "NAME[:i]", "a tensor to keep (default: likely outputs)",
                     &flags.fetches);
  parser.AddString("level", "L0|L1", "L1 (default) folds, merges and simplifies; L0 only prunes",
                   &flags.level);
  parser.AddString("dump-dir", "DIR",
                   "write the graph after each pass into DIR (created; an error if not writable)",
                   &flags.dump_dir);
  parser.AddString("emit-mlir", "DIR",
                   "also run the session's fusions and write each compiled cluster's MLIR, "
                   "before and after lowering, into DIR",
                   &flags.emit_mlir);
  const int parsed = HandleParseResult("optimize", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  if (flags.out.empty()) return ReportUsageError("optimize", parser, "-o OUT is required");
  if (flags.level != "L0" && flags.level != "L1") {
    return ReportUsageError("optimize", parser, "--level must be L0 or L1");
  }
  absl::Status status = Optimize(flags);
  return status.ok() ? 0 : ReportError("optimize", status);
}

}  // namespace cli
}  // namespace sluice
