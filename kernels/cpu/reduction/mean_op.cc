// Mean on the CPU, for every number type (real and complex, as TensorFlow registers).
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_op.h"

namespace sluice {
namespace reduction {
namespace {

#define REGISTER_CPU(T)                                                           \
  REGISTER_KERNEL_BUILDER(Name("Mean").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ReductionOp<T, MeanReducer>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace reduction
}  // namespace sluice
