#!/usr/bin/env python3
"""Regenerates Sluice's control-flow fixtures with real TensorFlow.

Run from the repository root (needs `python3 -m pip install tensorflow-cpu numpy`):

    python3 tests/control_flow/gen_control_flow.py

The first graphs below are built in TensorFlow's graph mode with control flow v2 disabled,
so tf.while_loop and tf.cond become the v1 ops the executor runs (Enter, Exit,
NextIteration, LoopCond, Switch, Merge). The "v2_" ones are TensorFlow 2 functions (AutoGraph
turns their Python loops and conditionals into While/If/Case), frozen without lowering.
The "defun_" ones are TF1 graphs whose nodes call functions of the graph's library
(function.Defun) by name, the node's op being the function's name. TensorFlow runs it on fixed inputs; the GraphDef, the inputs and
TensorFlow's outputs are written here in the format of tests/fixtures/ (see
tests/fixture_manifest.h): NAME.pb, NAME.pbtxt, NAME.in.FEED.npy, NAME.out.FETCH.npy and
manifest.txt. Generation is deterministic. infinite_loop.pbtxt (a loop that never ends, which
TensorFlow cannot run to an output) is written beside them for the timeout test.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))


def cond_graph(x_value):
  """tf.cond on a data-dependent predicate; both branches compute."""
  def build(rng):
    x = tf1.placeholder(tf.float32, [3], name="x")
    pred = tf.reduce_sum(x) > 0.0
    y = tf.cond(pred, lambda: x * 2.0 + 1.0, lambda: tf.square(x) - 1.0)
    tf.identity(y, name="y")
    return {"x": np.asarray(x_value, np.float32)}, ["y"], 1e-6
  return build


def counter_loop(rng):
  """A counter and an accumulator: while i < n: i += 1; acc = acc * 0.5 + x."""
  n = tf1.placeholder(tf.int32, [], name="n")
  x = tf1.placeholder(tf.float32, [4], name="x")
  i, acc = tf1.while_loop(lambda i, acc: i < n,
                          lambda i, acc: (i + 1, acc * 0.5 + x),
                          [tf.constant(0), tf.zeros([4])])
  tf.identity(i, name="i")
  tf.identity(acc, name="acc")
  return {"n": np.int32(7), "x": rng.standard_normal(4).astype(np.float32)}, ["i", "acc"], 1e-6


def zero_iteration_loop(rng):
  """A loop whose condition is false at once: the Exits take the initial values."""
  n = tf1.placeholder(tf.int32, [], name="n")
  i, v = tf1.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 3.0),
                        [tf.constant(5), tf.constant([1.0, 2.0])])
  tf.identity(i, name="i")
  tf.identity(v, name="v")
  return {"n": np.int32(2)}, ["i", "v"], 0.0


def nested_loops(rng):
  """An inner loop whose bound depends on the outer counter."""
  x = tf1.placeholder(tf.float32, [2], name="x")

  def outer_body(i, total):
    _, inner = tf1.while_loop(lambda j, s: j < i + 2,
                              lambda j, s: (j + 1, s + x * tf.cast(j, tf.float32)),
                              [tf.constant(0), tf.zeros([2])])
    return i + 1, total + inner

  i, total = tf1.while_loop(lambda i, t: i < 4, outer_body, [tf.constant(0), tf.zeros([2])])
  tf.identity(i, name="i")
  tf.identity(total, name="total")
  return {"x": rng.standard_normal(2).astype(np.float32)}, ["i", "total"], 1e-5


def cond_in_loop(rng):
  """Each iteration takes one branch of a cond on the counter's parity."""
  x = tf1.placeholder(tf.float32, [3], name="x")

  def body(i, acc):
    acc = tf.cond(tf.equal(i % 2, 0), lambda: acc + x * tf.cast(i, tf.float32),
                  lambda: acc * 0.75)
    return i + 1, acc

  _, acc = tf1.while_loop(lambda i, acc: i < 9, body, [tf.constant(0), tf.ones([3])])
  tf.identity(acc, name="acc")
  return {"x": rng.standard_normal(3).astype(np.float32)}, ["acc"], 1e-5


def loop_in_cond(pred_value):
  """A loop on one branch of a cond: with the other branch taken, the loop is dead."""
  def build(rng):
    pred = tf1.placeholder(tf.bool, [], name="pred")
    x = tf1.placeholder(tf.float32, [2], name="x")

    def looping():
      _, v = tf1.while_loop(lambda k, v: k < 5, lambda k, v: (k + 1, v * 2.0 + 1.0),
                            [tf.constant(0), x])
      return v

    y = tf.cond(pred, looping, lambda: x - 10.0)
    tf.identity(y, name="y")
    return ({"pred": np.bool_(pred_value), "x": rng.standard_normal(2).astype(np.float32)},
            ["y"], 1e-5)
  return build


def recurrent_loop(parallel_iterations):
  """An RNN-like recurrence with loop-invariant weights (is_constant Enters) and per-step
  work independent of the carried state, so iterations can overlap."""
  def build(rng):
    x = tf1.placeholder(tf.float32, [2, 8], name="x")
    w = tf.constant(rng.standard_normal((8, 8)).astype(np.float32) * 0.3)
    u = tf.constant(rng.standard_normal((8, 8)).astype(np.float32) * 0.3)

    def body(t, h):
      drive = tf.matmul(x * tf.cast(t + 1, tf.float32) * 0.1, u)
      return t + 1, tf.tanh(tf.matmul(h, w) + drive)

    _, h = tf1.while_loop(lambda t, h: t < 12, body, [tf.constant(0), tf.zeros([2, 8])],
                          parallel_iterations=parallel_iterations)
    tf.identity(h, name="h")
    return {"x": rng.standard_normal((2, 8)).astype(np.float32)}, ["h"], 1e-5
  return build


def long_loop(rng):
  """Many iterations of a scalar counter (memory must not grow with the count)."""
  n = tf1.placeholder(tf.int32, [], name="n")
  i, s = tf1.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i),
                        [tf.constant(0), tf.constant(0)])
  tf.identity(i, name="i")
  tf.identity(s, name="s")
  return {"n": np.int32(20000)}, ["i", "s"], 0.0


# TensorFlow 2 functions: tf.function graphs frozen with convert_variables_to_constants_v2
# without lowering, so they keep While/StatelessWhile, If/StatelessIf, Case and calls with
# their functions in the library (Sluice lowers them itself: passes/lower_functional_ops.h).
# Each builder returns (a tf.function, its input signature, input values, tolerance).


def v2_while_counter(rng):
  @tf.function
  def f(n, x):
    i = tf.constant(0)
    acc = tf.zeros([4])
    while i < n:
      acc = acc * 0.5 + x
      i += 1
    return i, acc
  spec = [tf.TensorSpec([], tf.int32, name="n"), tf.TensorSpec([4], tf.float32, name="x")]
  return f, spec, [np.int32(6), rng.standard_normal(4).astype(np.float32)], 1e-6


def v2_cond(rng):
  @tf.function
  def f(x):
    if tf.reduce_sum(x) > 0.0:
      y = x * 3.0
    else:
      y = -x
    return y
  spec = [tf.TensorSpec([3], tf.float32, name="x")]
  return f, spec, [np.asarray([0.5, -0.25, 1.0], np.float32)], 1e-6


def v2_cond_false(rng):
  f, spec, _, tol = v2_cond(rng)
  return f, spec, [np.asarray([-0.5, -0.25, 1.0], np.float32)], tol


def v2_nested(rng):
  @tf.function
  def f(x):
    total = tf.zeros([2])
    for i in tf.range(4):
      for j in tf.range(i + 1):
        if (i + j) % 2 == 0:
          total += x * tf.cast(j + 1, tf.float32)
        else:
          total -= 0.5
    return total
  spec = [tf.TensorSpec([2], tf.float32, name="x")]
  return f, spec, [rng.standard_normal(2).astype(np.float32)], 1e-5


def v2_break_continue(rng):
  @tf.function
  def f(limit):
    s = tf.constant(0)
    i = tf.constant(0)
    while i < 100:
      i += 1
      if i % 3 == 0:
        continue
      if s > limit:
        break
      s += i
    return s, i
  spec = [tf.TensorSpec([], tf.int32, name="limit")]
  return f, spec, [np.int32(40)], 0.0


def v2_switch_case(index):
  def build(rng):
    @tf.function
    def f(i, x):
      return tf.switch_case(i, [lambda: x + 1.0, lambda: x * x, lambda: tf.sin(x)])
    spec = [tf.TensorSpec([], tf.int32, name="i"), tf.TensorSpec([3], tf.float32, name="x")]
    return f, spec, [np.int32(index), rng.standard_normal(3).astype(np.float32)], 1e-6
  return build


def v2_function_call(rng):
  @tf.function
  def inner(a, b):
    return tf.matmul(a, b) + 1.0

  @tf.function
  def f(x):
    y = inner(x, tf.transpose(x))
    return inner(y, y)
  spec = [tf.TensorSpec([3, 3], tf.float32, name="x")]
  return f, spec, [rng.standard_normal((3, 3)).astype(np.float32) * 0.5], 1e-5


def v2_loop_in_untaken_cond(rng):
  @tf.function
  def f(p, x):
    if p:
      for _ in tf.range(5):
        x = x * 2.0
    else:
      x = x - 1.0
    return x
  spec = [tf.TensorSpec([], tf.bool, name="p"), tf.TensorSpec([2], tf.float32, name="x")]
  return f, spec, [np.bool_(False), rng.standard_normal(2).astype(np.float32)], 1e-6



def v2_tensor_array_accumulate(rng):
  """A TensorArray written in a loop (TensorListReserve/SetItem), read, sized and stacked."""
  @tf.function
  def f(n, x):
    ta = tf.TensorArray(tf.float32, size=n, element_shape=[3])
    for i in tf.range(n):
      ta = ta.write(i, x * tf.cast(i + 1, tf.float32))
    return ta.stack(), ta.read(1), ta.size()
  spec = [tf.TensorSpec([], tf.int32, name="n"), tf.TensorSpec([3], tf.float32, name="x")]
  return f, spec, [np.int32(4), rng.standard_normal(3).astype(np.float32)], 1e-6


def v2_tensor_array_dynamic(rng):
  """A dynamic-size TensorArray grown one element per iteration, then gathered."""
  @tf.function
  def f(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    i = tf.constant(0)
    v = x
    while tf.reduce_sum(v) < 50.0:
      ta = ta.write(i, v)
      v = v * 2.0 + 1.0
      i += 1
    return ta.stack(), ta.gather([0, 2]), i
  spec = [tf.TensorSpec([2], tf.float32, name="x")]
  return f, spec, [np.asarray([1.0, 0.5], np.float32)], 1e-6


def v2_tensor_array_unstack_split(rng):
  """unstack (TensorListFromTensor) read in a loop; split and concat; scatter and gather."""
  @tf.function
  def f(x):
    rows = tf.TensorArray(tf.float32, size=4).unstack(x)
    acc = tf.zeros([3])
    for i in tf.range(4):
      acc = acc * 0.5 + rows.read(i)
    parts = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(x, [1, 3])
    scattered = tf.TensorArray(tf.float32, size=5).scatter([4, 1], x[:2])
    return acc, parts.concat(), parts.read(1), scattered.stack()
  spec = [tf.TensorSpec([4, 3], tf.float32, name="x")]
  return f, spec, [rng.standard_normal((4, 3)).astype(np.float32)], 1e-6


def v2_greedy_decode(rng):
  """A greedy decoder: each step feeds back the argmax token, stopping at the end token
  (0) or after 10 steps, collecting tokens and scores in TensorArrays."""
  embed = rng.standard_normal((6, 4)).astype(np.float32)
  proj = rng.standard_normal((4, 6)).astype(np.float32)
  @tf.function
  def f(start, state):
    tokens = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    scores = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    token = start
    h = state
    for t in tf.range(10):
      h = tf.tanh(tf.gather(embed, token) + h * 0.5)
      logits = tf.linalg.matvec(tf.transpose(proj), h)
      token = tf.cast(tf.argmax(logits), tf.int32)
      tokens = tokens.write(t, token)
      scores = scores.write(t, tf.reduce_max(tf.nn.log_softmax(logits)))
      if token == 0:
        break
    return tokens.stack(), scores.stack()
  spec = [tf.TensorSpec([], tf.int32, name="start"), tf.TensorSpec([4], tf.float32, name="state")]
  return f, spec, [np.int32(3), rng.standard_normal(4).astype(np.float32)], 1e-5


V2_MODELS = [
    ("v2_while_counter", v2_while_counter),
    ("v2_cond", v2_cond),
    ("v2_cond_false", v2_cond_false),
    ("v2_nested", v2_nested),
    ("v2_break_continue", v2_break_continue),
    ("v2_switch_case_0", v2_switch_case(0)),
    ("v2_switch_case_2", v2_switch_case(2)),
    ("v2_switch_case_out_of_range", v2_switch_case(7)),
    ("v2_function_call", v2_function_call),
    ("v2_loop_in_untaken_cond", v2_loop_in_untaken_cond),
    ("v2_tensor_array_accumulate", v2_tensor_array_accumulate),
    ("v2_tensor_array_dynamic", v2_tensor_array_dynamic),
    ("v2_tensor_array_unstack_split", v2_tensor_array_unstack_split),
    ("v2_greedy_decode", v2_greedy_decode),
]


# Frozen Keras recurrent models (Keras 3's TensorFlow backend builds the loop with
# TensorLists). Each is written twice: keeping While with its functions, and lowered by
# TensorFlow to v1 control flow ("_lowered"). Builders return (a tf.function, its input
# signature, input values, tolerance).


def keras_rnn(make_layer, masking=False, seq=5, features=3, batch=2):
  def build(rng):
    import keras  # noqa: E402
    keras.utils.set_random_seed(int(rng.integers(1 << 30)))
    inp = keras.Input((seq, features), batch_size=batch)
    x = keras.layers.Masking(mask_value=0.0)(inp) if masking else inp
    model = keras.Model(inp, make_layer(keras)(x))
    f = tf.function(lambda x: model(x, training=False))
    values = rng.standard_normal((batch, seq, features)).astype(np.float32)
    if masking:
      values[1, seq - 2:, :] = 0.0  # the second sequence is two steps shorter
    spec = [tf.TensorSpec((batch, seq, features), tf.float32, name="x")]
    return f, spec, [values], 1e-5
  return build


KERAS_MODELS = [
    ("keras_lstm", keras_rnn(lambda k: k.layers.LSTM(8))),
    ("keras_gru_sequences", keras_rnn(lambda k: k.layers.GRU(6, return_sequences=True))),
    ("keras_simple_rnn", keras_rnn(lambda k: k.layers.SimpleRNN(5, return_state=False))),
    ("keras_bidirectional_lstm_masked",
     keras_rnn(lambda k: k.layers.Bidirectional(k.layers.LSTM(4)), masking=True)),
    ("keras_stacked_gru_lstm",
     keras_rnn(lambda k: k.Sequential([k.layers.GRU(4, return_sequences=True, go_backwards=True),
                                       k.layers.LSTM(3)]))),
]


FUNCTIONAL_OPS = {"While", "StatelessWhile", "If", "StatelessIf", "Case", "StatelessCase",
                  "PartitionedCall", "StatefulPartitionedCall", "_SwitchN"}


def freeze_v2(builder, seed, lower=False):
  """Traces, freezes (keeping functional control flow unless `lower`) and runs one TF2
  function."""
  from tensorflow.python.framework import convert_to_constants  # noqa: E402
  rng = np.random.default_rng(seed)
  f, spec, values, tolerance = builder(rng)
  concrete = f.get_concrete_function(*spec)
  frozen = convert_to_constants.convert_variables_to_constants_v2(
      concrete, lower_control_flow=lower)
  graph_def = frozen.graph.as_graph_def()
  source = frozen
  if not lower and not {node.op for node in graph_def.node} & FUNCTIONAL_OPS:
    # Freezing inlined the calls; the traced graph (no variables here) keeps them.
    graph_def = concrete.graph.as_graph_def()
    source = concrete
  feeds = {t.op.name: v for t, v in zip(source.inputs, values)}
  fetches = [t.op.name for t in source.outputs]
  graph = tf.Graph()
  with graph.as_default():
    tf1.import_graph_def(graph_def, name="")
    with tf1.Session(graph=graph) as session:
      outputs = session.run([name + ":0" for name in fetches],
                            {name + ":0": value for name, value in feeds.items()})
  return graph_def, feeds, dict(zip(fetches, [np.asarray(o) for o in outputs])), tolerance



def tensor_array_loop(rng):
  """TF1 TensorArrays (TensorArrayV3) written and read in a v1 loop: unstack the input,
  write a running sum per step, then stack, gather and concat."""
  x = tf1.placeholder(tf.float32, [4, 3], name="x")
  rows = tf.TensorArray(tf.float32, size=4).unstack(x)
  sums = tf.TensorArray(tf.float32, size=4, element_shape=[3], clear_after_read=False)

  def body(i, acc, out):
    acc = acc + rows.read(i)
    return i + 1, acc, out.write(i, acc)

  _, acc, sums = tf1.while_loop(lambda i, acc, out: i < 4, body,
                                [tf.constant(0), tf.zeros([3]), sums])
  tf.identity(sums.stack(), name="stacked")
  tf.identity(sums.gather([3, 0]), name="gathered")
  tf.identity(acc, name="acc")
  parts = tf.TensorArray(tf.float32, size=2, infer_shape=False,
                         clear_after_read=False).split(x, [3, 1])
  tf.identity(parts.concat(), name="concat")
  tf.identity(parts.read(1), name="second_part")
  tf.identity(sums.size(), name="size")
  return {"x": rng.standard_normal((4, 3)).astype(np.float32)}, \
      ["stacked", "gathered", "acc", "concat", "second_part", "size"], 1e-6


class TinyLSTMCell:
  """An LSTM cell with constant weights, for TF1's dynamic_rnn (whose own LSTMCell lives in
  Keras 2, which TensorFlow 2.21 no longer has)."""

  def __init__(self, units, input_dim, rng):
    self.units = units
    self.kernel = tf.constant(
        (rng.standard_normal((input_dim + units, 4 * units)) * 0.4).astype(np.float32))
    self.bias = tf.constant((rng.standard_normal(4 * units) * 0.1).astype(np.float32))

  @property
  def state_size(self):
    return (self.units, self.units)

  @property
  def output_size(self):
    return self.units

  def zero_state(self, batch_size, dtype):
    return (tf.zeros([batch_size, self.units], dtype), tf.zeros([batch_size, self.units], dtype))

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    return self.zero_state(batch_size, dtype)

  def __call__(self, inputs, state):
    c, h = state
    z = tf.matmul(tf.concat([inputs, h], 1), self.kernel) + self.bias
    i, f, g, o = tf.split(z, 4, axis=1)
    c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(g)
    h = tf.sigmoid(o) * tf.tanh(c)
    return h, (c, h)


def dynamic_rnn_lstm(rng):
  """TF1 dynamic_rnn over an LSTM cell with per-sequence lengths: the v1 loop TF1 models
  were built on, reading its inputs from and writing its outputs to TensorArrays."""
  x = tf1.placeholder(tf.float32, [2, 6, 3], name="x")
  lengths = tf1.placeholder(tf.int32, [2], name="lengths")
  outputs, (c, h) = tf1.nn.dynamic_rnn(TinyLSTMCell(5, 3, rng), x, sequence_length=lengths,
                                       dtype=tf.float32)
  tf.identity(outputs, name="outputs")
  tf.identity(h, name="h")
  tf.identity(c, name="c")
  return {"x": rng.standard_normal((2, 6, 3)).astype(np.float32),
          "lengths": np.asarray([6, 4], np.int32)}, ["outputs", "h", "c"], 1e-5


def map_fn_graph(rng):
  """tf.map_fn in TF1 graph mode: a loop over the rows through TensorArrays."""
  x = tf1.placeholder(tf.float32, [5, 2], name="x")
  y = tf.map_fn(lambda row: tf.reduce_sum(row * row) + row[0], x)
  tf.identity(y, name="y")
  return {"x": rng.standard_normal((5, 2)).astype(np.float32)}, ["y"], 1e-6


MODELS = [
    ("cond_true", cond_graph([1.0, 2.0, -0.5])),
    ("cond_false", cond_graph([-1.0, 0.5, -2.0])),
    ("counter_loop", counter_loop),
    ("zero_iteration_loop", zero_iteration_loop),
    ("nested_loops", nested_loops),
    ("cond_in_loop", cond_in_loop),
    ("loop_in_cond_taken", loop_in_cond(True)),
    ("loop_in_cond_untaken", loop_in_cond(False)),
    ("recurrent_parallel_1", recurrent_loop(1)),
    ("recurrent_parallel_10", recurrent_loop(10)),
    ("long_loop", long_loop),
    ("tensor_array_loop", tensor_array_loop),
    ("dynamic_rnn_lstm", dynamic_rnn_lstm),
    ("map_fn", map_fn_graph),
]


def defun_calls(rng):
  """TF1 functions (function.Defun) that graph nodes call by name, their op being the
  function's name: scale_shift, called directly and under a control dependency, and poly,
  with two outputs, whose body calls scale_shift by name in turn."""
  from tensorflow.python.framework import function  # pylint: disable=g-import-not-at-top

  @function.Defun(tf.float32, tf.float32)
  def scale_shift(x, s):
    return x * s + 1.0

  @function.Defun(tf.float32)
  def poly(x):
    return scale_shift(x, x) - tf.reduce_sum(x), tf.reduce_max(x)

  x = tf1.placeholder(tf.float32, [4], name="x")
  s = tf1.placeholder(tf.float32, [], name="s")
  a = scale_shift(x, s, name="shifted")
  p, m = poly(a, name="poly_call")
  with tf.control_dependencies([a]):
    b = scale_shift(p, tf.constant(0.5), name="after_shift")
  tf.identity(a, name="a")
  tf.identity(b, name="b")
  tf.identity(m, name="m")
  return ({"x": rng.standard_normal(4).astype(np.float32), "s": np.float32(1.5)},
          ["a", "b", "m"], 1e-5)


def defun_in_control_flow(rng):
  """A Defun called by name inside a v1 loop's body and on one branch of a cond: its inlined
  body (with a constant) runs once per iteration, and not at all on an untaken branch."""
  from tensorflow.python.framework import function  # pylint: disable=g-import-not-at-top

  @function.Defun(tf.float32, tf.float32)
  def step(v, x):
    return v * 0.5 + x * 2.0

  x = tf1.placeholder(tf.float32, [3], name="x")
  n = tf1.placeholder(tf.int32, [], name="n")
  _, v = tf1.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, tf.reshape(step(v, x), [3])),
                        [tf.constant(0), tf.zeros([3])])
  y = tf.cond(tf.reduce_sum(v) > 0.0, lambda: step(v, v), lambda: v - 1.0)
  tf.identity(v, name="v")
  tf.identity(y, name="y")
  return {"x": rng.standard_normal(3).astype(np.float32), "n": np.int32(5)}, ["v", "y"], 1e-5


# TF1 graphs whose nodes call functions of the graph's library by name (function.Defun).
FUNCTION_MODELS = [
    ("defun_calls", defun_calls),
    ("defun_in_control_flow", defun_in_control_flow),
]


def infinite_loop_graph():
  """A loop whose condition is always true (TensorFlow cannot run it to an end), beside an
  unrelated node: a step fetching the loop must stop at its timeout, and the session must
  still run the other node afterwards."""
  graph = tf.Graph()
  with graph.as_default():
    x = tf1.placeholder(tf.float32, [], name="x")
    i = tf1.while_loop(lambda i: tf.constant(True), lambda i: i + 1, [tf.constant(0)])
    tf.identity(i, name="forever")
    tf.add(x, 1.0, name="x_plus_one")
  return graph.as_graph_def()


def build_and_run(builder, seed):
  rng = np.random.default_rng(seed)
  graph = tf.Graph()
  with graph.as_default():
    feeds, fetches, tolerance = builder(rng)
    variables = tf1.global_variables()
    with tf1.Session(graph=graph) as session:
      graph_def = graph.as_graph_def()
      if variables:
        # Frozen as TF1 models are served: variables become Consts.
        session.run(tf1.variables_initializer(variables))
        graph_def = tf1.graph_util.convert_variables_to_constants(session, graph_def, fetches)
      outputs = session.run([f + ":0" for f in fetches],
                            {name + ":0": value for name, value in feeds.items()})
  return graph_def, feeds, dict(zip(fetches, [np.asarray(o) for o in outputs])), tolerance


def write_model(manifest, name, graph_def, feeds, outputs, tolerance):
  tf.io.write_graph(graph_def, HERE, f"{name}.pb", as_text=False)
  tf.io.write_graph(graph_def, HERE, f"{name}.pbtxt", as_text=True)
  manifest.append(f"model {name} {name}.pb {name}.pbtxt {tolerance:g}")
  for kind, arrays in (("feed", feeds), ("fetch", outputs)):
    for node, array in arrays.items():
      array = np.asarray(array)
      npy = f"{name}.{'in' if kind == 'feed' else 'out'}.{node}.npy"
      np.save(os.path.join(HERE, npy), array, allow_pickle=False)
      shape = "[" + ",".join(str(d) for d in array.shape) + "]"
      manifest.append(f"  {kind} {node} {array.dtype} {shape} {npy}")
  print(f"{name}: {len(graph_def.node)} nodes, {len(graph_def.library.function)} functions",
        file=sys.stderr)


def main():
  tf1.disable_control_flow_v2()
  manifest = [
      "# Sluice control-flow fixtures, written by tests/control_flow/gen_control_flow.py.",
      f"# tensorflow {tf.__version__} numpy {np.__version__}",
      "# model NAME BINARY_PB TEXT_PBTXT TOLERANCE (max abs difference; 0 means exact)",
      "#   feed|fetch NODE DTYPE SHAPE NPY",
  ]
  for seed, (name, builder) in enumerate(MODELS):
    graph_def, feeds, outputs, tolerance = build_and_run(builder, seed)
    ops = {node.op for node in graph_def.node}
    assert "Enter" in ops or "Switch" in ops, f"{name} has no v1 control flow: {sorted(ops)}"
    write_model(manifest, name, graph_def, feeds, outputs, tolerance)
  # The TF2 functions: traced with control flow v2 (While/If and functions).
  tf1.enable_control_flow_v2()
  for seed, (name, builder) in enumerate(V2_MODELS, start=len(MODELS)):
    graph_def, feeds, outputs, tolerance = freeze_v2(builder, seed)
    ops = {node.op for node in graph_def.node}
    assert ops & FUNCTIONAL_OPS, f"{name} has no functional control flow: {sorted(ops)}"
    write_model(manifest, name, graph_def, feeds, outputs, tolerance)
  seed = len(MODELS) + len(V2_MODELS)
  for name, builder in KERAS_MODELS:
    for lower in (False, True):
      graph_def, feeds, outputs, tolerance = freeze_v2(builder, seed, lower=lower)
      ops = {node.op for node in graph_def.node}
      expected = "Enter" if lower else "While"
      assert expected in ops or "StatelessWhile" in ops, f"{name}: no loop in {sorted(ops)}"
      write_model(manifest, name + ("_lowered" if lower else ""), graph_def, feeds, outputs,
                  tolerance)
    seed += 1
  tf1.disable_control_flow_v2()
  for name, builder in FUNCTION_MODELS:
    graph_def, feeds, outputs, tolerance = build_and_run(builder, seed)
    functions = {f.signature.name for f in graph_def.library.function}
    assert any(node.op in functions for node in graph_def.node), f"{name} calls no function"
    write_model(manifest, name, graph_def, feeds, outputs, tolerance)
    seed += 1
  tf.io.write_graph(infinite_loop_graph(), HERE, "infinite_loop.pbtxt", as_text=True)
  with open(os.path.join(HERE, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
  main()
