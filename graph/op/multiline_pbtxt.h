// Text-format protos with multi-line strings, as TensorFlow writes its api_def_*.pbtxt files:
//
//   description: <<END
//   Any text, over
//   several lines.
//   END
//
// stands for `description: "Any text, over\nseveral lines."`. The protobuf text parser does not
// know the form, so such text is converted before it is parsed.
#ifndef SLUICE_GRAPH_OP_MULTILINE_PBTXT_H_
#define SLUICE_GRAPH_OP_MULTILINE_PBTXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sluice {

// `text` with each multi-line string written as an ordinary quoted, C-escaped one.
//
// The rules are TensorFlow's, so files it reads convert the same way: a line starts a
// multi-line string when what follows its first colon (after spaces) is "<<"; the rest of the
// line is the terminator. The string is the following lines, joined with newlines, up to the
// first line that begins with the terminator; what follows the terminator on that line is
// kept after the closing quote (a trailing comment). Every other line is copied unchanged.
std::string ExpandMultilineStrings(absl::string_view text);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_MULTILINE_PBTXT_H_
