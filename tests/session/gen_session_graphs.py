"""Regenerates the session fixtures: TF1 graphs made and run by real TensorFlow.

Usage (from the repository root, with TensorFlow 2.x installed):
    python3 tests/session/gen_session_graphs.py

For each graph it writes <name>.pbtxt (the GraphDef as TensorFlow exports it) and
<name>.steps.txt: the steps session_graphs_test.cc replays in one session, in order, with
the values TensorFlow's own session returned. One step per line:
    <targets> <fetches> <feed> <expected>
each field "-" when empty; targets and fetches are comma lists; feed is
"tensor:dims:values" (dims joined by 'x'); expected is one comma list of float values per
fetch, joined by ';'.
"""
import os

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
OUT = os.path.dirname(os.path.abspath(__file__))


def fmt_values(arr):
    return ",".join(repr(float(v)) for v in np.asarray(arr, np.float32).reshape(-1))


def write(name, graph, steps, config=None):
    """Runs `steps` (targets, fetches, feed) in a TensorFlow session and writes the files."""
    lines = []
    with tf1.Session(graph=graph, config=config) as sess:
        for targets, fetches, feed in steps:
            feed_dict = {}
            feed_text = "-"
            if feed is not None:
                tensor, value = feed
                value = np.asarray(value, np.float32)
                feed_dict[graph.get_tensor_by_name(tensor)] = value
                feed_text = "%s:%s:%s" % (tensor, "x".join(str(d) for d in value.shape),
                                          fmt_values(value))
            ops = [graph.get_operation_by_name(t) for t in targets]
            tensors = [graph.get_tensor_by_name(f) for f in fetches]
            results = sess.run(tensors + ops, feed_dict=feed_dict)[:len(tensors)]
            lines.append(" ".join([
                ",".join(targets) or "-",
                ",".join(fetches) or "-",
                feed_text,
                ";".join(fmt_values(r) for r in results) or "-",
            ]))
    with open(os.path.join(OUT, name + ".pbtxt"), "w") as f:
        f.write(str(graph.as_graph_def()))
    with open(os.path.join(OUT, name + ".steps.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def variables():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        tf.identity(x, name="y")
        v = tf1.Variable(1.0, name="v", use_resource=False)
        inc = tf1.assign_add(v, 2.0, name="inc")
        r = tf1.Variable([10.0, 20.0], name="r", use_resource=True)
        r.assign_add([5.0, 6.0], name="r_inc", read_value=False)
        tf1.global_variables_initializer()
    steps = [
        (["init"], [], None),
        ([], [inc.name], None),
        ([], [inc.name], None),
        ([], ["v/read:0"], None),
        (["r_inc"], [], None),
        ([], ["r/Read/ReadVariableOp:0", "v:0"], None),
        ([], ["y:0"], ("x:0", [[1, 2, 3], [4, 5, 6]])),
    ]
    write("variables", g, steps)


def two_devices():
    g = tf.Graph()
    with g.as_default():
        with tf.device("/cpu:0"):
            x = tf1.placeholder(tf.float32, [2], name="x")
            v = tf1.Variable([1.0, 2.0], name="v", use_resource=False)
        with tf.device("/cpu:1"):
            inc = tf1.assign_add(v, x, name="inc")
            tf.identity(inc, name="out")
        tf1.global_variables_initializer()
    steps = [
        (["init"], [], None),
        ([], ["out:0"], ("x:0", [10, 20])),
        ([], ["out:0", "v/read:0"], ("x:0", [1, 1])),
    ]
    write("two_devices", g, steps, tf1.ConfigProto(device_count={"CPU": 2}))


def training():
    """TF1 optimizers' minimize() on ref and resource variables, dense and sparse."""
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [4], name="x")
        t = tf.constant([1.0, -1.0, 0.5, 2.0])
        w = tf1.Variable([0.5, -0.5, 1.0, 2.0], name="w", use_resource=False)
        b = tf1.Variable([0.0, 0.1, 0.2, 0.3], name="b", use_resource=True)
        loss = tf.reduce_sum(tf.square(w * x + b - t))
        tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="sgd")
        a = tf1.Variable([0.1, 0.2, 0.3, 0.4], name="a", use_resource=True)
        tf1.train.AdamOptimizer(0.01).minimize(tf.reduce_sum(tf.square(a * x - t)), name="adam")
        m = tf1.Variable([1.0, 1.0, -1.0, 0.0], name="m", use_resource=False)
        tf1.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True).minimize(
            tf.reduce_sum(tf.square(m * x - t)), name="momentum")
        table = tf1.Variable([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], name="table",
                             use_resource=True)
        rows = tf.nn.embedding_lookup(table, tf.constant([0, 2, 2]))
        tf1.train.AdagradOptimizer(0.1).minimize(tf.reduce_sum(tf.square(rows - 1.0)),
                                                 name="adagrad")
        ref_table = tf1.Variable([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], name="ref_table",
                                 use_resource=False)
        ref_rows = tf.gather(ref_table, tf.constant([1, 1, 2]))
        tf1.train.GradientDescentOptimizer(0.1).minimize(
            tf.reduce_sum(tf.square(ref_rows - 1.0)), name="sparse_sgd")
        tf1.global_variables_initializer()
    train = ["sgd", "adam", "momentum", "adagrad", "sparse_sgd"]
    read = ["w:0", "b/Read/ReadVariableOp:0", "a/Read/ReadVariableOp:0", "m:0",
            "table/Read/ReadVariableOp:0", "ref_table:0"]
    steps = [(["init"], [], None)]
    for step in range(3):
        steps.append((train, [], ("x:0", [1.0, 2.0, -1.0, 0.5 * step])))
        steps.append(([], read, None))
    # Grappler off: its arithmetic optimizer reassociates w * x + b - t, which rounds
    # differently from the graph as written (which Sluice runs).
    config = tf1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    write("training", g, steps, config)


if __name__ == "__main__":
    tf1.disable_eager_execution()
    variables()
    two_devices()
    training()
