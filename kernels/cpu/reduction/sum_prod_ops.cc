// Sum and Prod on the CPU, for every real number type (complex is not registered).
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
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace reduction
}  // namespace sluice
