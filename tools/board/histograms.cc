#include "tools/board/histograms.h"

#include <algorithm>
#include <cmath>

#include "graph/core/errors.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace board {
namespace {

// The bucket of `edges` holding v, values outside going to the first or last.
int BucketOf(double v, const std::vector<double>& edges) {
  const int buckets = static_cast<int>(edges.size()) - 1;
  // upper_bound finds the first edge above v; the bucket starts one edge before.
  const int k = static_cast<int>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
  return std::min(std::max(k - 1, 0), buckets - 1);
}

}  // namespace

std::vector<double> BucketEdges(double lo, double hi, int buckets) {
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  std::vector<double> edges(buckets + 1);
  const double width = (hi - lo) / buckets;
  for (int k = 0; k <= buckets; ++k) {
    // lo + k * width keeps round ranges round ([-0.5, 2.5] in 3: -0.5, 0.5, 1.5, 2.5); where
    // hi - lo overflows, each edge comes from both ends' fractions instead.
    const double t = static_cast<double>(k) / buckets;
    edges[k] = std::isfinite(width) ? lo + k * width : lo * (1 - t) + hi * t;
  }
  edges[buckets] = hi;
  return edges;
}

std::vector<double> CountValues(const Tensor& tensor, const std::vector<double>& edges) {
  std::vector<double> counts(edges.size() - 1, 0);
  VisitRealElements(tensor, [&](const auto* data) {
    for (int64_t i = 0; i < tensor.NumElements(); ++i) {
      const double v = static_cast<double>(data[i]);
      if (std::isfinite(v)) counts[BucketOf(v, edges)] += 1;
    }
  });
  return counts;
}

std::vector<Bucket> BucketsOf(const HistogramProto& histogram) {
  std::vector<Bucket> buckets;
  const int n = std::min(histogram.bucket_size(), histogram.bucket_limit_size());
  const double lo = histogram.min();
  const double hi = std::max(histogram.min(), histogram.max());
  for (int i = 0; i < n; ++i) {
    if (!(histogram.bucket(i) > 0)) continue;
    Bucket bucket;
    bucket.left = i == 0 ? lo : std::min(std::max(histogram.bucket_limit(i - 1), lo), hi);
    bucket.right = std::min(std::max(histogram.bucket_limit(i), bucket.left), hi);
    bucket.count = histogram.bucket(i);
    buckets.push_back(bucket);
  }
  return buckets;
}

absl::StatusOr<std::vector<Bucket>> BucketsOfTensor(const Tensor& tensor) {
  if (tensor.dims() != 2 || tensor.dim_size(1) != 3 ||
      (tensor.dtype() != DT_FLOAT && tensor.dtype() != DT_DOUBLE)) {
    return errors::InvalidArgument("a histogram tensor is float or double [k, 3], not ",
                                   DataTypeString(tensor.dtype()), " ",
                                   tensor.shape().DebugString());
  }
  std::vector<Bucket> buckets;
  VisitRealElements(tensor, [&](const auto* data) {
    for (int64_t row = 0; row < tensor.dim_size(0); ++row) {
      Bucket bucket{static_cast<double>(data[3 * row]), static_cast<double>(data[3 * row + 1]),
                    static_cast<double>(data[3 * row + 2])};
      if (std::isfinite(bucket.left) && std::isfinite(bucket.right) && bucket.count > 0) {
        if (bucket.right < bucket.left) bucket.right = bucket.left;
        buckets.push_back(bucket);
      }
    }
  });
  return buckets;
}

std::vector<double> Rebucket(const std::vector<Bucket>& buckets, const std::vector<double>& edges) {
  const int n = static_cast<int>(edges.size()) - 1;
  std::vector<double> counts(n, 0);
  for (const Bucket& bucket : buckets) {
    const double width = bucket.right - bucket.left;
    if (!(width > 0) || !std::isfinite(width)) {
      counts[BucketOf(bucket.left, edges)] += bucket.count;
      continue;
    }
    // The outer shared buckets reach to the infinities, so what lies beyond the shared range
    // (rounding at its ends) is counted at the nearest end.
    for (int k = BucketOf(bucket.left, edges); k < n; ++k) {
      const double lo = k == 0 ? -HUGE_VAL : edges[k];
      const double hi = k == n - 1 ? HUGE_VAL : edges[k + 1];
      if (lo >= bucket.right) break;
      const double overlap = std::min(bucket.right, hi) - std::max(bucket.left, lo);
      if (overlap > 0) counts[k] += bucket.count * overlap / width;
    }
  }
  // Shares of a bucket that lies inside one shared bucket only by rounding come out as
  // 10.999999999999996 here and 4e-15 there: counts that close to a whole number are it.
  double total = 0;
  for (const Bucket& bucket : buckets) total += bucket.count;
  const double dust = 1e-9 * std::max(total, 1.0);
  for (double& count : counts) {
    if (std::abs(count - std::round(count)) < dust) count = std::round(count);
  }
  return counts;
}

}  // namespace board
}  // namespace sluice
