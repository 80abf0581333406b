// TensorFlow's gradient registry header: tensorflow::ops::GradOpRegistry, GradFunc and the
// REGISTER_GRADIENT_OP / REGISTER_NO_GRADIENT_OP macros (cc_api/grad_op_registry.h).
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_GRAD_OP_REGISTRY_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_GRAD_OP_REGISTRY_H_

#include "cc_api/grad_op_registry.h"
#include "tensorflow/cc/framework/ops.h"
#include "tensorflow/cc/framework/scope.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_GRAD_OP_REGISTRY_H_
