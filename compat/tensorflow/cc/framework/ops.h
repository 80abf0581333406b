// TensorFlow's client ops header: tensorflow::Operation, Output, Input, InputList.
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_OPS_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_OPS_H_

#include "cc_api/ops.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_FRAMEWORK_OPS_H_
