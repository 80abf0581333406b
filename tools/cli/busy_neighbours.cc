// Busy neighbour processes for contended benchmarks.
#include "tools/cli/busy_neighbours.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "graph/core/errors.h"

namespace sluice {
namespace cli {
namespace {

// The child's whole life: async-signal-safe calls only, then a loop the compiler cannot
// remove (the volatile store).
[[noreturn]] void SpinForever(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died between fork and prctl.
  if (getppid() != parent) _exit(0);
  volatile double sink = 0;
  double x = 1.0;
  for (;;) {
    x = x * 1.0000001 + 1e-9;
    sink = x;
  }
}

}  // namespace

absl::Status BusyNeighbours::Start(int count) {
  const pid_t parent = getpid();
  for (int i = 0; i < count; ++i) {
    const pid_t pid = fork();
    if (pid == 0) SpinForever(parent);
    if (pid < 0) {
      const int error = errno;
      Stop();
      return errors::Internal("could not start busy neighbour ", i + 1, " of ", count,
                              ": fork: ", std::strerror(error));
    }
    pids_.push_back(pid);
  }
  return absl::OkStatus();
}

void BusyNeighbours::Stop() {
  for (pid_t pid : pids_) kill(pid, SIGKILL);
  for (pid_t pid : pids_) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  pids_.clear();
}

}  // namespace cli
}  // namespace sluice
