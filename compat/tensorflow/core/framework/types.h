// TensorFlow's types header: DataType and the DT_* values, DataTypeToEnum, the element
// types (int32, int64, half, bfloat16, complex64, ...), DeviceType and DEVICE_CPU.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TYPES_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TYPES_H_

#include "graph/core/types.h"
#include "runtime/framework/device_type.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TYPES_H_
