// Parsing is one left-to-right pass: each argument is "--", a flag (long, `=`-joined, or a
// one-letter alias), or the next positional.
#include "tools/cli/args.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"

namespace sluice {
namespace cli {
namespace {

// An optional '-' and at least one decimal digit; SimpleAtoi alone would also take
// surrounding spaces and a '+'.
bool IsDecimalInteger(absl::string_view text) {
  if (absl::ConsumePrefix(&text, "-") && text.empty()) return false;
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

ArgParser::ArgParser(std::string usage, std::string summary)
    : usage_(std::move(usage)), summary_(std::move(summary)) {}

void ArgParser::AddString(const std::string& name, const std::string& value_name,
                          const std::string& help, std::string* value) {
  flags_.push_back({name, value_name, help, Kind::kString, value});
}

void ArgParser::AddRepeated(const std::string& name, const std::string& value_name,
                            const std::string& help, std::vector<std::string>* values) {
  flags_.push_back({name, value_name, help, Kind::kRepeated, values});
}

void ArgParser::AddInt(const std::string& name, const std::string& value_name,
                       const std::string& help, int64_t* value, int64_t min, int64_t max) {
  Flag flag{name, value_name, help, Kind::kInt, value};
  flag.int_min = min;
  flag.int_max = max;
  flags_.push_back(std::move(flag));
}

void ArgParser::AddDouble(const std::string& name, const std::string& value_name,
                          const std::string& help, double* value, double min, double max) {
  Flag flag{name, value_name, help, Kind::kDouble, value};
  flag.double_min = min;
  flag.double_max = max;
  flags_.push_back(std::move(flag));
}

void ArgParser::AddBool(const std::string& name, const std::string& help, bool* value) {
  flags_.push_back({name, "", help, Kind::kBool, value});
}

void ArgParser::AddAlias(char alias, const std::string& name) {
  Flag* flag = FindFlag(name);
  if (flag != nullptr) flag->alias = alias;
}

void ArgParser::AddPositional(const std::string& name, const std::string& help,
                              std::string* value) {
  positionals_.push_back({name, help, value});
}

ArgParser::Flag* ArgParser::FindFlag(const std::string& name) {
  for (Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

bool ArgParser::IsSet(const std::string& name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return flag.set;
  }
  return false;
}

ArgParser::Flag* ArgParser::FindAlias(char alias) {
  for (Flag& flag : flags_) {
    if (flag.alias == alias) return &flag;
  }
  return nullptr;
}

absl::Status ArgParser::SetValue(Flag& flag, const std::string& text) {
  switch (flag.kind) {
    case Kind::kString:
      *static_cast<std::string*>(flag.value) = text;
      return absl::OkStatus();
    case Kind::kRepeated:
      static_cast<std::vector<std::string>*>(flag.value)->push_back(text);
      return absl::OkStatus();
    case Kind::kInt: {
      int64_t number = 0;
      if (!IsDecimalInteger(text)) {
        return errors::InvalidArgument("--", flag.name, " expects an integer, got '", text, "'");
      }
      if (!absl::SimpleAtoi(text, &number) || number < flag.int_min || number > flag.int_max) {
        return errors::InvalidArgument("--", flag.name, " must be between ", flag.int_min, " and ",
                                       flag.int_max, ", got ", text);
      }
      *static_cast<int64_t*>(flag.value) = number;
      return absl::OkStatus();
    }
    case Kind::kDouble: {
      double number = 0;
      if (!absl::SimpleAtod(text, &number) || !std::isfinite(number) ||
          absl::StripAsciiWhitespace(text) != text) {
        return errors::InvalidArgument("--", flag.name, " expects a finite number, got '", text,
                                       "'");
      }
      if (number < flag.double_min || number > flag.double_max) {
        return errors::InvalidArgument("--", flag.name, " must be between ", flag.double_min,
                                       " and ", flag.double_max, ", got ", text);
      }
      *static_cast<double*>(flag.value) = number;
      return absl::OkStatus();
    }
    case Kind::kBool:
      break;
  }
  return errors::InvalidArgument("--", flag.name, " takes no value");
}

absl::Status ArgParser::Parse(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--help") != args.end() ||
      std::find(args.begin(), args.end(), "-h") != args.end()) {
    help_requested_ = true;
    return absl::OkStatus();
  }
  size_t next_positional = 0;
  bool flags_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool is_flag = !flags_ended && arg.size() > 1 && arg[0] == '-';
    if (!is_flag) {
      if (next_positional == positionals_.size()) {
        return errors::InvalidArgument("unexpected argument '", arg, "'");
      }
      *positionals_[next_positional++].value = arg;
      continue;
    }
    if (arg == "--") {
      flags_ended = true;
      continue;
    }
    Flag* flag = nullptr;
    std::string value;
    bool has_value = false;
    if (arg[1] == '-') {
      std::string name = arg.substr(2);
      if (size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
        has_value = true;
      }
      flag = FindFlag(name);
    } else if (arg.size() == 2) {
      flag = FindAlias(arg[1]);
    }
    if (flag == nullptr) return errors::InvalidArgument("unknown flag '", arg, "'");
    if (flag->kind == Kind::kBool) {
      if (has_value) return errors::InvalidArgument("--", flag->name, " takes no value");
      *static_cast<bool*>(flag->value) = true;
      flag->set = true;
      continue;
    }
    if (!has_value) {
      if (i + 1 == args.size()) {
        return errors::InvalidArgument("--", flag->name, " needs a value (", flag->value_name, ")");
      }
      value = args[++i];
    }
    RETURN_IF_ERROR(SetValue(*flag, value));
    flag->set = true;
  }
  if (next_positional < positionals_.size()) {
    return errors::InvalidArgument("missing argument ", positionals_[next_positional].name);
  }
  return absl::OkStatus();
}

std::string ArgParser::Help() const {
  std::string text = absl::StrCat("usage: sluice ", usage_, "\n\n", summary_, "\n");
  if (!positionals_.empty()) absl::StrAppend(&text, "\narguments:\n");
  for (const Positional& positional : positionals_) {
    absl::StrAppend(&text, absl::StrFormat("  %-24s %s\n", positional.name, positional.help));
  }
  absl::StrAppend(&text, "\nflags:\n");
  for (const Flag& flag : flags_) {
    std::string spelling =
        flag.alias != 0 ? absl::StrCat("-", std::string(1, flag.alias), ", ") : std::string();
    absl::StrAppend(&spelling, "--", flag.name);
    if (!flag.value_name.empty()) absl::StrAppend(&spelling, " ", flag.value_name);
    std::string help = flag.help;
    if (flag.kind == Kind::kRepeated) absl::StrAppend(&help, " (repeatable)");
    absl::StrAppend(&text, absl::StrFormat("  %-24s %s\n", spelling, help));
  }
  absl::StrAppend(&text, absl::StrFormat("  %-24s %s\n", "-h, --help", "show this help"));
  return text;
}

std::string ArgParser::ShortUsage() const {
  return absl::StrCat("usage: sluice ", usage_, "\n(sluice ", usage_.substr(0, usage_.find(' ')),
                      " --help for details)\n");
}

}  // namespace cli
}  // namespace sluice
