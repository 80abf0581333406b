"""Compares a unary op of Sluice's with TensorFlow's, bit for bit, over every float (or a part).

    python3 tests/kernels/unary_sweep.py bazel-bin/c_api/libtensorflow.so.2 [--op Rsqrt]
        [--chunks N] [--doubles N] [--halves 0|1]

Needs TensorFlow (pip) and Sluice's C library (`bazel build -c opt //c_api:libtensorflow.so.2`).
The float inputs are all 2^32 bit patterns, 2^24 at a time, each chunk one tensor (a multiple of
8 long, so every element takes the vector form); then tensors of 8k + r elements (r = 1..7) of
random floats check the scalar tail, every half (--halves 1, the default) checks half, and
--doubles random doubles (default 2^24), then tensors of 4k + r doubles (TensorFlow's double
packets hold 4), check the op in double. Every result is compared as
bits, NaN payloads included. Rsqrt's and Reciprocal's float results depend on the processor's
estimates (numerics/rsqrt.h, reciprocal.h), so this checks the machine it runs on; it prints
the processor's name. --op takes any op of one input `x` and attr `T`.

TensorFlow and Sluice's libtensorflow.so.2 cannot share a process (the library names clash), so
each runs in a worker process of its own and hands its results back through files in /dev/shm.
Not a test: it needs TensorFlow and takes a few minutes.
"""
import argparse
import multiprocessing as mp
import os
import queue as queue_module
import sys
import tempfile

import numpy as np

CHUNK = 1 << 24


def _guarded(worker, args):
  """Runs worker(*args); an exception ends it with ("error", text) on its reply queue (the last
  argument), so that the parent stops instead of waiting."""
  try:
    worker(*args)
  except Exception as e:  # pylint: disable=broad-except
    args[-1].put(("error", "%s: %s" % (type(e).__name__, e)))


def _serve(requests, replies, op_of):
  """Answers (dtype, input file, output file) requests with y = op(x) until told None."""
  while True:
    request = requests.get()
    if request is None:
      return
    dtype_name, in_path, out_path = request
    op_of(dtype_name, np.fromfile(in_path, dtype=dtype_name)).tofile(out_path)
    replies.put(out_path)


def _tf_worker(op, requests, replies):
  import tensorflow as tf
  tf.get_logger().setLevel("ERROR")
  graphs = {}
  sessions = {}
  for dtype_name in ("float32", "float64", "float16"):
    g = tf.Graph()
    with g.as_default():
      x = tf.compat.v1.placeholder(dtype_name, [None], name="x")
      getattr(tf.raw_ops, op)(x=x, name="y")
    graphs[dtype_name] = g.as_graph_def().SerializeToString()
    sessions[dtype_name] = tf.compat.v1.Session(graph=g)
  replies.put(graphs)
  _serve(requests, replies, lambda dtype_name, x: sessions[dtype_name].run("y:0", {"x:0": x}))


def _sluice_worker(library, graphs, requests, replies):
  sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                  "c_api", "python"))
  import sluice_tf
  lib = sluice_tf.Library(library)
  sessions = {name: lib.session(lib.import_graph_def(graph)) for name, graph in graphs.items()}
  replies.put("ready")
  _serve(requests, replies, lambda dtype_name, x: sessions[dtype_name].run({"x": x}, ["y"])[0])


def _run_tf_worker(*args):
  _guarded(_tf_worker, args)


def _run_sluice_worker(*args):
  _guarded(_sluice_worker, args)


def processor_name():
  try:
    with open("/proc/cpuinfo") as f:
      for line in f:
        if line.startswith("model name"):
          return line.split(":", 1)[1].strip()
  except OSError:
    pass
  return "unknown processor"


def _reply(queue, process):
  """The worker's next reply; raises if it failed or died (a crash sends no reply)."""
  while True:
    try:
      reply = queue.get(timeout=5)
      break
    except queue_module.Empty:
      if not process.is_alive():
        raise RuntimeError("worker died with exit code %s" % process.exitcode)
  if isinstance(reply, tuple) and reply and reply[0] == "error":
    raise RuntimeError("worker failed: " + reply[1])
  return reply


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("library")
  parser.add_argument("--op", default="Rsqrt")
  parser.add_argument("--chunks", type=int, default=256, help="float chunks of 2^24 (256 = all)")
  parser.add_argument("--doubles", type=int, default=CHUNK)
  parser.add_argument("--halves", type=int, default=1, help="1: every half as well, 0: not")
  args = parser.parse_args()

  ctx = mp.get_context("spawn")
  tf_requests, tf_replies = ctx.Queue(), ctx.Queue()
  tf_process = ctx.Process(target=_run_tf_worker, args=(args.op, tf_requests, tf_replies))
  tf_process.start()
  graphs = _reply(tf_replies, tf_process)
  sl_requests, sl_replies = ctx.Queue(), ctx.Queue()
  sl_process = ctx.Process(target=_run_sluice_worker,
                           args=(args.library, graphs, sl_requests, sl_replies))
  sl_process.start()
  _reply(sl_replies, sl_process)

  scratch = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
  in_path, tf_path, sl_path = (os.path.join(scratch, n) for n in ("x", "tf", "sluice"))

  def compare(x, dtype_name, label):
    x.tofile(in_path)
    tf_requests.put((dtype_name, in_path, tf_path))
    sl_requests.put((dtype_name, in_path, sl_path))
    _reply(tf_replies, tf_process)
    _reply(sl_replies, sl_process)
    bits = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}[dtype_name]
    want = np.fromfile(tf_path, dtype=bits)
    got = np.fromfile(sl_path, dtype=bits)
    differ = np.nonzero(want != got)[0]
    values = {"float16": np.float16, "float32": np.float32, "float64": np.float64}[dtype_name]
    both_nan = np.isnan(want[differ].view(values)) & np.isnan(got[differ].view(values))
    if both_nan.any():
      print("  %s: %d of the %d differ only in a NaN's payload" %
            (label, int(both_nan.sum()), len(differ)))
    for i in differ[~both_nan][:5]:
      print("  %s: x %s: TensorFlow %s, Sluice %s" %
            (label, hex(int(x.view(bits)[i])), hex(int(want[i])), hex(int(got[i]))))
    return len(differ)

  print("%s on %s" % (args.op, processor_name()))
  total_differ = 0
  try:
    differ = 0
    for k in range(args.chunks):
      x = np.arange(k * CHUNK, (k + 1) * CHUNK, dtype=np.uint64).astype(np.uint32).view(np.float32)
      differ += compare(x, "float32", "float chunk %d" % k)
    print("float, every bit pattern in %d chunks of 2^24: %d differ" % (args.chunks, differ))
    total_differ += differ

    rng = np.random.default_rng(7)
    differ = 0
    for r in range(1, 8):
      n = (1 << 20) + r
      x = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
      differ += compare(x, "float32", "float tail %d" % r)
    print("float, tensors of 2^20 + r (r = 1..7) random elements, tails included: %d differ" %
          differ)
    total_differ += differ

    if args.halves:
      # Every half, and a tensor of 2^16 + 5 for the tail.
      x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
      differ = compare(x, "float16", "half")
      differ += compare(np.concatenate([x, x[12345:12350]]), "float16", "half tail")
      print("half, every bit pattern (and a tail of 5): %d differ" % differ)
      total_differ += differ

    if args.doubles:
      x = rng.integers(0, 1 << 64, args.doubles, dtype=np.uint64).view(np.float64)
      differ = compare(x, "float64", "double")
      print("double, %d random bit patterns: %d differ" % (args.doubles, differ))
      total_differ += differ
      # TensorFlow's double packets hold 4: tensors of 4k + r check the tails.
      differ = 0
      for r in range(1, 4):
        n = (1 << 16) + r
        x = rng.integers(0, 1 << 64, n, dtype=np.uint64).view(np.float64)
        # Half of them in [-40, 40], where the results are neither 0 nor infinite.
        x[::2] = rng.uniform(-40.0, 40.0, (n + 1) // 2)
        differ += compare(x, "float64", "double tail %d" % r)
      print("double, tensors of 2^16 + r (r = 1..3) elements, tails included: %d differ" % differ)
      total_differ += differ
  finally:
    tf_requests.put(None)
    sl_requests.put(None)
    tf_process.join()
    sl_process.join()
    for p in (in_path, tf_path, sl_path):
      if os.path.exists(p):
        os.remove(p)
    os.rmdir(scratch)
  return 1 if total_differ else 0


if __name__ == "__main__":
  sys.exit(main())
