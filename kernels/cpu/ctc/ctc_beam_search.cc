#include "kernels/cpu/ctc/ctc_beam_search.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "Eigen/Core"
#include "graph/core/errors.h"
#include "kernels/cpu/ctc/ctc_math.h"

namespace sluice {
namespace ctc {
namespace {

constexpr int64_t kInitialCapacity = 64;

uint64_t HashKey(int32_t parent, int32_t label) {
  uint64_t h =
      (static_cast<uint64_t>(static_cast<uint32_t>(parent)) << 32) | static_cast<uint32_t>(label);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

template <typename T>
bool CtcBeamSearch<T>::Beam::Greater(int32_t a, int32_t b) const {
  const Entry* entries = search_->entries_[search_->current_].data();
  return entries[a].new_p.total > entries[b].new_p.total;
}

template <typename T>
void CtcBeamSearch<T>::Beam::Push(int32_t entry) {
  auto greater = [this](int32_t a, int32_t b) { return Greater(a, b); };
  if (state_ != kHeapSorted) {
    elements_.push_back(entry);
    if (elements_.size() == limit_ + 1) {
      // Full: from now on a heap whose front is the smallest; the smallest is dropped.
      std::make_heap(elements_.begin(), elements_.end(), greater);
      std::pop_heap(elements_.begin(), elements_.end(), greater);
      elements_.pop_back();
      state_ = kHeapSorted;
    } else if (state_ == kBottomKnown && !greater(elements_.back(), elements_.front())) {
      std::swap(elements_.front(), elements_.back());  // the new one is the new bottom
    }
    return;
  }
  if (greater(entry, elements_.front())) {
    std::pop_heap(elements_.begin(), elements_.end(), greater);
    elements_.back() = entry;
    std::push_heap(elements_.begin(), elements_.end(), greater);
  }
}

template <typename T>
int32_t CtcBeamSearch<T>::Beam::PeekBottom() {
  if (state_ == kUnordered) {
    size_t bottom = 0;
    for (size_t i = 1; i < elements_.size(); ++i) {
      if (Greater(elements_[bottom], elements_[i])) bottom = i;
    }
    if (bottom != 0) std::swap(elements_[0], elements_[bottom]);
    state_ = kBottomKnown;
  }
  return elements_.front();
}

template <typename T>
void CtcBeamSearch<T>::Beam::Extract(std::vector<int32_t>* out) {
  auto greater = [this](int32_t a, int32_t b) { return Greater(a, b); };
  out->swap(elements_);
  if (state_ != kHeapSorted) {
    std::sort(out->begin(), out->end(), greater);
  } else {
    std::sort_heap(out->begin(), out->end(), greater);
  }
  Clear();
}

template <typename T>
void CtcBeamSearch<T>::Beam::Clear() {
  elements_.clear();
  state_ = kUnordered;
}

template <typename T>
CtcBeamSearch<T>::CtcBeamSearch(OpKernelContext* ctx, int num_classes, int beam_width)
    : ctx_(ctx),
      num_classes_(num_classes),
      beam_width_(beam_width),
      leaves_(this, static_cast<size_t>(beam_width)) {}

template <typename T>
bool CtcBeamSearch<T>::Active(int32_t e) const {
  return entries_[current_][e].new_p.total != LogZero<T>();
}

template <typename T>
absl::Status CtcBeamSearch<T>::Grow() {
  const int64_t capacity = capacity_ == 0 ? kInitialCapacity : 2 * capacity_;
  if (capacity > std::numeric_limits<int32_t>::max() / 2) {
    return errors::ResourceExhausted("the CTC beam search made more than ", capacity_, " prefixes");
  }
  const int next = capacity_ == 0 ? current_ : 1 - current_;
  RETURN_IF_ERROR(entries_[next].Allocate(ctx_, capacity));
  RETURN_IF_ERROR(table_[next].Allocate(ctx_, 2 * capacity));
  Entry* entries = entries_[next].data();
  if (num_entries_ > 0) {
    std::memcpy(entries, entries_[current_].data(), num_entries_ * sizeof(Entry));
  }
  int32_t* table = table_[next].data();
  std::fill(table, table + 2 * capacity, -1);
  const uint64_t mask = static_cast<uint64_t>(2 * capacity - 1);
  for (int64_t e = 0; e < num_entries_; ++e) {
    if (entries[e].parent < 0) continue;
    uint64_t slot = HashKey(entries[e].parent, entries[e].label) & mask;
    while (table[slot] >= 0) slot = (slot + 1) & mask;
    table[slot] = static_cast<int32_t>(e);
  }
  if (next != current_) {
    // Release the old arrays now rather than at the next growth.
    entries_[current_].Allocate(ctx_, 0).IgnoreError();
    table_[current_].Allocate(ctx_, 0).IgnoreError();
  }
  current_ = next;
  capacity_ = capacity;
  return absl::OkStatus();
}

template <typename T>
absl::Status CtcBeamSearch<T>::Child(int32_t parent, int32_t label, int32_t* child) {
  uint64_t mask = static_cast<uint64_t>(2 * capacity_ - 1);
  uint64_t slot = HashKey(parent, label) & mask;
  {
    const Entry* entries = entries_[current_].data();
    const int32_t* table = table_[current_].data();
    while (table[slot] >= 0) {
      const Entry& e = entries[table[slot]];
      if (e.parent == parent && e.label == label) {
        *child = table[slot];
        return absl::OkStatus();
      }
      slot = (slot + 1) & mask;
    }
  }
  if (num_entries_ == capacity_) {
    RETURN_IF_ERROR(Grow());
    mask = static_cast<uint64_t>(2 * capacity_ - 1);
    slot = HashKey(parent, label) & mask;
    while (table_[current_][slot] >= 0) slot = (slot + 1) & mask;
  }
  const int32_t index = static_cast<int32_t>(num_entries_++);
  const Probability zero{LogZero<T>(), LogZero<T>(), LogZero<T>()};
  entries_[current_][index] = Entry{parent, label, zero, zero};
  table_[current_][slot] = index;
  *child = index;
  return absl::OkStatus();
}

template <typename T>
absl::Status CtcBeamSearch<T>::Reset() {
  leaves_.Clear();
  num_entries_ = 0;
  if (capacity_ == 0) RETURN_IF_ERROR(Grow());
  std::fill(table_[current_].begin(), table_[current_].end(), -1);
  const Probability zero{LogZero<T>(), LogZero<T>(), LogZero<T>()};
  Entry root{-1, -1, zero, zero};
  root.new_p.total = T(0);
  root.new_p.blank = T(0);
  entries_[current_][0] = root;
  num_entries_ = 1;
  leaves_.Push(0);
  return absl::OkStatus();
}

template <typename T>
absl::Status CtcBeamSearch<T>::Step(const T* logits) {
  const int blank = num_classes_ - 1;
  const T max_coeff =
      Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(logits, num_classes_).maxCoeff();
  T sum = T(0);
  for (int j = 0; j < num_classes_; ++j) sum += std::exp(logits[j] - max_coeff);
  const T norm = max_coeff + std::log(sum);

  leaves_.Extract(&branches_);
  for (int32_t b : branches_) {
    Entry& e = entries_[current_][b];
    e.old_p = e.new_p;
  }
  // Prefixes already in the beam: stay through a blank or a repeat of the last label, or
  // arrive from the parent's probability of one step ago.
  for (int32_t b : branches_) {
    Entry* entries = entries_[current_].data();
    Entry& e = entries[b];
    if (e.parent >= 0) {
      const Entry& parent = entries[e.parent];
      if (Active(e.parent)) {
        const T previous = e.label == parent.label ? parent.old_p.blank : parent.old_p.total;
        e.new_p.label = LogSumExp(e.new_p.label, previous);
      }
      e.new_p.label += logits[e.label] - norm;
    }
    e.new_p.blank = e.old_p.total + logits[blank] - norm;
    e.new_p.total = LogSumExp(e.new_p.blank, e.new_p.label);
    leaves_.Push(b);
  }
  // New prefixes: each candidate extended by each non-blank label not yet in the beam.
  auto is_candidate = [this](const Probability& p) {
    return p.total > LogZero<T>() &&
           (leaves_.size() < static_cast<size_t>(beam_width_) ||
            p.total > entries_[current_][leaves_.PeekBottom()].new_p.total);
  };
  for (int32_t b : branches_) {
    if (!is_candidate(entries_[current_][b].old_p)) continue;
    for (int label = 0; label < num_classes_ - 1; ++label) {
      int32_t c = 0;
      RETURN_IF_ERROR(Child(b, label, &c));
      if (Active(c)) continue;
      Entry* entries = entries_[current_].data();
      const Entry& parent = entries[b];
      Entry& child = entries[c];
      child.new_p.blank = LogZero<T>();
      const T previous = label == parent.label ? parent.old_p.blank : parent.old_p.total;
      child.new_p.label = logits[label] - norm + previous;
      child.new_p.total = child.new_p.label;
      if (is_candidate(child.new_p)) {
        if (leaves_.size() == static_cast<size_t>(beam_width_)) {
          // The bottom leaves the beam: it is no longer an active prefix.
          Entry& bottom = entries_[current_][leaves_.PeekBottom()];
          bottom.new_p = Probability{LogZero<T>(), LogZero<T>(), LogZero<T>()};
        }
        leaves_.Push(c);
      } else {
        child.old_p = Probability{LogZero<T>(), LogZero<T>(), LogZero<T>()};
        child.new_p = child.old_p;
      }
    }
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status CtcBeamSearch<T>::TopPaths(int n, bool merge_repeated, int64_t max_len,
                                        int32_t* labels, int64_t* lengths, T* log_probs) {
  if (n > beam_width_) {
    return errors::InvalidArgument("requested more paths than the beam width.");
  }
  if (static_cast<size_t>(n) > leaves_.size()) {
    return errors::InvalidArgument("Less leaves in the beam search than requested.");
  }
  Beam top(this, static_cast<size_t>(n));
  for (int32_t e : leaves_.Unsorted()) top.Push(e);
  top.Extract(&branches_);
  const Entry* entries = entries_[current_].data();
  for (int i = 0; i < n; ++i) {
    // Walk up to the root, then reverse; a label equal to the one after it is dropped when
    // merging repeats.
    int32_t* out = labels + i * max_len;
    int64_t count = 0;
    int32_t next_label = -1;
    for (int32_t e = branches_[i]; entries[e].parent >= 0; e = entries[e].parent) {
      if (count >= max_len) {
        return errors::Internal("a CTC beam prefix longer than the sequence");
      }
      if (!merge_repeated || entries[e].label != next_label) out[count++] = entries[e].label;
      next_label = entries[e].label;
    }
    std::reverse(out, out + count);
    lengths[i] = count;
    log_probs[i] = entries[branches_[i]].new_p.total;
  }
  return absl::OkStatus();
}

template class CtcBeamSearch<float>;
template class CtcBeamSearch<double>;

}  // namespace ctc
}  // namespace sluice
