// How `sluice` subcommands end: help, usage errors and failures, each with its exit status.
//
// Failures print one line to stderr, "sluice CMD: error: CODE: message", and return
// kFailureExitCode (1); usage errors print the message and the short usage and return
// kUsageExitCode (2); --help prints the help to stdout and returns 0. Nothing prints a stack
// trace: every failure is an absl::Status by the time it gets here.
#ifndef SLUICE_TOOLS_CLI_REPORT_H_
#define SLUICE_TOOLS_CLI_REPORT_H_

#include <string>

#include "absl/status/status.h"
#include "tools/cli/args.h"

namespace sluice {
namespace cli {

int ReportError(const std::string& command, const absl::Status& status);

// After ArgParser::Parse: returns the exit status to end with, or -1 when the command should
// go on (parsing succeeded and no help was asked for).
int HandleParseResult(const std::string& command, const ArgParser& parser,
                      const absl::Status& parse_status);

// A usage error found after parsing (conflicting flags, a bad flag value): prints it with the
// short usage; returns kUsageExitCode.
int ReportUsageError(const std::string& command, const ArgParser& parser,
                     const std::string& message);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_REPORT_H_
