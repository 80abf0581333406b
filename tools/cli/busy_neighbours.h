// BusyNeighbours: N processes that keep one core each busy beside a benchmark, started and
// stopped by the benchmark itself (`sluice benchmark --contend N`), so a latency under
// contention — a serving process that shares its cores — can be reproduced anywhere.
//
// Each neighbour is a forked child that spins on arithmetic until killed; it never touches
// the parent's state (no allocation, no locks, no I/O after the fork, so forking from a
// process with threads is safe). The children die with the parent (PR_SET_PDEATHSIG), so a
// crashed or killed benchmark leaves none behind. Stop (or the destructor) kills and reaps
// them.
//
// Errors: Start returns INTERNAL naming the errno when fork fails; the neighbours already
// started are stopped. Not thread-safe.
#ifndef SLUICE_TOOLS_CLI_BUSY_NEIGHBOURS_H_
#define SLUICE_TOOLS_CLI_BUSY_NEIGHBOURS_H_

#include <sys/types.h>

#include <vector>

#include "absl/status/status.h"

namespace sluice {
namespace cli {

class BusyNeighbours {
 public:
  BusyNeighbours() = default;
  BusyNeighbours(const BusyNeighbours&) = delete;
  BusyNeighbours& operator=(const BusyNeighbours&) = delete;
  ~BusyNeighbours() { Stop(); }

  // Starts `count` (>= 0) busy processes.
  absl::Status Start(int count);
  // Kills and reaps every neighbour; idempotent.
  void Stop();

  const std::vector<pid_t>& pids() const { return pids_; }

 private:
  std::vector<pid_t> pids_;
};

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_BUSY_NEIGHBOURS_H_
