#include "tools/cli/busy_neighbours.h"

#include <signal.h>
#include <time.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

// The process's CPU time in clock ticks (utime + stime from /proc/PID/stat), -1 if gone.
long CpuTicks(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return -1;
  // Fields after the command name, which is in parentheses and may hold spaces.
  std::string rest = text.substr(text.rfind(')') + 2);
  long utime = 0, stime = 0;
  std::string field;
  size_t pos = 0;
  for (int i = 3; i <= 15; ++i) {
    const size_t next = rest.find(' ', pos);
    field = rest.substr(pos, next - pos);
    if (i == 14) utime = std::stol(field);
    if (i == 15) stime = std::stol(field);
    pos = next + 1;
  }
  return utime + stime;
}

TEST(BusyNeighboursTest, StartsSpinningProcessesAndStopsThem) {
  BusyNeighbours neighbours;
  ASSERT_TRUE(neighbours.Start(2).ok());
  ASSERT_EQ(neighbours.pids().size(), 2u);
  const auto pids = neighbours.pids();
  // Each child burns CPU: within a few seconds every one has used some ticks.
  for (pid_t pid : pids) {
    long ticks = 0;
    for (int i = 0; i < 300 && ticks < 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ticks = CpuTicks(pid);
    }
    EXPECT_GE(ticks, 2) << "neighbour " << pid << " did not spin";
  }
  neighbours.Stop();
  EXPECT_TRUE(neighbours.pids().empty());
  // Reaped: the pids no longer name processes of ours.
  for (pid_t pid : pids) {
    EXPECT_EQ(kill(pid, 0), -1);
    EXPECT_EQ(errno, ESRCH);
  }
  neighbours.Stop();  // idempotent
}

TEST(BusyNeighboursTest, ZeroStartsNothing) {
  BusyNeighbours neighbours;
  ASSERT_TRUE(neighbours.Start(0).ok());
  EXPECT_TRUE(neighbours.pids().empty());
}

TEST(BusyNeighboursTest, DestructorStops) {
  pid_t pid = 0;
  {
    BusyNeighbours neighbours;
    ASSERT_TRUE(neighbours.Start(1).ok());
    pid = neighbours.pids()[0];
    EXPECT_EQ(kill(pid, 0), 0);
  }
  EXPECT_EQ(kill(pid, 0), -1);
}

}  // namespace
}  // namespace cli
}  // namespace sluice
