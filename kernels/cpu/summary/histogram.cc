#include "kernels/cpu/summary/histogram.h"

#include <algorithm>
#include <cfloat>
#include <vector>

namespace sluice {
namespace summary {
namespace {

std::vector<double> MakeDefaultBucketLimits() {
  // The positive limits by repeated multiplication, not by pow(): TensorFlow's values are the
  // rounded products, and pow() would differ in the last bits.
  std::vector<double> positive;
  for (double v = 1.0e-12; v < 1.0e20; v *= 1.1) positive.push_back(v);
  positive.push_back(DBL_MAX);

  std::vector<double> limits;
  // heap-ok: a constant table of 1551 limits, made once
  limits.reserve(2 * positive.size() + 1);
  for (auto it = positive.rbegin(); it != positive.rend(); ++it) limits.push_back(-*it);
  limits.push_back(0.0);
  // heap-ok: a constant table of 1551 limits, made once
  limits.insert(limits.end(), positive.begin(), positive.end());
  return limits;
}

}  // namespace

const std::vector<double>& Histogram::DefaultBucketLimits() {
  // heap-ok: a constant table of 1551 limits, made once
  static const std::vector<double>* const limits =
      new std::vector<double>(MakeDefaultBucketLimits());
  return *limits;
}

Histogram::Histogram()
    : limits_(DefaultBucketLimits()),
      counts_(limits_.size(), 0.0),
      min_(limits_.back()),
      max_(-DBL_MAX) {}

void Histogram::Add(double value) {
  size_t bucket = std::upper_bound(limits_.begin(), limits_.end(), value) - limits_.begin();
  // Only DBL_MAX and +infinity are not below the last limit; see the header.
  if (bucket == limits_.size()) bucket = limits_.size() - 1;
  counts_[bucket] += 1.0;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  num_ += 1.0;
  sum_ += value;
  sum_squares_ += value * value;
}

void Histogram::EncodeToProto(HistogramProto* proto) const {
  proto->Clear();
  proto->set_min(min_);
  proto->set_max(max_);
  proto->set_num(num_);
  proto->set_sum(sum_);
  proto->set_sum_squares(sum_squares_);
  size_t i = 0;
  while (i < counts_.size()) {
    double limit = limits_[i];
    const double count = counts_[i];
    ++i;
    if (count <= 0.0) {
      // A run of empty buckets is one pair ending at the run's last limit.
      while (i < counts_.size() && counts_[i] <= 0.0) limit = limits_[i++];
    }
    proto->add_bucket_limit(limit);
    proto->add_bucket(count);
  }
}

}  // namespace summary
}  // namespace sluice
