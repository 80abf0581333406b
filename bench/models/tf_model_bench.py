"""TensorFlow's side of the whole-model benchmark: one frozen GraphDef, one configuration.

Runs the model in a tf.compat.v1.Session (Grappler and TensorFlow's oneDNN paths on, as a
user gets them) with `--threads` intra-op threads and `--inter-op-threads` inter-op threads
(default 1; 0 lets TensorFlow choose, as for intra-op), feeding a random float32 batch of
`--batch` for the input node, and prints one JSON line:
  {"p50_ms", "p90_ms", "p99_ms", "p999_ms", "mean_ms", "throughput", "peak_rss_mb", "runs",
   "flops"}
`--contend N` runs N busy processes (one core each) from before the warm-up to the end of the
timed runs, as `sluice benchmark --contend N` does.
throughput is items (batch elements) per second; peak_rss_mb is this process's peak
resident memory (VmHWM, not ru_maxrss, which a child inherits from its parent across exec),
so run one configuration per process; flops counts the contractions' multiply-adds (as two
operations each) of one step at this batch size, from the graph's inferred shapes.
"""
import argparse
import json
import multiprocessing
import os
import resource
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def peak_rss_mb():
  with open("/proc/self/status") as f:
    for line in f:
      if line.startswith("VmHWM:"):
        return int(line.split()[1]) / 1024.0
  return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def spin():
  x = 1.0
  while True:
    x = x * 1.0000001 + 1e-9


def start_neighbours(count):
  # fork, not spawn: the children start at once and never import TensorFlow.
  context = multiprocessing.get_context("fork")
  neighbours = [context.Process(target=spin, daemon=True) for _ in range(count)]
  for process in neighbours:
    process.start()
  return neighbours


def stop_neighbours(neighbours):
  for process in neighbours:
    process.kill()
  for process in neighbours:
    process.join()


def contraction_flops(graph):
  """2 x multiply-adds of Conv2D, DepthwiseConv2dNative, MatMul and BatchMatMulV2."""
  flops = 0
  for op in graph.get_operations():
    if op.type in ("Conv2D", "DepthwiseConv2dNative"):
      kh, kw, cin, _ = op.inputs[1].shape.as_list()
      per_output = kh * kw * (1 if op.type == "DepthwiseConv2dNative" else cin)
      flops += 2 * int(np.prod(op.outputs[0].shape.as_list())) * per_output
    elif op.type in ("MatMul", "BatchMatMulV2"):
      a = op.inputs[0].shape.as_list()
      adjoint = op.get_attr("transpose_a" if op.type == "MatMul" else "adj_x")
      flops += 2 * int(np.prod(op.outputs[0].shape.as_list())) * (a[-2] if adjoint else a[-1])
  return flops


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("model")
  parser.add_argument("--input", default="input")
  parser.add_argument("--output", default="output")
  parser.add_argument("--batch", type=int, default=1)
  parser.add_argument("--threads", type=int, default=1)
  parser.add_argument("--warmup", type=int, default=3)
  parser.add_argument("--runs", type=int, default=20)
  parser.add_argument("--min-seconds", type=float, default=0,
                      help="after --runs steps, go on timing until this many seconds passed")
  parser.add_argument("--inter-op-threads", type=int, default=1)
  parser.add_argument("--contend", type=int, default=0)
  args = parser.parse_args()

  graph_def = tf.compat.v1.GraphDef()
  with open(args.model, "rb") as f:
    graph_def.ParseFromString(f.read())
  declared = None
  for node in graph_def.node:
    if node.name == args.input:
      declared = [d.size for d in node.attr["shape"].shape.dim]
  shape = [args.batch] + [d if d > 0 else 1 for d in declared[1:]]
  graph = tf.Graph()
  with graph.as_default():
    placeholder = tf.compat.v1.placeholder(tf.float32, shape, name="fixed_input")
    tf.import_graph_def(graph_def, input_map={args.input + ":0": placeholder}, name="")
  x = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
  config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=args.threads,
                                    inter_op_parallelism_threads=args.inter_op_threads)
  with tf.compat.v1.Session(graph=graph, config=config) as session:
    run = session.make_callable(args.output + ":0", [placeholder])
    neighbours = start_neighbours(args.contend)
    for _ in range(args.warmup):
      run(x)
    times = []
    first = time.perf_counter()
    while len(times) < args.runs or time.perf_counter() - first < args.min_seconds:
      start = time.perf_counter()
      run(x)
      times.append((time.perf_counter() - start) * 1e3)
    stop_neighbours(neighbours)
  times = np.array(times)
  print(json.dumps({
      "p50_ms": float(np.percentile(times, 50, method="inverted_cdf")),
      "p90_ms": float(np.percentile(times, 90, method="inverted_cdf")),
      "p99_ms": float(np.percentile(times, 99, method="inverted_cdf")),
      "p999_ms": float(np.percentile(times, 99.9, method="inverted_cdf")),
      "mean_ms": float(times.mean()),
      "throughput": float(args.batch * 1e3 / times.mean()),
      "peak_rss_mb": peak_rss_mb(),
      "runs": len(times),
      "flops": contraction_flops(graph),
  }))


if __name__ == "__main__":
  main()
