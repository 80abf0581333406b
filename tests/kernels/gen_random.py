"""Writes fixtures/random.pbtxt: the random ops in TensorFlow, seeded, bit for bit.

Run from anywhere: python3 tests/kernels/gen_random.py (needs TensorFlow 2.x and numpy).
Every case is compared exactly: Sluice's Philox stream, group layout, bit conversions and
Box-Muller arithmetic are TensorFlow's. The stateful ops' cases are their kernel's first run
(random_ops_test checks the next runs); the unseeded form (seed = seed2 = 0) draws random
seeds and so has no recorded values. Sizes of 4k + r exercise every tail of a group, and a
few cases of 3,001 values cross many groups (the truncated normal starts each group 256
outputs' worth of blocks apart).

Left out: a V2 counter of one word with alg 1. TensorFlow 2.21 checks the counter's length
against the algorithm's id rather than Philox's two words and then reads past the tensor;
Sluice refuses it (random_ops_test).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
w = CaseWriter("random")

REALS = [("f32", tf.float32), ("f64", tf.float64), ("f16", tf.float16), ("bf16", tf.bfloat16)]
SHAPES = [("21", [3, 7]), ("4k", [8]), ("4k1", [1, 9]), ("4k2", [10]), ("4k3", [11])]
SEED = np.array([1234, -5678], np.int64)
KEY = np.array([0x0123456789abcdef], np.uint64)
COUNTER = np.array([5, 0xfedcba9876543210], np.uint64)
ALG = np.int32(1)


def shape_of(dims, dtype=np.int32):
  return np.array(dims, dtype)


# ---- Stateless, seed pair ---------------------------------------------------------------
V1 = [("uniform", R.StatelessRandomUniform), ("normal", R.StatelessRandomNormal),
      ("truncated", R.StatelessTruncatedNormal)]
for op_name, op in V1:
  for dname, dtype in REALS:
    for sname, dims in SHAPES:
      w.add("stateless_%s_%s_%s" % (op_name, dname, sname),
            lambda s, seed, op=op, dtype=dtype: op(shape=s, seed=seed, dtype=dtype),
            [shape_of(dims), SEED])
  w.add("stateless_%s_f32_3001" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([3001], np.int64), SEED])
  w.add("stateless_%s_f64_1001" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float64),
        [shape_of([1001]), SEED.astype(np.int32)])
  w.add("stateless_%s_int32_seed_negative" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([6]), np.array([-1, -7], np.int32)])
  w.add("stateless_%s_scalar" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([]), SEED])
  w.add("stateless_%s_empty" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([4, 0]), SEED])
  w.add("stateless_%s_err_seed_shape" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([4]), np.array([1, 2, 3], np.int64)])
  w.add("stateless_%s_err_seed_shape_empty_output" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([0]), np.array([[1, 2]], np.int64)])
  w.add("stateless_%s_err_shape_scalar" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [np.int32(3), SEED])
  w.add("stateless_%s_err_negative_dim" % op_name,
        lambda s, seed, op=op: op(shape=s, seed=seed, dtype=tf.float32),
        [shape_of([3, -2]), SEED])

for dname, dtype in [("int32", np.int32), ("int64", np.int64)]:
  for sname, dims in SHAPES:
    w.add("stateless_uniform_int_%s_%s" % (dname, sname),
          lambda s, seed, lo, hi: R.StatelessRandomUniformInt(shape=s, seed=seed, minval=lo,
                                                              maxval=hi),
          [shape_of(dims), SEED, dtype(-17), dtype(1000)])
  info = np.iinfo(dtype)
  w.add("stateless_uniform_int_%s_full_range" % dname,
        lambda s, seed, lo, hi: R.StatelessRandomUniformInt(shape=s, seed=seed, minval=lo,
                                                            maxval=hi),
        [shape_of([9]), SEED, dtype(info.min), dtype(info.max)])
  w.add("stateless_uniform_int_%s_err_bounds" % dname,
        lambda s, seed, lo, hi: R.StatelessRandomUniformInt(shape=s, seed=seed, minval=lo,
                                                            maxval=hi),
        [shape_of([2]), SEED, dtype(5), dtype(5)])
  w.add("stateless_uniform_int_%s_empty_bad_bounds" % dname,
        lambda s, seed, lo, hi: R.StatelessRandomUniformInt(shape=s, seed=seed, minval=lo,
                                                            maxval=hi),
        [shape_of([0]), SEED, dtype(5), dtype(5)])
  w.add("stateless_uniform_int_%s_err_minval_shape" % dname,
        lambda s, seed, lo, hi: R.StatelessRandomUniformInt(shape=s, seed=seed, minval=lo,
                                                            maxval=hi),
        [shape_of([2]), SEED, np.array([5], dtype), dtype(9)])
for dname, dtype in [("int32", tf.int32), ("int64", tf.int64), ("uint32", tf.uint32),
                     ("uint64", tf.uint64)]:
  for sname, dims in SHAPES[:3]:
    w.add("stateless_full_int_%s_%s" % (dname, sname),
          lambda s, seed, dtype=dtype: R.StatelessRandomUniformFullInt(shape=s, seed=seed,
                                                                       dtype=dtype),
          [shape_of(dims), SEED])

for seed_dtype in (np.uint32, np.uint64):  # the OpDef allows them, TensorFlow's kernel not
  w.add("stateless_full_int_err_seed_%s" % np.dtype(seed_dtype).name,
        lambda s, seed: R.StatelessRandomUniformFullInt(shape=s, seed=seed, dtype=tf.int32),
        [shape_of([3]), np.array([1, 2], seed_dtype)])

# ---- Key, counter and algorithm ---------------------------------------------------------
for seed_dtype in (np.int32, np.int64):
  for seed in ([1, 2], [-1, -7], [0, 0], [2**31 - 1, -2**31]):
    tag = "%s_%s" % (np.dtype(seed_dtype).name, "_".join(str(s).replace("-", "m") for s in seed))
    w.add("get_key_counter_" + tag, lambda s: R.StatelessRandomGetKeyCounter(seed=s),
          [np.array(seed, seed_dtype)])
    w.add("get_key_counter_alg_" + tag, lambda s: R.StatelessRandomGetKeyCounterAlg(seed=s),
          [np.array(seed, seed_dtype)])
w.add("get_key_counter_err_seed_shape", lambda s: R.StatelessRandomGetKeyCounter(seed=s),
      [np.array([1, 2, 3], np.int64)])
w.add("get_alg", lambda: R.StatelessRandomGetAlg(), [])

V2 = [("uniform", R.StatelessRandomUniformV2), ("normal", R.StatelessRandomNormalV2),
      ("truncated", R.StatelessTruncatedNormalV2)]
for op_name, op in V2:
  for dname, dtype in REALS:
    for sname, dims in SHAPES:
      w.add("v2_%s_%s_%s" % (op_name, dname, sname),
            lambda s, k, c, a, op=op, dtype=dtype: op(shape=s, key=k, counter=c, alg=a,
                                                      dtype=dtype),
            [shape_of(dims), KEY, COUNTER, ALG])
  w.add("v2_%s_f32_3001_auto_select" % op_name,
        lambda s, k, c, a, op=op: op(shape=s, key=k, counter=c, alg=a),
        [shape_of([3001], np.int64), KEY, COUNTER, np.int32(3)])
  # The counter's low word about to carry into the next: Skip must carry across the words.
  w.add("v2_%s_f32_counter_carry" % op_name,
        lambda s, k, c, a, op=op: op(shape=s, key=k, counter=c, alg=a),
        [shape_of([2100]), KEY, np.array([2**64 - 3, 2**64 - 1], np.uint64), ALG])
  w.add("v2_%s_f32_counter_longer" % op_name,
        lambda s, k, c, a, op=op: op(shape=s, key=k, counter=c, alg=a),
        [shape_of([5]), KEY, np.array([1, 2, 3], np.uint64), ALG])
  for ename, key, counter, alg, dims in [
      ("alg_threefry", KEY, COUNTER, np.int32(2), [2]),
      ("alg_zero", KEY, COUNTER, np.int32(0), [2]),
      ("alg_not_scalar", KEY, COUNTER, np.array([1], np.int32), [2]),
      ("key_shape", np.array([1, 2], np.uint64), COUNTER, ALG, [2]),
      ("key_shape_empty_output", np.array([1, 2], np.uint64), COUNTER, ALG, [0]),
      ("counter_rank", KEY, np.array([[1, 2]], np.uint64), ALG, [2]),
      ("shape_rank", KEY, COUNTER, ALG, [[2]])]:
    w.add("v2_%s_err_%s" % (op_name, ename),
          lambda s, k, c, a, op=op: op(shape=s, key=k, counter=c, alg=a),
          [shape_of(dims), key, counter, alg])

for dname, dtype in [("int32", np.int32), ("int64", np.int64)]:
  for sname, dims in SHAPES:
    w.add("v2_uniform_int_%s_%s" % (dname, sname),
          lambda s, k, c, a, lo, hi: R.StatelessRandomUniformIntV2(
              shape=s, key=k, counter=c, alg=a, minval=lo, maxval=hi),
          [shape_of(dims), KEY, COUNTER, ALG, dtype(-5), dtype(3)])
  w.add("v2_uniform_int_%s_err_bounds" % dname,
        lambda s, k, c, a, lo, hi: R.StatelessRandomUniformIntV2(
            shape=s, key=k, counter=c, alg=a, minval=lo, maxval=hi),
        [shape_of([3]), KEY, COUNTER, ALG, dtype(3), dtype(1)])
  w.add("v2_uniform_int_%s_empty_bad_bounds" % dname,
        lambda s, k, c, a, lo, hi: R.StatelessRandomUniformIntV2(
            shape=s, key=k, counter=c, alg=a, minval=lo, maxval=hi),
        [shape_of([0]), KEY, COUNTER, ALG, np.array([3], dtype), dtype(1)])
for dname, dtype in [("int32", tf.int32), ("int64", tf.int64), ("uint32", tf.uint32),
                     ("uint64", tf.uint64)]:
  for sname, dims in SHAPES[:3]:
    w.add("v2_full_int_%s_%s" % (dname, sname),
          lambda s, k, c, a, dtype=dtype: R.StatelessRandomUniformFullIntV2(
              shape=s, key=k, counter=c, alg=a, dtype=dtype),
          [shape_of(dims), KEY, COUNTER, ALG])

# ---- Stateful, seeded by attrs ----------------------------------------------------------
STATEFUL = [("uniform", R.RandomUniform), ("normal", R.RandomStandardNormal),
            ("truncated", R.TruncatedNormal)]
for op_name, op in STATEFUL:
  for dname, dtype in REALS:
    for sname, dims in SHAPES:
      w.add("stateful_%s_%s_%s" % (op_name, dname, sname),
            lambda s, op=op, dtype=dtype: op(shape=s, dtype=dtype, seed=87654321, seed2=-3),
            [shape_of(dims)])
  w.add("stateful_%s_f32_3001_seed2_only" % op_name,
        lambda s, op=op: op(shape=s, dtype=tf.float32, seed=0, seed2=42),
        [shape_of([3001], np.int64)])
  w.add("stateful_%s_err_shape_scalar" % op_name,
        lambda s, op=op: op(shape=s, dtype=tf.float32, seed=1, seed2=2), [np.int32(3)])
  w.add("stateful_%s_err_negative_dim" % op_name,
        lambda s, op=op: op(shape=s, dtype=tf.float32, seed=1, seed2=2), [shape_of([2, -1])])
for dname, dtype in [("int32", np.int32), ("int64", np.int64)]:
  for sname, dims in SHAPES:
    w.add("stateful_uniform_int_%s_%s" % (dname, sname),
          lambda s, lo, hi: R.RandomUniformInt(shape=s, minval=lo, maxval=hi, seed=3, seed2=4),
          [shape_of(dims), dtype(-100), dtype(100)])
  w.add("stateful_uniform_int_%s_err_bounds" % dname,
        lambda s, lo, hi: R.RandomUniformInt(shape=s, minval=lo, maxval=hi, seed=3, seed2=4),
        [shape_of([2]), dtype(5), dtype(4)])
  w.add("stateful_uniform_int_%s_empty_bad_bounds" % dname,
        lambda s, lo, hi: R.RandomUniformInt(shape=s, minval=lo, maxval=hi, seed=3, seed2=4),
        [shape_of([0]), dtype(5), dtype(5)])
  w.add("stateful_uniform_int_%s_err_minval_shape_empty_output" % dname,
        lambda s, lo, hi: R.RandomUniformInt(shape=s, minval=lo, maxval=hi, seed=3, seed2=4),
        [shape_of([0]), np.array([5], dtype), dtype(9)])

# ---- Sampling classes; shuffling ------------------------------------------------------
rng = np.random.default_rng(20261207)
LOGITS = rng.normal(0, 2, (3, 10)).astype(np.float32)
SPECIAL = np.array([[0, -np.inf, 1, np.nan, 2], [-np.inf] * 5, [np.inf, 0, 0, 0, 0]], np.float32)
for out_name, out_dtype in [("int64", tf.int64), ("int32", tf.int32)]:
  for dname, dtype in [("f32", np.float32), ("f64", np.float64), ("f16", np.float16)]:
    w.add("multinomial_%s_%s" % (dname, out_name),
          lambda x, n, out_dtype=out_dtype: R.Multinomial(logits=x, num_samples=n, seed=11,
                                                          seed2=12, output_dtype=out_dtype),
          [LOGITS.astype(dtype), np.int32(7)])
    w.add("stateless_multinomial_%s_%s" % (dname, out_name),
          lambda x, n, seed, out_dtype=out_dtype: R.StatelessMultinomial(
              logits=x, num_samples=n, seed=seed, output_dtype=out_dtype),
          [LOGITS.astype(dtype), np.int32(7), SEED])
w.add("multinomial_one_row_many_classes",
      lambda x, n: R.Multinomial(logits=x, num_samples=n, seed=0, seed2=9),
      [rng.normal(0, 1, (1, 3000)).astype(np.float32), np.int32(13)])
w.add("multinomial_non_finite", lambda x, n: R.Multinomial(logits=x, num_samples=n, seed=5,
                                                           seed2=6),
      [SPECIAL, np.int32(6)])
w.add("stateless_multinomial_non_finite",
      lambda x, n, seed: R.StatelessMultinomial(logits=x, num_samples=n, seed=seed),
      [SPECIAL, np.int32(6), np.array([3, 4], np.int32)])
w.add("multinomial_zero_samples",
      lambda x, n: R.Multinomial(logits=x, num_samples=n, seed=5, seed2=6), [LOGITS, np.int32(0)])
w.add("multinomial_empty_batch",
      lambda x, n: R.Multinomial(logits=x, num_samples=n, seed=5, seed2=6),
      [np.zeros((0, 4), np.float32), np.int32(3)])
for ename, logits, n in [("logits_rank", LOGITS[0], np.int32(2)),
                         ("num_samples_shape", LOGITS, np.array([2], np.int32)),
                         ("num_samples_negative", LOGITS, np.int32(-1)),
                         ("no_classes", np.zeros((2, 0), np.float32), np.int32(2))]:
  w.add("multinomial_err_" + ename,
        lambda x, n: R.Multinomial(logits=x, num_samples=n, seed=5, seed2=6), [logits, n])
  w.add("stateless_multinomial_err_" + ename,
        lambda x, n, seed: R.StatelessMultinomial(logits=x, num_samples=n, seed=seed),
        [logits, n, SEED])
w.add("stateless_multinomial_err_seed_before_logits",
      lambda x, n, seed: R.StatelessMultinomial(logits=x, num_samples=n, seed=seed),
      [LOGITS[0], np.int32(2), np.array([1], np.int64)])

for dname, value in [("f32_vector", rng.normal(size=37).astype(np.float32)),
                     ("int32_matrix", np.arange(30, dtype=np.int32).reshape(10, 3)),
                     ("string", np.array([b"a", b"bb", b"", b"dddd", b"e"], dtype=object)),
                     ("bool_3d", rng.integers(0, 2, (6, 2, 2)).astype(bool)),
                     ("complex128", (np.arange(9) + 1j * np.arange(9)).astype(np.complex128)),
                     ("f16_two_rows", np.array([[1, 2], [3, 4]], np.float16)),
                     ("one_row", np.ones((1, 5), np.float32)),
                     ("scalar", np.float32(3)),
                     ("empty_rows", np.zeros((4, 0), np.float32))]:
  w.add("shuffle_" + dname, lambda x: R.RandomShuffle(value=x, seed=21, seed2=22), [value])
w.add("shuffle_1000_seed2_only", lambda x: R.RandomShuffle(value=x, seed=0, seed2=3),
      [np.arange(1000, dtype=np.int64)])

w.write()
