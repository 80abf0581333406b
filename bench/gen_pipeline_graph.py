#!/usr/bin/env python3
"""Writes the GraphDef that the graph-pipeline benchmark imports and optimises.

The graph is built with TensorFlow (tf.compat.v1 graph mode) from a fixed seed, so every run
writes the same bytes (deterministic serialization). It holds about --nodes op nodes in
--chains parallel chains of small dense blocks over [BATCH, WIDTH] float tensors. Each block
mixes what the pipeline's passes act on:

  MatMul/BiasAdd/Relu on Const weights     the "real ops" of a dense layer
  the same expression built twice          duplicates that CSE merges
  AddV2/Mul of Consts                      constant subgraphs that constant folding replaces
  Reshape(x, Const) and Reshape(x, Shape)  shape ops of known shapes (foldable from shapes)
  Size -> Cast -> RealDiv                  Size of a known-shape tensor
  ConcatV2 then MatMul                     multi-input ops
  Identity chains                          forwarding nodes that simplification removes
  an unused side branch                    nodes that pruning drops

Besides the GraphDef (<out>.pb) it writes <out>.json naming the feeds (the Placeholders), the
fetches (each chain's last tensor and a few intermediate ones), their shapes, and the node
count, for the benchmarks on both sides.
"""

import argparse
import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402  (the log level must be set before the import)

SEED = 20240601
BATCH = 8
WIDTH = 16

tf1 = tf.compat.v1


def const(rng, shape, name):
    # Small values keep the activations finite when TensorFlow runs the graph.
    value = rng.uniform(-0.5, 0.5, size=shape).astype(np.float32)
    return tf1.constant(value, name=name)


def dense(h, w, b):
    return tf.nn.relu(tf.nn.bias_add(tf.linalg.matmul(h, w), b))


def block(h, rng):
    """One block over h ([BATCH, WIDTH]); returns its output, of the same shape."""
    w = const(rng, [WIDTH, WIDTH], "w")
    b = const(rng, [WIDTH], "b")
    y = dense(h, w, b)
    if rng.random_sample() < 0.7:
        # Built again from the same inputs: a common subexpression.
        y = tf.math.add(y, dense(h, w, b))
    if rng.random_sample() < 0.8:
        a = const(rng, [WIDTH], "scale_a")
        c = tf.math.multiply(tf.math.add(a, const(rng, [WIDTH], "scale_b")),
                             tf1.constant(0.5, name="half"))
        y = tf.math.multiply(y, c)
    # Reshape by a constant shape, then back by the (known) shape of y. tf.shape and tf.size
    # would return Consts for known shapes; the raw ops keep Shape and Size nodes in the graph.
    flat = tf.reshape(y, tf1.constant([-1], dtype=tf.int32, name="flat_shape"))
    y = tf.reshape(flat, tf.raw_ops.Shape(input=y))
    if rng.random_sample() < 0.5:
        y = tf.math.truediv(y, tf.cast(tf.raw_ops.Size(input=y), tf.float32))
    w2 = const(rng, [2 * WIDTH, WIDTH], "w2")
    y = tf.linalg.matmul(tf.concat([y, h], axis=1), w2)
    if rng.random_sample() < 0.25:
        # Nothing reads this branch: pruning drops it.
        tf.math.tanh(tf.linalg.matmul(y, const(rng, [WIDTH, WIDTH], "dead_w")), name="dead")
    for _ in range(rng.randint(1, 5)):
        y = tf.identity(y)
    return y


def build(num_nodes, num_chains):
    rng = np.random.RandomState(SEED)
    graph = tf.Graph()
    with graph.as_default():
        heads = [tf1.placeholder(tf.float32, [BATCH, WIDTH], name=f"input{i}")
                 for i in range(num_chains)]
        feeds = [t.op.name for t in heads]
        intermediate = []
        k = 0
        while len(graph.get_operations()) < num_nodes:
            chain = k % num_chains
            with tf.name_scope(f"chain{chain}/block{k // num_chains}"):
                heads[chain] = block(heads[chain], rng)
            if k % 97 == 50:
                intermediate.append(heads[chain].name)
            k += 1
        fetches = [t.name for t in heads] + intermediate
    return graph, feeds, fetches


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), ".cache",
                                                       "pipeline_graph"),
                        help="output path without extension")
    parser.add_argument("--nodes", type=int, default=10000)
    parser.add_argument("--chains", type=int, default=4)
    args = parser.parse_args()

    graph, feeds, fetches = build(args.nodes, args.chains)
    gdef = graph.as_graph_def()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".pb", "wb") as f:
        f.write(gdef.SerializeToString(deterministic=True))
    meta = {
        "nodes": len(gdef.node),
        "feeds": feeds,
        "feed_shape": [BATCH, WIDTH],
        "fetches": fetches,
        "seed": SEED,
    }
    with open(args.out + ".json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}.pb: {len(gdef.node)} nodes, {len(feeds)} feeds, "
          f"{len(fetches)} fetches")


if __name__ == "__main__":
    main()
