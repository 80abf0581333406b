// TensorSummaryV2 and TensorSummary on the CPU: one Summary.Value holding the whole input tensor
// as a TensorProto, its bytes in tensor_content (string tensors in string_val, which TensorBoard's
// tensor_util can read back), as TensorFlow writes it.
//
// TensorSummaryV2 sets the value's tag and its metadata, parsed from the scalar
// serialized_summary_metadata. As in TensorFlow, bytes that do not parse as a SummaryMetadata
// are not an error: the metadata is what protobuf's parser left (nothing, for garbage).
// TensorSummary sets node_name to the node's name instead and ignores its attrs.
//
// Registered for every dtype TensorFlow registers them for except resource and variant, whose
// elements have no TensorProto content Sluice writes.
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/summary/summary_output.h"
#include "proto/summary.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class TensorSummaryV2Op : public OpKernel {
 public:
  explicit TensorSummaryV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tag = ctx->input(0);
    OP_REQUIRES(ctx, tag.dims() == 0, errors::InvalidArgument("tag must be scalar"));
    const Tensor& tensor = ctx->input(1);
    const Tensor& metadata = ctx->input(2);
    OP_REQUIRES(ctx, metadata.dims() == 0,
                errors::InvalidArgument("serialized_summary_metadata must be scalar"));
    Summary summary;
    Summary::Value* v = summary.add_value();
    v->set_tag(tag.scalar<std::string>()());
    TensorToProtoContent(tensor, v->mutable_tensor());
    // The result is ignored on purpose: TensorFlow keeps whatever parsed (see above).
    (void)v->mutable_metadata()->ParseFromString(metadata.scalar<std::string>()());
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, summary));
  }
};

class TensorSummaryOp : public OpKernel {
 public:
  explicit TensorSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    Summary summary;
    Summary::Value* v = summary.add_value();
    v->set_node_name(name());
    TensorToProtoContent(ctx->input(0), v->mutable_tensor());
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, summary));
  }
};

#define REGISTER_CPU(T)                                                                      \
  REGISTER_KERNEL_BUILDER(Name("TensorSummaryV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          TensorSummaryV2Op);                                                \
  REGISTER_KERNEL_BUILDER(Name("TensorSummary").Device(DEVICE_CPU).TypeConstraint<T>("T"),   \
                          TensorSummaryOp);
SLUICE_CALL_NUMBER_TYPES(REGISTER_CPU)
SLUICE_CALL_bool(REGISTER_CPU) SLUICE_CALL_string(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
