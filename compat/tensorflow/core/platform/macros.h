// TensorFlow's portability macros that kernel code uses.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_MACROS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_MACROS_H_

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"

#define TF_PREDICT_FALSE(x) ABSL_PREDICT_FALSE(x)
#define TF_PREDICT_TRUE(x) ABSL_PREDICT_TRUE(x)
#define TF_ATTRIBUTE_UNUSED ABSL_ATTRIBUTE_UNUSED
#define TF_MUST_USE_RESULT ABSL_MUST_USE_RESULT
#define TF_DISALLOW_COPY_AND_ASSIGN(TypeName) \
  TypeName(const TypeName&) = delete;         \
  void operator=(const TypeName&) = delete

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PLATFORM_MACROS_H_
