#!/usr/bin/env python3
"""Writes the fixtures of //tests/kernels:stack_tensor_array_graphs_test: small TF1 graphs of
the stateful stack ops (StackV2, StackPushV2, StackPopV2, StackCloseV2) and of gradient
TensorArrays (TensorArrayGradV3, TensorArrayGradWithShape, and the TensorArray ops on them),
run once each in TensorFlow, with what TensorFlow fetched or the error it raised.

Stacks and TensorArrays live for one step, so a case is a sequence of ops ordered by control
dependencies, not one op (oracle.CaseWriter records single ops). For each case <c> the graph's
nodes are named under "<c>/"; the files are
  fixtures/stack_tensor_array.pb           the GraphDef of every case;
  fixtures/stack_tensor_array.expected.pb  Const nodes "<c>/expected/<i>": fetch i's value;
  fixtures/stack_tensor_array.txt          per case: `case <c>`, `fetch <tensor>` lines, then
                                           `ok`, or `error <code> <text>` where Sluice's
                                           message must contain <text> (TensorFlow's contains
                                           it too: the generator checks).
Messages name stacks and arrays by a process-wide count ("Stack[s_3]"), so the <text> of a
case leaves the name out. Grappler is off, so TensorFlow runs the graphs as built (its loop
optimizer removes stacks whose pops it cannot see).

    python3 tests/kernels/gen_stack_tensor_array.py
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
# pylint: disable-next=g-import-not-at-top
from tensorflow.python.ops import gen_data_flow_ops as g  # noqa: E402

v1 = tf.compat.v1
v1.disable_eager_execution()
v1.disable_control_flow_v2()
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
F32 = tf.float32


def after(dep, fn):
  with tf.control_dependencies([dep]):
    return fn()


CASES = []


def case(name, error=None):
  def register(build):
    CASES.append((name, build, error))
    return build
  return register


# ---- Stacks ------------------------------------------------------------------------------

@case("stack_lifo")
def _():
  h = g.stack_v2(-1, elem_type=F32, stack_name="s")
  p1 = g.stack_push_v2(h, [1.0, 2.0])
  p2 = after(p1, lambda: g.stack_push_v2(h, [[3.0]], swap_memory=True))
  a = after(p2, lambda: g.stack_pop_v2(h, elem_type=F32))
  b = after(a, lambda: g.stack_pop_v2(h, elem_type=F32))
  return [p2, a, b]


@case("stack_strings_and_int64")
def _():
  s = g.stack_v2(2, elem_type=tf.string)
  ps = g.stack_push_v2(s, ["ab", "c"])
  i = g.stack_v2(3, elem_type=tf.int64)
  pi = g.stack_push_v2(i, np.int64(7))
  return [after(ps, lambda: g.stack_pop_v2(s, elem_type=tf.string)),
          after(pi, lambda: g.stack_pop_v2(i, elem_type=tf.int64))]


@case("stack_negative_max_size_is_unbounded")
def _():
  h = g.stack_v2(-5, elem_type=tf.int32)
  p = tf.no_op()
  for k in range(4):
    p = after(p, lambda k=k: g.stack_push_v2(h, k).op)
  return [after(p, lambda: g.stack_pop_v2(h, elem_type=tf.int32))]


@case("stack_in_loops")
def _():
  """A forward loop pushes, a second loop pops in reverse, as TF1's loop gradients do."""
  h = g.stack_v2(-1, elem_type=F32)
  x = tf.constant([1.0, 2.0])

  def push_body(i, acc):
    p = g.stack_push_v2(h, x * tf.cast(i + 1, F32))
    with tf.control_dependencies([p]):
      return i + 1, acc + 1.0
  _, pushed = v1.while_loop(lambda i, acc: i < 3, push_body, [0, 0.0], parallel_iterations=1)

  def pop_body(i, acc):
    return i + 1, tf.reshape(acc * 10.0 + g.stack_pop_v2(h, elem_type=F32), [2])
  with tf.control_dependencies([pushed]):
    start = tf.zeros([2])
  _, popped = v1.while_loop(lambda i, acc: i < 3, pop_body, [0, start], parallel_iterations=1)
  return [pushed, popped]


@case("stack_pop_empty", "is_empty")
def _():
  return [g.stack_pop_v2(g.stack_v2(2, elem_type=F32, stack_name="s"), elem_type=F32)]


@case("stack_overflow", "overflow")
def _():
  h = g.stack_v2(1, elem_type=F32)
  p = g.stack_push_v2(h, 1.0)
  return [after(p, lambda: g.stack_push_v2(h, 2.0))]


@case("stack_zero_max_size", "overflow0")
def _():
  return [g.stack_push_v2(g.stack_v2(0, elem_type=F32), 2.0)]


@case("stack_push_wrong_dtype", "Must have type 1 but got 3")
def _():
  return [g.stack_push_v2(g.stack_v2(1, elem_type=F32), 1)]


@case("stack_pop_wrong_dtype", "Output 0 of type float does not match declared output type int32")
def _():
  h = g.stack_v2(-1, elem_type=F32)
  p = g.stack_push_v2(h, 1.0)
  return [after(p, lambda: g.stack_pop_v2(h, elem_type=tf.int32))]


@case("stack_closed", "] has already been closed.")
def _():
  h = g.stack_v2(-1, elem_type=F32)
  c = g.stack_close_v2(h)
  return [after(c, lambda: g.stack_push_v2(h, 2.0))]


@case("stack_max_size_not_scalar", "Stack size must be a scalar, but had shape: [2]")
def _():
  return [g.stack_v2(v1.placeholder_with_default([1, 2], [None]), elem_type=F32)]


# ---- Gradient TensorArrays ---------------------------------------------------------------

def forward(size=3, **kwargs):
  kwargs.setdefault("dtype", F32)
  return g.tensor_array_v3(size, **kwargs)


@case("grad_reads_zeros_of_the_forward_shapes")
def _():
  h, flow = forward(3)
  flow = g.tensor_array_write_v3(h, 0, [1.0, 2.0], flow)
  flow = g.tensor_array_write_v3(h, 1, [[3.0, 4.0, 5.0]], flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="gradients")
  return [g.tensor_array_read_v3(gh, 1, gflow, dtype=F32),
          g.tensor_array_read_v3(gh, 0, gflow, dtype=F32),
          g.tensor_array_size_v3(gh, gflow), gflow]


@case("grad_writes_add_up")
def _():
  h, flow = forward(2, element_shape=[2])
  flow = g.tensor_array_write_v3(h, 0, [1.0, 2.0], flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="gradients")
  gflow = g.tensor_array_write_v3(gh, 0, [10.0, 20.0], gflow)
  gflow = g.tensor_array_write_v3(gh, 0, [1.0, 2.0], gflow)
  gflow = g.tensor_array_write_v3(gh, 0, [0.5, 0.5], gflow)
  gflow = g.tensor_array_write_v3(gh, 1, [7.0, 8.0], gflow)
  gflow = g.tensor_array_write_v3(gh, 1, [1.0, 1.0], gflow)
  return [g.tensor_array_gather_v3(gh, [0, 1], gflow, dtype=F32)]


@case("grad_writes_add_up_int32")
def _():
  h, flow = forward(1, dtype=tf.int32)
  flow = g.tensor_array_write_v3(h, 0, [1, 2], flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="g")
  gflow = g.tensor_array_write_v3(gh, 0, [2147483647, 5], gflow)
  gflow = g.tensor_array_write_v3(gh, 0, [1, -5], gflow)
  return [g.tensor_array_read_v3(gh, 0, gflow, dtype=tf.int32)]


@case("grad_same_source_same_array")
def _():
  h, flow = forward(2, element_shape=[2])
  gh1, gflow1 = g.tensor_array_grad_v3(h, flow, source="gradients")
  w = g.tensor_array_write_v3(gh1, 1, [3.0, 4.0], gflow1)
  gh2, gflow2 = g.tensor_array_grad_v3(h, w, source="gradients")
  other, oflow = g.tensor_array_grad_v3(h, w, source="gradients_1")
  return [g.tensor_array_read_v3(gh2, 1, gflow2, dtype=F32),
          g.tensor_array_read_v3(other, 1, oflow, dtype=F32)]


@case("grad_with_shape")
def _():
  h, flow = forward(2, element_shape=[2])
  flow = g.tensor_array_write_v3(h, 0, [1.0, 2.0], flow)
  gh, gflow = g.tensor_array_grad_with_shape(h, flow, [4], source="g")
  r0 = g.tensor_array_read_v3(gh, 0, gflow, dtype=F32)
  # Past the end: zeros of the known element shape [4, 2], and the array grows.
  r5 = g.tensor_array_read_v3(gh, 5, gflow, dtype=F32)
  return [r0, r5, after(r5, lambda: g.tensor_array_size_v3(gh, gflow))]


@case("grad_with_shape_unknown_rank", "Could not read from TensorArray index 3")
def _():
  h, flow = forward(2)
  flow = g.tensor_array_write_v3(h, 0, [1.0, 2.0], flow)
  gh, gflow = g.tensor_array_grad_with_shape(h, flow, [4, 1], source="g")
  r0 = g.tensor_array_read_v3(gh, 0, gflow, dtype=F32)
  return [r0, after(r0, lambda: g.tensor_array_read_v3(gh, 3, gflow, dtype=F32))]


@case("grad_aggregate_shape_mismatch",
      ": Could not aggregate to TensorArray index 0 because the existing shape is [2] but the "
      "new input shape is [3].")
def _():
  h, flow = forward(1)
  flow = g.tensor_array_write_v3(h, 0, [1.0, 2.0], flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="g")
  return [g.tensor_array_write_v3(gh, 0, [1.0, 2.0, 3.0], gflow)]


@case("grad_aggregate_bool", "tensor_array::AddToTensor type not supported: bool")
def _():
  h, flow = forward(1, dtype=tf.bool)
  flow = g.tensor_array_write_v3(h, 0, [True], flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="g")
  gflow = g.tensor_array_write_v3(gh, 0, [True], gflow)
  return [g.tensor_array_write_v3(gh, 0, [False], gflow)]


@case("grad_of_a_grad_array", "Wrong input container. _tensor_array_grads")
def _():
  h, flow = forward(1)
  flow = g.tensor_array_write_v3(h, 0, [1.0], flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="g")
  return [g.tensor_array_grad_v3(gh, gflow, source="g2")[1]]


@case("grad_stops_the_forward_array_growing",
      " but array is not resizeable and size is: 1")
def _():
  h, flow = forward(1, dynamic_size=True)
  flow = g.tensor_array_write_v3(h, 0, [1.0], flow)
  _, gflow = g.tensor_array_grad_v3(h, flow, source="g")
  return [g.tensor_array_write_v3(h, 3, [1.0], gflow)]


@case("grad_of_a_closed_array", "has already been closed.")
def _():
  h, flow = forward(1)
  c = g.tensor_array_close_v3(h)
  return [after(c, lambda: g.tensor_array_grad_v3(h, flow, source="g")[1])]


@case("grad_concat_of_a_split_array")
def _():
  h, flow = forward(2, element_shape=[None])
  flow = g.tensor_array_split_v3(h, [1.0, 2.0, 3.0], np.array([1, 2], np.int64), flow)
  gh, gflow = g.tensor_array_grad_v3(h, flow, source="g")
  gflow = g.tensor_array_write_v3(gh, 1, [5.0, 6.0], gflow)
  value, lengths = g.tensor_array_concat_v3(gh, gflow, dtype=F32)
  return [value, lengths]


# ---- TensorArray behaviours the gradients rely on -------------------------------------------

@case("write_after_read", ": Could not write to TensorArray index 0 because it has already "
      "been read.")
def _():
  h, flow = forward(2, clear_after_read=False)
  flow = g.tensor_array_write_v3(h, 0, [1.0], flow)
  r = g.tensor_array_read_v3(h, 0, flow, dtype=F32)
  return [after(r, lambda: g.tensor_array_write_v3(h, 0, [2.0], flow))]


@case("write_wrong_dtype", "TensorArray dtype is float but Op is trying to write dtype int32.")
def _():
  h, flow = forward(2)
  return [g.tensor_array_write_v3(h, 0, [1], flow)]


@case("read_out_of_range", "Tried to read from index 5 but array size is: 2")
def _():
  h, flow = forward(2)
  return [g.tensor_array_read_v3(h, 5, flow, dtype=F32)]


@case("scatter_past_the_end", "Max scatter index must be < array size (4 vs. 2)")
def _():
  h, flow = forward(2)
  return [g.tensor_array_scatter_v3(h, [0, 4], [[1.0], [2.0]], flow)]


@case("split_of_a_dynamic_array_with_fewer_lengths",
      "TensorArray's size is not equal to the size of lengths (3 vs. 2)")
def _():
  h, flow = forward(3, dynamic_size=True)
  return [g.tensor_array_split_v3(h, [1.0, 2.0], np.array([1, 1], np.int64), flow)]


@case("gather_element_shape_does_not_match", "which does not match the Tensor at index 0: [2]")
def _():
  h, flow = forward(1)
  flow = g.tensor_array_write_v3(h, 0, [1.0, 2.0], flow)
  return [g.tensor_array_gather_v3(h, [0], flow, dtype=F32, element_shape=[None, 2])]


def main():
  graph = tf.Graph()
  fetches = {}
  with graph.as_default():
    for name, build, _ in CASES:
      with tf.name_scope(name):
        fetches[name] = build()
  expected = tf.compat.v1.GraphDef()
  config = v1.ConfigProto()
  config.graph_options.rewrite_options.disable_meta_optimizer = True
  lines = [f"# Generated by tests/kernels/gen_stack_tensor_array.py from TensorFlow "
           f"{tf.__version__}; do not edit.\n"]
  for name, _, error in CASES:
    tensors = [t if isinstance(t, tf.Tensor) else t.outputs[0] for t in fetches[name]]
    lines.append(f"case {name}\n")
    lines.extend(f"fetch {t.name}\n" for t in tensors)
    with v1.Session(graph=graph, config=config) as sess:
      try:
        values = sess.run(tensors)
      except tf.errors.OpError as e:
        if error is None:
          raise
        text = {"is_empty": "] is empty when calling Pop().",
                "overflow": "] overflowed its max_size (1)",
                "overflow0": "] overflowed its max_size (0)"}.get(error, error)
        assert text in e.message, (name, e.message)
        lines.append(f"error {e.error_code} {text}\n")
        continue
    assert error is None, name
    for i, value in enumerate(values):
      value = np.asarray(value, dtype=object if tensors[i].dtype == tf.string else None)
      node = expected.node.add(name=f"{name}/expected/{i}", op="Const")
      node.attr["dtype"].type = tensors[i].dtype.as_datatype_enum
      node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value, dtype=tensors[i].dtype))
    lines.append("ok\n")
  with open(os.path.join(HERE, "stack_tensor_array.pb"), "wb") as f:
    f.write(graph.as_graph_def().SerializeToString())
  with open(os.path.join(HERE, "stack_tensor_array.expected.pb"), "wb") as f:
    f.write(expected.SerializeToString())
  with open(os.path.join(HERE, "stack_tensor_array.txt"), "w") as f:
    f.writelines(lines)
  print(f"wrote {len(CASES)} cases")


if __name__ == "__main__":
  main()
