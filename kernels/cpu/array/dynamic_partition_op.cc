// DynamicPartition on the CPU: output i holds, in row-major order, the slices data[j, ...] of
// every index j (over partitions' shape) with partitions[j] == i; its shape is [count_i] +
// data.shape[rank(partitions):]. The inverse of DynamicStitch (dynamic_stitch_op.cc), which
// TensorFlow's gradient of this op uses.
//
// Checks and messages are TensorFlow's: data's shape must start with partitions' shape, and
// every partition must lie in [0, num_partitions) (the message names the first one that does
// not, by its multi-index). Slices move by element size (graph/core/element_bytes.h), so one
// instantiation per size serves every dtype, strings, resources and variants included.
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

bool StartsWith(const TensorShape& shape, const TensorShape& prefix) {
  if (shape.dims() < prefix.dims()) return false;
  for (int k = 0; k < prefix.dims(); ++k) {
    if (shape.dim_size(k) != prefix.dim_size(k)) return false;
  }
  return true;
}

// "[i0,i1,...]" for flat index `flat` of `shape`, or "" for a scalar: TensorFlow names a bad
// partition as partitions[i0,i1] (partitions[3] for a vector, partitions for a scalar).
std::string MultiIndex(const TensorShape& shape, int64_t flat) {
  if (shape.dims() == 0) return "";
  // heap-ok: one per dim of the partitions (rank <= 254)
  absl::InlinedVector<int64_t, 6> index(shape.dims());
  for (int d = shape.dims() - 1; d >= 0; --d) {
    index[d] = flat % shape.dim_size(d);
    flat /= shape.dim_size(d);
  }
  return absl::StrCat("[", absl::StrJoin(index, ","), "]");
}

class DynamicPartitionOp : public OpKernel {
 public:
  explicit DynamicPartitionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_partitions", &num_partitions_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& partitions = ctx->input(1);
    OP_REQUIRES(ctx, StartsWith(data.shape(), partitions.shape()),
                errors::InvalidArgument("data.shape must start with partitions.shape, got ",
                                        "data.shape = ", data.shape().DebugString(),
                                        ", partitions.shape = ", partitions.shape().DebugString()));
    const int64_t n = partitions.NumElements();
    const int32_t* p = partitions.flat<int32_t>().data();
    // heap-ok: one count per output (num_partitions, an attr)
    absl::InlinedVector<int64_t, 8> counts(num_partitions_, 0);
    for (int64_t j = 0; j < n; ++j) {
      OP_REQUIRES(ctx, p[j] >= 0 && p[j] < num_partitions_,
                  errors::InvalidArgument("partitions", MultiIndex(partitions.shape(), j), " = ",
                                          p[j], " is not in [0, ", num_partitions_, ")"));
      ++counts[p[j]];
    }

    // heap-ok: one per output (num_partitions, an attr)
    absl::InlinedVector<Tensor*, 8> outputs(num_partitions_, nullptr);
    for (int i = 0; i < num_partitions_; ++i) {
      TensorShape shape;
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(counts[i]));
      for (int d = partitions.dims(); d < data.dims(); ++d) {
        OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(data.dim_size(d)));
      }
      OP_REQUIRES_OK(ctx, ctx->allocate_output(i, shape, &outputs[i]));
    }
    if (data.NumElements() == 0) return;
    const int64_t slice = data.NumElements() / n;
    const bool movable = VisitByElementSize(data.dtype(), [&](auto unit) {
      using U = typename decltype(unit)::type;
      const U* src = ElementsAs<U>(data);
      // heap-ok: one write position per output (num_partitions, an attr)
      absl::InlinedVector<U*, 8> next(num_partitions_, nullptr);
      for (int i = 0; i < num_partitions_; ++i) {
        if (counts[i] > 0) next[i] = MutableElementsAs<U>(outputs[i]);
      }
      for (int64_t j = 0; j < n; ++j) {
        CopyUnits(src + j * slice, next[p[j]], slice);
        next[p[j]] += slice;
      }
    });
    OP_REQUIRES(ctx, movable,
                errors::Unimplemented(type_string(), " cannot move elements of ",
                                      DataTypeString(data.dtype())));
  }

 private:
  int num_partitions_ = 1;
};

// TensorFlow's CPU registrations: every number type, bool, string, resource and variant.
DataTypeVector PartitionTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF,      DT_BFLOAT16,   DT_INT8,     DT_INT16,
          DT_INT32, DT_INT64,  DT_UINT8,     DT_UINT16,     DT_UINT32,   DT_UINT64,
          DT_BOOL,  DT_STRING, DT_COMPLEX64, DT_COMPLEX128, DT_RESOURCE, DT_VARIANT};
}

REGISTER_KERNEL_BUILDER(Name("DynamicPartition")
                            .Device(DEVICE_CPU)
                            .HostMemory("partitions")
                            .TypeConstraint("T", PartitionTypes()),
                        DynamicPartitionOp);

}  // namespace
}  // namespace sluice
