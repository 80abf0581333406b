// JsonWriter: builds one JSON document for the `--json` output of the subcommands.
//
// Calls nest as the document does: BeginObject/EndObject, BeginArray/EndArray, Key before each
// member of an object, and the value calls. Commas and string escaping are handled here; the
// caller keeps the nesting balanced (unbalanced use is a programming error, not checked).
// Non-finite doubles become null, as JSON has no NaN or infinity. Not thread-safe.
#ifndef SLUICE_TOOLS_CLI_JSON_WRITER_H_
#define SLUICE_TOOLS_CLI_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace sluice {
namespace cli {

class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(absl::string_view key);
  JsonWriter& String(absl::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& StringArray(const std::vector<std::string>& values);
  // A value already written as JSON (a number in a format of the caller's choosing, a string
  // the caller escaped), placed as it is.
  JsonWriter& Raw(absl::string_view json);

  // The document so far, with a trailing newline once complete.
  std::string str() const { return out_ + (depth_.empty() ? "\n" : ""); }

 private:
  // Writes the separating comma when a value follows another at the same level.
  void BeforeValue();

  std::string out_;
  // Per open container: whether it holds a value yet.
  std::vector<bool> depth_;
  bool after_key_ = false;
};

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_JSON_WRITER_H_
