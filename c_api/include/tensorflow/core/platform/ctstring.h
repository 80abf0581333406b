/* Sluice's TensorFlow C API: TF_TString at its older tensorflow/core path (see tsl/platform). */
#ifndef TENSORFLOW_CORE_PLATFORM_CTSTRING_H_
#define TENSORFLOW_CORE_PLATFORM_CTSTRING_H_

#include "tsl/platform/ctstring.h"

#endif /* TENSORFLOW_CORE_PLATFORM_CTSTRING_H_ */
