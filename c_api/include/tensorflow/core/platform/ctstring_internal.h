/* Sluice's TensorFlow C API: the TF_TString layout at its older tensorflow/core path. */
#ifndef TENSORFLOW_CORE_PLATFORM_CTSTRING_INTERNAL_H_
#define TENSORFLOW_CORE_PLATFORM_CTSTRING_INTERNAL_H_

#include "tsl/platform/ctstring_internal.h"

#endif /* TENSORFLOW_CORE_PLATFORM_CTSTRING_INTERNAL_H_ */
