// TensorFlow's error constructors: errors::InvalidArgument(...), errors::NotFound(...) and
// the others, each an absl::Status with TensorFlow's code and the pieces concatenated.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_ERRORS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_ERRORS_H_

#include "graph/core/errors.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_ERRORS_H_
