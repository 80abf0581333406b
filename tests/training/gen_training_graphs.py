#!/usr/bin/env python3
"""Writes the fixtures of //tests/training: TF1-style training graphs made by TensorFlow
(tf.compat.v1 layers, losses and optimizers' minimize(), as a TensorFlow user exports them with
tf.io.write_graph), and what TensorFlow computed training them.

The loop models are built with TF1's control flow (control flow v1: Enter, Merge, Switch,
NextIteration, Exit frames): a tf.while_loop whose body reads a variable, dynamic_rnn over
BasicLSTMCell, LSTMCell and GRUCell, tf.scan and tf.map_fn. Their gradients are TensorFlow's
backward loops, fed by the stacks (StackV2, StackPushV2, StackPopV2) the forward loops push
their intermediates to and by gradient TensorArrays (TensorArrayGradV3). Their input x is a
batch of sequences, [BATCH, TIME, FEATURES].

For each model <name>:
  <name>.pb           the GraphDef (the forward graph, TensorFlow's own gradient nodes, the
                      optimizer's update ops, the initializers);
  <name>.run.pb       a GraphDef of Const nodes only, holding the run: `feed/x/<step>`,
                      `feed/y/<step>` (the batches fed), `loss/<step>` (the loss TensorFlow
                      fetched together with the train op at that step) and `final/<i>` (each
                      trainable variable's value after the last step);
  <name>.run.txt      the names: placeholders, loss, train op, init op, step count, and per
                      variable the tensor that reads it.

    python3 tests/training/gen_training_graphs.py [model ...]

writes every model, or the ones named. Needs `pip install tensorflow-cpu`; the version is written into each .run.txt.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# TensorFlow's oneDNN rewrites would run fused kernels Sluice does not fuse the same way.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import zlib  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import sys  # noqa: E402

# pylint: disable-next=g-import-not-at-top
from tensorflow.python.ops import rnn_cell_impl  # noqa: E402

v1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 5
BATCH = 8
# The loop models' sequences.
TIME = 5
FEATURES = 6


def dense(x, units, activation=None, name=None):
  with v1.variable_scope(None, default_name=name or "dense"):
    w = v1.get_variable("kernel", [x.shape[-1], units],
                        initializer=v1.glorot_uniform_initializer())
    b = v1.get_variable("bias", [units], initializer=v1.constant_initializer(0.1))
    h = tf.nn.bias_add(tf.matmul(x, w), b)
    return activation(h) if activation else h


def conv2d(x, filters, size, activation=None):
  with v1.variable_scope(None, default_name="conv2d"):
    w = v1.get_variable("kernel", [size, size, x.shape[-1], filters],
                        initializer=v1.glorot_uniform_initializer())
    b = v1.get_variable("bias", [filters], initializer=v1.constant_initializer(0.1))
    h = tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b)
    return activation(h) if activation else h


def mlp(x):
  h = dense(x, 16, tf.nn.relu)
  h = dense(h, 12, tf.nn.tanh)
  h = dense(h, 12, tf.nn.sigmoid)
  h = dense(h, 10, tf.nn.elu)
  return dense(h, 4)


def cnn(x):
  img = tf.reshape(x, [-1, 6, 6, 1])
  h = conv2d(img, 4, 3, tf.nn.relu6)
  with v1.variable_scope("batch_norm"):
    scale = v1.get_variable("gamma", [4], initializer=v1.ones_initializer())
    offset = v1.get_variable("beta", [4], initializer=v1.zeros_initializer())
    h, _, _ = v1.nn.fused_batch_norm(h, scale, offset, is_training=True)
  h = tf.nn.max_pool2d(h, 2, 2, "VALID")
  dw = v1.get_variable("depthwise", [3, 3, 4, 1], initializer=v1.glorot_uniform_initializer())
  h = tf.nn.depthwise_conv2d(h, dw, [1, 1, 1, 1], "SAME")
  h = tf.nn.avg_pool2d(h, 3, 3, "SAME")
  h = tf.reshape(h, [-1, 4])
  return dense(h, 4)


def embed(x):
  ids = tf.cast(tf.floor(tf.abs(x[:, :3]) * 7), tf.int32) % 11
  table = v1.get_variable("table", [11, 5], initializer=v1.random_normal_initializer())
  h = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
  h = tf.concat([h, tf.nn.softplus(x[:, 3:6]), tf.square(x[:, 6:8])], axis=1)
  h = tf.nn.leaky_relu(dense(h, 8), alpha=0.1)
  return dense(h, 4)


def sequence_model(f):
  """Marks a model whose input is a batch of sequences."""
  f.x_shape = [None, TIME, FEATURES]
  return f


@sequence_model
def while_rnn(x):
  """A hand-written recurrence in a tf.while_loop whose body reads two variables."""
  w = v1.get_variable("w", [FEATURES, 8], initializer=v1.glorot_uniform_initializer())
  u = v1.get_variable("u", [8, 8], initializer=v1.glorot_uniform_initializer())
  steps = tf.transpose(x, [1, 0, 2])

  def body(i, h, total):
    h = tf.tanh(tf.matmul(steps[i], w) + tf.matmul(h, u))
    return i + 1, h, total + tf.reduce_sum(h * h, axis=1, keepdims=True)

  _, h, total = v1.while_loop(
      lambda i, h, total: i < TIME, body,
      [tf.constant(0), tf.zeros([tf.shape(x)[0], 8]), tf.zeros([tf.shape(x)[0], 1])])
  return dense(tf.concat([h, total * 0.1], axis=1), 4)


def rnn_model(make_cell, make_kwargs=dict):
  @sequence_model
  def model(x):
    outputs, _ = v1.nn.dynamic_rnn(make_cell(), x, dtype=tf.float32, **make_kwargs())
    return dense(outputs[:, -1, :] + tf.reduce_mean(outputs, axis=1), 4)
  return model


basic_lstm = rnn_model(lambda: rnn_cell_impl.BasicLSTMCell(8))
# Peepholes and a projection, and TensorFlow's swap_memory, which Sluice accepts and ignores.
peephole_lstm = rnn_model(
    lambda: rnn_cell_impl.LSTMCell(8, use_peepholes=True, num_proj=6, cell_clip=3.0),
    lambda: dict(swap_memory=True))
# Sequences of several lengths: the loop copies the states of finished sequences through.
gru = rnn_model(lambda: rnn_cell_impl.GRUCell(8),
                lambda: dict(sequence_length=tf.constant([5, 4, 3, 5, 1, 2, 5, 4]),
                             parallel_iterations=4))


@sequence_model
def scan_rnn(x):
  """tf.scan over the time steps, then tf.map_fn over the batch: both are while loops over
  TensorArrays."""
  w = v1.get_variable("w", [FEATURES, 8], initializer=v1.glorot_uniform_initializer())
  u = v1.get_variable("u", [8, 8], initializer=v1.glorot_uniform_initializer())
  states = tf.scan(lambda h, e: tf.nn.relu(tf.matmul(e, w) + tf.matmul(h, u)),
                   tf.transpose(x, [1, 0, 2]), initializer=tf.zeros([tf.shape(x)[0], 8]))
  v = v1.get_variable("v", [8, 8], initializer=v1.glorot_uniform_initializer())
  summary = tf.map_fn(lambda seq: tf.reduce_max(tf.sigmoid(tf.matmul(seq, v)), axis=0),
                      tf.transpose(states, [1, 0, 2]))
  return dense(summary, 4)


OPTIMIZERS = {
    "sgd": lambda: v1.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: v1.train.MomentumOptimizer(0.05, 0.9),
    "nesterov": lambda: v1.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "adam": lambda: v1.train.AdamOptimizer(0.01),
    "rmsprop": lambda: v1.train.RMSPropOptimizer(0.01),
    "rmsprop_centered": lambda: v1.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
    "adagrad": lambda: v1.train.AdagradOptimizer(0.1),
    "adadelta": lambda: v1.train.AdadeltaOptimizer(1.0),
    "ftrl": lambda: v1.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01),
}

MODELS = [
    # name, model, loss kind, optimizer, resource variables
    ("mlp_sgd_ref", mlp, "sparse_xent", "sgd", False),
    ("mlp_sgd_resource", mlp, "sparse_xent", "sgd", True),
    ("mlp_momentum", mlp, "xent", "momentum", False),
    ("mlp_nesterov_resource", mlp, "xent", "nesterov", True),
    ("mlp_adam", mlp, "sparse_xent", "adam", False),
    ("mlp_adam_resource", mlp, "mse", "adam", True),
    ("mlp_rmsprop", mlp, "mse", "rmsprop", True),
    ("mlp_rmsprop_centered", mlp, "sparse_xent", "rmsprop_centered", False),
    ("mlp_adagrad", mlp, "xent", "adagrad", True),
    ("mlp_adadelta", mlp, "mse", "adadelta", False),
    ("mlp_ftrl", mlp, "sparse_xent", "ftrl", True),
    ("cnn_sgd", cnn, "sparse_xent", "sgd", True),
    ("cnn_adam_ref", cnn, "xent", "adam", False),
    ("embedding_sgd_ref", embed, "sparse_xent", "sgd", False),
    ("embedding_sgd_resource", embed, "sparse_xent", "sgd", True),
    ("embedding_adagrad", embed, "mse", "adagrad", True),
    # TF1 loops and their gradients.
    ("while_sgd_resource", while_rnn, "sparse_xent", "sgd", True),
    ("while_sgd_ref", while_rnn, "xent", "sgd", False),
    ("basic_lstm_adam", basic_lstm, "sparse_xent", "adam", True),
    ("peephole_lstm_adam_ref", peephole_lstm, "sparse_xent", "adam", False),
    ("gru_adam", gru, "xent", "adam", True),
    ("scan_map_fn_momentum", scan_rnn, "sparse_xent", "momentum", True),
]


def loss_of(kind, logits, y):
  if kind == "sparse_xent":
    return v1.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
  if kind == "xent":
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.one_hot(y, 4), logits=logits))
  return v1.losses.mean_squared_error(tf.one_hot(y, 4), logits)


def const_node(graph_def, name, value):
  node = graph_def.node.add(name=name, op="Const")
  node.attr["dtype"].type = tf.as_dtype(value.dtype).as_datatype_enum
  node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value))


def write(name, model, loss_kind, optimizer, resource):
  rng = np.random.default_rng(zlib.crc32(name.encode()))
  graph = tf.Graph()
  with graph.as_default():
    v1.set_random_seed(7)
    if resource:
      v1.enable_resource_variables()
    else:
      v1.disable_resource_variables()
    x_shape = getattr(model, "x_shape", [None, 36])
    x = v1.placeholder(tf.float32, x_shape, name="x")
    y = v1.placeholder(tf.int32, [None], name="y")
    loss = tf.identity(loss_of(loss_kind, model(x), y), name="loss")
    step = v1.train.get_or_create_global_step()
    with tf.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
      train = OPTIMIZERS[optimizer]().minimize(loss, global_step=step, name="train")
    init = v1.global_variables_initializer()
    variables = v1.trainable_variables()
    reads = [tf.identity(v.value(), name=f"read_final/{i}") for i, v in enumerate(variables)]
  graph_def = graph.as_graph_def()
  run = tf.compat.v1.GraphDef()
  with v1.Session(graph=graph) as sess:
    sess.run(init)
    for s in range(STEPS):
      xs = rng.standard_normal([BATCH] + x_shape[1:]).astype(np.float32)
      ys = rng.integers(0, 4, BATCH).astype(np.int32)
      value, _ = sess.run([loss, train], {x: xs, y: ys})
      const_node(run, f"feed/x/{s}", xs)
      const_node(run, f"feed/y/{s}", ys)
      const_node(run, f"loss/{s}", np.float32(value))
    for i, value in enumerate(sess.run(reads)):
      const_node(run, f"final/{i}", value)
  with open(os.path.join(HERE, name + ".pb"), "wb") as f:
    f.write(graph_def.SerializeToString())
  with open(os.path.join(HERE, name + ".run.pb"), "wb") as f:
    f.write(run.SerializeToString())
  with open(os.path.join(HERE, name + ".run.txt"), "w") as f:
    f.write(f"# TensorFlow {tf.__version__}: {optimizer}, {loss_kind}, "
            f"{'resource' if resource else 'ref'} variables\n")
    f.write(f"x {x.name}\ny {y.name}\nloss {loss.name}\ntrain {train.name}\n"
            f"init {init.name}\nsteps {STEPS}\n")
    for i, v in enumerate(variables):
      f.write(f"variable {i} {reads[i].name} {v.op.name}\n")
  ops = sorted({n.op for n in graph_def.node})
  print(f"{name}: {len(graph_def.node)} nodes, {len(variables)} variables; ops: {' '.join(ops)}")


def write_ref_variable_loop():
  """ref_variable_loop.pb: a ref variable (VariableV2) read by Identity and by a Switch, in a
  graph with a while loop whose body multiplies by it; ref_variable_loop.run.pb holds the feed
  `feed/x` and what TensorFlow fetched, `expected/<tensor name>`. Sluice's control-flow
  executor once forwarded such reads without their value."""
  graph = tf.Graph()
  with graph.as_default():
    v1.disable_resource_variables()
    x = v1.placeholder(tf.float32, [None, 3], name="x")
    w = v1.get_variable("w", [3, 3], initializer=v1.random_uniform_initializer(seed=3))
    _, h = v1.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w))),
                         [0, x])
    picked = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.identity(w), lambda: -w)
    fetches = [tf.identity(h, name="looped"), tf.identity(picked, name="picked")]
    init = v1.global_variables_initializer()
  run = tf.compat.v1.GraphDef()
  xs = np.random.default_rng(11).standard_normal((2, 3)).astype(np.float32)
  with v1.Session(graph=graph) as sess:
    sess.run(init)
    const_node(run, "feed/x", xs)
    for t, value in zip(fetches, sess.run(fetches, {x: xs})):
      const_node(run, "expected/" + t.name, value)
  with open(os.path.join(HERE, "ref_variable_loop.pb"), "wb") as f:
    f.write(graph.as_graph_def().SerializeToString())
  with open(os.path.join(HERE, "ref_variable_loop.run.pb"), "wb") as f:
    f.write(run.SerializeToString())
  print(f"ref_variable_loop: init {init.name}")


if __name__ == "__main__":
  v1.disable_eager_execution()
  # TF1's loops: Enter/Merge/Switch/NextIteration/Exit frames rather than While ops.
  v1.disable_control_flow_v2()
  wanted = set(sys.argv[1:])
  for m in MODELS:
    if not wanted or m[0] in wanted:
      write(*m)
  if not wanted or "ref_variable_loop" in wanted:
    write_ref_variable_loop()
