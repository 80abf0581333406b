// Range's element count, shared by its shape function and its kernel so that both accept and
// reject the same ranges. The count must fit int64: an int64 range from INT64_MIN to
// INT64_MAX by 1, or a float range of 2**63 steps, does not, and would otherwise be cast to a
// negative size.
#ifndef SLUICE_GRAPH_OPS_RANGE_COUNT_H_
#define SLUICE_GRAPH_OPS_RANGE_COUNT_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "graph/core/errors.h"

namespace sluice {

// ceil(|limit - start| / |delta|) into *count. The caller has checked that delta != 0 and that
// its sign leads from start to limit. INVALID_ARGUMENT when the count is 2**63 or more, or
// NaN.
template <typename T>
absl::Status RangeCount(T start, T limit, T delta, int64_t* count) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if constexpr (std::is_integral_v<T>) {
    // In uint64 arithmetic (sign-extended), where limit - start cannot overflow.
    const uint64_t span = start <= limit
                              ? static_cast<uint64_t>(limit) - static_cast<uint64_t>(start)
                              : static_cast<uint64_t>(start) - static_cast<uint64_t>(limit);
    const uint64_t step =
        delta < 0 ? uint64_t{0} - static_cast<uint64_t>(delta) : static_cast<uint64_t>(delta);
    const uint64_t n = span / step + (span % step != 0 ? 1 : 0);
    if (n > static_cast<uint64_t>(kMax)) {
      return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", kMax);
    }
    *count = static_cast<int64_t>(n);
  } else {
    const double n = std::ceil(std::abs(static_cast<double>(T((limit - start) / delta))));
    // 2**63 itself does not fit (kMax rounds up to it as a double); `!(n < 2**63)` also
    // rejects NaN.
    if (!(n < 9223372036854775808.0)) {
      return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", kMax);
    }
    *count = static_cast<int64_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_RANGE_COUNT_H_
