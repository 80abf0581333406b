// NoOp: does nothing; it exists to carry control dependencies.
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class NoOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(Name("NoOp").Device(DEVICE_CPU), NoOp);
// Nothing to run, so a control-only node can stay with the GPU nodes it orders.
REGISTER_KERNEL_BUILDER(Name("NoOp").Device(DEVICE_GPU), NoOp);

}  // namespace
}  // namespace sluice
