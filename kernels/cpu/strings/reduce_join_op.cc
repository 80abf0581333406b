// ReduceJoin on the CPU: joins the strings along the dims of reduction_indices with
// `separator`. The order of reduction_indices matters: the first listed dim varies fastest
// in each joined string, as if the dims were reduced one after another in that order. An
// empty list reduces nothing. A dim outside [-rank, rank) is OUT_OF_RANGE and a dim listed
// twice INVALID_ARGUMENT, both reported for the first offending entry.
#include <array>
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using DimList = std::array<int, TensorShape::kMaxDims>;

// The offset into the input of the `index`-th combination of the dims dims[0..count), the
// last of them varying fastest.
int64_t OffsetOf(int64_t index, const DimList& dims, int count, const TensorShape& shape,
                 const std::array<int64_t, TensorShape::kMaxDims>& strides) {
  int64_t offset = 0;
  for (int k = count - 1; k >= 0; --k) {
    const int64_t size = shape.dim_size(dims[k]);
    offset += strides[dims[k]] * (index % size);
    index /= size;
  }
  return offset;
}

class ReduceJoinOp : public OpKernel {
 public:
  explicit ReduceJoinOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("separator", &separator_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    const TensorShape& shape = input.shape();
    const int rank = shape.dims();
    const int64_t num_indices = indices.NumElements();
    const int32_t* index_values = indices.base<int32_t>();

    std::array<bool, TensorShape::kMaxDims> reduced{};
    // reduced_dims lists the reduced dims innermost (fastest) last: the reverse of the order
    // given. No more than `rank` entries pass the checks, so the array cannot overflow.
    DimList listed{};
    int num_reduced = 0;
    for (int64_t k = 0; k < num_indices; ++k) {
      const int32_t d = index_values[k];
      OP_REQUIRES(ctx, d >= -rank && d < rank,
                  errors::OutOfRange("Invalid reduction dimension ", d, " for input with ", rank,
                                     " dimension(s)"));
      const int dim = d < 0 ? d + rank : d;
      OP_REQUIRES(ctx, !reduced[dim], errors::InvalidArgument("Duplicate reduction dimension ", d));
      reduced[dim] = true;
      listed[num_reduced++] = dim;
    }
    DimList reduced_dims{};
    for (int k = 0; k < num_reduced; ++k) reduced_dims[k] = listed[num_reduced - 1 - k];
    DimList kept_dims{};
    int num_kept = 0;
    TensorShape out_shape;
    for (int d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        kept_dims[num_kept++] = d;
        out_shape.AddDim(shape.dim_size(d));  // shape-safe: the input's dims are valid
      } else if (keep_dims_) {
        out_shape.AddDim(1);  // shape-safe: 1 is a valid dim
      }
    }
    std::array<int64_t, TensorShape::kMaxDims> strides{};
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= shape.dim_size(d);
    }
    int64_t group = 1;
    for (int k = 0; k < num_reduced; ++k) group *= shape.dim_size(reduced_dims[k]);

    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    const int64_t n = output->NumElements();
    if (n == 0) return;
    const std::string* in = input.base<std::string>();
    std::string* out = output->base<std::string>();
    const double per_output = 16.0 * static_cast<double>(group);
    const Eigen::TensorOpCost cost(per_output, per_output, 2 * per_output);
    ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) {
        const int64_t base = OffsetOf(i, kept_dims, num_kept, shape, strides);
        std::string& joined = out[i];
        for (int64_t j = 0; j < group; ++j) {
          if (j > 0) joined.append(separator_);
          joined.append(in[base + OffsetOf(j, reduced_dims, num_reduced, shape, strides)]);
        }
      }
    });
  }

 private:
  bool keep_dims_ = false;
  std::string separator_;
};

REGISTER_KERNEL_BUILDER(Name("ReduceJoin").Device(DEVICE_CPU), ReduceJoinOp);

}  // namespace
}  // namespace sluice
