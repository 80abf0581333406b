// StringJoin on the CPU: element i of the output is the i-th strings of the inputs joined
// with `separator`. Every input is a scalar (used for every element) or of the one common
// shape; there is no other broadcasting. With no inputs the output is the scalar "".
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class StringJoinOp : public OpKernel {
 public:
  explicit StringJoinOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("separator", &separator_));
  }

  void Compute(OpKernelContext* ctx) override {
    OpInputList inputs;
    OP_REQUIRES_OK(ctx, ctx->input_list("inputs", &inputs));
    // The first non-scalar input fixes the shape; the later ones must have it.
    TensorShape shape;
    bool shape_set = false;
    for (int k = 0; k < inputs.size(); ++k) {
      const TensorShape& s = inputs[k].shape();
      if (s.dims() == 0) continue;
      if (!shape_set) {
        shape = s;
        shape_set = true;
      } else {
        OP_REQUIRES(ctx, s == shape,
                    errors::InvalidArgument("Input shapes do not match: ", shape.DebugString(),
                                            " vs. ", s.DebugString()));
      }
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    const int64_t n = output->NumElements();
    if (n == 0) return;
    std::string* out = output->base<std::string>();
    const int num_inputs = inputs.size();
    const Eigen::TensorOpCost cost(16.0 * num_inputs, 16.0 * num_inputs, 20.0 * num_inputs);
    ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        std::string& joined = out[i];
        for (int k = 0; k < num_inputs; ++k) {
          const Tensor& in = inputs[k];
          if (k > 0) joined.append(separator_);
          joined.append(in.base<std::string>()[in.dims() == 0 ? 0 : i]);
        }
      }
    });
  }

 private:
  std::string separator_;
};

REGISTER_KERNEL_BUILDER(Name("StringJoin").Device(DEVICE_CPU), StringJoinOp);

}  // namespace
}  // namespace sluice
