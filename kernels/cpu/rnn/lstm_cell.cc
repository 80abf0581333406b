// One step of the fused LSTM cell (see lstm_cell.h): an Eigen GEMM for the gates, then the
// gate arithmetic on Eigen arrays over the whole batch.
#include "kernels/cpu/rnn/lstm_cell.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "Eigen/Core"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace rnn {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;
template <typename T>
using RowMatrixOf = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

float Sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// TensorFlow's clip keeps NaN: max(NaN, -c) and min(NaN, c) are NaN as std's write them.
float Clip(float v, float c) { return std::min(std::max(v, -c), c); }

}  // namespace

absl::Status LstmWorkspace::Allocate(OpKernelContext* ctx, const LstmCellConfig& config) {
  const int64_t batch = config.batch_size;
  const int64_t cell = config.cell_size;
  RETURN_IF_ERROR(xh_.Allocate(ctx, batch * (config.input_size + cell)));
  RETURN_IF_ERROR(gates_.Allocate(ctx, batch * 4 * cell));
  RETURN_IF_ERROR(cs_prev_.Allocate(ctx, batch * cell));
  return cs_.Allocate(ctx, batch * cell);
}

template <typename T>
absl::Status FloatElements(OpKernelContext* ctx, const Tensor& t, ScratchArray<float>* copy,
                           const float** out) {
  if constexpr (std::is_same_v<T, float>) {
    *out = t.flat<float>().data();
  } else {
    const auto in = t.flat<T>();
    RETURN_IF_ERROR(copy->Allocate(ctx, in.size()));
    for (int64_t k = 0; k < in.size(); ++k) copy->data()[k] = static_cast<float>(in(k));
    *out = copy->data();
  }
  return absl::OkStatus();
}

template <typename T>
void LstmCellForward(const LstmCellConfig& config, const LstmWeights& weights,
                     const LstmStep<T>& step, LstmWorkspace* work) {
  const int64_t batch = config.batch_size;
  const int64_t input = config.input_size;
  const int64_t cell = config.cell_size;
  const int64_t c_block = config.layout == GateLayout::kICFO ? cell : 2 * cell;
  const int64_t f_block = config.layout == GateLayout::kICFO ? 2 * cell : cell;
  const int64_t o_block = 3 * cell;

  Eigen::Map<RowMatrix> xh(work->xh(), batch, input + cell);
  xh.leftCols(input) =
      Eigen::Map<const RowMatrixOf<T>>(step.x, batch, input).template cast<float>();
  xh.rightCols(cell) =
      Eigen::Map<const RowMatrixOf<T>>(step.h_prev, batch, cell).template cast<float>();
  Eigen::Map<RowMatrix> cs_prev(work->cs_prev(), batch, cell);
  cs_prev = Eigen::Map<const RowMatrixOf<T>>(step.cs_prev, batch, cell).template cast<float>();

  Eigen::Map<RowMatrix> gates(work->gates(), batch, 4 * cell);
  gates.noalias() = xh * Eigen::Map<const RowMatrix>(weights.w, input + cell, 4 * cell);
  gates.rowwise() += Eigen::Map<const RowVector>(weights.b, 4 * cell);

  auto i = gates.middleCols(0, cell).array();
  auto ci = gates.middleCols(c_block, cell).array();
  auto f = gates.middleCols(f_block, cell).array();
  auto o = gates.middleCols(o_block, cell).array();
  const auto peephole = [&](const float* v) {
    return Eigen::Map<const RowVector>(v, cell).array();
  };
  if (config.use_peephole) {
    i += cs_prev.array().rowwise() * peephole(weights.wci);
    f += cs_prev.array().rowwise() * peephole(weights.wcf);
  }
  i = i.unaryExpr(&Sigmoid);
  ci = ci.tanh();
  f = (f + config.forget_bias).unaryExpr(&Sigmoid);

  Eigen::Map<RowMatrix> cs(work->cs(), batch, cell);
  cs.array() = i * ci + f * cs_prev.array();
  if (config.cell_clip > 0.0f) {
    const float c = config.cell_clip;
    cs = cs.unaryExpr([c](float v) { return Clip(v, c); });
  }
  if (config.use_peephole) o += cs.array().rowwise() * peephole(weights.wco);
  o = o.unaryExpr(&Sigmoid);

  const auto out = [&](T* p) { return Eigen::Map<RowMatrixOf<T>>(p, batch, cell); };
  out(step.i) = i.matrix().template cast<T>();
  out(step.ci) = ci.matrix().template cast<T>();
  out(step.f) = f.matrix().template cast<T>();
  out(step.o) = o.matrix().template cast<T>();
  out(step.cs) = cs.template cast<T>();
  out(step.co) = cs.array().tanh().matrix().template cast<T>();
  out(step.h) = (o * cs.array().tanh()).matrix().template cast<T>();
}

#define SLUICE_INSTANTIATE_LSTM_CELL(T)                                                           \
  template absl::Status FloatElements<T>(OpKernelContext*, const Tensor&, ScratchArray<float>*,   \
                                         const float**);                                          \
  template void LstmCellForward<T>(const LstmCellConfig&, const LstmWeights&, const LstmStep<T>&, \
                                   LstmWorkspace*);
SLUICE_INSTANTIATE_LSTM_CELL(float)
SLUICE_INSTANTIATE_LSTM_CELL(half)
#undef SLUICE_INSTANTIATE_LSTM_CELL

}  // namespace rnn
}  // namespace sluice
