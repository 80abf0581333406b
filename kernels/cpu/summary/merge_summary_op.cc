// MergeSummary on the CPU: the values of every serialized Summary in every input (inputs of any
// shape, elements in order), in one Summary. Only the values are kept, as in TensorFlow: other
// top-level fields of the inputs are dropped, while each value is copied whole.
//
// INVALID_ARGUMENT, with TensorFlow's messages, for an element that is not a Summary and for a
// non-empty tag that two values share (values without a tag, as TensorSummary's, may repeat).
#include <cstdint>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/summary/summary_output.h"
#include "proto/summary.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class MergeSummaryOp : public OpKernel {
 public:
  explicit MergeSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    Summary merged;
    absl::flat_hash_set<std::string> tags;
    for (int input = 0; input < ctx->num_inputs(); ++input) {
      const Tensor& summaries = ctx->input(input);
      const auto serialized = summaries.flat<std::string>();
      for (int64_t i = 0; i < summaries.NumElements(); ++i) {
        Summary summary;
        OP_REQUIRES(ctx, summary.ParseFromString(serialized(i)),
                    errors::InvalidArgument("Could not parse one of the summary inputs"));
        for (Summary::Value& value : *summary.mutable_value()) {
          OP_REQUIRES(
              ctx, value.tag().empty() || tags.insert(value.tag()).second,
              errors::InvalidArgument("Duplicate tag ", value.tag(), " found in summary inputs "));
          merged.add_value()->Swap(&value);
        }
      }
    }
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, merged));
  }
};

REGISTER_KERNEL_BUILDER(Name("MergeSummary").Device(DEVICE_CPU), MergeSummaryOp);

}  // namespace
}  // namespace sluice
