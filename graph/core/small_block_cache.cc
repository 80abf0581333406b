#include "graph/core/small_block_cache.h"

#include <cstdlib>
#include <new>

namespace sluice {
namespace small_block_cache {
namespace {

constexpr size_t kNumClasses = kMaxBlockBytes / kClassStepBytes;

// A free block's first bytes link it to the next one of its class.
struct FreeBlock {
  FreeBlock* next;
};
static_assert(sizeof(FreeBlock) <= kClassStepBytes);

// Trivially destructible and zero-initialised, so that every access is a plain
// thread-local load (a thread_local with a destructor is reached through a wrapper call
// that checks its initialisation).
struct ThreadLists {
  FreeBlock* heads[kNumClasses];
  size_t cached_bytes;
  bool reaper_registered;  // the thread's Reaper exists and will free the lists
  bool destroyed;          // the thread is exiting: no more caching
};
thread_local ThreadLists lists;

// Gives a thread's cached blocks back to malloc when the thread exits. Constructed by the
// thread's first Put; blocks freed later in the thread's exit (by other thread_local
// destructors) go straight to malloc.
struct Reaper {
  Reaper() { lists.reaper_registered = true; }
  ~Reaper() {
    lists.destroyed = true;
    for (FreeBlock*& head : lists.heads) {
      while (head != nullptr) {
        FreeBlock* next = head->next;
        std::free(head);
        head = next;
      }
    }
    lists.cached_bytes = 0;
  }
};
thread_local Reaper reaper;

size_t ClassIndex(size_t class_bytes) { return class_bytes / kClassStepBytes - 1; }

}  // namespace

void* Take(size_t class_bytes) {
  FreeBlock*& head = lists.heads[ClassIndex(class_bytes)];
  FreeBlock* block = head;
  if (block == nullptr) return nullptr;
  head = block->next;
  lists.cached_bytes -= class_bytes;
  return block;
}

bool Put(void* block, size_t class_bytes) {
  if (lists.destroyed || lists.cached_bytes + class_bytes > kMaxThreadBytes) return false;
  if (!lists.reaper_registered) static_cast<void>(&reaper);  // constructs it
  FreeBlock*& head = lists.heads[ClassIndex(class_bytes)];
  head = new (block) FreeBlock{head};
  lists.cached_bytes += class_bytes;
  return true;
}

size_t ThreadCachedBytes() { return lists.cached_bytes; }

}  // namespace small_block_cache
}  // namespace sluice
