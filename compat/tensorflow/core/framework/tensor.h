// TensorFlow's Tensor header: tensorflow::Tensor, TensorShape, DataType and DT_* names.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_H_

#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_H_
