// TensorFlow's logging header: LOG, VLOG, CHECK (glog's) and TF_CHECK_OK / TF_QCHECK_OK.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_LOGGING_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_LOGGING_H_

#include "cc_api/logging.h"
#include "tensorflow/core/platform/namespace.h"

#define TF_CHECK_OK(val) SLUICE_CHECK_OK(val)
#define TF_QCHECK_OK(val) SLUICE_QCHECK_OK(val)

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_LOGGING_H_
