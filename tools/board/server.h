// BoardServer: Board (board.h) over HTTP, with cpp-httplib (Debian's libcpp-httplib). Only
// GET is served; each request's decoded path and query go to Board::Handle and its response
// comes back as it is, with headers that keep a browser from running anything but the page's
// own script (Content-Security-Policy), guessing types (nosniff) or caching the API.
//
// When bound to a loopback address, requests whose Host header names another host are refused
// (403): a web page the user visits elsewhere cannot read the log folder through a DNS name
// that resolves to 127.0.0.1 (DNS rebinding). Any port is accepted, so an ssh tunnel
// (-L 8000:localhost:6007) still works.
//
// Serve blocks, handling requests on cpp-httplib's thread pool, until Stop (from another
// thread) or the end of the process.
#ifndef SLUICE_TOOLS_BOARD_SERVER_H_
#define SLUICE_TOOLS_BOARD_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/board/board.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace sluice {
namespace board {

class BoardServer {
 public:
  // `board` must outlive the server.
  explicit BoardServer(Board* board);
  ~BoardServer();

  // Listens on host:port (port 0: one the system picks) and returns the port.
  // UNAVAILABLE when the address cannot be bound (in use, also by another board, or not
  // this machine's).
  absl::StatusOr<int> Bind(const std::string& host, int port);
  // REQUIRES: Bind succeeded.
  absl::Status Serve();
  void Stop();

 private:
  Board* const board_;
  std::unique_ptr<httplib::Server> server_;
  bool loopback_ = false;
};

// Whether `host` is a loopback address or name (127.0.0.0/8, ::1, localhost).
bool IsLoopbackHost(const std::string& host);

// The host part of a Host header ("localhost:6007" -> "localhost", "[::1]:80" -> "::1").
std::string HostOfHeader(const std::string& header);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_SERVER_H_
