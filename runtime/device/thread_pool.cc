// StartThreadPool: threads started parked, then handed to Eigen's pool (see the header).
#include "runtime/device/thread_pool.h"

#include <new>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "numerics/float_environment.h"
#include "runtime/device/session_options.h"

namespace sluice {

class ParkedThreads {
 public:
  explicit ParkedThreads(int capacity) { slots_.reserve(static_cast<size_t>(capacity)); }

  // Threads never handed a function are released without one; every thread is joined.
  ~ParkedThreads() {
    for (size_t i = handed_out_; i < slots_.size(); ++i) Release(*slots_[i], nullptr);
    for (const std::unique_ptr<Slot>& slot : slots_) {
      if (slot->thread.joinable()) slot->thread.join();
    }
  }

  // Starts one more parked thread. False, with the system's reason in `why`, if it refused.
  bool StartOne(std::string* why) {
    try {
      auto slot = std::make_unique<Slot>();
      Slot* raw = slot.get();
      slot->thread = std::thread([raw] { Run(*raw); });
      slots_.push_back(std::move(slot));
      return true;
    } catch (const std::system_error& error) {
      *why = error.code().message();
    } catch (const std::bad_alloc&) {
      *why = "out of memory";
    }
    return false;
  }

  // Hands the next parked thread `work`; returns its index. Called by Eigen's constructor,
  // once per thread started, from one thread.
  int HandOut(std::function<void()> work) {
    const int index = static_cast<int>(handed_out_++);
    Release(*slots_[static_cast<size_t>(index)], std::move(work));
    return index;
  }

  void Join(int index) {
    std::thread& thread = slots_[static_cast<size_t>(index)]->thread;
    if (thread.joinable()) thread.join();
  }

 private:
  struct Slot {
    absl::Mutex mu;
    bool released ABSL_GUARDED_BY(mu) = false;
    std::function<void()> work ABSL_GUARDED_BY(mu);
    std::thread thread;
  };

  static void Run(Slot& slot) {
    // Every pool thread computes in TensorFlow's mode for its whole life.
    const numerics::ScopedFlushDenormals flush;
    std::function<void()> work;
    {
      absl::MutexLock lock(&slot.mu, absl::Condition(&slot.released));
      work = std::move(slot.work);
    }
    if (work) work();
  }

  static void Release(Slot& slot, std::function<void()> work) {
    absl::MutexLock lock(&slot.mu);
    slot.work = std::move(work);
    slot.released = true;
  }

  std::vector<std::unique_ptr<Slot>> slots_;
  size_t handed_out_ = 0;
};

ParkedThreadEnvironment::EnvThread::EnvThread(std::shared_ptr<ParkedThreads> threads, int index)
    : threads_(std::move(threads)), index_(index) {}

ParkedThreadEnvironment::EnvThread::~EnvThread() { threads_->Join(index_); }

ParkedThreadEnvironment::EnvThread* ParkedThreadEnvironment::CreateThread(std::function<void()> f) {
  const int index = threads->HandOut(std::move(f));
  return new EnvThread(threads, index);
}

absl::StatusOr<std::unique_ptr<ThreadPool>> StartThreadPool(int num_threads, bool allow_spinning,
                                                            absl::string_view purpose) {
  if (num_threads < 1 || num_threads > kMaxThreadsPerPool) {
    return errors::InvalidArgument("cannot start ", purpose, " with ", num_threads,
                                   " threads: a pool has 1 to ", kMaxThreadsPerPool);
  }
  auto threads = std::make_shared<ParkedThreads>(num_threads);
  for (int i = 0; i < num_threads; ++i) {
    std::string why;
    if (!threads->StartOne(&why)) {
      // `threads` releases and joins the ones that started.
      return errors::ResourceExhausted(
          "cannot start the ", num_threads, " threads of ", purpose,
          ": the system refused a thread after ", i, " (", why,
          "); use fewer threads, or raise the process's limits (ulimit -u, ulimit -v)");
    }
  }
  return std::make_unique<ThreadPool>(num_threads, allow_spinning,
                                      ParkedThreadEnvironment{std::move(threads)});
}

}  // namespace sluice
