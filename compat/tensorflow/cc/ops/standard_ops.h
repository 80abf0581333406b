// TensorFlow's standard_ops header: every generated op wrapper (tensorflow::ops::MatMul...)
// and Const.
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_OPS_STANDARD_OPS_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_OPS_STANDARD_OPS_H_

#include "cc_api/standard_ops.h"
#include "tensorflow/cc/ops/const_op.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_OPS_STANDARD_OPS_H_
