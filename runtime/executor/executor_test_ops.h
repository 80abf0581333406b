// Test-only ops and CPU kernels for the executor's tests and benchmark (no real math
// kernels exist at this layer). All take and make float scalars or tensors:
//
//   ExecTestConst(value)       -> y = value                          cheap
//   ExecTestFixed(value)       -> y = value, a const_tensor() kernel (as Const): the
//                                 executor skips its Compute except when collecting
//                                 step stats; counted
//   ExecTestAddOne(x)          -> x + 1, forwarding x's buffer       cheap; counted
//   ExecTestSlowAddOne(x)      -> x + 1                              expensive
//   ExecTestAdd(x, y)          -> x + y                              cheap
//   ExecTestSum(N * x)         -> sum of the inputs                  cheap
//   ExecTestFail(x, step)      -> INVALID_ARGUMENT "ExecTestFail saw x" when step < 0 or
//                                 step equals the step id, else x
//   ExecTestAsyncAddOne(x, inline) -> x + 1 from a helper thread (or before ComputeAsync
//                                 returns when inline)
//   ExecTestBlockUntilCancelled(x) -> waits for the step's cancellation, then CANCELLED
//   ExecTestNoOutput(x)        -> sets no output
//   ExecTestBadCtor(x)         -> construction fails with INVALID_ARGUMENT
//   ExecTestRetval(x, index)   -> stores x as result `index` of the call frame
//   ExecTestFresh(x)           -> a copy of x in a new buffer
//   ExecTestInPlace(x)         -> x + 1; records whether x's buffer was held only by x
//   ExecTestRefVar(value)      -> a Ref(float) to a scalar variable the kernel owns
//   ExecTestRefAddOne(ref)     -> adds one to the variable through the ref, returns it
//   ExecTestServices(x)        -> x; records the per-step services it was handed
#ifndef SLUICE_RUNTIME_EXECUTOR_EXECUTOR_TEST_OPS_H_
#define SLUICE_RUNTIME_EXECUTOR_EXECUTOR_TEST_OPS_H_

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>

#include "absl/synchronization/mutex.h"

namespace sluice {

class CallFrameInterface;
class CancellationManager;
class Device;
class Rendezvous;
class ResourceMgr;

namespace test {

struct ExecutorTestCounters {
  std::atomic<int> add_one_built{0};
  std::atomic<int> add_one_runs{0};
  std::atomic<int> fixed_runs{0};
  std::atomic<int> in_place_sole_owner{0};
  std::atomic<int> in_place_shared{0};
  // How long each ExecTestSlowAddOne sleeps, in microseconds (0: not at all).
  std::atomic<int> slow_add_one_sleep_us{0};
};
ExecutorTestCounters& Counters();

// What the last ExecTestServices kernel saw.
struct SeenServices {
  absl::Mutex mu;
  int64_t step_id = -1;
  Rendezvous* rendezvous = nullptr;
  CallFrameInterface* call_frame = nullptr;
  CancellationManager* cancellation_manager = nullptr;
  ResourceMgr* resource_manager = nullptr;
  bool has_runner = false;
};
SeenServices& Seen();

// A CPU device named /job:localhost/replica:0/task:0/device:CPU:0 over
// DefaultCpuAllocator(), without an Eigen device (the test kernels need none), whose
// ThreadsWorthRunning() is `threads_worth_running` (unlimited by default).
std::unique_ptr<Device> NewExecutorTestDevice(
    int threads_worth_running = std::numeric_limits<int>::max());

}  // namespace test
}  // namespace sluice

#endif  // SLUICE_RUNTIME_EXECUTOR_EXECUTOR_TEST_OPS_H_
