#include "tools/cli/tensor_statistics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sluice {
namespace cli {
namespace {

// Welford's update keeps the deviation accurate where sum-of-squares would cancel.
template <typename T>
void Accumulate(const T* data, int64_t count, TensorStatistics* s) {
  double mean = 0;
  double m2 = 0;
  double min = 0;
  double max = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double v = static_cast<double>(data[i]);
    if (std::isnan(v)) {
      ++s->nans;
      continue;
    }
    if (std::isinf(v)) {
      ++(v > 0 ? s->positive_infinities : s->negative_infinities);
      continue;
    }
    if (v == 0) ++s->zeros;
    if (finite == 0) {
      min = max = v;
    } else {
      min = std::min(min, v);
      max = std::max(max, v);
    }
    ++finite;
    const double delta = v - mean;
    mean += delta / static_cast<double>(finite);
    m2 += delta * (v - mean);
  }
  s->finite = finite;
  if (finite > 0) {
    s->min = min;
    s->max = max;
    s->mean = mean;
    s->std = std::sqrt(m2 / static_cast<double>(finite));
  }
}

}  // namespace

bool CanBeNonFinite(DataType dtype) {
  return dtype == DT_FLOAT || dtype == DT_DOUBLE || dtype == DT_HALF || dtype == DT_BFLOAT16;
}

TensorStatistics ComputeTensorStatistics(const Tensor& tensor) {
  TensorStatistics s;
  s.dtype = tensor.dtype();
  s.shape = tensor.shape();
  s.elements = tensor.NumElements();
  s.has_values = VisitRealElements(
      tensor, [&](const auto* data) { Accumulate(data, tensor.NumElements(), &s); });
  return s;
}

std::string TensorStatistics::DebugString() const {
  std::string text = absl::StrCat(DataTypeString(dtype), " ", shape.DebugString());
  if (!has_values) return text;
  if (finite > 0) {
    absl::StrAppendFormat(&text, " min %.6g max %.6g mean %.6g std %.6g", min, max, mean, std);
  }
  std::vector<std::string> odd;
  if (nans > 0) odd.push_back(absl::StrCat(nans, " NaN"));
  if (positive_infinities > 0) odd.push_back(absl::StrCat(positive_infinities, " +Inf"));
  if (negative_infinities > 0) odd.push_back(absl::StrCat(negative_infinities, " -Inf"));
  if (!odd.empty()) absl::StrAppend(&text, " (", absl::StrJoin(odd, ", "), ")");
  return text;
}

}  // namespace cli
}  // namespace sluice
