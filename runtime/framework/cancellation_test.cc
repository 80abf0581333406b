#include "runtime/framework/cancellation.h"

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(CancellationManagerTest, TokensAreDistinct) {
  CancellationManager cm;
  std::set<CancellationToken> tokens;
  for (int i = 0; i < 100; ++i) tokens.insert(cm.get_cancellation_token());
  EXPECT_EQ(tokens.size(), 100u);
  EXPECT_EQ(tokens.count(CancellationManager::kInvalidToken), 0u);
}

TEST(CancellationManagerTest, StartCancelRunsEachCallbackOnce) {
  CancellationManager cm;
  int runs = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(cm.RegisterCallback(cm.get_cancellation_token(), [&] { ++runs; }));
  }
  EXPECT_FALSE(cm.IsCancelled());
  cm.StartCancel();
  EXPECT_TRUE(cm.IsCancelled());
  EXPECT_EQ(runs, 3);
  cm.StartCancel();
  EXPECT_EQ(runs, 3);
}

TEST(CancellationManagerTest, RegisterAfterCancelIsRejected) {
  CancellationManager cm;
  cm.StartCancel();
  bool ran = false;
  EXPECT_FALSE(cm.RegisterCallback(cm.get_cancellation_token(), [&] { ran = true; }));
  cm.StartCancel();
  EXPECT_FALSE(ran);
}

TEST(CancellationManagerTest, DeregisteredCallbackNeverRuns) {
  CancellationManager cm;
  bool ran = false;
  const CancellationToken token = cm.get_cancellation_token();
  ASSERT_TRUE(cm.RegisterCallback(token, [&] { ran = true; }));
  EXPECT_TRUE(cm.DeregisterCallback(token));
  const CancellationToken other = cm.get_cancellation_token();
  ASSERT_TRUE(cm.RegisterCallback(other, [&] { ran = true; }));
  EXPECT_TRUE(cm.TryDeregisterCallback(other));
  cm.StartCancel();
  EXPECT_FALSE(ran);
  // After cancellation both report that they came too late.
  EXPECT_FALSE(cm.DeregisterCallback(token));
  EXPECT_FALSE(cm.TryDeregisterCallback(token));
}

TEST(CancellationManagerTest, DeregisterWaitsForRunningCallback) {
  CancellationManager cm;
  absl::Notification callback_started;
  absl::Notification release_callback;
  std::atomic<bool> callback_finished{false};
  const CancellationToken token = cm.get_cancellation_token();
  ASSERT_TRUE(cm.RegisterCallback(token, [&] {
    callback_started.Notify();
    release_callback.WaitForNotification();
    callback_finished = true;
  }));
  std::thread canceller([&] { cm.StartCancel(); });
  callback_started.WaitForNotification();
  // Not blocking: the callback is running.
  EXPECT_FALSE(cm.TryDeregisterCallback(token));
  std::thread releaser([&] {
    absl::SleepFor(absl::Milliseconds(20));
    release_callback.Notify();
  });
  EXPECT_FALSE(cm.DeregisterCallback(token));
  EXPECT_TRUE(callback_finished);
  canceller.join();
  releaser.join();
}

TEST(CancellationManagerTest, CallbacksMayUseTheManager) {
  CancellationManager cm;
  bool inner_registered = true;
  const CancellationToken token = cm.get_cancellation_token();
  ASSERT_TRUE(cm.RegisterCallback(token, [&] {
    EXPECT_TRUE(cm.IsCancelled());
    EXPECT_FALSE(cm.TryDeregisterCallback(token));
    inner_registered = cm.RegisterCallback(cm.get_cancellation_token(), [] {});
  }));
  cm.StartCancel();
  EXPECT_FALSE(inner_registered);
}

TEST(CancellationManagerTest, ConcurrentStartCancelRunsCallbacksOnce) {
  CancellationManager cm;
  std::atomic<int> runs{0};
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(cm.RegisterCallback(cm.get_cancellation_token(), [&] { ++runs; }));
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back([&] { cm.StartCancel(); });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(runs.load(), 50);
}

}  // namespace
}  // namespace sluice
