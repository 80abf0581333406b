#!/usr/bin/env python3
"""Big graphs (issue 25): Sluice's import + optimize + first run against TensorFlow's import.

For each case of gen_chain.py it writes the graph (bench/.cache/big_graph/), then measures in
separate processes, one at a time:
  - `sluice run` of the graph (parse, Create's import with shape functions, the pass pipeline,
    the executors, the first step, the output summary): wall time, user + system CPU and peak
    RSS, from /usr/bin/time;
  - TensorFlow's C++ import of the same bytes (TF_GraphImportGraphDefWithResults, through the
    Python wrapper of the C API, as bench/tf_pipeline_bench.py's import_c_api), and, where it
    finishes, a tf.compat.v1.Session's first run of the imported graph: wall time and peak RSS
    of that process (TensorFlow's own import of the Python module is not counted in the times;
    the first run includes making the Python Operation objects, as import_graph_def does).
A TensorFlow process that crashes is reported with its signal.

Usage: python3 bench/big_graph/big_graph_bench.py [--sluice bazel-bin/tools/sluice]
           [--cases chain:1000000,wide:1000000,addn:200000] [--no-tf]
The TensorFlow side needs the tensorflow package in the Python that runs it (--python).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "..", ".cache", "big_graph")

TF_SCRIPT = r"""
import resource, sys, time
import numpy as np
import tensorflow as tf
from tensorflow.python.client import pywrap_tf_session as c_api
from tensorflow.python.framework import c_api_util
data = open(sys.argv[1], "rb").read()
feed = sys.argv[2] == "feed"
graph = tf.Graph()
t0 = time.perf_counter()
options = c_api_util.ScopedTFImportGraphDefOptions()
buf = c_api.TF_NewBufferFromString(data)
with graph._c_graph.get() as c_graph:
  results = c_api.TF_GraphImportGraphDefWithResults(c_graph, buf, options.options)
  c_api_util.ScopedTFImportGraphDefResults(results)
c_api.TF_DeleteBuffer(buf)
t1 = time.perf_counter()
print(f"import_s {t1 - t0:.3f}", flush=True)
# The Python Operation objects a Session needs (import_graph_def makes them the same way).
graph._add_new_tf_operations(compute_devices=False)
with tf.compat.v1.Session(graph=graph) as session:
  feeds = {"x:0": np.array([1.5, -2.0], np.float32)} if feed else {}
  session.run("out:0", feeds)
t2 = time.perf_counter()
print(f"first_run_s {t2 - t1:.3f}", flush=True)
print(f"maxrss_mb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}", flush=True)
"""


def generate(kind, n):
  os.makedirs(CACHE, exist_ok=True)
  path = os.path.join(CACHE, f"{kind}_{n}.pb")
  if not os.path.exists(path):
    subprocess.run([sys.executable, os.path.join(HERE, "gen_chain.py"), kind, str(n), path],
                   check=True)
  return path


def time_sluice(sluice, path, feed):
  with tempfile.TemporaryDirectory() as tmp:
    cmd = ["/usr/bin/time", "-f", "TIME %e %U %S %M", sluice, "run", path, "--output", "out"]
    if feed:
      import struct
      x = os.path.join(tmp, "x.npy")
      header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"
      header = header + " " * (63 - len(header)) + "\n"
      with open(x, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<2f", 1.5, -2.0))
      cmd += ["--input", f"x={x}"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)", out.stderr)
    if out.returncode != 0 or m is None:
      return f"failed ({out.returncode}): {out.stderr.strip()[-300:]}"
    wall, user, system, kb = float(m[1]), float(m[2]), float(m[3]), int(m[4])
    return f"{wall:.2f} s wall, {user + system:.2f} s CPU, {kb / 1024:.0f} MB"


def time_tf(python, path, feed):
  out = subprocess.run([python, "-c", TF_SCRIPT, path, "feed" if feed else "const"],
                       capture_output=True, text=True)
  values = dict(re.findall(r"^(\w+) ([\d.]+)$", out.stdout, re.M))
  parts = []
  if "import_s" in values:
    parts.append(f"import {float(values['import_s']):.2f} s")
  if "first_run_s" in values:
    parts.append(f"first run {float(values['first_run_s']):.2f} s")
  if "maxrss_mb" in values:
    parts.append(f"{values['maxrss_mb']} MB")
  if out.returncode != 0:
    what = f"signal {-out.returncode}" if out.returncode < 0 else f"exit {out.returncode}"
    parts.append(f"then died ({what})")
  return ", ".join(parts) if parts else f"failed: {out.stderr.strip()[-300:]}"


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--sluice", default="bazel-bin/tools/sluice")
  parser.add_argument("--python", default=sys.executable)
  parser.add_argument("--cases", default="chain:1000000,wide:1000000,addn:200000")
  parser.add_argument("--no-tf", action="store_true")
  args = parser.parse_args()
  print("| graph | nodes | Sluice: import + optimize + first run | TensorFlow: C++ import, first run |")
  print("|---|---|---|---|")
  for case in args.cases.split(","):
    kind, n = case.split(":")
    path = generate(kind, int(n))
    feed = kind in ("chain", "wide")
    sluice = time_sluice(args.sluice, path, feed)
    tf = "not run" if args.no_tf else time_tf(args.python, path, feed)
    print(f"| {kind} | {n} | {sluice} | {tf} |", flush=True)


if __name__ == "__main__":
  main()
