#include "kernels/cpu/segment/segment_ids.h"

#include <limits>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"

namespace sluice {
namespace segment {

absl::Status NextRun(const int64_t* ids, int64_t n, int64_t start, int64_t rows, Run* run) {
  run->start = start;
  run->id = ids[start];
  run->end = start + 1;
  while (run->end < n && ids[run->end] == run->id) ++run->end;
  if (run->end < n && ids[run->end] < run->id) {
    return errors::InvalidArgument("segment ids are not increasing");
  }
  if (run->id < 0 || run->id >= rows) {
    return errors::InvalidArgument("Segment id ", run->id, " out of range [0, ", rows,
                                   "), possibly because 'segment_ids' input is not sorted.");
  }
  return absl::OkStatus();
}

int64_t LastIdPlusOne(int64_t last, DataType ids_dtype) {
  if (last == MaxIndexValue(ids_dtype)) {
    return ids_dtype == DT_INT32 ? std::numeric_limits<int32_t>::min()
                                 : std::numeric_limits<int64_t>::min();
  }
  return last + 1;
}

}  // namespace segment
}  // namespace sluice
