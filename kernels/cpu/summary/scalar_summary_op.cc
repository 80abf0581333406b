// ScalarSummary on the CPU: one Summary.Value per element, its tag from `tags` and its
// simple_value the element converted to float (as TensorFlow converts it: integers and doubles
// round to the nearest float). `tags` and `values` must have the same shape (INVALID_ARGUMENT
// with TensorFlow's message, which quotes the tag when there is exactly one).
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/summary/summary_output.h"
#include "proto/summary.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

std::string SingleTag(const Tensor& tags) {
  if (tags.NumElements() != 1) return "";
  return absl::StrCat(" (tag '", tags.flat<std::string>()(0), "')");
}

template <typename T>
class ScalarSummaryOp : public OpKernel {
 public:
  explicit ScalarSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tags = ctx->input(0);
    const Tensor& values = ctx->input(1);
    OP_REQUIRES(ctx, tags.IsSameSize(values),
                errors::InvalidArgument(
                    "tags and values are not the same shape: ", tags.shape().DebugString(),
                    " != ", values.shape().DebugString(), SingleTag(tags)));
    const auto tag = tags.flat<std::string>();
    const auto value = values.flat<T>();
    Summary summary;
    for (int64_t i = 0; i < tags.NumElements(); ++i) {
      Summary::Value* v = summary.add_value();
      v->set_tag(tag(i));
      v->set_simple_value(static_cast<float>(value(i)));
    }
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, summary));
  }

  bool IsExpensive() override { return false; }
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("ScalarSummary").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ScalarSummaryOp<T>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
