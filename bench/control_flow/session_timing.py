"""Median step times of one frozen GraphDef in TensorFlow's Session and in `sluice
benchmark`, measured the same way, for the control-flow benchmarks beside this file."""
import json
import os
import statistics
import subprocess
import time


def tf_median_ms(pb, feeds, fetches, runs, threads):
  """TensorFlow's Session (tf.compat.v1, the GraphDef imported): `feeds` maps tensor names
  ("x:0") to arrays; threads is "default" or a count for both pools."""
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
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
      for _ in range(3):
        session.run(fetches, feeds)
      times = []
      for _ in range(runs):
        start = time.perf_counter()
        session.run(fetches, feeds)
        times.append((time.perf_counter() - start) * 1e3)
  return statistics.median(times)


def sluice_median_ms(sluice, pb, inputs, outputs, runs, threads):
  """`sluice benchmark --json`: `inputs` maps Placeholder names to .npy paths."""
  cmd = [sluice, "benchmark", pb, "--runs", str(runs), "--warmup", "3", "--json"]
  for name, path in inputs.items():
    cmd += ["--input", f"{name}={path}"]
  for name in outputs:
    cmd += ["--output", name]
  if threads != "default":
    cmd += ["--threads", threads, "--inter-op-threads", threads]
  out = subprocess.run(cmd, capture_output=True, text=True, check=True)
  lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
  return json.loads(lines[-1])["latency_ms"]["p50"]
