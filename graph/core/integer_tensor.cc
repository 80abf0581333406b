#include "graph/core/integer_tensor.h"

#include <limits>
#include <type_traits>

#include "graph/core/errors.h"

namespace sluice {
namespace {

template <typename T>
absl::Status WidenValues(const Tensor& t, int64_t* values) {
  const T* data = static_cast<const T*>(t.raw_data());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const T value = data[i];
    if constexpr (std::is_same_v<T, uint64_t>) {
      if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return errors::InvalidArgument("Value ", value, " does not fit in int64");
      }
    }
    values[i] = static_cast<int64_t>(value);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WidenIntegerTensor(const Tensor& t, int64_t* values) {
  switch (t.dtype()) {
#define SLUICE_READ_CASE(T)      \
  case DataTypeToEnum<T>::value: \
    return WidenValues<T>(t, values);
    SLUICE_READ_CASE(int8_t)
    SLUICE_READ_CASE(int16_t)
    SLUICE_READ_CASE(int32_t)
    SLUICE_READ_CASE(int64_t)
    SLUICE_READ_CASE(uint8_t)
    SLUICE_READ_CASE(uint16_t)
    SLUICE_READ_CASE(uint32_t)
    SLUICE_READ_CASE(uint64_t)
#undef SLUICE_READ_CASE
    default:
      return errors::InvalidArgument("Expected an integer tensor, got ", DataTypeString(t.dtype()));
  }
}

absl::Status IntegerTensorValues(const Tensor& t, IntegerValues* values) {
  values->clear();
  if (DataTypeIsInteger(t.dtype())) values->resize(t.NumElements());
  const absl::Status status = WidenIntegerTensor(t, values->data());
  if (!status.ok()) values->clear();
  return status;
}

absl::Status IntegerTensorScalar(const Tensor& t, int64_t* value) {
  if (t.NumElements() != 1) {
    return errors::InvalidArgument("Expected a tensor with one element, got shape ",
                                   t.shape().DebugString());
  }
  IntegerValues values;
  RETURN_IF_ERROR(IntegerTensorValues(t, &values));
  *value = values[0];
  return absl::OkStatus();
}

}  // namespace sluice
