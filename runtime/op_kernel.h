// Forwarding header: OpKernel, its contexts and REGISTER_KERNEL_BUILDER are declared in
// runtime/framework/op_kernel.h. Custom-op and client code written against this path keeps
// compiling; Sluice's own code includes runtime/framework/op_kernel.h (//tests/source:layering_test
// rejects this path inside the tree).
#ifndef SLUICE_RUNTIME_OP_KERNEL_H_
#define SLUICE_RUNTIME_OP_KERNEL_H_

#include "runtime/framework/op_kernel.h"

#endif  // SLUICE_RUNTIME_OP_KERNEL_H_
