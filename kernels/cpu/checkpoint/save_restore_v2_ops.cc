// SaveV2 and RestoreV2 on the CPU: V2 checkpoints (tensor bundles, io/tensor_bundle_*.h),
// with TensorFlow's checks, order and errors.
//
// RestoreV2 looks every name up first (in sorted order, as TensorFlow), reporting the first
// lookup error (NOT_FOUND "Key K not found in checkpoint", the reader's DATA_LOSS...) or, for
// all of them at once, the dtypes that differ from the attr (INVALID_ARGUMENT, one line each);
// then it reads each tensor into its output. A shape_and_slices entry "" restores the whole
// tensor; "dims slice" restores that slice of a tensor saved whole (its dims must be the stored
// shape; as TensorFlow, only some dtypes can be sliced). Without PREFIX.index, TensorFlow falls
// back to the V1 format: Sluice reports NOT_FOUND as TensorFlow does when nothing matches the
// prefix, UNIMPLEMENTED otherwise. Partitioned tensors (saved in slices) are UNIMPLEMENTED.
//
// SaveV2 writes one bundle with TensorFlow's bytes (io/tensor_bundle_writer.h); a non-empty
// shape_and_slices entry must describe the whole tensor (saving slices is UNIMPLEMENTED).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "graph/ops/shape_and_slice_spec.h"
#include "io/tensor_bundle_reader.h"
#include "io/tensor_bundle_writer.h"
#include "kernels/cpu/checkpoint/checkpoint_inputs.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Copies the block of `whole` that `spec` selects into `out` (shaped spec.slice_shape).
void CopySlice(const Tensor& whole, const ShapeAndSlice& spec, Tensor* out) {
  const int rank = spec.full_shape.dims();
  const int64_t n = out->NumElements();
  if (n == 0) return;
  // heap-ok: one entry per dim, at most TensorShape's rank limit
  absl::InlinedVector<int64_t, 8> strides(rank, 1), index(rank, 0);
  for (int d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * spec.full_shape.dim_size(d + 1);
  VisitByElementSize(whole.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = static_cast<const U*>(whole.raw_data());
    U* dst = static_cast<U*>(out->raw_data());
    for (int64_t j = 0; j < n; ++j) {
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) offset += (spec.starts[d] + index[d]) * strides[d];
      dst[j] = src[offset];
      for (int d = rank - 1; d >= 0; --d) {
        if (++index[d] < spec.slice_shape.dim_size(d)) break;
        index[d] = 0;
      }
    }
  });
}

// The dtypes TensorFlow's reader copies a part of a stored tensor for (its GetSliceValue); a
// slice that is not the whole tensor of another dtype is INVALID_ARGUMENT there.
bool CanCopySlice(DataType dtype) {
  switch (dtype) {
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_INT32:
    case DT_UINT8:
    case DT_INT16:
    case DT_INT8:
    case DT_COMPLEX64:
    case DT_COMPLEX128:
    case DT_INT64:
    case DT_BOOL:
    case DT_QINT32:
    case DT_QUINT8:
    case DT_QINT8:
    case DT_BFLOAT16:
      return true;
    default:
      return false;
  }
}

class RestoreV2Op : public OpKernel {
 public:
  explicit RestoreV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtypes", &dtypes_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& prefix = ctx->input(0);
    const Tensor& tensor_names = ctx->input(1);
    const Tensor& shape_and_slices = ctx->input(2);
    OP_REQUIRES(ctx, tensor_names.NumElements() == static_cast<int64_t>(dtypes_.size()),
                errors::InvalidArgument("Got ", tensor_names.NumElements(), " tensor names, but ",
                                        dtypes_.size(), " expected dtypes."));
    OP_REQUIRES_OK(ctx,
                   checkpoint::ValidateInputs(false, ctx, prefix, tensor_names, shape_and_slices));
    const std::string& prefix_string = prefix.base<std::string>()[0];
    if (!checkpoint::HasV2Index(prefix_string)) {
      ctx->SetStatus(checkpoint::V1CheckpointFallback(prefix_string));
      return;
    }
    auto opened = BundleReader::Open(prefix_string);
    OP_REQUIRES_OK(ctx, opened.status());
    BundleReader& reader = **opened;
    const std::string* names = tensor_names.base<std::string>();
    const std::string* specs = shape_and_slices.base<std::string>();

    // heap-ok: one entry per output of the node (the dtypes attr)
    std::vector<int64_t> order(dtypes_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return names[a] < names[b]; });

    std::vector<std::string> mismatches;  // at most one per output
    for (const int64_t i : order) {
      DataType dtype;
      TensorShape shape;
      OP_REQUIRES_OK(ctx, reader.LookupDtypeAndShape(names[i], &dtype, &shape));
      if (dtype != dtypes_[i]) {
        mismatches.push_back(absl::StrCat(
            "tensor_name = ", names[i], "; expected dtype ", DataTypeString(dtypes_[i]),
            " does not equal original dtype ", DataTypeString(dtype)));
      }
    }
    OP_REQUIRES(ctx, mismatches.empty(), errors::InvalidArgument(absl::StrJoin(mismatches, "\n")));

    for (const int64_t i : order) {
      DataType dtype;
      TensorShape shape;
      OP_REQUIRES_OK(ctx, reader.LookupDtypeAndShape(names[i], &dtype, &shape));
      Tensor* out = nullptr;
      if (specs[i].empty()) {
        OP_REQUIRES_OK(ctx, ctx->allocate_output(static_cast<int>(i), shape, &out));
        OP_REQUIRES_OK(ctx, reader.ReadInto(names[i], out));
        continue;
      }
      ShapeAndSlice spec;
      OP_REQUIRES_OK(ctx, ParseShapeAndSlice(specs[i], &spec));
      OP_REQUIRES(ctx, shape.IsSameSize(spec.full_shape),
                  errors::InvalidArgument(
                      "tensor_name = ", names[i], "; shape in shape_and_slice spec ",
                      spec.full_shape.DebugString(),
                      " does not match the shape stored in checkpoint: ", shape.DebugString()));
      OP_REQUIRES_OK(ctx, ctx->allocate_output(static_cast<int>(i), spec.slice_shape, &out));
      if (spec.IsFull()) {
        OP_REQUIRES_OK(ctx, reader.ReadInto(names[i], out));
        continue;
      }
      OP_REQUIRES(ctx, CanCopySlice(dtype),
                  errors::InvalidArgument("Dtype ", DataTypeString(dtype), " not supported."));
      Tensor whole;
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(dtype, shape, &whole));
      OP_REQUIRES_OK(ctx, reader.ReadInto(names[i], &whole));
      CopySlice(whole, spec, out);
    }
  }

 private:
  DataTypeVector dtypes_;
};

class SaveV2Op : public OpKernel {
 public:
  explicit SaveV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    constexpr int kFixedInputs = 3;
    const Tensor& prefix = ctx->input(0);
    const Tensor& tensor_names = ctx->input(1);
    const Tensor& shape_and_slices = ctx->input(2);
    OP_REQUIRES_OK(ctx,
                   checkpoint::ValidateInputs(true, ctx, prefix, tensor_names, shape_and_slices));
    const std::string& prefix_string = prefix.base<std::string>()[0];
    const std::string* names = tensor_names.base<std::string>();
    const std::string* specs = shape_and_slices.base<std::string>();
    BundleWriter writer(prefix_string);
    OP_REQUIRES_OK(ctx, writer.status());
    for (int64_t i = 0; i < tensor_names.NumElements(); ++i) {
      const Tensor& tensor = ctx->input(static_cast<int>(i) + kFixedInputs);
      if (!specs[i].empty()) {
        ShapeAndSlice spec;
        OP_REQUIRES_OK(ctx, ParseShapeAndSlice(specs[i], &spec));
        OP_REQUIRES(ctx, spec.slice_shape.IsSameSize(tensor.shape()),
                    errors::InvalidArgument("Slice in shape_and_slice specification does not "
                                            "match the shape of the tensor to  save: ",
                                            specs[i], ", tensor: ", tensor.shape().DebugString()));
        OP_REQUIRES(ctx, spec.IsFull(),
                    errors::Unimplemented("SaveV2 of a slice (", specs[i], ") of ", names[i],
                                          ": Sluice saves whole tensors only"));
      }
      OP_REQUIRES_OK(ctx, writer.Add(names[i], tensor));
    }
    OP_REQUIRES_OK(ctx, writer.Finish());
  }
};

REGISTER_KERNEL_BUILDER(Name("RestoreV2").Device(DEVICE_CPU), RestoreV2Op);
REGISTER_KERNEL_BUILDER(Name("SaveV2").Device(DEVICE_CPU), SaveV2Op);

}  // namespace
}  // namespace sluice
