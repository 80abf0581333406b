// SpaceToDepth and DepthToSpace on the CPU (NHWC): move block_size x block_size spatial
// blocks into the depth dim and back.
//   SpaceToDepth: out[b, h, w, (bh * bs + bw) * C + c] = in[b, h * bs + bh, w * bs + bw, c]
//   DepthToSpace: the inverse, with C the output depth.
// As in TensorFlow, the CPU kernels take only NHWC; another data_format fails at kernel
// construction (INVALID_ARGUMENT "Only NHWC data_format supported on CPU. Got NCHW").
// Both are written as one block copy: for every (b, h, w of the small side, bh, bw), a run of
// C contiguous elements moves between the two layouts. Elements are moved by size
// (element_bytes.h); runs are split over the intra-op pool when the tensor is large.
#include <algorithm>
#include <cstdint>
#include <string>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The layout both ops share, named from SpaceToDepth's side: the "space" tensor is
// [batch, height * bs, width * bs, depth] and the "depth" tensor [batch, height, width,
// bs * bs * depth].
struct BlockLayout {
  int64_t batch;
  int64_t height;  // of the depth tensor
  int64_t width;   // of the depth tensor
  int64_t depth;   // of the space tensor
  int64_t block;
};

// Copies between the layouts: to_depth moves space -> depth, else depth -> space.
template <typename U>
void MoveBlocks(OpKernelContext* ctx, const BlockLayout& l, bool to_depth, const U* in, U* out) {
  const int64_t runs = l.batch * l.height * l.width * l.block * l.block;
  const Eigen::TensorOpCost cost(l.depth * sizeof(U), l.depth * sizeof(U), 1);
  ParallelFor(ctx, runs, runs * l.depth, cost, [&](int64_t first, int64_t last) {
    for (int64_t run = first; run < last; ++run) {
      // Runs are numbered in depth-tensor order: ((b, h, w), bh, bw).
      const int64_t bw = run % l.block;
      const int64_t bh = (run / l.block) % l.block;
      const int64_t pixel = run / (l.block * l.block);
      const int64_t w = pixel % l.width;
      const int64_t h = (pixel / l.width) % l.height;
      const int64_t b = pixel / (l.width * l.height);
      const int64_t depth_offset = run * l.depth;
      const int64_t space_offset =
          (((b * l.height + h) * l.block + bh) * l.width * l.block + w * l.block + bw) * l.depth;
      if (to_depth) {
        std::copy_n(in + space_offset, l.depth, out + depth_offset);
      } else {
        std::copy_n(in + depth_offset, l.depth, out + space_offset);
      }
    }
  });
}

class SpaceDepthOp : public OpKernel {
 public:
  SpaceDepthOp(OpKernelConstruction* ctx, bool to_depth) : OpKernel(ctx), to_depth_(to_depth) {
    std::string data_format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &data_format));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("block_size", &block_size_));
    OP_REQUIRES(ctx, block_size_ > 1,
                errors::InvalidArgument("Block size should be > 1, but was: ", block_size_));
    OP_REQUIRES(
        ctx, data_format == "NHWC",
        errors::InvalidArgument("Only NHWC data_format supported on CPU. Got ", data_format));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() == 4,
                errors::InvalidArgument("Input rank should be 4 instead of ", input.dims()));
    const int64_t batch = input.dim_size(0);
    const int64_t height = input.dim_size(1);
    const int64_t width = input.dim_size(2);
    const int64_t depth = input.dim_size(3);
    const int64_t bs = block_size_;
    BlockLayout layout{batch, 0, 0, 0, bs};
    TensorShape output_shape;
    if (to_depth_) {
      OP_REQUIRES(ctx, width % bs == 0 && height % bs == 0,
                  errors::InvalidArgument("Image width ", width, " and height ", height,
                                          " should be divisible by block_size: ", bs));
      layout.height = height / bs;
      layout.width = width / bs;
      layout.depth = depth;
      OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({batch, layout.height, layout.width,
                                                         MultiplyWithoutOverflow(depth, bs * bs)},
                                                        &output_shape));
    } else {
      const int64_t block_size_sq = bs * bs;
      OP_REQUIRES(ctx, depth % block_size_sq == 0,
                  errors::InvalidArgument("Input depth dimension ", depth,
                                          " should be divisible by: ", block_size_sq));
      layout.height = height;
      layout.width = width;
      layout.depth = depth / block_size_sq;
      OP_REQUIRES_OK(
          ctx, TensorShape::BuildTensorShape({batch, MultiplyWithoutOverflow(height, bs),
                                              MultiplyWithoutOverflow(width, bs), layout.depth},
                                             &output_shape));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, output_shape, &output));
    if (output_shape.num_elements() == 0) return;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      MoveBlocks<U>(ctx, layout, to_depth_, ElementsAs<U>(input), MutableElementsAs<U>(output));
    });
  }

 private:
  const bool to_depth_;
  int32_t block_size_ = 0;
};

class SpaceToDepthOp : public SpaceDepthOp {
 public:
  explicit SpaceToDepthOp(OpKernelConstruction* ctx) : SpaceDepthOp(ctx, /*to_depth=*/true) {}
};

class DepthToSpaceOp : public SpaceDepthOp {
 public:
  explicit DepthToSpaceOp(OpKernelConstruction* ctx) : SpaceDepthOp(ctx, /*to_depth=*/false) {}
};

// TensorFlow's CPU registrations: numbers, bool, string and resource handles, and qint8 for
// SpaceToDepth.
#define SLUICE_SPACE_DEPTH_TYPE(T) DataTypeToEnum<T>::value,
constexpr DataType kSpaceToDepthTypes[] = {
    SLUICE_CALL_NUMBER_TYPES(SLUICE_SPACE_DEPTH_TYPE) SLUICE_CALL_bool(SLUICE_SPACE_DEPTH_TYPE)
        SLUICE_CALL_string(SLUICE_SPACE_DEPTH_TYPE) DT_RESOURCE,
    DT_QINT8};
constexpr DataType kDepthToSpaceTypes[] = {
    SLUICE_CALL_NUMBER_TYPES(SLUICE_SPACE_DEPTH_TYPE) SLUICE_CALL_bool(SLUICE_SPACE_DEPTH_TYPE)
        SLUICE_CALL_string(SLUICE_SPACE_DEPTH_TYPE) DT_RESOURCE};
#undef SLUICE_SPACE_DEPTH_TYPE

REGISTER_KERNEL_BUILDER(
    Name("SpaceToDepth").Device(DEVICE_CPU).TypeConstraint("T", kSpaceToDepthTypes),
    SpaceToDepthOp);
REGISTER_KERNEL_BUILDER(
    Name("DepthToSpace").Device(DEVICE_CPU).TypeConstraint("T", kDepthToSpaceTypes),
    DepthToSpaceOp);

}  // namespace
}  // namespace sluice
