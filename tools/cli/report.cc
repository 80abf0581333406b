// Exit paths of the subcommands.
#include "tools/cli/report.h"

#include <cstdio>

namespace sluice {
namespace cli {

int ReportError(const std::string& command, const absl::Status& status) {
  std::fflush(stdout);
  std::fprintf(stderr, "sluice %s: error: %s\n", command.c_str(), status.ToString().c_str());
  return kFailureExitCode;
}

int HandleParseResult(const std::string& command, const ArgParser& parser,
                      const absl::Status& parse_status) {
  if (parser.help_requested()) {
    std::fputs(parser.Help().c_str(), stdout);
    return 0;
  }
  if (!parse_status.ok()) {
    return ReportUsageError(command, parser, std::string(parse_status.message()));
  }
  return -1;
}

int ReportUsageError(const std::string& command, const ArgParser& parser,
                     const std::string& message) {
  std::fprintf(stderr, "sluice %s: %s\n%s", command.c_str(), message.c_str(),
               parser.ShortUsage().c_str());
  return kUsageExitCode;
}

}  // namespace cli
}  // namespace sluice
