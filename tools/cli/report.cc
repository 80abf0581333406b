// Exit paths of the subcommands.
#include "tools/cli/report.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace sluice {
namespace cli {
namespace {

// The length of the UTF-8 sequence at the start of `text` that encodes a code point a
// terminal prints (U+00A0 and above, no overlong form, no surrogate); 0 when there is none.
size_t PrintableUtf8Length(absl::string_view text) {
  const unsigned char lead = static_cast<unsigned char>(text[0]);
  size_t length = 0;
  uint32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    const unsigned char next = static_cast<unsigned char>(text[i]);
    if ((next & 0xC0) != 0x80) return 0;
    code = (code << 6) | (next & 0x3F);
  }
  const uint32_t smallest[] = {0, 0, 0xA0, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return 0;
  }
  return length;
}

}  // namespace

std::string Printable(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if (const size_t length = PrintableUtf8Length(text.substr(i)); length > 0) {
        out.append(text.data() + i, length);
        i += length;
      } else {
        absl::StrAppendFormat(&out, "\\x%02x", c);
        ++i;
      }
      continue;
    }
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          absl::StrAppendFormat(&out, "\\x%02x", c);
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out;
}

std::string PrintableMessage(absl::string_view message) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(message, "\n\t")) lines.push_back(Printable(line));
  return absl::StrJoin(lines, "\n\t");
}

std::string CapLength(absl::string_view text) {
  if (text.size() <= kMaxMessageBytes) return std::string(text);
  return absl::StrCat(text.substr(0, kMaxMessageBytes), " ... (", text.size() - kMaxMessageBytes,
                      " more bytes)");
}

int ReportError(const std::string& command, const absl::Status& status) {
  std::fflush(stdout);
  std::fprintf(stderr, "sluice %s: error: %s: %s\n", command.c_str(),
               absl::StatusCodeToString(status.code()).c_str(),
               PrintableMessage(CapLength(status.message())).c_str());
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
  std::fprintf(stderr, "sluice %s: %s\n%s", command.c_str(), Printable(CapLength(message)).c_str(),
               parser.ShortUsage().c_str());
  return kUsageExitCode;
}

}  // namespace cli
}  // namespace sluice
