// TensorFlow's tensorflow/cc/saved_model/constants.h: the names SavedModels use
// (saved_model/constants.h holds them all).
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_SAVED_MODEL_CONSTANTS_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_SAVED_MODEL_CONSTANTS_H_

#include "saved_model/constants.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_SAVED_MODEL_CONSTANTS_H_
