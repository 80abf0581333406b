// TensorFlow's CTC beam search with its default scorer, as CTCBeamSearchDecoder runs it: one
// sequence at a time, step by step, keeping the beam_width most probable label prefixes, each
// with the probability of ending in a blank and of ending in its last label.
//
// Step(logits) normalises the step's logits by their log-sum-exp, then updates every prefix in
// the beam (a prefix extends itself through a blank or a repeat of its last label), then offers
// every extension of a prefix by one non-blank label that is not already in the beam. Which
// prefixes survive, and in which order equal ones come out, depends on the order in which they
// are offered and on the bounded top-n container TensorFlow keeps them in (unordered until
// full, then a heap; the smallest found by a scan that moves it to the front). Beam below
// reproduces that container operation by operation, over the same standard heap and sort
// algorithms, so that ties resolve as in TensorFlow.
//
// Prefixes form a tree of entries (parent, label) in a pool from the device's allocator that
// grows as the search creates them; an open-addressing table finds a prefix's child by label.
#ifndef SLUICE_KERNELS_CPU_CTC_CTC_BEAM_SEARCH_H_
#define SLUICE_KERNELS_CPU_CTC_CTC_BEAM_SEARCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace ctc {

template <typename T>
class CtcBeamSearch {
 public:
  // REQUIRES: num_classes >= 1 (the last class is the blank), beam_width >= 1.
  CtcBeamSearch(OpKernelContext* ctx, int num_classes, int beam_width);

  // Starts a new sequence: the beam holds the empty prefix with probability 1.
  absl::Status Reset();

  // Advances every prefix by one step of num_classes logits.
  absl::Status Step(const T* logits);

  // The n most probable prefixes, best first: labels (repeats merged when merge_repeated) into
  // labels[i * max_len ...], their count into lengths[i], their log-probability into
  // log_probs[i]. TensorFlow's errors when n exceeds the beam width or the prefixes in the beam.
  absl::Status TopPaths(int n, bool merge_repeated, int64_t max_len, int32_t* labels,
                        int64_t* lengths, T* log_probs);

 private:
  struct Probability {
    T total;
    T blank;
    T label;
  };
  struct Entry {
    int32_t parent;  // -1 for the root
    int32_t label;   // -1 for the root
    Probability old_p;
    Probability new_p;
  };

  // The bounded best-first container of entry indices (TensorFlow's gtl::TopN).
  class Beam {
   public:
    Beam(const CtcBeamSearch* search, size_t limit) : search_(search), limit_(limit) {}
    size_t size() const { return elements_.size(); }
    void Push(int32_t entry);
    int32_t PeekBottom();
    // Moves the entries out, best first, leaving the container empty.
    void Extract(std::vector<int32_t>* out);
    const std::vector<int32_t>& Unsorted() const { return elements_; }
    void Clear();

   private:
    enum State { kUnordered, kBottomKnown, kHeapSorted };
    bool Greater(int32_t a, int32_t b) const;

    const CtcBeamSearch* search_;
    size_t limit_;
    std::vector<int32_t> elements_;  // at most limit_ + 1: beam_width is an attr
    State state_ = kUnordered;
  };

  bool Active(int32_t e) const;
  // The child of `parent` for `label`, made (all probabilities log(0)) when there is none.
  absl::Status Child(int32_t parent, int32_t label, int32_t* child);
  absl::Status Grow();

  OpKernelContext* ctx_;
  int num_classes_;
  int beam_width_;
  Beam leaves_;
  std::vector<int32_t> branches_;  // at most beam_width: an attr

  // The pool of entries and the child table; each pair alternates between two arrays as it
  // grows (the new one filled from the old).
  ScratchArray<Entry> entries_[2];
  int current_ = 0;
  int64_t num_entries_ = 0;
  int64_t capacity_ = 0;
  ScratchArray<int32_t> table_[2];  // entry index or -1; 2 * capacity_ slots
};

}  // namespace ctc
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CTC_CTC_BEAM_SEARCH_H_
