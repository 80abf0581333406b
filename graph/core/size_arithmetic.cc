#include "graph/core/size_arithmetic.h"

#include <limits>

namespace sluice {

int64_t AddWithoutOverflow(int64_t x, int64_t y) {
  if (x < 0 || y < 0) return -1;
  if (x > std::numeric_limits<int64_t>::max() - y) return -1;
  return x + y;
}

}  // namespace sluice
