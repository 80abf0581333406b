#include "graph/ops/shape_fn_util.h"

#include <limits>

#include "graph/core/errors.h"

namespace sluice {
namespace shape_fn_util {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

template <typename T>
void AppendValues(const Tensor& t, std::vector<int64_t>* values) {
  auto flat = t.unaligned_flat<T>();
  for (int64_t i = 0; i < t.NumElements(); ++i) values->push_back(static_cast<int64_t>(flat(i)));
}

}  // namespace

absl::Status IntTensorValues(const Tensor& t, std::vector<int64_t>* values) {
  values->clear();
  values->reserve(t.NumElements());
  switch (t.dtype()) {
    case DT_INT8:
      AppendValues<int8_t>(t, values);
      break;
    case DT_INT16:
      AppendValues<int16_t>(t, values);
      break;
    case DT_INT32:
      AppendValues<int32_t>(t, values);
      break;
    case DT_INT64:
      AppendValues<int64_t>(t, values);
      break;
    case DT_UINT8:
      AppendValues<uint8_t>(t, values);
      break;
    case DT_UINT16:
      AppendValues<uint16_t>(t, values);
      break;
    case DT_UINT32:
      AppendValues<uint32_t>(t, values);
      break;
    case DT_UINT64: {
      auto flat = t.unaligned_flat<uint64_t>();
      for (int64_t i = 0; i < t.NumElements(); ++i) {
        if (flat(i) > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          return errors::InvalidArgument("Value ", flat(i), " does not fit in int64");
        }
        values->push_back(static_cast<int64_t>(flat(i)));
      }
      break;
    }
    default:
      return errors::InvalidArgument("Expected an integer tensor, got ", DataTypeString(t.dtype()));
  }
  return absl::OkStatus();
}

absl::Status IntTensorScalar(const Tensor& t, int64_t* value) {
  if (t.NumElements() != 1) {
    return errors::InvalidArgument("Expected a tensor with one element, got shape ",
                                   t.shape().DebugString());
  }
  std::vector<int64_t> values;
  RETURN_IF_ERROR(IntTensorValues(t, &values));
  *value = values[0];
  return absl::OkStatus();
}

DimensionHandle NumElements(InferenceContext* c, ShapeHandle s) {
  for (int32_t i = 0; i < c->Rank(s); ++i) {
    if (c->Value(c->Dim(s, i)) == 0) return c->MakeDim(0);
  }
  return c->NumElements(s);
}

}  // namespace shape_fn_util
}  // namespace sluice
