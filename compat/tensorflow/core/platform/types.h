// TensorFlow's integer and string spellings (int32, int64, uint8, tstring, StringPiece...).
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_TYPES_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_TYPES_H_

#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_TYPES_H_
