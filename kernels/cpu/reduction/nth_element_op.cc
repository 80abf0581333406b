// NthElement on the CPU: for each row of the last dim, the entry that would be at position n
// were the row sorted ascending (descending with reverse: position n from the largest). The
// row is copied and partitioned with std::nth_element under operator<, as TensorFlow's kernel
// does, so that rows holding NaN (which that order does not rank) give TensorFlow's answer.
// Checks and messages are TensorFlow's, in its order: n a scalar, n >= 0, input rank >= 1,
// last dim > n.
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class NthElementOp : public OpKernel {
 public:
  explicit NthElementOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("reverse", &reverse_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& n_in = ctx->input(1);
    OP_REQUIRES(ctx, n_in.dims() == 0,
                errors::InvalidArgument("N must be scalar but has rank ", n_in.dims()));
    const int64_t n = n_in.base<int32_t>()[0];
    OP_REQUIRES(ctx, n >= 0, errors::InvalidArgument("n must be non-negative but is ", n));
    const Tensor& input = ctx->input(0);
    const int rank = input.dims();
    OP_REQUIRES(ctx, rank >= 1,
                errors::InvalidArgument("Input must be at least rank 1 but is rank ", rank));
    const int64_t cols = input.dim_size(rank - 1);
    OP_REQUIRES(ctx, cols > n, errors::InvalidArgument("Input must have last dimension > n = ", n));
    TensorShape out_shape;
    for (int d = 0; d + 1 < rank; ++d) {
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(input.dim_size(d)));
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    const int64_t rows = out->NumElements();
    if (rows == 0) return;
    const int64_t position = reverse_ ? cols - n - 1 : n;
    const T* x = input.base<T>();
    T* y = out->base<T>();
    const Eigen::TensorOpCost row_cost(sizeof(T) * cols, sizeof(T), 4.0 * cols);
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<T>(ctx, rows, input.NumElements(), row_cost, cols,
                                                  [&](int64_t first, int64_t last, T* row) {
                                                    for (int64_t r = first; r < last; ++r) {
                                                      std::copy_n(x + r * cols, cols, row);
                                                      std::nth_element(row, row + position,
                                                                       row + cols);
                                                      y[r] = row[position];
                                                    }
                                                  }));
  }

 private:
  bool reverse_ = false;
};

#define REGISTER_NTH_ELEMENT(T)                                                         \
  REGISTER_KERNEL_BUILDER(Name("NthElement").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NthElementOp<T>);
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_NTH_ELEMENT)
#undef REGISTER_NTH_ELEMENT

}  // namespace
}  // namespace sluice
