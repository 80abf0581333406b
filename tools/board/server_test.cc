#include "tools/board/server.h"

#include <httplib.h>

#include <filesystem>
#include <memory>
#include <thread>

#include "gtest/gtest.h"
#include "io/event_writer.h"

namespace sluice {
namespace board {
namespace {

namespace fs = std::filesystem;

TEST(ServerTest, HostHeaders) {
  EXPECT_EQ(HostOfHeader("localhost:6007"), "localhost");
  EXPECT_EQ(HostOfHeader("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(HostOfHeader("[::1]:80"), "::1");
  EXPECT_TRUE(IsLoopbackHost("LocalHost"));
  EXPECT_TRUE(IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackHost("::1"));
  EXPECT_FALSE(IsLoopbackHost("evil.example"));
  EXPECT_FALSE(IsLoopbackHost("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackHost(""));
}

TEST(ServerTest, ServesTheBoardOverHttp) {
  const fs::path logdir = fs::path(testing::TempDir()) / "server_logs";
  fs::remove_all(logdir);
  absl::StatusOr<std::unique_ptr<EventWriter>> writer = EventWriter::Create(logdir.string());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  absl::StatusOr<std::unique_ptr<Board>> board = Board::Open(logdir.string());
  ASSERT_TRUE(board.ok());

  BoardServer server(board->get());
  absl::StatusOr<int> port = server.Bind("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  absl::Status served;
  std::thread serving([&] { served = server.Serve(); });

  httplib::Client client("127.0.0.1", *port);
  httplib::Result runs = client.Get("/api/runs");
  ASSERT_TRUE(runs);
  EXPECT_EQ(runs->status, 200);
  EXPECT_EQ(runs->body, "{\"runs\":[{\"name\":\".\",\"event_files\":1}]}\n");
  EXPECT_EQ(runs->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(runs->get_header_value("X-Content-Type-Options"), "nosniff");
  EXPECT_NE(runs->get_header_value("Content-Security-Policy").find("connect-src 'self'"),
            std::string::npos);

  httplib::Result escape = client.Get("/api/tags?run=..%2F..%2Fetc");
  ASSERT_TRUE(escape);
  EXPECT_EQ(escape->status, 404);
  EXPECT_EQ(escape->body, "{\"error\":\"no run '../../etc' in the log folder\"}\n");

  // DNS rebinding: a page served by another name reaches the loopback address.
  httplib::Result rebound = client.Get("/api/runs", {{"Host", "evil.example:6007"}});
  ASSERT_TRUE(rebound);
  EXPECT_EQ(rebound->status, 403);

  // Taken ports are a clear error.
  BoardServer second(board->get());
  absl::StatusOr<int> taken = second.Bind("127.0.0.1", *port);
  EXPECT_EQ(taken.status().code(), absl::StatusCode::kUnavailable);

  server.Stop();
  serving.join();
  EXPECT_TRUE(served.ok()) << served;
}

}  // namespace
}  // namespace board
}  // namespace sluice
