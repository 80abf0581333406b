// TensorFlow's platform path of Status (see lib/core/status.h).
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_STATUS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_STATUS_H_

#include "tensorflow/core/lib/core/status.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_STATUS_H_
