// Padding parsing and validation (see padding.h).
#include "graph/core/padding.h"

#include "graph/core/errors.h"

namespace sluice {

absl::Status GetPaddingFromString(absl::string_view str_value, Padding* value) {
  if (str_value == "SAME") {
    *value = SAME;
  } else if (str_value == "VALID") {
    *value = VALID;
  } else if (str_value == "EXPLICIT") {
    *value = EXPLICIT;
  } else {
    return errors::NotFound(str_value, " is not an allowed padding type");
  }
  return absl::OkStatus();
}

absl::Status CheckValidPadding(Padding padding_type, const std::vector<int64_t>& explicit_paddings,
                               int num_dims, TensorFormat data_format) {
  if (padding_type != EXPLICIT) {
    if (!explicit_paddings.empty()) {
      return errors::InvalidArgument(
          "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT");
    }
    return absl::OkStatus();
  }
  if (static_cast<int64_t>(explicit_paddings.size()) != 2 * int64_t{num_dims}) {
    return errors::InvalidArgument("explicit_paddings attribute must contain ", 2 * num_dims,
                                   " values, but got: ", explicit_paddings.size());
  }
  for (int64_t value : explicit_paddings) {
    if (value < 0) {
      return errors::InvalidArgument("All elements of explicit_paddings must be nonnegative");
    }
  }
  const int batch = GetTensorBatchDimIndex(num_dims, data_format);
  const int feature = GetTensorFeatureDimIndex(num_dims, data_format);
  if (batch < 0 || feature < 0 || batch >= num_dims || feature >= num_dims) {
    return errors::InvalidArgument("Invalid data format for explicit padding");
  }
  if (explicit_paddings[2 * batch] != 0 || explicit_paddings[2 * batch + 1] != 0 ||
      explicit_paddings[2 * feature] != 0 || explicit_paddings[2 * feature + 1] != 0) {
    return errors::InvalidArgument(
        "Nonzero explicit padding in the batch or depth dimensions is not supported");
  }
  return absl::OkStatus();
}

std::string GetPaddingAttrString() { return "padding: {'SAME', 'VALID'}"; }

std::string GetPaddingAttrStringWithExplicit() { return "padding: {'SAME', 'VALID', 'EXPLICIT'}"; }

std::string GetExplicitPaddingsAttrString() { return "explicit_paddings: list(int) = []"; }

}  // namespace sluice
