#!/usr/bin/env python3
"""Runs tf.io.parse_example end to end through Sluice and compares with TensorFlow.

Traces a tf.function that parses a batch of serialized tf.train.Examples (held in the graph
as a constant: `sluice run` feeds only numbers) with a spec mixing FixedLenFeature (with and
without defaults), VarLenFeature, RaggedFeature and FixedLenSequenceFeature, and one that
parses a single record (ParseExampleV2 on a scalar), freezes each, runs it with
`sluice run --save-outputs` and checks every output equals TensorFlow's. String features are
compared through their lengths and a hash bucket (the .npy files hold numbers only).

    bazel build //tools:sluice
    python3 tools/op_coverage/check_parse_example.py bazel-bin/tools/sluice
"""

import argparse
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)


def example(**features):
  def feature(v):
    if not v:  # an empty float list
      return tf.train.Feature(float_list=tf.train.FloatList(value=[]))
    if isinstance(v[0], bytes):
      return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    if isinstance(v[0], float):
      return tf.train.Feature(float_list=tf.train.FloatList(value=v))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))
  return tf.train.Example(features=tf.train.Features(
      feature={k: feature(v) for k, v in features.items()})).SerializeToString()


RECORDS = [
    example(a=[1.5, -2.0], req=[7], b=[1, 2, 3], c=[0.5], d=[4, 5], e=[b"hello"]),
    example(req=[8], c=[1.0, 2.0, 3.0], e=[b""]),
    example(a=[3.0, 4.0], req=[9], b=[-1], d=[6, 7, 8, 9]),
    example(req=[10], b=[2**40], c=[], s=[b"x", b"yz"]),
]

SPEC = {
    "a": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.25, 0.75]),
    "req": tf.io.FixedLenFeature([], tf.int64),
    "b": tf.io.VarLenFeature(tf.int64),
    "c": tf.io.RaggedFeature(tf.float32, row_splits_dtype=tf.int32),
    "d": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=-1),
    "e": tf.io.FixedLenFeature([], tf.string, default_value="none"),
    "s": tf.io.VarLenFeature(tf.string),
}


def numeric(parsed):
  """The parsed features as numeric tensors (strings by length and hash bucket)."""
  out = []
  for value in tf.nest.flatten(parsed, expand_composites=True):
    if value.dtype == tf.string:
      out += [tf.strings.length(value), tf.strings.to_hash_bucket_fast(value, 1000)]
    else:
      out.append(value)
  return out


def batch_fn():
  return numeric(tf.io.parse_example(tf.constant(RECORDS), SPEC))


def single_fn():
  spec = {k: v for k, v in SPEC.items() if k != "c"}
  return numeric(tf.io.parse_single_example(tf.constant(RECORDS[0]), spec))


def check(sluice, name, fn, workdir):
  concrete = tf.function(fn, autograph=False).get_concrete_function()
  frozen = convert_variables_to_constants_v2(concrete)
  graph_def = frozen.graph.as_graph_def()
  ops = sorted({n.op for n in graph_def.node if n.op.startswith("Parse")})
  path = os.path.join(workdir, name + ".pb")
  with open(path, "wb") as f:
    f.write(graph_def.SerializeToString())
  outputs = [t.name for t in frozen.outputs]
  expected = [np.asarray(v) for v in frozen()]
  save = os.path.join(workdir, name + "_out")
  cmd = [sluice, "run", path, "--save-outputs", save]
  for o in outputs:
    cmd += ["--output", o[:-2] if o.endswith(":0") else o]
  result = subprocess.run(cmd, capture_output=True, text=True)
  if result.returncode != 0:
    print(f"{name}: sluice failed:\n{result.stdout}\n{result.stderr}")
    return False
  ok = True
  for i, want in enumerate(expected):
    got = np.load(os.path.join(save, "out_%d.npy" % i))
    if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
      print(f"{name}: output {i} ({outputs[i]}) differs:\n  sluice {got!r}\n  tf     {want!r}")
      ok = False
  print(f"{name} ({', '.join(ops)}): {len(expected)} outputs "
        f"{'equal TensorFlow' if ok else 'DIFFER'}")
  return ok


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("sluice", help="path of the sluice binary (bazel-bin/tools/sluice)")
  args = parser.parse_args()
  with tempfile.TemporaryDirectory() as workdir:
    ok = check(args.sluice, "parse_example_batch", batch_fn, workdir)
    ok = check(args.sluice, "parse_single_example", single_fn, workdir) and ok
  sys.exit(0 if ok else 1)


if __name__ == "__main__":
  main()
