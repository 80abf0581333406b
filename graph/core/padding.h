// Padding schemes of windowed ops (convolutions, pooling) and their attr strings.
//
//   VALID:    no padding; windows lie entirely inside the input.
//   SAME:     pad so that output = ceil(input / stride); the extra pad goes after.
//   EXPLICIT: the `explicit_paddings` attr gives (before, after) for every dimension.
#ifndef SLUICE_GRAPH_CORE_PADDING_H_
#define SLUICE_GRAPH_CORE_PADDING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor_format.h"

namespace sluice {

// Numbered as in TensorFlow.
enum Padding {
  VALID = 1,
  SAME = 2,
  EXPLICIT = 3,
};

// "VALID", "SAME" or "EXPLICIT"; anything else is NOT_FOUND
// ("FOO is not an allowed padding type"), as in TensorFlow.
absl::Status GetPaddingFromString(absl::string_view str_value, Padding* value);

// Checks `explicit_paddings` against `padding_type` for a tensor of `num_dims` dims laid out
// as `data_format`: EXPLICIT needs 2 * num_dims non-negative values, zero on the batch and
// feature dims; the other paddings need an empty list. INVALID_ARGUMENT otherwise.
absl::Status CheckValidPadding(Padding padding_type, const std::vector<int64_t>& explicit_paddings,
                               int num_dims, TensorFormat data_format);

// Attr specs for op registrations: "padding: {'SAME', 'VALID'}" and friends.
std::string GetPaddingAttrString();
std::string GetPaddingAttrStringWithExplicit();
std::string GetExplicitPaddingsAttrString();

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_PADDING_H_
