// ResizeNearestNeighbor and ResizeBilinear on GPUs: the CPU kernels' checks (ImageResizerState)
// and per-coordinate transforms (image_resizer_state.h), computed on the host, uploaded, and
// applied by resize_ops.cu. The source offsets and weights are a few numbers per output row and
// column, so they are worked out where the CPU kernels work them out, and both devices read the
// same pixels with the same weights; the interpolation rounds as the CPU does. A kernel keeps
// the uploaded tables of each geometry it sees (the input's and output's sizes; TableCache),
// so a model that resizes the same way every step uploads them once, and its later calls,
// which copy nothing from the host, can be captured into a CUDA graph.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
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

// The device copies of each geometry's tables, kept across calls by a kernel. Entries are
// never replaced: a CUDA graph that captured this kernel reads its geometry's tables at
// their addresses for as long as the kernel lives. Past kMaxGeometries geometries, tables
// are uploaded on each call instead (such a call cannot be captured).
class TableCache {
 public:
  static constexpr size_t kMaxGeometries = 16;

  // The tables for `key`: the cached ones, or `make`'s host tables (of `layout`: dtype and
  // element count each) uploaded, into memory of the device's own allocator where they are
  // kept and into the step's temps where they are not. `make` fills the host tensors.
  absl::Status Get(OpKernelContext* ctx, const std::vector<int64_t>& key,
                   const std::vector<std::pair<DataType, int64_t>>& layout,
                   const std::function<void(std::vector<Tensor>*)>& make,
                   std::vector<Tensor>* tables) {
    bool keep = false;
    {
      absl::MutexLock lock(&mu_);
      const auto it = tables_.find(key);
      if (it != tables_.end()) {
        *tables = it->second;
        return absl::OkStatus();
      }
      keep = tables_.size() < kMaxGeometries;
    }
    // heap-ok: one or two tables per kernel
    std::vector<Tensor> host(layout.size());
    for (size_t i = 0; i < layout.size(); ++i) {
      RETURN_IF_ERROR(HostTemp(ctx, layout[i].first, layout[i].second, &host[i]));
    }
    make(&host);
    // heap-ok: as host
    std::vector<Tensor> device(host.size());
    for (size_t i = 0; i < host.size(); ++i) {
      if (keep) {
        ASSIGN_OR_RETURN(device[i], Tensor::Allocate(ctx->device()->GetAllocator(), host[i].dtype(),
                                                     host[i].shape()));
      } else {
        RETURN_IF_ERROR(ctx->allocate_temp(host[i].dtype(), host[i].shape(), &device[i]));
      }
      RETURN_IF_ERROR(ctx->device()->gpu_device_context()->CopyHostToDevice(host[i], &device[i]));
    }
    if (keep) {
      absl::MutexLock lock(&mu_);
      tables_.emplace(key, device);
    }
    *tables = std::move(device);
    return absl::OkStatus();
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<std::vector<int64_t>, std::vector<Tensor>> tables_ ABSL_GUARDED_BY(mu_);
};

std::vector<int64_t> GeometryOf(const ImageResizerState& st) {
  return {st.in_height, st.in_width, st.channels, st.out_height, st.out_width};
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
    std::vector<Tensor> tables;
    OP_REQUIRES_OK(ctx, cache_.Get(
                            ctx, GeometryOf(st), {{DT_INT64, st.out_height + st.out_width}},
                            [&](std::vector<Tensor>* host) {
                              int64_t* o = (*host)[0].flat<int64_t>().data();
                              const int64_t in_row = st.in_width * st.channels;
                              for (int64_t y = 0; y < st.out_height; ++y) {
                                o[y] = NearestSource(st, y, st.in_height, st.height_scale) * in_row;
                              }
                              for (int64_t x = 0; x < st.out_width; ++x) {
                                o[st.out_height + x] =
                                    NearestSource(st, x, st.in_width, st.width_scale) * st.channels;
                              }
                            },
                            &tables));
    const Tensor& device_offsets = tables[0];
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
  TableCache cache_;
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
    std::vector<Tensor> tables;
    OP_REQUIRES_OK(ctx, cache_.Get(
                            ctx, GeometryOf(st), {{DT_INT64, 2 * n}, {DT_FLOAT, n}},
                            [&](std::vector<Tensor>* host) {
                              int64_t* o = (*host)[0].flat<int64_t>().data();
                              float* l = (*host)[1].flat<float>().data();
                              const int64_t in_row = st.in_width * st.channels;
                              for (int64_t i = 0; i < n; ++i) {
                                const bool row = i < st.out_height;
                                const BilinearWeight w =
                                    row ? BilinearWeightOf(st, i, st.in_height, st.height_scale)
                                        : BilinearWeightOf(st, i - st.out_height, st.in_width,
                                                           st.width_scale);
                                const int64_t stride = row ? in_row : st.channels;
                                o[2 * i] = w.lower * stride;
                                o[2 * i + 1] = w.upper * stride;
                                l[i] = w.lerp;
                              }
                            },
                            &tables));
    const Tensor& device_offsets = tables[0];
    const Tensor& device_lerps = tables[1];
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
  TableCache cache_;
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
