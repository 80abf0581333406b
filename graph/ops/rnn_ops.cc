// TensorFlow's fused recurrent-cell ops (tf.contrib.rnn's LSTMBlockCell, LSTMBlockFusedCell and
// GRUBlockCell, which old frozen graphs such as DeepSpeech's still hold): one LSTM step
// (LSTMBlockCell), a whole time-major LSTM sequence (BlockLSTM, and BlockLSTMV2 with Keras's
// gate order and no forget bias), and one GRU step (GRUBlockCell), with their gradients. The
// kernels are in kernels/cpu/rnn/.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// All four outputs are [batch (x's dim 0), cell (h_prev's dim 1)].
absl::Status GruBlockCellShape(InferenceContext* c) {
  ShapeHandle x;
  ShapeHandle h_prev;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &x));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &h_prev));
  const ShapeHandle out = c->Matrix(c->Dim(x, 0), c->Dim(h_prev, 1));
  for (int i = 0; i < 4; ++i) c->set_output(i, out);
  return absl::OkStatus();
}

// All seven outputs are [batch (x's dim 0), cell (cs_prev's dim 1)].
absl::Status LstmBlockCellShape(InferenceContext* c) {
  ShapeHandle x;
  ShapeHandle cs_prev;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &x));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &cs_prev));
  const ShapeHandle out = c->Matrix(c->Dim(x, 0), c->Dim(cs_prev, 1));
  for (int i = 0; i < 7; ++i) c->set_output(i, out);
  return absl::OkStatus();
}

// All seven outputs are [time, batch] of x with the cell size a quarter of b's length, which
// must divide by 4.
absl::Status BlockLstmShape(InferenceContext* c) {
  ShapeHandle x;
  ShapeHandle b;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &x));
  RETURN_IF_ERROR(c->WithRank(c->input(c->num_inputs() - 1), 1, &b));
  DimensionHandle cell_size;
  RETURN_IF_ERROR(c->Divide(c->Dim(b, 0), 4, /*evenly_divisible=*/true, &cell_size));
  const ShapeHandle out = c->MakeShape({c->Dim(x, 0), c->Dim(x, 1), cell_size});
  for (int i = 0; i < 7; ++i) c->set_output(i, out);
  return absl::OkStatus();
}

// d_x has x's shape; d_h_prev and d_c_bar are [batch, cell]; d_r_bar_u_bar is [batch, w_ru's
// dim 1].
absl::Status GruBlockCellGradShape(InferenceContext* c) {
  ShapeHandle x;
  ShapeHandle h_prev;
  ShapeHandle w_ru;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &x));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &h_prev));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &w_ru));
  const DimensionHandle batch_size = c->Dim(x, 0);
  const ShapeHandle batch_cell = c->Matrix(batch_size, c->Dim(h_prev, 1));
  c->set_output(0, x);
  c->set_output(1, batch_cell);
  c->set_output(2, batch_cell);
  c->set_output(3, c->Matrix(batch_size, c->Dim(w_ru, 1)));
  return absl::OkStatus();
}

// cs_prev_grad is [batch, cell], dicfo [batch, 4 * cell] and the peephole gradients [cell].
absl::Status LstmBlockCellGradShape(InferenceContext* c) {
  ShapeHandle x;
  ShapeHandle cs_prev;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &x));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &cs_prev));
  const DimensionHandle batch_size = c->Dim(x, 0);
  const DimensionHandle cell_size = c->Dim(cs_prev, 1);
  DimensionHandle gates;
  RETURN_IF_ERROR(c->Multiply(cell_size, 4, &gates));
  c->set_output(0, c->Matrix(batch_size, cell_size));
  c->set_output(1, c->Matrix(batch_size, gates));
  for (int i = 2; i < 5; ++i) c->set_output(i, c->Vector(cell_size));
  return absl::OkStatus();
}

// Each gradient has its input's shape, after the inputs' ranks are checked.
absl::Status BlockLstmGradShape(InferenceContext* c) {
  const int ranks[] = {3, 2, 2, 2, 1, 1, 1, 1};
  ShapeHandle shapes[8];
  for (int k = 0; k < 8; ++k) RETURN_IF_ERROR(c->WithRank(c->input(k + 1), ranks[k], &shapes[k]));
  for (int k = 0; k < 8; ++k) c->set_output(k, shapes[k]);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("GRUBlockCell")
    .Attr("T: {float}")
    .Input("x: T")
    .Input("h_prev: T")
    .Input("w_ru: T")
    .Input("w_c: T")
    .Input("b_ru: T")
    .Input("b_c: T")
    .Output("r: T")
    .Output("u: T")
    .Output("c: T")
    .Output("h: T")
    .SetShapeFn(GruBlockCellShape);

REGISTER_OP("LSTMBlockCell")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Output("i: T")
    .Output("cs: T")
    .Output("f: T")
    .Output("o: T")
    .Output("ci: T")
    .Output("co: T")
    .Output("h: T")
    .Attr("forget_bias: float = 1.0")
    .Attr("cell_clip: float = 3.0")
    .Attr("use_peephole: bool = false")
    .Attr("T: {half, float}")
    .SetShapeFn(LstmBlockCellShape);

REGISTER_OP("BlockLSTM")
    .Input("seq_len_max: int64")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Output("i: T")
    .Output("cs: T")
    .Output("f: T")
    .Output("o: T")
    .Output("ci: T")
    .Output("co: T")
    .Output("h: T")
    .Attr("forget_bias: float = 1.0")
    .Attr("cell_clip: float = 3.0")
    .Attr("use_peephole: bool = false")
    .Attr("T: {half, float}")
    .SetShapeFn(BlockLstmShape);

REGISTER_OP("BlockLSTMV2")
    .Input("seq_len_max: int64")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Output("i: T")
    .Output("cs: T")
    .Output("f: T")
    .Output("o: T")
    .Output("ci: T")
    .Output("co: T")
    .Output("h: T")
    .Attr("cell_clip: float = 0.0")
    .Attr("use_peephole: bool = false")
    .Attr("T: {half, float}")
    .SetShapeFn(BlockLstmShape);

REGISTER_OP("GRUBlockCellGrad")
    .Attr("T: {float}")
    .Input("x: T")
    .Input("h_prev: T")
    .Input("w_ru: T")
    .Input("w_c: T")
    .Input("b_ru: T")
    .Input("b_c: T")
    .Input("r: T")
    .Input("u: T")
    .Input("c: T")
    .Input("d_h: T")
    .Output("d_x: T")
    .Output("d_h_prev: T")
    .Output("d_c_bar: T")
    .Output("d_r_bar_u_bar: T")
    .SetShapeFn(GruBlockCellGradShape);

REGISTER_OP("LSTMBlockCellGrad")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Input("i: T")
    .Input("cs: T")
    .Input("f: T")
    .Input("o: T")
    .Input("ci: T")
    .Input("co: T")
    .Input("cs_grad: T")
    .Input("h_grad: T")
    .Output("cs_prev_grad: T")
    .Output("dicfo: T")
    .Output("wci_grad: T")
    .Output("wcf_grad: T")
    .Output("wco_grad: T")
    .Attr("use_peephole: bool")
    .Attr("T: {half, float}")
    .SetShapeFn(LstmBlockCellGradShape);

REGISTER_OP("BlockLSTMGrad")
    .Input("seq_len_max: int64")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Input("i: T")
    .Input("cs: T")
    .Input("f: T")
    .Input("o: T")
    .Input("ci: T")
    .Input("co: T")
    .Input("h: T")
    .Input("cs_grad: T")
    .Input("h_grad: T")
    .Output("x_grad: T")
    .Output("cs_prev_grad: T")
    .Output("h_prev_grad: T")
    .Output("w_grad: T")
    .Output("wci_grad: T")
    .Output("wcf_grad: T")
    .Output("wco_grad: T")
    .Output("b_grad: T")
    .Attr("use_peephole: bool")
    .Attr("T: {half, float}")
    .SetShapeFn(BlockLstmGradShape);

REGISTER_OP("BlockLSTMGradV2")
    .Input("seq_len_max: int64")
    .Input("x: T")
    .Input("cs_prev: T")
    .Input("h_prev: T")
    .Input("w: T")
    .Input("wci: T")
    .Input("wcf: T")
    .Input("wco: T")
    .Input("b: T")
    .Input("i: T")
    .Input("cs: T")
    .Input("f: T")
    .Input("o: T")
    .Input("ci: T")
    .Input("co: T")
    .Input("h: T")
    .Input("cs_grad: T")
    .Input("h_grad: T")
    .Output("x_grad: T")
    .Output("cs_prev_grad: T")
    .Output("h_prev_grad: T")
    .Output("w_grad: T")
    .Output("wci_grad: T")
    .Output("wcf_grad: T")
    .Output("wco_grad: T")
    .Output("b_grad: T")
    .Attr("use_peephole: bool")
    .Attr("T: {half, float}")
    .SetShapeFn(BlockLstmGradShape);

}  // namespace sluice
