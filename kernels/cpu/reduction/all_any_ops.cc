// All and Any on the CPU: logical reductions of bool tensors.
#include "kernels/cpu/reduction/reducers.h"
#include "kernels/cpu/reduction/reduction_op.h"

namespace sluice {
namespace reduction {
namespace {

REGISTER_KERNEL_BUILDER(Name("All").Device(DEVICE_CPU), ReductionOp<bool, AllReducer>);
REGISTER_KERNEL_BUILDER(Name("Any").Device(DEVICE_CPU), ReductionOp<bool, AnyReducer>);

}  // namespace
}  // namespace reduction
}  // namespace sluice
