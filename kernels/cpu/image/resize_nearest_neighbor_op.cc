// ResizeNearestNeighbor on the CPU: resize NHWC images to [out_height, out_width], each
// output pixel copying the input pixel nearest its source coordinate.
//
// TensorFlow's coordinate transform, in float, per dim:
//   align_corners:       in = min(round(x * scale), size - 1)   (round half away from zero)
//   half_pixel_centers:  in = max(min(floor((x + 0.5) * scale), size - 1), 0)
//   neither (legacy):    in = min(floor(x * scale), size - 1)
// The source offsets are computed once per dim; pixels (runs of `channels` elements) are
// then copied by element size, output rows split over the intra-op pool.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/image_resizer_state.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Element offsets (coordinate * stride) of the source of each output coordinate, in
// `offsets` (out_size of them) from ctx's allocator.
absl::Status SourceOffsets(OpKernelContext* ctx, const ImageResizerState& st, int64_t out_size,
                           int64_t in_size, float scale, int64_t stride,
                           ScratchArray<int64_t>* offsets) {
  RETURN_IF_ERROR(offsets->Allocate(ctx, out_size));
  for (int64_t x = 0; x < out_size; ++x)
    (*offsets)[x] = NearestSource(st, x, in_size, scale) * stride;
  return absl::OkStatus();
}

// RESOURCE_EXHAUSTED when the allocator refuses the source offsets.
template <typename U>
absl::Status ResizeNearest(OpKernelContext* ctx, const ImageResizerState& st, const U* in, U* out) {
  const int64_t channels = st.channels;
  const int64_t in_row = st.in_width * channels;
  const int64_t in_image = st.in_height * in_row;
  ScratchArray<int64_t> ys, xs;
  RETURN_IF_ERROR(
      SourceOffsets(ctx, st, st.out_height, st.in_height, st.height_scale, in_row, &ys));
  RETURN_IF_ERROR(SourceOffsets(ctx, st, st.out_width, st.in_width, st.width_scale, channels, &xs));
  const int64_t rows = st.batch_size * st.out_height;
  const int64_t row_size = st.out_width * channels;
  const Eigen::TensorOpCost cost(row_size * sizeof(U), row_size * sizeof(U), st.out_width);
  ParallelFor(ctx, rows, rows * row_size, cost, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const U* src = in + (row / st.out_height) * in_image + ys[row % st.out_height];
      U* dst = out + row * row_size;
      for (int64_t x = 0; x < st.out_width; ++x) {
        std::copy_n(src + xs[x], channels, dst + x * channels);
      }
    }
  });
  return absl::OkStatus();
}

class ResizeNearestNeighborOp : public OpKernel {
 public:
  explicit ResizeNearestNeighborOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    const Tensor& input = ctx->input(0);
    absl::Status status;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      status = ResizeNearest<U>(ctx, st, ElementsAs<U>(input), MutableElementsAs<U>(st.output));
    });
    OP_REQUIRES_OK(ctx, status);
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// The dtypes of the op's T attr (TensorFlow's CPU kernels cover each).
constexpr DataType kResizeNearestTypes[] = {DT_INT8,  DT_UINT8, DT_INT16, DT_UINT16, DT_INT32,
                                            DT_INT64, DT_HALF,  DT_FLOAT, DT_DOUBLE, DT_BFLOAT16};

REGISTER_KERNEL_BUILDER(Name("ResizeNearestNeighbor")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", kResizeNearestTypes)
                            .HostMemory("size"),
                        ResizeNearestNeighborOp);

}  // namespace
}  // namespace sluice
