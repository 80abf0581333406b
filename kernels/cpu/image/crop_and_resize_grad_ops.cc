// CropAndResize's gradients on the CPU (TensorFlow's semantics and checks):
//
//  - CropAndResizeGradImage: the image gradient. Each crop sample's gradient goes back to the
//    pixels it was read from: the four bilinear neighbours weighted as in the forward pass, or
//    the nearest pixel. Samples outside the image (extrapolated) carry nothing back.
//  - CropAndResizeGradBoxes: the gradient with respect to the normalized box corners
//    (y1, x1, y2, x2) of the bilinear crop: each in-image sample moves with its box edges, so
//    its gradient times the image's local slope along y (x) goes to y1 and y2 (x1 and x2), in
//    the proportions the sample's position takes from each edge.
//
// Sample positions are the forward kernel's float arithmetic (crop_and_resize_op.cc): a
// one-row or one-column crop samples the box's centre. Boxes are folded in order, one box after
// another, as TensorFlow's CPU kernels do, so sums into shared pixels add in the same order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/crop_sampling.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using crop_sampling::SamplePosition;
using crop_sampling::Scale;

// The sizes both gradients work with.
struct CropGradGeometry {
  int64_t batch = 0;
  int64_t image_height = 0;
  int64_t image_width = 0;
  int64_t depth = 0;
  int64_t num_boxes = 0;
  int64_t crop_height = 0;
  int64_t crop_width = 0;
};

// False for positions outside the image, NaN included (the forward kernel's test).
inline bool InImage(float v, int64_t size) { return v >= 0 && v <= static_cast<float>(size - 1); }

// `grads` [num_boxes, crop_height, crop_width, depth], checked as TensorFlow checks it first;
// fills the crop size of *g.
absl::Status CheckGrads(const Tensor& grads, CropGradGeometry* g) {
  if (grads.dims() != 4) {
    return errors::InvalidArgument("grads image must be 4-D", grads.shape().DebugString());
  }
  g->crop_height = grads.dim_size(1);
  g->crop_width = grads.dim_size(2);
  if (g->crop_height <= 0 || g->crop_width <= 0) {
    return errors::InvalidArgument("grads dimensions must be positive");
  }
  return absl::OkStatus();
}

// The boxes [num_boxes, 4] and their image indices [num_boxes] (both may be empty), and grads'
// first dim; fills the box count of *g.
absl::Status CheckBoxes(const Tensor& grads, const Tensor& boxes, const Tensor& box_ind,
                        CropGradGeometry* g) {
  g->num_boxes = 0;
  if (boxes.NumElements() != 0 || box_ind.NumElements() != 0) {
    if (boxes.dims() != 2) {
      return errors::InvalidArgument("boxes must be 2-D", boxes.shape().DebugString());
    }
    g->num_boxes = boxes.dim_size(0);
    if (boxes.dim_size(1) != 4) return errors::InvalidArgument("boxes must have 4 columns");
    if (box_ind.dims() != 1) {
      return errors::InvalidArgument("box_index must be 1-D", box_ind.shape().DebugString());
    }
    if (box_ind.dim_size(0) != g->num_boxes) {
      return errors::InvalidArgument("box_index has incompatible shape");
    }
  }
  if (grads.dim_size(0) != g->num_boxes) {
    return errors::InvalidArgument("boxes and grads have incompatible shape");
  }
  return absl::OkStatus();
}

// Every box index in [0, batch): checked before any output is written.
absl::Status CheckBoxIndices(const Tensor& box_ind, int64_t batch) {
  const int32_t* index = box_ind.base<int32_t>();
  for (int64_t b = 0; b < box_ind.NumElements(); ++b) {
    if (index[b] < 0 || index[b] >= batch) {
      return errors::OutOfRange("box_index has values outside [0, batch_size)");
    }
  }
  return absl::OkStatus();
}

template <typename T>
void BackpropImage(const CropGradGeometry& g, bool bilinear, const float* grads, const float* boxes,
                   const int32_t* box_ind, T* image) {
  const int64_t row_stride = g.image_width * g.depth;
  const int64_t image_size = g.image_height * row_stride;
  for (int64_t b = 0; b < g.num_boxes; ++b) {
    const float* box = boxes + 4 * b;
    const float y1 = box[0], x1 = box[1], y2 = box[2], x2 = box[3];
    const float height_scale = Scale(y1, y2, g.image_height, g.crop_height);
    const float width_scale = Scale(x1, x2, g.image_width, g.crop_width);
    T* out = image + box_ind[b] * image_size;
    const float* grad_box = grads + b * g.crop_height * g.crop_width * g.depth;
    for (int64_t y = 0; y < g.crop_height; ++y) {
      const float in_y = SamplePosition(y1, y2, g.image_height, g.crop_height, height_scale, y);
      if (!InImage(in_y, g.image_height)) continue;
      const int64_t top = static_cast<int64_t>(std::floor(in_y));
      const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
      const float y_lerp = in_y - static_cast<float>(top);
      for (int64_t x = 0; x < g.crop_width; ++x) {
        const float in_x = SamplePosition(x1, x2, g.image_width, g.crop_width, width_scale, x);
        if (!InImage(in_x, g.image_width)) continue;
        const float* grad = grad_box + (y * g.crop_width + x) * g.depth;
        if (!bilinear) {
          T* p = out + static_cast<int64_t>(std::round(in_y)) * row_stride +
                 static_cast<int64_t>(std::round(in_x)) * g.depth;
          for (int64_t d = 0; d < g.depth; ++d) p[d] += static_cast<T>(grad[d]);
          continue;
        }
        const int64_t left = static_cast<int64_t>(std::floor(in_x));
        const int64_t right = static_cast<int64_t>(std::ceil(in_x));
        const float x_lerp = in_x - static_cast<float>(left);
        T* tl = out + top * row_stride + left * g.depth;
        T* tr = out + top * row_stride + right * g.depth;
        T* bl = out + bottom * row_stride + left * g.depth;
        T* br = out + bottom * row_stride + right * g.depth;
        for (int64_t d = 0; d < g.depth; ++d) {
          const float upper = (1 - y_lerp) * grad[d];
          const float lower = y_lerp * grad[d];
          tl[d] += static_cast<T>((1 - x_lerp) * upper);
          tr[d] += static_cast<T>(x_lerp * upper);
          bl[d] += static_cast<T>((1 - x_lerp) * lower);
          br[d] += static_cast<T>(x_lerp * lower);
        }
      }
    }
  }
}

template <typename T>
class CropAndResizeGradImageOp : public OpKernel {
 public:
  explicit CropAndResizeGradImageOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string method;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("method", &method));
    OP_REQUIRES(ctx, method == "bilinear" || method == "nearest",
                errors::InvalidArgument("method must be 'bilinear' or 'nearest'", method));
    bilinear_ = method == "bilinear";
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grads = ctx->input(0);
    const Tensor& boxes = ctx->input(1);
    const Tensor& box_ind = ctx->input(2);
    const Tensor& image_size = ctx->input(3);
    CropGradGeometry g;
    OP_REQUIRES_OK(ctx, CheckGrads(grads, &g));
    OP_REQUIRES_OK(ctx, CheckBoxes(grads, boxes, box_ind, &g));
    OP_REQUIRES(
        ctx, image_size.dims() == 1,
        errors::InvalidArgument("image_size must be 1-D", image_size.shape().DebugString()));
    OP_REQUIRES(ctx, image_size.dim_size(0) == 4,
                errors::InvalidArgument("image_size must have 4 elements",
                                        image_size.shape().DebugString()));
    const int32_t* size = image_size.base<int32_t>();
    g.batch = size[0];
    g.image_height = size[1];
    g.image_width = size[2];
    g.depth = size[3];
    OP_REQUIRES(ctx, g.image_height > 0 && g.image_width > 0,
                errors::InvalidArgument("image dimensions must be positive"));
    OP_REQUIRES(ctx, grads.dim_size(3) == g.depth,
                errors::InvalidArgument("image_size and grads are incompatible"));
    TensorShape shape;
    for (int64_t d : {g.batch, g.image_height, g.image_width, g.depth}) {
      OP_REQUIRES_OK(ctx, shape.AddDimWithStatus(d));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    OP_REQUIRES_OK(ctx, CheckBoxIndices(box_ind, g.batch));
    T* image = output->base<T>();
    std::fill(image, image + shape.num_elements(), T(0));
    if (g.num_boxes == 0) return;
    BackpropImage<T>(g, bilinear_, grads.base<float>(), boxes.base<float>(),
                     box_ind.base<int32_t>(), image);
  }

 private:
  bool bilinear_ = true;
};

// The derivatives of the bilinear samples with respect to the box corners.
template <typename T>
void BackpropBoxes(const CropGradGeometry& g, const float* grads, const T* image,
                   const float* boxes, const int32_t* box_ind, float* out) {
  const int64_t row_stride = g.image_width * g.depth;
  const int64_t image_size = g.image_height * row_stride;
  // How far a sample moves per unit of an edge, per sample index: y * ratio of the height.
  const float height_ratio = g.crop_height > 1 ? static_cast<float>(g.image_height - 1) /
                                                     static_cast<float>(g.crop_height - 1)
                                               : 0.0f;
  const float width_ratio = g.crop_width > 1 ? static_cast<float>(g.image_width - 1) /
                                                   static_cast<float>(g.crop_width - 1)
                                             : 0.0f;
  for (int64_t b = 0; b < g.num_boxes; ++b) {
    const float* box = boxes + 4 * b;
    const float y1 = box[0], x1 = box[1], y2 = box[2], x2 = box[3];
    float* dbox = out + 4 * b;
    dbox[0] = dbox[1] = dbox[2] = dbox[3] = 0.0f;
    const float height_scale = g.crop_height > 1 ? (y2 - y1) * height_ratio : 0.0f;
    const float width_scale = g.crop_width > 1 ? (x2 - x1) * width_ratio : 0.0f;
    const T* pixels = image + box_ind[b] * image_size;
    const float* grad_box = grads + b * g.crop_height * g.crop_width * g.depth;
    for (int64_t y = 0; y < g.crop_height; ++y) {
      const float in_y = SamplePosition(y1, y2, g.image_height, g.crop_height, height_scale, y);
      if (!InImage(in_y, g.image_height)) continue;
      const int64_t top = static_cast<int64_t>(std::floor(in_y));
      const int64_t bottom = static_cast<int64_t>(std::ceil(in_y));
      const float y_lerp = in_y - static_cast<float>(top);
      for (int64_t x = 0; x < g.crop_width; ++x) {
        const float in_x = SamplePosition(x1, x2, g.image_width, g.crop_width, width_scale, x);
        if (!InImage(in_x, g.image_width)) continue;
        const int64_t left = static_cast<int64_t>(std::floor(in_x));
        const int64_t right = static_cast<int64_t>(std::ceil(in_x));
        const float x_lerp = in_x - static_cast<float>(left);
        const T* tl = pixels + top * row_stride + left * g.depth;
        const T* tr = pixels + top * row_stride + right * g.depth;
        const T* bl = pixels + bottom * row_stride + left * g.depth;
        const T* br = pixels + bottom * row_stride + right * g.depth;
        const float* grad = grad_box + (y * g.crop_width + x) * g.depth;
        for (int64_t d = 0; d < g.depth; ++d) {
          const float top_left = static_cast<float>(tl[d]);
          const float top_right = static_cast<float>(tr[d]);
          const float bottom_left = static_cast<float>(bl[d]);
          const float bottom_right = static_cast<float>(br[d]);
          // The interpolated image's slope along y and x at the sample, times its gradient.
          const float slope_y =
              ((1 - x_lerp) * (bottom_left - top_left) + x_lerp * (bottom_right - top_right)) *
              grad[d];
          const float slope_x =
              ((1 - y_lerp) * (top_right - top_left) + y_lerp * (bottom_right - bottom_left)) *
              grad[d];
          if (g.crop_height > 1) {
            dbox[0] += slope_y * (static_cast<float>(g.image_height - 1) -
                                  static_cast<float>(y) * height_ratio);
            dbox[2] += slope_y * (static_cast<float>(y) * height_ratio);
          } else {
            const double half = 0.5 * static_cast<double>(g.image_height - 1);
            dbox[0] = static_cast<float>(dbox[0] + slope_y * half);
            dbox[2] = static_cast<float>(dbox[2] + slope_y * half);
          }
          if (g.crop_width > 1) {
            dbox[1] += slope_x * (static_cast<float>(g.image_width - 1) -
                                  static_cast<float>(x) * width_ratio);
            dbox[3] += slope_x * (static_cast<float>(x) * width_ratio);
          } else {
            const double half = 0.5 * static_cast<double>(g.image_width - 1);
            dbox[1] = static_cast<float>(dbox[1] + slope_x * half);
            dbox[3] = static_cast<float>(dbox[3] + slope_x * half);
          }
        }
      }
    }
  }
}

template <typename T>
class CropAndResizeGradBoxesOp : public OpKernel {
 public:
  explicit CropAndResizeGradBoxesOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string method;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("method", &method));
    OP_REQUIRES(ctx, method == "bilinear",
                errors::InvalidArgument("method must be 'bilinear'", method));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grads = ctx->input(0);
    const Tensor& image = ctx->input(1);
    const Tensor& boxes = ctx->input(2);
    const Tensor& box_ind = ctx->input(3);
    CropGradGeometry g;
    OP_REQUIRES_OK(ctx, CheckGrads(grads, &g));
    OP_REQUIRES(ctx, image.dims() == 4,
                errors::InvalidArgument("input image must be 4-D", image.shape().DebugString()));
    g.batch = image.dim_size(0);
    g.image_height = image.dim_size(1);
    g.image_width = image.dim_size(2);
    g.depth = grads.dim_size(3);
    OP_REQUIRES(ctx, g.image_height > 0 && g.image_width > 0,
                errors::InvalidArgument("image dimensions must be positive"));
    OP_REQUIRES(ctx, image.dim_size(3) == g.depth,
                errors::InvalidArgument("image, grads depth differ"));
    OP_REQUIRES_OK(ctx, CheckBoxes(grads, boxes, box_ind, &g));
    Tensor* output = nullptr;
    // shape-safe: num_boxes is a dim of the boxes tensor (or 0)
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({g.num_boxes, 4}), &output));
    OP_REQUIRES_OK(ctx, CheckBoxIndices(box_ind, g.batch));
    if (g.num_boxes == 0) return;
    BackpropBoxes<T>(g, grads.base<float>(), image.base<T>(), boxes.base<float>(),
                     box_ind.base<int32_t>(), output->base<float>());
  }
};

#define REGISTER_GRAD_IMAGE(T)                           \
  REGISTER_KERNEL_BUILDER(Name("CropAndResizeGradImage") \
                              .Device(DEVICE_CPU)        \
                              .TypeConstraint<T>("T")    \
                              .HostMemory("image_size"), \
                          CropAndResizeGradImageOp<T>);
SLUICE_CALL_half(REGISTER_GRAD_IMAGE) SLUICE_CALL_float(REGISTER_GRAD_IMAGE)
    SLUICE_CALL_double(REGISTER_GRAD_IMAGE)
#undef REGISTER_GRAD_IMAGE

// TensorFlow also registers bfloat16, uint32 and uint64 kernels, which its OpDef never admits.
#define REGISTER_GRAD_BOXES(T)                                                  \
  REGISTER_KERNEL_BUILDER(                                                      \
      Name("CropAndResizeGradBoxes").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      CropAndResizeGradBoxesOp<T>);
        REGISTER_GRAD_BOXES(uint8_t) REGISTER_GRAD_BOXES(uint16_t) REGISTER_GRAD_BOXES(int8_t)
            REGISTER_GRAD_BOXES(int16_t) REGISTER_GRAD_BOXES(int32_t) REGISTER_GRAD_BOXES(int64_t)
                REGISTER_GRAD_BOXES(half) REGISTER_GRAD_BOXES(float) REGISTER_GRAD_BOXES(double)
#undef REGISTER_GRAD_BOXES

}  // namespace
}  // namespace sluice
