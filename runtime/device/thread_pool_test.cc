#include "runtime/device/thread_pool.h"

#include <dirent.h>
#include <sys/resource.h>

#include <atomic>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/synchronization/blocking_counter.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"

namespace sluice {
namespace {

// The threads this process has now.
int ThreadCount() {
  int count = 0;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count;
}

// The process's virtual size in bytes (VmSize).
int64_t VirtualBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoll(line.substr(7)) * 1024;
  }
  return -1;
}

TEST(ThreadPoolTest, RunsWorkOnEveryThread) {
  absl::StatusOr<std::unique_ptr<ThreadPool>> pool =
      StartThreadPool(4, /*allow_spinning=*/true, "the test's pool");
  ASSERT_TRUE(pool.ok()) << pool.status();
  EXPECT_EQ((*pool)->NumThreads(), 4);
  std::atomic<int> sum{0};
  absl::BlockingCounter done(100);
  for (int i = 1; i <= 100; ++i) {
    (*pool)->Schedule([&sum, &done, i] {
      sum += i;
      done.DecrementCount();
    });
  }
  done.Wait();
  EXPECT_EQ(sum.load(), 5050);
}

TEST(ThreadPoolTest, JoinsItsThreadsWhenDestroyed) {
  const int before = ThreadCount();
  {
    absl::StatusOr<std::unique_ptr<ThreadPool>> pool =
        StartThreadPool(8, /*allow_spinning=*/false, "the test's pool");
    ASSERT_TRUE(pool.ok()) << pool.status();
    EXPECT_EQ(ThreadCount(), before + 8);
  }
  EXPECT_EQ(ThreadCount(), before);
}

TEST(ThreadPoolTest, SizesOutsideTheLimitsAreInvalid) {
  for (int size : {0, -1, kMaxThreadsPerPool + 1}) {
    const absl::Status status = StartThreadPool(size, true, "the test's pool").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << size;
    EXPECT_NE(status.message().find("the test's pool"), std::string::npos) << status;
  }
}

// Under an address-space limit (ulimit -v) the system refuses threads: RESOURCE_EXHAUSTED,
// and the threads that did start are stopped again. Eigen's own pool ends the process here.
TEST(ThreadPoolTest, ThreadsTheSystemRefusesAreAStatus) {
  const int64_t used = VirtualBytes();
  if (used > (int64_t{1} << 40)) {
    GTEST_SKIP() << "a sanitizer's terabytes of address space leave no limit to set";
  }
  ASSERT_GT(used, 0);
  const int before = ThreadCount();
  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &saved), 0);
  struct rlimit limited = saved;
  limited.rlim_cur = static_cast<rlim_t>(used + (256 << 20));
  ASSERT_EQ(setrlimit(RLIMIT_AS, &limited), 0);
  // Each thread reserves its stack (8 MiB by default): 1200 of them cannot fit in 256 MiB.
  const absl::Status status = StartThreadPool(1200, true, "the test's pool").status();
  ASSERT_EQ(setrlimit(RLIMIT_AS, &saved), 0);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_NE(status.message().find("cannot start the 1200 threads of the test's pool"),
            std::string::npos)
      << status;
  EXPECT_EQ(ThreadCount(), before);
  EXPECT_TRUE(StartThreadPool(4, true, "the test's pool").ok());
}

}  // namespace
}  // namespace sluice
