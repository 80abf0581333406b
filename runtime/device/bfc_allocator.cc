#include "runtime/device/bfc_allocator.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "glog/logging.h"

namespace sluice {
namespace {

constexpr size_t kUnit = BfcAllocator::kMinAllocationBytes;
// A chunk is split when the remainder is at least 1/kSplitDivisor of the request.
constexpr size_t kSplitDivisor = 8;

// `bytes` rounded up to whole units, at least one; the caller has checked it is at most the
// limit, so this cannot overflow.
size_t RoundUp(size_t bytes) { return std::max<size_t>(1, (bytes + kUnit - 1) / kUnit) * kUnit; }

std::string FormatBytes(size_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, "B");
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit + 1 < 4) {
    value /= 1024;
    ++unit;
  }
  return absl::StrFormat("%.2f%s", value, kUnits[unit]);
}

std::string Count(size_t n, const char* noun) {
  return absl::StrCat(n, " ", noun, n == 1 ? "" : "s");
}

}  // namespace

BfcAllocator::BfcAllocator(std::unique_ptr<SubAllocator> sub_allocator, size_t memory_limit,
                           std::string name, Options options)
    : sub_allocator_(std::move(sub_allocator)),
      memory_limit_(memory_limit),
      usable_limit_(memory_limit / kUnit * kUnit),
      name_(std::move(name)),
      options_(options) {
  stats_.bytes_limit = static_cast<int64_t>(
      std::min<size_t>(memory_limit, static_cast<size_t>(std::numeric_limits<int64_t>::max())));
}

BfcAllocator::~BfcAllocator() {
  absl::MutexLock lock(&mu_);
  if (!in_use_.empty()) {
    LOG(ERROR) << name_ << ": destroyed with " << Count(in_use_.size(), "chunk")
               << " still in use (" << FormatBytes(stats_.bytes_in_use) << ")";
  }
  for (const Region& region : regions_) sub_allocator_->Free(region.base, region.bytes);
}

std::string BfcAllocator::Name() const { return name_; }

int BfcAllocator::BinFor(size_t bytes) {
  const size_t units = bytes / kUnit;
  const int log2 = std::numeric_limits<size_t>::digits - 1 - absl::countl_zero(units);
  return std::min(log2, kNumBins - 1);
}

void* BfcAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  if (alignment > kUnit) {
    LOG_FIRST_N(ERROR, 1) << name_ << ": alignment " << alignment << " above "
                          << kMinAllocationBytes << " is not supported";
    return nullptr;
  }
  if (num_bytes > usable_limit_) return nullptr;
  const size_t rounded = RoundUp(num_bytes);
  absl::MutexLock lock(&mu_);
  ChunkHandle h = FindFit(rounded);
  if (h == kNoChunk) {
    // Entirely free regions are only returned under pressure: keeping them spares the next
    // step a trip to the sub-allocator.
    if (Extend(rounded) || (ReleaseFreeRegions() > 0 && Extend(rounded))) h = FindFit(rounded);
    if (h == kNoChunk) return nullptr;
  }
  return HandOut(h, rounded);
}

void BfcAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  absl::MutexLock lock(&mu_);
  auto it = in_use_.find(ptr);
  if (it == in_use_.end()) {
    LOG(ERROR) << name_ << ": DeallocateRaw(" << ptr
               << ") of a pointer this allocator did not hand out or already freed; ignored";
    return;
  }
  ChunkHandle h = it->second;
  in_use_.erase(it);
  chunks_[h].in_use = false;
  stats_.bytes_in_use -= static_cast<int64_t>(chunks_[h].size);

  const ChunkHandle next = chunks_[h].next;
  if (next != kNoChunk && !chunks_[next].in_use) {
    RemoveFree(next);
    Merge(h, next);
  }
  const ChunkHandle prev = chunks_[h].prev;
  if (prev != kNoChunk && !chunks_[prev].in_use) {
    RemoveFree(prev);
    Merge(prev, h);
    h = prev;
  }
  InsertFree(h);
}

AllocatorStats BfcAllocator::GetStats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

void BfcAllocator::ClearStats() {
  absl::MutexLock lock(&mu_);
  stats_.num_allocs = 0;
  stats_.peak_bytes_in_use = stats_.bytes_in_use;
  stats_.largest_alloc_size = 0;
}

std::string BfcAllocator::MemorySummary() const {
  absl::MutexLock lock(&mu_);
  size_t free_in_regions = 0;
  size_t free_chunks = 0;
  size_t largest_free = 0;
  for (const std::set<FreeKey>& bin : bins_) {
    for (const FreeKey& key : bin) free_in_regions += key.size;
    free_chunks += bin.size();
    if (!bin.empty()) largest_free = bin.rbegin()->size;  // later bins hold larger chunks
  }
  const size_t unreserved = usable_limit_ - region_bytes_;
  return absl::StrCat(
      name_, ": ", FormatBytes(stats_.bytes_in_use), " in use in ", Count(in_use_.size(), "chunk"),
      "; ", FormatBytes(free_in_regions + unreserved), " free of ", FormatBytes(memory_limit_),
      " limit (", FormatBytes(free_in_regions), " in ", Count(free_chunks, "free chunk"), " of ",
      Count(regions_.size(), "region"), ", largest free chunk ", FormatBytes(largest_free), "; ",
      FormatBytes(unreserved), " not yet reserved)");
}

size_t BfcAllocator::region_bytes() const {
  absl::MutexLock lock(&mu_);
  return region_bytes_;
}

BfcAllocator::ChunkHandle BfcAllocator::FindFit(size_t rounded) const {
  // Within the request's own bin smaller chunks may come first; in later bins every chunk
  // fits, and the first is the smallest.
  for (int b = BinFor(rounded); b < kNumBins; ++b) {
    auto it = bins_[b].lower_bound(FreeKey{rounded, 0, kNoChunk});
    if (it != bins_[b].end()) return it->chunk;
  }
  return kNoChunk;
}

void* BfcAllocator::HandOut(ChunkHandle h, size_t rounded) {
  RemoveFree(h);
  const size_t remainder = chunks_[h].size - rounded;
  if (remainder >= kUnit && remainder >= rounded / kSplitDivisor) {
    const ChunkHandle rest = NewChunk();  // may move chunks_: index it afresh below
    Chunk& chunk = chunks_[h];
    chunks_[rest].ptr = chunk.ptr + rounded;
    chunks_[rest].size = remainder;
    chunks_[rest].prev = h;
    chunks_[rest].next = chunk.next;
    if (chunk.next != kNoChunk) chunks_[chunk.next].prev = rest;
    chunk.next = rest;
    chunk.size = rounded;
    InsertFree(rest);
  }
  Chunk& chunk = chunks_[h];
  chunk.in_use = true;
  in_use_.emplace(chunk.ptr, h);

  const int64_t bytes = static_cast<int64_t>(chunk.size);
  ++stats_.num_allocs;
  stats_.bytes_in_use += bytes;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  stats_.largest_alloc_size = std::max(stats_.largest_alloc_size, bytes);
  return chunk.ptr;
}

bool BfcAllocator::Extend(size_t rounded) {
  const size_t available = usable_limit_ - region_bytes_;
  if (rounded > available) return false;
  const size_t bytes = options_.allow_growth
                           ? std::min(std::max(rounded, next_region_bytes_), available)
                           : available;
  void* base = sub_allocator_->Alloc(kUnit, bytes);
  if (base == nullptr) return false;
  DCHECK_EQ(reinterpret_cast<uintptr_t>(base) % kUnit, 0u) << "sub-allocator ignored alignment";

  if (next_region_bytes_ <= std::numeric_limits<size_t>::max() / 2) next_region_bytes_ *= 2;
  region_bytes_ += bytes;
  const ChunkHandle h = NewChunk();
  chunks_[h].ptr = static_cast<char*>(base);
  chunks_[h].size = bytes;
  regions_.push_back(Region{static_cast<char*>(base), bytes, h});
  InsertFree(h);
  return true;
}

int BfcAllocator::ReleaseFreeRegions() {
  int released = 0;
  for (size_t i = 0; i < regions_.size();) {
    const Region region = regions_[i];
    const Chunk& first = chunks_[region.first];
    if (first.in_use || first.size != region.bytes) {
      ++i;
      continue;
    }
    RemoveFree(region.first);
    DeleteChunk(region.first);
    sub_allocator_->Free(region.base, region.bytes);
    region_bytes_ -= region.bytes;
    regions_[i] = regions_.back();
    regions_.pop_back();
    ++released;
  }
  return released;
}

BfcAllocator::ChunkHandle BfcAllocator::NewChunk() {
  if (unused_handles_.empty()) {
    chunks_.emplace_back();
    return static_cast<ChunkHandle>(chunks_.size() - 1);
  }
  const ChunkHandle h = unused_handles_.back();
  unused_handles_.pop_back();
  return h;
}

void BfcAllocator::DeleteChunk(ChunkHandle h) {
  chunks_[h] = Chunk();
  unused_handles_.push_back(h);
}

void BfcAllocator::InsertFree(ChunkHandle h) {
  const Chunk& chunk = chunks_[h];
  bins_[BinFor(chunk.size)].insert(FreeKey{chunk.size, reinterpret_cast<uintptr_t>(chunk.ptr), h});
}

void BfcAllocator::RemoveFree(ChunkHandle h) {
  const Chunk& chunk = chunks_[h];
  const size_t erased = bins_[BinFor(chunk.size)].erase(
      FreeKey{chunk.size, reinterpret_cast<uintptr_t>(chunk.ptr), h});
  DCHECK_EQ(erased, 1u) << "free chunk missing from its bin";
}

void BfcAllocator::Merge(ChunkHandle h, ChunkHandle next) {
  Chunk& chunk = chunks_[h];
  const Chunk& absorbed = chunks_[next];
  DCHECK_EQ(chunk.ptr + chunk.size, absorbed.ptr);
  chunk.size += absorbed.size;
  chunk.next = absorbed.next;
  if (absorbed.next != kNoChunk) chunks_[absorbed.next].prev = h;
  DeleteChunk(next);
}

}  // namespace sluice
