// Bitcast on the CPU: the input's bytes as elements of `type`, sharing its buffer. A narrower
// type adds a last dimension of the size ratio; a wider one consumes a last dimension that
// must equal it (TensorFlow's message names the dtypes by their enum numbers).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class BitcastOp : public OpKernel {
 public:
  explicit BitcastOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("T", &from_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("type", &to_));
    from_size_ = DataTypeSize(from_);
    to_size_ = DataTypeSize(to_);
    OP_REQUIRES(
        ctx, from_size_ > 0 && to_size_ > 0,
        errors::InvalidArgument("Cannot bitcast types ", DataTypeString(from_), " to ",
                                DataTypeString(to_), " because one of the type sizes is zero."));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const int rank = input.dims();
    OP_REQUIRES(
        ctx,
        from_size_ >= to_size_ || (rank > 0 && input.dim_size(rank - 1) == to_size_ / from_size_),
        errors::InvalidArgument("Cannot bitcast from ", static_cast<int>(from_), " to ",
                                static_cast<int>(to_)));
    TensorShape shape = input.shape();
    if (from_size_ < to_size_) {
      shape.RemoveLastDims(1);  // shape-safe: rank > 0, checked above
    } else if (from_size_ > to_size_) {
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(from_size_ / to_size_));
    }
    Tensor output;
    OP_REQUIRES_OK(ctx, output.BitcastFrom(input, to_, shape));
    ctx->set_output(0, output);
  }

  bool IsExpensive() override { return false; }

 private:
  DataType from_ = DT_INVALID;
  DataType to_ = DT_INVALID;
  int64_t from_size_ = 0;
  int64_t to_size_ = 0;
};

// TensorFlow's CPU kernel takes every dtype the OpDef allows.
DataTypeVector BitcastTypes() {
  return {DT_BFLOAT16, DT_HALF,   DT_FLOAT,  DT_DOUBLE,  DT_INT64, DT_INT32,     DT_UINT8,
          DT_UINT16,   DT_UINT32, DT_UINT64, DT_INT8,    DT_INT16, DT_COMPLEX64, DT_COMPLEX128,
          DT_QINT8,    DT_QUINT8, DT_QINT16, DT_QUINT16, DT_QINT32};
}

REGISTER_KERNEL_BUILDER(Name("Bitcast")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", BitcastTypes())
                            .TypeConstraint("type", BitcastTypes()),
                        BitcastOp);

}  // namespace
}  // namespace sluice
