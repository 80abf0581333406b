// ResizeArea on the CPU: each output pixel is the average of the input area it covers,
// partly covered input pixels weighted by the covered fraction; the output is float
// whatever the input dtype.
//
// Algorithm (TensorFlow's, to match it bit for bit): output cell y covers [y * s, (y + 1) *
// s) of the input (s = in/out, or (in-1)/(out-1) with align_corners), in float; rows
// floor(y * s) .. ceil((y + 1) * s) - 1 contribute, each weighing the part of it inside the
// cell (indices clamped to the image), and likewise columns. Per channel the sum is, in
// float and in this order, over rows of (first column * its weight + the middle columns +
// last column * its weight) * the row's weight, times 1 / (s_y * s_x) (divided in double, as
// TensorFlow does). half_pixel_centers is not an attr of this op.
//
// Checked by ImageResizerState, as TensorFlow does. Output rows are split over the intra-op
// pool.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
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

inline int64_t Bound(int64_t value, int64_t limit) {
  return std::min(limit - 1, std::max(int64_t{0}, value));
}

// The weight of input index v in the cell [in, in1) of width `scale`, as TensorFlow computes
// it.
inline float CellWeight(int64_t v, float in, float in1, float scale) {
  if (static_cast<float>(v) < in) {
    return static_cast<float>(v + 1) > in1 ? scale : static_cast<float>(v + 1) - in;
  }
  return static_cast<float>(v + 1) > in1 ? in1 - static_cast<float>(v) : 1.0f;
}

struct Span {
  int64_t start;  // first contributing index (not clamped)
  int64_t end;    // one past the last
  float start_scale;
  float end_minus_one_scale;
};

Span ComputeSpan(int64_t out, float scale) {
  const float in = static_cast<float>(out) * scale;
  const float in1 = static_cast<float>(out + 1) * scale;
  Span span;
  span.start = static_cast<int64_t>(std::floor(in));
  span.end = static_cast<int64_t>(std::ceil(in1));
  span.start_scale = CellWeight(span.start, in, in1, scale);
  span.end_minus_one_scale = CellWeight(span.end - 1, in, in1, scale);
  return span;
}

// One input row of an output row's cell: where it starts and the part of it inside the cell.
template <typename T>
struct RowWeight {
  const T* row;
  float scale;
};

// The most input rows any output row's cell takes, floor(y * s) .. ceil((y + 1) * s) - 1 as
// the kernel computes them: each parallel range's scratch holds that many RowWeights.
int64_t MaxCellRows(const ImageResizerState& st) {
  int64_t most = 0;
  for (int64_t y = 0; y < st.out_height; ++y) {
    const float in_y = static_cast<float>(y) * st.height_scale;
    const float in_y1 = static_cast<float>(y + 1) * st.height_scale;
    const int64_t y_start = static_cast<int64_t>(std::floor(in_y));
    const int64_t y_end = static_cast<int64_t>(std::ceil(in_y1));
    most = std::max(most, y_end - y_start);
  }
  return most;
}

// RESOURCE_EXHAUSTED when the allocator refuses the column spans or the row weights.
template <typename T>
absl::Status ResizeArea(OpKernelContext* ctx, const ImageResizerState& st, const T* in,
                        float* out) {
  const int64_t channels = st.channels;
  const int64_t in_row = st.in_width * channels;
  const int64_t in_image = st.in_height * in_row;
  ScratchArray<Span> xs;
  RETURN_IF_ERROR(xs.Allocate(ctx, st.out_width));
  for (int64_t x = 0; x < st.out_width; ++x) xs[x] = ComputeSpan(x, st.width_scale);
  const float scale =
      static_cast<float>(1.0 / static_cast<double>(st.height_scale * st.width_scale));
  const int64_t rows = st.batch_size * st.out_height;
  const int64_t row_size = st.out_width * channels;
  const double cell = std::max(1.0f, st.height_scale) * std::max(1.0f, st.width_scale);
  const Eigen::TensorOpCost cost(cell * row_size * sizeof(T), row_size * sizeof(float),
                                 2 * cell * row_size);
  return ParallelForWithScratch<RowWeight<T>>(
      ctx, rows, rows * row_size, cost, MaxCellRows(st),
      [&](int64_t first, int64_t last, RowWeight<T>* y_rows) {
        for (int64_t row = first; row < last; ++row) {
          const int64_t y = row % st.out_height;
          const T* image = in + (row / st.out_height) * in_image;
          const float in_y = static_cast<float>(y) * st.height_scale;
          const float in_y1 = static_cast<float>(y + 1) * st.height_scale;
          const int64_t y_start = static_cast<int64_t>(std::floor(in_y));
          const int64_t y_end = static_cast<int64_t>(std::ceil(in_y1));
          int64_t num_rows = 0;
          for (int64_t i = y_start; i < y_end; ++i) {
            y_rows[num_rows++] = {image + Bound(i, st.in_height) * in_row,
                                  CellWeight(i, in_y, in_y1, st.height_scale)};
          }
          float* dst = out + row * row_size;
          for (int64_t x = 0; x < st.out_width; ++x) {
            const Span& xs_x = xs[x];
            const int64_t first_col = Bound(xs_x.start, st.in_width) * channels;
            const int64_t last_col = Bound(xs_x.end - 1, st.in_width) * channels;
            for (int64_t c = 0; c < channels; ++c) {
              float sum = 0;
              for (int64_t i = 0; i < num_rows; ++i) {
                const T* ptr = y_rows[i].row;
                float sum_y = static_cast<float>(ptr[first_col + c]) * xs_x.start_scale;
                if (xs_x.start + 1 != xs_x.end) {
                  for (int64_t v = xs_x.start + 1; v < xs_x.end - 1; ++v) {
                    sum_y += static_cast<float>(ptr[Bound(v, st.in_width) * channels + c]);
                  }
                  sum_y += static_cast<float>(ptr[last_col + c]) * xs_x.end_minus_one_scale;
                }
                sum += sum_y * y_rows[i].scale;
              }
              dst[x * channels + c] = sum * scale;
            }
          }
        }
      });
}

template <typename T>
class ResizeAreaOp : public OpKernel {
 public:
  explicit ResizeAreaOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("align_corners", &align_corners_));
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerState st(align_corners_, /*half_pixel_centers=*/false);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    // With align_corners, a dim of one pixel has scale (1 - 1) / (out - 1) = 0, and every
    // cell would be empty (0 * inf = NaN); TensorFlow's results for it (checked with 2.21)
    // are those of the scale in / out, which is what its area arithmetic needs.
    if (align_corners_ && st.in_height == 1) {
      st.height_scale = 1.0f / static_cast<float>(st.out_height);
    }
    if (align_corners_ && st.in_width == 1) {
      st.width_scale = 1.0f / static_cast<float>(st.out_width);
    }
    OP_REQUIRES_OK(ctx, ResizeArea<T>(ctx, st, ctx->input(0).base<T>(), st.output->base<float>()));
  }

 private:
  bool align_corners_ = false;
};

// The dtypes of the op's T attr (TensorFlow's CPU kernels cover each).
#define REGISTER_RESIZE_AREA(T)                                                        \
  REGISTER_KERNEL_BUILDER(                                                             \
      Name("ResizeArea").Device(DEVICE_CPU).TypeConstraint<T>("T").HostMemory("size"), \
      ResizeAreaOp<T>);
SLUICE_CALL_int8(REGISTER_RESIZE_AREA) SLUICE_CALL_uint8(REGISTER_RESIZE_AREA)
    SLUICE_CALL_int16(REGISTER_RESIZE_AREA) SLUICE_CALL_uint16(REGISTER_RESIZE_AREA)
        SLUICE_CALL_int32(REGISTER_RESIZE_AREA) SLUICE_CALL_int64(REGISTER_RESIZE_AREA)
            SLUICE_CALL_FLOAT_TYPES(REGISTER_RESIZE_AREA)
#undef REGISTER_RESIZE_AREA

}  // namespace
}  // namespace sluice
