#include "tools/board/server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {
namespace board {
namespace {

// The page's script and styles are inline; it fetches only from its own origin and shows
// images from it (and its empty data: icon, which spares a request for /favicon.ico).
constexpr char kContentSecurityPolicy[] =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'";

}  // namespace

bool IsLoopbackHost(const std::string& host) {
  const std::string lower = absl::AsciiStrToLower(host);
  return lower == "localhost" || lower == "::1" || absl::StartsWith(lower, "127.");
}

std::string HostOfHeader(const std::string& header) {
  if (absl::StartsWith(header, "[")) {
    const size_t close = header.find(']');
    return close == std::string::npos ? header : header.substr(1, close - 1);
  }
  return header.substr(0, header.find(':'));
}

BoardServer::BoardServer(Board* board) : board_(board), server_(new httplib::Server()) {
  // cpp-httplib sets SO_REUSEPORT, which lets a second server bind the same port and share
  // its requests; SO_REUSEADDR alone still allows a restart while old connections linger.
  server_->set_socket_options([](socket_t socket) {
    int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server_->Get(".*", [this](const httplib::Request& request, httplib::Response& response) {
    response.set_header("Content-Security-Policy", kContentSecurityPolicy);
    response.set_header("X-Content-Type-Options", "nosniff");
    response.set_header("Referrer-Policy", "no-referrer");
    response.set_header("Cache-Control", "no-store");
    if (loopback_ && !IsLoopbackHost(HostOfHeader(request.get_header_value("Host")))) {
      response.status = 403;
      response.set_content("{\"error\":\"this board answers only requests for localhost\"}\n",
                           "application/json");
      return;
    }
    Query query;
    // A repeated parameter counts once, as it first appears.
    for (const auto& [key, value] : request.params) query.emplace(key, value);
    Response answer = board_->Handle(request.path, query);
    response.status = answer.status;
    response.set_content(answer.body, answer.content_type);
  });
}

BoardServer::~BoardServer() = default;

absl::StatusOr<int> BoardServer::Bind(const std::string& host, int port) {
  loopback_ = IsLoopbackHost(host);
  const int bound = port == 0 ? server_->bind_to_any_port(host.c_str())
                              : (server_->bind_to_port(host.c_str(), port) ? port : -1);
  if (bound < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", host, ":", port,
                     " (the port is in use, or the host is not an address of this machine)"));
  }
  return bound;
}

absl::Status BoardServer::Serve() {
  if (!server_->listen_after_bind()) return absl::InternalError("the HTTP server stopped");
  return absl::OkStatus();
}

void BoardServer::Stop() { server_->stop(); }

}  // namespace board
}  // namespace sluice
