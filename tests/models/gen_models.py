"""Generates the whole-model conformance and benchmark set on demand (not committed).

For each model: a frozen GraphDef (random weights from a fixed seed), an input batch and
TensorFlow's output on it, written to $SLUICE_MODEL_DIR (default ~/.cache/sluice-models):

  <name>.pb            frozen GraphDef; input node "input", output node "output"
  <name>.input.npy     float32 input, batch 2
  <name>.tf_output.npy TensorFlow's output for it (tf.compat.v1.Session on the same .pb)

Models: mobilenet_v2, resnet50, inception_v3, efficientnet_b0 (tf.keras.applications,
weights=None, include_top=True with logits out, inference mode) and transformer_encoder (one encoder block
of width 256, 4 heads, sequence 128, written with MatMul / BatchMatMulV2 / Softmax / layer
norm from Mean, SquaredDifference and Rsqrt / GELU through Erf, as frozen BERT-style
graphs contain them), transformer_small (the same block at width 64, 2 heads, sequence 16)
and tiny_mlp (two dense layers, 32 -> 64 -> 10): the last two are for latency and threading
benchmarks, where a step takes tens of microseconds.

Usage: python3 tests/models/gen_models.py [name ...]   (default: all)
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

SEED = 20261130
BATCH = 2


def model_dir():
  return os.environ.get("SLUICE_MODEL_DIR",
                        os.path.join(os.path.expanduser("~"), ".cache", "sluice-models"))


def keras_app(constructor, size):
  def build():
    # Logits rather than softmax: with random weights the probabilities are all close to
    # 1/1000, which would hide most errors.
    model = constructor(weights=None, input_shape=(size, size, 3), classes=1000,
                        classifier_activation=None)
    return model, [None, size, size, 3]
  return build


def transformer_encoder(width=256, heads=4, seq=128, hidden=1024):
  head = width // heads
  rng = np.random.default_rng(SEED)

  def weight(*shape):
    scale = 1.0 / np.sqrt(shape[0])
    return tf.constant(rng.normal(0, scale, shape).astype(np.float32))

  wq, wk, wv, wo = (weight(width, width) for _ in range(4))
  bq, bk, bv, bo = (weight(width) * 0.1 for _ in range(4))
  w1, b1, w2, b2 = weight(width, hidden), weight(hidden) * 0.1, weight(hidden, width), \
      weight(width) * 0.1
  g1, be1, g2, be2 = (tf.constant(1 + 0.1 * rng.normal(size=width).astype(np.float32)),
                      tf.constant(0.1 * rng.normal(size=width).astype(np.float32)),
                      tf.constant(1 + 0.1 * rng.normal(size=width).astype(np.float32)),
                      tf.constant(0.1 * rng.normal(size=width).astype(np.float32)))

  def layer_norm(x, gamma, beta):
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    variance = tf.reduce_mean(tf.math.squared_difference(x, mean), axis=-1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(variance + 1e-6) * gamma + beta

  def split_heads(x):
    x = tf.reshape(x, [-1, seq, heads, head])
    return tf.transpose(x, [0, 2, 1, 3])

  def block(x):
    q = split_heads(tf.matmul(x, wq) + bq)
    k = split_heads(tf.matmul(x, wk) + bk)
    v = split_heads(tf.matmul(x, wv) + bv)
    scores = tf.matmul(q, k, transpose_b=True) * (1.0 / np.sqrt(head))
    attention = tf.matmul(tf.nn.softmax(scores, axis=-1), v)
    attention = tf.reshape(tf.transpose(attention, [0, 2, 1, 3]), [-1, seq, width])
    x = layer_norm(x + tf.matmul(attention, wo) + bo, g1, be1)
    h = tf.matmul(x, w1) + b1
    h = 0.5 * h * (1.0 + tf.math.erf(h / np.sqrt(2.0)))
    return layer_norm(x + tf.matmul(h, w2) + b2, g2, be2)

  return block, [None, seq, width]


def transformer_small():
  # A serving-sized block (a few tens of microseconds a step): where threading overheads,
  # not arithmetic, decide the latency.
  return transformer_encoder(width=64, heads=2, seq=16, hidden=256)


def tiny_mlp():
  # Two dense layers on a 32-wide input: a step of a few microseconds of arithmetic.
  rng = np.random.default_rng(SEED)
  w1 = tf.constant(rng.normal(0, 0.2, [32, 64]).astype(np.float32))
  b1 = tf.constant(rng.normal(0, 0.1, [64]).astype(np.float32))
  w2 = tf.constant(rng.normal(0, 0.2, [64, 10]).astype(np.float32))
  b2 = tf.constant(rng.normal(0, 0.1, [10]).astype(np.float32))

  def mlp(x):
    return tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2

  return mlp, [None, 32]


# Models written directly in TensorFlow ops (no Keras model object): name -> builder
# returning (function, input shape).
FUNCTION_MODELS = {
    "transformer_encoder": transformer_encoder,
    "transformer_small": transformer_small,
    "tiny_mlp": tiny_mlp,
}


MODELS = {
    "mobilenet_v2": keras_app(tf.keras.applications.MobileNetV2, 224),
    "resnet50": keras_app(tf.keras.applications.ResNet50, 224),
    "inception_v3": keras_app(tf.keras.applications.InceptionV3, 299),
    "efficientnet_b0": keras_app(tf.keras.applications.EfficientNetB0, 224),
    "convnext_tiny": keras_app(tf.keras.applications.ConvNeXtTiny, 224),
    "transformer_encoder": transformer_encoder,
    "transformer_small": transformer_small,
    "tiny_mlp": tiny_mlp,
}


def frozen_graph(fn, shape):
  spec = tf.TensorSpec(shape, tf.float32, name="input")
  concrete = tf.function(fn).get_concrete_function(spec)
  graph_def = convert_variables_to_constants_v2(concrete).graph.as_graph_def()
  outputs = [n for n in graph_def.node if n.name == "Identity"]
  assert len(outputs) == 1, "expected one output named Identity"
  outputs[0].name = "output"
  return graph_def


def run_tf(graph_def, x):
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(graph_def, name="")
  with tf.compat.v1.Session(graph=graph) as session:
    return session.run("output:0", feed_dict={"input:0": x})


def generate(name):
  tf.keras.utils.set_random_seed(SEED)
  if name in FUNCTION_MODELS:
    fn, shape = FUNCTION_MODELS[name]()
  else:
    model, shape = MODELS[name]()
    fn = lambda x: model(x, training=False)  # noqa: E731
  graph_def = frozen_graph(fn, shape)
  rng = np.random.default_rng(SEED)
  x = rng.uniform(-1, 1, [BATCH] + shape[1:]).astype(np.float32)
  y = run_tf(graph_def, x)
  out = model_dir()
  os.makedirs(out, exist_ok=True)
  with open(os.path.join(out, name + ".pb"), "wb") as f:
    f.write(graph_def.SerializeToString())
  np.save(os.path.join(out, name + ".input.npy"), x)
  np.save(os.path.join(out, name + ".tf_output.npy"), y)
  ops = sorted({n.op for n in graph_def.node})
  print("%s: %d nodes, output %s; ops %s" % (name, len(graph_def.node), y.shape, ops))


def main(argv):
  names = argv[1:] or list(MODELS)
  for name in names:
    if name not in MODELS:
      sys.exit("unknown model %s; choose from %s" % (name, ", ".join(MODELS)))
    generate(name)


if __name__ == "__main__":
  main(sys.argv)
