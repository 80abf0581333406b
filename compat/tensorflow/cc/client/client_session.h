// TensorFlow's ClientSession header: tensorflow::ClientSession, with Scope, Tensor and
// TF_CHECK_OK, which TensorFlow's version also brings in.
#ifndef SLUICE_COMPAT_TENSORFLOW_CC_CLIENT_CLIENT_SESSION_H_
#define SLUICE_COMPAT_TENSORFLOW_CC_CLIENT_CLIENT_SESSION_H_

#include "cc_api/client_session.h"
#include "tensorflow/cc/framework/scope.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/lib/core/status.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CC_CLIENT_CLIENT_SESSION_H_
