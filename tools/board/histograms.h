// Histograms of every step of a tag over one shared set of buckets, for the board's "offset"
// view (each step's histogram drawn above the last, as TensorBoard draws them).
//
// Tensors: CountValues puts a tensor's finite values into buckets whose edges come from
// BucketEdges over the range of every step's finite values (NaN and infinities are counted
// apart, by the caller, from the statistics). Histogram summaries: their buckets, each
// (left, right] with a count, are spread over the shared edges in proportion to how much of
// each shared bucket they cover (Rebucket), as TensorBoard re-buckets for its own charts.
//
// Pure functions; no errors but BucketsOfTensor's (a tensor that is not a [k, 3] histogram).
#ifndef SLUICE_TOOLS_BOARD_HISTOGRAMS_H_
#define SLUICE_TOOLS_BOARD_HISTOGRAMS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "graph/core/tensor.h"
#include "proto/summary.pb.h"

namespace sluice {
namespace board {

inline constexpr int kDefaultBuckets = 30;
inline constexpr int kMaxBuckets = 500;

// buckets + 1 ascending edges of equal-width buckets from lo to hi. A range of a single value
// (lo == hi) is widened to [lo - 0.5, lo + 0.5] so its values have a bucket of some width.
// REQUIRES: lo <= hi, both finite; 1 <= buckets <= kMaxBuckets.
std::vector<double> BucketEdges(double lo, double hi, int buckets);

// Counts of `tensor`'s finite values per bucket of `edges`; values outside the edges count in
// the first or last bucket. Non-numeric dtypes count nothing (the caller refuses them first).
std::vector<double> CountValues(const Tensor& tensor, const std::vector<double>& edges);

struct Bucket {
  double left = 0;
  double right = 0;
  double count = 0;
};

// A HistogramProto's non-empty buckets with both edges, the outer ones cut to [min, max]
// (its first bucket starts at -DBL_MAX and its last ends at DBL_MAX).
std::vector<Bucket> BucketsOf(const HistogramProto& histogram);
// TensorFlow 2's histogram tensors: a [k, 3] tensor of (left, right, count) rows.
// INVALID_ARGUMENT for another shape or a non-float dtype.
absl::StatusOr<std::vector<Bucket>> BucketsOfTensor(const Tensor& tensor);

// `buckets` spread over `edges`: a bucket's count is shared among the shared buckets it
// overlaps, in proportion to the overlap; a bucket of zero width adds to the one holding it;
// a part beyond the edges counts in the first or last bucket. Counts within 1e-9 of the
// total of a whole number are that number (rounding of the shares, not data).
std::vector<double> Rebucket(const std::vector<Bucket>& buckets, const std::vector<double>& edges);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_HISTOGRAMS_H_
