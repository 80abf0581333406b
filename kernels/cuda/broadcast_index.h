// BroadcastIndex: how two operands broadcast against each other (numpy rules, as TensorFlow's
// BCast), reduced to at most kMaxDims dims, with each operand's element stride per dim (0
// where it is broadcast), so that a kernel thread maps an output index to both input offsets.
//
// MakeBroadcastIndex right-aligns the shapes; each dim pair must be equal or contain a 1. It
// writes the full output shape, then collapses: output dims of 1 are dropped and neighbouring
// dims along which each operand is broadcast (or not) alike are merged, so [8,4,5] + [4,5] is
// [8,20] with x strides {20,1} and y strides {0,1}, and [2,1,3] + [4,1] is [2,4,3] with x
// strides {3,0,1} and y strides {0,1,0}. An empty output is not merged (nothing is launched
// for it): its index holds num_elements 0 and the defaults.
//
// Plain C++ with no dependencies: the host plans (MakeBroadcastIndex), the index travels to the
// device by value in a kernel's arguments, and Offsets runs in host or device code.
#ifndef SLUICE_KERNELS_CUDA_BROADCAST_INDEX_H_
#define SLUICE_KERNELS_CUDA_BROADCAST_INDEX_H_

#include <cstdint>

#include "kernels/cuda/half_bits.h"  // SLUICE_HOST_DEVICE

namespace sluice {
namespace cuda {

struct BroadcastIndex {
  // More merged dims than this are refused (kTooManyDims); TensorFlow's GPU kernels refuse
  // more than 5.
  static constexpr int kMaxDims = 8;

  // Merged dims, outermost first; at least one (a single-element output is one dim of 1).
  int rank = 1;
  int64_t dims[kMaxDims] = {1};
  // strides[k][d]: operand k's (0: x, 1: y) element stride along merged dim d.
  int64_t strides[2][kMaxDims] = {};
  // Elements of the output.
  int64_t num_elements = 1;

  // The offsets into x and y of output element i (0 <= i < num_elements). I is int64_t, or a
  // narrower integer when num_elements fits it (cheaper division on a GPU).
  template <typename I>
  SLUICE_HOST_DEVICE void Offsets(I i, I* x, I* y) const {
    I xo = 0;
    I yo = 0;
    for (int d = rank - 1; d > 0; --d) {
      const I size = static_cast<I>(dims[d]);
      const I coord = i % size;
      i /= size;
      xo += coord * static_cast<I>(strides[0][d]);
      yo += coord * static_cast<I>(strides[1][d]);
    }
    *x = xo + i * static_cast<I>(strides[0][0]);
    *y = yo + i * static_cast<I>(strides[1][0]);
  }
};

enum class BroadcastResult {
  kOk,
  // Some dim pair is neither equal nor 1, or the output would have 2^63 elements or more.
  kIncompatible,
  // More than kMaxDims dims remain after merging.
  kTooManyDims,
};

// Plans x (x_rank dims) against y (y_rank dims). On kOk, out_shape[0, max(x_rank, y_rank))
// holds the output's shape and *index the merged dims and strides; on kTooManyDims the
// output shape is still written. REQUIRES: dims are non-negative; out_shape has room for
// max(x_rank, y_rank) entries.
inline BroadcastResult MakeBroadcastIndex(const int64_t* x, int x_rank, const int64_t* y,
                                          int y_rank, int64_t* out_shape, BroadcastIndex* index) {
  const int rank = x_rank > y_rank ? x_rank : y_rank;
  bool has_zero = false;
  for (int d = 0; d < rank; ++d) {
    const int64_t xd = d >= rank - x_rank ? x[d - (rank - x_rank)] : 1;
    const int64_t yd = d >= rank - y_rank ? y[d - (rank - y_rank)] : 1;
    if (xd != yd && xd != 1 && yd != 1) return BroadcastResult::kIncompatible;
    out_shape[d] = xd == 1 ? yd : xd;
    has_zero |= out_shape[d] == 0;
  }
  *index = BroadcastIndex();
  if (has_zero) {
    index->num_elements = 0;
    return BroadcastResult::kOk;
  }
  int64_t num_elements = 1;
  for (int d = 0; d < rank; ++d) {
    if (num_elements > INT64_MAX / out_shape[d]) return BroadcastResult::kIncompatible;
    num_elements *= out_shape[d];
  }

  // Merge, innermost first, into dims[kMaxDims - merged, kMaxDims); then shift to the front.
  int64_t dims[BroadcastIndex::kMaxDims];
  bool varies[2][BroadcastIndex::kMaxDims];
  int merged = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int64_t size = out_shape[d];
    if (size == 1) continue;  // no operand moves along it
    const bool xv = d >= rank - x_rank && x[d - (rank - x_rank)] != 1;
    const bool yv = d >= rank - y_rank && y[d - (rank - y_rank)] != 1;
    if (merged > 0 && varies[0][BroadcastIndex::kMaxDims - merged] == xv &&
        varies[1][BroadcastIndex::kMaxDims - merged] == yv) {
      dims[BroadcastIndex::kMaxDims - merged] *= size;
      continue;
    }
    if (merged == BroadcastIndex::kMaxDims) return BroadcastResult::kTooManyDims;
    ++merged;
    dims[BroadcastIndex::kMaxDims - merged] = size;
    varies[0][BroadcastIndex::kMaxDims - merged] = xv;
    varies[1][BroadcastIndex::kMaxDims - merged] = yv;
  }

  index->num_elements = num_elements;
  if (merged == 0) return BroadcastResult::kOk;  // one element: the defaults
  index->rank = merged;
  int64_t step[2] = {1, 1};
  for (int d = merged - 1; d >= 0; --d) {
    const int from = BroadcastIndex::kMaxDims - merged + d;
    index->dims[d] = dims[from];
    for (int k = 0; k < 2; ++k) {
      index->strides[k][d] = varies[k][from] ? step[k] : 0;
      if (varies[k][from]) step[k] *= dims[from];
    }
  }
  return BroadcastResult::kOk;
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_BROADCAST_INDEX_H_
