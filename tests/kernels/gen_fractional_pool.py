"""Writes fixtures/fractional_pool.pbtxt: FractionalMaxPool, FractionalAvgPool and their
gradients in TensorFlow, replayed by //kernels/cpu/nn:fractional_pool_conformance_test.

Run from anywhere: python3 tests/kernels/gen_fractional_pool.py (needs TensorFlow 2.x and
numpy). Every case is exact (rtol 0): Sluice draws TensorFlow's windows from the same Philox
stream and sums in TensorFlow's order and types.

The forward cases are deterministic nodes with seeds (TensorFlow draws new windows on every
run otherwise, and refuses seeds then): random and pseudo_random sequences, overlapping or not,
ratios below 2 and above (steps of k and k + 1 for k > 1), exact divisions, ratio 1, one seed
of the two 0, negative and 64-bit seeds, and the four dtypes TensorFlow registers (float,
double, int32, int64). The gradients replay the windows and outputs TensorFlow's forward op
returned. Every error of TensorFlow's kernel checks is covered (a pooling_ratio of
other than 4 values or below 1 fails in TensorFlow's shape function when the node is built, so
those kernel checks are unit-tested; a NaN ratio passes it), each error_substr checked here against
TensorFlow's message. The checks Sluice adds where TensorFlow reads or writes out of bounds
(and a node without seeds, whose windows are random) are unit-tested in
kernels/cpu/nn/fractional_pool_ops_test.cc.
"""
import os
import sys

import numpy as np  # pylint: disable=g-import-not-at-top
import tensorflow as tf  # pylint: disable=g-import-not-at-top

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top,wrong-import-position

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("fractional_pool")

FORWARD = {"max": R.FractionalMaxPool, "avg": R.FractionalAvgPool}
DTYPES = [(np.float32, "f32"), (np.float64, "f64"), (np.int32, "i32"), (np.int64, "i64")]


def add_error(name, build, inputs, substr):
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  message = w._cases[-1].split("error_message: ")[1].split("\n")[0]  # pylint: disable=protected-access
  assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message differs: " + message


def values(shape, dt):
  if np.issubdtype(dt, np.integer):
    return rng.integers(-50, 50, size=shape).astype(dt)
  return rng.standard_normal(shape).astype(dt)


def forward(kind, ratio, pseudo_random=False, overlapping=False, seed=7, seed2=11,
            deterministic=True):
  return lambda x: FORWARD[kind](value=x, pooling_ratio=list(ratio), pseudo_random=pseudo_random,
                                 overlapping=overlapping, deterministic=deterministic, seed=seed,
                                 seed2=seed2)


def max_grad(overlapping):
  return lambda x, y, g, r, c: R.FractionalMaxPoolGrad(
      orig_input=x, orig_output=y, out_backprop=g, row_pooling_sequence=r,
      col_pooling_sequence=c, overlapping=overlapping)


def avg_grad(overlapping):
  return lambda s, g, r, c: R.FractionalAvgPoolGrad(
      orig_input_tensor_shape=s, out_backprop=g, row_pooling_sequence=r,
      col_pooling_sequence=c, overlapping=overlapping)


def run_forward(kind, x, ratio, pseudo_random, overlapping, seed=7, seed2=11):
  y, r, c = FORWARD[kind](value=x, pooling_ratio=list(ratio), pseudo_random=pseudo_random,
                          overlapping=overlapping, deterministic=True, seed=seed, seed2=seed2)
  return y.numpy(), r.numpy(), c.numpy()


# (name, input shape, ratio, every dtype or float only): the windows do not depend on the
# dtype, so the longer sequences are drawn for float only.
GEOMETRIES = [
    ("r144_173", (2, 10, 9, 3), (1.0, 1.44, 1.73, 1.0), True),
    ("r2_exact", (1, 8, 6, 2), (1.0, 2.0, 2.0, 1.0), True),
    ("r27_33", (1, 17, 23, 1), (1.0, 2.7, 3.3, 1.0), True),
    ("r13_long", (1, 41, 37, 1), (1.0, 1.3, 1.1, 1.0), False),
    ("rows_only", (1, 7, 5, 2), (1.0, 1.5, 1.0, 1.0), True),
    ("ratio1", (1, 3, 4, 2), (1.0, 1.0, 1.0, 1.0), True),
]

for kind in ("max", "avg"):
  for dt, dname in DTYPES:
    for gname, shape, ratio, every_dtype in GEOMETRIES:
      if not every_dtype and dt != np.float32:
        continue
      x = values(shape, dt)
      for pr in (False, True):
        for ov in (False, True):
          name = "%s_%s_%s_%s_%s" % (kind, gname, "pr" if pr else "rand", "ov" if ov else "noov",
                                     dname)
          w.add(name, forward(kind, ratio, pr, ov), [x])
  # Seeds: one of the two 0, negative, past 32 bits.
  x = values((1, 12, 11, 2), np.float32)
  for seed, seed2 in [(0, 5), (5, 0), (-3, 9), (2**40 + 17, -(2**35)), (87654321, 12345)]:
    for pr in (False, True):
      w.add("%s_seed_%d_%d_%s" % (kind, seed, seed2, "pr" if pr else "rand"),
            forward(kind, (1.0, 1.6, 1.3, 1.0), pr, False, seed, seed2), [x])
  # Non-finite values: a NaN never wins a max (`out < x`), and spreads through a mean.
  x = values((1, 9, 8, 2), np.float32)
  x[0, 1, 2, 0] = np.nan
  x[0, 0, 0, 1] = np.nan
  x[0, 4, 4, 1] = np.inf
  x[0, 6, 1, 0] = -np.inf
  w.add("%s_nan_inf_f32" % kind, forward(kind, (1.0, 1.5, 1.5, 1.0), False, True), [x])
  # The lowest value itself, and a window of them.
  x = np.full((1, 5, 5, 1), np.finfo(np.float32).min, np.float32)
  w.add("%s_lowest_f32" % kind, forward(kind, (1.0, 1.5, 1.5, 1.0)), [x])

# Integer means truncate toward zero and wrap around on overflow.
x = np.full((1, 6, 6, 2), 2**30 + 12345, np.int32)
x[0, :, :, 1] = -7
w.add("avg_overflow_i32", forward("avg", (1.0, 1.5, 1.5, 1.0), False, True), [x])

for kind in ("max", "avg"):
  x = values((2, 6, 6, 2), np.float32)
  label = "max" if kind == "max" else "average"
  add_error("%s_err_ratio_nan" % kind, forward(kind, (1.0, float("nan"), 1.5, 1.0)), [x],
            "pooling_ratio cannot be smaller than 1, got: nan")
  for rname, ratio in [("batch", (2.0, 1.5, 1.5, 1.0)), ("depth", (1.0, 1.5, 1.5, 2.0))]:
    add_error("%s_err_ratio_%s" % (kind, rname), forward(kind, ratio), [x],
              "Fractional %s pooling is not yet supported on the batch nor channel dimension."
              % label)
  add_error("%s_err_seed_not_deterministic" % kind,
            forward(kind, (1.0, 1.5, 1.5, 1.0), seed=0, seed2=3, deterministic=False), [x],
            "Both seed and seed2 should be 0 if deterministic is false.")
  add_error("%s_err_rank3" % kind, forward(kind, (1.0, 1.5, 1.5, 1.0)), [x[0]],
            "tensor_in must be 4-dimensional")
  add_error("%s_err_rank5" % kind, forward(kind, (1.0, 1.5, 1.5, 1.0)), [x[None]],
            "tensor_in must be 4-dimensional")
  add_error("%s_err_ratio_past_rows" % kind, forward(kind, (1.0, 6.5, 1.5, 1.0)), [x],
            "Pooling ratio is higher than input dimension size for dimension 1. Input dim size: 6 "
            "pooling ratio: 6.5")
  add_error("%s_err_ratio_past_cols" % kind, forward(kind, (1.0, 1.5, 7.0, 1.0)), [x],
            "Pooling ratio is higher than input dimension size for dimension 2. Input dim size: 6 "
            "pooling ratio: 7")
  add_error("%s_err_empty_batch" % kind, forward(kind, (1.0, 1.5, 1.5, 1.0)), [x[:0]],
            "Pooling ratio is higher than input dimension size for dimension 0. Input dim size: 0 "
            "pooling ratio: 1")
  add_error("%s_err_no_channels" % kind, forward(kind, (1.0, 1.5, 1.5, 1.0)), [x[..., :0]],
            "Pooling ratio is higher than input dimension size for dimension 3. Input dim size: 0 "
            "pooling ratio: 1")

# ---- Gradients: TensorFlow's forward outputs replayed. ----
GRAD_GEOMETRIES = [
    ("r144_173", (2, 10, 9, 3), (1.0, 1.44, 1.73, 1.0)),
    ("r27_33", (1, 17, 13, 1), (1.0, 2.7, 3.3, 1.0)),
    ("r2_exact", (1, 8, 6, 2), (1.0, 2.0, 2.0, 1.0)),
]
for dt, dname in DTYPES:
  for gname, shape, ratio in GRAD_GEOMETRIES:
    for pr in (False, True):
      for ov in (False, True):
        suffix = "%s_%s_%s_%s" % (gname, "pr" if pr else "rand", "ov" if ov else "noov", dname)
        x = values(shape, dt)
        y, r, c = run_forward("max", x, ratio, pr, ov)
        w.add("maxgrad_" + suffix, max_grad(ov), [x, y, values(y.shape, dt), r, c])
        y, r, c = run_forward("avg", x, ratio, pr, ov)
        w.add("avggrad_" + suffix, avg_grad(ov),
              [np.array(shape, np.int64), values(y.shape, dt), r, c])

# Ties: the first element of a window keeps the gradient.
x = np.zeros((1, 6, 6, 2), np.int32)
x[0, 2:4, :, 0] = 5
y, r, c = run_forward("max", x, (1.0, 1.5, 1.5, 1.0), False, True)
w.add("maxgrad_ties_i32", max_grad(True), [x, y, values(y.shape, np.int32), r, c])
# Gradients large enough that int sums wrap, and averaged int gradients that truncate.
g = np.full(y.shape, 2**30, np.int32)
w.add("maxgrad_wrap_i32", max_grad(True), [x, y, g, r, c])
w.add("avggrad_truncate_i32", avg_grad(True), [np.array((1, 6, 6, 2), np.int64),
                                               values(y.shape, np.int32), r, c])
# NaN and infinities in the gradient; a NaN input the forward op skipped makes the replay
# differ from orig_output when it opens a window.
x = values((1, 7, 7, 2), np.float32)
y, r, c = run_forward("max", x, (1.0, 1.4, 1.4, 1.0), False, False)
g = values(y.shape, np.float32)
g[0, 1, 1, 0] = np.nan
g[0, 2, 0, 1] = np.inf
w.add("maxgrad_nan_inf_grad", max_grad(False), [x, y, g, r, c])
w.add("avggrad_nan_inf_grad", avg_grad(False), [np.array(x.shape, np.int64), g, r, c])
xn = x.copy()
xn[0, r[1], c[1], 0] = np.nan  # the second window's first element
yn = R.FractionalMaxPool(value=xn, pooling_ratio=[1.0, 1.4, 1.4, 1.0], deterministic=True,
                         seed=7, seed2=11)[0].numpy()
add_error("maxgrad_err_nan_opens_window", max_grad(False), [xn, yn, g, r, c],
          "tensor_out_dup is not the same as tensor_out")
xn = x.copy()
xn[0, r[1] + 1, c[1] + 1, 0] = np.nan  # inside a window, never its first element
yn = R.FractionalMaxPool(value=xn, pooling_ratio=[1.0, 1.4, 1.4, 1.0], deterministic=True,
                         seed=7, seed2=11)[0].numpy()
w.add("maxgrad_nan_inside_window", max_grad(False), [xn, yn, g, r, c])
# Sequences past the input: windows that start beyond it pool nothing.
x = values((1, 5, 5, 1), np.float32)
w.add("avggrad_seq_past_input", avg_grad(False),
      [np.array((1, 5, 5, 1), np.int64), values((1, 3, 3, 1), np.float32),
       np.array([0, 2, 9, 12], np.int64), np.array([0, 1, 3, 5], np.int64)])
# out_backprop with fewer images or channels than the input.
w.add("avggrad_fewer_images", avg_grad(True),
      [np.array((3, 5, 5, 2), np.int64), values((1, 3, 3, 1), np.float64),
       np.array([0, 2, 3, 5], np.int64), np.array([0, 1, 3, 5], np.int64)])

# Gradient errors.
x = values((1, 7, 7, 2), np.float32)
y, r, c = run_forward("max", x, (1.0, 1.4, 1.4, 1.0), False, False)
g = values(y.shape, np.float32)
add_error("maxgrad_err_input_rank3", max_grad(False), [x[0], y, g, r, c],
          "orig_input should be a tensor of rank 4, got ")
add_error("maxgrad_err_input_empty", max_grad(False), [x[:, :0], y, g, r, c],
          "orig_input must not be empty, got ")
add_error("maxgrad_err_output_rank3", max_grad(False), [x, y[0], g, r, c],
          "orig_output should be a tensor of rank 4, got ")
add_error("maxgrad_err_output_empty", max_grad(False), [x, y[..., :0], g, r, c],
          "orig_output must not be empty, got ")
add_error("maxgrad_err_region_too_large", max_grad(False),
          [x, y, g, np.arange(20, dtype=np.int64), np.arange(20, dtype=np.int64)],
          "Pooling region has more elements than the input tensor. ")
y_bad = y.copy()
y_bad[0, 1, 2, 1] += 1
add_error("maxgrad_err_output_mismatch", max_grad(False), [x, y_bad, g, r, c],
          "tensor_out_dup is not the same as tensor_out")
# A sequence shorter than the output leaves outputs without a source; with orig_output at the
# lowest value there, the replay agrees and the source check fails.
y_low = y.copy()
y_low[0, -1, :, :] = np.finfo(np.float32).min
add_error("maxgrad_err_no_source", max_grad(False), [x, y_low, g, r[:-1], c],
          "Invalid input backprop index: -1, 98")

s = np.array((1, 7, 7, 2), np.int64)
add_error("avggrad_err_shape_len3", avg_grad(False), [s[:3], g, r, c],
          "original input tensor shape must be1-dimensional and 4 elements")
add_error("avggrad_err_shape_matrix", avg_grad(False), [s.reshape(2, 2), g, r, c],
          "original input tensor shape must be1-dimensional and 4 elements")
add_error("avggrad_err_rows_short", avg_grad(False), [s, g, r[:-1], c],
          "Given out_backprop shape [1,5,5,2], row_seq_tensor must have at least 6 elements, "
          "but got 5")
add_error("avggrad_err_cols_short", avg_grad(False), [s, g, r, c[:-2]],
          "Given out_backprop shape [1,5,5,2], col_seq_tensor must have at least 6 elements, "
          "but got 4")
for i, dname in enumerate(["Batch", "Rows", "Columns", "Depth"]):
  s0 = s.copy()
  s0[i] = 0
  add_error("avggrad_err_zero_%s" % dname.lower(), avg_grad(False), [s0, g, r, c],
            "%s dimension of input must not be 0" % dname)
r_neg = r.copy()
r_neg[2] = -3
add_error("avggrad_err_negative_rows", avg_grad(False), [s, g, r_neg, c],
          "Row sequence tensor values must not be negative, got ")
c_neg = c.copy()
c_neg[0] = -1
add_error("avggrad_err_negative_cols", avg_grad(True), [s, g, r, c_neg],
          "Column sequence tensor values must not be negative, got ")

w.write()
