// A custom-op library whose registrations fail, for load_library_test: an op spec that does
// not parse, a built-in op's name taken again with another definition, and a kernel whose
// builder is misused (Label twice). Also registers one valid op and one valid kernel, which
// the failed load must take back.
#include "graph/op/op_registry.h"
#include "runtime/framework/op_kernel.h"

REGISTER_OP("SluiceTestMalformed").Input("x T").Output("y: float");
REGISTER_OP("SluiceTestBadLibraryGood").Output("y: float");
REGISTER_OP("Identity").Input("x: float").Output("y: float");

namespace {

class NoOpKernel : public sluice::OpKernel {
 public:
  explicit NoOpKernel(sluice::OpKernelConstruction* ctx) : sluice::OpKernel(ctx) {}
  void Compute(sluice::OpKernelContext*) override {}
};

}  // namespace

REGISTER_KERNEL_BUILDER(
    Name("SluiceTestBadLibraryGood").Device(::sluice::DEVICE_CPU).Label("a").Label("b"),
    NoOpKernel);
REGISTER_KERNEL_BUILDER(Name("SluiceTestBadLibraryGood").Device(::sluice::DEVICE_CPU), NoOpKernel);
