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
import os
import subprocess
import sys

import session_timing

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
  import numpy as np  # noqa: E402
  return session_timing.tf_median_ms(pb, {"x:0": np.load(npy)}, "Identity:0", runs, threads)


def sluice_median_ms(sluice, pb, npy, runs, threads):
  return session_timing.sluice_median_ms(sluice, pb, {"x": npy}, ["Identity"], runs, threads)


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
