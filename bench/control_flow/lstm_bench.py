#!/usr/bin/env python3
"""A frozen Keras LSTM: Sluice against TensorFlow's Session on the same GraphDef.

The model is keras.layers.LSTM(256) over sequences of 50 steps of 128 features (random
weights, fixed seed), traced at batch 1 and 32 and frozen with TensorFlow's
convert_variables_to_constants_v2 (which lowers the loop to v1 control flow by default;
--keep-while keeps the functional While for Sluice to lower). Both sides run the frozen
graph in separate processes with the same threads: TensorFlow's Session (tf.compat.v1,
the GraphDef imported) and `sluice benchmark --json`; the figures are median step times.

Usage: python3 bench/control_flow/lstm_bench.py [--sluice bazel-out/k8-opt/bin/tools/sluice]
           [--batches 1,32] [--runs 30] [--threads 1,default] [--keep-while]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SEQ, FEATURES, UNITS = 50, 128, 256
CACHE = os.path.expanduser("~/.cache/sluice-bench/lstm")


def freeze(batch, keep_while):
  """Writes (and caches) the frozen graph and an input; returns their paths."""
  os.makedirs(CACHE, exist_ok=True)
  tag = f"lstm_b{batch}{'_while' if keep_while else ''}"
  pb, npy = os.path.join(CACHE, tag + ".pb"), os.path.join(CACHE, tag + ".x.npy")
  if os.path.exists(pb) and os.path.exists(npy):
    return pb, npy
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import numpy as np  # noqa: E402
  import tensorflow as tf  # noqa: E402
  import keras  # noqa: E402
  from tensorflow.python.framework import convert_to_constants  # noqa: E402
  keras.utils.set_random_seed(7)
  inp = keras.Input((SEQ, FEATURES), batch_size=batch)
  model = keras.Model(inp, keras.layers.LSTM(UNITS)(inp))
  f = tf.function(lambda x: model(x, training=False))
  concrete = f.get_concrete_function(tf.TensorSpec((batch, SEQ, FEATURES), tf.float32, name="x"))
  frozen = convert_to_constants.convert_variables_to_constants_v2(
      concrete, lower_control_flow=not keep_while)
  tf.io.write_graph(frozen.graph.as_graph_def(), CACHE, tag + ".pb", as_text=False)
  np.save(npy, np.random.default_rng(0).standard_normal((batch, SEQ, FEATURES)).astype(np.float32))
  return pb, npy


def tf_median_ms(pb, npy, runs, threads):
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
  import numpy as np  # noqa: E402
  import tensorflow as tf  # noqa: E402
  tf1 = tf.compat.v1
  graph_def = tf1.GraphDef()
  with open(pb, "rb") as f:
    graph_def.ParseFromString(f.read())
  config = tf1.ConfigProto()
  if threads != "default":
    config.intra_op_parallelism_threads = int(threads)
    config.inter_op_parallelism_threads = int(threads)
  graph = tf.Graph()
  with graph.as_default():
    tf1.import_graph_def(graph_def, name="")
    with tf1.Session(graph=graph, config=config) as session:
      feed = {"x:0": np.load(npy)}
      for _ in range(3):
        session.run("Identity:0", feed)
      times = []
      for _ in range(runs):
        start = time.perf_counter()
        session.run("Identity:0", feed)
        times.append((time.perf_counter() - start) * 1e3)
  return statistics.median(times)


def sluice_median_ms(sluice, pb, npy, runs, threads):
  cmd = [sluice, "benchmark", pb, "--input", "x=" + npy, "--output", "Identity", "--runs",
         str(runs), "--warmup", "3", "--json"]
  if threads != "default":
    cmd += ["--threads", threads, "--inter-op-threads", threads]
  out = subprocess.run(cmd, capture_output=True, text=True, check=True)
  lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
  return json.loads(lines[-1])["latency_ms"]["p50"]


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--sluice", default="bazel-out/k8-opt/bin/tools/sluice")
  parser.add_argument("--batches", default="1,32")
  parser.add_argument("--runs", type=int, default=30)
  parser.add_argument("--threads", default="1,default")
  parser.add_argument("--keep-while", action="store_true")
  args = parser.parse_args()
  print("| batch | threads | TF step (ms) | Sluice step (ms) | TF / Sluice |")
  print("|---|---|---|---|---|")
  for batch in (int(b) for b in args.batches.split(",")):
    pb, npy = freeze(batch, args.keep_while)
    for threads in args.threads.split(","):
      tf_ms = float(subprocess.run(
          [sys.executable, __file__, "--tf-only", pb, npy, str(args.runs), threads],
          capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
      sl_ms = sluice_median_ms(args.sluice, pb, npy, args.runs, threads)
      print("| %d | %s | %.3f | %.3f | %.2f |" % (batch, threads, tf_ms, sl_ms, tf_ms / sl_ms))
      sys.stdout.flush()


if __name__ == "__main__":
  if len(sys.argv) > 1 and sys.argv[1] == "--tf-only":
    print(tf_median_ms(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
  else:
    main()
