"""Writes the SparseTensor model fixtures of tests/sparse_models from TensorFlow.

A TF1 graph of the lookups feature columns and wide & deep models build on sparse inputs:
tf.nn.safe_embedding_lookup_sparse with combiners sum, mean and sqrtn (and with per-id
weights) over ids fed through sparse placeholders, tf.sparse.sparse_dense_matmul,
tf.sparse.reduce_sum, tf.sparse.add and tf.sparse.reorder. Its variables are frozen into
constants. For each of a few batches (rows left empty, one id repeated, an empty batch) the
feeds and TensorFlow's outputs are written as Const nodes of sparse_lookup.run.pb; the test runs
the frozen graph in a Sluice session and compares.

Run from the repository root: python3 tests/sparse_models/gen_sparse_models.py
(needs TensorFlow 2.x and numpy). Files: sparse_lookup.pb, sparse_lookup.run.pb,
sparse_lookup.run.txt (feed and fetch tensor names, the number of batches).
"""
import os

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()
HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB, DIM, COLS = 12, 4, 6
rng = np.random.default_rng(7)

graph = tf.Graph()
with graph.as_default():
  ids = tf1.sparse_placeholder(tf.int64, shape=[None, None], name="ids")
  weights = tf1.sparse_placeholder(tf.float32, shape=[None, None], name="weights")
  dense_x = tf1.sparse_placeholder(tf.float32, shape=[None, COLS], name="x")
  table = tf1.get_variable("table", initializer=rng.normal(size=(VOCAB, DIM)).astype(np.float32))
  kernel = tf1.get_variable("kernel", initializer=rng.normal(size=(COLS, 3)).astype(np.float32))
  outputs = {}
  for combiner in ["sum", "mean", "sqrtn"]:
    outputs["emb_" + combiner] = tf.nn.safe_embedding_lookup_sparse(
        table, ids, combiner=combiner, default_id=None)
    outputs["emb_weighted_" + combiner] = tf.nn.safe_embedding_lookup_sparse(
        table, ids, sparse_weights=weights, combiner=combiner)
  outputs["emb_default_id"] = tf.nn.safe_embedding_lookup_sparse(table, ids, combiner="mean",
                                                                 default_id=3)
  outputs["wide"] = tf.sparse.sparse_dense_matmul(dense_x, kernel)
  outputs["row_sums"] = tf.sparse.reduce_sum(dense_x, axis=1)
  summed = tf.sparse.add(dense_x, tf.sparse.reorder(
      tf.SparseTensor(dense_x.indices[::-1], dense_x.values[::-1] * 2.0, dense_x.dense_shape)))
  outputs["added"] = tf.sparse.to_dense(summed)
  outputs["added_row_max"] = tf.sparse.reduce_max(summed, axis=1)
  names = {k: tf.identity(v, name="out_" + k).name for k, v in outputs.items()}
  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    frozen = tf1.graph_util.convert_variables_to_constants(
        sess, graph.as_graph_def(), [n.split(":")[0] for n in names.values()])

    def batch(rows, nnz_per_row, cols):
      idx = [[r, k] for r in range(rows) for k in range(nnz_per_row[r % len(nnz_per_row)])]
      idx = np.array(idx, np.int64).reshape(-1, 2)
      return idx, np.array([rows, cols], np.int64)

    batches = []
    for rows, per_row in [(5, [2, 0, 3, 1]), (3, [1]), (4, [0, 4])]:
      idx, shape = batch(rows, per_row, 5)
      id_values = rng.integers(0, VOCAB, len(idx)).astype(np.int64)
      if len(id_values) > 1:
        id_values[1] = id_values[0]  # a repeated id
      w_values = rng.uniform(0.5, 2.0, len(idx)).astype(np.float32)
      x_idx = np.array([[r, c] for r in range(rows) for c in range(COLS) if (r + c) % 3 == 0],
                       np.int64)
      x_values = rng.normal(size=len(x_idx)).astype(np.float32)
      batches.append({
          ids.indices: idx, ids.values: id_values, ids.dense_shape: shape,
          weights.indices: idx, weights.values: w_values, weights.dense_shape: shape,
          dense_x.indices: x_idx, dense_x.values: x_values,
          dense_x.dense_shape: np.array([rows, COLS], np.int64),
      })
    run = tf1.GraphDef()
    # Placeholders the outputs do not read (the weights' indices) were pruned when freezing.
    kept = {n.name for n in frozen.node}
    feed_names = [t.name for t in batches[0] if t.op.name in kept]
    for b, feeds in enumerate(batches):
      results = sess.run(names, feed_dict=feeds)
      for t, value in feeds.items():
        if t.name not in feed_names:
          continue
        node = run.node.add(name="feed/%d/%s" % (b, t.name), op="Const")
        node.attr["value"].tensor.CopyFrom(tf1.make_tensor_proto(value))
      for k, value in results.items():
        node = run.node.add(name="out/%d/%s" % (b, names[k]), op="Const")
        node.attr["value"].tensor.CopyFrom(tf1.make_tensor_proto(value))

with open(os.path.join(HERE, "sparse_lookup.pb"), "wb") as f:
  f.write(frozen.SerializeToString())
with open(os.path.join(HERE, "sparse_lookup.run.pb"), "wb") as f:
  f.write(run.SerializeToString())
with open(os.path.join(HERE, "sparse_lookup.run.txt"), "w") as f:
  f.write("# TensorFlow %s\nbatches %d\n" % (tf.__version__, len(batches)))
  for n in feed_names:
    f.write("feed %s\n" % n)
  for n in names.values():
    f.write("fetch %s\n" % n)
print("ops:", sorted({n.op for n in frozen.node}))
