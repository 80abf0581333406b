// What the list and TensorArray kernels share: moving rows of tensors whatever the dtype
// (copying a range of elements, zeroing one, taking rows along dim 0 as a tensor that
// kernels may read with aligned views), and the bound on how many slots one may have.
//
// Elements live where their kernel's element arguments do (ElementGpu): in host memory on
// the CPU, in device memory for the list kernels registered for GPUs, which move them through
// the GPU's copies instead of memcpy.
#ifndef SLUICE_KERNELS_CPU_LISTS_ELEMENT_ROWS_H_
#define SLUICE_KERNELS_CPU_LISTS_ELEMENT_ROWS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class GpuDeviceContext;

// The GPU whose memory holds the elements `ctx`'s kernel reads and writes: its device's, when
// it runs on a GPU with an argument in device memory; null (host memory) on the CPU and for a
// GPU kernel registered with every argument in host memory (int32 lists, as TensorFlow keeps
// int32 values on the host; list makers and kernels that touch no element, whose lists then
// say host memory until an element is set, which moves nothing).
GpuDeviceContext* ElementGpu(OpKernelContext* ctx);

// n elements of `src` from element `src_at` to `dst` from element `dst_at`. REQUIRES: the
// same dtype, ranges in bounds.
void CopyElementRange(const Tensor& src, int64_t src_at, Tensor* dst, int64_t dst_at, int64_t n);

// Zeroes n elements of `dst` from element `at` (strings, handles and variants, built empty,
// are left as they are).
void ZeroElementRange(Tensor* dst, int64_t at, int64_t n);

// CopyElementRange and ZeroElementRange in the memory of `ctx`'s elements (ElementGpu): on a
// GPU through its context, zeros copied in from host memory. The copies' errors.
absl::Status CopyElements(OpKernelContext* ctx, const Tensor& src, int64_t src_at, Tensor* dst,
                          int64_t dst_at, int64_t n);
absl::Status ZeroElements(OpKernelContext* ctx, Tensor* dst, int64_t at, int64_t n);

// Rows [start, start + rows) of `t` along dim 0 as a tensor of `shape` (with rows * the row
// size elements): a view of `t` when it starts aligned, else a copy (CopyElements) from the
// context's allocator.
absl::Status RowsOf(OpKernelContext* ctx, const Tensor& t, int64_t start, int64_t rows,
                    const TensorShape& shape, Tensor* out);

// RESOURCE_EXHAUSTED when a list or TensorArray of `length` slots is more than Sluice lets
// one hold (kMaxSlots): each slot is a Tensor object, and a length taken from a hostile
// graph must not exhaust memory before the first element is written.
inline constexpr int64_t kMaxSlots = int64_t{1} << 24;
absl::Status CheckSlotCount(int64_t length);

// The elements of the integer tensor `t` (indices, lengths) widened to int64, read as
// IntegerTensorValues reads them and with its INVALID_ARGUMENT errors, into `values` from
// the context's allocator: their number is the graph's data, so a refusal is
// RESOURCE_EXHAUSTED rather than a heap allocation outside the memory limit.
absl::Status IntegerValuesOf(OpKernelContext* ctx, const Tensor& t, ScratchArray<int64_t>* values);

// A tensor of zeros of `dtype` and `shape` where `ctx`'s elements live, for slots that were
// never set.
absl::Status ZerosTensor(OpKernelContext* ctx, DataType dtype, const TensorShape& shape,
                         Tensor* out);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LISTS_ELEMENT_ROWS_H_
