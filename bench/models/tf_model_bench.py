"""TensorFlow's side of the whole-model benchmark: one frozen GraphDef, one configuration.

Runs the model in a tf.compat.v1.Session (Grappler and TensorFlow's oneDNN paths on, as a
user gets them) with `--threads` intra-op threads and one inter-op thread, feeding a random
float32 batch of `--batch` for the input node, and prints one JSON line:
  {"p50_ms", "p90_ms", "p99_ms", "mean_ms", "throughput", "peak_rss_mb", "runs"}
throughput is items (batch elements) per second; peak_rss_mb is this process's peak
resident memory (ru_maxrss), so run one configuration per process.
"""
import argparse
import json
import os
import resource
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("model")
  parser.add_argument("--input", default="input")
  parser.add_argument("--output", default="output")
  parser.add_argument("--batch", type=int, default=1)
  parser.add_argument("--threads", type=int, default=1)
  parser.add_argument("--warmup", type=int, default=3)
  parser.add_argument("--runs", type=int, default=20)
  args = parser.parse_args()

  graph_def = tf.compat.v1.GraphDef()
  with open(args.model, "rb") as f:
    graph_def.ParseFromString(f.read())
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(graph_def, name="")
  placeholder = graph.get_tensor_by_name(args.input + ":0")
  shape = [args.batch] + [d if d is not None else 1 for d in placeholder.shape.as_list()[1:]]
  x = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
  config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=args.threads,
                                    inter_op_parallelism_threads=1)
  with tf.compat.v1.Session(graph=graph, config=config) as session:
    run = session.make_callable(args.output + ":0", [placeholder])
    for _ in range(args.warmup):
      run(x)
    times = []
    for _ in range(args.runs):
      start = time.perf_counter()
      run(x)
      times.append((time.perf_counter() - start) * 1e3)
  times = np.array(times)
  print(json.dumps({
      "p50_ms": float(np.percentile(times, 50)),
      "p90_ms": float(np.percentile(times, 90)),
      "p99_ms": float(np.percentile(times, 99)),
      "mean_ms": float(times.mean()),
      "throughput": float(args.batch * 1e3 / times.mean()),
      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
      "runs": args.runs,
  }))


if __name__ == "__main__":
  main()
