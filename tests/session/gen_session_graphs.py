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


if __name__ == "__main__":
    tf1.disable_eager_execution()
    variables()
    two_devices()
