// The subcommands of the `sluice` tool, each a main() over the arguments after its name.
// Each returns the process exit status: 0, kFailureExitCode or kUsageExitCode (args.h).
#ifndef SLUICE_TOOLS_CLI_COMMANDS_H_
#define SLUICE_TOOLS_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace sluice {
namespace cli {

using Args = std::vector<std::string>;

int RunCommand(const Args& args);        // run_command.cc
int InspectCommand(const Args& args);    // inspect_command.cc
int OptimizeCommand(const Args& args);   // optimize_command.cc
int ConvertCommand(const Args& args);    // convert_command.cc
int BenchmarkCommand(const Args& args);  // benchmark_command.cc
int OpsCommand(const Args& args);        // ops_command.cc
int BoardCommand(const Args& args);      // board_command.cc

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_COMMANDS_H_
