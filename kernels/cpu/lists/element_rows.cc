#include "kernels/cpu/lists/element_rows.h"

#include <cstring>
#include <utility>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/types.h"

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
  CopyElementRange(t, start * row_size, out, 0, shape.num_elements());
  return absl::OkStatus();
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
  ZeroElementRange(out, 0, out->NumElements());
  return absl::OkStatus();
}

}  // namespace sluice
