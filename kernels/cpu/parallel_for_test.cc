#include "kernels/cpu/parallel_for.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <vector>

#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {
namespace parallel_for_internal {
namespace {

// A pool whose threads never run: closures wait until the test releases them, as helpers
// wait when the scheduler gives their core to another process.
class StalledPool : public Eigen::ThreadPoolInterface {
 public:
  void Schedule(std::function<void()> fn) override {
    std::lock_guard<std::mutex> lock(mu_);
    parked_.push_back(std::move(fn));
  }
  void Cancel() override {}
  int NumThreads() const override { return 4; }
  int CurrentThreadId() const override { return -1; }
  // Runs what was scheduled, as a late thread would.
  size_t RunParked() {
    std::vector<std::function<void()>> parked;
    {
      std::lock_guard<std::mutex> lock(mu_);
      parked.swap(parked_);
    }
    for (auto& fn : parked) fn();
    return parked.size();
  }

 private:
  std::mutex mu_;
  std::vector<std::function<void()>> parked_;
};

TEST(RunBlocksTest, EveryBlockOnceForEveryTeam) {
  Eigen::ThreadPool pool(3);
  for (int team : {1, 2, 3, 4, 8}) {
    for (int64_t blocks : {1, 2, 7, 100, 1000}) {
      std::vector<std::atomic<int>> runs(blocks);
      RunBlocks(&pool, team, blocks, [&](int64_t b) { runs[b].fetch_add(1); });
      for (int64_t b = 0; b < blocks; ++b) {
        ASSERT_EQ(runs[b].load(), 1) << "team " << team << " blocks " << blocks << " block " << b;
      }
    }
  }
}

TEST(RunBlocksTest, NeverWaitsForHelpersThatDoNotRun) {
  StalledPool pool;
  std::vector<int> runs(64, 0);
  // Every helper is stalled: the caller does every block and returns.
  RunBlocks(&pool, 4, 64, [&](int64_t b) { ++runs[b]; });
  for (int b = 0; b < 64; ++b) EXPECT_EQ(runs[b], 1);
  // The helpers run after the loop is over: they find no block and touch nothing freed
  // (ASan would report it).
  EXPECT_EQ(pool.RunParked(), 3u);
  for (int b = 0; b < 64; ++b) EXPECT_EQ(runs[b], 1);
}

TEST(RunBlocksTest, WaitsForBlocksRunningElsewhere) {
  // Helpers on a real pool take blocks that sleep; the caller must not return before they
  // are done.
  Eigen::ThreadPool pool(2);
  std::atomic<int> done{0};
  RunBlocks(&pool, 3, 6, [&](int64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    done.fetch_add(1);
  });
  EXPECT_EQ(done.load(), 6);
}

TEST(BlockSizeTest, EvenBlocksAlignedAndWorthATask) {
  const Eigen::TensorOpCost cheap(4, 4, 1);
  // Cheap units: the cost model's minimum task decides.
  const int64_t block = BlockSize(1 << 20, cheap, 2, 1);
  EXPECT_GE(block, (1 << 20) / 8);
  EXPECT_LE(block, 1 << 20);
  // Costly units: n / (4 * threads) blocks.
  const Eigen::TensorOpCost costly(1e6, 1e6, 1e7);
  EXPECT_EQ(BlockSize(80, costly, 2, 1), 10);
  EXPECT_EQ(BlockSize(80, costly, 2, 16), 16);  // rounded up to the alignment
  EXPECT_EQ(BlockSize(5, costly, 4, 16), 5);    // never more than n
  // Independent of anything but the arguments: the same call, the same blocks.
  EXPECT_EQ(BlockSize(12345, cheap, 4, 8), BlockSize(12345, cheap, 4, 8));
}

}  // namespace
}  // namespace parallel_for_internal
}  // namespace sluice
