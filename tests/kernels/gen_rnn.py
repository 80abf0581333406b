"""Writes fixtures/rnn.pbtxt: the fused recurrent cells LSTMBlockCell, BlockLSTM, BlockLSTMV2
and GRUBlockCell and their gradients (LSTMBlockCellGrad, BlockLSTMGrad, BlockLSTMGradV2,
GRUBlockCellGrad) in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_rnn.py (needs TensorFlow 2.x and numpy).
Random inputs and weights with fixed seeds, multiples of 1/64 (exact in half), over several
(batch, input, cell) sizes and for BlockLSTM several sequence lengths; half and float for the
LSTM ops, float for GRUBlockCell (the dtypes TensorFlow's CPU kernels take); use_peephole on
and off, cell_clip off (0), small (0.25, which clips) and the default, forget_bias 0, 1 and
-0.5, seq_len_max equal to the time dimension, shorter, and 0; and every error TensorFlow
reports (error_substr checked here against TensorFlow's message). The gradients take the
activations TensorFlow's forward op gives for random inputs, and random incoming gradients.

Tolerances: float within 1e-6 absolute + 5e-6 relative (Sluice's sigmoid, tanh and GEMM round
differently from Eigen's Tensor contraction and activation functors: a few ulps, not
compounding over the short sequences here; all cases pass at half these). Half within 5e-3
absolute + 5e-3 relative (five ulps of 1; the largest difference seen is between 2e-3 and
4e-3): TensorFlow rounds every half intermediate (gates, bias sum, cs) to half; Sluice
computes a step in float and rounds each output once (both feed half cs and h to the next).

TensorFlow's BlockLSTM leaves the rows of i, f, o, ci and co past seq_len_max uninitialised
(only cs and h are zeroed); those rows are recorded as zeros, which Sluice writes (the
recorded cs and h rows are TensorFlow's own zeros, checked here).

Left out, as unit tests in kernels/cpu/rnn/rnn_ops_test.cc: LSTMBlockCell inputs of the wrong
rank (TensorFlow reads their dims before it checks the ranks, so what it reports depends on
memory past the shape), short peephole vectors with use_peephole (TensorFlow reads past
them; Sluice reports BlockLSTM's message), and a BlockLSTM seq_len_max below 0 or past the
time dimension (TensorFlow 2.21 aborts slicing x; Sluice reports "seq_len_max must be
between 0 and T but is N", the message of TensorFlow's later sources), the same for
BlockLSTMGrad, and the sizes TensorFlow's gradients read unchecked. Also left out: BlockLSTMGrad
with an empty batch and GRUBlockCellGrad with no cells, where TensorFlow's Eigen contraction
over an empty dimension returns garbage (w_grad and d_x; Sluice's zeros are unit-tested).
"""
import os
import sys

import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.framework import tensor_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote, _tensor_text  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("rnn")
f16, f32, i64 = np.float16, np.float32, np.int64
DTYPES = [("f32", f32), ("f16", f16)]
GRAD_F32_ATOL, GRAD_F32_RTOL, GRAD_F16 = 1e-6, 5e-6, 5e-3


def tol(dt):
  if dt == f16:
    return dict(atol=5e-3, rtol=5e-3)
  return dict(atol=1e-6, rtol=5e-6)


def rand(shape, dt, scale=1.0):
  return (np.round(rng.normal(size=shape) * scale * 64) / 64).astype(dt)


def expect_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0 and _quote(substr)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access


def zero_rows_past(seq_len_max, dtype):
  """Zeros the rows past seq_len_max of the last case's i, f, o, ci and co (outputs 0, 2-5)."""
  lines = w._cases[-1].split("\n")  # pylint: disable=protected-access
  index = 0
  for k, line in enumerate(lines):
    if not line.startswith("  outputs { "):
      continue
    proto = tensor_pb2.TensorProto()
    text_format.Parse(line[len("  outputs { "):-len(" }")], proto)
    value = tf.make_ndarray(proto).copy()
    if index in (1, 6):  # TensorFlow's own zeros
      assert not value[seq_len_max:].any(), "cs/h past seq_len_max are not zero"
    else:
      value[seq_len_max:] = 0
      lines[k] = "  outputs { " + _tensor_text(value, dtype) + " }"
    index += 1
  w._cases[-1] = "\n".join(lines)  # pylint: disable=protected-access


def lstm_weights(inp, cell, dt):
  return [rand((inp + cell, 4 * cell), dt, 0.5), rand(cell, dt, 0.5), rand(cell, dt, 0.5),
          rand(cell, dt, 0.5), rand(4 * cell, dt, 0.5)]


# ---- LSTMBlockCell --------------------------------------------------------------------------
def cell_op(forget_bias=None, cell_clip=None, peephole=None):
  def build(x, cs_prev, h_prev, wt, wci, wcf, wco, b):
    kw = {}
    if forget_bias is not None:
      kw["forget_bias"] = forget_bias
    if cell_clip is not None:
      kw["cell_clip"] = cell_clip
    if peephole is not None:
      kw["use_peephole"] = peephole
    return R.LSTMBlockCell(x=x, cs_prev=cs_prev, h_prev=h_prev, w=wt, wci=wci, wcf=wcf,
                           wco=wco, b=b, **kw)
  return build


def cell_inputs(batch, inp, cell, dt, scale=1.0):
  return ([rand((batch, inp), dt), rand((batch, cell), dt, 2.0 * scale),
           rand((batch, cell), dt, 0.5)] + lstm_weights(inp, cell, dt))


for dn, dt in DTYPES:
  for (batch, inp, cell) in [(1, 1, 1), (2, 3, 4), (3, 5, 2), (5, 8, 16)]:
    for peephole in [False, True]:
      for clip in [0.0, 0.25, 3.0]:
        for fb in [1.0, 0.0, -0.5] if clip == 3.0 else [1.0]:
          name = "cell_%s_%dx%dx%d_peep%d_clip%g_fb%g" % (dn, batch, inp, cell, peephole, clip,
                                                         fb)
          w.add(name, cell_op(fb, clip, peephole), cell_inputs(batch, inp, cell, dt), **tol(dt))
  w.add("cell_%s_default_attrs" % dn, cell_op(), cell_inputs(3, 4, 5, dt, 3.0), **tol(dt))
  w.add("cell_%s_no_input" % dn, cell_op(), cell_inputs(2, 0, 3, dt), **tol(dt))

X = cell_inputs(2, 3, 4, f32)


def cell_bad(k, value):
  return X[:k] + [value] + X[k + 1:]


expect_error("cell_cs_prev_batch", cell_op(), cell_bad(1, rand((3, 4), f32)),
             "cs_prev.dims(0) != batch_size: 3 vs. 2")
expect_error("cell_h_prev_batch", cell_op(), cell_bad(2, rand((3, 4), f32)),
             "h_prev.dims(0) != batch_size: 3 vs. 2")
expect_error("cell_h_prev_cells", cell_op(), cell_bad(2, rand((2, 5), f32)),
             "h_prev.dims(1) != cell_size: 5 vs. 4")
expect_error("cell_w_rows", cell_op(), cell_bad(3, rand((8, 16), f32)),
             "w.dim_size(0) != input_size + cell_size: 8 vs. 7")
expect_error("cell_w_cols", cell_op(), cell_bad(3, rand((7, 15), f32)),
             "w.dim_size(1) != cell_size * 4: 15 vs. 16")
expect_error("cell_b_size", cell_op(), cell_bad(7, rand(12, f32)),
             "b.dim_size(0) != cell_size * 4: 12 vs. 16")
expect_error("cell_empty_batch", cell_op(),
             [rand((0, 3), f32), rand((0, 4), f32), rand((0, 4), f32)] + X[3:],
             "cs_prev_tensor is empty, has shape: (0,4).")
expect_error("cell_no_cells", cell_op(),
             [X[0], rand((2, 0), f32), rand((2, 0), f32), rand((3, 0), f32)] + X[4:7] +
             [rand(0, f32)], "cs_prev_tensor is empty, has shape: (2,0).")


# ---- BlockLSTM and BlockLSTMV2 --------------------------------------------------------------
def block_op(op, forget_bias=None, cell_clip=None, peephole=None):
  def build(seq_len_max, x, cs_prev, h_prev, wt, wci, wcf, wco, b):
    kw = {}
    if forget_bias is not None:
      kw["forget_bias"] = forget_bias
    if cell_clip is not None:
      kw["cell_clip"] = cell_clip
    if peephole is not None:
      kw["use_peephole"] = peephole
    return getattr(R, op)(seq_len_max=seq_len_max, x=x, cs_prev=cs_prev, h_prev=h_prev, w=wt,
                          wci=wci, wcf=wcf, wco=wco, b=b, **kw)
  return build


def block_inputs(seq_len_max, time, batch, inp, cell, dt):
  return ([np.array(seq_len_max, i64), rand((time, batch, inp), dt),
           rand((batch, cell), dt, 2.0), rand((batch, cell), dt, 0.5)] +
          lstm_weights(inp, cell, dt))


def add_block(name, build, inputs, dt):
  w.add(name, build, inputs, **tol(dt))
  seq_len_max, time = int(inputs[0]), inputs[1].shape[0]
  if seq_len_max < time and not name.endswith("_err"):
    zero_rows_past(seq_len_max, tf.as_dtype(dt))


for op in ["BlockLSTM", "BlockLSTMV2"]:
  for dn, dt in DTYPES:
    for (time, batch, inp, cell) in [(1, 1, 1, 1), (3, 2, 3, 4), (6, 3, 5, 2), (4, 4, 6, 8)]:
      for peephole in [False, True]:
        for clip in [0.0, 0.25, 3.0]:
          fbs = [None] if op == "BlockLSTMV2" else ([1.0, 0.0, -0.5] if clip == 3.0 else [1.0])
          for fb in fbs:
            for seq in sorted({time, max(time - 2, 0), 0}, reverse=True):
              if seq != time and (clip != 3.0 or fb not in (None, 1.0)):
                continue
              name = "%s_%s_%dx%dx%dx%d_peep%d_clip%g_fb%s_seq%d" % (
                  op, dn, time, batch, inp, cell, peephole, clip, fb, seq)
              add_block(name, block_op(op, fb, clip, peephole),
                        block_inputs(seq, time, batch, inp, cell, dt), dt)
    add_block("%s_%s_default_attrs" % (op, dn), block_op(op),
              block_inputs(5, 5, 2, 3, 4, dt), dt)
    add_block("%s_%s_no_time" % (op, dn), block_op(op), block_inputs(0, 0, 2, 3, 4, dt), dt)
    add_block("%s_%s_empty_batch" % (op, dn), block_op(op), block_inputs(3, 3, 0, 3, 4, dt), dt)

  B = block_inputs(2, 3, 2, 3, 4, f32)

  def block_bad(k, value):
    return B[:k] + [value] + B[k + 1:]

  build = block_op(op)
  expect_error(op + "_seq_len_max_vector", build, block_bad(0, np.array([2], i64)),
               "`seq_len_max_tensor` must be rank 0 but is rank 1")
  expect_error(op + "_x_rank", build, block_bad(1, rand((2, 3), f32)), "x must be 3D")
  expect_error(op + "_cs_prev_rank", build, block_bad(2, rand(4, f32)), "cs_prev must be 2D")
  expect_error(op + "_cs_prev_batch", build, block_bad(2, rand((3, 4), f32)),
               "cs_prev.dims(0) != batch_size: 3 vs. 2")
  expect_error(op + "_h_prev_rank", build, block_bad(3, rand((2, 4, 1), f32)),
               "h_prev must be 2D")
  expect_error(op + "_h_prev_batch", build, block_bad(3, rand((1, 4), f32)),
               "h_prev.dims(0) != batch_size: 1 vs. 2")
  expect_error(op + "_h_prev_cells", build, block_bad(3, rand((2, 3), f32)),
               "h_prev.dims(1) != cell_size: 3 vs. 4")
  expect_error(op + "_w_rank", build, block_bad(4, rand(7, f32)), "w must be 2D")
  expect_error(op + "_w_rows", build, block_bad(4, rand((6, 16), f32)),
               "w.dim_size(0) != input_size + cell_size: 6 vs. 7")
  expect_error(op + "_w_cols", build, block_bad(4, rand((7, 12), f32)),
               "w.dim_size(1) != cell_size * 4: 12 vs. 16")
  for k, vec in [(5, "wci"), (6, "wcf"), (7, "wco")]:
    expect_error("%s_%s_rank" % (op, vec), build, block_bad(k, rand((4, 1), f32)),
                 vec + " must be 1D")
    expect_error("%s_%s_size" % (op, vec), build, block_bad(k, rand(3, f32)),
                 vec + ".dim_size(0) != cell_size: 3 vs. 4")
  expect_error(op + "_b_rank", build, block_bad(8, rand((16, 1), f32)), "b must be 1D")
  expect_error(op + "_b_size", build, block_bad(8, rand(12, f32)),
               "b.dim_size(0) != cell_size * 4: 12 vs. 16")


# ---- GRUBlockCell ---------------------------------------------------------------------------
def gru(x, h_prev, w_ru, w_c, b_ru, b_c):
  return R.GRUBlockCell(x=x, h_prev=h_prev, w_ru=w_ru, w_c=w_c, b_ru=b_ru, b_c=b_c)


def gru_inputs(batch, inp, cell):
  return [rand((batch, inp), f32), rand((batch, cell), f32), rand((inp + cell, 2 * cell), f32,
                                                                  0.5),
          rand((inp + cell, cell), f32, 0.5), rand(2 * cell, f32, 0.5), rand(cell, f32, 0.5)]


for (batch, inp, cell) in [(1, 1, 1), (2, 3, 4), (3, 5, 2), (5, 8, 16), (2, 0, 3), (0, 3, 2),
                           (2, 3, 0)]:
  w.add("gru_f32_%dx%dx%d" % (batch, inp, cell), gru, gru_inputs(batch, inp, cell), **tol(f32))

G = gru_inputs(2, 3, 4)


def gru_bad(k, value):
  return G[:k] + [value] + G[k + 1:]


expect_error("gru_x_rank", gru, gru_bad(0, rand(3, f32)), "Rank of x must be 2, got 1")
expect_error("gru_h_prev_rank", gru, gru_bad(1, rand((2, 4, 1), f32)),
             "Rank of h_prev must be 2, got 3")
expect_error("gru_h_prev_batch", gru, gru_bad(1, rand((3, 4), f32)),
             "h_prev.dims(0) != batch_size: 3 vs. 2")
expect_error("gru_w_ru_rank", gru, gru_bad(2, rand(7, f32)), "Rank of w_ru_ must be 2, got 1")
expect_error("gru_w_ru_rows", gru, gru_bad(2, rand((6, 8), f32)),
             "w_ru.dim_size(0) != input_size + cell_size: 6 vs. 7")
expect_error("gru_w_ru_cols", gru, gru_bad(2, rand((7, 4), f32)),
             "w_ru.dim_size(1) != cell_size * 2: 4 vs. 8")
expect_error("gru_w_c_rank", gru, gru_bad(3, rand((7, 4, 1), f32)),
             "Rank of w_c must be 2, got 3")
expect_error("gru_w_c_rows", gru, gru_bad(3, rand((8, 4), f32)),
             "w_c.dim_size(0) != input_size + cell_size: 8 vs. 7")
expect_error("gru_w_c_cols", gru, gru_bad(3, rand((7, 5), f32)),
             "w_c.dim_size(1) != cell_size: 5 vs. 4")
expect_error("gru_b_ru_rank", gru, gru_bad(4, rand((8, 1), f32)), "Rank of b_ru must be 1, got 2")
expect_error("gru_b_ru_size", gru, gru_bad(4, rand(6, f32)),
             "b_ru.dim_size(0) != cell_size * 2: 6 vs. 8")
expect_error("gru_b_c_rank", gru, gru_bad(5, np.float32(1)), "Rank of b_c must be 1, got 0")
expect_error("gru_b_c_size", gru, gru_bad(5, rand(5, f32)), "b_c.dim_size(0) != cell_size: 5 vs. 4")


# ---- Gradients ------------------------------------------------------------------------------
LSTM_NAMES = ["x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b"]


def named(names, values):
  return {n: tf.constant(v) for n, v in zip(names, values)}


def grad_tol(dt):
  if dt == f16:
    return dict(atol=GRAD_F16, rtol=GRAD_F16)
  return dict(atol=GRAD_F32_ATOL, rtol=GRAD_F32_RTOL)


def cell_grad_op(peephole):
  def build(*a):
    names = ["x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b", "i", "cs", "f", "o", "ci",
             "co", "cs_grad", "h_grad"]
    return R.LSTMBlockCellGrad(use_peephole=peephole, **dict(zip(names, a)))
  return build


def cell_grad_inputs(batch, inp, cell, dt, peephole, clip=3.0):
  fwd = cell_inputs(batch, inp, cell, dt)
  if batch == 0:  # LSTMBlockCell refuses an empty batch; its gradient takes one
    acts = [np.zeros((0, cell), dt)] * 6
  else:
    acts = [a.numpy() for a in R.LSTMBlockCell(**named(LSTM_NAMES, fwd), cell_clip=clip,
                                                use_peephole=peephole)][:6]
  return fwd + acts + [rand((batch, cell), dt), rand((batch, cell), dt)]


for dn, dt in DTYPES:
  for (batch, inp, cell) in [(1, 1, 1), (2, 3, 4), (3, 5, 2), (5, 8, 16), (2, 0, 3), (0, 2, 3)]:
    for peephole in [False, True]:
      w.add("cellgrad_%s_%dx%dx%d_peep%d" % (dn, batch, inp, cell, peephole),
            cell_grad_op(peephole), cell_grad_inputs(batch, inp, cell, dt, peephole),
            **grad_tol(dt))

CG = cell_grad_inputs(2, 3, 4, f32, False)


def cg_bad(k, shape):
  return CG[:k] + [rand(shape, f32)] + CG[k + 1:]


for k, shape, substr in [
    (1, (3, 4), "cs_prev.dims(0) != batch_size: 3 vs. 2"),
    (2, (3, 4), "h_prev.dims(0) != batch_size: 3 vs. 2"),
    (2, (2, 5), "h_prev.dims(1) != cell_size: 5 vs. 4"),
    (3, (8, 16), "w.dim_size(0) != input_size + cell_size: 8 vs. 7"),
    (3, (7, 12), "w.dim_size(1) != cell_size * 4: 12 vs. 16"),
    (7, (15,), "b.dim_size(0) != cell_size * 4: 15 vs. 16"),
    (8, (1, 4), "i.dim_size(0) != batch_size: 1 vs. 2"),
    (8, (2, 3), "i.dim_size(1) != cell_size: 3 vs. 4"),
    (9, (3, 4), "cs.dim_size(0) != batch_size: 3 vs. 2"),
    (9, (2, 5), "cs.dim_size(1) != cell_size: 5 vs. 4"),
    (10, (1, 4), "f.dim_size(0) != batch_size: 1 vs. 2"),
    (10, (2, 3), "i.dim_size(1) != cell_size: 3 vs. 4"),  # TensorFlow's message for f
    (11, (3, 4), "o.dim_size(0) != batch_size: 3 vs. 2"),
    (11, (2, 1), "o.dim_size(1) != cell_size: 1 vs. 4"),
    (12, (1, 4), "ci.dim_size(0) != batch_size: 1 vs. 2"),
    (12, (2, 6), "ci.dim_size(1) != cell_size: 6 vs. 4"),
    (13, (3, 4), "co.dim_size(0) != batch_size: 3 vs. 2"),
    (13, (2, 2), "co.dim_size(1) != cell_size: 2 vs. 4"),
    (14, (1, 4), "cs_grad_tensor.dims(0) != batch_size: 1 vs. 2"),
    (14, (2, 3), "cs_grad_tensor.dims(1) != cell_size: 3 vs. 4"),
    (15, (3, 4), "h_grad_tensor.dims(0) != batch_size: 3 vs. 2"),
    (15, (2, 5), "h_grad_tensor.dims(1) != cell_size: 5 vs. 4")]:
  expect_error("cellgrad_bad_%d_%s" % (k, "x".join(map(str, shape))), cell_grad_op(False),
               cg_bad(k, shape), substr)


def block_grad_op(op, peephole):
  def build(*a):
    names = ["seq_len_max", "x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b", "i", "cs",
             "f", "o", "ci", "co", "h", "cs_grad", "h_grad"]
    return getattr(R, op)(use_peephole=peephole, **dict(zip(names, a)))
  return build


def block_grad_inputs(op, seq, time, batch, inp, cell, dt, peephole, clip=3.0):
  fwd = block_inputs(seq, time, batch, inp, cell, dt)
  kw = dict(cell_clip=clip, use_peephole=peephole)
  forward = getattr(R, "BlockLSTMV2" if op.endswith("V2") else "BlockLSTM")
  acts = [a.numpy() for a in forward(**named(["seq_len_max"] + LSTM_NAMES, fwd), **kw)]
  for a in acts:  # TensorFlow leaves some of these rows uninitialised; the gradient skips them
    a[seq:] = 0
  return fwd + acts + [rand((time, batch, cell), dt), rand((time, batch, cell), dt)]


for op in ["BlockLSTMGrad", "BlockLSTMGradV2"]:
  for dn, dt in DTYPES:
    for (time, batch, inp, cell) in [(1, 1, 1, 1), (3, 2, 3, 4), (6, 3, 5, 2), (4, 4, 6, 8),
                                     (0, 2, 3, 4)]:
      for peephole in [False, True]:
        for seq in sorted({time, max(time - 2, 0), 0}, reverse=True):
          w.add("%s_%s_%dx%dx%dx%d_peep%d_seq%d" % (op, dn, time, batch, inp, cell, peephole, seq),
                block_grad_op(op, peephole),
                block_grad_inputs(op, seq, time, batch, inp, cell, dt, peephole), **grad_tol(dt))

  BG = block_grad_inputs(op, 2, 3, 2, 3, 4, f32, False)

  def bg_bad(k, value):
    return BG[:k] + [value] + BG[k + 1:]

  build = block_grad_op(op, False)
  for k, value, substr in [
      (0, np.array([2], i64), "`seq_len_max_tensor` must be rank 0 but is rank 1"),
      (1, rand((3, 2), f32), "x must be rank 3 but is rank 2"),
      (2, rand(4, f32), "cs_prev must be rank 2 but is rank 1"),
      (3, rand((2, 4, 1), f32), "h_prev must be rank 2 but is rank 3"),
      (4, rand(28, f32), "w must be rank 2 but is rank 1"),
      (4, rand((7, 14), f32), "w matrix columns must be a positive multiple of 4, but got 14"),
      (4, rand((7, 0), f32), "w matrix columns must be a positive multiple of 4, but got 0"),
      (4, rand((8, 16), f32), "w matrix rows don't match: 7 vs. 8"),
      (5, rand((4, 1), f32), "wci must be rank 1 but is rank 2"),
      (6, np.float32(1), "wcf must be rank 1 but is rank 0"),
      (7, rand((1, 4), f32), "wco must be rank 1 but is rank 2"),
      (8, rand((4, 4), f32), "b must be rank 1 but is rank 2"),
      (8, rand(12, f32), "w and b cell_size don't match: 4 vs. 12"),
      (9, rand((2, 4), f32), "i must be rank 3. Received: 2"),
      (10, rand((3, 2, 4, 1), f32), "cs must be rank 3. Received: 4"),
      (11, rand((2, 4), f32), "f must be rank 3. Received: 2"),
      (12, rand((2, 4), f32), "o must be rank 3. Received: 2"),
      (13, rand((2, 4), f32), "ci must be rank 3. Received: 2"),
      (14, rand((2, 4), f32), "co must be rank 3. Received: 2"),
      (15, rand((2, 4), f32), "h must be rank 3. Received: 2")]:
    expect_error("%s_bad_%d_%s" % (op, k, "x".join(map(str, np.shape(value))) or "scalar"),
                 build, bg_bad(k, value), substr)


def gru_grad(x, h_prev, w_ru, w_c, b_ru, b_c, r, u, c, d_h):
  return R.GRUBlockCellGrad(x=x, h_prev=h_prev, w_ru=w_ru, w_c=w_c, b_ru=b_ru, b_c=b_c, r=r, u=u,
                            c=c, d_h=d_h)


def gru_grad_inputs(batch, inp, cell):
  fwd = gru_inputs(batch, inp, cell)
  acts = [a.numpy() for a in R.GRUBlockCell(
      **named(["x", "h_prev", "w_ru", "w_c", "b_ru", "b_c"], fwd))][:3]
  return fwd + acts + [rand((batch, cell), f32)]


for (batch, inp, cell) in [(1, 1, 1), (2, 3, 4), (3, 5, 2), (5, 8, 16), (2, 0, 3), (0, 3, 2)]:
  w.add("grugrad_f32_%dx%dx%d" % (batch, inp, cell), gru_grad, gru_grad_inputs(batch, inp, cell),
        **grad_tol(f32))

GG = gru_grad_inputs(2, 3, 4)
for k, shape, substr in [
    (0, (3,), "Rank of x must be 2, got 1"),
    (2, (7, 4), "w_ru.dim_size(1) != cell_size * 2: 4 vs. 8"),
    (5, (5,), "b_c.dim_size(0) != cell_size: 5 vs. 4"),
    (6, (2,), "Rank of r must be 2, got 1"),
    (6, (3, 4), "r.dims(0) != batch_size: 3 vs. 2"),
    (6, (2, 5), "r.dims(1) != cell_size: 5 vs. 4"),
    (7, (2, 4, 1), "Rank of u must be 2, got 3"),
    (7, (1, 4), "u.dims(0) != batch_size: 1 vs. 2"),
    (7, (2, 3), "u.dims(1) != cell_size: 3 vs. 4"),
    (8, (4,), "Rank of w_c must be 2, got 1"),  # TensorFlow's message for c
    (8, (3, 4), "c.dims(0) != batch_size: 3 vs. 2"),
    (8, (2, 2), "c.dims(1) != cell_size: 2 vs. 4"),
    (9, (2, 4, 1), "Rank of d_h must be 2, got 3"),
    (9, (1, 4), "d_h.dims(0) != batch_size: 1 vs. 2"),
    (9, (2, 6), "d_h.dims(1) != cell_size: 6 vs. 4")]:
  expect_error("grugrad_bad_%d_%s" % (k, "x".join(map(str, shape))), gru_grad,
               GG[:k] + [rand(shape, f32)] + GG[k + 1:], substr)

w.write()
