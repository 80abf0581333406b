// CropAndResize on the CPU: crops[b] is the box boxes[b] (normalized corners y1, x1, y2, x2)
// of image[box_ind[b]], sampled on a crop_height x crop_width grid by bilinear interpolation
// or the nearest pixel; samples outside the image take extrapolation_value.
//
// The sample positions and the interpolation are TensorFlow's float arithmetic, operation
// for operation (a one-row or one-column crop samples the box's centre, computed in double
// as TensorFlow's), so the crops match bit for bit. Inputs are checked in TensorFlow's order,
// with its messages; a box_ind outside [0, batch) is OUT_OF_RANGE and a non-finite box
// coordinate INVALID_ARGUMENT, both before any output is written.
#include <cmath>
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/crop_sampling.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using crop_sampling::SamplePosition;
using crop_sampling::Scale;

// The validated sizes of one call.
struct CropGeometry {
  int64_t image_height = 0;
  int64_t image_width = 0;
  int64_t depth = 0;
  int64_t num_boxes = 0;
  int64_t crop_height = 0;
  int64_t crop_width = 0;
};

template <typename T>
void CropBox(const T* image, const CropGeometry& g, const float* box, bool bilinear,
             float extrapolation_value, float* out) {
  const float y1 = box[0], x1 = box[1], y2 = box[2], x2 = box[3];
  const float height_scale = Scale(y1, y2, g.image_height, g.crop_height);
  const float width_scale = Scale(x1, x2, g.image_width, g.crop_width);
  const int64_t row_stride = g.image_width * g.depth;
  // TensorFlow's test is !(v < 0 || v > size - 1); a NaN position (finite box edges so far
  // apart that the scale overflows) would pass it and index memory at random, so it counts
  // as outside here.
  const auto in_range = [](float v, int64_t size) {
    return v >= 0 && v <= static_cast<float>(size - 1);
  };
  for (int64_t y = 0; y < g.crop_height; ++y) {
    float* out_row = out + y * g.crop_width * g.depth;
    const float in_y = SamplePosition(y1, y2, g.image_height, g.crop_height, height_scale, y);
    if (!in_range(in_y, g.image_height)) {
      std::fill(out_row, out_row + g.crop_width * g.depth, extrapolation_value);
      continue;
    }
    const int64_t top = static_cast<int64_t>(std::floor(in_y));
    const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
    const float y_lerp = in_y - static_cast<float>(top);
    const int64_t nearest_y = static_cast<int64_t>(std::round(in_y));
    for (int64_t x = 0; x < g.crop_width; ++x) {
      float* o = out_row + x * g.depth;
      const float in_x = SamplePosition(x1, x2, g.image_width, g.crop_width, width_scale, x);
      if (!in_range(in_x, g.image_width)) {
        std::fill(o, o + g.depth, extrapolation_value);
        continue;
      }
      if (!bilinear) {
        const T* p =
            image + nearest_y * row_stride + static_cast<int64_t>(std::round(in_x)) * g.depth;
        for (int64_t d = 0; d < g.depth; ++d) o[d] = static_cast<float>(p[d]);
        continue;
      }
      const int64_t left = static_cast<int64_t>(std::floor(in_x));
      const int64_t right = static_cast<int64_t>(std::ceil(in_x));
      const float x_lerp = in_x - static_cast<float>(left);
      const T* tl = image + top * row_stride + left * g.depth;
      const T* tr = image + top * row_stride + right * g.depth;
      const T* bl = image + bottom * row_stride + left * g.depth;
      const T* br = image + bottom * row_stride + right * g.depth;
      for (int64_t d = 0; d < g.depth; ++d) {
        const float top_left = static_cast<float>(tl[d]);
        const float top_right = static_cast<float>(tr[d]);
        const float bottom_left = static_cast<float>(bl[d]);
        const float bottom_right = static_cast<float>(br[d]);
        const float t = top_left + (top_right - top_left) * x_lerp;
        const float b = bottom_left + (bottom_right - bottom_left) * x_lerp;
        o[d] = t + (b - t) * y_lerp;
      }
    }
  }
}

// Checks the inputs in TensorFlow's order (box_ind's range and the boxes' finiteness last)
// and fills *g.
absl::Status CheckInputs(OpKernelContext* ctx, CropGeometry* g) {
  const Tensor& image = ctx->input(0);
  const Tensor& boxes = ctx->input(1);
  const Tensor& box_ind = ctx->input(2);
  const Tensor& crop_size = ctx->input(3);
  if (image.dims() != 4) {
    return errors::InvalidArgument("input image must be 4-D", image.shape().DebugString());
  }
  g->image_height = image.dim_size(1);
  g->image_width = image.dim_size(2);
  g->depth = image.dim_size(3);
  if (g->image_height <= 0 || g->image_width <= 0) {
    return errors::InvalidArgument("image dimensions must be positive");
  }
  if (boxes.dims() != 2) {
    return errors::InvalidArgument("boxes must be 2-D, got: ", boxes.shape().DebugString());
  }
  if (box_ind.dims() != 1) {
    return errors::InvalidArgument("box_indices must be rank 1 but is shape ",
                                   box_ind.shape().DebugString());
  }
  g->num_boxes = 0;
  if (boxes.NumElements() != 0 || box_ind.NumElements() != 0) {
    g->num_boxes = boxes.dim_size(0);
    if (boxes.dim_size(1) != 4) return errors::InvalidArgument("boxes must have 4 columns");
    if (box_ind.dim_size(0) != g->num_boxes) {
      return errors::InvalidArgument("box_index has incompatible shape");
    }
  }
  if (crop_size.dims() != 1) {
    return errors::InvalidArgument("crop_size must be 1-D", crop_size.shape().DebugString());
  }
  if (crop_size.dim_size(0) != 2) {
    return errors::InvalidArgument("crop_size must have two elements",
                                   crop_size.shape().DebugString());
  }
  g->crop_height = crop_size.base<int32_t>()[0];
  g->crop_width = crop_size.base<int32_t>()[1];
  if (g->crop_height <= 0 || g->crop_width <= 0) {
    return errors::InvalidArgument("crop dimensions must be positive");
  }
  const int32_t* index = box_ind.base<int32_t>();
  for (int64_t b = 0; b < box_ind.NumElements(); ++b) {
    if (index[b] < 0 || index[b] >= image.dim_size(0)) {
      return errors::OutOfRange("box_index has values outside [0, batch_size)");
    }
  }
  const float* box = boxes.base<float>();
  for (int64_t i = 0; i < boxes.NumElements(); ++i) {
    if (!std::isfinite(box[i])) {
      return errors::InvalidArgument("Boxes contains at least one element that is not finite");
    }
  }
  return absl::OkStatus();
}

template <typename T>
class CropAndResizeOp : public OpKernel {
 public:
  explicit CropAndResizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string method;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("method", &method));
    OP_REQUIRES(ctx, method == "bilinear" || method == "nearest",
                errors::InvalidArgument("method must be 'bilinear' or 'nearest'", method));
    bilinear_ = method == "bilinear";
    OP_REQUIRES_OK(ctx, ctx->GetAttr("extrapolation_value", &extrapolation_value_));
  }

  void Compute(OpKernelContext* ctx) override {
    CropGeometry g;
    OP_REQUIRES_OK(ctx, CheckInputs(ctx, &g));
    TensorShape shape;
    for (int64_t d : {g.num_boxes, g.crop_height, g.crop_width, g.depth}) {
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(d));
    }
    Tensor* crops = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &crops));
    if (shape.num_elements() == 0) return;
    const Tensor& image = ctx->input(0);
    const T* pixels = image.base<T>();
    const float* boxes = ctx->input(1).base<float>();
    const int32_t* box_ind = ctx->input(2).base<int32_t>();
    float* out = crops->base<float>();
    const int64_t image_size = g.image_height * g.image_width * g.depth;
    const int64_t crop_size = g.crop_height * g.crop_width * g.depth;
    const Eigen::TensorOpCost box_cost(crop_size * 4.0 * sizeof(T), crop_size * 4.0,
                                       crop_size * 10.0);
    ParallelFor(ctx, g.num_boxes, shape.num_elements(), box_cost, [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        CropBox<T>(pixels + box_ind[b] * image_size, g, boxes + 4 * b, bilinear_,
                   extrapolation_value_, out + b * crop_size);
      }
    });
  }

 private:
  bool bilinear_ = true;
  float extrapolation_value_ = 0.0f;
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("CropAndResize").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          CropAndResizeOp<T>);
REGISTER_CPU(uint8_t)
REGISTER_CPU(uint16_t)
REGISTER_CPU(int8_t)
REGISTER_CPU(int16_t)
REGISTER_CPU(int32_t)
REGISTER_CPU(int64_t)
REGISTER_CPU(half)
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
