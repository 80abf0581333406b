"""Writes the CTC model fixtures of tests/ctc_models from TensorFlow.

A TF1 graph of what a small speech or OCR model does with its per-frame logits (a frozen
projection of fed features, no recurrence): the CTC loss through tf.compat.v1.nn.ctc_loss
(dense labels made sparse by tf.compat.v1 dense_labels_to_sparse, the CTCLoss op, with
preprocess_collapse_repeated and without ctc_merge_repeated too) and through tf.nn.ctc_loss
on dense labels (ctc_loss_dense: TensorFlow's own forward-backward loop, no CTC op), the
gradient of the v1 loss w.r.t. the logits (TensorFlow's gradient nodes), and decoding with
tf.nn.ctc_greedy_decoder (merged and not, a blank_index of 0 on rolled logits) and
tf.nn.ctc_beam_search_decoder (v2: top paths) and tf.compat.v1.nn.ctc_beam_search_decoder
(merge_repeated=False), each decoded SparseTensor fetched as its parts and as a dense tensor.
The variables are frozen into constants. For each of a few batches the feeds and TensorFlow's
outputs are written as Const nodes of ctc.run.pb; the test runs the frozen graph in a Sluice
session and compares. The logits, labels and lengths of the first batch are also written, with
TensorFlow's gradient of the summed v1 loss, for the test of Sluice's own CTCLoss gradient
function (cc_api/gradients/ctc_grad.cc).

Run from the repository root: python3 tests/ctc_models/gen_ctc_models.py
(needs TensorFlow 2.x and numpy). Files: ctc.pb, ctc.run.pb, ctc.run.txt (feed and fetch
tensor names, the number of batches).
"""
import os

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import ctc_ops

tf1 = tf.compat.v1
tf1.disable_eager_execution()
HERE = os.path.dirname(os.path.abspath(__file__))
FEATURES, CLASSES = 5, 6  # the blank is class 5 for the v1 ops
rng = np.random.default_rng(29)

graph = tf.Graph()
with graph.as_default():
  x = tf1.placeholder(tf.float32, shape=[None, None, FEATURES], name="features")  # time major
  labels = tf1.placeholder(tf.int32, shape=[None, None], name="labels")  # padded with 0
  label_length = tf1.placeholder(tf.int32, shape=[None], name="label_length")
  logit_length = tf1.placeholder(tf.int32, shape=[None], name="logit_length")
  kernel = tf1.get_variable(
      "kernel", initializer=(rng.normal(size=(FEATURES, CLASSES)) * 1.5).astype(np.float32))
  bias = tf1.get_variable("bias", initializer=rng.normal(size=CLASSES).astype(np.float32))
  shape = tf.shape(x)
  logits = tf.reshape(tf.matmul(tf.reshape(x, [-1, FEATURES]), kernel) + bias,
                      [shape[0], shape[1], CLASSES], name="logits")
  sparse_labels = ctc_ops.dense_labels_to_sparse(labels, label_length)
  outputs = {}
  loss_v1 = tf1.nn.ctc_loss(sparse_labels, logits, logit_length)
  outputs["loss_v1"] = loss_v1
  outputs["loss_v1_collapsed"] = tf1.nn.ctc_loss(sparse_labels, logits, logit_length,
                                                 preprocess_collapse_repeated=True)
  outputs["loss_v1_unmerged"] = tf1.nn.ctc_loss(sparse_labels, logits, logit_length,
                                                ctc_merge_repeated=False,
                                                ignore_longer_outputs_than_inputs=True)
  outputs["loss_v2_dense"] = tf.nn.ctc_loss(labels, logits, label_length, logit_length,
                                            blank_index=-1)
  outputs["loss_v1_grad"] = tf.gradients(tf.reduce_sum(loss_v1), logits)[0]

  def decoded(name, sparse):
    outputs[name + "_indices"] = sparse.indices
    outputs[name + "_values"] = sparse.values
    outputs[name + "_shape"] = sparse.dense_shape
    outputs[name + "_dense"] = tf.sparse.to_dense(sparse, default_value=-1)

  (greedy,), greedy_score = tf.nn.ctc_greedy_decoder(logits, logit_length)
  decoded("greedy", greedy)
  outputs["greedy_score"] = greedy_score
  (greedy_raw,), _ = tf.nn.ctc_greedy_decoder(logits, logit_length, merge_repeated=False)
  decoded("greedy_unmerged", greedy_raw)
  rolled = tf.roll(logits, shift=1, axis=2)  # the blank moved to class 0
  (greedy0,), _ = tf.nn.ctc_greedy_decoder(rolled, logit_length, blank_index=0)
  decoded("greedy_blank0", greedy0)
  beams, beam_scores = tf.nn.ctc_beam_search_decoder(logits, logit_length, beam_width=5,
                                                     top_paths=3)
  for i, path in enumerate(beams):
    decoded("beam%d" % i, path)
  outputs["beam_scores"] = beam_scores
  beams_raw, raw_scores = tf1.nn.ctc_beam_search_decoder(logits, logit_length, beam_width=4,
                                                         top_paths=2, merge_repeated=False)
  for i, path in enumerate(beams_raw):
    decoded("beam_unmerged%d" % i, path)
  outputs["beam_unmerged_scores"] = raw_scores
  names = {k: tf.identity(v, name="out_" + k).name for k, v in outputs.items()}

  with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    frozen = tf1.graph_util.convert_variables_to_constants(
        sess, graph.as_graph_def(), [n.split(":")[0] for n in names.values()])

    def batch(steps, lengths, label_lens):
      b = len(lengths)
      lab = np.zeros((b, max(label_lens)), np.int32)
      for i, n in enumerate(label_lens):
        lab[i, :n] = rng.integers(0, CLASSES - 1, size=n)
        if n > 2:
          lab[i, 2] = lab[i, 1]  # a repeat, which needs a blank between when merging
      return {x: rng.normal(size=(steps, b, FEATURES)).astype(np.float32), labels: lab,
              label_length: np.array(label_lens, np.int32),
              logit_length: np.array(lengths, np.int32)}

    batches = [batch(12, [12, 9, 7], [5, 3, 1]), batch(8, [8, 8], [4, 6]),
               batch(20, [20, 13, 17, 5], [7, 2, 9, 3])]
    run = tf1.GraphDef()
    feed_names = [t.name for t in batches[0]]
    for b, feeds in enumerate(batches):
      results = sess.run(names, feed_dict=feeds)
      for t, value in feeds.items():
        node = run.node.add(name="feed/%d/%s" % (b, t.name), op="Const")
        node.attr["value"].tensor.CopyFrom(tf1.make_tensor_proto(value))
      for k, value in results.items():
        node = run.node.add(name="out/%d/%s" % (b, names[k]), op="Const")
        node.attr["value"].tensor.CopyFrom(tf1.make_tensor_proto(value))
    # The first batch's logits and sparse labels, for the gradient function's test.
    first_logits, first_sparse = sess.run([logits, sparse_labels], feed_dict=batches[0])
    for name, value in [("logits", first_logits), ("labels_indices", first_sparse.indices),
                        ("labels_values", first_sparse.values),
                        ("sequence_length", batches[0][logit_length])]:
      node = run.node.add(name="grad_check/" + name, op="Const")
      node.attr["value"].tensor.CopyFrom(tf1.make_tensor_proto(value))

with open(os.path.join(HERE, "ctc.pb"), "wb") as f:
  f.write(frozen.SerializeToString())
with open(os.path.join(HERE, "ctc.run.pb"), "wb") as f:
  f.write(run.SerializeToString())
with open(os.path.join(HERE, "ctc.run.txt"), "w") as f:
  f.write("# TensorFlow %s\nbatches %d\n" % (tf.__version__, len(batches)))
  for n in feed_names:
    f.write("feed %s\n" % n)
  for n in names.values():
    f.write("fetch %s\n" % n)
print("ops:", sorted({n.op for n in frozen.node}))
print("functions:", [f.signature.name for f in frozen.library.function])
