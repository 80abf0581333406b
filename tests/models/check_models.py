"""Runs the generated whole models (gen_models.py) in Sluice and compares with TensorFlow.

For each model in $SLUICE_MODEL_DIR: `sluice run <name>.pb --input input=<name>.input.npy
--output output --save-outputs DIR`, then the output against <name>.tf_output.npy. Prints
one line per model: the largest absolute error, the largest error relative to the output's
largest magnitude, and whether it is within the tolerance (relative 1e-4, the CPU kernel
issue's aim for fp32). Exit status 1 if any model fails or is out of tolerance.

Usage: python3 tests/models/check_models.py [--sluice bazel-bin/tools/sluice] [name ...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_models import MODELS, model_dir  # noqa: E402

TOLERANCE = 1e-4


def check(sluice, name, extra):
  base = os.path.join(model_dir(), name)
  if not os.path.exists(base + ".pb"):
    return False, "missing (run tests/models/gen_models.py %s)" % name
  with tempfile.TemporaryDirectory() as out:
    cmd = [sluice, "run", base + ".pb", "--input", "input=%s.input.npy" % base,
           "--output", "output", "--save-outputs", out] + extra
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
      return False, "sluice failed: " + (result.stderr.strip() or result.stdout.strip())
    got = np.load(os.path.join(out, "out_0.npy"))
  want = np.load(base + ".tf_output.npy")
  if got.shape != want.shape:
    return False, "shape %s, TensorFlow %s" % (got.shape, want.shape)
  abs_err = float(np.max(np.abs(got.astype(np.float64) - want)))
  rel_err = abs_err / max(float(np.max(np.abs(want))), 1e-30)
  ok = rel_err <= TOLERANCE
  return ok, "max abs error %.3g, relative to max |output| %.3g%s" % (
      abs_err, rel_err, "" if ok else " (over %g)" % TOLERANCE)


def main():
  parser = argparse.ArgumentParser(description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--sluice", default="bazel-bin/tools/sluice")
  parser.add_argument("--threads", type=int, default=0, help="sluice --threads (0: default)")
  parser.add_argument("names", nargs="*")
  args = parser.parse_args()
  extra = ["--threads", str(args.threads)] if args.threads else []
  failed = 0
  for name in args.names or list(MODELS):
    ok, message = check(args.sluice, name, extra)
    failed += not ok
    print("%-20s %s  %s" % (name, "ok  " if ok else "FAIL", message))
  sys.exit(1 if failed else 0)


if __name__ == "__main__":
  main()
