// LSTMBlockCell (one step of tf.contrib.rnn's LSTMBlockCell) and BlockLSTM / BlockLSTMV2 (a
// whole time-major sequence, LSTMBlockFusedCell and Keras's gate order) on the CPU, for half
// and float as TensorFlow registers them. The step's arithmetic is in lstm_cell.h.
//
// Checks and messages are TensorFlow's. Its LSTMBlockCell reads the inputs' dims before it
// checks their ranks; Sluice checks the ranks first (same messages), so a wrong rank is never
// read past. It also leaves the peephole vectors' lengths unchecked, reading past a short one;
// Sluice checks them, with BlockLSTM's message, when use_peephole is set.
//
// BlockLSTM runs seq_len_max (0 <= seq_len_max <= time) steps, each reading the previous
// step's cs and h outputs (cs_prev and h_prev at the first); the rows of cs and h past
// seq_len_max are zero as in TensorFlow, and so are the other five outputs' rows there, which
// TensorFlow leaves uninitialised. BlockLSTMV2 has no forget_bias (0) and orders the gates
// i, f, ci, o.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/rnn/lstm_cell.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using rnn::GateLayout;
using rnn::LstmCellConfig;
using rnn::LstmStep;
using rnn::LstmWeights;
using rnn::LstmWorkspace;

// The inputs shared by the three ops, after their own first inputs.
struct LstmInputs {
  const Tensor* x;
  const Tensor* cs_prev;
  const Tensor* h_prev;
  const Tensor* w;
  const Tensor* wci;
  const Tensor* wcf;
  const Tensor* wco;
  const Tensor* b;
};

LstmInputs InputsFrom(OpKernelContext* ctx, int first) {
  return {&ctx->input(first),     &ctx->input(first + 1), &ctx->input(first + 2),
          &ctx->input(first + 3), &ctx->input(first + 4), &ctx->input(first + 5),
          &ctx->input(first + 6), &ctx->input(first + 7)};
}

// The peephole vectors' lengths, with BlockLSTM's messages.
absl::Status CheckPeepholeSizes(const LstmInputs& in, int64_t cell_size) {
  const std::pair<const char*, const Tensor*> vectors[] = {
      {"wci", in.wci}, {"wcf", in.wcf}, {"wco", in.wco}};
  for (const auto& [name, t] : vectors) {
    if (t->dim_size(0) != cell_size) {
      return errors::InvalidArgument(name, ".dim_size(0) != cell_size: ", t->dim_size(0), " vs. ",
                                     cell_size);
    }
  }
  return absl::OkStatus();
}

// The float weights of a kernel call (converted copies for half).
template <typename T>
class FloatWeights {
 public:
  absl::Status Init(OpKernelContext* ctx, const LstmInputs& in, bool use_peephole) {
    RETURN_IF_ERROR(rnn::FloatElements<T>(ctx, *in.w, &w_, &weights_.w));
    RETURN_IF_ERROR(rnn::FloatElements<T>(ctx, *in.b, &b_, &weights_.b));
    if (use_peephole) {
      RETURN_IF_ERROR(rnn::FloatElements<T>(ctx, *in.wci, &wci_, &weights_.wci));
      RETURN_IF_ERROR(rnn::FloatElements<T>(ctx, *in.wcf, &wcf_, &weights_.wcf));
      RETURN_IF_ERROR(rnn::FloatElements<T>(ctx, *in.wco, &wco_, &weights_.wco));
    }
    return absl::OkStatus();
  }
  const LstmWeights& weights() const { return weights_; }

 private:
  ScratchArray<float> w_, b_, wci_, wcf_, wco_;
  LstmWeights weights_;
};

template <typename T>
class LSTMBlockCellOp : public OpKernel {
 public:
  explicit LSTMBlockCellOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float forget_bias = 0;
    float cell_clip = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("forget_bias", &forget_bias));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("cell_clip", &cell_clip));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_peephole", &config_.use_peephole));
    config_.forget_bias = static_cast<float>(static_cast<T>(forget_bias));
    config_.cell_clip = static_cast<float>(static_cast<T>(cell_clip));
    config_.layout = GateLayout::kICFO;
  }

  void Compute(OpKernelContext* ctx) override {
    const LstmInputs in = InputsFrom(ctx, 0);
    OP_REQUIRES_OK(ctx, CheckRanks(in));
    LstmCellConfig config = config_;
    config.batch_size = in.x->dim_size(0);
    config.input_size = in.x->dim_size(1);
    config.cell_size = in.cs_prev->dim_size(1);
    OP_REQUIRES_OK(ctx, CheckSizes(in, config));

    // shape-safe: cs_prev's own shape
    const TensorShape shape({config.batch_size, config.cell_size});
    LstmStep<T> step;
    step.x = in.x->flat<T>().data();
    step.cs_prev = in.cs_prev->flat<T>().data();
    step.h_prev = in.h_prev->flat<T>().data();
    T** outputs[] = {&step.i, &step.cs, &step.f, &step.o, &step.ci, &step.co, &step.h};
    for (int k = 0; k < 7; ++k) {
      Tensor* out = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(k, shape, &out));
      *outputs[k] = out->flat<T>().data();
    }
    FloatWeights<T> weights;
    OP_REQUIRES_OK(ctx, weights.Init(ctx, in, config.use_peephole));
    LstmWorkspace work;
    OP_REQUIRES_OK(ctx, work.Allocate(ctx, config));
    rnn::LstmCellForward<T>(config, weights.weights(), step, &work);
  }

 private:
  static absl::Status CheckRanks(const LstmInputs& in) {
    const std::pair<const char*, const Tensor*> matrices[] = {
        {"x", in.x}, {"cs_prev", in.cs_prev}, {"h_prev", in.h_prev}, {"w", in.w}};
    for (const auto& [name, t] : matrices) {
      if (t->dims() != 2) {
        return errors::InvalidArgument(name, "_tensor must be rank 2 but is rank ", t->dims(), ".");
      }
    }
    const std::pair<const char*, const Tensor*> vectors[] = {
        {"wci", in.wci}, {"wcf", in.wcf}, {"wco", in.wco}, {"b", in.b}};
    for (const auto& [name, t] : vectors) {
      if (t->dims() != 1) {
        return errors::InvalidArgument(name, "_tensor must be rank 1 but is rank ", t->dims(), ".");
      }
    }
    return absl::OkStatus();
  }

  static absl::Status CheckSizes(const LstmInputs& in, const LstmCellConfig& config) {
    const int64_t batch = config.batch_size;
    const int64_t cell = config.cell_size;
    const int64_t rows = WrappingAdd(config.input_size, cell);
    const int64_t gates = WrappingMul(cell, int64_t{4});
    if (in.cs_prev->dim_size(0) != batch) {
      return errors::InvalidArgument("cs_prev.dims(0) != batch_size: ", in.cs_prev->dim_size(0),
                                     " vs. ", batch);
    }
    if (in.h_prev->dim_size(0) != batch) {
      return errors::InvalidArgument("h_prev.dims(0) != batch_size: ", in.h_prev->dim_size(0),
                                     " vs. ", batch);
    }
    if (in.h_prev->dim_size(1) != cell) {
      return errors::InvalidArgument("h_prev.dims(1) != cell_size: ", in.h_prev->dim_size(1),
                                     " vs. ", cell);
    }
    if (in.w->dim_size(0) != rows) {
      return errors::InvalidArgument("w.dim_size(0) != input_size + cell_size: ", in.w->dim_size(0),
                                     " vs. ", rows);
    }
    if (in.w->dim_size(1) != gates) {
      return errors::InvalidArgument("w.dim_size(1) != cell_size * 4: ", in.w->dim_size(1), " vs. ",
                                     gates);
    }
    if (in.b->dim_size(0) != gates) {
      return errors::InvalidArgument("b.dim_size(0) != cell_size * 4: ", in.b->dim_size(0), " vs. ",
                                     gates);
    }
    if (config.use_peephole) RETURN_IF_ERROR(CheckPeepholeSizes(in, cell));
    if (batch == 0 || cell == 0) {
      return errors::InvalidArgument("cs_prev_tensor is empty, has shape: (", batch, ",", cell,
                                     ").");
    }
    return absl::OkStatus();
  }

  LstmCellConfig config_;
};

template <typename T, GateLayout kLayout>
class BlockLSTMOp : public OpKernel {
 public:
  explicit BlockLSTMOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float forget_bias = 0;  // BlockLSTMV2 has none
    if (ctx->HasAttr("forget_bias")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("forget_bias", &forget_bias));
    }
    float cell_clip = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("cell_clip", &cell_clip));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_peephole", &config_.use_peephole));
    config_.forget_bias = static_cast<float>(static_cast<T>(forget_bias));
    config_.cell_clip = static_cast<float>(static_cast<T>(cell_clip));
    config_.layout = kLayout;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& seq_len_max_tensor = ctx->input(0);
    OP_REQUIRES(ctx, seq_len_max_tensor.dims() == 0,
                errors::InvalidArgument("`seq_len_max_tensor` must be rank 0 but is rank ",
                                        seq_len_max_tensor.dims()));
    const LstmInputs in = InputsFrom(ctx, 1);
    LstmCellConfig config = config_;
    int64_t time = 0;
    OP_REQUIRES_OK(ctx, CheckShapes(in, &config, &time));
    const int64_t seq_len_max = seq_len_max_tensor.scalar<int64_t>()();
    OP_REQUIRES(ctx, seq_len_max >= 0 && seq_len_max <= time,
                errors::InvalidArgument("seq_len_max must be between 0 and ", time, " but is ",
                                        seq_len_max));

    // The product of x's time and batch with cs_prev's cells may overflow when x is empty.
    TensorShape shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape({time, config.batch_size, config.cell_size}, &shape));
    T* outputs[7];
    for (int k = 0; k < 7; ++k) {
      Tensor* out = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(k, shape, &out));
      outputs[k] = out->flat<T>().data();
    }
    FloatWeights<T> weights;
    OP_REQUIRES_OK(ctx, weights.Init(ctx, in, config.use_peephole));
    LstmWorkspace work;
    OP_REQUIRES_OK(ctx, work.Allocate(ctx, config));

    const int64_t x_step = config.batch_size * config.input_size;
    const int64_t out_step = config.batch_size * config.cell_size;
    const T* x = in.x->flat<T>().data();
    for (int64_t t = 0; t < seq_len_max; ++t) {
      LstmStep<T> step;
      step.x = x + t * x_step;
      step.cs_prev = t == 0 ? in.cs_prev->flat<T>().data() : outputs[1] + (t - 1) * out_step;
      step.h_prev = t == 0 ? in.h_prev->flat<T>().data() : outputs[6] + (t - 1) * out_step;
      T** step_outputs[] = {&step.i, &step.cs, &step.f, &step.o, &step.ci, &step.co, &step.h};
      for (int k = 0; k < 7; ++k) *step_outputs[k] = outputs[k] + t * out_step;
      rnn::LstmCellForward<T>(config, weights.weights(), step, &work);
    }
    const int64_t rest = (time - seq_len_max) * out_step;
    for (int k = 0; k < 7; ++k) {
      std::fill_n(outputs[k] + seq_len_max * out_step, rest, T(0));
    }
  }

 private:
  // TensorFlow's checks, in its order.
  static absl::Status CheckShapes(const LstmInputs& in, LstmCellConfig* config, int64_t* time) {
    if (in.x->dims() != 3) return errors::InvalidArgument("x must be 3D");
    *time = in.x->dim_size(0);
    const int64_t batch = in.x->dim_size(1);
    config->batch_size = batch;
    config->input_size = in.x->dim_size(2);
    if (in.cs_prev->dims() != 2) return errors::InvalidArgument("cs_prev must be 2D");
    if (in.cs_prev->dim_size(0) != batch) {
      return errors::InvalidArgument("cs_prev.dims(0) != batch_size: ", in.cs_prev->dim_size(0),
                                     " vs. ", batch);
    }
    const int64_t cell = in.cs_prev->dim_size(1);
    config->cell_size = cell;
    if (in.h_prev->dims() != 2) return errors::InvalidArgument("h_prev must be 2D");
    if (in.h_prev->dim_size(0) != batch) {
      return errors::InvalidArgument("h_prev.dims(0) != batch_size: ", in.h_prev->dim_size(0),
                                     " vs. ", batch);
    }
    if (in.h_prev->dim_size(1) != cell) {
      return errors::InvalidArgument("h_prev.dims(1) != cell_size: ", in.h_prev->dim_size(1),
                                     " vs. ", cell);
    }
    const int64_t rows = WrappingAdd(config->input_size, cell);
    const int64_t gates = WrappingMul(cell, int64_t{4});
    if (in.w->dims() != 2) return errors::InvalidArgument("w must be 2D");
    if (in.w->dim_size(0) != rows) {
      return errors::InvalidArgument("w.dim_size(0) != input_size + cell_size: ", in.w->dim_size(0),
                                     " vs. ", rows);
    }
    if (in.w->dim_size(1) != gates) {
      return errors::InvalidArgument("w.dim_size(1) != cell_size * 4: ", in.w->dim_size(1), " vs. ",
                                     gates);
    }
    const std::pair<const char*, const Tensor*> vectors[] = {
        {"wci", in.wci}, {"wcf", in.wcf}, {"wco", in.wco}};
    for (const auto& [name, t] : vectors) {
      if (t->dims() != 1) return errors::InvalidArgument(name, " must be 1D");
      if (t->dim_size(0) != cell) {
        return errors::InvalidArgument(name, ".dim_size(0) != cell_size: ", t->dim_size(0), " vs. ",
                                       cell);
      }
    }
    if (in.b->dims() != 1) return errors::InvalidArgument("b must be 1D");
    if (in.b->dim_size(0) != gates) {
      return errors::InvalidArgument("b.dim_size(0) != cell_size * 4: ", in.b->dim_size(0), " vs. ",
                                     gates);
    }
    return absl::OkStatus();
  }

  LstmCellConfig config_;
};

#define REGISTER_CPU(T)                                                                    \
  REGISTER_KERNEL_BUILDER(Name("LSTMBlockCell").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          LSTMBlockCellOp<T>);                                             \
  REGISTER_KERNEL_BUILDER(Name("BlockLSTM").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
                          BlockLSTMOp<T, GateLayout::kICFO>);                              \
  REGISTER_KERNEL_BUILDER(Name("BlockLSTMV2").Device(DEVICE_CPU).TypeConstraint<T>("T"),   \
                          BlockLSTMOp<T, GateLayout::kIFCO>);
SLUICE_CALL_half(REGISTER_CPU) SLUICE_CALL_float(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
