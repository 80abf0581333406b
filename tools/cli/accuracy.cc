#include "tools/cli/accuracy.h"

#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace cli {
namespace {

// Element i of an integer tensor as int64, or false for a non-integer dtype.
bool LabelAt(const Tensor& labels, int64_t i, int64_t* value) {
  switch (labels.dtype()) {
    case DT_INT8:
      *value = labels.flat<int8_t>()(i);
      return true;
    case DT_UINT8:
      *value = labels.flat<uint8_t>()(i);
      return true;
    case DT_INT16:
      *value = labels.flat<int16_t>()(i);
      return true;
    case DT_UINT16:
      *value = labels.flat<uint16_t>()(i);
      return true;
    case DT_INT32:
      *value = labels.flat<int32_t>()(i);
      return true;
    case DT_INT64:
      *value = labels.flat<int64_t>()(i);
      return true;
    default:
      return false;
  }
}

template <typename T>
int64_t ArgMax(const T* row, int64_t n) {
  int64_t best = 0;
  for (int64_t k = 1; k < n; ++k) {
    if (static_cast<double>(row[k]) > static_cast<double>(row[best])) best = k;
  }
  return best;
}

}  // namespace

absl::Status TopOneAccuracy(const Tensor& scores, const Tensor& labels, Accuracy* accuracy) {
  if (scores.dims() != 2 || !DataTypeIsFloating(scores.dtype())) {
    return errors::InvalidArgument("--labels needs a floating [N, classes] output; got ",
                                   DataTypeString(scores.dtype()), " ",
                                   scores.shape().DebugString());
  }
  const int64_t n = scores.dim_size(0);
  const int64_t classes = scores.dim_size(1);
  int64_t probe = 0;
  if (labels.NumElements() != n || (labels.dims() != 1 && labels.dims() != 2) ||
      (n > 0 && !LabelAt(labels, 0, &probe)) || (n == 0 && !DataTypeIsInteger(labels.dtype()))) {
    return errors::InvalidArgument(
        "--labels must hold ", n, " integer labels for output ", scores.shape().DebugString(),
        "; got ", DataTypeString(labels.dtype()), " ", labels.shape().DebugString());
  }
  accuracy->correct = 0;
  accuracy->total = n;
  if (classes == 0) return absl::OkStatus();
  for (int64_t i = 0; i < n; ++i) {
    int64_t predicted = 0;
    switch (scores.dtype()) {
      case DT_FLOAT:
        predicted = ArgMax(scores.flat<float>().data() + i * classes, classes);
        break;
      case DT_DOUBLE:
        predicted = ArgMax(scores.flat<double>().data() + i * classes, classes);
        break;
      case DT_HALF:
        predicted = ArgMax(scores.flat<half>().data() + i * classes, classes);
        break;
      case DT_BFLOAT16:
        predicted = ArgMax(scores.flat<bfloat16>().data() + i * classes, classes);
        break;
      default:
        return errors::InvalidArgument("--labels: unsupported output dtype ",
                                       DataTypeString(scores.dtype()));
    }
    int64_t label = 0;
    LabelAt(labels, i, &label);
    if (predicted == label) ++accuracy->correct;
  }
  return absl::OkStatus();
}

}  // namespace cli
}  // namespace sluice
