// Python-style indices of a tensor, as a person types them in the board's index box:
// "[0, :, 2:5, 1]", "2:5", ":", "::2", "-1", "..., 0", "" (everything).
//
// ParseIndex reads the text: items separated by commas, optionally inside one pair of
// brackets, each an integer, a slice start:stop[:step] (any part may be empty) or "..."
// (Ellipsis, at most once). Integers are decimal with an optional sign. A trailing comma is
// allowed, as in Python ("0," is the same as "0").
//
// ResolveIndex applies the items to a shape with NumPy's rules: an integer picks one position
// and drops the dimension (negative counts from the end; out of range is an error, as NumPy's
// IndexError); a slice keeps it, clamped to the dimension as Python clamps (negative steps
// walk backwards; a step of 0 is an error); "..." stands for as many full slices as the
// other items leave; dimensions after the last item are kept whole.
//
// Every error is INVALID_ARGUMENT with a message meant for the person who typed the index,
// quoting the offending item ("'2:x' is not an index: 'x' is not an integer", "index 5 is out
// of range for dimension 1 of size 3", "too many indices: the tensor has rank 2, the index
// has 3").
#ifndef SLUICE_TOOLS_BOARD_SLICE_INDEX_H_
#define SLUICE_TOOLS_BOARD_SLICE_INDEX_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sluice {
namespace board {

// The longest index text read (a person types far less).
inline constexpr size_t kMaxIndexLength = 4096;

struct IndexItem {
  enum class Kind { kInteger, kSlice, kEllipsis };
  Kind kind = Kind::kSlice;
  int64_t integer = 0;           // kInteger
  std::optional<int64_t> start;  // kSlice: absent parts take Python's defaults
  std::optional<int64_t> stop;
  std::optional<int64_t> step;
};

absl::StatusOr<std::vector<IndexItem>> ParseIndex(absl::string_view text);

// What one dimension of the source contributes: positions start, start + step, ... (count of
// them). A dimension an integer picked has count 1 and kept false.
struct DimSelection {
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
  bool kept = true;
};

// One entry per dimension of `shape`, in order.
absl::StatusOr<std::vector<DimSelection>> ResolveIndex(const std::vector<IndexItem>& items,
                                                       absl::Span<const int64_t> shape);

// The sizes of the kept dimensions: the selection's shape.
std::vector<int64_t> SelectedShape(const std::vector<DimSelection>& selection);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_SLICE_INDEX_H_
