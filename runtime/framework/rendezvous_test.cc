#include "runtime/framework/rendezvous.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "runtime/framework/local_rendezvous.h"

namespace sluice {
namespace {

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

Rendezvous::ParsedKey Key(const std::string& name, const std::string& frame_iter = "0:0") {
  Rendezvous::ParsedKey key;
  absl::Status status =
      Rendezvous::ParseKey(Rendezvous::CreateKey(kCpu0, 0xab, kCpu1, name, frame_iter), &key);
  EXPECT_TRUE(status.ok()) << status;
  return key;
}

TEST(RendezvousKeyTest, Format) {
  const std::string key = Rendezvous::CreateKey(kCpu0, 0xab, kCpu1, "edge_5_a", "0:0");
  EXPECT_EQ(key, absl::StrCat(kCpu0, ";00000000000000ab;", kCpu1, ";edge_5_a;0:0"));
  EXPECT_EQ(Rendezvous::CreateKey(kCpu0, ~uint64_t{0}, kCpu1, "x", "2:3"),
            absl::StrCat(kCpu0, ";ffffffffffffffff;", kCpu1, ";x;2:3"));
}

TEST(RendezvousKeyTest, ParseRoundTrip) {
  Rendezvous::ParsedKey key;
  const std::string text = Rendezvous::CreateKey(kCpu0, 0x1234abcd5678ef90, kCpu1, "t", "1:7");
  ASSERT_TRUE(Rendezvous::ParseKey(text, &key).ok());
  EXPECT_EQ(key.full_key, text);
  EXPECT_EQ(key.src_device, kCpu0);
  EXPECT_EQ(key.src_incarnation, 0x1234abcd5678ef90u);
  EXPECT_EQ(key.dst_device, kCpu1);
  EXPECT_EQ(key.edge_name, "t");
  EXPECT_EQ(key.frame_iter, "1:7");
}

TEST(RendezvousKeyTest, ParseErrors) {
  const std::string src = kCpu0;
  const std::string dst = kCpu1;
  const std::vector<std::string> bad = {
      "",
      "a;b",
      src + ";01;" + dst + ";t",                     // four parts
      src + ";01;" + dst + ";t;0:0;extra",           // six parts
      src + ";xyz;" + dst + ";t;0:0",                // not hex
      src + ";0x1;" + dst + ";t;0:0",                // prefix
      src + ";;" + dst + ";t;0:0",                   // empty incarnation
      src + ";00000000000000001;" + dst + ";t;0:0",  // 17 digits
      src + ";01;" + dst + ";;0:0",                  // empty name
      src + ";01;" + dst + ";t;",                    // empty frame
      "not a device;01;" + dst + ";t;0:0",
      src + ";01;/job:a/bogus:1;t;0:0",
  };
  for (const std::string& key : bad) {
    Rendezvous::ParsedKey parsed;
    absl::Status status = Rendezvous::ParseKey(key, &parsed);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << key;
    EXPECT_EQ(status.message(), "Invalid rendezvous key: " + key);
  }
}

Tensor FloatScalar(float value) { return Tensor(value); }

TEST(LocalRendezvousTest, SendThenRecv) {
  LocalRendezvous rendezvous;
  Tensor sent = FloatScalar(3.5f);
  ASSERT_TRUE(rendezvous.Send(Key("a"), sent, /*is_dead=*/false).ok());
  Tensor received;
  bool is_dead = true;
  ASSERT_TRUE(rendezvous.Recv(Key("a"), &received, &is_dead).ok());
  EXPECT_FALSE(is_dead);
  EXPECT_EQ(received.flat<float>()(0), 3.5f);
  EXPECT_TRUE(received.SharesBufferWith(sent));
}

TEST(LocalRendezvousTest, RecvThenSendRunsOnSenderThread) {
  LocalRendezvous rendezvous;
  std::thread::id callback_thread;
  Tensor received;
  bool called = false;
  rendezvous.RecvAsync(Key("a"), [&](const absl::Status& s, const Tensor& v, bool dead) {
    EXPECT_TRUE(s.ok());
    EXPECT_TRUE(dead);
    received = v;
    callback_thread = std::this_thread::get_id();
    called = true;
  });
  EXPECT_FALSE(called);
  std::thread sender([&] {
    ASSERT_TRUE(rendezvous.Send(Key("a"), Tensor(std::string("hi")), /*is_dead=*/true).ok());
    EXPECT_EQ(callback_thread, std::this_thread::get_id());
  });
  sender.join();
  ASSERT_TRUE(called);
  EXPECT_EQ(received.flat<std::string>()(0), "hi");
}

TEST(LocalRendezvousTest, KeysAreIndependentAndFifo) {
  LocalRendezvous rendezvous;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(rendezvous.Send(Key("a"), Tensor(static_cast<int32_t>(i)), false).ok());
  }
  ASSERT_TRUE(rendezvous.Send(Key("a", "1:0"), Tensor(int32_t{100}), false).ok());
  for (int i = 0; i < 3; ++i) {
    Tensor value;
    bool dead;
    ASSERT_TRUE(rendezvous.Recv(Key("a"), &value, &dead).ok());
    EXPECT_EQ(value.flat<int32_t>()(0), i);
  }
  Tensor value;
  bool dead;
  ASSERT_TRUE(rendezvous.Recv(Key("a", "1:0"), &value, &dead).ok());
  EXPECT_EQ(value.flat<int32_t>()(0), 100);
  // Nothing left: a bounded wait times out.
  absl::Status status = rendezvous.Recv(Key("a"), &value, &dead, /*timeout_ms=*/20);
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(status.message(), "Timed out waiting for notification");
  // The timed-out waiter still takes the next value, harmlessly.
  EXPECT_TRUE(rendezvous.Send(Key("a"), Tensor(1.0f), false).ok());
}

TEST(LocalRendezvousTest, PendingReceivesAreServedInOrder) {
  LocalRendezvous rendezvous;
  std::vector<int> order;
  for (int i = 0; i < 3; ++i) {
    rendezvous.RecvAsync(Key("a"), [&order, i](const absl::Status& s, const Tensor& v, bool) {
      EXPECT_TRUE(s.ok());
      EXPECT_EQ(v.flat<int32_t>()(0), i * 10);
      order.push_back(i);
    });
  }
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(rendezvous.Send(Key("a"), Tensor(static_cast<int32_t>(i * 10)), false).ok());
  }
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

TEST(LocalRendezvousTest, AbortWakesPendingAndFailsLaterCalls) {
  LocalRendezvous rendezvous;
  std::vector<absl::Status> statuses;
  for (const char* name : {"a", "b", "c"}) {
    rendezvous.RecvAsync(Key(name), [&](const absl::Status& s, const Tensor& v, bool dead) {
      EXPECT_EQ(v.NumElements(), 0);
      EXPECT_FALSE(dead);
      statuses.push_back(s);
    });
  }
  ASSERT_TRUE(rendezvous.Send(Key("unreceived"), Tensor(1.0f), false).ok());
  rendezvous.StartAbort(absl::AbortedError("step failed"));
  ASSERT_EQ(statuses.size(), 3u);
  for (const absl::Status& s : statuses) EXPECT_EQ(s, absl::AbortedError("step failed"));

  // The first abort sticks.
  rendezvous.StartAbort(absl::CancelledError("later"));
  EXPECT_EQ(rendezvous.status(), absl::AbortedError("step failed"));
  EXPECT_EQ(rendezvous.Send(Key("a"), Tensor(1.0f), false), absl::AbortedError("step failed"));
  Tensor value;
  bool dead;
  EXPECT_EQ(rendezvous.Recv(Key("unreceived"), &value, &dead), absl::AbortedError("step failed"));
}

TEST(LocalRendezvousTest, AbortWithOkStatusIsInternal) {
  LocalRendezvous rendezvous;
  rendezvous.StartAbort(absl::OkStatus());
  EXPECT_EQ(rendezvous.status().code(), absl::StatusCode::kInternal);
}

TEST(LocalRendezvousTest, AbortWakesBlockedRecvOnAnotherThread) {
  LocalRendezvous rendezvous;
  absl::Status status;
  std::thread receiver([&] {
    Tensor value;
    bool dead;
    status = rendezvous.Recv(Key("a"), &value, &dead, /*timeout_ms=*/10000);
  });
  absl::SleepFor(absl::Milliseconds(20));
  rendezvous.StartAbort(absl::CancelledError("cancelled"));
  receiver.join();
  EXPECT_EQ(status, absl::CancelledError("cancelled"));
}

TEST(LocalRendezvousTest, DestructionCancelsPendingReceives) {
  absl::Status status;
  {
    LocalRendezvous rendezvous;
    rendezvous.RecvAsync(Key("a"), [&](const absl::Status& s, const Tensor&, bool) { status = s; });
  }
  EXPECT_EQ(status, absl::CancelledError("LocalRendezvous deleted"));
}

TEST(LocalRendezvousTest, CallbacksMayReenter) {
  LocalRendezvous rendezvous;
  // Each callback forwards to the next key: no lock is held while it runs.
  rendezvous.RecvAsync(Key("a"), [&](const absl::Status& s, const Tensor& v, bool) {
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(rendezvous.Send(Key("b"), v, false).ok());
  });
  ASSERT_TRUE(rendezvous.Send(Key("a"), Tensor(7.0f), false).ok());
  Tensor value;
  bool dead;
  ASSERT_TRUE(rendezvous.Recv(Key("b"), &value, &dead, 1000).ok());
  EXPECT_EQ(value.flat<float>()(0), 7.0f);
}

TEST(LocalRendezvousTest, ConcurrentTransfers) {
  LocalRendezvous rendezvous;
  constexpr int kKeys = 200;
  std::atomic<int> sum{0};
  std::thread receiver([&] {
    for (int i = 0; i < kKeys; ++i) {
      Tensor value;
      bool dead;
      ASSERT_TRUE(rendezvous.Recv(Key(absl::StrCat("k", i)), &value, &dead, 10000).ok());
      sum += value.flat<int32_t>()(0);
    }
  });
  std::thread sender([&] {
    for (int i = kKeys - 1; i >= 0; --i) {
      ASSERT_TRUE(
          rendezvous.Send(Key(absl::StrCat("k", i)), Tensor(static_cast<int32_t>(i)), false).ok());
    }
  });
  sender.join();
  receiver.join();
  EXPECT_EQ(sum.load(), kKeys * (kKeys - 1) / 2);
}

}  // namespace
}  // namespace sluice
