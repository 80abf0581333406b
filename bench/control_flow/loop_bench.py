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
import os
import subprocess
import sys
import tempfile

import session_timing

HERE = os.path.dirname(os.path.abspath(__file__))
GRAPH = os.path.join(HERE, "..", "..", "tests", "control_flow", "long_loop.pb")


def tf_median_ms(iterations, runs, threads):
  import numpy as np  # noqa: E402
  return session_timing.tf_median_ms(GRAPH, {"n:0": np.int32(iterations)}, ["i:0", "s:0"],
                                     runs, threads)


def sluice_median_ms(sluice, iterations, runs, threads):
  import numpy as np  # noqa: E402
  with tempfile.TemporaryDirectory() as tmp:
    n_path = os.path.join(tmp, "n.npy")
    np.save(n_path, np.int32(iterations))
    return session_timing.sluice_median_ms(sluice, GRAPH, {"n": n_path}, ["i", "s"], runs,
                                           threads)


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
