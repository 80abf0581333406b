// TensorFlow's symbolic gradients header: tensorflow::AddSymbolicGradients and NoGradient
// (cc_api/gradients.h).
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_GRADIENTS_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_GRADIENTS_H_

#include "cc_api/gradients.h"
#include "tensorflow/cc/framework/ops.h"
#include "tensorflow/cc/framework/scope.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_GRADIENTS_H_
