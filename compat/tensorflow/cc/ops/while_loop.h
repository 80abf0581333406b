// TensorFlow's while-loop builder header: tensorflow::ops::BuildWhileLoop, CondGraphBuilderFn
// and BodyGraphBuilderFn (cc_api/while_loop.h).
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_OPS_WHILE_LOOP_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_OPS_WHILE_LOOP_H_

#include "cc_api/while_loop.h"
#include "tensorflow/cc/framework/ops.h"
#include "tensorflow/cc/framework/scope.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_OPS_WHILE_LOOP_H_
