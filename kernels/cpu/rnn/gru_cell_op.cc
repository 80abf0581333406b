// GRUBlockCell (one step of tf.contrib.rnn's GRUBlockCell) on the CPU, float only as in
// TensorFlow. With r_u = [x, h_prev] * w_ru + b_ru ([batch, 2 * cell]: the reset gate's
// columns, then the update gate's):
//   r = sigmoid(r_u[:, :cell]),  u = sigmoid(r_u[:, cell:])
//   c = tanh([x, h_prev * r] * w_c + b_c)
//   h = u * (h_prev - c) + c
// The two matrix products are Eigen's. Checks and messages are TensorFlow's, in its order.
#include <cmath>
#include <cstdint>

#include "Eigen/Core"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

float Sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

absl::Status CheckMatrix(const Tensor& t, const char* rank_name, const char* name, int64_t rows,
                         int64_t cols, const char* rows_text, const char* cols_text) {
  if (t.dims() != 2) {
    return errors::InvalidArgument("Rank of ", rank_name, " must be 2, got ", t.dims());
  }
  if (t.dim_size(0) != rows) {
    return errors::InvalidArgument(name, ".dim_size(0) != ", rows_text, ": ", t.dim_size(0),
                                   " vs. ", rows);
  }
  if (t.dim_size(1) != cols) {
    return errors::InvalidArgument(name, ".dim_size(1) != ", cols_text, ": ", t.dim_size(1),
                                   " vs. ", cols);
  }
  return absl::OkStatus();
}

absl::Status CheckVector(const Tensor& t, const char* name, int64_t size, const char* size_text) {
  if (t.dims() != 1) {
    return errors::InvalidArgument("Rank of ", name, " must be 1, got ", t.dims());
  }
  if (t.dim_size(0) != size) {
    return errors::InvalidArgument(name, ".dim_size(0) != ", size_text, ": ", t.dim_size(0),
                                   " vs. ", size);
  }
  return absl::OkStatus();
}

class GRUBlockCellOp : public OpKernel {
 public:
  explicit GRUBlockCellOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x_in = ctx->input(0);
    const Tensor& h_prev_in = ctx->input(1);
    const Tensor& w_ru_in = ctx->input(2);
    const Tensor& w_c_in = ctx->input(3);
    const Tensor& b_ru_in = ctx->input(4);
    const Tensor& b_c_in = ctx->input(5);

    OP_REQUIRES(ctx, x_in.dims() == 2,
                errors::InvalidArgument("Rank of x must be 2, got ", x_in.dims()));
    const int64_t batch = x_in.dim_size(0);
    const int64_t input = x_in.dim_size(1);
    OP_REQUIRES(ctx, h_prev_in.dims() == 2,
                errors::InvalidArgument("Rank of h_prev must be 2, got ", h_prev_in.dims()));
    OP_REQUIRES(ctx, h_prev_in.dim_size(0) == batch,
                errors::InvalidArgument("h_prev.dims(0) != batch_size: ", h_prev_in.dim_size(0),
                                        " vs. ", batch));
    const int64_t cell = h_prev_in.dim_size(1);
    const int64_t rows = WrappingAdd(input, cell);
    const int64_t cell2 = WrappingMul(cell, int64_t{2});
    OP_REQUIRES_OK(ctx, CheckMatrix(w_ru_in, "w_ru_", "w_ru", rows, cell2, "input_size + cell_size",
                                    "cell_size * 2"));
    OP_REQUIRES_OK(
        ctx, CheckMatrix(w_c_in, "w_c", "w_c", rows, cell, "input_size + cell_size", "cell_size"));
    OP_REQUIRES_OK(ctx, CheckVector(b_ru_in, "b_ru", cell2, "cell_size * 2"));
    OP_REQUIRES_OK(ctx, CheckVector(b_c_in, "b_c", cell, "cell_size"));

    // shape-safe: h_prev's own shape
    const TensorShape shape({batch, cell});
    Tensor* outs[4];
    for (int k = 0; k < 4; ++k) OP_REQUIRES_OK(ctx, ctx->allocate_output(k, shape, &outs[k]));
    ScratchArray<float> xh_buf;
    ScratchArray<float> r_u_buf;
    OP_REQUIRES_OK(ctx, xh_buf.Allocate(ctx, batch * rows));
    OP_REQUIRES_OK(ctx, r_u_buf.Allocate(ctx, batch * cell2));

    const Eigen::Map<const RowMatrix> x(x_in.flat<float>().data(), batch, input);
    const Eigen::Map<const RowMatrix> h_prev(h_prev_in.flat<float>().data(), batch, cell);
    Eigen::Map<RowMatrix> xh(xh_buf.data(), batch, rows);
    Eigen::Map<RowMatrix> r_u(r_u_buf.data(), batch, cell2);
    Eigen::Map<RowMatrix> r(outs[0]->flat<float>().data(), batch, cell);
    Eigen::Map<RowMatrix> u(outs[1]->flat<float>().data(), batch, cell);
    Eigen::Map<RowMatrix> c(outs[2]->flat<float>().data(), batch, cell);
    Eigen::Map<RowMatrix> h(outs[3]->flat<float>().data(), batch, cell);

    xh.leftCols(input) = x;
    xh.rightCols(cell) = h_prev;
    r_u.noalias() = xh * Eigen::Map<const RowMatrix>(w_ru_in.flat<float>().data(), rows, cell2);
    r_u.rowwise() += Eigen::Map<const RowVector>(b_ru_in.flat<float>().data(), cell2);
    r = r_u.leftCols(cell).unaryExpr(&Sigmoid);
    u = r_u.rightCols(cell).unaryExpr(&Sigmoid);

    // The same [x, .] buffer now holds [x, h_prev * r].
    xh.rightCols(cell) = h_prev.cwiseProduct(r);
    c.noalias() = xh * Eigen::Map<const RowMatrix>(w_c_in.flat<float>().data(), rows, cell);
    c.rowwise() += Eigen::Map<const RowVector>(b_c_in.flat<float>().data(), cell);
    c = c.array().tanh().matrix();
    h = (u.array() * (h_prev - c).array() + c.array()).matrix();
  }
};

REGISTER_KERNEL_BUILDER(Name("GRUBlockCell").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        GRUBlockCellOp);

}  // namespace
}  // namespace sluice
