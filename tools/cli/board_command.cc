// sluice board: serves the event files of a log folder over HTTP with one web page to look at
// them (tools/board/board.h has the API, tools/board/page.html the page).
#include <cstdio>
#include <memory>
#include <string>

#include "graph/core/errors.h"
#include "tools/board/board.h"
#include "tools/board/server.h"
#include "tools/cli/args.h"
#include "tools/cli/commands.h"
#include "tools/cli/model.h"
#include "tools/cli/report.h"

namespace sluice {
namespace cli {
namespace {

absl::Status Serve(const std::string& logdir, const std::string& host, int port) {
  ASSIGN_OR_RETURN(std::unique_ptr<board::Board> board, board::Board::Open(UserPath(logdir)));
  board::BoardServer server(board.get());
  ASSIGN_OR_RETURN(int bound, server.Bind(host, port));
  const bool ipv6 = host.find(':') != std::string::npos;
  std::printf("Serving %s at http://%s%s%s:%d/ (Ctrl-C stops)\n", Printable(logdir).c_str(),
              ipv6 ? "[" : "", Printable(host).c_str(), ipv6 ? "]" : "", bound);
  // Whoever started the board (a person, a script waiting for the URL) sees it at once.
  std::fflush(stdout);
  return server.Serve();
}

}  // namespace

int BoardCommand(const Args& args) {
  std::string logdir;
  std::string host = "127.0.0.1";
  int64_t port = 6007;
  ArgParser parser(
      "board --logdir DIR [--port N] [--host ADDRESS]",
      "Serves the event files under DIR (every folder holding events.out.tfevents.* files\n"
      "is a run: `sluice run --capture`'s captures, summaries written by Sluice or\n"
      "TensorFlow) with one web page: the runs and their tags, scalar charts, histograms of\n"
      "every step, a table of any 2-D slice of a captured tensor and its statistics. Files\n"
      "are read again as they grow. Only files under DIR are served. Ctrl-C stops it.");
  parser.AddString("logdir", "DIR", "the log folder (required)", &logdir);
  parser.AddInt("port", "N", "the port to listen on, 0 for any free one (default 6007)", &port, 0,
                65535);
  parser.AddString("host", "ADDRESS",
                   "the address to listen on (default 127.0.0.1: this machine only)", &host);
  const int parsed = HandleParseResult("board", parser, parser.Parse(args));
  if (parsed >= 0) return parsed;
  if (logdir.empty()) return ReportUsageError("board", parser, "--logdir DIR is required");
  absl::Status status = Serve(logdir, host, static_cast<int>(port));
  return status.ok() ? 0 : ReportError("board", status);
}

}  // namespace cli
}  // namespace sluice
