"""Sweeps Keras 3's layer catalogue and keras.applications through Sluice.

For every case (one Keras layer, or a small stack of them, in a tiny functional model with
a few hundred parameters and a fixed seed; or a keras.applications architecture with
weights=None at its smallest valid input size, batch 1) this script:

  1. wraps the model in a tf.function with a fully static input signature (placeholders
     input_0, input_1, ...), freezes it with convert_variables_to_constants_v2 and, when
     the graph has control flow (While / If / Case or a function library), does so twice:
     lower_control_flow=True (Switch / Merge / Enter / Exit / NextIteration) and
     lower_control_flow=False (functional While / If kept, bodies in the library);
  2. writes <case>.pb, <case>.input_<i>.npy, <case>.tf_output_<i>.npy and <case>.json
     (a manifest) to $SLUICE_SWEEP_DIR (default ~/.cache/sluice-sweep); TensorFlow's
     outputs come from a tf.compat.v1.Session on the same frozen GraphDef, as in
     tests/models/gen_models.py;
  3. runs `sluice inspect --json` (all unregistered ops and kernel-less ops of the graph)
     and `sluice run <case>.pb --input input_i=... --output ... --save-outputs DIR`, and
     compares every output with TensorFlow's: |sluice - tf| <= 1e-4 * min(1, max|tf|) +
     1e-4 * |tf| elementwise for float32 / float64 (1e-2 for float16, 3e-2 for bfloat16),
     exact equality for integer and bool outputs;
  4. writes a Markdown report (per case PASS / FAIL / SKIP with sluice's exact error, then
     the aggregate: missing ops with how many cases each blocks, missing dtype kernels,
     numerical mismatches, crashes) and a results JSON.

Everything runs in one TensorFlow process, one case at a time (sluice runs as a child
process); the applications dominate the run time.

Usage:
  /tmp/tfvenv/bin/python tests/keras_sweep/sweep_keras.py [--sluice PATH] [--no-apps]
      [--only-apps] [--filter REGEX] [--reuse] [--report FILE] [--list]

  --reuse         reuse a case's cached .pb / .npy files when present (no re-freezing)
  --sluice-only   do not import TensorFlow: rerun sluice on every manifest in the cache
                  (e.g. after a Sluice change), needs only numpy
  --include-slow  also try the applications listed in SLOW_APPS (skipped by default)
"""
import argparse
import functools
import gc
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

SEED = 20261201
LAYER_BATCH = 2
FREEZE_LIMIT_S = 120  # applications whose build + freeze takes longer are skipped
SLUICE_TIMEOUT_S = 300

# Ops others are implementing right now: listed in the report, marked "in progress".
IN_PROGRESS = re.compile(r"^(TensorList\w*|TensorArray\w*|NonMaxSuppression\w*|Unique\w*|"
                         r"ReverseSequence|Cumprod|Bincount|DenseBincount|RaggedBincount|"
                         r"SparseBincount|Assert|Print|PrintV2|StringFormat)$")

# Applications whose build + freeze took more than FREEZE_LIMIT_S on the shared 2-core dev
# machine (ConvNeXt is frozen twice: its grouped convolutions are XLA functions in the
# library); --include-slow tries them anyway.
SLOW_APPS = {"ConvNeXtLarge", "ConvNeXtXLarge", "EfficientNetV2L"}

CONTROL_FLOW_OPS = {"While", "StatelessWhile", "If", "StatelessIf", "Case", "StatelessCase"}


def cache_dir():
  return os.environ.get("SLUICE_SWEEP_DIR",
                        os.path.join(os.path.expanduser("~"), ".cache", "sluice-sweep"))


# ----------------------------------------------------------------------------------------
# Input generators: (rng, shape, dtype) -> np.ndarray

def uniform(lo=-1.0, hi=1.0):
  def gen(rng, shape, dtype):
    return rng.uniform(lo, hi, shape).astype(dtype)
  return gen


def ints(lo, hi):
  def gen(rng, shape, dtype):
    return rng.integers(lo, hi, shape).astype(dtype)
  return gen


def masked_sequence(rng, shape, dtype):
  # [batch, time, features]; the last timesteps of row 0 and a middle one of row 1 are
  # all zeros (Masking(0.0) masks them).
  x = rng.uniform(-1, 1, shape).astype(dtype)
  x[0, -2:] = 0
  if shape[0] > 1:
    x[1, 1] = 0
  return x


def padded_tokens(vocab):
  def gen(rng, shape, dtype):
    x = rng.integers(1, vocab, shape).astype(dtype)
    x[0, -2:] = 0
    return x
  return gen


def bools(rng, shape, dtype):
  x = rng.uniform(0, 1, shape) < 0.7
  x[..., 0] = True  # every query sees at least one key
  return x


IMAGE = uniform(0, 255)
UNIFORM = uniform()


class Spec:
  def __init__(self, shape, dtype="float32", gen=UNIFORM):
    self.shape, self.dtype, self.gen = tuple(shape), dtype, gen


def S(*shape, dtype="float32", gen=UNIFORM):
  return Spec(shape, dtype, gen)


# ----------------------------------------------------------------------------------------
# Cases. Each case: name -> (group, [Spec...], build) where build(keras, inputs) returns
# the model's output(s) as Keras symbolic tensors (a functional model is made from them).

CASES = {}


def case(group, name, specs, build):
  assert name not in CASES, name
  CASES[name] = (group, specs if isinstance(specs, list) else [specs], build)


def one(group, name, make_layer, spec, **call_kwargs):
  """A case that applies one layer (make_layer(L) builds it) to one input."""
  case(group, name, spec, lambda k, ins: make_layer(k.layers)(ins[0], **call_kwargs))


def define_layer_cases():
  # --- core ------------------------------------------------------------------------------
  one("core", "Dense", lambda L: L.Dense(8, activation="relu"), S(6))
  one("core", "Dense_3d_input", lambda L: L.Dense(5), S(3, 6))
  one("core", "Dense_lora", lambda L: L.Dense(5, lora_rank=2), S(6))
  one("core", "EinsumDense_ab_bc", lambda L: L.EinsumDense("ab,bc->ac", output_shape=4,
                                                            bias_axes="c"), S(6))
  one("core", "EinsumDense_abc_cde", lambda L: L.EinsumDense(
      "abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de"), S(4, 6))
  one("core", "EinsumDense_abc_cd_abd", lambda L: L.EinsumDense(
      "abc,cd->abd", output_shape=(None, 5), activation="tanh"), S(4, 6))
  one("core", "Embedding", lambda L: L.Embedding(10, 4), S(5, dtype="int32", gen=ints(0, 10)))
  one("core", "Embedding_int64_ids", lambda L: L.Embedding(10, 4),
      S(5, dtype="int64", gen=ints(0, 10)))

  def reversible_embedding(k, ins):
    emb = k.layers.ReversibleEmbedding(10, 4)
    return emb(emb(ins[0]), reverse=True)
  case("core", "ReversibleEmbedding", S(5, dtype="int32", gen=ints(0, 10)),
       reversible_embedding)
  one("core", "Identity", lambda L: L.Identity(), S(4, 3))
  one("core", "Masking", lambda L: L.Masking(0.0), S(4, 3, gen=masked_sequence))

  # --- activations -----------------------------------------------------------------------
  import keras
  names = sorted(n for n in dir(keras.activations)
                 if not n.startswith("_") and n not in ("get", "serialize", "deserialize"))
  for name in names:
    if name == "threshold":
      fn = functools.partial(keras.activations.threshold, threshold=0.1, default_value=-0.5)
      one("activation", "Activation_threshold", lambda L, fn=fn: L.Activation(fn),
          S(4, 6, gen=uniform(-3, 3)))
    else:
      one("activation", "Activation_" + name, lambda L, name=name: L.Activation(name),
          S(4, 6, gen=uniform(-3, 3)))
  one("activation", "ReLU", lambda L: L.ReLU(), S(4, 6))
  one("activation", "ReLU_max_slope_threshold",
      lambda L: L.ReLU(max_value=0.5, negative_slope=0.1, threshold=0.2), S(4, 6))
  one("activation", "LeakyReLU", lambda L: L.LeakyReLU(negative_slope=0.2), S(4, 6))
  one("activation", "PReLU", lambda L: L.PReLU(), S(4, 6))
  one("activation", "PReLU_shared_axes", lambda L: L.PReLU(shared_axes=[1, 2]), S(3, 3, 4))
  one("activation", "ELU", lambda L: L.ELU(alpha=0.5), S(4, 6))
  one("activation", "Softmax", lambda L: L.Softmax(), S(4, 6, gen=uniform(-3, 3)))
  one("activation", "Softmax_axis1", lambda L: L.Softmax(axis=1), S(4, 6))

  def softmax_masked(k, ins):
    return k.layers.Softmax()(ins[0], mask=ins[1])
  case("activation", "Softmax_with_mask", [S(3, 5), S(3, 5, dtype="bool", gen=bools)],
       softmax_masked)

  # --- convolution -----------------------------------------------------------------------
  one("conv", "Conv1D", lambda L: L.Conv1D(4, 3), S(8, 3))
  one("conv", "Conv1D_causal_dilated", lambda L: L.Conv1D(4, 3, padding="causal",
                                                          dilation_rate=2), S(8, 3))
  one("conv", "Conv1D_same_strided", lambda L: L.Conv1D(4, 3, strides=2, padding="same"),
      S(8, 3))
  one("conv", "Conv1D_groups", lambda L: L.Conv1D(4, 3, groups=2), S(8, 4))
  one("conv", "Conv2D", lambda L: L.Conv2D(4, 3, padding="same", activation="relu"),
      S(6, 6, 3))
  one("conv", "Conv2D_valid_strided", lambda L: L.Conv2D(4, 3, strides=2), S(7, 7, 3))
  one("conv", "Conv2D_dilated", lambda L: L.Conv2D(4, 3, dilation_rate=2, padding="same"),
      S(7, 7, 3))
  one("conv", "Conv2D_groups", lambda L: L.Conv2D(4, 3, groups=2), S(6, 6, 4))
  one("conv", "Conv2D_channels_first", lambda L: L.Conv2D(4, 3, data_format="channels_first"),
      S(3, 6, 6))
  one("conv", "Conv3D", lambda L: L.Conv3D(3, 2), S(4, 4, 4, 2))
  one("conv", "Conv3D_same_strided", lambda L: L.Conv3D(3, 3, strides=2, padding="same"),
      S(5, 5, 5, 2))
  one("conv", "Conv1DTranspose", lambda L: L.Conv1DTranspose(3, 3, strides=2), S(5, 2))
  one("conv", "Conv2DTranspose", lambda L: L.Conv2DTranspose(3, 3, strides=2, padding="same"),
      S(4, 4, 2))
  one("conv", "Conv2DTranspose_valid", lambda L: L.Conv2DTranspose(3, 3), S(4, 4, 2))
  one("conv", "Conv2DTranspose_dilated", lambda L: L.Conv2DTranspose(3, 3, dilation_rate=2),
      S(4, 4, 2))
  one("conv", "Conv3DTranspose", lambda L: L.Conv3DTranspose(3, 2, strides=2), S(3, 3, 3, 2))
  one("conv", "SeparableConv1D", lambda L: L.SeparableConv1D(4, 3, depth_multiplier=2),
      S(8, 3))
  one("conv", "SeparableConv2D", lambda L: L.SeparableConv2D(4, 3, padding="same"), S(6, 6, 3))
  one("conv", "DepthwiseConv1D", lambda L: L.DepthwiseConv1D(3, depth_multiplier=2), S(8, 3))
  one("conv", "DepthwiseConv2D", lambda L: L.DepthwiseConv2D(3, strides=2, padding="same"),
      S(6, 6, 3))
  one("conv", "DepthwiseConv2D_dilated", lambda L: L.DepthwiseConv2D(3, dilation_rate=2),
      S(7, 7, 3))

  # --- pooling ---------------------------------------------------------------------------
  for d, shape in ((1, (8, 3)), (2, (6, 6, 3)), (3, (4, 4, 4, 2))):
    for kind in ("Max", "Average"):
      one("pooling", "%sPooling%dD" % (kind, d),
          lambda L, kind=kind, d=d: getattr(L, "%sPooling%dD" % (kind, d))(2), S(*shape))
      one("pooling", "%sPooling%dD_same_strided" % (kind, d),
          lambda L, kind=kind, d=d: getattr(L, "%sPooling%dD" % (kind, d))(
              3, strides=2, padding="same"), S(*shape))
      one("pooling", "Global%sPooling%dD" % (kind, d),
          lambda L, kind=kind, d=d: getattr(L, "Global%sPooling%dD" % (kind, d))(), S(*shape))
      one("pooling", "Global%sPooling%dD_keepdims" % (kind, d),
          lambda L, kind=kind, d=d: getattr(L, "Global%sPooling%dD" % (kind, d))(
              keepdims=True), S(*shape))
    for kind in ("Average", "Max"):
      one("pooling", "Adaptive%sPooling%dD" % (kind, d),
          lambda L, kind=kind, d=d: getattr(L, "Adaptive%sPooling%dD" % (kind, d))(
              (3,) * d), S(*shape))

  # --- normalization ---------------------------------------------------------------------
  one("normalization", "BatchNormalization", lambda L: L.BatchNormalization(), S(4, 4, 3))
  one("normalization", "BatchNormalization_1d", lambda L: L.BatchNormalization(), S(5))
  one("normalization", "BatchNormalization_axis1", lambda L: L.BatchNormalization(axis=1),
      S(3, 4, 4))
  one("normalization", "LayerNormalization", lambda L: L.LayerNormalization(), S(4, 6))
  one("normalization", "LayerNormalization_axes12",
      lambda L: L.LayerNormalization(axis=[1, 2]), S(4, 6))
  one("normalization", "LayerNormalization_rms_scaling",
      lambda L: L.LayerNormalization(rms_scaling=True), S(4, 6))
  one("normalization", "GroupNormalization", lambda L: L.GroupNormalization(groups=2),
      S(4, 4, 4))
  one("normalization", "UnitNormalization", lambda L: L.UnitNormalization(), S(4, 6))
  one("normalization", "RMSNormalization", lambda L: L.RMSNormalization(), S(4, 6))
  one("normalization", "Normalization",
      lambda L: L.Normalization(mean=[0.1, -0.2, 0.3], variance=[0.5, 2.0, 1.5]), S(4, 3))

  def normalization_adapted(k, ins):
    layer = k.layers.Normalization(axis=-1)
    layer.adapt(np.random.default_rng(SEED).normal(0.3, 2.0, (64, 3)).astype(np.float32))
    return layer(ins[0])
  case("normalization", "Normalization_adapted", S(4, 3), normalization_adapted)
  one("normalization", "SpectralNormalization_Dense",
      lambda L: L.SpectralNormalization(L.Dense(4)), S(6))

  # --- regularization (identities in inference) ------------------------------------------
  one("regularization", "Dropout", lambda L: L.Dropout(0.5), S(4, 6))
  one("regularization", "SpatialDropout1D", lambda L: L.SpatialDropout1D(0.5), S(4, 6))
  one("regularization", "SpatialDropout2D", lambda L: L.SpatialDropout2D(0.5), S(4, 4, 3))
  one("regularization", "SpatialDropout3D", lambda L: L.SpatialDropout3D(0.5), S(3, 3, 3, 2))
  one("regularization", "GaussianDropout", lambda L: L.GaussianDropout(0.3), S(4, 6))
  one("regularization", "GaussianNoise", lambda L: L.GaussianNoise(0.3), S(4, 6))
  one("regularization", "AlphaDropout", lambda L: L.AlphaDropout(0.3), S(4, 6))
  one("regularization", "ActivityRegularization", lambda L: L.ActivityRegularization(0.1),
      S(4, 6))

  # --- attention -------------------------------------------------------------------------
  case("attention", "Attention", [S(3, 4), S(5, 4)],
       lambda k, ins: k.layers.Attention()([ins[0], ins[1]]))
  case("attention", "Attention_scale_concat", [S(3, 4), S(5, 4), S(5, 4)],
       lambda k, ins: k.layers.Attention(use_scale=True, score_mode="concat")(list(ins)))
  case("attention", "Attention_causal_scores", [S(4, 4), S(4, 4)],
       lambda k, ins: k.layers.Attention()([ins[0], ins[1]], use_causal_mask=True,
                                           return_attention_scores=True))
  case("attention", "AdditiveAttention", [S(3, 4), S(5, 4), S(5, 4)],
       lambda k, ins: k.layers.AdditiveAttention()(list(ins)))
  case("attention", "MultiHeadAttention_self", S(5, 8),
       lambda k, ins: k.layers.MultiHeadAttention(2, 4)(ins[0], ins[0]))
  case("attention", "MultiHeadAttention_cross_scores", [S(3, 8), S(5, 6)],
       lambda k, ins: k.layers.MultiHeadAttention(2, 4, value_dim=3)(
           ins[0], ins[1], return_attention_scores=True))
  case("attention", "MultiHeadAttention_causal", S(5, 8),
       lambda k, ins: k.layers.MultiHeadAttention(2, 4)(ins[0], ins[0], use_causal_mask=True))
  case("attention", "MultiHeadAttention_bool_mask", [S(3, 8), S(5, 8),
                                                     S(3, 5, dtype="bool", gen=bools)],
       lambda k, ins: k.layers.MultiHeadAttention(2, 4)(ins[0], ins[1],
                                                        attention_mask=ins[2]))
  case("attention", "GroupQueryAttention", S(5, 8),
       lambda k, ins: k.layers.GroupQueryAttention(head_dim=4, num_query_heads=4,
                                                   num_key_value_heads=2)(ins[0], ins[0]))
  case("attention", "GroupQueryAttention_causal", S(5, 8),
       lambda k, ins: k.layers.GroupQueryAttention(head_dim=4, num_query_heads=4,
                                                   num_key_value_heads=2)(
           ins[0], ins[0], use_causal_mask=True))

  # --- recurrent -------------------------------------------------------------------------
  seq = S(5, 3)
  one("recurrent", "SimpleRNN", lambda L: L.SimpleRNN(4), seq)
  one("recurrent", "SimpleRNN_sequences", lambda L: L.SimpleRNN(4, return_sequences=True), seq)
  one("recurrent", "SimpleRNN_unrolled", lambda L: L.SimpleRNN(4, unroll=True), seq)
  one("recurrent", "LSTM", lambda L: L.LSTM(4), seq)
  case("recurrent", "LSTM_sequences_state", seq,
       lambda k, ins: k.layers.LSTM(4, return_sequences=True, return_state=True)(ins[0]))
  one("recurrent", "LSTM_go_backwards", lambda L: L.LSTM(4, go_backwards=True), seq)
  one("recurrent", "LSTM_unrolled", lambda L: L.LSTM(4, unroll=True), seq)
  one("recurrent", "GRU", lambda L: L.GRU(4), seq)
  one("recurrent", "GRU_reset_after_false", lambda L: L.GRU(4, reset_after=False), seq)
  one("recurrent", "GRU_unrolled", lambda L: L.GRU(4, unroll=True, return_sequences=True), seq)
  one("recurrent", "Bidirectional_LSTM", lambda L: L.Bidirectional(L.LSTM(3)), seq)
  one("recurrent", "Bidirectional_GRU_sum_sequences",
      lambda L: L.Bidirectional(L.GRU(3, return_sequences=True), merge_mode="sum"), seq)
  one("recurrent", "RNN_StackedRNNCells",
      lambda L: L.RNN(L.StackedRNNCells([L.LSTMCell(3), L.GRUCell(3)])), seq)
  one("recurrent", "ConvLSTM1D", lambda L: L.ConvLSTM1D(2, 3, padding="same"), S(3, 5, 2))
  one("recurrent", "ConvLSTM2D", lambda L: L.ConvLSTM2D(2, 3), S(3, 4, 4, 2))
  one("recurrent", "ConvLSTM3D", lambda L: L.ConvLSTM3D(2, 2), S(2, 3, 3, 3, 1))
  one("recurrent", "TimeDistributed_Dense", lambda L: L.TimeDistributed(L.Dense(3)), seq)
  one("recurrent", "TimeDistributed_Conv2D", lambda L: L.TimeDistributed(L.Conv2D(2, 3)),
      S(3, 5, 5, 2))
  case("recurrent", "Masking_LSTM", S(5, 3, gen=masked_sequence),
       lambda k, ins: k.layers.LSTM(4, return_sequences=True)(k.layers.Masking(0.0)(ins[0])))
  case("recurrent", "Embedding_mask_zero_GRU", S(5, dtype="int32", gen=padded_tokens(10)),
       lambda k, ins: k.layers.GRU(4)(k.layers.Embedding(10, 3, mask_zero=True)(ins[0])))

  # --- reshaping -------------------------------------------------------------------------
  one("reshaping", "Reshape", lambda L: L.Reshape((3, 4)), S(4, 3))
  one("reshaping", "Reshape_minus1", lambda L: L.Reshape((-1, 2)), S(4, 3))
  one("reshaping", "Flatten", lambda L: L.Flatten(), S(3, 2, 2))
  one("reshaping", "Permute", lambda L: L.Permute((2, 1, 3)), S(3, 2, 4))
  one("reshaping", "RepeatVector", lambda L: L.RepeatVector(3), S(4))
  one("reshaping", "Cropping1D", lambda L: L.Cropping1D((1, 2)), S(6, 3))
  one("reshaping", "Cropping2D", lambda L: L.Cropping2D(((1, 0), (0, 2))), S(5, 5, 2))
  one("reshaping", "Cropping3D", lambda L: L.Cropping3D(1), S(4, 4, 4, 2))
  one("reshaping", "ZeroPadding1D", lambda L: L.ZeroPadding1D((1, 2)), S(4, 3))
  one("reshaping", "ZeroPadding2D", lambda L: L.ZeroPadding2D(((1, 0), (2, 1))), S(3, 3, 2))
  one("reshaping", "ZeroPadding3D", lambda L: L.ZeroPadding3D(1), S(2, 2, 2, 2))
  one("reshaping", "UpSampling1D", lambda L: L.UpSampling1D(2), S(4, 3))
  one("reshaping", "UpSampling2D_nearest", lambda L: L.UpSampling2D(2), S(3, 3, 2))
  one("reshaping", "UpSampling2D_bilinear", lambda L: L.UpSampling2D(2, interpolation="bilinear"),
      S(3, 3, 2))
  one("reshaping", "UpSampling3D", lambda L: L.UpSampling3D(2), S(2, 2, 2, 2))

  # --- merging ---------------------------------------------------------------------------
  for name in ("Concatenate", "Add", "Multiply", "Average", "Maximum", "Minimum", "Subtract"):
    case("merging", name, [S(3, 4), S(3, 4)],
         lambda k, ins, name=name: getattr(k.layers, name)()([ins[0], ins[1]]))
  case("merging", "Concatenate_axis1_three", [S(2, 4), S(3, 4), S(1, 4)],
       lambda k, ins: k.layers.Concatenate(axis=1)(list(ins)))
  case("merging", "Add_three", [S(4), S(4), S(4)], lambda k, ins: k.layers.Add()(list(ins)))
  case("merging", "Dot", [S(4), S(4)], lambda k, ins: k.layers.Dot(axes=1)([ins[0], ins[1]]))
  case("merging", "Dot_normalize", [S(4), S(4)],
       lambda k, ins: k.layers.Dot(axes=1, normalize=True)([ins[0], ins[1]]))
  case("merging", "Dot_3d", [S(3, 4), S(5, 4)],
       lambda k, ins: k.layers.Dot(axes=(2, 2))([ins[0], ins[1]]))

  # --- preprocessing on numeric tensors --------------------------------------------------
  image = S(8, 8, 3, gen=IMAGE)
  one("preprocessing", "Rescaling", lambda L: L.Rescaling(1 / 255.0), image)
  one("preprocessing", "Rescaling_offset", lambda L: L.Rescaling(1 / 127.5, offset=-1), image)
  for interpolation in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                        "gaussian", "mitchellcubic"):
    one("preprocessing", "Resizing_" + interpolation,
        lambda L, i=interpolation: L.Resizing(5, 6, interpolation=i), image)
  one("preprocessing", "Resizing_upscale_bilinear", lambda L: L.Resizing(11, 12), image)
  one("preprocessing", "Resizing_crop_to_aspect_ratio",
      lambda L: L.Resizing(4, 6, crop_to_aspect_ratio=True), image)
  one("preprocessing", "Resizing_pad_to_aspect_ratio",
      lambda L: L.Resizing(4, 6, pad_to_aspect_ratio=True), image)
  one("preprocessing", "CenterCrop", lambda L: L.CenterCrop(5, 4), image)
  one("preprocessing", "Discretization",
      lambda L: L.Discretization(bin_boundaries=[-0.5, 0.0, 0.5]), S(6))
  one("preprocessing", "Discretization_one_hot",
      lambda L: L.Discretization(bin_boundaries=[-0.5, 0.0, 0.5], output_mode="one_hot"), S(6))
  for mode in ("one_hot", "multi_hot", "count"):
    one("preprocessing", "CategoryEncoding_" + mode,
        lambda L, mode=mode: L.CategoryEncoding(num_tokens=6, output_mode=mode),
        S(1 if mode == "one_hot" else 4, dtype="int32", gen=ints(0, 6)))
  one("preprocessing", "Hashing_int", lambda L: L.Hashing(num_bins=7),
      S(4, dtype="int64", gen=ints(0, 1000)))
  one("preprocessing", "Hashing_int_salted", lambda L: L.Hashing(num_bins=7, salt=[13, 17]),
      S(4, dtype="int64", gen=ints(0, 1000)))
  case("preprocessing", "HashedCrossing_int",
       [S(dtype="int64", gen=ints(0, 100)), S(dtype="int64", gen=ints(0, 100))],
       lambda k, ins: k.layers.HashedCrossing(num_bins=5)((ins[0], ins[1])))
  one("preprocessing", "IntegerLookup",
      lambda L: L.IntegerLookup(vocabulary=[3, 5, 7, 11]),
      S(5, dtype="int64", gen=ints(0, 12)))
  one("preprocessing", "IntegerLookup_multi_hot",
      lambda L: L.IntegerLookup(vocabulary=[3, 5, 7, 11], output_mode="multi_hot"),
      S(5, dtype="int64", gen=ints(0, 12)))
  one("preprocessing", "STFTSpectrogram",
      lambda L: L.STFTSpectrogram(mode="log", frame_length=16, frame_step=8, fft_length=16,
                                 window=None),
      S(64, 1))
  one("preprocessing", "MelSpectrogram",
      lambda L: L.MelSpectrogram(fft_length=32, sequence_stride=16, num_mel_bins=8,
                                 sampling_rate=8000), S(128))
  # Image processing that is deterministic in inference.
  one("preprocessing", "AutoContrast", lambda L: L.AutoContrast(value_range=(0, 255)), image)
  one("preprocessing", "Equalization", lambda L: L.Equalization(value_range=(0, 255)), image)
  one("preprocessing", "Solarization", lambda L: L.Solarization(threshold_factor=(0.5, 0.5),
                                                                value_range=(0, 255)), image)
  one("preprocessing", "ContrastLimitedAdaptiveHistogramEqualization",
      lambda L: L.ContrastLimitedAdaptiveHistogramEqualization(value_range=(0, 255),
                                                               tile_grid_size=(2, 2)), image)
  one("preprocessing", "RandomCrop_inference", lambda L: L.RandomCrop(5, 4), image)
  # Random augmentation: identities in inference (training=False), a graph of one Identity.
  augmentations = {
      "RandomFlip": lambda L: L.RandomFlip(),
      "RandomRotation": lambda L: L.RandomRotation(0.2),
      "RandomZoom": lambda L: L.RandomZoom(0.2),
      "RandomTranslation": lambda L: L.RandomTranslation(0.1, 0.1),
      "RandomContrast": lambda L: L.RandomContrast(0.2),
      "RandomBrightness": lambda L: L.RandomBrightness(0.2),
      "RandomShear": lambda L: L.RandomShear(0.2),
      "RandomHue": lambda L: L.RandomHue(0.2),
      "RandomSaturation": lambda L: L.RandomSaturation(0.2),
      "RandomSharpness": lambda L: L.RandomSharpness(0.2),
      "RandomGrayscale": lambda L: L.RandomGrayscale(),
      "RandomInvert": lambda L: L.RandomInvert(),
      "RandomPosterization": lambda L: L.RandomPosterization(factor=4),
      "RandomColorDegeneration": lambda L: L.RandomColorDegeneration(0.2),
      "RandomColorJitter": lambda L: L.RandomColorJitter(brightness_factor=0.2),
      "RandomPerspective": lambda L: L.RandomPerspective(),
      "RandomErasing": lambda L: L.RandomErasing(),
      "RandomGaussianBlur": lambda L: L.RandomGaussianBlur(),
      "RandomElasticTransform": lambda L: L.RandomElasticTransform(),
      "AugMix": lambda L: L.AugMix(),
      "CutMix": lambda L: L.CutMix(),
      "MixUp": lambda L: L.MixUp(),
      "RandAugment": lambda L: L.RandAugment(),
  }
  for name, make in augmentations.items():
    one("augmentation", name, make, image)

  # --- dtypes (policies) -----------------------------------------------------------------
  for policy in ("float64", "float16", "mixed_float16", "mixed_bfloat16"):
    in_dtype = policy if policy in ("float64", "float16") else "float32"
    one("dtype", "Dense_" + policy, lambda L, p=policy: L.Dense(5, activation="relu", dtype=p),
        S(6, dtype=in_dtype))
    one("dtype", "Conv2D_" + policy, lambda L, p=policy: L.Conv2D(3, 3, dtype=p),
        S(5, 5, 2, dtype=in_dtype))
    one("dtype", "LayerNormalization_" + policy,
        lambda L, p=policy: L.LayerNormalization(dtype=p), S(4, 6, dtype=in_dtype))
    one("dtype", "BatchNormalization_" + policy,
        lambda L, p=policy: L.BatchNormalization(dtype=p), S(4, 4, 3, dtype=in_dtype))
    one("dtype", "Softmax_" + policy, lambda L, p=policy: L.Softmax(dtype=p),
        S(4, 6, dtype=in_dtype))
    one("dtype", "LSTM_unrolled_" + policy, lambda L, p=policy: L.LSTM(4, unroll=True, dtype=p),
        S(5, 3, dtype=in_dtype))
    case("dtype", "MultiHeadAttention_" + policy, S(5, 8, dtype=in_dtype),
         lambda k, ins, p=policy: k.layers.MultiHeadAttention(2, 4, dtype=p)(ins[0], ins[0]))


# keras.applications: name -> candidate input sizes, smallest valid first.
APPLICATIONS = {
    "ConvNeXtTiny": 32, "ConvNeXtSmall": 32, "ConvNeXtBase": 32, "ConvNeXtLarge": 32,
    "ConvNeXtXLarge": 32,
    "DenseNet121": 32, "DenseNet169": 32, "DenseNet201": 32,
    "EfficientNetB0": 32, "EfficientNetB1": 32, "EfficientNetB2": 32, "EfficientNetB3": 32,
    "EfficientNetB4": 32, "EfficientNetB5": 32, "EfficientNetB6": 32, "EfficientNetB7": 32,
    "EfficientNetV2B0": 32, "EfficientNetV2B1": 32, "EfficientNetV2B2": 32,
    "EfficientNetV2B3": 32, "EfficientNetV2S": 32, "EfficientNetV2M": 32, "EfficientNetV2L": 32,
    "InceptionResNetV2": 75, "InceptionV3": 75,
    "MobileNet": 32, "MobileNetV2": 32, "MobileNetV3Small": 32, "MobileNetV3Large": 32,
    "NASNetMobile": 32, "NASNetLarge": 32,
    "ResNet50": 32, "ResNet101": 32, "ResNet152": 32,
    "ResNet50V2": 32, "ResNet101V2": 32, "ResNet152V2": 32,
    "VGG16": 32, "VGG19": 32, "Xception": 71,
}


# ----------------------------------------------------------------------------------------
# Freezing and TensorFlow's reference outputs.

def summarize_exception(e):
  """The informative line of a (often many-line) TensorFlow / Keras exception."""
  noise = ("File ", "Detected at", "Node:", "Original stack", "[[", "in user code",
           "Graph execution error", "raise ", "lambda ", "Arguments received", "\u2022",
           "Exception encountered when calling", "return ", "outputs = ", "WARNING")
  for line in str(e).splitlines():
    line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
    if (line and not line.startswith(noise) and not line.endswith(":") and
        "Exception encountered when calling" not in line):
      return line
  return str(e).strip().splitlines()[0] if str(e).strip() else ""


class FreezeTimeout(Exception):
  pass


def _alarm(signum, frame):
  raise FreezeTimeout()


def randomize_constant_weights(model, rng):
  """Moves weights that are initialised to a constant (biases, BN / LN gamma and beta,
  moving means, PReLU alphas) off it, and variances to [0.5, 1.5], so that they matter."""
  for w in model.weights:
    value = np.asarray(w.numpy())
    if value.dtype.kind != "f" or value.size == 0:
      continue
    path = getattr(w, "path", w.name)
    if "variance" in path:
      w.assign(rng.uniform(0.5, 1.5, value.shape).astype(value.dtype))
    elif np.all(value == value.flat[0]):
      w.assign((value + rng.normal(0, 0.1, value.shape)).astype(value.dtype))


def freeze(fn, signature):
  """Returns {variant: (graph_def, input names, output names)}: "frozen" when the graph
  has no control flow, else "lowered" and "functional"."""
  import tensorflow as tf
  from tensorflow.python.framework.convert_to_constants import (
      convert_variables_to_constants_v2)
  concrete = tf.function(fn).get_concrete_function(*signature)

  def convert(lower):
    frozen = convert_variables_to_constants_v2(concrete, lower_control_flow=lower)
    gd = frozen.graph.as_graph_def()
    inputs = [t.name for t in frozen.inputs]
    outputs = [t.name for t in frozen.outputs]
    return gd, inputs, outputs

  functional = convert(False)
  gd = functional[0]
  has_cf = (any(n.op in CONTROL_FLOW_OPS for n in gd.node) or len(gd.library.function) > 0)
  if not has_cf:
    return {"frozen": functional}
  return {"lowered": convert(True), "functional": functional}


def run_tf(graph_def, inputs, outputs, feeds):
  import tensorflow as tf
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(graph_def, name="")
  config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=2,
                                    inter_op_parallelism_threads=1)
  with tf.compat.v1.Session(graph=graph, config=config) as session:
    return session.run(outputs, feed_dict=dict(zip(inputs, feeds)))


def write_case(name, variant, group, gd, inputs, outputs, feeds, want, extra):
  out = cache_dir()
  base = name if variant == "frozen" else "%s.%s" % (name, variant)
  with open(os.path.join(out, base + ".pb"), "wb") as f:
    f.write(gd.SerializeToString())
  input_files, output_files = [], []
  for i, x in enumerate(feeds):
    input_files.append("%s.input_%d.npy" % (base, i))
    np.save(os.path.join(out, input_files[-1]), x)
  output_dtypes = []
  for i, y in enumerate(want):
    y = np.asarray(y)
    output_dtypes.append(y.dtype.name)
    if y.dtype.name == "bfloat16":  # .npy has no bfloat16; Sluice writes it as float32 too
      y = y.astype(np.float32)
    output_files.append("%s.tf_output_%d.npy" % (base, i))
    np.save(os.path.join(out, output_files[-1]), y)
  manifest = dict(case=name, variant=variant, group=group, pb=base + ".pb",
                  inputs=[t.split(":")[0] for t in inputs], input_files=input_files,
                  outputs=outputs, output_files=output_files, output_dtypes=output_dtypes,
                  tf_ops=sorted({n.op for n in gd.node} |
                                {n.op for f in gd.library.function for n in f.node_def}),
                  **extra)
  with open(os.path.join(out, base + ".json"), "w") as f:
    json.dump(manifest, f, indent=1)
  return manifest


def load_manifests(name):
  out, manifests = cache_dir(), []
  for variant in ("frozen", "lowered", "functional"):
    base = name if variant == "frozen" else "%s.%s" % (name, variant)
    path = os.path.join(out, base + ".json")
    if os.path.exists(path) and os.path.exists(os.path.join(out, base + ".pb")):
      with open(path) as f:
        manifests.append(json.load(f))
  return manifests


def generate_layer_case(name):
  import keras
  import tensorflow as tf
  group, specs, build = CASES[name]
  keras.backend.clear_session()
  keras.utils.set_random_seed(SEED)
  rng = np.random.default_rng(SEED)
  ins = [keras.Input(shape=s.shape, batch_size=LAYER_BATCH, dtype=s.dtype,
                     name="input_%d" % i) for i, s in enumerate(specs)]
  signature = [tf.TensorSpec((LAYER_BATCH,) + s.shape, s.dtype, name="input_%d" % i)
               for i, s in enumerate(specs)]
  try:
    outs = build(keras, ins)
    model = keras.Model(ins if len(ins) > 1 else ins[0], outs)
  except ValueError as e:
    if "is part of a cycle" not in str(e):
      raise
    # Some layers (Equalization) cannot be traced symbolically into a functional model:
    # call the layer on the tf.function's tensors directly (no weights to randomize).
    keras.backend.clear_session()
    keras.utils.set_random_seed(SEED)
    model = None
    fn = lambda *xs: build(keras, list(xs))  # noqa: E731
  if model is not None:
    randomize_constant_weights(model, rng)
    if len(specs) > 1:
      fn = lambda *xs: model(list(xs), training=False)  # noqa: E731
    else:
      fn = lambda x: model(x, training=False)  # noqa: E731
  feeds = [s.gen(rng, (LAYER_BATCH,) + s.shape, s.dtype) for s in specs]
  t0 = time.time()
  variants = freeze(fn, signature)
  freeze_s = time.time() - t0
  manifests = []
  for variant, (gd, inputs, outputs) in variants.items():
    want = run_tf(gd, inputs, outputs, feeds)
    manifests.append(write_case(name, variant, group, gd, inputs, outputs, feeds, want,
                                dict(params=int(model.count_params()) if model else 0,
                                     freeze_s=round(freeze_s, 2))))
  return manifests


def generate_app(name, size):
  import keras
  import tensorflow as tf
  keras.backend.clear_session()
  keras.utils.set_random_seed(SEED)
  rng = np.random.default_rng(SEED)
  constructor = getattr(keras.applications, name)
  t0 = time.time()
  model = constructor(weights=None, input_shape=(size, size, 3), classes=1000,
                      classifier_activation=None)
  signature = [tf.TensorSpec((1, size, size, 3), tf.float32, name="input_0")]
  variants = freeze(lambda x: model(x, training=False), signature)
  freeze_s = time.time() - t0
  feeds = [rng.uniform(-1, 1, (1, size, size, 3)).astype(np.float32)]
  if name.startswith(("EfficientNet", "ConvNeXt", "MobileNetV3")):
    # These include their own preprocessing (Rescaling / Normalization) of [0, 255] input.
    feeds = [rng.uniform(0, 255, (1, size, size, 3)).astype(np.float32)]
  manifests = []
  for variant, (gd, inputs, outputs) in variants.items():
    want = run_tf(gd, inputs, outputs, feeds)
    manifests.append(write_case("app_" + name, variant, "applications", gd, inputs, outputs,
                                feeds, want, dict(params=int(model.count_params()),
                                                  freeze_s=round(freeze_s, 2),
                                                  input_size=size)))
  del model
  return manifests


# ----------------------------------------------------------------------------------------
# Running Sluice and comparing.

TOLERANCES = {"float16": 1e-2, "bfloat16": 3e-2}


_REGISTERED = {}


def registered_ops(sluice):
  if sluice not in _REGISTERED:
    listing = subprocess.run([sluice, "ops", "--json"], capture_output=True, text=True,
                             check=True).stdout
    _REGISTERED[sluice] = {entry["op"] for entry in json.loads(listing)["ops"]}
  return _REGISTERED[sluice]


def sluice_inspect(sluice, pb):
  result = subprocess.run([sluice, "inspect", "--json", pb], capture_output=True, text=True,
                          timeout=SLUICE_TIMEOUT_S)
  try:
    info = json.loads(result.stdout)
  except ValueError:
    return dict(error=(result.stderr.strip() or result.stdout.strip())[-2000:],
                returncode=result.returncode)
  return dict(unregistered=sorted(u["op"] for u in info.get("unregistered_ops", [])),
              no_kernel=info.get("ops_without_kernel", {}).get("CPU", []),
              can_run=info.get("can_run", True))


def first_error(text):
  lines = [l for l in text.strip().splitlines() if l.strip()]
  for l in lines:
    if "error" in l.lower() or "failed" in l.lower() or "check" in l.lower():
      return l.strip()
  return lines[-1].strip() if lines else ""


def compare(got, want, tf_dtype):
  """Returns (ok, message, max_abs_error)."""
  if got.shape != want.shape:
    return False, "shape %s, TensorFlow %s" % (got.shape, want.shape), None
  kind = want.dtype.kind
  if kind in "fc":
    if got.dtype != want.dtype:
      return False, "dtype %s, TensorFlow %s" % (got.dtype, tf_dtype), None
    tol = TOLERANCES.get(tf_dtype, 1e-4)
    g, w = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    err = np.where(both_nan, 0.0, np.abs(g - w))
    err = np.where(np.isnan(err), np.inf, err)
    max_abs = float(err.max()) if err.size else 0.0
    scale = float(np.max(np.abs(np.nan_to_num(w)))) if w.size else 0.0
    # tol absolute + tol relative; the absolute part shrinks with outputs whose largest
    # magnitude is below 1 (random-weight applications give logits of 1e-6 .. 1e-21, where
    # a fixed 1e-4 would accept anything).
    atol = tol * min(1.0, scale) if scale > 0 else tol
    bad = err > atol + tol * np.abs(np.nan_to_num(w))
    msg = ("max abs error %.3g, %.3g relative to max |tf| %.3g; %d/%d elements over "
           "%.3g+%g*|tf|" % (max_abs, max_abs / scale if scale else max_abs, scale,
                             int(bad.sum()), bad.size, atol, tol))
    return not bad.any(), msg, max_abs
  if got.dtype != want.dtype:
    return False, "dtype %s, TensorFlow %s" % (got.dtype, want.dtype), None
  diff = int(np.sum(got != want))
  return diff == 0, "%d/%d elements differ (exact compare)" % (diff, want.size), None


def check_manifest(sluice, manifest):
  out = cache_dir()
  pb = os.path.join(out, manifest["pb"])
  result = dict(case=manifest["case"], variant=manifest["variant"], group=manifest["group"],
                params=manifest.get("params"), freeze_s=manifest.get("freeze_s"),
                input_size=manifest.get("input_size"), tf_ops=manifest.get("tf_ops", []))
  try:
    result["inspect"] = sluice_inspect(sluice, pb)
  except subprocess.TimeoutExpired:
    result["inspect"] = dict(error="sluice inspect timed out")
  # `sluice inspect` does not look inside the function library (While / If bodies): add
  # the ops there that Sluice does not register.
  unregistered = set(result["inspect"].get("unregistered", []))
  unregistered |= {op for op in result["tf_ops"] if op not in registered_ops(sluice)}
  result["inspect"]["unregistered"] = sorted(unregistered)
  cmd = [sluice, "run", pb]
  for name, f in zip(manifest["inputs"], manifest["input_files"]):
    cmd += ["--input", "%s=%s" % (name, os.path.join(out, f))]
  for o in manifest["outputs"]:
    node, index = o.split(":")
    cmd += ["--output", node if index == "0" else o]
  with tempfile.TemporaryDirectory() as tmp:
    cmd += ["--save-outputs", tmp]
    t0 = time.time()
    try:
      run = subprocess.run(cmd, capture_output=True, text=True, timeout=SLUICE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
      result.update(status="FAIL", kind="timeout",
                    error="sluice run timed out after %ds" % SLUICE_TIMEOUT_S)
      return result
    result["sluice_s"] = round(time.time() - t0, 2)
    if run.returncode < 0:
      sig = signal.Signals(-run.returncode).name
      result.update(status="FAIL", kind="crash",
                    error="crash (%s): %s" % (sig, first_error(run.stderr + run.stdout)))
      return result
    if run.returncode != 0:
      error = first_error(run.stderr) or first_error(run.stdout)
      error = error.replace(pb + ": ", "")
      kind = "error"
      if "Op type not registered" in error or "not registered" in error:
        kind = "unregistered"
      elif "kernel" in error.lower():
        kind = "no_kernel"
      result.update(status="FAIL", kind=kind, error=error)
      return result
    messages, ok_all, worst = [], True, 0.0
    for i, f in enumerate(manifest["output_files"]):
      path = os.path.join(tmp, "out_%d.npy" % i)
      if not os.path.exists(path):
        ok_all = False
        messages.append("output %d missing" % i)
        continue
      want = np.load(os.path.join(out, f))
      dtypes = manifest.get("output_dtypes") or []
      ok, message, max_abs = compare(np.load(path), want,
                                     dtypes[i] if i < len(dtypes) else want.dtype.name)
      ok_all &= ok
      if max_abs is not None:
        worst = max(worst, max_abs)
      messages.append("out %d: %s" % (i, message))
  result["compare"] = messages
  result["max_abs_error"] = worst
  if ok_all:
    result.update(status="PASS")
  else:
    result.update(status="FAIL", kind="mismatch", error="; ".join(messages))
  return result


# ----------------------------------------------------------------------------------------
# Report.

def short(error):
  """sluice's error without the advice that every unregistered-op error ends with, and
  without the node lists of unregistered ops (results.json keeps the whole message)."""
  error = re.sub(r"; Sluice cannot run this graph \('sluice inspect'.*$", "", error)
  return re.sub(r" \(nodes? [^()]*\)", "", error)


def label(r):
  return r["case"] if r["variant"] == "frozen" else "%s [%s]" % (r["case"], r["variant"])


def op_note(op):
  return " (in progress)" if IN_PROGRESS.match(op) else ""


def write_report(results, path, sluice, elapsed):
  lines = []
  passed = [r for r in results if r["status"] == "PASS"]
  failed = [r for r in results if r["status"] == "FAIL"]
  skipped = [r for r in results if r["status"] == "SKIP"]
  lines.append("# Keras 3 sweep through Sluice")
  lines.append("")
  lines.append("Generated by tests/keras_sweep/sweep_keras.py with %s, cache %s; %.0f s." %
               (sluice, cache_dir(), elapsed))
  lines.append("")
  lines.append("Graphs: %d run, %d PASS, %d FAIL; %d cases SKIP (could not be built or "
               "frozen in TensorFlow, or too slow to freeze)." %
               (len(passed) + len(failed), len(passed), len(failed), len(skipped)))
  lines.append("A case with control flow is frozen twice: [lowered] (lower_control_flow=True) "
               "and [functional] (lower_control_flow=False).")
  lines.append("")

  # Aggregate: missing ops, counted over distinct cases (not variants).
  blocked = {}  # op -> set of cases
  dtype_gaps = {}  # "Op (T=x)" -> set of cases
  for r in results:
    info = r.get("inspect") or {}
    for op in info.get("unregistered", []):
      blocked.setdefault(op, set()).add(r["case"])
    unregistered = set(info.get("unregistered", []))
    for entry in info.get("no_kernel", []):
      if entry.split(" ")[0] not in unregistered:
        dtype_gaps.setdefault(entry, set()).add(r["case"])
  lines.append("## Missing ops (not registered), by number of cases whose graph has them")
  lines.append("")
  if blocked:
    lines.append("| op | cases | which |")
    lines.append("|---|---|---|")
    for op, cases in sorted(blocked.items(), key=lambda kv: (-len(kv[1]), kv[0])):
      names = sorted(cases)
      which = ", ".join(names[:8]) + (", ... (+%d)" % (len(names) - 8) if len(names) > 8
                                      else "")
      lines.append("| %s%s | %d | %s |" % (op, op_note(op), len(cases), which))
    sole = {}
    for r in failed:
      un = (r.get("inspect") or {}).get("unregistered", [])
      open_ops = [op for op in un if not IN_PROGRESS.match(op)]
      if un and not open_ops:
        sole.setdefault("only in-progress ops", set()).add(r["case"])
      elif len(open_ops) == 1:
        sole.setdefault(open_ops[0], set()).add(r["case"])
    if sole:
      lines.append("")
      lines.append("Cases that a single missing op (ignoring in-progress ones) blocks: " +
                   "; ".join("%s: %d" % (op, len(c)) for op, c in
                             sorted(sole.items(), key=lambda kv: -len(kv[1]))))
  else:
    lines.append("None.")
  lines.append("")
  lines.append("## Missing dtype kernels (op registered, no CPU kernel for the dtype)")
  lines.append("")
  if dtype_gaps:
    for entry, cases in sorted(dtype_gaps.items(), key=lambda kv: (-len(kv[1]), kv[0])):
      lines.append("- %s%s: %d case(s): %s" % (entry, op_note(entry.split(" ")[0]),
                                              len(cases), ", ".join(sorted(cases))))
  else:
    lines.append("None.")
  lines.append("")
  lines.append("## Numerical mismatches")
  lines.append("")
  mism = [r for r in failed if r.get("kind") == "mismatch"]
  if mism:
    for r in mism:
      lines.append("- %s: %s" % (label(r), r["error"]))
  else:
    lines.append("None.")
  lines.append("")
  lines.append("## Crashes, timeouts and other errors")
  lines.append("")
  other = [r for r in failed if r.get("kind") not in ("mismatch", "unregistered")]
  if other:
    for r in other:
      lines.append("- %s (%s): %s" % (label(r), r.get("kind"), short(r["error"])))
  else:
    lines.append("None.")
  lines.append("")
  lines.append("## Failures")
  lines.append("")
  for r in failed:
    un = (r.get("inspect") or {}).get("unregistered", [])
    extra = ("  [all unregistered: %s]" % ", ".join(op + op_note(op) for op in un)
             if len(un) > 1 else "")
    lines.append("- %s: FAIL: %s%s" % (label(r), short(r["error"]), extra))
  lines.append("")
  lines.append("## Skipped (TensorFlow / Keras side)")
  lines.append("")
  for r in skipped:
    lines.append("- %s: %s" % (r["case"], r["error"]))
  if not skipped:
    lines.append("None.")
  lines.append("")
  lines.append("## Passes")
  lines.append("")
  by_group = {}
  for r in passed:
    by_group.setdefault(r["group"], []).append(r)
  for group, rs in by_group.items():
    lines.append("- %s (%d): %s" % (group, len(rs), ", ".join(
        label(r) + ("" if not r.get("max_abs_error") else " (%.2g)" % r["max_abs_error"])
        for r in rs)))
  lines.append("")
  apps = [r for r in results if r["group"] == "applications" and r["status"] != "SKIP"]
  if apps:
    lines.append("## Applications detail")
    lines.append("")
    lines.append("| model | input | params | build+freeze s | sluice s | result |")
    lines.append("|---|---|---|---|---|---|")
    for r in apps:
      lines.append("| %s | %s | %s | %s | %s | %s |" % (
          label(r), r.get("input_size"), r.get("params"), r.get("freeze_s"),
          r.get("sluice_s", "-"), r["status"] if r["status"] == "PASS" else
          "FAIL: " + short(r["error"])[:160]))
  with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")


# ----------------------------------------------------------------------------------------

def record_skip(name, group, error):
  """A case TensorFlow / Keras could not build or freeze: remembered in <case>.skip.json
  (so --sluice-only reports it too) and returned as a result."""
  result = dict(case=name, variant="frozen", group=group, status="SKIP", error=error)
  with open(os.path.join(cache_dir(), name + ".skip.json"), "w") as f:
    json.dump(result, f, indent=1)
  return result


def cached_jobs():
  """(name, group) of every case in the cache, for --sluice-only (no Keras import)."""
  jobs = {}
  for f in sorted(os.listdir(cache_dir())):
    if f.endswith(".json") and f != "results.json":
      with open(os.path.join(cache_dir(), f)) as fp:
        data = json.load(fp)
      jobs.setdefault(data["case"], data["group"])
  order = {"applications": 1}
  return sorted(jobs.items(), key=lambda kv: order.get(kv[1], 0))


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--sluice", default="/tmp/sweep_sluice")
  parser.add_argument("--no-apps", action="store_true")
  parser.add_argument("--only-apps", action="store_true")
  parser.add_argument("--include-slow", action="store_true")
  parser.add_argument("--filter", default="", help="regex on case names")
  parser.add_argument("--reuse", action="store_true")
  parser.add_argument("--sluice-only", action="store_true")
  parser.add_argument("--list", action="store_true")
  parser.add_argument("--report", default="/tmp/keras_sweep_report.md")
  args = parser.parse_args()

  os.makedirs(cache_dir(), exist_ok=True)
  pattern = re.compile(args.filter)
  if args.sluice_only:
    jobs = [(name, group, None) for name, group in cached_jobs()
            if pattern.search(name) and not (args.no_apps and group == "applications") and
            not (args.only_apps and group != "applications")]
  else:
    define_layer_cases()
    names = [] if args.only_apps else [n for n in CASES if pattern.search(n)]
    apps = [] if args.no_apps else [a for a in APPLICATIONS if pattern.search("app_" + a)]
    jobs = ([(n, CASES[n][0], None) for n in names] +
            [("app_" + a, "applications", a) for a in apps])
  if args.list:
    print("\n".join(name for name, _, _ in jobs))
    return
  if not args.sluice_only:
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(2)
    tf.config.threading.set_inter_op_parallelism_threads(1)

  start = time.time()
  results = []
  for name, group, app in jobs:
    manifests = load_manifests(name) if (args.reuse or args.sluice_only) else []
    gen_s = 0.0
    if not manifests and args.sluice_only:
      path = os.path.join(cache_dir(), name + ".skip.json")
      if os.path.exists(path):
        with open(path) as f:
          results.append(json.load(f))
      continue
    if not manifests:
      if app and app in SLOW_APPS and not args.include_slow:
        results.append(record_skip(name, group, "skipped: build + freeze took over %ds on "
                                   "the 2-core machine (SLOW_APPS)" % FREEZE_LIMIT_S))
        print("%-48s SKIP (slow)" % name, flush=True)
        continue
      t0 = time.time()
      try:
        if app:
          signal.signal(signal.SIGALRM, _alarm)
          signal.alarm(FREEZE_LIMIT_S)
          try:
            manifests = generate_app(app, APPLICATIONS[app])
          finally:
            signal.alarm(0)
        else:
          manifests = generate_layer_case(name)
      except FreezeTimeout:
        results.append(record_skip(name, group, "skipped: build + freeze took over %ds" %
                                   FREEZE_LIMIT_S))
        print("%-48s SKIP (build + freeze over %ds)" % (name, FREEZE_LIMIT_S), flush=True)
        continue
      except Exception as e:  # noqa: BLE001: any Keras / TF failure is reported as a SKIP
        msg = "%s: %s" % (type(e).__name__, summarize_exception(e))
        results.append(record_skip(name, group, "TensorFlow/Keras: " + msg[:300]))
        print("%-48s SKIP (%s)" % (name, msg[:120]), flush=True)
        continue
      finally:
        gc.collect()
      gen_s = time.time() - t0
      stale = os.path.join(cache_dir(), name + ".skip.json")
      if os.path.exists(stale):
        os.remove(stale)
    for manifest in manifests:
      r = check_manifest(args.sluice, manifest)
      results.append(r)
      print("%-48s %s %s(%.1fs) %s" % (label(r), r["status"],
                                      "" if r["status"] == "PASS" else r.get("kind", "") + " ",
                                      gen_s, r.get("error", "")[:200]), flush=True)
  elapsed = time.time() - start
  with open(os.path.join(cache_dir(), "results.json"), "w") as f:
    json.dump(results, f, indent=1)
  write_report(results, args.report, args.sluice, elapsed)
  print("report: %s" % args.report)


if __name__ == "__main__":
  main()
