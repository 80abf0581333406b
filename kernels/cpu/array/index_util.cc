#include "kernels/cpu/array/index_util.h"

#include "graph/core/errors.h"
#include "graph/core/types.h"

namespace sluice {
namespace array_internal {

absl::Status ReadIndices(const Tensor& t, IndexVector* values) {
  const int64_t n = t.NumElements();
  values->resize(n);
  switch (t.dtype()) {
#define READ_CASE(T)                                        \
  case DataTypeToEnum<T>::value: {                          \
    const T* data = static_cast<const T*>(t.raw_data());    \
    for (int64_t i = 0; i < n; ++i) (*values)[i] = data[i]; \
    return absl::OkStatus();                                \
  }
    SLUICE_CALL_int8(READ_CASE) SLUICE_CALL_int16(READ_CASE) SLUICE_CALL_int32(READ_CASE)
        SLUICE_CALL_int64(READ_CASE)
#undef READ_CASE
            default : return errors::InvalidArgument("Expected an integer index tensor, got ",
                                                     DataTypeString(t.dtype()));
  }
}

absl::Status ReadIndexScalar(const Tensor& t, int64_t* value) {
  switch (t.dtype()) {
    case DT_INT8:
      *value = *static_cast<const int8_t*>(t.raw_data());
      return absl::OkStatus();
    case DT_INT16:
      *value = *static_cast<const int16_t*>(t.raw_data());
      return absl::OkStatus();
    case DT_INT32:
      *value = *static_cast<const int32_t*>(t.raw_data());
      return absl::OkStatus();
    case DT_INT64:
      *value = *static_cast<const int64_t*>(t.raw_data());
      return absl::OkStatus();
    default:
      return errors::InvalidArgument("Expected an integer index tensor, got ",
                                     DataTypeString(t.dtype()));
  }
}

}  // namespace array_internal
}  // namespace sluice
