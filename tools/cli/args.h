// ArgParser: the flags and positional arguments of one `sluice` subcommand.
//
// A subcommand declares what it accepts, binding each flag to a variable it owns, then calls
// Parse once. Accepted forms: `--name value`, `--name=value`, a declared one-letter alias
// (`-o value`), boolean switches (`--json`), repeated flags collected in order, and `--` to end
// flags. `--help`/`-h` anywhere sets help_requested() and skips the other checks.
//
// Integers are parsed strictly: an optional '-' and decimal digits, nothing else (no spaces,
// no '+', no hex), and a value outside int64 is an error, never wrapped or truncated. Numbers
// (AddDouble) must be finite: "inf", "nan" and values that overflow a double are rejected.
// Each numeric flag has an inclusive range, checked as it is parsed, so a command never sees
// a value outside it (nor mistakes one for its own "not given" marker).
//
// Errors are INVALID_ARGUMENT naming the offending argument (an unknown flag, a missing value,
// a malformed number, a number outside the flag's range, a missing or extra positional
// argument); callers print them with the usage and exit with kUsageExitCode. The parser holds
// pointers to the bound variables, which must outlive it. Not thread-safe (a command line is parsed
// once, on the main thread).
#ifndef SLUICE_TOOLS_CLI_ARGS_H_
#define SLUICE_TOOLS_CLI_ARGS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace sluice {
namespace cli {

class ArgParser {
 public:
  // `usage` is the synopsis after "sluice " ("run MODEL [flags]"); `summary` a sentence or two.
  ArgParser(std::string usage, std::string summary);

  // Flags with a value. `value_name` appears in the help ("--runs N").
  void AddString(const std::string& name, const std::string& value_name, const std::string& help,
                 std::string* value);
  void AddRepeated(const std::string& name, const std::string& value_name, const std::string& help,
                   std::vector<std::string>* values);
  // A value outside [min, max] is an error ("--runs must be between 1 and 10000000, got 0").
  void AddInt(const std::string& name, const std::string& value_name, const std::string& help,
              int64_t* value, int64_t min = std::numeric_limits<int64_t>::min(),
              int64_t max = std::numeric_limits<int64_t>::max());
  void AddDouble(const std::string& name, const std::string& value_name, const std::string& help,
                 double* value, double min = std::numeric_limits<double>::lowest(),
                 double max = std::numeric_limits<double>::max());
  // A switch: present means true.
  void AddBool(const std::string& name, const std::string& help, bool* value);
  // `-c` as another spelling of the flag `name` (declared before or after).
  void AddAlias(char alias, const std::string& name);
  // A required positional argument, filled in declaration order.
  void AddPositional(const std::string& name, const std::string& help, std::string* value);

  absl::Status Parse(const std::vector<std::string>& args);
  bool help_requested() const { return help_requested_; }
  // Whether the flag `name` appeared on the command line (after a successful Parse).
  bool IsSet(const std::string& name) const;
  // The full help text: usage line, summary, arguments, flags.
  std::string Help() const;
  // "usage: sluice run MODEL [flags]" and a pointer to --help.
  std::string ShortUsage() const;

 private:
  enum class Kind { kString, kRepeated, kInt, kDouble, kBool };
  struct Flag {
    std::string name;
    std::string value_name;
    std::string help;
    Kind kind;
    void* value;
    char alias = 0;
    // Inclusive bounds of kInt and kDouble flags.
    int64_t int_min = 0, int_max = 0;
    double double_min = 0, double_max = 0;
    bool set = false;
  };
  struct Positional {
    std::string name;
    std::string help;
    std::string* value;
  };

  Flag* FindFlag(const std::string& name);
  Flag* FindAlias(char alias);
  absl::Status SetValue(Flag& flag, const std::string& text);

  std::string usage_;
  std::string summary_;
  std::vector<Flag> flags_;
  std::vector<Positional> positionals_;
  bool help_requested_ = false;
};

// Exit status for command-line mistakes (as getopt-based tools use); 1 is for failures.
inline constexpr int kUsageExitCode = 2;
inline constexpr int kFailureExitCode = 1;
// `sluice inspect` described a graph that cannot run in this build (ops it does not register).
inline constexpr int kCannotRunExitCode = 3;

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_ARGS_H_
