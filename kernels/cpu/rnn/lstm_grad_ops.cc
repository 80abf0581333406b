// LSTMBlockCellGrad and BlockLSTMGrad / BlockLSTMGradV2 (the gradients of lstm_ops.cc's ops) on
// the CPU, for half and float as TensorFlow registers them. The step's arithmetic is in
// lstm_cell_grad.h; the products with w are Eigen GEMMs. Gradients are accumulated in float
// and rounded once.
//
// Checks: TensorFlow's, with its messages, in its order. Where TensorFlow checks less and
// then reads past an array or aborts, Sluice checks more, with messages of its own:
//  - LSTMBlockCellGrad: TensorFlow reads the inputs' dims without checking their ranks, and
//    never checks the peephole vectors' lengths; Sluice checks the ranks first, and the
//    lengths with use_peephole.
//  - BlockLSTMGrad: TensorFlow checks only the ranks of i, cs, f, o, ci, co and h, and nothing
//    of cs_prev's and h_prev's sizes, cs_grad, h_grad and the peephole vectors. Sluice requires
//    cs_prev and h_prev of [batch, cell], the seven activations and the two gradients of
//    [time', batch, cell] with time' >= seq_len_max (the rows TensorFlow reads), and, with
//    use_peephole, peephole vectors of [cell]. It requires b of exactly 4 * cell (TensorFlow
//    takes up to 3 more and reads past its gradient then).
//
// BlockLSTMGrad runs the steps from seq_len_max - 1 down to 0; each adds the gradients of the
// cs and h it produced (cs_grad[t], h_grad[t]) to those the later step sends back through
// cs_prev and h_prev. x_grad's rows past seq_len_max are zero, as TensorFlow's.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/rnn/lstm_cell.h"
#include "kernels/cpu/rnn/lstm_cell_grad.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using rnn::GateLayout;
using rnn::LstmActivations;
using rnn::LstmCellConfig;
using rnn::LstmCellGrads;
using rnn::LstmWeights;

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;
template <typename T>
using RowMatrixOf = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

absl::Status CheckRank(const Tensor& t, const char* name, int rank) {
  if (t.dims() != rank) {
    return errors::InvalidArgument(name, " must be rank ", rank, " but is rank ", t.dims());
  }
  return absl::OkStatus();
}

absl::Status CheckDim(const Tensor& t, const char* text, int d, int64_t want) {
  if (t.dim_size(d) != want) {
    return errors::InvalidArgument(text, t.dim_size(d), " vs. ", want);
  }
  return absl::OkStatus();
}

absl::Status CheckPeepholeSizes(const Tensor* const vectors[3], int64_t cell) {
  const char* names[] = {"wci", "wcf", "wco"};
  for (int k = 0; k < 3; ++k) {
    if (vectors[k]->dim_size(0) != cell) {
      return errors::InvalidArgument(
          names[k], ".dim_size(0) != cell_size: ", vectors[k]->dim_size(0), " vs. ", cell);
    }
  }
  return absl::OkStatus();
}

// Copies float rows into T.
template <typename T>
void Store(const float* from, int64_t n, T* to) {
  Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>(to, n) =
      Eigen::Map<const RowVector>(from, n).template cast<T>();
}

template <typename T>
class LSTMBlockCellGradOp : public OpKernel {
 public:
  explicit LSTMBlockCellGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_peephole", &config_.use_peephole));
    config_.layout = GateLayout::kICFO;
  }

  void Compute(OpKernelContext* ctx) override {
    static const char* const kNames[] = {"x",   "cs_prev", "h_prev",  "w",     "wci", "wcf",
                                         "wco", "b",       "i",       "cs",    "f",   "o",
                                         "ci",  "co",      "cs_grad", "h_grad"};
    for (int k = 0; k < 16; ++k) {
      const int rank = k >= 4 && k < 8 ? 1 : 2;
      OP_REQUIRES_OK(ctx, CheckRank(ctx->input(k), kNames[k], rank));
    }
    const Tensor& x = ctx->input(0);
    LstmCellConfig config = config_;
    const int64_t batch = config.batch_size = x.dim_size(0);
    config.input_size = x.dim_size(1);
    const int64_t cell = config.cell_size = ctx->input(1).dim_size(1);
    const int64_t gates = WrappingMul(cell, int64_t{4});
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(1), "cs_prev.dims(0) != batch_size: ", 0, batch));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(2), "h_prev.dims(0) != batch_size: ", 0, batch));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(2), "h_prev.dims(1) != cell_size: ", 1, cell));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(3), "w.dim_size(0) != input_size + cell_size: ", 0,
                                 WrappingAdd(config.input_size, cell)));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(3), "w.dim_size(1) != cell_size * 4: ", 1, gates));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(7), "b.dim_size(0) != cell_size * 4: ", 0, gates));
    // TensorFlow's messages, f's second one included.
    const std::pair<int, const char*> activations[] = {{8, "i.dim_size("},   {9, "cs.dim_size("},
                                                       {10, "f.dim_size("},  {11, "o.dim_size("},
                                                       {12, "ci.dim_size("}, {13, "co.dim_size("}};
    for (const auto& [k, text] : activations) {
      const std::string second = k == 10 ? "i.dim_size(" : text;
      OP_REQUIRES_OK(ctx, CheckDim(ctx->input(k),
                                   (std::string(text) + "0) != batch_size: ").c_str(), 0, batch));
      OP_REQUIRES_OK(ctx, CheckDim(ctx->input(k), (second + "1) != cell_size: ").c_str(), 1, cell));
    }
    OP_REQUIRES_OK(ctx,
                   CheckDim(ctx->input(14), "cs_grad_tensor.dims(0) != batch_size: ", 0, batch));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(14), "cs_grad_tensor.dims(1) != cell_size: ", 1, cell));
    OP_REQUIRES_OK(ctx,
                   CheckDim(ctx->input(15), "h_grad_tensor.dims(0) != batch_size: ", 0, batch));
    OP_REQUIRES_OK(ctx, CheckDim(ctx->input(15), "h_grad_tensor.dims(1) != cell_size: ", 1, cell));
    const Tensor* const peepholes[3] = {&ctx->input(4), &ctx->input(5), &ctx->input(6)};
    if (config.use_peephole) OP_REQUIRES_OK(ctx, CheckPeepholeSizes(peepholes, cell));

    Tensor* cs_prev_grad = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, ctx->input(1).shape(), &cs_prev_grad));
    Tensor* dicfo = nullptr;
    TensorShape dicfo_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({batch, gates}, &dicfo_shape));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, dicfo_shape, &dicfo));
    Tensor* peephole_grads[3];
    for (int k = 0; k < 3; ++k) {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(2 + k, peepholes[k]->shape(), &peephole_grads[k]));
    }

    ScratchArray<float> cs_grad_f, h_grad_f, wci_f, wcf_f, wco_f;
    LstmWeights weights;
    LstmCellGrads grads;
    OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, ctx->input(14), &cs_grad_f, &grads.cs_grad));
    OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, ctx->input(15), &h_grad_f, &grads.h_grad));
    if (config.use_peephole) {
      OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, *peepholes[0], &wci_f, &weights.wci));
      OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, *peepholes[1], &wcf_f, &weights.wcf));
      OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, *peepholes[2], &wco_f, &weights.wco));
    }
    ScratchArray<float> dgates, cs_prev_grad_f, peephole_grads_f;
    OP_REQUIRES_OK(ctx, dgates.Allocate(ctx, batch * gates));
    OP_REQUIRES_OK(ctx, cs_prev_grad_f.Allocate(ctx, batch * cell));
    const int64_t peephole_size = config.use_peephole ? cell : 0;
    OP_REQUIRES_OK(ctx, peephole_grads_f.Allocate(ctx, 3 * peephole_size));
    grads.dgates = dgates.data();
    grads.cs_prev_grad = cs_prev_grad_f.data();
    grads.wci_grad = peephole_grads_f.data();
    grads.wcf_grad = peephole_grads_f.data() + peephole_size;
    grads.wco_grad = peephole_grads_f.data() + 2 * peephole_size;

    LstmActivations<T> act;
    act.cs_prev = ctx->input(1).flat<T>().data();
    const T** fields[] = {&act.i, &act.cs, &act.f, &act.o, &act.ci, &act.co};
    for (int k = 0; k < 6; ++k) *fields[k] = ctx->input(8 + k).flat<T>().data();
    rnn::LstmCellBackward<T>(config, weights, act, grads);

    Store(cs_prev_grad_f.data(), batch * cell, cs_prev_grad->flat<T>().data());
    Store(dgates.data(), batch * gates, dicfo->flat<T>().data());
    for (int k = 0; k < 3; ++k) {
      auto out = peephole_grads[k]->flat<T>();
      if (config.use_peephole) {
        Store(peephole_grads_f.data() + k * cell, cell, out.data());
      } else {
        std::fill_n(out.data(), out.size(), T(0));
      }
    }
  }

 private:
  LstmCellConfig config_;
};

template <typename T, GateLayout kLayout>
class BlockLSTMGradOp : public OpKernel {
 public:
  explicit BlockLSTMGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_peephole", &config_.use_peephole));
    config_.layout = kLayout;
  }

  void Compute(OpKernelContext* ctx) override {
    LstmCellConfig config = config_;
    int64_t time = 0;
    int64_t seq_len_max = 0;
    OP_REQUIRES_OK(ctx, CheckInputs(ctx, &config, &time, &seq_len_max));
    const int64_t batch = config.batch_size;
    const int64_t input = config.input_size;
    const int64_t cell = config.cell_size;
    const int64_t rows = input + cell;

    Tensor* outputs[8];
    for (int k = 0; k < 8; ++k) {
      OP_REQUIRES_OK(ctx, ctx->allocate_output(k, ctx->input(k + 1).shape(), &outputs[k]));
    }
    // The float weights, the float accumulators (cs_prev_grad, h_prev_grad, w_grad, b_grad and
    // the three peephole gradients), and the step's working arrays.
    ScratchArray<float> w_f, wci_f, wcf_f, wco_f;
    LstmWeights weights;
    OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, ctx->input(4), &w_f, &weights.w));
    if (config.use_peephole) {
      OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, ctx->input(5), &wci_f, &weights.wci));
      OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, ctx->input(6), &wcf_f, &weights.wcf));
      OP_REQUIRES_OK(ctx, rnn::FloatElements<T>(ctx, ctx->input(7), &wco_f, &weights.wco));
    }
    ScratchArray<float> cs_prev_grad, h_prev_grad, w_grad, b_grad, peephole_grads;
    ScratchArray<float> cs_grad, h_grad, xh, xh_grad, dgates;
    OP_REQUIRES_OK(ctx, cs_prev_grad.Allocate(ctx, batch * cell));
    OP_REQUIRES_OK(ctx, h_prev_grad.Allocate(ctx, batch * cell));
    OP_REQUIRES_OK(ctx, w_grad.Allocate(ctx, rows * 4 * cell));
    OP_REQUIRES_OK(ctx, b_grad.Allocate(ctx, 4 * cell));
    OP_REQUIRES_OK(ctx, peephole_grads.Allocate(ctx, 3 * cell));
    OP_REQUIRES_OK(ctx, cs_grad.Allocate(ctx, batch * cell));
    OP_REQUIRES_OK(ctx, h_grad.Allocate(ctx, batch * cell));
    OP_REQUIRES_OK(ctx, xh.Allocate(ctx, batch * rows));
    OP_REQUIRES_OK(ctx, xh_grad.Allocate(ctx, batch * rows));
    OP_REQUIRES_OK(ctx, dgates.Allocate(ctx, batch * 4 * cell));

    LstmCellGrads grads;
    grads.cs_grad = cs_grad.data();
    grads.h_grad = h_grad.data();
    grads.dgates = dgates.data();
    grads.cs_prev_grad = cs_prev_grad.data();
    grads.wci_grad = peephole_grads.data();
    grads.wcf_grad = peephole_grads.data() + cell;
    grads.wco_grad = peephole_grads.data() + 2 * cell;

    const auto data = [&](int k) { return ctx->input(k).flat<T>().data(); };
    const int64_t x_step = batch * input;
    const int64_t step = batch * cell;
    const auto matrix = [&](const T* p, int64_t cols) {
      return Eigen::Map<const RowMatrixOf<T>>(p, batch, cols).template cast<float>();
    };
    Eigen::Map<RowMatrix> cs_grad_m(cs_grad.data(), batch, cell);
    Eigen::Map<RowMatrix> h_grad_m(h_grad.data(), batch, cell);
    Eigen::Map<RowMatrix> cs_prev_grad_m(cs_prev_grad.data(), batch, cell);
    Eigen::Map<RowMatrix> h_prev_grad_m(h_prev_grad.data(), batch, cell);
    Eigen::Map<RowMatrix> xh_m(xh.data(), batch, rows);
    Eigen::Map<RowMatrix> xh_grad_m(xh_grad.data(), batch, rows);
    Eigen::Map<const RowMatrix> dgates_m(dgates.data(), batch, 4 * cell);
    Eigen::Map<const RowMatrix> w_m(weights.w, rows, 4 * cell);
    Eigen::Map<RowMatrix> w_grad_m(w_grad.data(), rows, 4 * cell);
    Eigen::Map<RowVector> b_grad_m(b_grad.data(), 4 * cell);
    T* x_grad = outputs[0]->flat<T>().data();
    for (int64_t t = seq_len_max - 1; t >= 0; --t) {
      cs_grad_m = cs_prev_grad_m + matrix(data(16) + t * step, cell);
      h_grad_m = h_prev_grad_m + matrix(data(17) + t * step, cell);
      LstmActivations<T> act;
      act.cs_prev = t == 0 ? data(2) : data(10) + (t - 1) * step;
      const T* h_prev = t == 0 ? data(3) : data(15) + (t - 1) * step;
      const T** fields[] = {&act.i, &act.cs, &act.f, &act.o, &act.ci, &act.co};
      for (int k = 0; k < 6; ++k) *fields[k] = data(9 + k) + t * step;
      rnn::LstmCellBackward<T>(config, weights, act, grads);

      xh_grad_m.noalias() = dgates_m * w_m.transpose();
      Eigen::Map<RowMatrixOf<T>>(x_grad + t * x_step, batch, input) =
          xh_grad_m.leftCols(input).template cast<T>();
      h_prev_grad_m = xh_grad_m.rightCols(cell);
      xh_m.leftCols(input) = matrix(data(1) + t * x_step, input);
      xh_m.rightCols(cell) = matrix(h_prev, cell);
      w_grad_m.noalias() += xh_m.transpose() * dgates_m;
      b_grad_m += dgates_m.colwise().sum();
    }
    std::fill_n(x_grad + seq_len_max * x_step, (time - seq_len_max) * x_step, T(0));
    Store(cs_prev_grad.data(), batch * cell, outputs[1]->flat<T>().data());
    Store(h_prev_grad.data(), batch * cell, outputs[2]->flat<T>().data());
    Store(w_grad.data(), rows * 4 * cell, outputs[3]->flat<T>().data());
    Store(b_grad.data(), 4 * cell, outputs[7]->flat<T>().data());
    for (int k = 0; k < 3; ++k) {
      auto out = outputs[4 + k]->flat<T>();
      if (config.use_peephole) {
        Store(peephole_grads.data() + k * cell, cell, out.data());
      } else {
        std::fill_n(out.data(), out.size(), T(0));
      }
    }
  }

 private:
  static absl::Status CheckInputs(OpKernelContext* ctx, LstmCellConfig* config, int64_t* time,
                                  int64_t* seq_len_max) {
    const Tensor& seq_len_max_tensor = ctx->input(0);
    if (seq_len_max_tensor.dims() != 0) {
      return errors::InvalidArgument("`seq_len_max_tensor` must be rank 0 but is rank ",
                                     seq_len_max_tensor.dims());
    }
    const Tensor& x = ctx->input(1);
    RETURN_IF_ERROR(CheckRank(x, "x", 3));
    *time = x.dim_size(0);
    const int64_t batch = config->batch_size = x.dim_size(1);
    const int64_t input = config->input_size = x.dim_size(2);
    RETURN_IF_ERROR(CheckRank(ctx->input(2), "cs_prev", 2));
    RETURN_IF_ERROR(CheckRank(ctx->input(3), "h_prev", 2));
    const Tensor& w = ctx->input(4);
    RETURN_IF_ERROR(CheckRank(w, "w", 2));
    if (w.dim_size(1) <= 0 || w.dim_size(1) % 4 != 0) {
      return errors::InvalidArgument("w matrix columns must be a positive multiple of 4, but got ",
                                     w.dim_size(1));
    }
    const int64_t cell = config->cell_size = w.dim_size(1) / 4;
    if (WrappingAdd(input, cell) != w.dim_size(0)) {
      return errors::InvalidArgument("w matrix rows don't match: ", WrappingAdd(input, cell),
                                     " vs. ", w.dim_size(0));
    }
    RETURN_IF_ERROR(CheckRank(ctx->input(5), "wci", 1));
    RETURN_IF_ERROR(CheckRank(ctx->input(6), "wcf", 1));
    RETURN_IF_ERROR(CheckRank(ctx->input(7), "wco", 1));
    const Tensor& b = ctx->input(8);
    RETURN_IF_ERROR(CheckRank(b, "b", 1));
    if (b.dim_size(0) != w.dim_size(1)) {
      return errors::InvalidArgument("w and b cell_size don't match: ", cell, " vs. ",
                                     b.dim_size(0));
    }
    static const char* const kActivations[] = {"i", "cs", "f", "o", "ci", "co", "h"};
    for (int k = 0; k < 7; ++k) {
      const Tensor& t = ctx->input(9 + k);
      if (t.dims() != 3) {
        return errors::InvalidArgument(kActivations[k], " must be rank 3. Received: ", t.dims());
      }
    }
    *seq_len_max = seq_len_max_tensor.scalar<int64_t>()();
    if (*seq_len_max < 0 || *seq_len_max > *time) {
      return errors::InvalidArgument("seq_len_max must be between 0 and ", *time, " but is ",
                                     *seq_len_max);
    }
    // Sluice's own checks of what TensorFlow reads unchecked.
    const std::pair<int, const char*> states[] = {{2, "cs_prev"}, {3, "h_prev"}};
    for (const auto& [k, name] : states) {
      const Tensor& t = ctx->input(k);
      if (t.dim_size(0) != batch || t.dim_size(1) != cell) {
        return errors::InvalidArgument(name, " must be [batch_size, cell_size] = [", batch, ",",
                                       cell, "] but is ", t.shape().DebugString());
      }
    }
    static const char* const kSequences[] = {"i",  "cs", "f",       "o",     "ci",
                                             "co", "h",  "cs_grad", "h_grad"};
    for (int k = 0; k < 9; ++k) {
      const Tensor& t = ctx->input(9 + k);
      if (t.dims() != 3 || t.dim_size(0) < *seq_len_max || t.dim_size(1) != batch ||
          t.dim_size(2) != cell) {
        return errors::InvalidArgument(kSequences[k], " must be [time, batch_size, cell_size] = [",
                                       *time, ",", batch, ",", cell, "] with time at least ",
                                       "seq_len_max (", *seq_len_max, ") but is ",
                                       t.shape().DebugString());
      }
    }
    if (config->use_peephole) {
      const Tensor* const peepholes[3] = {&ctx->input(5), &ctx->input(6), &ctx->input(7)};
      RETURN_IF_ERROR(CheckPeepholeSizes(peepholes, cell));
    }
    return absl::OkStatus();
  }

  LstmCellConfig config_;
};

#define REGISTER_CPU(T)                                                                        \
  REGISTER_KERNEL_BUILDER(Name("LSTMBlockCellGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          LSTMBlockCellGradOp<T>);                                             \
  REGISTER_KERNEL_BUILDER(Name("BlockLSTMGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
                          BlockLSTMGradOp<T, GateLayout::kICFO>);                              \
  REGISTER_KERNEL_BUILDER(Name("BlockLSTMGradV2").Device(DEVICE_CPU).TypeConstraint<T>("T"),   \
                          BlockLSTMGradOp<T, GateLayout::kIFCO>);
SLUICE_CALL_half(REGISTER_CPU) SLUICE_CALL_float(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
