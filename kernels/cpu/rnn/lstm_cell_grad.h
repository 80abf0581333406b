// The backward pass of one step of TensorFlow's fused LSTM cell (lstm_cell.h), shared by
// LSTMBlockCellGrad and each time step of BlockLSTMGrad / BlockLSTMGradV2. From the forward
// step's activations and the gradients dcs_in (of cs) and dh (of h):
//   do  = o (1 - o) dh co
//   dcs = (1 - co^2) dh o + dcs_in (+ do wco with peepholes)
//   dci = (1 - ci^2) dcs i,   df = f (1 - f) dcs cs_prev,   di = i (1 - i) dcs ci
//   dgates = the four blocks di, dci, df, do in the layout's order ([batch, 4 * cell])
//   cs_prev_grad = dcs f (+ di wci + df wcf with peepholes)
//   wci_grad += sum over the batch of di cs_prev, wcf_grad of df cs_prev, wco_grad of do cs
// The cell clip is not differentiated (TensorFlow's gradient ignores it too). The arithmetic is
// in float, as the forward step's.
#ifndef SLUICE_KERNELS_CPU_RNN_LSTM_CELL_GRAD_H_
#define SLUICE_KERNELS_CPU_RNN_LSTM_CELL_GRAD_H_

#include "kernels/cpu/rnn/lstm_cell.h"

namespace sluice {
namespace rnn {

// A step's forward values, each [batch, cell], in T.
template <typename T>
struct LstmActivations {
  const T* cs_prev = nullptr;
  const T* i = nullptr;
  const T* cs = nullptr;
  const T* f = nullptr;
  const T* o = nullptr;
  const T* ci = nullptr;
  const T* co = nullptr;
};

// The step's float gradients: dcs_in and dh in; dgates and cs_prev_grad out (overwritten);
// the peephole gradients [cell] accumulated, and only with use_peephole (weights' wci, wcf and
// wco are read only then).
struct LstmCellGrads {
  const float* cs_grad = nullptr;
  const float* h_grad = nullptr;
  float* dgates = nullptr;
  float* cs_prev_grad = nullptr;
  float* wci_grad = nullptr;
  float* wcf_grad = nullptr;
  float* wco_grad = nullptr;
};

// REQUIRES: the config's sizes match every pointer's array.
template <typename T>
void LstmCellBackward(const LstmCellConfig& config, const LstmWeights& weights,
                      const LstmActivations<T>& act, const LstmCellGrads& grads);

}  // namespace rnn
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RNN_LSTM_CELL_GRAD_H_
