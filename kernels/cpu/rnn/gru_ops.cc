// GRUBlockCell (one step of tf.contrib.rnn's GRUBlockCell) and its gradient GRUBlockCellGrad
// on the CPU, float only as in TensorFlow. With r_u = [x, h_prev] * w_ru + b_ru ([batch, 2 * cell]:
// the reset gate's columns, then the update gate's):
//   r = sigmoid(r_u[:, :cell]),  u = sigmoid(r_u[:, cell:])
//   c = tanh([x, h_prev * r] * w_c + b_c)
//   h = u * (h_prev - c) + c
// The gradient, from d_h (of h) and the forward step's r, u and c:
//   d_c_bar = d_h (1 - u) (1 - c^2),  d_u_bar = d_h (h_prev - c) u (1 - u)
//   [dx2, d_hr] = d_c_bar * w_c^T,    d_r_bar = d_hr h_prev r (1 - r)
//   [dx1, dh1] = [d_r_bar, d_u_bar] * w_ru^T   (d_r_bar_u_bar is that left factor)
//   d_x = dx1 + dx2,  d_h_prev = dh1 + d_hr r + d_h u
// The matrix products are Eigen's. Checks and messages are TensorFlow's, in its order.
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

// The sizes the inputs x, h_prev, w_ru, w_c, b_ru and b_c (both ops' first six) agree on.
struct GruSizes {
  int64_t batch = 0;
  int64_t input = 0;
  int64_t cell = 0;
  int64_t rows = 0;   // input + cell
  int64_t cell2 = 0;  // 2 * cell
};

absl::Status CheckGruInputs(OpKernelContext* ctx, GruSizes* sizes) {
  const Tensor& x = ctx->input(0);
  const Tensor& h_prev = ctx->input(1);
  if (x.dims() != 2) return errors::InvalidArgument("Rank of x must be 2, got ", x.dims());
  sizes->batch = x.dim_size(0);
  sizes->input = x.dim_size(1);
  if (h_prev.dims() != 2) {
    return errors::InvalidArgument("Rank of h_prev must be 2, got ", h_prev.dims());
  }
  if (h_prev.dim_size(0) != sizes->batch) {
    return errors::InvalidArgument("h_prev.dims(0) != batch_size: ", h_prev.dim_size(0), " vs. ",
                                   sizes->batch);
  }
  const int64_t cell = sizes->cell = h_prev.dim_size(1);
  const int64_t rows = sizes->rows = WrappingAdd(sizes->input, cell);
  const int64_t cell2 = sizes->cell2 = WrappingMul(cell, int64_t{2});
  RETURN_IF_ERROR(CheckMatrix(ctx->input(2), "w_ru_", "w_ru", rows, cell2, "input_size + cell_size",
                              "cell_size * 2"));
  RETURN_IF_ERROR(
      CheckMatrix(ctx->input(3), "w_c", "w_c", rows, cell, "input_size + cell_size", "cell_size"));
  RETURN_IF_ERROR(CheckVector(ctx->input(4), "b_ru", cell2, "cell_size * 2"));
  return CheckVector(ctx->input(5), "b_c", cell, "cell_size");
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

    GruSizes sizes;
    OP_REQUIRES_OK(ctx, CheckGruInputs(ctx, &sizes));
    const int64_t batch = sizes.batch;
    const int64_t input = sizes.input;
    const int64_t cell = sizes.cell;
    const int64_t rows = sizes.rows;
    const int64_t cell2 = sizes.cell2;

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

// r, u, c and d_h: [batch, cell] each, with TensorFlow's messages (c's rank message names w_c,
// as TensorFlow's does).
absl::Status CheckBatchCell(const Tensor& t, const char* rank_name, const char* name, int64_t batch,
                            int64_t cell) {
  if (t.dims() != 2) {
    return errors::InvalidArgument("Rank of ", rank_name, " must be 2, got ", t.dims());
  }
  if (t.dim_size(0) != batch) {
    return errors::InvalidArgument(name, ".dims(0) != batch_size: ", t.dim_size(0), " vs. ", batch);
  }
  if (t.dim_size(1) != cell) {
    return errors::InvalidArgument(name, ".dims(1) != cell_size: ", t.dim_size(1), " vs. ", cell);
  }
  return absl::OkStatus();
}

class GRUBlockCellGradOp : public OpKernel {
 public:
  explicit GRUBlockCellGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    GruSizes sizes;
    OP_REQUIRES_OK(ctx, CheckGruInputs(ctx, &sizes));
    const int64_t batch = sizes.batch;
    const int64_t input = sizes.input;
    const int64_t cell = sizes.cell;
    const int64_t rows = sizes.rows;
    OP_REQUIRES_OK(ctx, CheckBatchCell(ctx->input(6), "r", "r", batch, cell));
    OP_REQUIRES_OK(ctx, CheckBatchCell(ctx->input(7), "u", "u", batch, cell));
    OP_REQUIRES_OK(ctx, CheckBatchCell(ctx->input(8), "w_c", "c", batch, cell));
    OP_REQUIRES_OK(ctx, CheckBatchCell(ctx->input(9), "d_h", "d_h", batch, cell));

    Tensor* outs[4];
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ctx->input(0).shape(), &outs[0]));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, ctx->input(1).shape(), &outs[1]));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, ctx->input(1).shape(), &outs[2]));
    TensorShape r_u_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({batch, sizes.cell2}, &r_u_shape));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, r_u_shape, &outs[3]));
    ScratchArray<float> comp1_buf;
    ScratchArray<float> comp2_buf;
    OP_REQUIRES_OK(ctx, comp1_buf.Allocate(ctx, batch * rows));
    OP_REQUIRES_OK(ctx, comp2_buf.Allocate(ctx, batch * rows));

    const auto in = [&](int k, int64_t cols) {
      return Eigen::Map<const RowMatrix>(ctx->input(k).flat<float>().data(), batch, cols);
    };
    const auto h_prev = in(1, cell).array();
    const auto r = in(6, cell).array();
    const auto u = in(7, cell).array();
    const auto c = in(8, cell).array();
    const auto d_h = in(9, cell).array();
    Eigen::Map<RowMatrix> d_x(outs[0]->flat<float>().data(), batch, input);
    Eigen::Map<RowMatrix> d_h_prev(outs[1]->flat<float>().data(), batch, cell);
    Eigen::Map<RowMatrix> d_c_bar(outs[2]->flat<float>().data(), batch, cell);
    Eigen::Map<RowMatrix> d_r_u(outs[3]->flat<float>().data(), batch, sizes.cell2);
    Eigen::Map<RowMatrix> comp1(comp1_buf.data(), batch, rows);
    Eigen::Map<RowMatrix> comp2(comp2_buf.data(), batch, rows);
    const Eigen::Map<const RowMatrix> w_ru(ctx->input(2).flat<float>().data(), rows, sizes.cell2);
    const Eigen::Map<const RowMatrix> w_c(ctx->input(3).flat<float>().data(), rows, cell);

    d_c_bar.array() = d_h * (1.0f - u) * (1.0f - c * c);
    d_r_u.rightCols(cell).array() = d_h * (h_prev - c) * u * (1.0f - u);
    comp2.noalias() = d_c_bar * w_c.transpose();
    const auto d_hr = comp2.rightCols(cell).array();
    d_r_u.leftCols(cell).array() = d_hr * h_prev * r * (1.0f - r);
    comp1.noalias() = d_r_u * w_ru.transpose();
    d_x = comp1.leftCols(input) + comp2.leftCols(input);
    d_h_prev.array() = comp1.rightCols(cell).array() + d_hr * r + d_h * u;
  }
};

REGISTER_KERNEL_BUILDER(Name("GRUBlockCell").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        GRUBlockCellOp);
REGISTER_KERNEL_BUILDER(Name("GRUBlockCellGrad").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        GRUBlockCellGradOp);

}  // namespace
}  // namespace sluice
