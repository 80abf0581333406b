// Output summaries: statistics over the elements as doubles, then top-k per row.
#include "tools/cli/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/cli/feeds.h"

namespace sluice {
namespace cli {
namespace {

constexpr int kFirstValues = 8;
constexpr int kTopK = 5;
constexpr int kTopRows = 3;

template <typename T>
void Append(const Tensor& tensor, std::vector<double>* values) {
  const T* data = tensor.base<T>();
  for (int64_t i = 0; i < tensor.NumElements(); ++i) {
    values->push_back(static_cast<double>(data[i]));
  }
}

std::string TopK(const std::vector<double>& values, int64_t row, int64_t columns) {
  std::vector<int64_t> order(columns);
  std::iota(order.begin(), order.end(), 0);
  const double* scores = values.data() + row * columns;
  const int64_t k = std::min<int64_t>(kTopK, columns);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
    return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
  });
  std::vector<std::string> parts;
  for (int64_t i = 0; i < k; ++i) {
    parts.push_back(absl::StrFormat("%d (%.4g)", order[i], scores[order[i]]));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

bool ValuesAsDoubles(const Tensor& tensor, std::vector<double>* values) {
  switch (tensor.dtype()) {
    case DT_FLOAT:
      Append<float>(tensor, values);
      return true;
    case DT_DOUBLE:
      Append<double>(tensor, values);
      return true;
    case DT_HALF:
      Append<half>(tensor, values);
      return true;
    case DT_BFLOAT16:
      Append<bfloat16>(tensor, values);
      return true;
    case DT_INT8:
      Append<int8_t>(tensor, values);
      return true;
    case DT_INT16:
      Append<int16_t>(tensor, values);
      return true;
    case DT_INT32:
      Append<int32_t>(tensor, values);
      return true;
    case DT_INT64:
      Append<int64_t>(tensor, values);
      return true;
    case DT_UINT8:
      Append<uint8_t>(tensor, values);
      return true;
    case DT_UINT16:
      Append<uint16_t>(tensor, values);
      return true;
    case DT_UINT32:
      Append<uint32_t>(tensor, values);
      return true;
    case DT_UINT64:
      Append<uint64_t>(tensor, values);
      return true;
    case DT_BOOL:
      Append<bool>(tensor, values);
      return true;
    default:
      return false;
  }
}

std::string SummarizeOutput(const std::string& name, const Tensor& tensor) {
  std::string text =
      absl::StrCat(name, ": ", DataTypeString(tensor.dtype()), " ", ShapeString(tensor.shape()));
  std::vector<double> values;
  if (tensor.NumElements() > 0 && ValuesAsDoubles(tensor, &values)) {
    double min = std::numeric_limits<double>::infinity();
    double max = -min, sum = 0;
    int64_t nans = 0;
    for (double v : values) {
      if (std::isnan(v)) {
        ++nans;
        continue;
      }
      min = std::min(min, v);
      max = std::max(max, v);
      sum += v;
    }
    const int64_t counted = static_cast<int64_t>(values.size()) - nans;
    if (counted > 0) {
      absl::StrAppendFormat(&text, "  min %.6g max %.6g mean %.6g", min, max, sum / counted);
    }
    if (nans > 0) absl::StrAppend(&text, "  (", nans, " NaN)");
  }
  absl::StrAppend(&text, "\n  values: ", tensor.SummarizeValue(kFirstValues), "\n");
  const bool floating = DataTypeIsFloating(tensor.dtype());
  if (floating && tensor.dims() == 2 && tensor.dim_size(1) >= 2 && !values.empty()) {
    const int64_t rows = std::min<int64_t>(kTopRows, tensor.dim_size(0));
    for (int64_t row = 0; row < rows; ++row) {
      absl::StrAppend(&text, "  top-", std::min<int64_t>(kTopK, tensor.dim_size(1)), " row ", row,
                      ": ", TopK(values, row, tensor.dim_size(1)), "\n");
    }
  }
  return text;
}

}  // namespace cli
}  // namespace sluice
