// How `sluice` subcommands end: help, usage errors and failures, each with its exit status.
//
// Failures print one line to stderr, "sluice CMD: error: CODE: message", and return
// kFailureExitCode (1); usage errors print the message and the short usage and return
// kUsageExitCode (2); --help prints the help to stdout and returns 0. Nothing prints a stack
// trace: every failure is an absl::Status by the time it gets here.
//
// What reaches the terminal is made safe first: messages (which quote file names, node names
// and flag values as the user gave them) go through PrintableMessage, so a newline or an
// escape sequence in a name prints as "\n" or "\x1b" instead of acting on the terminal, and a
// message longer than kMaxMessageBytes is cut there, saying how much was left out. An error
// is one line but for the node context TensorFlow-style errors end with ("\n\t [[node]]"). The
// commands pass user-supplied names they print themselves through Printable too.
#ifndef SLUICE_TOOLS_CLI_REPORT_H_
#define SLUICE_TOOLS_CLI_REPORT_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "tools/cli/args.h"

namespace sluice {
namespace cli {

// The longest error message printed whole (in bytes, before escaping).
inline constexpr size_t kMaxMessageBytes = 4096;

// `text` with what a terminal would act on escaped, C-style: control characters (\n, \t, \r,
// \x1b, ...), DEL, the C1 controls U+0080-U+009F and bytes that are not UTF-8 become \n,
// \t, \r or \xNN, and a backslash becomes "\\"; printable ASCII and other UTF-8 stay.
std::string Printable(absl::string_view text);

// Printable, but for the "\n\t" that starts each line of node context a session's errors end
// with ("...\n\t [[{{node c}}]]"), which stays.
std::string PrintableMessage(absl::string_view message);

// `text` cut to kMaxMessageBytes with " ... (N more bytes)" when longer.
std::string CapLength(absl::string_view text);

int ReportError(const std::string& command, const absl::Status& status);

// After ArgParser::Parse: returns the exit status to end with, or -1 when the command should
// go on (parsing succeeded and no help was asked for).
int HandleParseResult(const std::string& command, const ArgParser& parser,
                      const absl::Status& parse_status);

// A usage error found after parsing (conflicting flags, a bad flag value): prints it (made
// Printable) with the short usage; returns kUsageExitCode.
int ReportUsageError(const std::string& command, const ArgParser& parser,
                     const std::string& message);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_REPORT_H_
