// TensorFlow's shape inference header: shape_inference::InferenceContext, ShapeHandle and
// DimensionHandle, for the shape functions that REGISTER_OP's SetShapeFn takes.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_SHAPE_INFERENCE_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_SHAPE_INFERENCE_H_

#include "graph/shape/shape_inference.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_SHAPE_INFERENCE_H_
