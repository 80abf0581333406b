// One step of TensorFlow's fused LSTM cell (LSTMBlockCell, and each time step of BlockLSTM and
// BlockLSTMV2), shared by those kernels.
//
// With xh = [x, h_prev] and gates = xh * w + b ([batch, 4 * cell], four blocks of `cell`
// columns whose order the layout gives: i, ci, f, o for LSTMBlockCell and BlockLSTM, i, f, ci,
// o for BlockLSTMV2):
//   i  = sigmoid(gates_i + cs_prev * wci)              (peephole terms only with use_peephole)
//   ci = tanh(gates_ci)
//   f  = sigmoid(gates_f + forget_bias + cs_prev * wcf)
//   cs = clip(i * ci + f * cs_prev, cell_clip)         (clipped only when cell_clip > 0)
//   co = tanh(cs)
//   o  = sigmoid(gates_o + cs * wco)
//   h  = o * co
// The arithmetic is in float for half too (TensorFlow rounds each half intermediate, so half
// results differ from it in the last bits); the matrix product is Eigen's.
#ifndef SLUICE_KERNELS_CPU_RNN_LSTM_CELL_H_
#define SLUICE_KERNELS_CPU_RNN_LSTM_CELL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace rnn {

// Where the cell input and forget gate blocks sit among the four (i is first and o last in
// both).
enum class GateLayout { kICFO, kIFCO };

struct LstmCellConfig {
  int64_t batch_size = 0;
  int64_t input_size = 0;
  int64_t cell_size = 0;
  GateLayout layout = GateLayout::kICFO;
  // Already rounded to T, as TensorFlow adds and compares them in T.
  float forget_bias = 0;
  float cell_clip = 0;
  bool use_peephole = false;
};

// The step's weights in float: w [input + cell, 4 * cell] row-major, b [4 * cell], and the
// peephole vectors [cell] (read only with use_peephole).
struct LstmWeights {
  const float* w = nullptr;
  const float* b = nullptr;
  const float* wci = nullptr;
  const float* wcf = nullptr;
  const float* wco = nullptr;
};

// A step's inputs and its seven [batch, cell] outputs, in T.
template <typename T>
struct LstmStep {
  const T* x = nullptr;  // [batch, input]
  const T* cs_prev = nullptr;
  const T* h_prev = nullptr;
  T* i = nullptr;
  T* cs = nullptr;
  T* f = nullptr;
  T* o = nullptr;
  T* ci = nullptr;
  T* co = nullptr;
  T* h = nullptr;
};

// The float working arrays of a step, allocated once per kernel call and reused by every step.
class LstmWorkspace {
 public:
  absl::Status Allocate(OpKernelContext* ctx, const LstmCellConfig& config);

  float* xh() { return xh_.data(); }
  float* gates() { return gates_.data(); }
  float* cs_prev() { return cs_prev_.data(); }
  float* cs() { return cs_.data(); }

 private:
  ScratchArray<float> xh_;       // [batch, input + cell]
  ScratchArray<float> gates_;    // [batch, 4 * cell]
  ScratchArray<float> cs_prev_;  // [batch, cell]
  ScratchArray<float> cs_;       // [batch, cell]
};

// A tensor's elements as float: its own buffer for float, a converted copy in `copy` for half.
template <typename T>
absl::Status FloatElements(OpKernelContext* ctx, const Tensor& t, ScratchArray<float>* copy,
                           const float** out);

// Runs one step. REQUIRES: the config's sizes match every pointer's array.
template <typename T>
void LstmCellForward(const LstmCellConfig& config, const LstmWeights& weights,
                     const LstmStep<T>& step, LstmWorkspace* work);

}  // namespace rnn
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RNN_LSTM_CELL_H_
