// The checks the sorted segment ops (Segment*, SparseSegment*) share: walking runs of equal
// ids, and TensorFlow's errors for ids that decrease or leave [0, rows).
#ifndef SLUICE_KERNELS_CPU_SEGMENT_SEGMENT_IDS_H_
#define SLUICE_KERNELS_CPU_SEGMENT_SEGMENT_IDS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/types.h"

namespace sluice {
namespace segment {

// One run of equal ids: positions [start, end) all hold `id`.
struct Run {
  int64_t start = 0;
  int64_t end = 0;
  int64_t id = 0;
};

// The run starting at `start` of ids[0, n); REQUIRES start < n. INVALID_ARGUMENT, as
// TensorFlow's, when the next run's id is not larger or this run's id is not in [0, rows).
absl::Status NextRun(const int64_t* ids, int64_t n, int64_t start, int64_t rows, Run* run);

// last + 1 in the ids' own type, as TensorFlow computes the row count: the largest id of a
// type wraps to that type's lowest value (and so is refused as negative).
int64_t LastIdPlusOne(int64_t last, DataType ids_dtype);

}  // namespace segment
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SEGMENT_SEGMENT_IDS_H_
