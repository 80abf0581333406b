// Sum and Prod on the CPU, for every number type (real and complex, as TensorFlow registers).
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_op.h"

namespace sluice {
namespace reduction {
namespace {

#define REGISTER_CPU(T)                                                           \
  REGISTER_KERNEL_BUILDER(Name("Sum").Device(DEVICE_CPU).TypeConstraint<T>("T"),  \
                          ReductionOp<T, SumReducer>);                            \
  REGISTER_KERNEL_BUILDER(Name("Prod").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ReductionOp<T, ProdReducer>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

// On GPUs, int32 in host memory (TensorFlow's registrations).
REGISTER_KERNEL_BUILDER(Name("Sum")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("reduction_indices")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ReductionOp<int32_t, SumReducer>);
REGISTER_KERNEL_BUILDER(Name("Prod")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("reduction_indices")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ReductionOp<int32_t, ProdReducer>);

}  // namespace
}  // namespace reduction
}  // namespace sluice
