// Forwarding header: OpKernel, its contexts and REGISTER_KERNEL_BUILDER moved to
// runtime/framework/op_kernel.h. This path is kept because users' code includes it (the README's
// examples named it before the layers became folders); Sluice's own code includes
// runtime/framework/op_kernel.h.
#ifndef SLUICE_RUNTIME_OP_KERNEL_H_
#define SLUICE_RUNTIME_OP_KERNEL_H_

#include "runtime/framework/op_kernel.h"

#endif  // SLUICE_RUNTIME_OP_KERNEL_H_
