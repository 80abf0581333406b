// Max and Min on the CPU, for every real number type (as TensorFlow; its quantized types
// are not registered on the CPU there either).
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_op.h"

namespace sluice {
namespace reduction {
namespace {

#define REGISTER_CPU(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("Max").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ReductionOp<T, MaxReducer>);                           \
  REGISTER_KERNEL_BUILDER(Name("Min").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ReductionOp<T, MinReducer>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

// On GPUs, int32 in host memory (TensorFlow's registrations).
REGISTER_KERNEL_BUILDER(Name("Max")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("reduction_indices")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ReductionOp<int32_t, MaxReducer>);
REGISTER_KERNEL_BUILDER(Name("Min")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("reduction_indices")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T"),
                        ReductionOp<int32_t, MinReducer>);

}  // namespace
}  // namespace reduction
}  // namespace sluice
