// Fill (a shape given as a host vector, filled with one scalar), ZerosLike and OnesLike.
// Values are written by element size (graph/core/element_bytes.h); the 1 of OnesLike is made once
// per dtype at construction.
#include <cstdint>
#include <cstring>
#include <string>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;

// Fills all of `out` with *value, split over the intra-op pool when large.
void ParallelFill(OpKernelContext* ctx, const void* value, Tensor* out) {
  const int64_t n = out->NumElements();
  const DataType dtype = out->dtype();
  const int size = DataTypeSize(dtype);
  if (size == 0) {  // strings and handles are objects, filled by assignment on this thread
    FillElements(dtype, value, out->raw_data(), n);
    return;
  }
  char* base = static_cast<char*>(out->raw_data());
  ParallelFor(ctx, n, n, Eigen::TensorOpCost(0, size, 0), [&](int64_t first, int64_t last) {
    FillElements(dtype, value, base + first * size, last - first);
  });
}

class FillOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dims = ctx->input(0);
    const Tensor& value = ctx->input(1);
    OP_REQUIRES(ctx, dims.dims() <= 1,
                errors::InvalidArgument("dims must represent a vector, got shape ",
                                        dims.shape().DebugString()));
    OP_REQUIRES(ctx, value.dims() == 0,
                errors::InvalidArgument("value must represent a scalar, got shape ",
                                        value.shape().DebugString()));
    IntegerValues sizes;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(dims, &sizes));
    for (int64_t size : sizes) {
      OP_REQUIRES(ctx, size >= 0, errors::InvalidArgument("Dimension ", size, " must be >= 0"));
    }
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(sizes, &shape));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    ParallelFill(ctx, value.raw_data(), out);
  }
};

class ZerosLikeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &out));
    if (input.dtype() == DT_STRING) {
      const std::string empty;
      ParallelFill(ctx, &empty, out);
    } else {
      const char zero[16] = {};  // every POD dtype's zero is all-zero bytes
      ParallelFill(ctx, zero, out);
    }
  }
};

// One of `dtype` in its element bytes.
template <typename T>
void StoreOne(char* bytes) {
  const T one = T(1);
  std::memcpy(bytes, &one, sizeof(T));
}

class OnesLikeOp : public OpKernel {
 public:
  explicit OnesLikeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    switch (ctx->input_type(0)) {
#define ONE_CASE(T)              \
  case DataTypeToEnum<T>::value: \
    StoreOne<T>(one_);           \
    break;
      SLUICE_CALL_NUMBER_TYPES(ONE_CASE)
      SLUICE_CALL_bool(ONE_CASE)
#undef ONE_CASE
          default : ctx->CtxFailure(errors::Unimplemented("OnesLike does not support ",
                                                          DataTypeString(ctx->input_type(0))));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &out));
    ParallelFill(ctx, one_, out);
  }

 private:
  alignas(16) char one_[16] = {};
};

REGISTER_KERNEL_BUILDER(Name("Fill")
                            .Device(DEVICE_CPU)
                            .HostMemory("dims")
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT16,
                                                             DT_QUINT16, DT_QINT32, DT_RESOURCE}))
                            .TypeConstraint<int32_t>("index_type"),
                        FillOp);
REGISTER_KERNEL_BUILDER(Name("Fill")
                            .Device(DEVICE_CPU)
                            .HostMemory("dims")
                            .TypeConstraint("T", ArrayTypes({DT_QINT8, DT_QUINT8, DT_QINT16,
                                                             DT_QUINT16, DT_QINT32, DT_RESOURCE}))
                            .TypeConstraint<int64_t>("index_type"),
                        FillOp);
// On GPUs, int32 in host memory (TensorFlow's registration).
REGISTER_KERNEL_BUILDER(Name("Fill")
                            .Device(DEVICE_GPU)
                            .HostMemory("dims")
                            .HostMemory("value")
                            .HostMemory("output")
                            .TypeConstraint<int32_t>("T")
                            .TypeConstraint<int32_t>("index_type"),
                        FillOp);
REGISTER_KERNEL_BUILDER(Name("ZerosLike").Device(DEVICE_CPU).TypeConstraint("T", ArrayTypes()),
                        ZerosLikeOp);
REGISTER_KERNEL_BUILDER(Name("OnesLike")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16,
                                                  DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8,
                                                  DT_UINT16, DT_UINT32, DT_UINT64, DT_COMPLEX64,
                                                  DT_COMPLEX128, DT_BOOL}),
                        OnesLikeOp);

}  // namespace
}  // namespace sluice
