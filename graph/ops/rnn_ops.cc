// TensorFlow's fused recurrent-cell ops (tf.contrib.rnn's LSTMBlockCell, LSTMBlockFusedCell and
// GRUBlockCell, which old frozen graphs such as DeepSpeech's still hold): one LSTM step
// (LSTMBlockCell), a whole time-major LSTM sequence (BlockLSTM, and BlockLSTMV2 with Keras's
// gate order and no forget bias), and one GRU step (GRUBlockCell). The kernels are in
// kernels/cpu/rnn/.
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

}  // namespace sluice
