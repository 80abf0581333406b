// sluice convert: binary <-> text GraphDef. The graph is copied as read: no default attrs are
// added and nothing is validated, so a conversion round trip preserves the model exactly.
#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "graph/core/errors.h"
#include "graph/import/graph_def_io.h"
#include "tools/cli/args.h"
#include "tools/cli/commands.h"
#include "tools/cli/model.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

bool IsTextPath(const std::string& path) {
  return absl::EndsWith(path, ".pbtxt") || absl::EndsWith(path, ".txt") ||
         absl::EndsWith(path, ".prototxt");
}

absl::Status Convert(const std::string& in, const std::string& out, const std::string& format) {
  GraphDef graph_def;
  const std::string in_path = UserPath(in);
  const std::string out_path = UserPath(out);
  RETURN_IF_ERROR(ReadGraphDefFile(in_path, &graph_def));
  const bool text = format.empty() ? IsTextPath(out_path) : format == "text";
  RETURN_IF_ERROR(text ? WriteTextProtoFile(out_path, graph_def)
                       : WriteBinaryProtoFile(out_path, graph_def));
  std::printf("Wrote %s (%s GraphDef, %d nodes)\n", Printable(out_path).c_str(),
              text ? "text" : "binary", graph_def.node_size());
  return absl::OkStatus();
}

}  // namespace

int ConvertCommand(const Args& args) {
  std::string in, out, format;
  ArgParser parser("convert MODEL -o OUT [--format text|binary]",
                   "Converts a GraphDef between the binary (.pb) and text (.pbtxt) formats. The\n"
                   "output format follows OUT's extension (.pbtxt, .prototxt, .txt: text) unless\n"
                   "--format says otherwise.");
  parser.AddPositional("MODEL", "a .pb or .pbtxt GraphDef", &in);
  parser.AddString("output", "OUT", "the file to write", &out);
  parser.AddAlias('o', "output");
  parser.AddString("format", "text|binary", "output format (default: from OUT's name)", &format);
  const int parsed = HandleParseResult("convert", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  if (out.empty()) return ReportUsageError("convert", parser, "-o OUT is required");
  if (!format.empty() && format != "text" && format != "binary") {
    return ReportUsageError("convert", parser, "--format must be text or binary");
  }
  absl::Status status = Convert(in, out, format);
  return status.ok() ? 0 : ReportError("convert", status);
}

}  // namespace cli
}  // namespace sluice
