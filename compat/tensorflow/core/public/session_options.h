// TensorFlow's tensorflow/core/public/session_options.h: tensorflow::SessionOptions
// (target, config), Sluice's runtime/device/session_options.h.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PUBLIC_SESSION_OPTIONS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PUBLIC_SESSION_OPTIONS_H_

#include "runtime/device/session_options.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PUBLIC_SESSION_OPTIONS_H_
