// The table view: the part of a tensor that a Python-style index selects (slice_index.h),
// written as JSON for the board's page.
//
// WriteTable adds these members to the object `json` has open:
//   "index":     the index as given;
//   "selection": the same selection written out per dimension ("[0, :, 2:5, 1]"), integers
//                for dropped dimensions, slices for kept ones;
//   "shape":     the selection's shape, at most kMaxTableRank dimensions;
//   "dims":      for each kept dimension, which dimension of the tensor it is;
//   "rows", "columns": the tensor positions of the table's rows and columns (a 1-D selection
//                has one row and its positions as columns, a scalar neither);
//   "values":    a scalar, a list, or a list of rows, as the shape says.
// Values follow json_number.h (non-finite floats as "NaN", "Infinity", "-Infinity"); bools are
// true/false; integers are exact (JavaScript reads those beyond 2^53 rounded); strings are
// made printable (control characters and bytes that are not UTF-8 as \xNN, cli::Printable)
// and cut to kMaxTableStringBytes.
//
// Errors, all INVALID_ARGUMENT and written for the person who typed the index, with nothing
// written to `json`: the index's own (slice_index.h); a selection of more than kMaxTableRank
// dimensions (naming its rank and shape, with an index that would do); more than
// kMaxTableValues values (naming the limit); a dtype the table cannot show (complex,
// quantized, resource, variant).
#ifndef SLUICE_TOOLS_BOARD_TENSOR_TABLE_H_
#define SLUICE_TOOLS_BOARD_TENSOR_TABLE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "tools/cli/json_writer.h"

namespace sluice {
namespace board {

inline constexpr int kMaxTableRank = 2;
inline constexpr int64_t kMaxTableValues = 1000000;
inline constexpr size_t kMaxTableStringBytes = 256;

absl::Status WriteTable(const Tensor& tensor, absl::string_view index, cli::JsonWriter* json);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_TENSOR_TABLE_H_
