// TensorFlow's op registration header: REGISTER_OP and the registry it fills.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_OP_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_OP_H_

#include "graph/op/op_def_builder.h"
#include "graph/op/op_registry.h"
#include "tensorflow/core/framework/types.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_OP_H_
