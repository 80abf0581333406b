// TensorFlow's Status header: tensorflow::Status (absl::Status), TF_CHECK_OK, and
// TF_RETURN_IF_ERROR.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_H_

#include "graph/core/errors.h"
#include "tensorflow/core/platform/logging.h"
#include "tensorflow/core/platform/namespace.h"

#define TF_RETURN_IF_ERROR(expr) RETURN_IF_ERROR(expr)

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_H_
