// SpaceToBatchND and BatchToSpaceND on the CPU.
//
// SpaceToBatchND zero-pads spatial dims 1..M of [batch] + spatial + rest by `paddings`,
// cuts each into blocks of block_shape and moves the position inside the block to the
// batch: output[(k_1, ..., k_M, b), o_1, ..., o_M, rest] =
// padded[b, o_1 * block_1 + k_1, ..., o_M * block_M + k_M, rest], the block offsets k
// row-major and outermost in the output batch. BatchToSpaceND is its inverse, cropping
// instead of padding.
//
// Checked as TensorFlow does, with its messages: block_shape a vector, the input of rank
// at least 1 + M, paddings/crops of shape [M, 2], every block size positive (SpaceToBatchND)
// and their product positive and without overflow, amounts non-negative, padded sizes
// divisible by the block (SpaceToBatchND), the batch divisible by the product of the blocks
// and cropped sizes non-negative (BatchToSpaceND), and at most 4 spatial dims left once the
// leading and trailing dims with block 1 and no padding are merged into the batch and the
// rest (TensorFlow's kernels handle no more). Nothing is moved when no such dim is left:
// the output is the input.
//
// Elements move by size (graph/core/element_bytes.h), so one kernel serves every dtype. Both
// directions walk the output in rows of `depth` elements (the merged trailing dims), each
// row a copy of one input row or zeros (padding), split over the intra-op pool.
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// TensorFlow's kMaxSpaceToBatchBlockDims.
constexpr int kMaxBlockDims = 4;

// TensorFlow's CPU registrations (TF_CALL_REAL_NUMBER_TYPES).
DataTypeVector SpaceBatchTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF,  DT_BFLOAT16, DT_INT8,   DT_INT16,
          DT_INT32, DT_INT64,  DT_UINT8, DT_UINT16,   DT_UINT32, DT_UINT64};
}

// The validated problem with the mergeable dims folded away: `batch` is the input's batch
// times its leading merged dims (SpaceToBatchND) or the output's (BatchToSpaceND); `spatial`
// the input sizes of the dims that remain, `sizes` their output sizes, and `depth` the
// elements per row.
struct Plan {
  int64_t batch = 0;
  absl::InlinedVector<int64_t, kMaxBlockDims> block;
  absl::InlinedVector<int64_t, kMaxBlockDims> start;  // pad_start or crop_start
  absl::InlinedVector<int64_t, kMaxBlockDims> spatial;
  absl::InlinedVector<int64_t, kMaxBlockDims> sizes;
  int64_t depth = 1;
  int64_t block_product = 1;
};

// Reads and checks block_shape and paddings/crops (shared checks and messages), and finds
// the dims that need no work: `prefix` leading and `suffix` trailing dims with block 1 and
// no amounts.
absl::Status ReadArguments(const Tensor& input, const Tensor& block_shape_t,
                           const Tensor& amounts_t, const char* amounts_name,
                           IntegerValues* block_shape, IntegerValues* amounts, int* prefix,
                           int* suffix) {
  if (block_shape_t.dims() != 1) {
    return errors::InvalidArgument("block_shape rank should be 1 instead of ",
                                   block_shape_t.dims());
  }
  const int64_t block_dims = block_shape_t.dim_size(0);
  if (input.dims() < 1 + block_dims) {
    return errors::InvalidArgument("input rank should be >= ", 1 + block_dims, " instead of ",
                                   input.dims());
  }
  if (!(amounts_t.dims() == 2 && amounts_t.dim_size(0) == block_dims &&
        amounts_t.dim_size(1) == 2)) {
    return errors::InvalidArgument(amounts_name, " should have shape [", block_dims,
                                   ", 2] instead of ", amounts_t.shape().DebugString());
  }
  RETURN_IF_ERROR(IntegerTensorValues(block_shape_t, block_shape));
  RETURN_IF_ERROR(IntegerTensorValues(amounts_t, amounts));
  const int dims = static_cast<int>(block_dims);
  auto trivial = [&](int d) {
    return (*amounts)[2 * d] == 0 && (*amounts)[2 * d + 1] == 0 && (*block_shape)[d] == 1;
  };
  *prefix = 0;
  while (*prefix < dims && trivial(*prefix)) ++*prefix;
  *suffix = 0;
  while (*suffix < dims - *prefix && trivial(dims - 1 - *suffix)) ++*suffix;
  return absl::OkStatus();
}

// out * b, or -1 when it overflows int64 (TensorFlow's MultiplyWithoutOverflow, for
// non-negative operands).
int64_t MultiplyOrMinusOne(int64_t a, int64_t b) {
  if (a < 0 || b < 0) return -1;
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return -1;
  return product;
}

// Copies `rows` output rows of plan.depth elements: row r's source row (an index into the
// input's rows) is source(r), or -1 for a row of zeros.
template <typename SourceFn>
void MoveRows(OpKernelContext* ctx, const Tensor& input, Tensor* output, int64_t rows,
              int64_t depth, SourceFn source) {
  VisitByElementSize(input.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* in = ElementsAs<U>(input);
    U* out = MutableElementsAs<U>(output);
    const Eigen::TensorOpCost cost(sizeof(U) * depth, sizeof(U) * depth, 4 * kMaxBlockDims);
    ParallelFor(ctx, rows, rows * depth, cost, [&](int64_t first, int64_t last) {
      for (int64_t r = first; r < last; ++r) {
        const int64_t from = source(r);
        U* dst = out + r * depth;
        if (from < 0) {
          for (int64_t i = 0; i < depth; ++i) dst[i] = U{};
        } else {
          CopyUnits(in + from * depth, dst, depth);
        }
      }
    });
  });
}

class SpaceToBatchNDOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    IntegerValues block_shape;
    IntegerValues paddings;
    int prefix = 0;
    int suffix = 0;
    OP_REQUIRES_OK(ctx, ReadArguments(input, ctx->input(1), ctx->input(2), "paddings", &block_shape,
                                      &paddings, &prefix, &suffix));
    const int block_dims = static_cast<int>(block_shape.size());
    int64_t block_product = 1;
    for (int d = 0; d < block_dims; ++d) {
      OP_REQUIRES(ctx, block_shape[d] >= 1,
                  errors::InvalidArgument("All values in block_shape must be positive, got value, ",
                                          block_shape[d], " at index ", d, "."));
      block_product = MultiplyOrMinusOne(block_product, block_shape[d]);
    }
    OP_REQUIRES(
        ctx, block_product > 0,
        errors::InvalidArgument("Product of block sizes must be positive, got ", block_product));
    const int internal_dims = block_dims - prefix - suffix;
    OP_REQUIRES(ctx, internal_dims <= kMaxBlockDims,
                errors::InvalidArgument("Maximum number of non-combined block dimensions is ",
                                        internal_dims, " but must not exceed ", kMaxBlockDims));
    if (internal_dims == 0) {
      ctx->set_output(0, input);
      return;
    }
    const int64_t out_batch = MultiplyOrMinusOne(input.dim_size(0), block_product);
    OP_REQUIRES(ctx, out_batch >= 0,
                errors::InvalidArgument(
                    "Negative output dimension size caused by overflow when multiplying ",
                    input.dim_size(0), " and ", block_product));
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(out_batch));
    Plan plan;
    plan.block_product = block_product;
    plan.batch = input.dim_size(0);
    for (int d = 0; d < prefix; ++d) {
      plan.batch *= input.dim_size(d + 1);
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(d + 1)));
    }
    for (int d = prefix; d < block_dims - suffix; ++d) {
      const int64_t pad_start = paddings[2 * d];
      const int64_t pad_end = paddings[2 * d + 1];
      OP_REQUIRES(ctx, pad_start >= 0 && pad_end >= 0,
                  errors::InvalidArgument("Paddings must be non-negative"));
      const int64_t size = input.dim_size(d + 1);
      int64_t padded = 0;
      OP_REQUIRES(ctx,
                  !__builtin_add_overflow(size, pad_start, &padded) &&
                      !__builtin_add_overflow(padded, pad_end, &padded),
                  errors::InvalidArgument("Paddings of dimension ", d, " overflow"));
      OP_REQUIRES(
          ctx, padded % block_shape[d] == 0,
          errors::InvalidArgument("padded_shape[", d, "]=", padded,
                                  " is not divisible by block_shape[", d, "]=", block_shape[d]));
      plan.block.push_back(block_shape[d]);
      plan.start.push_back(pad_start);
      plan.spatial.push_back(size);
      plan.sizes.push_back(padded / block_shape[d]);
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(padded / block_shape[d]));
    }
    for (int d = block_dims - suffix + 1; d < input.dims(); ++d) {
      plan.depth *= input.dim_size(d);
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(d)));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (output->NumElements() == 0) return;
    const int64_t cells = out_shape.num_elements() / plan.depth;  // output rows
    // Output row r = ((k * batch + b) * sizes[0] + o_0) * sizes[1] + ... with k the
    // row-major block offset.
    MoveRows(ctx, input, output, cells, plan.depth, [&plan, internal_dims](int64_t r) {
      int64_t o[kMaxBlockDims];
      for (int d = internal_dims - 1; d >= 0; --d) {
        o[d] = r % plan.sizes[d];
        r /= plan.sizes[d];
      }
      const int64_t b = r % plan.batch;
      int64_t k = r / plan.batch;
      int64_t offsets[kMaxBlockDims];
      for (int d = internal_dims - 1; d >= 0; --d) {
        offsets[d] = k % plan.block[d];
        k /= plan.block[d];
      }
      int64_t from = b;
      for (int d = 0; d < internal_dims; ++d) {
        const int64_t i = o[d] * plan.block[d] + offsets[d] - plan.start[d];
        if (i < 0 || i >= plan.spatial[d]) return int64_t{-1};
        from = from * plan.spatial[d] + i;
      }
      return from;
    });
  }
};

class BatchToSpaceNDOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    IntegerValues block_shape;
    IntegerValues crops;
    int prefix = 0;
    int suffix = 0;
    OP_REQUIRES_OK(ctx, ReadArguments(input, ctx->input(1), ctx->input(2), "crops", &block_shape,
                                      &crops, &prefix, &suffix));
    const int block_dims = static_cast<int>(block_shape.size());
    // TensorFlow multiplies without checking each factor: a negative block size makes the
    // product negative (or, with two, positive, and then the checks below decide).
    int64_t block_product = 1;
    bool overflow = false;
    for (int d = 0; d < block_dims; ++d) {
      overflow |= __builtin_mul_overflow(block_product, block_shape[d], &block_product);
    }
    OP_REQUIRES(ctx, !overflow && block_product > 0,
                errors::InvalidArgument("Product of block sizes must be positive, got ",
                                        overflow ? -1 : block_product));
    const int64_t in_batch = input.dim_size(0);
    OP_REQUIRES(ctx, in_batch % block_product == 0,
                errors::InvalidArgument("Input batch dimension (", in_batch,
                                        ") is not divisible by product of block sizes (",
                                        block_product, ")"));
    const int internal_dims = block_dims - prefix - suffix;
    OP_REQUIRES(ctx, internal_dims <= kMaxBlockDims,
                errors::InvalidArgument("Maximum number of non-combined block dimensions is ",
                                        internal_dims, " but must not exceed ", kMaxBlockDims));
    if (internal_dims == 0) {
      ctx->set_output(0, input);
      return;
    }
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(in_batch / block_product));
    Plan plan;
    plan.block_product = block_product;
    plan.batch = in_batch / block_product;
    for (int d = 0; d < prefix; ++d) {
      plan.batch *= input.dim_size(d + 1);
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(d + 1)));
    }
    for (int d = prefix; d < block_dims - suffix; ++d) {
      const int64_t crop_start = crops[2 * d];
      const int64_t crop_end = crops[2 * d + 1];
      OP_REQUIRES(ctx, crop_start >= 0 && crop_end >= 0,
                  errors::InvalidArgument("Crops must be non-negative"));
      const int64_t size = input.dim_size(d + 1);
      // Overflows only when the input is empty (a block divides a non-zero batch), where
      // TensorFlow's arithmetic wraps; Sluice refuses.
      int64_t cropped = 0;
      OP_REQUIRES(ctx,
                  !__builtin_mul_overflow(size, block_shape[d], &cropped) &&
                      !__builtin_sub_overflow(cropped, crop_start, &cropped) &&
                      !__builtin_sub_overflow(cropped, crop_end, &cropped),
                  errors::InvalidArgument("cropped_shape[", d, "] overflows"));
      OP_REQUIRES(
          ctx, cropped >= 0,
          errors::InvalidArgument("cropped_shape[", d, "]=", cropped, " must be non-negative"));
      plan.block.push_back(block_shape[d]);
      plan.start.push_back(crop_start);
      plan.spatial.push_back(size);
      plan.sizes.push_back(cropped);
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(cropped));
    }
    for (int d = block_dims - suffix + 1; d < input.dims(); ++d) {
      plan.depth *= input.dim_size(d);
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(d)));
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    // A block size below 1 (two negative ones make a positive product, as TensorFlow lets
    // through) leaves a negative cropped size unless the input is empty: nothing moves.
    if (output->NumElements() == 0) return;
    const int64_t cells = out_shape.num_elements() / plan.depth;
    int64_t spatial_cells = 1;
    for (int64_t size : plan.spatial) spatial_cells *= size;
    // Output row r = (b * sizes[0] + c_0) * sizes[1] + ...; its source is input batch
    // k * batch + b at (c + crop_start) / block, k the row-major block offsets
    // (c + crop_start) % block.
    MoveRows(ctx, input, output, cells, plan.depth,
             [&plan, internal_dims, spatial_cells](int64_t r) {
               int64_t c[kMaxBlockDims];
               for (int d = internal_dims - 1; d >= 0; --d) {
                 c[d] = r % plan.sizes[d];
                 r /= plan.sizes[d];
               }
               const int64_t b = r;
               int64_t k = 0;
               int64_t inner = 0;
               for (int d = 0; d < internal_dims; ++d) {
                 const int64_t p = c[d] + plan.start[d];
                 k = k * plan.block[d] + p % plan.block[d];
                 inner = inner * plan.spatial[d] + p / plan.block[d];
               }
               return (k * plan.batch + b) * spatial_cells + inner;
             });
  }
};

REGISTER_KERNEL_BUILDER(Name("SpaceToBatchND")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", SpaceBatchTypes())
                            .HostMemory("block_shape")
                            .HostMemory("paddings"),
                        SpaceToBatchNDOp);
REGISTER_KERNEL_BUILDER(Name("BatchToSpaceND")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", SpaceBatchTypes())
                            .HostMemory("block_shape")
                            .HostMemory("crops"),
                        BatchToSpaceNDOp);

}  // namespace
}  // namespace sluice
