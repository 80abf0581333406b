#include "kernels/cpu/array/strided_copy.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "absl/container/inlined_vector.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/parallel_for.h"

namespace sluice {
namespace {

using Dims = absl::InlinedVector<int64_t, 8>;

// Side of the square tiles a transpose is copied in.
constexpr int64_t kTile = 32;

struct Plan {
  Dims dims;     // merged output dims, outermost first (never empty)
  Dims strides;  // source stride per merged dim
};

Plan Simplify(absl::Span<const int64_t> dims, absl::Span<const int64_t> strides) {
  Plan plan;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    if (!plan.dims.empty() && plan.strides.back() == strides[d] * dims[d]) {
      plan.dims.back() *= dims[d];
      plan.strides.back() = strides[d];
    } else {
      plan.dims.push_back(dims[d]);
      plan.strides.push_back(strides[d]);
    }
  }
  if (plan.dims.empty()) {
    plan.dims.push_back(1);
    plan.strides.push_back(1);
  }
  return plan;
}

// Source offset of the first element of output row `row` (rows: all dims but the last).
int64_t RowOffset(const Plan& plan, int64_t row) {
  int64_t off = 0;
  for (int k = static_cast<int>(plan.dims.size()) - 2; k >= 0; --k) {
    off += (row % plan.dims[k]) * plan.strides[k];
    row /= plan.dims[k];
  }
  return off;
}

template <typename U>
void CopyPlanRows(const Plan& plan, const U* src, U* dst, int64_t first, int64_t last) {
  const int64_t inner = plan.dims.back();
  const int64_t stride = plan.strides.back();
  for (int64_t row = first; row < last; ++row) {
    const U* s = src + RowOffset(plan, row);
    U* d = dst + row * inner;
    if constexpr (std::is_trivially_copyable_v<U>) {
      if (stride == 1) {
        std::memcpy(d, s, inner * sizeof(U));
        continue;
      }
    }
    for (int64_t i = 0; i < inner; ++i) d[i] = s[i * stride];
  }
}

// The transpose case: dim j (not the last) is contiguous in the source. Units are
// (outer index over the other leading dims, tile of dim j); each copies a kTile x inner
// band in kTile x kTile tiles.
template <typename U>
void CopyTiles(const Plan& plan, int j, const U* src, U* dst, int64_t first, int64_t last) {
  const int n = static_cast<int>(plan.dims.size());
  const int64_t inner = plan.dims[n - 1];
  const int64_t s_inner = plan.strides[n - 1];
  const int64_t dj = plan.dims[j];
  const int64_t tiles_j = (dj + kTile - 1) / kTile;
  // Output stride of dim j.
  int64_t out_j = inner;
  for (int k = j + 1; k < n - 1; ++k) out_j *= plan.dims[k];
  for (int64_t unit = first; unit < last; ++unit) {
    int64_t rest = unit / tiles_j;
    const int64_t j0 = (unit % tiles_j) * kTile;
    const int64_t j1 = std::min(dj, j0 + kTile);
    int64_t s_off = 0;
    int64_t d_off = 0;
    int64_t out_stride = inner;
    for (int k = n - 2; k >= 0; --k) {
      if (k != j) {
        const int64_t i = rest % plan.dims[k];
        rest /= plan.dims[k];
        s_off += i * plan.strides[k];
        d_off += i * out_stride;
      }
      out_stride *= plan.dims[k];
    }
    for (int64_t l0 = 0; l0 < inner; l0 += kTile) {
      const int64_t l1 = std::min(inner, l0 + kTile);
      for (int64_t jj = j0; jj < j1; ++jj) {
        const U* s = src + s_off + jj;
        U* d = dst + d_off + jj * out_j;
        for (int64_t l = l0; l < l1; ++l) d[l] = s[l * s_inner];
      }
    }
  }
}

template <typename U>
void Copy(OpKernelContext* ctx, const Plan& plan, const U* src, U* dst) {
  const int n = static_cast<int>(plan.dims.size());
  const int64_t inner = plan.dims[n - 1];
  int64_t total = 1;
  for (int64_t d : plan.dims) total *= d;
  const double bytes = 2.0 * sizeof(U);
  int j = -1;
  if (plan.strides[n - 1] != 1 && inner >= kTile / 2) {
    for (int k = 0; k < n - 1; ++k) {
      if (plan.strides[k] == 1 && plan.dims[k] >= kTile / 2) j = k;
    }
  }
  if (j >= 0) {
    const int64_t tiles_j = (plan.dims[j] + kTile - 1) / kTile;
    const int64_t units = total / inner / plan.dims[j] * tiles_j;
    const Eigen::TensorOpCost cost(bytes * kTile * inner / 2, bytes * kTile * inner / 2, 0);
    ParallelFor(ctx, units, total, cost,
                [&](int64_t first, int64_t last) { CopyTiles<U>(plan, j, src, dst, first, last); });
    return;
  }
  const int64_t rows = total / inner;
  const Eigen::TensorOpCost cost(bytes * inner / 2, bytes * inner / 2, 0);
  ParallelFor(ctx, rows, total, cost,
              [&](int64_t first, int64_t last) { CopyPlanRows<U>(plan, src, dst, first, last); });
}

}  // namespace

absl::InlinedVector<int64_t, 8> RowMajorStrides(const TensorShape& shape) {
  // heap-ok: one per dim of the shape (rank <= 254)
  absl::InlinedVector<int64_t, 8> strides(shape.dims());
  int64_t s = 1;
  for (int d = shape.dims() - 1; d >= 0; --d) {
    strides[d] = s;
    s *= shape.dim_size(d);
  }
  return strides;
}

namespace {

GpuArrayCopies& GpuCopies() {
  static GpuArrayCopies copies;  // set at static initialisation, before any kernel runs
  return copies;
}

absl::Status NoGpuCopies() {
  return errors::Unimplemented("This build of Sluice has no GPU array copies");
}

}  // namespace

bool DataOnGpu(OpKernelContext* ctx) {
  return ctx->device()->gpu_device_context() != nullptr && ctx->num_outputs() > 0 &&
         ctx->output_memory_type(0) == DEVICE_MEMORY;
}

bool SetGpuArrayCopies(const GpuArrayCopies& copies) {
  GpuCopies() = copies;
  return true;
}

absl::Status GpuPad(OpKernelContext* ctx, const Tensor& src, absl::Span<const int64_t> in_dims,
                    absl::Span<const int64_t> out_dims, absl::Span<const int64_t> before,
                    const void* pad_value, Tensor* dst) {
  const auto pad = GpuCopies().pad;
  if (pad == nullptr) return NoGpuCopies();
  return pad(ctx, src, in_dims, out_dims, before, /*mirror=*/-1, pad_value, dst);
}

absl::Status GpuMirrorPad(OpKernelContext* ctx, const Tensor& src,
                          absl::Span<const int64_t> in_dims, absl::Span<const int64_t> out_dims,
                          absl::Span<const int64_t> before, int mirror, Tensor* dst) {
  const auto pad = GpuCopies().pad;
  if (pad == nullptr) return NoGpuCopies();
  return pad(ctx, src, in_dims, out_dims, before, mirror, /*pad_value=*/nullptr, dst);
}

absl::Status GpuCopyRows(OpKernelContext* ctx, const void* src, int64_t src_pitch, void* dst,
                         int64_t dst_pitch, int64_t row_bytes, int64_t rows) {
  if (rows == 0 || row_bytes == 0) return absl::OkStatus();
  const auto copy = GpuCopies().copy_rows;
  if (copy == nullptr) return NoGpuCopies();
  return copy(ctx, src, src_pitch, dst, dst_pitch, row_bytes, rows);
}

void StridedCopy(OpKernelContext* ctx, const Tensor& src, int64_t offset,
                 absl::Span<const int64_t> dims, absl::Span<const int64_t> strides, Tensor* dst) {
  if (dst->NumElements() == 0) return;
  const Plan plan = Simplify(dims, strides);
  if (DataOnGpu(ctx)) {
    const auto copy = GpuCopies().strided_copy;
    const absl::Status s =
        copy == nullptr ? NoGpuCopies() : copy(ctx, src, offset, plan.dims, plan.strides, dst);
    if (!s.ok()) ctx->SetStatus(s);
    return;
  }
  VisitByElementSize(src.dtype(), [&](auto unit) {
    using U = typename decltype(unit)::type;
    Copy<U>(ctx, plan, static_cast<const U*>(src.raw_data()) + offset,
            static_cast<U*>(dst->raw_data()));
  });
}

}  // namespace sluice
