// MatrixTriangularSolve on the CPU: X with T X = B (or T^H X = B with adjoint), T the lower
// (or upper) triangle of each innermost square matrix, entries outside it never read.
//
// As TensorFlow: the batch dims broadcast as BatchMatMulV2's (numpy rules over the dims
// before the last two), each system is solved by Eigen's triangular solve on row-major
// matrices, and a zero on the diagonal raises nothing (it gives infinities and NaNs).
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/matrix_batch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using Dims = absl::InlinedVector<int64_t, 6>;

// The broadcast batch: output dims and, per output dim, each operand's size there (1 where
// that operand is broadcast), all right-aligned to the output's rank.
struct BatchBroadcast {
  Dims out, x, y;
  int64_t size = 1;

  // The offsets, in matrices, of x's and y's matrix for output batch index i.
  void Offsets(int64_t i, int64_t* x_index, int64_t* y_index) const {
    int64_t xi = 0, yi = 0, x_step = 1, y_step = 1;
    for (int d = static_cast<int>(out.size()) - 1; d >= 0; --d) {
      const int64_t idx = i % out[d];
      i /= out[d];
      if (x[d] != 1) xi += idx * x_step;
      if (y[d] != 1) yi += idx * y_step;
      x_step *= x[d];
      y_step *= y[d];
    }
    *x_index = xi;
    *y_index = yi;
  }
};

// Broadcasts the batch dims of x and y (shapes of rank >= 2); false when they are not
// compatible.
bool BroadcastBatch(const TensorShape& x, const TensorShape& y, BatchBroadcast* b) {
  const int xr = x.dims() - 2, yr = y.dims() - 2;
  const int rank = xr > yr ? xr : yr;
  // heap-ok: one entry per batch dim (rank <= 254)
  b->out.assign(rank, 1);
  b->x.assign(rank, 1);  // heap-ok: as above
  b->y.assign(rank, 1);  // heap-ok: as above
  for (int d = 0; d < rank; ++d) {
    const int xd = d - (rank - xr), yd = d - (rank - yr);
    const int64_t xs = xd >= 0 ? x.dim_size(xd) : 1;
    const int64_t ys = yd >= 0 ? y.dim_size(yd) : 1;
    if (xs != ys && xs != 1 && ys != 1) return false;
    b->x[d] = xs;
    b->y[d] = ys;
    b->out[d] = xs == 1 ? ys : xs;
    b->size *= b->out[d];
  }
  return true;
}

template <typename T>
class MatrixTriangularSolveOp : public OpKernel {
 public:
  explicit MatrixTriangularSolveOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("lower", &lower_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("adjoint", &adjoint_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& matrix = ctx->input(0);
    const Tensor& rhs = ctx->input(1);
    OP_REQUIRES(ctx, matrix.dims() >= 2,
                errors::InvalidArgument("In[0] ndims must be >= 2: ", matrix.dims()));
    OP_REQUIRES(ctx, rhs.dims() >= 2,
                errors::InvalidArgument("In[1] ndims must be >= 2: ", rhs.dims()));
    const int64_t m = matrix.dim_size(matrix.dims() - 1);
    const int64_t prev = matrix.dim_size(matrix.dims() - 2);
    OP_REQUIRES(ctx, m == prev,
                errors::InvalidArgument("In[0] matrices in the last dimensions must be square (", m,
                                        " =/= ", prev, ")"));
    BatchBroadcast bcast;
    OP_REQUIRES(
        ctx, BroadcastBatch(matrix.shape(), rhs.shape(), &bcast),
        errors::InvalidArgument("In[0] and In[1] must have compatible batch dimensions: ",
                                matrix.shape().DebugString(), " vs. ", rhs.shape().DebugString()));
    const int64_t rhs_rows = rhs.dim_size(rhs.dims() - 2);
    const int64_t n = rhs.dim_size(rhs.dims() - 1);
    OP_REQUIRES(
        ctx, m == rhs_rows,
        errors::InvalidArgument("In[0] mismatch In[1] shape: ", m, " vs. ", rhs_rows, ": ",
                                matrix.shape().DebugString(), " ", rhs.shape().DebugString(), " ",
                                int{lower_}, " ", int{adjoint_}));
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(bcast.out, &out_shape));
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(m));
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(n));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (output->NumElements() == 0) return;
    linalg::ForEachMatrix(
        ctx, bcast.size, double(m) * m * n / 2, output->NumElements(), [&](int64_t i) {
          int64_t xi = 0, yi = 0;
          bcast.Offsets(i, &xi, &yi);
          Solve(linalg::MatrixAt<T>(matrix, xi, m, m), linalg::MatrixAt<T>(rhs, yi, m, n),
                linalg::MutableMatrixAt<T>(output, i, m, n));
          return true;
        });
  }

 private:
  void Solve(const linalg::ConstMatrixMap<T>& a, const linalg::ConstMatrixMap<T>& b,
             linalg::MatrixMap<T> x) const {
    if (lower_) {
      const auto t = a.template triangularView<Eigen::Lower>();
      if (adjoint_) {
        x.noalias() = t.adjoint().solve(b);
      } else {
        x.noalias() = t.solve(b);
      }
    } else {
      const auto t = a.template triangularView<Eigen::Upper>();
      if (adjoint_) {
        x.noalias() = t.adjoint().solve(b);
      } else {
        x.noalias() = t.solve(b);
      }
    }
  }

  bool lower_ = true;
  bool adjoint_ = false;
};

#define REGISTER_CPU(T)                                                                            \
  REGISTER_KERNEL_BUILDER(Name("MatrixTriangularSolve").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MatrixTriangularSolveOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_double(REGISTER_CPU)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
