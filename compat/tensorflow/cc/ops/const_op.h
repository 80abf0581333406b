// TensorFlow's const_op header: tensorflow::ops::Const and friends.
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_OPS_CONST_OP_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_OPS_CONST_OP_H_

#include "cc_api/const_op.h"
#include "tensorflow/cc/framework/scope.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_OPS_CONST_OP_H_
