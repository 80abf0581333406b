// SerializeTensor and ParseTensor on the CPU: a tensor to and from the bytes of a TensorProto.
// SerializeTensor writes what TensorFlow writes (strings in string_val, every other dtype's
// elements in tensor_content), so its output is byte-identical; ParseTensor accepts either
// form (graph/core/tensor_proto.h) and requires the proto's dtype to be out_type.
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/types.h"
#include "proto/tensor.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class SerializeTensorOp : public OpKernel {
 public:
  explicit SerializeTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    TensorProto proto;
    TensorToProtoContent(ctx->input(0), &proto);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    OP_REQUIRES(ctx, proto.SerializeToString(out->base<std::string>()),
                errors::Internal("Could not serialize the tensor as a TensorProto"));
  }
};

class ParseTensorOp : public OpKernel {
 public:
  explicit ParseTensorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("out_type", &out_type_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& serialized = ctx->input(0);
    OP_REQUIRES(ctx, serialized.dims() == 0,
                errors::InvalidArgument("Expected `serialized` to be a scalar, got shape: ",
                                        serialized.shape().DebugString()));
    const std::string& bytes = *serialized.base<std::string>();
    TensorProto proto;
    OP_REQUIRES(
        ctx, proto.ParseFromString(bytes),
        errors::InvalidArgument("Could not parse `serialized` as TensorProto: '", bytes, "'"));
    Tensor output;
    const absl::Status status = TensorFromProto(ctx->device()->GetHostAllocator(), proto, &output);
    OP_REQUIRES_OK(ctx, status.ok() ? status
                                    : absl::Status(status.code(),
                                                   absl::StrCat("Cannot parse tensor from proto: ",
                                                                status.message())));
    OP_REQUIRES(ctx, output.dtype() == out_type_,
                errors::InvalidArgument("Type mismatch between parsed tensor (",
                                        DataTypeString(output.dtype()), ") and dtype (",
                                        DataTypeString(out_type_), ")"));
    ctx->set_output(0, output);
  }

 private:
  DataType out_type_ = DT_INVALID;
};

// The dtypes TensorFlow's CPU kernel takes, but DT_VARIANT (no TensorProto form here).
REGISTER_KERNEL_BUILDER(Name("SerializeTensor")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_RESOURCE, DT_STRING, DT_BOOL, DT_COMPLEX128,
                                                  DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_BFLOAT16,
                                                  DT_HALF, DT_INT32, DT_INT8, DT_UINT8, DT_INT16,
                                                  DT_UINT16, DT_UINT32, DT_INT64, DT_UINT64}),
                        SerializeTensorOp);
REGISTER_KERNEL_BUILDER(Name("ParseTensor").Device(DEVICE_CPU), ParseTensorOp);

}  // namespace
}  // namespace sluice
