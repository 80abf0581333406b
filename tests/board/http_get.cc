// A minimal HTTP client for tests/board (cpp-httplib's): sends one GET with the path exactly
// as given (no encoding, so "/../x" and "%2F" reach the server as written) and prints
//   STATUS CONTENT-TYPE
//   BODY
// Exit status 0 when a response came (whatever its status), 1 when none did.
//
//   http_get PORT PATH [HOST_HEADER]
#include <httplib.h>

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: " << argv[0] << " PORT PATH [HOST_HEADER]\n";
    return 2;
  }
  httplib::Client client("127.0.0.1", std::atoi(argv[1]));
  client.set_url_encode(false);
  httplib::Headers headers;
  if (argc == 4) headers.emplace("Host", argv[3]);
  httplib::Result result = client.Get(argv[2], headers);
  if (!result) {
    std::cerr << "http_get: no response: " << httplib::to_string(result.error()) << "\n";
    return 1;
  }
  std::cout << result->status << " " << result->get_header_value("Content-Type") << "\n"
            << result->body;
  return 0;
}
