// The backward pass of one fused LSTM step (see lstm_cell_grad.h), on Eigen arrays over the
// whole batch.
#include "kernels/cpu/rnn/lstm_cell_grad.h"

#include <cstdint>

#include "Eigen/Core"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace rnn {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;
template <typename T>
using RowMatrixOf = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

template <typename T>
void LstmCellBackward(const LstmCellConfig& config, const LstmWeights& weights,
                      const LstmActivations<T>& act, const LstmCellGrads& grads) {
  const int64_t batch = config.batch_size;
  const int64_t cell = config.cell_size;
  const int64_t c_block = config.layout == GateLayout::kICFO ? cell : 2 * cell;
  const int64_t f_block = config.layout == GateLayout::kICFO ? 2 * cell : cell;
  const auto load = [&](const T* p) {
    return Eigen::Map<const RowMatrixOf<T>>(p, batch, cell).template cast<float>().array();
  };
  const auto cs_prev = load(act.cs_prev);
  const auto i = load(act.i);
  const auto cs = load(act.cs);
  const auto f = load(act.f);
  const auto o = load(act.o);
  const auto ci = load(act.ci);
  const auto co = load(act.co);
  const auto dh = Eigen::Map<const RowMatrix>(grads.h_grad, batch, cell).array();
  const auto peephole = [&](const float* v) {
    return Eigen::Map<const RowVector>(v, cell).array();
  };

  Eigen::Map<RowMatrix> dgates(grads.dgates, batch, 4 * cell);
  auto di = dgates.middleCols(0, cell).array();
  auto dci = dgates.middleCols(c_block, cell).array();
  auto df = dgates.middleCols(f_block, cell).array();
  auto do_ = dgates.middleCols(3 * cell, cell).array();
  do_ = o * (1.0f - o) * dh * co;
  // dcs is built in cs_prev_grad's buffer, then replaced by cs_prev_grad.
  auto dcs = Eigen::Map<RowMatrix>(grads.cs_prev_grad, batch, cell).array();
  dcs = (1.0f - co * co) * dh * o + Eigen::Map<const RowMatrix>(grads.cs_grad, batch, cell).array();
  if (config.use_peephole) dcs += do_.rowwise() * peephole(weights.wco);
  dci = (1.0f - ci * ci) * dcs * i;
  df = f * (1.0f - f) * dcs * cs_prev;
  di = i * (1.0f - i) * dcs * ci;
  dcs *= f;
  if (config.use_peephole) {
    dcs += di.rowwise() * peephole(weights.wci) + df.rowwise() * peephole(weights.wcf);
    const auto accumulate = [&](float* out, const auto& terms) {
      Eigen::Map<RowVector>(out, cell).array() += terms.colwise().sum();
    };
    accumulate(grads.wci_grad, di * cs_prev);
    accumulate(grads.wcf_grad, df * cs_prev);
    accumulate(grads.wco_grad, do_ * cs);
  }
}

template void LstmCellBackward<float>(const LstmCellConfig&, const LstmWeights&,
                                      const LstmActivations<float>&, const LstmCellGrads&);
template void LstmCellBackward<half>(const LstmCellConfig&, const LstmWeights&,
                                     const LstmActivations<half>&, const LstmCellGrads&);

}  // namespace rnn
}  // namespace sluice
