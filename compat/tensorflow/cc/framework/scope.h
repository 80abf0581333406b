// TensorFlow's Scope header: tensorflow::Scope.
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_SCOPE_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_SCOPE_H_

#include "cc_api/scope.h"
#include "tensorflow/cc/framework/ops.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_SCOPE_H_
