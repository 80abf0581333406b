// TensorFlow's common shape functions (shape_inference::UnchangedShape, MatMulShape, ...).
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_COMMON_SHAPE_FNS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_COMMON_SHAPE_FNS_H_

#include "graph/shape/common_shape_fns.h"
#include "tensorflow/core/framework/shape_inference.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_COMMON_SHAPE_FNS_H_
