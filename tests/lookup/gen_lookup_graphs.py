"""Regenerates the lookup-table fixtures: TF1 graphs of table ops made and run by TensorFlow.

Usage (from the repository root, with TensorFlow 2.21 installed; the vocabulary files are
read through paths relative to it, as the test reads them):
    python3 tests/lookup/gen_lookup_graphs.py

For each graph it writes tests/lookup/<name>.pbtxt (the GraphDef as TensorFlow exports it)
and <name>.steps.txt: the steps lookup_graphs_test.cc replays in one Sluice session, in
order, with what TensorFlow's own session returned. One step per line, tab-separated:
    targets  fetches  feeds  expected  sort
targets and fetches are comma lists ("-" when empty); feeds is "-" or a comma list of
name=<base64 TensorProto>; expected is "ok" followed by ":<base64 TensorProto>" per fetch,
or "error:<CODE>:<TensorFlow's message, its first line>"; sort is "-" or "k:v", fetch
indices of an export's keys and values whose rows the test orders by key before comparing
(TensorFlow's hash tables export in hash-map order, which is not part of their contract).

The Keras graphs are StringLookup and IntegerLookup layers traced in a tf.function and
frozen with convert_variables_to_constants_v2, fed and fetched as a SavedModel would be.
"""
import base64
import os

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import errors_impl
from tensorflow.python.ops import gen_lookup_ops as gl

tf1 = tf.compat.v1
OUT = os.path.dirname(os.path.abspath(__file__))
REL = "tests/lookup/testdata"


def b64(value, dtype=None):
    proto = tf.make_tensor_proto(value, dtype=dtype)
    return base64.b64encode(proto.SerializeToString()).decode()


class Steps:
    """Builds the step list of one graph; each step is run in TensorFlow when written."""

    def __init__(self):
        self.steps = []

    def add(self, targets=(), fetches=(), feeds=None, sort=None):
        self.steps.append((list(targets), list(fetches), dict(feeds or {}), sort))


def core_message(message):
    """The kernel's own message in what a TensorFlow 2 session reports: after the
    "Node: 'name'" line, before the "[[{{node name}}]]" trailer; newlines and tabs escaped."""
    marker = message.find("\nNode: '")
    if marker >= 0:
        message = message[message.index("\n", marker + 1) + 1:]
    trailer = message.find("\n\t [[")
    if trailer >= 0:
        message = message[:trailer]
    return message.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def name_of(x):
    return x if isinstance(x, str) else x.name


def write(name, graph, steps):
    lines = []
    with tf1.Session(graph=graph) as sess:
        for targets, fetches, feeds, sort in steps.steps:
            targets = [name_of(t) for t in targets]
            fetches = [name_of(f) for f in fetches]
            ops = [graph.get_operation_by_name(t.split(":")[0]) for t in targets]
            tensors = [graph.get_tensor_by_name(f) for f in fetches]
            feed_dict = {graph.get_tensor_by_name(k): v for k, v in feeds.items()}
            try:
                results = sess.run(tensors + ops, feed_dict=feed_dict)[:len(tensors)]
                if sort is not None:
                    k, v = sort
                    order = np.argsort(np.asarray(results[k]), kind="stable")
                    results[k] = np.asarray(results[k])[order]
                    results[v] = np.asarray(results[v])[order]
                expected = "ok" + "".join(
                    ":" + b64(r, tensors[i].dtype) for i, r in enumerate(results))
            except errors_impl.OpError as e:
                code = errors_impl.error_code_from_exception_type(type(e))
                from tensorflow.core.protobuf import error_codes_pb2
                expected = "error:%s:%s" % (error_codes_pb2.Code.Name(code),
                                           core_message(e.message))
            feed_text = ",".join("%s=%s" % (k, b64(v, graph.get_tensor_by_name(k).dtype))
                                 for k, v in feeds.items()) or "-"
            lines.append("\t".join([
                ",".join(targets) or "-",
                ",".join(fetches) or "-",
                feed_text,
                expected,
                "%d:%d" % sort if sort is not None else "-",
            ]))
    with open(os.path.join(OUT, name + ".pbtxt"), "w") as f:
        f.write(str(graph.as_graph_def()))
    with open(os.path.join(OUT, name + ".steps.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", name, len(lines), "steps")


def write_vocab(name, text):
    os.makedirs(os.path.join(OUT, "testdata"), exist_ok=True)
    with open(os.path.join(OUT, "testdata", name), "wb") as f:
        f.write(text)
    return "%s/%s" % (REL, name)


HASH_TABLE_PAIRS = [
    (tf.int32, tf.float32), (tf.int32, tf.float64), (tf.int32, tf.int32), (tf.int32, tf.string),
    (tf.int64, tf.float32), (tf.int64, tf.float64), (tf.int64, tf.int32), (tf.int64, tf.int64),
    (tf.int64, tf.string), (tf.string, tf.bool), (tf.string, tf.float32),
    (tf.string, tf.float64), (tf.string, tf.int32), (tf.string, tf.int64),
    (tf.string, tf.string),
]
MUTABLE_PAIRS = [p for p in HASH_TABLE_PAIRS if p not in [(tf.int32, tf.string)]]
MUTABLE_PAIRS = [p for p in MUTABLE_PAIRS if p != (tf.string, tf.string)]


def sample(dtype, n, start=0):
    if dtype == tf.string:
        return np.array([("k%d" % (start + i)).encode() for i in range(n)], dtype=object)
    if dtype == tf.bool:
        return np.array([(start + i) % 2 == 0 for i in range(n)])
    if dtype in (tf.float32, tf.float64):
        return np.array([0.5 * (start + i) - 1.25 for i in range(n)], dtype=dtype.as_numpy_dtype)
    return np.array([3 * (start + i) - 4 for i in range(n)], dtype=dtype.as_numpy_dtype)


def hide(x):
    """x with its static shape hidden, so that TensorFlow's kernel, not its shape function,
    checks it."""
    return tf1.placeholder_with_default(x, shape=None)


def default_of(dtype):
    return sample(dtype, 1, 100)[0]


def hash_tables():
    """HashTableV2 for every registered pair: import, find, size, export, re-initialization."""
    g = tf.Graph()
    s = Steps()
    with g.as_default():
        for i, (kd, vd) in enumerate(HASH_TABLE_PAIRS):
            p = "t%d_" % i
            table = gl.hash_table_v2(key_dtype=kd, value_dtype=vd, shared_name=p + "table",
                                     name=p + "table")
            keys = tf.constant(sample(kd, 4), kd)
            values = tf.constant(sample(vd, 4), vd)
            init = gl.initialize_table_v2(table, keys, values, name=p + "init")
            query = tf.constant(np.concatenate([sample(kd, 3, 2), sample(kd, 2, 50)]), kd)
            find = gl.lookup_table_find_v2(table, query, tf.constant(default_of(vd), vd),
                                           name=p + "find")
            size = gl.lookup_table_size_v2(table, name=p + "size")
            export = gl.lookup_table_export_v2(table, kd, vd, name=p + "export")
            s.add(fetches=[size])
            s.add(fetches=[find])
            s.add(targets=[init])
            s.add(fetches=[find, size])
            s.add(fetches=list(export), sort=(0, 1))
            # The same entries again: accepted (only the count is compared).
            s.add(targets=[init])
            if i == 0:
                # Matrix keys keep their shape.
                q2 = tf.constant(sample(kd, 6).reshape(2, 3), kd)
                s.add(fetches=[gl.lookup_table_find_v2(table, q2, tf.constant(default_of(vd),
                                                                              vd))])
                s.add(fetches=[gl.lookup_table_find_v2(table, tf.constant(sample(kd, 1)[0], kd),
                                                       tf.constant(default_of(vd), vd))])
                # A different number of entries: refused.
                init3 = gl.initialize_table_v2(table, keys[:3], values[:3], name=p + "init3")
                s.add(targets=[init3])
                # Insert, Remove: not supported by a HashTable.
                s.add(targets=[gl.lookup_table_insert_v2(table, keys, values)])
                s.add(targets=[gl.lookup_table_remove_v2(table, keys)])
                # A default that is not a scalar.
                s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                       tf.constant(sample(vd, 5), vd))])
                s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                       tf.constant(sample(vd, 2), vd))])
                # Import into an initialized table with other entries.
                s.add(targets=[gl.lookup_table_import_v2(table, keys[:2], values[:2])])
                # Keys of another dtype than the table's.
                s.add(fetches=[gl.lookup_table_find_v2(table, tf.constant([1, 2], tf.int64),
                                                       tf.constant(default_of(vd), vd))])
    write("hash_tables", g, s)


def hash_table_errors():
    """Initialization failures of a HashTable."""
    g = tf.Graph()
    s = Steps()
    with g.as_default():
        def table(n, kd=tf.string, vd=tf.int64, **kw):
            return gl.hash_table_v2(key_dtype=kd, value_dtype=vd, shared_name=n, name=n, **kw)
        t = table("dup")
        s.add(targets=[gl.initialize_table_v2(t, tf.constant(["a", "b", "a"]),
                                              tf.constant([1, 2, 3], tf.int64))])
        s.add(fetches=[gl.lookup_table_size_v2(t)])
        t = table("dup_float", vd=tf.float32)
        s.add(targets=[gl.initialize_table_v2(t, tf.constant(["a", "a"]),
                                              tf.constant([1.2345678, 0.1], tf.float32))])
        t = table("dup_double", vd=tf.float64)
        s.add(targets=[gl.initialize_table_v2(t, tf.constant(["a", "a"]),
                                              tf.constant([0.1, 2.0 / 3], tf.float64))])
        t = table("dup_same")
        s.add(targets=[gl.initialize_table_v2(t, tf.constant(["a", "b", "a"]),
                                              tf.constant([1, 2, 1], tf.int64))])
        s.add(fetches=[gl.lookup_table_size_v2(t)])
        # No keys. (With an empty default, of the output's size, TensorFlow's HashTable
        # reads the default's first element anyway and the process dies; left out here,
        # lookup_table_ops_test.cc checks Sluice's empty result.)
        s.add(fetches=[gl.lookup_table_find_v2(t, tf.constant([], tf.string),
                                               tf.constant(5, tf.int64))])
        t = table("sizes")
        s.add(targets=[gl.initialize_table_v2(t, hide(tf.constant(["a", "b", "c"])),
                                              hide(tf.constant([1, 2], tf.int64)))])
        t = table("empty")
        s.add(targets=[gl.initialize_table_v2(t, tf.constant([], tf.string),
                                              tf.constant([], tf.int64))])
        t = table("import_matrix")
        s.add(targets=[gl.lookup_table_import_v2(t, tf.constant(["a", "b"]),
                                                 tf.constant([[1], [2]], tf.int64))])
        s.add(targets=[gl.lookup_table_import_v2(t, tf.constant(["a", "b"]),
                                                 hide(tf.constant([1, 2, 3], tf.int64)))])
        s.add(targets=[gl.initialize_table_v2(t, hide(tf.constant([["a", "b"]])),
                                              hide(tf.constant([[1, 2]], tf.int64)))])
        s.add(targets=[gl.lookup_table_import_v2(t, tf.constant(["a", "b"]),
                                                 tf.constant([1, 2], tf.int64))])
        s.add(fetches=[gl.lookup_table_find_v2(t, tf.constant(["b", "z"]),
                                               tf.constant(-1, tf.int64))])
        t = table("not_initialized")
        s.add(fetches=list(gl.lookup_table_export_v2(t, tf.string, tf.int64)))
        # Shared names: one table for two nodes; other dtypes under the same name refused.
        a = gl.hash_table_v2(key_dtype=tf.string, value_dtype=tf.int64, shared_name="shared",
                             name="shared_a")
        b = gl.hash_table_v2(key_dtype=tf.string, value_dtype=tf.int64, shared_name="shared",
                             name="shared_b")
        s.add(targets=[gl.initialize_table_v2(a, tf.constant(["x"]), tf.constant([7], tf.int64))])
        s.add(fetches=[gl.lookup_table_find_v2(b, tf.constant(["x", "y"]),
                                               tf.constant(0, tf.int64))])
        c = gl.hash_table_v2(key_dtype=tf.int64, value_dtype=tf.int64, shared_name="shared",
                             name="shared_c")
        s.add(fetches=[gl.lookup_table_size_v2(c)])
        # use_node_name_sharing: the node's name is the table's.
        n = gl.hash_table_v2(key_dtype=tf.int64, value_dtype=tf.float32,
                             use_node_name_sharing=True, name="by_node_name")
        s.add(targets=[gl.initialize_table_v2(n, tf.constant([4], tf.int64),
                                              tf.constant([0.5]))])
        s.add(fetches=[gl.lookup_table_find_v2(n, tf.constant([4, 5], tf.int64),
                                               tf.constant(-1.0))])
        # No shared name: a table private to the node, kept across runs.
        p = gl.hash_table_v2(key_dtype=tf.int64, value_dtype=tf.float32, name="private")
        s.add(targets=[gl.initialize_table_v2(p, tf.constant([1], tf.int64),
                                              tf.constant([2.5]))])
        s.add(fetches=[gl.lookup_table_find_v2(p, tf.constant([1], tf.int64),
                                               tf.constant(-1.0))])
        # Anonymous tables: a new one per run.
        anon = gl.anonymous_hash_table(key_dtype=tf.string, value_dtype=tf.int64)
        imp = gl.lookup_table_import_v2(anon, tf.constant(["p", "q"]),
                                        tf.constant([5, 6], tf.int64))
        with tf.control_dependencies([imp]):
            found = gl.lookup_table_find_v2(anon, tf.constant(["q", "r"]),
                                            tf.constant(-1, tf.int64))
        s.add(fetches=[found])
        s.add(fetches=[gl.lookup_table_size_v2(anon)])
        manon = gl.anonymous_mutable_hash_table(key_dtype=tf.int64, value_dtype=tf.float32)
        ins = gl.lookup_table_insert_v2(manon, tf.constant([1, 2], tf.int64),
                                        tf.constant([0.25, 0.75]))
        with tf.control_dependencies([ins]):
            msize = gl.lookup_table_size_v2(manon)
        s.add(fetches=[msize])
        tanon = gl.anonymous_mutable_hash_table_of_tensors(key_dtype=tf.int64,
                                                           value_dtype=tf.float32,
                                                           value_shape=[2])
        tins = gl.lookup_table_insert_v2(tanon, tf.constant([1], tf.int64),
                                         tf.constant([[0.25, 0.75]]))
        with tf.control_dependencies([tins]):
            tfound = gl.lookup_table_find_v2(tanon, tf.constant([1, 3], tf.int64),
                                             tf.constant([9.0, 8.0]))
        s.add(fetches=[tfound])
    write("hash_table_errors", g, s)


def mutable_tables():
    """MutableHashTableV2 for every registered pair (variant values left out)."""
    g = tf.Graph()
    s = Steps()
    with g.as_default():
        for i, (kd, vd) in enumerate(MUTABLE_PAIRS):
            p = "m%d_" % i
            table = gl.mutable_hash_table_v2(key_dtype=kd, value_dtype=vd,
                                             shared_name=p + "table", name=p + "table")
            keys = tf.constant(sample(kd, 4), kd)
            values = tf.constant(sample(vd, 4), vd)
            query = tf.constant(np.concatenate([sample(kd, 3, 2), sample(kd, 2, 50)]), kd)
            dflt = tf.constant(default_of(vd), vd)
            s.add(fetches=[gl.lookup_table_find_v2(table, query, dflt)])
            s.add(targets=[gl.lookup_table_insert_v2(table, keys, values)])
            s.add(fetches=[gl.lookup_table_find_v2(table, query, dflt),
                           gl.lookup_table_size_v2(table)])
            # Overwrite two, add two.
            s.add(targets=[gl.lookup_table_insert_v2(
                table, tf.constant(sample(kd, 4, 2), kd), tf.constant(sample(vd, 4, 10), vd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)), sort=(0, 1))
            s.add(targets=[gl.lookup_table_remove_v2(table, tf.constant(sample(kd, 2, 1), kd))])
            s.add(fetches=[gl.lookup_table_find_v2(table, query, dflt),
                           gl.lookup_table_size_v2(table)])
            # A default per key.
            s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                   tf.constant(sample(vd, 5, 20), vd))])
            # Import replaces everything.
            s.add(targets=[gl.lookup_table_import_v2(table, tf.constant(sample(kd, 2, 7), kd),
                                                     tf.constant(sample(vd, 2, 3), vd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)), sort=(0, 1))
            if i == 0:
                s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                       tf.constant(sample(vd, 2), vd))])
                s.add(targets=[gl.lookup_table_insert_v2(table, keys,
                                                         tf.constant(sample(vd, 3), vd))])
                s.add(targets=[gl.lookup_table_insert_v2(table, tf.reshape(keys, [2, 2]),
                                                         tf.reshape(values, [2, 2]))])
                s.add(fetches=[gl.lookup_table_find_v2(table, tf.reshape(keys, [2, 2]), dflt)])
                s.add(targets=[gl.lookup_table_import_v2(table, keys,
                                                         hide(tf.constant(sample(vd, 3), vd)))])
                s.add(targets=[gl.lookup_table_import_v2(table, tf.constant([], kd),
                                                         tf.constant([], vd))])
                s.add(fetches=[gl.lookup_table_size_v2(table)])
                # A scalar key removed.
                s.add(targets=[gl.lookup_table_insert_v2(table, keys, values)])
                s.add(targets=[gl.lookup_table_remove_v2(table, tf.constant([], kd))])
                s.add(fetches=[gl.lookup_table_size_v2(table)])
    write("mutable_tables", g, s)


def tables_of_tensors():
    g = tf.Graph()
    s = Steps()
    with g.as_default():
        for i, (kd, vd) in enumerate(MUTABLE_PAIRS):
            p = "v%d_" % i
            table = gl.mutable_hash_table_of_tensors_v2(key_dtype=kd, value_dtype=vd,
                                                        value_shape=[3],
                                                        shared_name=p + "table",
                                                        name=p + "table")
            keys = tf.constant(sample(kd, 4), kd)
            values = tf.constant(sample(vd, 12).reshape(4, 3), vd)
            query = tf.constant(np.concatenate([sample(kd, 3, 2), sample(kd, 2, 50)]), kd)
            dflt = tf.constant(sample(vd, 3, 30), vd)
            s.add(targets=[gl.lookup_table_insert_v2(table, keys, values)])
            s.add(fetches=[gl.lookup_table_find_v2(table, query, dflt),
                           gl.lookup_table_size_v2(table)])
            s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                   tf.constant(sample(vd, 15).reshape(5, 3), vd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)), sort=(0, 1))
            s.add(targets=[gl.lookup_table_remove_v2(table, tf.constant(sample(kd, 1, 3), kd))])
            s.add(targets=[gl.lookup_table_import_v2(table, tf.constant(sample(kd, 2, 9), kd),
                                                     tf.constant(sample(vd, 6).reshape(2, 3),
                                                                 vd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)), sort=(0, 1))
            if i == 0:
                s.add(targets=[gl.lookup_table_insert_v2(table, keys,
                                                         tf.constant(sample(vd, 8).reshape(4, 2),
                                                                     vd))])
                s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                       tf.constant(sample(vd, 2), vd))])
                s.add(fetches=[gl.lookup_table_find_v2(table, query, tf.constant(default_of(vd),
                                                                                 vd))])
                s.add(fetches=[gl.lookup_table_find_v2(table, tf.reshape(keys, [2, 2]),
                                                       dflt)])
                bad = gl.mutable_hash_table_of_tensors_v2(key_dtype=kd, value_dtype=vd,
                                                          value_shape=[2, 2],
                                                          shared_name="bad_shape")
                s.add(fetches=[gl.lookup_table_size_v2(bad)])
                sc = gl.mutable_hash_table_of_tensors_v2(key_dtype=kd, value_dtype=vd,
                                                         shared_name="scalar_values")
                s.add(fetches=[gl.lookup_table_size_v2(sc)])
    write("tables_of_tensors", g, s)


DENSE_PAIRS = [
    (tf.int32, tf.float32), (tf.int32, tf.float64), (tf.int32, tf.int32),
    (tf.int64, tf.bool), (tf.int64, tf.float32), (tf.int64, tf.float64), (tf.int64, tf.int32),
    (tf.int64, tf.int64), (tf.string, tf.bool), (tf.string, tf.float32),
    (tf.string, tf.float64), (tf.string, tf.int32), (tf.string, tf.int64),
]


def reserved_keys(kd, shape=()):
    if kd == tf.string:
        e, d = np.array(b"<empty>", dtype=object), np.array(b"<deleted>", dtype=object)
    else:
        e, d = np.array(-1000, kd.as_numpy_dtype), np.array(-2000, kd.as_numpy_dtype)
    return (tf.constant(np.broadcast_to(e, shape).copy(), kd),
            tf.constant(np.broadcast_to(d, shape).copy(), kd))


def dense_tables():
    """MutableDenseHashTableV2: its buckets are exported as they are, so the layout (hash,
    probing, growth) is compared exactly."""
    g = tf.Graph()
    s = Steps()
    with g.as_default():
        for i, (kd, vd) in enumerate(DENSE_PAIRS):
            p = "d%d_" % i
            empty, deleted = reserved_keys(kd)
            table = gl.mutable_dense_hash_table_v2(empty, deleted, value_dtype=vd,
                                                   initial_num_buckets=8, max_load_factor=0.5,
                                                   shared_name=p + "table", name=p + "table")
            query = tf.constant(np.concatenate([sample(kd, 3, 2), sample(kd, 2, 50)]), kd)
            dflt = tf.constant(default_of(vd), vd)
            s.add(targets=[gl.lookup_table_insert_v2(table, tf.constant(sample(kd, 3), kd),
                                                     tf.constant(sample(vd, 3), vd))])
            s.add(fetches=[gl.lookup_table_find_v2(table, query, dflt),
                           gl.lookup_table_size_v2(table)])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)))
            # Growth: 3 + 4 entries do not fit 8 buckets at 0.5.
            s.add(targets=[gl.lookup_table_insert_v2(table, tf.constant(sample(kd, 4, 10), kd),
                                                     tf.constant(sample(vd, 4, 10), vd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)))
            s.add(targets=[gl.lookup_table_remove_v2(table, tf.constant(sample(kd, 2, 1), kd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)) +
                  [gl.lookup_table_size_v2(table), gl.lookup_table_find_v2(table, query, dflt)])
            # A removed bucket is reused.
            s.add(targets=[gl.lookup_table_insert_v2(table, tf.constant(sample(kd, 2, 20), kd),
                                                     tf.constant(sample(vd, 2, 20), vd))])
            s.add(fetches=list(gl.lookup_table_export_v2(table, kd, vd)))
            # A default per key.
            s.add(fetches=[gl.lookup_table_find_v2(table, query,
                                                   tf.constant(sample(vd, 5, 30), vd))])
            if i in (7, 12):
                # Import the buckets of one table into another.
                e2, d2 = reserved_keys(kd)
                other = gl.mutable_dense_hash_table_v2(e2, d2, value_dtype=vd,
                                                       initial_num_buckets=4,
                                                       shared_name=p + "other")
                ek, ev = gl.lookup_table_export_v2(table, kd, vd)
                s.add(targets=[gl.lookup_table_import_v2(other, ek, ev)])
                s.add(fetches=[gl.lookup_table_size_v2(other),
                               gl.lookup_table_find_v2(other, query, dflt)])
                s.add(fetches=list(gl.lookup_table_export_v2(other, kd, vd)))
                # Reserved keys as table keys.
                s.add(fetches=[gl.lookup_table_find_v2(table, tf.stack([query[0], empty]),
                                                       dflt)])
                s.add(targets=[gl.lookup_table_insert_v2(table, tf.stack([deleted]),
                                                         tf.constant(sample(vd, 1), vd))])
                s.add(targets=[gl.lookup_table_remove_v2(table, tf.stack([empty]))])
                s.add(fetches=[gl.lookup_table_size_v2(table)])
        # Vector keys and values.
        kd, vd = tf.int64, tf.float32
        empty, deleted = reserved_keys(kd, (2,))
        vt = gl.mutable_dense_hash_table_v2(empty, deleted, value_dtype=vd, value_shape=[3],
                                            initial_num_buckets=4, shared_name="vector_keys")
        keys = tf.constant(sample(kd, 10).reshape(5, 2), kd)
        s.add(targets=[gl.lookup_table_insert_v2(vt, keys,
                                                 tf.constant(sample(vd, 15).reshape(5, 3), vd))])
        s.add(fetches=list(gl.lookup_table_export_v2(vt, kd, vd)) + [gl.lookup_table_size_v2(vt)])
        s.add(fetches=[gl.lookup_table_find_v2(vt, tf.constant([[-1, 2], [5, 8], [0, 0]], kd),
                                               tf.constant([7.0, 8.0, 9.0]))])
        s.add(targets=[gl.lookup_table_remove_v2(vt, keys[1:3])])
        s.add(fetches=list(gl.lookup_table_export_v2(vt, kd, vd)) + [gl.lookup_table_size_v2(vt)])
        s.add(fetches=[gl.lookup_table_find_v2(vt, hide(tf.constant([1, 2, 3], kd)),
                                               tf.constant([7.0, 8.0, 9.0]))])
        s.add(targets=[gl.lookup_table_insert_v2(vt, hide(tf.constant([[1, 2, 3]], kd)),
                                                 hide(tf.constant([[7.0, 8.0, 9.0]])))])
        # Construction errors.
        def bad(name, empty, deleted, **kw):
            t = gl.mutable_dense_hash_table_v2(empty, deleted, value_dtype=tf.float32,
                                               shared_name=name, **kw)
            s.add(fetches=[gl.lookup_table_size_v2(t)])
        e, d = reserved_keys(tf.int64)
        bad("load_factor", e, d, max_load_factor=1.5)
        bad("load_factor0", e, d, max_load_factor=0.0)
        bad("buckets5", e, d, initial_num_buckets=5)
        bad("buckets2", e, d, initial_num_buckets=2)
        bad("same_keys", e, e)
        bad("value_matrix", e, d, value_shape=[2, 2])
        bad("key_matrix", hide(tf.constant([[1, 2]], tf.int64)),
            hide(tf.constant([[3, 4]], tf.int64)))
        bad("key_shapes", hide(tf.constant(1, tf.int64)), hide(tf.constant([3, 4], tf.int64)))
        # Anonymous: a new table per run.
        e, d = reserved_keys(tf.string)
        anon = gl.anonymous_mutable_dense_hash_table(e, d, value_dtype=tf.int64,
                                                     initial_num_buckets=4)
        ins = gl.lookup_table_insert_v2(anon, tf.constant(["x", "y", "z"]),
                                        tf.constant([1, 2, 3], tf.int64))
        with tf.control_dependencies([ins]):
            ak, av = gl.lookup_table_export_v2(anon, tf.string, tf.int64)
        s.add(fetches=[ak, av])
    write("dense_tables", g, s)


def v1_tables():
    """The ref-typed V1 ops: the table passed as a Ref(string) [container, name]."""
    g = tf.Graph()
    s = Steps()
    with g.as_default():
        t = gl.hash_table(key_dtype=tf.string, value_dtype=tf.int64, shared_name="v1_hash",
                          name="v1_hash")
        init = gl.initialize_table(t, tf.constant(["a", "b", "c"]),
                                   tf.constant([1, 2, 3], tf.int64))
        query = tf.constant(["c", "z", "a"])
        find = gl.lookup_table_find(t, query, tf.constant(-1, tf.int64))
        s.add(fetches=[find])
        s.add(fetches=[gl.lookup_table_size(t)])
        s.add(targets=[init])
        s.add(fetches=[find, gl.lookup_table_size(t)])
        s.add(fetches=list(gl.lookup_table_export(t, tf.string, tf.int64)), sort=(0, 1))
        s.add(targets=[gl.lookup_table_insert(t, query, tf.constant([1, 2, 3], tf.int64))])
        s.add(fetches=[gl.lookup_table_find(t, tf.constant([1], tf.int64),
                                            tf.constant(-1, tf.int64))])
        m = gl.mutable_hash_table(key_dtype=tf.int64, value_dtype=tf.float32, name="v1_mutable",
                                  shared_name="v1_mutable")
        s.add(targets=[gl.lookup_table_insert(m, tf.constant([5, 6], tf.int64),
                                              tf.constant([0.5, 0.25]))])
        s.add(fetches=[gl.lookup_table_find(m, tf.constant([6, 7], tf.int64),
                                            tf.constant(-1.0)),
                       gl.lookup_table_size(m)])
        s.add(targets=[gl.lookup_table_import(m, tf.constant([8], tf.int64),
                                              tf.constant([0.125]))])
        s.add(fetches=list(gl.lookup_table_export(m, tf.int64, tf.float32)), sort=(0, 1))
        s.add(targets=[gl.initialize_table(m, tf.constant([1], tf.int64), tf.constant([1.0]))])
        v = gl.mutable_hash_table_of_tensors(key_dtype=tf.string, value_dtype=tf.int32,
                                             value_shape=[2], name="v1_tensors")
        s.add(targets=[gl.lookup_table_insert(v, tf.constant(["p"]),
                                              tf.constant([[3, 4]], tf.int32))])
        s.add(fetches=[gl.lookup_table_find(v, tf.constant(["p", "q"]),
                                            tf.constant([0, 9], tf.int32))])
        f = gl.hash_table(key_dtype=tf.string, value_dtype=tf.int64, name="v1_file")
        fname = tf1.placeholder(tf.string, [], name="filename")
        s.add(targets=[gl.initialize_table_from_text_file(f, fname, key_index=-2,
                                                          value_index=-1)],
              feeds={"filename:0": "%s/words.txt" % REL})
        s.add(fetches=[gl.lookup_table_find(f, tf.constant(["fox", "dog"]),
                                            tf.constant(-1, tf.int64))])
    write("v1_tables", g, s)


def text_files():
    g = tf.Graph()
    s = Steps()
    files = {
        "words": write_vocab("words.txt", b"the\nquick\nbrown\nfox\n"),
        "columns": write_vocab("columns.txt", b"apple,10,1.5\nbanana,20,2.5\ncherry,30,3.5\n"),
        "ints": write_vocab("ints.txt", b"7\t70\n8\t80\n-9\t90"),
        "crlf": write_vocab("crlf.txt", b"one\r\ntwo\r\nthree\r\n"),
        "empty_line": write_vocab("empty_line.txt", b"a\n\nb\n"),
        "bad_number": write_vocab("bad_number.txt", b"a,1\nb,x2\n"),
        "short_row": write_vocab("short_row.txt", b"a,1\nb\n"),
        "empty": write_vocab("empty.txt", b""),
        "dups": write_vocab("dups.txt", b"a,1\nb,2\na,3\n"),
        "spaces": write_vocab("spaces.txt", b"a, 1 \nb,2\n"),
    }
    with g.as_default():
        fname = tf1.placeholder(tf.string, [], name="filename")
        count = [0]

        def case(file, kd, vd, key_index, value_index, queries, default, **kw):
            count[0] += 1
            n = "f%d" % count[0]
            t = gl.hash_table_v2(key_dtype=kd, value_dtype=vd, shared_name=n, name=n)
            init = gl.initialize_table_from_text_file_v2(t, fname, key_index=key_index,
                                                         value_index=value_index,
                                                         name=n + "_init", **kw)
            feeds = {"filename:0": files[file] if file in files else file}
            s.add(targets=[init], feeds=feeds)
            s.add(fetches=[gl.lookup_table_find_v2(t, tf.constant(queries, kd),
                                                   tf.constant(default, vd)),
                           gl.lookup_table_size_v2(t)])
            return init, feeds

        # StringLookup's form: whole line to line number.
        init, feeds = case("words", tf.string, tf.int64, -2, -1, ["fox", "the", "cat"], -1)
        s.add(targets=[init], feeds=feeds)  # Initializing again is accepted.
        case("words", tf.string, tf.int64, -2, -1, ["fox", "brown"], -1, vocab_size=2)
        case("words", tf.string, tf.int64, -2, -1, ["fox"], -1, vocab_size=9)
        case("words", tf.string, tf.int64, -2, -1, ["fox", "the"], -1, offset=5)
        case("words", tf.int64, tf.string, -1, -2, [0, 3, 4], "?")
        case("columns", tf.string, tf.int64, 0, 1, ["banana", "kiwi"], -1, delimiter=",")
        case("columns", tf.string, tf.int32, 0, 1, ["banana", "kiwi"], -1, delimiter=",",
             offset=100)
        case("columns", tf.string, tf.float32, 0, 2, ["cherry"], 0.0, delimiter=",")
        case("columns", tf.string, tf.float64, 0, 2, ["cherry"], 0.0, delimiter=",")
        case("columns", tf.int64, tf.string, 1, 0, [20, 40], "?", delimiter=",")
        case("columns", tf.string, tf.string, 0, -2, ["apple"], "?", delimiter=",")
        case("ints", tf.int64, tf.int64, 0, 1, [-9, 8, 1], -1)
        case("ints", tf.int32, tf.int32, 0, 1, [-9, 8, 1], -1)
        case("crlf", tf.string, tf.int64, -2, -1, ["two", "three"], -1)
        case("empty_line", tf.string, tf.int64, -2, -1, ["a"], -1)
        case("bad_number", tf.string, tf.int64, 0, 1, ["a"], -1, delimiter=",")
        case("bad_number", tf.string, tf.float32, 0, 1, ["a"], 0.0, delimiter=",")
        case("short_row", tf.string, tf.int64, 0, 1, ["a"], -1, delimiter=",")
        case("empty", tf.string, tf.int64, -2, -1, ["a"], -1)
        case("empty", tf.string, tf.int64, -2, -1, ["a"], -1, vocab_size=2)
        case("dups", tf.string, tf.int64, 0, 1, ["a"], -1, delimiter=",")
        case("spaces", tf.string, tf.int64, 0, 1, ["a", "b"], -1, delimiter=",")
        case("spaces", tf.string, tf.float32, 0, 1, ["a", "b"], 0.0, delimiter=",")
        case(REL + "/missing.txt", tf.string, tf.int64, -2, -1, ["a"], -1)
        case("", tf.string, tf.int64, -2, -1, ["a"], -1)
        case("words", tf.string, tf.int32, -2, -1, ["a"], -1)
        case("words", tf.int32, tf.float32, -1, 0, [1], 0.0)
        case("words", tf.string, tf.float32, 0, -2, ["a"], 0.0)
        case("words", tf.string, tf.bool, -2, 0, ["a"], False)
        case("words", tf.string, tf.int64, -2, -1, ["a"], -1, delimiter="ab")
    write("text_files", g, s)


def keras_graphs():
    """Keras StringLookup and IntegerLookup layers served from a SavedModel.

    Frozen with convert_variables_to_constants_v2, such a layer's tf.function keeps only a
    LookupTableFindV2 whose table handle is a resource Placeholder (the table is created
    outside the function, and freezing does not capture tables), which TensorFlow cannot run
    on its own either. A SavedModel keeps the table: its MetaGraph has the HashTableV2 node,
    an init op that calls the initializer function (LookupTableImportV2, or
    InitializeTableFromTextFileV2 on the asset file whose path the loader feeds) and the
    serving signature (a StatefulPartitionedCall of the function with LookupTableFindV2).
    That MetaGraph's GraphDef is written here as TensorFlow's TF1 loader sees it, with the
    library functions the signature and init op do not reach (checkpoint saving and
    restoring) left out."""
    import shutil
    import tempfile
    vocab_file = write_vocab("keras_vocab.txt", b"red\ngreen\nblue\n")

    def reachable(gd, roots):
        funcs = {f.signature.name: f for f in gd.library.function}
        seen = set()
        todo = list(roots)
        while todo:
            nodes = todo.pop()
            for n in nodes:
                for v in n.attr.values():
                    names = [v.func.name] if v.HasField("func") else []
                    for f in names:
                        if f in funcs and f not in seen:
                            seen.add(f)
                            todo.append(funcs[f].node_def)
        return seen

    def save(name, layer, spec, feed_value):
        class Serving(tf.Module):
            def __init__(self):
                super().__init__()
                self.layer = layer

            @tf.function(input_signature=[spec])
            def serve(self, x):
                return {"out": self.layer(x)}

        module = Serving()
        directory = tempfile.mkdtemp()
        tf.saved_model.save(module, directory, signatures={"serving_default": module.serve})
        g = tf.Graph()
        with tf1.Session(graph=g) as sess:
            meta = tf1.saved_model.loader.load(sess, ["serve"], directory)
        sig = meta.signature_def["serving_default"]
        main_op = meta.collection_def["saved_model_main_op"].node_list.value[0]
        assets = {a.tensor_info.name: a.filename for a in meta.asset_file_def}
        shutil.rmtree(directory)
        gd = g.as_graph_def()
        keep_nodes = [n for n in gd.node if not n.name.startswith("saver_filename")
                      and n.name not in ("StatefulPartitionedCall_2",
                                         "StatefulPartitionedCall_3")]
        out = tf1.GraphDef()
        out.versions.CopyFrom(gd.versions)
        out.node.extend(keep_nodes)
        used = reachable(gd, [keep_nodes])
        out.library.function.extend(f for f in gd.library.function
                                    if f.signature.name in used)
        g2 = tf.Graph()
        with g2.as_default():
            tf.graph_util.import_graph_def(out, name="")
        feeds = {t: "%s/%s" % (REL, os.path.basename(f)) for t, f in assets.items()}
        s = Steps()
        s.add(targets=[main_op], feeds=feeds)
        s.add(fetches=[sig.outputs["out"].name], feeds={sig.inputs["x"].name: feed_value})
        ops = set(n.op for n in out.node)
        for f in out.library.function:
            ops |= set(n.op for n in f.node_def)
        print(name, sorted(ops))
        write(name, g2, s)

    save("keras_string_lookup", tf.keras.layers.StringLookup(vocabulary=["a", "b", "c", "d"]),
         tf.TensorSpec([None], tf.string, name="x"),
         np.array([b"a", b"z", b"d", b"b"], dtype=object))
    save("keras_integer_lookup", tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138, 42]),
         tf.TensorSpec([None, 2], tf.int64, name="x"),
         np.array([[12, 1138], [42, 7]], dtype=np.int64))
    save("keras_string_lookup_file", tf.keras.layers.StringLookup(vocabulary=vocab_file),
         tf.TensorSpec([None], tf.string, name="x"),
         np.array([b"blue", b"red", b"pink"], dtype=object))
    save("keras_string_lookup_invert",
         tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], invert=True),
         tf.TensorSpec([None], tf.int64, name="x"), np.array([1, 3, 0, 9], dtype=np.int64))
    vectorize = tf.keras.layers.TextVectorization(output_mode="int", output_sequence_length=5,
                                                  vocabulary=["the", "cat", "sat", "mat"])
    save("keras_text_vectorization", vectorize, tf.TensorSpec([None], tf.string, name="x"),
         np.array([b"The cat sat on the mat!", b"a dog"], dtype=object))
    save("keras_string_lookup_one_hot",
         tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="one_hot"),
         tf.TensorSpec([None], tf.string, name="x"),
         np.array([b"c", b"q", b"a"], dtype=object))


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.dirname(OUT)))
    tf1.disable_eager_execution()
    hash_tables()
    hash_table_errors()
    mutable_tables()
    tables_of_tensors()
    dense_tables()
    text_files()
    v1_tables()
    tf1.enable_eager_execution()
    keras_graphs()
