// ResizeNearestNeighbor and ResizeBilinear on GPUs: the CPU kernels' checks (ImageResizerState)
// and per-coordinate transforms (image_resizer_state.h), computed on the host, uploaded, and
// applied by resize_ops.cu. The source offsets and weights are a few numbers per output row and
// column, so they are worked out where the CPU kernels work them out, and both devices read the
// same pixels with the same weights; the interpolation rounds as the CPU does.
#include <cstdint>
#include <utility>

#include "absl/status/statusor.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/image_resizer_state.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/resize_launch.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

// A host tensor of `n` elements from the device's host allocator (page-locked on a GPU, which
// copies from it at the bus's speed). RESOURCE_EXHAUSTED when it cannot be had.
absl::Status HostTemp(OpKernelContext* ctx, DataType dtype, int64_t n, Tensor* out) {
  TensorShape shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShape({n}, &shape));
  absl::StatusOr<Tensor> t = Tensor::Allocate(ctx->device()->GetHostAllocator(), dtype, shape);
  RETURN_IF_ERROR(t.status());
  *out = *std::move(t);
  return absl::OkStatus();
}

// A device copy of `host` (a temp of ctx's device), enqueued before the kernel that reads it.
absl::Status Upload(OpKernelContext* ctx, const Tensor& host, Tensor* device) {
  RETURN_IF_ERROR(ctx->allocate_temp(host.dtype(), host.shape(), device));
  return ctx->device()->gpu_device_context()->CopyHostToDevice(host, device);
}

ResizeShape ShapeOf(const ImageResizerState& st) {
  ResizeShape shape;
  shape.batch = st.batch_size;
  shape.out_height = st.out_height;
  shape.out_width = st.out_width;
  shape.channels = st.channels;
  shape.in_image = st.in_height * st.in_width * st.channels;
  shape.num_elements = st.output->NumElements();
  return shape;
}

class GpuResizeNearestOp : public OpKernel {
 public:
  explicit GpuResizeNearestOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    // Each output row's and column's source element offset, rows first.
    Tensor offsets;
    OP_REQUIRES_OK(ctx, HostTemp(ctx, DT_INT64, st.out_height + st.out_width, &offsets));
    int64_t* o = offsets.flat<int64_t>().data();
    const int64_t in_row = st.in_width * st.channels;
    for (int64_t y = 0; y < st.out_height; ++y) {
      o[y] = NearestSource(st, y, st.in_height, st.height_scale) * in_row;
    }
    for (int64_t x = 0; x < st.out_width; ++x) {
      o[st.out_height + x] = NearestSource(st, x, st.in_width, st.width_scale) * st.channels;
    }
    Tensor device_offsets;
    OP_REQUIRES_OK(ctx, Upload(ctx, offsets, &device_offsets));
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched = LaunchResizeNearest(
        DataTypeSize(ctx->input(0).dtype()), ctx->input(0).raw_data(),
        device_offsets.flat<int64_t>().data(), st.output->raw_data(), ShapeOf(st), stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

class GpuResizeBilinearOp : public OpKernel {
 public:
  explicit GpuResizeBilinearOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    // Lower and upper source offsets per output row, then per column; their weights alike.
    const int64_t n = st.out_height + st.out_width;
    Tensor offsets, lerps;
    OP_REQUIRES_OK(ctx, HostTemp(ctx, DT_INT64, 2 * n, &offsets));
    OP_REQUIRES_OK(ctx, HostTemp(ctx, DT_FLOAT, n, &lerps));
    int64_t* o = offsets.flat<int64_t>().data();
    float* l = lerps.flat<float>().data();
    const int64_t in_row = st.in_width * st.channels;
    for (int64_t i = 0; i < n; ++i) {
      const bool row = i < st.out_height;
      const BilinearWeight w =
          row ? BilinearWeightOf(st, i, st.in_height, st.height_scale)
              : BilinearWeightOf(st, i - st.out_height, st.in_width, st.width_scale);
      const int64_t stride = row ? in_row : st.channels;
      o[2 * i] = w.lower * stride;
      o[2 * i + 1] = w.upper * stride;
      l[i] = w.lerp;
    }
    Tensor device_offsets, device_lerps;
    OP_REQUIRES_OK(ctx, Upload(ctx, offsets, &device_offsets));
    OP_REQUIRES_OK(ctx, Upload(ctx, lerps, &device_lerps));
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool same_size = st.out_height == st.in_height && st.out_width == st.in_width;
    const bool launched =
        LaunchResizeBilinear(type_, ctx->input(0).raw_data(), device_offsets.flat<int64_t>().data(),
                             device_lerps.flat<float>().data(), st.output->flat<float>().data(),
                             ShapeOf(st), same_size, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
  ElementType type_ = ElementType::kFloat;
};

// The op's T dtypes that a GPU holds in device memory (int32 stays on the CPU).
constexpr DataType kResizeNearestGpuTypes[] = {DT_FLOAT, DT_HALF,  DT_BFLOAT16, DT_DOUBLE,
                                               DT_INT8,  DT_UINT8, DT_INT16,    DT_INT64};

REGISTER_KERNEL_BUILDER(Name("ResizeNearestNeighbor")
                            .Device(DEVICE_GPU)
                            .HostMemory("size")
                            .TypeConstraint("T", kResizeNearestGpuTypes),
                        GpuResizeNearestOp);
REGISTER_KERNEL_BUILDER(
    Name("ResizeBilinear").Device(DEVICE_GPU).HostMemory("size").TypeConstraint("T", FloatTypes()),
    GpuResizeBilinearOp);

}  // namespace
}  // namespace cuda
}  // namespace sluice
