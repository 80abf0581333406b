// TensorFlow's platform path of the error constructors (see lib/core/errors.h).
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_ERRORS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_ERRORS_H_

#include "tensorflow/core/lib/core/errors.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_ERRORS_H_
