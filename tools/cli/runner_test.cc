#include "tools/cli/runner.h"

#include <sys/resource.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

TEST(RunnerTest, ThreadCountsMustBeInRange) {
  RunnerOptions options;
  EXPECT_TRUE(ValidateRunnerOptions(options).ok());
  options.threads = kMaxThreads;
  options.inter_op_threads = kMaxThreads;
  EXPECT_TRUE(ValidateRunnerOptions(options).ok());
  for (int64_t bad : {int64_t{-1}, kMaxThreads + 1, int64_t{16384}, int64_t{4294967297}}) {
    RunnerOptions threads;
    threads.threads = bad;
    absl::Status status = ValidateRunnerOptions(threads);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find("--threads must be between 0 and 4096"), std::string::npos)
        << status;
    RunnerOptions inter_op;
    inter_op.inter_op_threads = bad;
    status = ValidateRunnerOptions(inter_op);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find("--inter-op-threads must be between 0 and 4096"),
              std::string::npos)
        << status;
  }
}

// Create rejects the counts before it loads anything: no graph is needed to see the error.
TEST(RunnerTest, CreateRejectsTooManyThreads) {
  RunnerOptions options;
  options.threads = 16384;
  std::unique_ptr<ModelRunner> runner;
  EXPECT_EQ(ModelRunner::Create(GraphDef(), options, {}, {}, &runner).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(runner, nullptr);
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

// Under an address-space limit (ulimit -v) the system refuses threads: that is a
// RESOURCE_EXHAUSTED status, and every thread that did start is stopped again.
TEST(RunnerTest, ThreadsTheSystemRefuses) {
  const int64_t used = VirtualBytes();
  if (used > (int64_t{1} << 40)) {
    GTEST_SKIP() << "a sanitizer's terabytes of address space leave no limit to set";
  }
  ASSERT_GT(used, 0);
  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &saved), 0);
  struct rlimit limited = saved;
  limited.rlim_cur = static_cast<rlim_t>(used + (256 << 20));
  ASSERT_EQ(setrlimit(RLIMIT_AS, &limited), 0);
  // Each thread reserves its stack (8 MiB by default): 1200 of them cannot fit in 256 MiB.
  RunnerOptions options;
  options.threads = 1200;
  std::unique_ptr<ModelRunner> runner;
  const absl::Status status = ModelRunner::Create(GraphDef(), options, {}, {}, &runner);
  ASSERT_EQ(setrlimit(RLIMIT_AS, &saved), 0);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_NE(
      status.message().find("cannot start the 1200 threads of the CPU device's intra-op pool"),
      std::string::npos)
      << status;
  EXPECT_NE(status.message().find("(--threads 1200, --inter-op-threads 0)"), std::string::npos)
      << status;
  options.threads = 2;
  EXPECT_TRUE(ModelRunner::Create(GraphDef(), options, {}, {}, &runner).ok());
}

}  // namespace
}  // namespace cli
}  // namespace sluice
