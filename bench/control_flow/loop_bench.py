#!/usr/bin/env python3
"""Per-iteration cost of a v1 while loop: Sluice against TensorFlow on the same GraphDef.

The graph is tests/control_flow/long_loop.pb (TensorFlow-made: `while i < n: i, s = i + 1,
s + i` over int32 scalars), fed n = --iterations. Both sides run it in separate processes
with the same threads: TensorFlow's Session (tf.compat.v1, the frozen GraphDef imported) and
`sluice benchmark --json`. The step's median divided by the iteration count is the
per-iteration overhead (the loop's arithmetic is three scalar ops, so the figure is almost
all executor: frames, iterations, deadness, scheduling).

Usage: python3 bench/control_flow/loop_bench.py [--sluice bazel-bin/tools/sluice]
           [--iterations 10000] [--runs 30] [--threads 1,default]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GRAPH = os.path.join(HERE, "..", "..", "tests", "control_flow", "long_loop.pb")


def tf_median_ms(iterations, runs, threads):
  import numpy as np  # noqa: E402
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import tensorflow as tf  # noqa: E402
  tf1 = tf.compat.v1
  graph_def = tf1.GraphDef()
  with open(GRAPH, "rb") as f:
    graph_def.ParseFromString(f.read())
  config = tf1.ConfigProto()
  if threads != "default":
    config.intra_op_parallelism_threads = int(threads)
    config.inter_op_parallelism_threads = int(threads)
  graph = tf.Graph()
  with graph.as_default():
    tf1.import_graph_def(graph_def, name="")
    with tf1.Session(graph=graph, config=config) as session:
      feed = {"n:0": np.int32(iterations)}
      for _ in range(3):
        session.run(["i:0", "s:0"], feed)
      times = []
      for _ in range(runs):
        start = time.perf_counter()
        session.run(["i:0", "s:0"], feed)
        times.append((time.perf_counter() - start) * 1e3)
  return statistics.median(times)


def sluice_median_ms(sluice, iterations, runs, threads):
  import numpy as np  # noqa: E402
  with tempfile.TemporaryDirectory() as tmp:
    n_path = os.path.join(tmp, "n.npy")
    np.save(n_path, np.int32(iterations))
    cmd = [sluice, "benchmark", GRAPH, "--input", "n=" + n_path, "--output", "i",
           "--output", "s", "--runs", str(runs), "--warmup", "3", "--json"]
    if threads != "default":
      cmd += ["--threads", threads, "--inter-op-threads", threads]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
  lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
  return json.loads(lines[-1])["latency_ms"]["p50"]


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--sluice", default="bazel-bin/tools/sluice")
  parser.add_argument("--iterations", type=int, default=10000)
  parser.add_argument("--runs", type=int, default=30)
  parser.add_argument("--threads", default="1,default")
  args = parser.parse_args()
  print("| threads | TF step (ms) | Sluice step (ms) | TF per iteration (us) | "
        "Sluice per iteration (us) | Sluice / TF |")
  print("|---|---|---|---|---|---|")
  for threads in args.threads.split(","):
    tf_ms = subprocess.run(
        [sys.executable, __file__, "--tf-only", str(args.iterations), str(args.runs), threads],
        capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    tf_ms = float(tf_ms)
    sl_ms = sluice_median_ms(args.sluice, args.iterations, args.runs, threads)
    per = 1e3 / args.iterations
    print("| %s | %.2f | %.2f | %.3f | %.3f | %.2f |" % (
        threads, tf_ms, sl_ms, tf_ms * per, sl_ms * per, sl_ms / tf_ms))


if __name__ == "__main__":
  if len(sys.argv) > 1 and sys.argv[1] == "--tf-only":
    print(tf_median_ms(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
  else:
    main()
