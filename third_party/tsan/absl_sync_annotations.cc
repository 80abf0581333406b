// Makes Abseil's synchronization primitives (and Status's refcount) visible to ThreadSanitizer.
//
// Why: Abseil comes from Debian's shared libraries, which are not built with -fsanitize=thread.
// absl::Mutex, CondVar, Notification and BlockingCounter synchronize through atomics and futex
// system calls inside those libraries, which TSan never sees, so without help every access
// guarded by an absl::Mutex is reported as a data race (and every hand-off through a
// Notification too). Abseil's own TSan annotations are compiled in only when Abseil itself is
// built with TSan.
//
// How: this file, linked into every binary of `--config=tsan` (via --custom_malloc, the one
// Bazel hook that adds a library to all cc_binary/cc_test links), defines the public entry
// points of those classes itself. The dynamic linker then binds every call (ours and the ones
// Abseil makes internally through its PLT) to these definitions first; each one forwards to the
// real function found with dlsym(RTLD_NEXT) and adds the happens-before edge it implies:
//   release(object) before anything that gives up or signals (Unlock, Notify, DecrementCount,
//   the unlocking half of Await/CondVar::Wait), acquire(object) after anything that obtains
//   or observes it (Lock, a successful TryLock, the return of a wait).
// Waits with a Condition also bracket its evaluation (see GuardedCondition), and Status's
// out-of-line Unref is done here, instrumented (see the end of the file).
// Nothing else changes: the real Abseil code still does all the synchronizing.
//
// Contract: only for ThreadSanitizer builds. The TSan entry points are weak, so a build without
// TSan that links this library merely forwards. Aborts with a message only if the
// installed Abseil lacks one of the forwarded symbols, which is a toolchain mismatch rather than
// user input.

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/base/options.h"
#include "absl/status/status.h"
#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

extern "C" {
void __tsan_acquire(void* addr) __attribute__((weak));
void __tsan_release(void* addr) __attribute__((weak));
}

namespace {

void Acquire(const void* object) {
  if (__tsan_acquire != nullptr) __tsan_acquire(const_cast<void*>(object));
}

void Release(const void* object) {
  if (__tsan_release != nullptr) __tsan_release(const_cast<void*>(object));
}

#define SLUICE_STRINGIFY_INNER(x) #x
#define SLUICE_STRINGIFY(x) SLUICE_STRINGIFY_INNER(x)

// The Itanium-mangled name of a member of Abseil's inline namespace, e.g. ("", "5Mutex4LockEv")
// -> "_ZN4absl7debian35Mutex4LockEv". `cv` is "K" for const member functions. The suffixes
// below are independent of the inline namespace's name, so another Abseil release still works.
std::string AbslSymbol(const char* cv, const char* suffix) {
  const char* ns = SLUICE_STRINGIFY(ABSL_OPTION_INLINE_NAMESPACE_NAME);
  return std::string("_ZN") + cv + "4absl" + std::to_string(std::strlen(ns)) + ns + suffix;
}

template <typename Fn>
Fn Real(const char* cv, const char* suffix) {
  const std::string name = AbslSymbol(cv, suffix);
  void* fn = dlsym(RTLD_NEXT, name.c_str());
  if (fn == nullptr) {
    std::fprintf(stderr, "absl_sync_annotations: Abseil symbol %s not found\n", name.c_str());
    std::abort();
  }
  return reinterpret_cast<Fn>(fn);
}

// Member functions are called with `this` as the first argument (Itanium C++ ABI), so a plain
// function pointer with the object pointer first calls them correctly.
#define SLUICE_REAL(type, cv, suffix) \
  static const auto real = Real<type>(cv, suffix)

// Notification::HasBeenNotified() is inline: it is an instrumented acquire-load of the private
// `notified_yet_` flag that follows the Mutex, so Notify() also releases at that address.
const void* NotifiedFlag(const absl::Notification* n) {
  static_assert(sizeof(absl::Notification) == 2 * sizeof(absl::Mutex),
                "absl::Notification is expected to be {Mutex mutex_; atomic<bool> notified_yet_;}");
  return reinterpret_cast<const char*>(n) + sizeof(absl::Mutex);
}

// Abseil evaluates a wait's Condition inside the library while it holds the mutex, on the waiting
// thread or on whichever thread is unlocking. TSan sees neither that the mutex is held there nor
// the hand-off, so each wait passes Abseil a Condition that brackets the caller's one with
// acquire/release of the mutex. The waiter also releases the mutex after building that
// Condition: another thread's Unlock may read it (once the waiter has queued itself inside the
// library), and that thread acquired the mutex after the waiter queued.
struct GuardedCondition {
  const absl::Mutex* mu;
  const absl::Condition* cond;
};

bool EvalGuarded(GuardedCondition* guarded) {
  Acquire(guarded->mu);
  const bool result = guarded->cond->Eval();
  Release(guarded->mu);
  return result;
}

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

void Mutex::Lock() {
  SLUICE_REAL(void (*)(Mutex*), "", "5Mutex4LockEv");
  real(this);
  Acquire(this);
}

void Mutex::Unlock() {
  SLUICE_REAL(void (*)(Mutex*), "", "5Mutex6UnlockEv");
  Release(this);
  real(this);
}

bool Mutex::TryLock() {
  SLUICE_REAL(bool (*)(Mutex*), "", "5Mutex7TryLockEv");
  const bool locked = real(this);
  if (locked) Acquire(this);
  return locked;
}

void Mutex::ReaderLock() {
  SLUICE_REAL(void (*)(Mutex*), "", "5Mutex10ReaderLockEv");
  real(this);
  Acquire(this);
}

void Mutex::ReaderUnlock() {
  SLUICE_REAL(void (*)(Mutex*), "", "5Mutex12ReaderUnlockEv");
  Release(this);
  real(this);
}

bool Mutex::ReaderTryLock() {
  SLUICE_REAL(bool (*)(Mutex*), "", "5Mutex13ReaderTryLockEv");
  const bool locked = real(this);
  if (locked) Acquire(this);
  return locked;
}

void Mutex::LockWhen(const Condition& cond) {
  SLUICE_REAL(void (*)(Mutex*, const Condition&), "", "5Mutex8LockWhenERKNS0_9ConditionE");
  GuardedCondition guarded{this, &cond};
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  real(this, condition);
  Acquire(this);
}

void Mutex::ReaderLockWhen(const Condition& cond) {
  SLUICE_REAL(void (*)(Mutex*, const Condition&), "", "5Mutex14ReaderLockWhenERKNS0_9ConditionE");
  GuardedCondition guarded{this, &cond};
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  real(this, condition);
  Acquire(this);
}

bool Mutex::LockWhenWithTimeout(const Condition& cond, absl::Duration timeout) {
  SLUICE_REAL(bool (*)(Mutex*, const Condition&, absl::Duration), "",
              "5Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  GuardedCondition guarded{this, &cond};
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  const bool result = real(this, condition, timeout);
  Acquire(this);  // The mutex is held on return either way.
  return result;
}

bool Mutex::LockWhenWithDeadline(const Condition& cond, absl::Time deadline) {
  SLUICE_REAL(bool (*)(Mutex*, const Condition&, absl::Time), "",
              "5Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  GuardedCondition guarded{this, &cond};
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  const bool result = real(this, condition, deadline);
  Acquire(this);
  return result;
}

bool Mutex::ReaderLockWhenWithTimeout(const Condition& cond, absl::Duration timeout) {
  SLUICE_REAL(bool (*)(Mutex*, const Condition&, absl::Duration), "",
              "5Mutex25ReaderLockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  GuardedCondition guarded{this, &cond};
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  const bool result = real(this, condition, timeout);
  Acquire(this);
  return result;
}

bool Mutex::ReaderLockWhenWithDeadline(const Condition& cond, absl::Time deadline) {
  SLUICE_REAL(bool (*)(Mutex*, const Condition&, absl::Time), "",
              "5Mutex26ReaderLockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  GuardedCondition guarded{this, &cond};
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  const bool result = real(this, condition, deadline);
  Acquire(this);
  return result;
}

// Await may drop and retake the (held) mutex while it waits.
void Mutex::Await(const Condition& cond) {
  SLUICE_REAL(void (*)(Mutex*, const Condition&), "", "5Mutex5AwaitERKNS0_9ConditionE");
  GuardedCondition guarded{this, &cond};
  Release(this);
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  real(this, condition);
  Acquire(this);
}

bool Mutex::AwaitWithTimeout(const Condition& cond, absl::Duration timeout) {
  SLUICE_REAL(bool (*)(Mutex*, const Condition&, absl::Duration), "",
              "5Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  GuardedCondition guarded{this, &cond};
  Release(this);
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  const bool result = real(this, condition, timeout);
  Acquire(this);
  return result;
}

bool Mutex::AwaitWithDeadline(const Condition& cond, absl::Time deadline) {
  SLUICE_REAL(bool (*)(Mutex*, const Condition&, absl::Time), "",
              "5Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  GuardedCondition guarded{this, &cond};
  Release(this);
  const absl::Condition condition(&EvalGuarded, &guarded);
  Release(this);  // publishes `condition` to whichever thread evaluates it
  const bool result = real(this, condition, deadline);
  Acquire(this);
  return result;
}

void CondVar::Wait(Mutex* mu) {
  SLUICE_REAL(void (*)(CondVar*, Mutex*), "", "7CondVar4WaitEPNS0_5MutexE");
  Release(mu);
  real(this, mu);
  Acquire(mu);
}

bool CondVar::WaitWithTimeout(Mutex* mu, absl::Duration timeout) {
  SLUICE_REAL(bool (*)(CondVar*, Mutex*, absl::Duration), "",
              "7CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  Release(mu);
  const bool result = real(this, mu, timeout);
  Acquire(mu);
  return result;
}

bool CondVar::WaitWithDeadline(Mutex* mu, absl::Time deadline) {
  SLUICE_REAL(bool (*)(CondVar*, Mutex*, absl::Time), "",
              "7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  Release(mu);
  const bool result = real(this, mu, deadline);
  Acquire(mu);
  return result;
}

void Notification::Notify() {
  SLUICE_REAL(void (*)(Notification*), "", "12Notification6NotifyEv");
  Release(this);
  Release(NotifiedFlag(this));
  real(this);
}

void Notification::WaitForNotification() const {
  SLUICE_REAL(void (*)(const Notification*), "K", "12Notification19WaitForNotificationEv");
  real(this);
  Acquire(this);
}

bool Notification::WaitForNotificationWithTimeout(absl::Duration timeout) const {
  SLUICE_REAL(bool (*)(const Notification*, absl::Duration), "K",
              "12Notification30WaitForNotificationWithTimeoutENS0_8DurationE");
  const bool notified = real(this, timeout);
  if (notified) Acquire(this);
  return notified;
}

bool Notification::WaitForNotificationWithDeadline(absl::Time deadline) const {
  SLUICE_REAL(bool (*)(const Notification*, absl::Time), "K",
              "12Notification31WaitForNotificationWithDeadlineENS0_4TimeE");
  const bool notified = real(this, deadline);
  if (notified) Acquire(this);
  return notified;
}

bool BlockingCounter::DecrementCount() {
  SLUICE_REAL(bool (*)(BlockingCounter*), "", "15BlockingCounter14DecrementCountEv");
  Release(this);
  return real(this);
}

void BlockingCounter::Wait() {
  SLUICE_REAL(void (*)(BlockingCounter*), "", "15BlockingCounter4WaitEv");
  real(this);
  Acquire(this);
}

// Status copies share a refcounted representation; the last Unref deletes it. Abseil's decrement
// is compiled into the uninstrumented library, so TSan would see the delete racing with other
// threads' (inline, instrumented) increments. Doing the decrement here, instrumented, restores the
// ordering; the logic is Abseil's: the holder of the only reference deletes without a decrement.
void Status::UnrefNonInlined(uintptr_t rep) {
  status_internal::StatusRep* r = RepToPointer(rep);
  if (r->ref.load(std::memory_order_acquire) == 1 ||
      r->ref.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    delete r;
  }
}

ABSL_NAMESPACE_END
}  // namespace absl
