// The GPU's array copies (kernels/cpu/array/strided_copy.h's GpuArrayCopies), set at static
// initialisation: with them, the array kernels registered for GPUs in kernels/cpu/array
// (Transpose, Slice, StridedSlice, Tile, BroadcastTo, ReverseV2, Split, SplitV, Unpack,
// Concat, ConcatV2, Pack; Pad, PadV2 and MirrorPad in kernels/cpu/indexing) validate as on the
// CPU and copy with array_copies.cu's kernels.
#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "kernels/cuda/array_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/strided_view.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

absl::Status StridedCopyOnGpu(OpKernelContext* ctx, const Tensor& src, int64_t offset,
                              absl::Span<const int64_t> dims, absl::Span<const int64_t> strides,
                              Tensor* dst) {
  StridedView view;
  if (!MakeStridedView(dims.data(), strides.data(), static_cast<int>(dims.size()), &view)) {
    return errors::Unimplemented(ctx->op_kernel().type_string(), " on a GPU copies at most ",
                                 StridedView::kMaxDims, " dims that cannot be merged; got ",
                                 dims.size());
  }
  CUstream_st* stream = ComputeStream(ctx);
  if (stream == nullptr) return ctx->status();
  const int bytes = DataTypeSize(src.dtype());
  const char* first = static_cast<const char*>(src.raw_data()) + offset * bytes;
  if (!LaunchStridedGather(bytes, first, dst->raw_data(), view, stream)) {
    return errors::Internal("No GPU copy of ", DataTypeString(src.dtype()), " elements");
  }
  return LastLaunchStatus(ctx->op_kernel().type_string());
}

absl::Status CopyRowsOnGpu(OpKernelContext* ctx, const void* src, int64_t src_pitch, void* dst,
                           int64_t dst_pitch, int64_t row_bytes, int64_t rows) {
  CUstream_st* stream = ComputeStream(ctx);
  if (stream == nullptr) return ctx->status();
  LaunchCopyRows(src, src_pitch, dst, dst_pitch, row_bytes, rows, stream);
  return LastLaunchStatus(ctx->op_kernel().type_string());
}

absl::Status PadOnGpu(OpKernelContext* ctx, const Tensor& src, absl::Span<const int64_t> in_dims,
                      absl::Span<const int64_t> out_dims, absl::Span<const int64_t> before,
                      int mirror, const void* pad_value, Tensor* dst) {
  PaddedView view;
  if (in_dims.size() > PaddedView::kMaxDims) {
    return errors::Unimplemented(ctx->op_kernel().type_string(), " on a GPU pads at most ",
                                 PaddedView::kMaxDims, " dims");
  }
  // A mirror never reads the pad value; the kernel still takes one element by value.
  static constexpr char kZeros[16] = {};
  if (mirror >= 0) pad_value = kZeros;
  view.mirror = mirror;
  view.rank = static_cast<int>(in_dims.size());
  for (int d = 0; d < view.rank; ++d) {
    view.in_dims[d] = in_dims[d];
    view.out_dims[d] = out_dims[d];
    view.before[d] = before[d];
  }
  view.num_elements = dst->NumElements();
  if (view.num_elements == 0) return absl::OkStatus();
  CUstream_st* stream = ComputeStream(ctx);
  if (stream == nullptr) return ctx->status();
  if (!LaunchPad(DataTypeSize(src.dtype()), src.raw_data(), dst->raw_data(), view, pad_value,
                 stream)) {
    return errors::Internal("No GPU padding of ", DataTypeString(src.dtype()), " elements");
  }
  return LastLaunchStatus(ctx->op_kernel().type_string());
}

GpuArrayCopies MakeCopies() {
  GpuArrayCopies copies;
  copies.strided_copy = StridedCopyOnGpu;
  copies.copy_rows = CopyRowsOnGpu;
  copies.pad = PadOnGpu;
  return copies;
}

[[maybe_unused]] const bool kRegistered = SetGpuArrayCopies(MakeCopies());

}  // namespace
}  // namespace cuda
}  // namespace sluice
