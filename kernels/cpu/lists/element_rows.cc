#include "kernels/cpu/lists/element_rows.h"

#include <cstring>
#include <utility>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {

void CopyElementRange(const Tensor& src, int64_t src_at, Tensor* dst, int64_t dst_at, int64_t n) {
  VisitByElementSize(src.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    CopyUnits(ElementsAs<U>(src) + src_at, MutableElementsAs<U>(dst) + dst_at, n);
  });
}

void ZeroElementRange(Tensor* dst, int64_t at, int64_t n) {
  if (!DataTypeCanUseMemcpy(dst->dtype()) || n == 0) return;
  const size_t size = static_cast<size_t>(DataTypeSize(dst->dtype()));
  std::memset(static_cast<char*>(dst->raw_data()) + at * size, 0, n * size);
}

GpuDeviceContext* ElementGpu(OpKernelContext* ctx) {
  GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
  if (gpu == nullptr) return nullptr;
  // On a GPU the elements are in device memory unless the kernel's registration keeps every
  // argument in host memory (int32 lists; kernels that touch no element need no answer).
  const OpKernel& kernel = ctx->op_kernel();
  for (MemoryType t : kernel.input_memory_types()) {
    if (t == DEVICE_MEMORY) return gpu;
  }
  for (MemoryType t : kernel.output_memory_types()) {
    if (t == DEVICE_MEMORY) return gpu;
  }
  return nullptr;
}

namespace {

// Elements [at, at + n) of `t` as a vector tensor sharing its buffer. REQUIRES: in bounds.
Tensor ElementsView(const Tensor& t, int64_t at, int64_t n) {
  Tensor flat;
  // shape-safe: t's element count, which a valid shape bounds
  CHECK(flat.CopyFrom(t, TensorShape({t.NumElements()})));
  return flat.Slice(at, at + n);
}

}  // namespace

absl::Status CopyElements(OpKernelContext* ctx, const Tensor& src, int64_t src_at, Tensor* dst,
                          int64_t dst_at, int64_t n) {
  GpuDeviceContext* gpu = ElementGpu(ctx);
  if (gpu == nullptr) {
    CopyElementRange(src, src_at, dst, dst_at, n);
    return absl::OkStatus();
  }
  if (n == 0) return absl::OkStatus();
  Tensor to = ElementsView(*dst, dst_at, n);
  return gpu->CopyDeviceToDevice(ElementsView(src, src_at, n), &to);
}

absl::Status ZeroElements(OpKernelContext* ctx, Tensor* dst, int64_t at, int64_t n) {
  GpuDeviceContext* gpu = ElementGpu(ctx);
  if (gpu == nullptr) {
    ZeroElementRange(dst, at, n);
    return absl::OkStatus();
  }
  if (n == 0) return absl::OkStatus();
  // shape-safe: n elements of dst, in bounds (REQUIRES)
  ASSIGN_OR_RETURN(Tensor zeros, Tensor::Allocate(ctx->device()->GetHostAllocator(), dst->dtype(),
                                                  TensorShape({n})));
  ZeroElementRange(&zeros, 0, n);
  Tensor to = ElementsView(*dst, at, n);
  return gpu->CopyHostToDevice(zeros, &to);
}

absl::Status RowsOf(OpKernelContext* ctx, const Tensor& t, int64_t start, int64_t rows,
                    const TensorShape& shape, Tensor* out) {
  if (shape.num_elements() == 0) return ctx->allocate_temp(t.dtype(), shape, out);
  Tensor view;
  if (view.CopyFrom(t.Slice(start, start + rows), shape) && view.IsAligned()) {
    *out = std::move(view);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(ctx->allocate_temp(t.dtype(), shape, out));
  const int64_t row_size = t.NumElements() / t.dim_size(0);
  return CopyElements(ctx, t, start * row_size, out, 0, shape.num_elements());
}

absl::Status CheckSlotCount(int64_t length) {
  if (length > kMaxSlots) {
    return errors::ResourceExhausted("A list or TensorArray of ", length,
                                     " elements is longer than the ", kMaxSlots, " Sluice allows");
  }
  return absl::OkStatus();
}

absl::Status IntegerValuesOf(OpKernelContext* ctx, const Tensor& t, ScratchArray<int64_t>* values) {
  if (DataTypeIsInteger(t.dtype())) RETURN_IF_ERROR(values->Allocate(ctx, t.NumElements()));
  return WidenIntegerTensor(t, values->data());
}

absl::Status ZerosTensor(OpKernelContext* ctx, DataType dtype, const TensorShape& shape,
                         Tensor* out) {
  RETURN_IF_ERROR(ctx->allocate_temp(dtype, shape, out));
  return ZeroElements(ctx, out, 0, out->NumElements());
}

}  // namespace sluice
