// Output summaries: statistics streamed over the tensor's elements in place (an output may be
// most of memory, so nothing is copied), then top-k per row.
#include "tools/cli/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/cli/feeds.h"
#include "tools/cli/tensor_statistics.h"

namespace sluice {
namespace cli {
namespace {

constexpr int kFirstValues = 8;
constexpr int kTopK = 5;
constexpr int kTopRows = 3;

template <typename T>
ValueStats StatsOf(const T* data, int64_t count) {
  ValueStats stats;
  for (int64_t i = 0; i < count; ++i) {
    const double v = static_cast<double>(data[i]);
    if (std::isnan(v)) {
      ++stats.nans;
      continue;
    }
    stats.min = std::min(stats.min, v);
    stats.max = std::max(stats.max, v);
    stats.sum += v;
    ++stats.counted;
  }
  return stats;
}

// The top-k classes of one row of scores, best first (ties: the lower index first).
template <typename T>
std::string TopK(const T* scores, int64_t columns) {
  std::vector<int64_t> order(columns);
  std::iota(order.begin(), order.end(), 0);
  const int64_t k = std::min<int64_t>(kTopK, columns);
  auto score = [&](int64_t i) { return static_cast<double>(scores[i]); };
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
    return score(a) > score(b) || (score(a) == score(b) && a < b);
  });
  std::vector<std::string> parts;
  for (int64_t i = 0; i < k; ++i) {
    parts.push_back(absl::StrFormat("%d (%.4g)", order[i], score(order[i])));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

bool ComputeValueStats(const Tensor& tensor, ValueStats* stats) {
  *stats = ValueStats();
  return VisitRealElements(tensor,
                           [&](const auto* data) { *stats = StatsOf(data, tensor.NumElements()); });
}

std::string SummarizeOutput(const std::string& name, const Tensor& tensor) {
  std::string text =
      absl::StrCat(name, ": ", DataTypeString(tensor.dtype()), " ", ShapeString(tensor.shape()));
  ValueStats stats;
  if (tensor.NumElements() > 0 && ComputeValueStats(tensor, &stats)) {
    if (stats.counted > 0) {
      absl::StrAppendFormat(&text, "  min %.6g max %.6g mean %.6g", stats.min, stats.max,
                            stats.sum / static_cast<double>(stats.counted));
    }
    if (stats.nans > 0) absl::StrAppend(&text, "  (", stats.nans, " NaN)");
  }
  absl::StrAppend(&text, "\n  values: ", tensor.SummarizeValue(kFirstValues), "\n");
  if (DataTypeIsFloating(tensor.dtype()) && tensor.dims() == 2 && tensor.dim_size(1) >= 2 &&
      tensor.NumElements() > 0) {
    const int64_t rows = std::min<int64_t>(kTopRows, tensor.dim_size(0));
    const int64_t columns = tensor.dim_size(1);
    VisitRealElements(tensor, [&](const auto* data) {
      for (int64_t row = 0; row < rows; ++row) {
        absl::StrAppend(&text, "  top-", std::min<int64_t>(kTopK, columns), " row ", row, ": ",
                        TopK(data + row * columns, columns), "\n");
      }
    });
  }
  return text;
}

}  // namespace cli
}  // namespace sluice
