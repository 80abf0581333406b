#include "runtime/debug/debug_numerics.h"

#include <cmath>
#include <cstdint>

#include "graph/core/real_elements.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace {

// Every element read as TensorFlow's kernels read it: converted to double first.
template <typename T>
double AsDouble(T value) {
  return static_cast<double>(value);
}
template <>
double AsDouble(half value) {
  return static_cast<double>(static_cast<float>(value));
}
template <>
double AsDouble(bfloat16 value) {
  return static_cast<double>(static_cast<float>(value));
}

struct Counts {
  int64_t nan = 0;
  int64_t negative_inf = 0;
  int64_t negative = 0;
  int64_t zero = 0;
  int64_t positive = 0;
  int64_t positive_inf = 0;
  int64_t finite = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double mean = std::numeric_limits<double>::quiet_NaN();
  double variance = std::numeric_limits<double>::quiet_NaN();
};

template <typename T>
void Summarize(const T* data, int64_t count, const NumericSummaryBounds& bounds, Counts* c) {
  // TensorFlow tests the bounds only when they are not infinite (a NaN bound is "custom",
  // and then matches nothing).
  const bool custom_lower = !std::isinf(bounds.lower);
  const bool custom_upper = !std::isinf(bounds.upper);
  double sum = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double x = AsDouble(data[i]);
    if (std::isnan(x)) {
      ++c->nan;
      continue;
    }
    if (std::isinf(x)) {
      ++(x < 0 ? c->negative_inf : c->positive_inf);
      continue;
    }
    if (custom_lower && x <= bounds.lower) {
      ++c->negative_inf;
    } else if (custom_upper && x >= bounds.upper) {
      ++c->positive_inf;
    } else if (x < 0) {
      ++c->negative;
    } else if (x > 0) {
      ++c->positive;
    } else {
      ++c->zero;
    }
    // Plain comparisons, as TensorFlow's: a -0.0 after a 0.0 leaves min at 0.0.
    if (x < c->min) c->min = x;
    if (x > c->max) c->max = x;
    ++c->finite;
    sum += x;
  }
  if (c->finite == 0) return;
  c->mean = sum / static_cast<double>(c->finite);
  double squares = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double x = AsDouble(data[i]);
    if (std::isnan(x) || std::isinf(x)) continue;
    squares += (x - c->mean) * (x - c->mean);
  }
  c->variance = squares / static_cast<double>(c->finite);
}

}  // namespace

bool HasNanCount(DataType dtype) {
  if (dtype == DT_HALF || dtype == DT_BFLOAT16) return true;
  return dtype != DT_BOOL && HasNumericSummary(dtype);
}

bool HasNumericSummary(DataType dtype) {
  switch (dtype) {
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_INT8:
    case DT_INT16:
    case DT_INT32:
    case DT_INT64:
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32:
    case DT_UINT64:
    case DT_BOOL:
      return true;
    default:
      return false;
  }
}

Tensor DebugNanCount(const Tensor& value) {
  int64_t nans = 0;
  VisitRealElements(value, [&](const auto* data) {
    for (int64_t i = 0; i < value.NumElements(); ++i) {
      if (std::isnan(AsDouble(data[i]))) ++nans;
    }
  });
  Tensor count(DT_INT64, TensorShape({1}));
  count.flat<int64_t>()(0) = nans;
  return count;
}

Tensor DebugNumericSummary(const Tensor& value, const NumericSummaryBounds& bounds) {
  Counts c;
  VisitRealElements(value,
                    [&](const auto* data) { Summarize(data, value.NumElements(), bounds, &c); });
  const int dims = value.dims();
  Tensor summary(DT_DOUBLE, TensorShape({14 + dims}));
  double* out = summary.flat<double>().data();
  out[0] = 1;
  out[1] = static_cast<double>(value.NumElements());
  out[2] = static_cast<double>(c.nan);
  out[3] = static_cast<double>(c.negative_inf);
  out[4] = static_cast<double>(c.negative);
  out[5] = static_cast<double>(c.zero);
  out[6] = static_cast<double>(c.positive);
  out[7] = static_cast<double>(c.positive_inf);
  out[8] = c.min;
  out[9] = c.max;
  out[10] = c.mean;
  out[11] = c.variance;
  out[12] = static_cast<double>(value.dtype());
  out[13] = static_cast<double>(dims);
  for (int d = 0; d < dims; ++d) out[14 + d] = static_cast<double>(value.dim_size(d));
  return summary;
}

bool IsHealthySummary(const Tensor& summary) {
  const auto s = summary.flat<double>();
  return s.size() >= 8 && s(2) == 0 && s(3) == 0 && s(7) == 0;
}

}  // namespace sluice
