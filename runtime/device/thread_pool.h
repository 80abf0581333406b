// ThreadPool: Eigen's non-blocking thread pool, started so that a thread the system refuses is
// a status rather than the end of the process.
//
// Eigen's pool starts its threads in its constructor and has no way to report that one could
// not start: std::thread throws std::system_error, and a half-built pool cannot be unwound (its
// running workers wait for the missing ones before they exit). StartThreadPool therefore starts
// every thread first, parked, and only then builds the pool over them, handing each parked
// thread its worker loop. When the system refuses a thread (a thread limit, `ulimit -v`, memory),
// the threads already started are released and joined, and the caller gets RESOURCE_EXHAUSTED.
//
// Every thread of a pool flushes subnormal numbers to zero, as TensorFlow's pool threads do
// (numerics/float_environment.h).
//
// Thread-safe as Eigen's pool is; the pool joins its threads when destroyed.
#ifndef SLUICE_RUNTIME_DEVICE_THREAD_POOL_H_
#define SLUICE_RUNTIME_DEVICE_THREAD_POOL_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {

// Threads started ahead of a pool, each waiting for the function it will run (see above).
class ParkedThreads;

// The Eigen environment whose CreateThread hands out parked threads instead of starting new
// ones, so that it cannot fail.
struct ParkedThreadEnvironment {
  struct Task {
    std::function<void()> f;
  };
  class EnvThread {
   public:
    EnvThread(std::shared_ptr<ParkedThreads> threads, int index);
    ~EnvThread();  // joins the thread
    void OnCancel() {}

   private:
    std::shared_ptr<ParkedThreads> threads_;
    int index_;
  };

  EnvThread* CreateThread(std::function<void()> f);
  Task CreateTask(std::function<void()> f) { return Task{std::move(f)}; }
  void ExecuteTask(const Task& task) { task.f(); }

  std::shared_ptr<ParkedThreads> threads;
};

using ThreadPool = Eigen::ThreadPoolTempl<ParkedThreadEnvironment>;

// A pool of `num_threads` threads whose idle threads spin for work before sleeping, or not
// (`allow_spinning`). `purpose` names the pool in errors ("the intra-op pool").
// INVALID_ARGUMENT unless 1 <= num_threads <= kMaxThreadsPerPool; RESOURCE_EXHAUSTED, naming
// how many threads started and why the next did not, when the system refuses one.
absl::StatusOr<std::unique_ptr<ThreadPool>> StartThreadPool(int num_threads, bool allow_spinning,
                                                            absl::string_view purpose);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_THREAD_POOL_H_
