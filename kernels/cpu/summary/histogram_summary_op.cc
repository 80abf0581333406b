// HistogramSummary on the CPU: one Summary.Value holding the histogram of every element of
// `values` (histogram.h: TensorFlow's buckets and encoding). `tag` must be a scalar. A NaN or an
// infinity fails the step with INVALID_ARGUMENT naming the node, in TensorFlow's words ("Nan in
// summary histogram for: <node>", "Infinity in Histogram for: <node>").
//
// Like every kernel it runs with subnormals flushed to zero (numerics/float_environment.h), as
// TensorFlow's CPU threads do, so a subnormal value or square enters min, sum and sum_squares
// as the zero TensorFlow's sees.
#include <cmath>
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/summary/histogram.h"
#include "kernels/cpu/summary/summary_output.h"
#include "proto/summary.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class HistogramSummaryOp : public OpKernel {
 public:
  explicit HistogramSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tag = ctx->input(0);
    const Tensor& values = ctx->input(1);
    OP_REQUIRES(ctx, tag.dims() == 0, errors::InvalidArgument("tags must be scalar"));
    const auto value = values.flat<T>();
    summary::Histogram histogram;
    for (int64_t i = 0; i < values.NumElements(); ++i) {
      const double v = static_cast<double>(value(i));
      OP_REQUIRES(ctx, !std::isnan(v),
                  errors::InvalidArgument("Nan in summary histogram for: ", name()));
      OP_REQUIRES(ctx, !std::isinf(v),
                  errors::InvalidArgument("Infinity in Histogram for: ", name()));
      histogram.Add(v);
    }
    Summary summary;
    Summary::Value* v = summary.add_value();
    v->set_tag(tag.scalar<std::string>()());
    histogram.EncodeToProto(v->mutable_histo());
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, summary));
  }
};

#define REGISTER_CPU(T)                                                                       \
  REGISTER_KERNEL_BUILDER(Name("HistogramSummary").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          HistogramSummaryOp<T>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
