// sluice: the command line for frozen TensorFlow models.
//
//   sluice run MODEL [--input NAME=FILE.npy]... [--output NAME]...   run one step
//   sluice inspect MODEL [--json]                                    what the model holds
//   sluice optimize MODEL -o OUT                                     run the graph passes
//   sluice convert MODEL -o OUT                                      binary <-> text GraphDef
//   sluice benchmark MODEL [--runs N] [--profile]                    latency and throughput
//   sluice ops [--op NAME]                                           ops and kernels
//   sluice board --logdir DIR [--port N]                             look at event files
//
// `sluice COMMAND --help` describes each. Exit status: 0 on success, 1 when the command
// fails (the reason goes to stderr), 2 on a usage error, 3 when `inspect` described a graph
// that cannot run in this build (ops not registered). The program first sets
// GOMP_SPINCOUNT=10000 and asks malloc for transparent huge pages (GLIBC_TUNABLES) where the
// user set neither, and executes itself again (tools/cli/startup_environment.h says why).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/cli/args.h"
#include "tools/cli/commands.h"
#include "tools/cli/startup_environment.h"

namespace {

struct Command {
  const char* name;
  int (*main)(const sluice::cli::Args&);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"run", sluice::cli::RunCommand, "run a model once and summarise its outputs"},
    {"inspect", sluice::cli::InspectCommand, "describe a model's inputs, outputs, ops, kernels"},
    {"optimize", sluice::cli::OptimizeCommand, "run the graph passes and write the result"},
    {"convert", sluice::cli::ConvertCommand, "convert between binary and text GraphDefs"},
    {"benchmark", sluice::cli::BenchmarkCommand, "measure latency, throughput and memory"},
    {"ops", sluice::cli::OpsCommand, "list registered ops and kernels, or show one OpDef"},
    {"board", sluice::cli::BoardCommand, "serve a log folder's event files with a web page"},
};

void PrintUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: sluice COMMAND [ARGS]\n\nRuns, inspects and benchmarks frozen "
               "TensorFlow GraphDefs (.pb, .pbtxt).\n\ncommands:\n");
  for (const Command& command : kCommands) {
    std::fprintf(out, "  %-10s %s\n", command.name, command.summary);
  }
  std::fprintf(out, "\nsluice COMMAND --help describes a command's arguments.\n");
}

}  // namespace

int main(int argc, char** argv) {
  sluice::cli::ApplyStartupEnvironment(argv);
  if (argc < 2) {
    PrintUsage(stderr);
    return sluice::cli::kUsageExitCode;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    if (name == "help" && argc > 2) {
      for (const Command& command : kCommands) {
        if (argv[2] == std::string(command.name)) return command.main({"--help"});
      }
    }
    PrintUsage(stdout);
    return 0;
  }
  for (const Command& command : kCommands) {
    if (name == command.name) return command.main(sluice::cli::Args(argv + 2, argv + argc));
  }
  std::fprintf(stderr, "sluice: unknown command '%s'\n\n", name.c_str());
  PrintUsage(stderr);
  return sluice::cli::kUsageExitCode;
}
