// ArgParser: the flags and positional arguments of one `sluice` subcommand.
//
// A subcommand declares what it accepts, binding each flag to a variable it owns, then calls
// Parse once. Accepted forms: `--name value`, `--name=value`, a declared one-letter alias
// (`-o value`), boolean switches (`--json`), repeated flags collected in order, and `--` to end
// flags. `--help`/`-h` anywhere sets help_requested() and skips the other checks.
//
// Errors are INVALID_ARGUMENT naming the offending argument (an unknown flag, a missing value,
// a malformed number, a missing or extra positional argument); callers print them with the
// usage and exit with kUsageExitCode. The parser holds pointers to the bound variables, which
// must outlive it. Not thread-safe (a command line is parsed once, on the main thread).
#ifndef SLUICE_TOOLS_CLI_ARGS_H_
#define SLUICE_TOOLS_CLI_ARGS_H_

#include <cstdint>
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
  void AddInt(const std::string& name, const std::string& value_name, const std::string& help,
              int64_t* value);
  void AddDouble(const std::string& name, const std::string& value_name, const std::string& help,
                 double* value);
  // A switch: present means true.
  void AddBool(const std::string& name, const std::string& help, bool* value);
  // `-c` as another spelling of the flag `name` (declared before or after).
  void AddAlias(char alias, const std::string& name);
  // A required positional argument, filled in declaration order.
  void AddPositional(const std::string& name, const std::string& help, std::string* value);

  absl::Status Parse(const std::vector<std::string>& args);
  bool help_requested() const { return help_requested_; }
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
