// StridedCopy: gathers a strided view of one tensor into a dense output tensor. Slice,
// StridedSlice, Transpose, Tile, BroadcastTo, ReverseV2, Split and Unpack are all this one
// operation with different strides.
//
// The view is described per output dim: output element (i_0, ..., i_k) (row-major in `dst`)
// is source element offset + sum_d i_d * strides[d] of `src`'s buffer. Strides are in
// elements and may be zero (broadcast) or negative (reverse).
//
// Algorithm: dims of size 1 are dropped and neighbouring dims that are contiguous in the
// source are merged, so most views become a few long rows. Rows whose source is contiguous
// are memcpy'd; when the innermost dim is strided but another dim is contiguous in the
// source (a transpose), the copy goes in square tiles so that reads and writes both stay in
// cache; otherwise elements are gathered one by one. The work is split over the intra-op
// pool with ParallelFor.
//
// REQUIRES (the caller validates user data first): every addressed source element lies in
// `src`; `dst` has `src`'s dtype and prod(dims) elements.
//
// On a GPU (DataOnGpu below) the copy is the GPU's, set by its
// kernel library with SetGpuArrayCopies, so that the array kernels built on StridedCopy (and
// GpuCopyRows, GpuPad) are registered for GPUs too with the CPU's validation and errors. The GPU
// copies are enqueued on the device's compute stream; a failed launch is set on ctx.
#ifndef SLUICE_KERNELS_CPU_ARRAY_STRIDED_COPY_H_
#define SLUICE_KERNELS_CPU_ARRAY_STRIDED_COPY_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// Whether the kernel's data is in GPU memory, so that its copies are the GPU's: it runs on a
// GPU (its device has a gpu_device_context) and its output 0 is in device memory. Kernels
// registered for GPUs with their data in host memory (int32, as TensorFlow registers it)
// copy on the host. A kernel's data outputs share one memory type in every registration.
bool DataOnGpu(OpKernelContext* ctx);

void StridedCopy(OpKernelContext* ctx, const Tensor& src, int64_t offset,
                 absl::Span<const int64_t> dims, absl::Span<const int64_t> strides, Tensor* dst);

// A GPU's copies: strided_copy is StridedCopy's, with its contract; copy_rows copies `rows`
// rows of row_bytes bytes, dst + r * dst_pitch <- src + r * src_pitch (pitches in bytes); pad
// as its field says. Each returns the launch's status. strided_copy gets the view merged as
// StridedCopy merges it (no dim of 1 unless the view is one element; neighbouring dims contiguous
// in the source joined), dst non-empty. Set once, by the GPU kernel library's static initializer
// (kernels/cuda).
struct GpuArrayCopies {
  absl::Status (*strided_copy)(OpKernelContext* ctx, const Tensor& src, int64_t offset,
                               absl::Span<const int64_t> dims, absl::Span<const int64_t> strides,
                               Tensor* dst) = nullptr;
  absl::Status (*copy_rows)(OpKernelContext* ctx, const void* src, int64_t src_pitch, void* dst,
                            int64_t dst_pitch, int64_t row_bytes, int64_t rows) = nullptr;
  // Padding: dst is src's in_dims[d] grown to out_dims[d], before[d] of them before, along each
  // dim d. mirror < 0: constant padding (Pad, PadV2; dims merged as pad_op.cc merges them), the
  // new elements equal to *pad_value (one element in host memory). Otherwise MirrorPad's
  // (pad_value unused): 0 SYMMETRIC, 1 REFLECT, with TensorFlow's limits on the padding checked.
  absl::Status (*pad)(OpKernelContext* ctx, const Tensor& src, absl::Span<const int64_t> in_dims,
                      absl::Span<const int64_t> out_dims, absl::Span<const int64_t> before,
                      int mirror, const void* pad_value, Tensor* dst) = nullptr;
};

// GpuArrayCopies::copy_rows and ::pad on the kernel's GPU (UNIMPLEMENTED when this build has
// no GPU copies), for kernels whose CPU path is their own (Concat and Pack, Pad, MirrorPad).
// REQUIRES:
// the kernel runs on a GPU.
absl::Status GpuCopyRows(OpKernelContext* ctx, const void* src, int64_t src_pitch, void* dst,
                         int64_t dst_pitch, int64_t row_bytes, int64_t rows);
absl::Status GpuPad(OpKernelContext* ctx, const Tensor& src, absl::Span<const int64_t> in_dims,
                    absl::Span<const int64_t> out_dims, absl::Span<const int64_t> before,
                    const void* pad_value, Tensor* dst);
// MirrorPad's padding on the kernel's GPU (GpuArrayCopies::pad with `mirror` 0 or 1).
absl::Status GpuMirrorPad(OpKernelContext* ctx, const Tensor& src,
                          absl::Span<const int64_t> in_dims, absl::Span<const int64_t> out_dims,
                          absl::Span<const int64_t> before, int mirror, Tensor* dst);
// Returns true, so that a static initializer can call it.
bool SetGpuArrayCopies(const GpuArrayCopies& copies);

// The row-major element strides of `shape`.
absl::InlinedVector<int64_t, 8> RowMajorStrides(const TensorShape& shape);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_STRIDED_COPY_H_
