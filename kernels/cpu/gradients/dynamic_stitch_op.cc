// DynamicStitch and ParallelDynamicStitch on the CPU: merged[indices[m][i], ...] =
// data[m][i, ...] for every input m and position i, with merged's first dim the largest index
// plus one and its other dims data[m].shape[rank(indices[m]):] (the same for every m). Rows no
// index names are zero (empty strings, empty variants), as in TensorFlow 2.21.
//
// Inputs are copied in order, so a duplicate index takes the last row given for it (what
// TensorFlow's DynamicStitch guarantees; its ParallelDynamicStitch leaves the choice open,
// and this kernel makes the same one). Rows move by element size (graph/core/element_bytes.h),
// so one instantiation per size serves every dtype. Checks and messages are TensorFlow's: each
// data[m] must start with indices[m]'s shape and leave the same rest as data[0]; a negative
// index is INVALID_ARGUMENT "indices[i] is out of range" (i counting within its input).
#include <cstdint>
#include <cstring>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Whether data.shape[rank(indices):] == data0.shape[rank(indices0):]; data starts with
// indices' shape (checked first).
bool SameExtraShape(const Tensor& data0, const Tensor& indices0, const Tensor& data,
                    const Tensor& indices) {
  const int extra0 = data0.dims() - indices0.dims();
  if (data.dims() - indices.dims() != extra0) return false;
  for (int k = 0; k < extra0; ++k) {
    if (data0.dim_size(indices0.dims() + k) != data.dim_size(indices.dims() + k)) return false;
  }
  return true;
}

bool StartsWith(const TensorShape& shape, const TensorShape& prefix) {
  if (shape.dims() < prefix.dims()) return false;
  for (int k = 0; k < prefix.dims(); ++k) {
    if (shape.dim_size(k) != prefix.dim_size(k)) return false;
  }
  return true;
}

class DynamicStitchOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs() / 2;
    int64_t max_index = -1;
    for (int m = 0; m < n; ++m) {
      const Tensor& indices = ctx->input(m);
      const int32_t* idx = indices.flat<int32_t>().data();
      for (int64_t i = 0; i < indices.NumElements(); ++i) {
        if (idx[i] > max_index) max_index = idx[i];
      }
    }
    const Tensor& indices0 = ctx->input(0);
    const Tensor& data0 = ctx->input(n);
    for (int m = 0; m < n; ++m) {
      const Tensor& indices = ctx->input(m);
      const Tensor& data = ctx->input(n + m);
      OP_REQUIRES(ctx, StartsWith(data.shape(), indices.shape()),
                  errors::InvalidArgument("data[", m, "].shape = ", data.shape().DebugString(),
                                          " does not start with indices[", m,
                                          "].shape = ", indices.shape().DebugString()));
      OP_REQUIRES(ctx, m == 0 || SameExtraShape(data0, indices0, data, indices),
                  errors::InvalidArgument(
                      "Need data[0].shape[", indices0.dims(), ":] = data[", m, "].shape[",
                      indices.dims(), ":], got data[0].shape = ", data0.shape().DebugString(),
                      ", data[", m, "].shape = ", data.shape().DebugString(),
                      ", indices[0].shape = ", indices0.shape().DebugString(), ", indices[", m,
                      "].shape = ", indices.shape().DebugString()));
    }
    const int64_t first_dim = max_index + 1;
    TensorShape shape;
    OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(first_dim));
    int64_t slice = 1;
    for (int d = indices0.dims(); d < data0.dims(); ++d) {
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(data0.dim_size(d)));
      slice *= data0.dim_size(d);
    }
    Tensor* merged = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &merged));
    // Every index is checked before anything is written, even when no row is copied (no
    // index is valid then), as in TensorFlow.
    for (int m = 0; m < n; ++m) {
      const Tensor& indices = ctx->input(m);
      const int32_t* idx = indices.flat<int32_t>().data();
      for (int64_t i = 0; i < indices.NumElements(); ++i) {
        OP_REQUIRES(ctx, idx[i] >= 0 && idx[i] < first_dim,
                    errors::InvalidArgument("indices[", i, "] is out of range"));
      }
    }
    const DataType dtype = merged->dtype();
    if (merged->NumElements() == 0) return;
    // Object elements (strings, variants) are constructed empty; plain bytes are zeroed.
    if (DataTypeCanUseMemcpy(dtype)) {
      std::memset(merged->raw_data(), 0, merged->NumElements() * DataTypeSize(dtype));
    }
    const bool known = VisitByElementSize(dtype, [&](auto unit) {
      using U = typename decltype(unit)::type;
      U* dst = MutableElementsAs<U>(merged);
      for (int m = 0; m < n; ++m) {
        const Tensor& indices = ctx->input(m);
        const int32_t* idx = indices.flat<int32_t>().data();
        const U* src = ElementsAs<U>(ctx->input(n + m));
        for (int64_t i = 0; i < indices.NumElements(); ++i) {
          CopyUnits(src + i * slice, dst + idx[i] * slice, slice);
        }
      }
    });
    OP_REQUIRES(
        ctx, known,
        errors::Unimplemented(type_string(), " cannot move elements of ", DataTypeString(dtype)));
  }
};

// TensorFlow's CPU registrations: every number type, bool, string, the quantized types it
// lists and variants.
DataTypeVector StitchTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF,   DT_BFLOAT16,  DT_INT8,       DT_INT16,  DT_INT32,
          DT_INT64, DT_UINT8,  DT_UINT16, DT_UINT32,    DT_UINT64,     DT_BOOL,   DT_STRING,
          DT_QINT8, DT_QUINT8, DT_QINT32, DT_COMPLEX64, DT_COMPLEX128, DT_VARIANT};
}

REGISTER_KERNEL_BUILDER(Name("DynamicStitch")
                            .Device(DEVICE_CPU)
                            .HostMemory("indices")
                            .TypeConstraint("T", StitchTypes()),
                        DynamicStitchOp);
REGISTER_KERNEL_BUILDER(Name("ParallelDynamicStitch")
                            .Device(DEVICE_CPU)
                            .HostMemory("indices")
                            .TypeConstraint("T", StitchTypes()),
                        DynamicStitchOp);

}  // namespace
}  // namespace sluice
