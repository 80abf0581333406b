// TensorFlow's kernel header: OpKernel, AsyncOpKernel, OpKernelConstruction,
// OpKernelContext, REGISTER_KERNEL_BUILDER with Name(...).Device(...).TypeConstraint<T>(...),
// OP_REQUIRES / OP_REQUIRES_OK, DEVICE_CPU, and what kernels use with them (Tensor,
// TensorShape and TensorShapeUtils, errors::).
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_OP_KERNEL_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_OP_KERNEL_H_

#include "runtime/framework/device_type.h"
#include "runtime/framework/kernel_def_builder.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_construction.h"
#include "runtime/framework/op_kernel_context.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/framework/tensor_shape.h"
#include "tensorflow/core/framework/types.h"
#include "tensorflow/core/lib/core/errors.h"
#include "tensorflow/core/platform/namespace.h"

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_OP_KERNEL_H_
