// TensorFlow's Eigen views of tensors: TTypes<T>::Flat, Vec, Matrix, ConstFlat, ...
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_TYPES_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_TYPES_H_

#include "graph/core/tensor_types.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_TYPES_H_
