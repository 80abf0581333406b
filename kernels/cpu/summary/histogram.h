// The histogram HistogramSummary records: TensorFlow's default buckets and its encoding, so that
// Sluice's summaries are TensorFlow's to the byte.
//
// Buckets. The limits are the growth series v_0 = 1e-12, v_{k+1} = v_k * 1.1 (each product
// rounded to double, as TensorFlow computes it) for every v_k < 1e20, then DBL_MAX; the same
// negated, in increasing order; and 0 between them: -DBL_MAX, -v_n, ..., -v_0, 0, v_0, ...,
// v_n, DBL_MAX (1551 limits). Bucket i counts the values in [limit[i-1], limit[i]) (bucket 0
// those below -DBL_MAX, so none): a value equal to a limit goes to the bucket above it.
//
// One difference from TensorFlow: DBL_MAX itself (and +infinity) has no bucket above it;
// TensorFlow's kernel then writes past its array (it crashes or corrupts its heap), Sluice
// counts it in the last bucket.
//
// Encoding (EncodeToProto): min, max, num, sum and sum_squares, then one (limit, count) pair per
// non-empty bucket; a run of empty buckets becomes one pair (the run's last limit, 0). An empty
// histogram is min DBL_MAX, max -DBL_MAX and the single pair (DBL_MAX, 0).
//
// Not thread-safe; cheap to build (the limits are computed once per process).
#ifndef SLUICE_KERNELS_CPU_SUMMARY_HISTOGRAM_H_
#define SLUICE_KERNELS_CPU_SUMMARY_HISTOGRAM_H_

#include <vector>

#include "proto/summary.pb.h"

namespace sluice {
namespace summary {

class Histogram {
 public:
  Histogram();

  // Counts `value`, which must not be NaN (its bucket is undefined; the kernel refuses NaN
  // before adding).
  void Add(double value);

  // Overwrites `proto` with the encoding above.
  void EncodeToProto(HistogramProto* proto) const;

  // The default bucket limits, in increasing order.
  static const std::vector<double>& DefaultBucketLimits();

 private:
  const std::vector<double>& limits_;
  std::vector<double> counts_;
  double min_;
  double max_;
  double num_ = 0;
  double sum_ = 0;
  double sum_squares_ = 0;
};

}  // namespace summary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SUMMARY_HISTOGRAM_H_
