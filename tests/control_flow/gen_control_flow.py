#!/usr/bin/env python3
"""Regenerates Sluice's control-flow fixtures with real TensorFlow.

Run from the repository root (needs `python3 -m pip install tensorflow-cpu numpy`):

    python3 tests/control_flow/gen_control_flow.py

The first graphs below are built in TensorFlow's graph mode with control flow v2 disabled,
so tf.while_loop and tf.cond become the v1 ops the executor runs (Enter, Exit,
NextIteration, LoopCond, Switch, Merge). The "v2_" ones are TensorFlow 2 functions (AutoGraph
turns their Python loops and conditionals into While/If/Case), frozen without lowering. TensorFlow runs it on fixed inputs; the GraphDef, the inputs and
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
]


FUNCTIONAL_OPS = {"While", "StatelessWhile", "If", "StatelessIf", "Case", "StatelessCase",
                  "PartitionedCall", "StatefulPartitionedCall", "_SwitchN"}


def freeze_v2(builder, seed):
  """Traces, freezes (keeping functional control flow) and runs one TF2 function."""
  from tensorflow.python.framework import convert_to_constants  # noqa: E402
  rng = np.random.default_rng(seed)
  f, spec, values, tolerance = builder(rng)
  concrete = f.get_concrete_function(*spec)
  frozen = convert_to_constants.convert_variables_to_constants_v2(
      concrete, lower_control_flow=False)
  graph_def = frozen.graph.as_graph_def()
  source = frozen
  if not {node.op for node in graph_def.node} & FUNCTIONAL_OPS:
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
    graph_def = graph.as_graph_def()
    with tf1.Session(graph=graph) as session:
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
  tf1.disable_control_flow_v2()
  tf.io.write_graph(infinite_loop_graph(), HERE, "infinite_loop.pbtxt", as_text=True)
  with open(os.path.join(HERE, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
  main()
