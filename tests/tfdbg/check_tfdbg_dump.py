"""Reads Sluice's tfdbg (v1) dumps with TensorFlow's own reader and compares them with
TensorFlow's dumps of the same graph and watches.

For each case a tf.compat.v1 graph is built and every node of it is watched through
RunOptions.debug_options with DebugIdentity, DebugNumericSummary and DebugNanCount (failures
tolerated: not every op has a kernel for every dtype). TensorFlow runs it in a Session; Sluice
runs the same GraphDef with the same serialized RunOptions (only the dump URL differs) through
tfdbg_dump_main. Both dump roots are loaded with tensorflow.python.debug.lib.debug_data's
DebugDumpDir (validate=True: every dumped node is in the partition graph and dumps respect the
graph's order) and compared:
  - core metadata: global_step, input_names, output_names, target_nodes;
  - watch keys ("node:slot:DebugOp" per device): every key TensorFlow dumped, Sluice dumped;
    a key only Sluice dumped must be of a node TensorFlow's optimisers removed (Sluice keeps
    watched nodes; TensorFlow loses the watches of nodes Grappler folds or fuses);
  - values: per key, as many dumps, and equal values: exact for integers, bools, strings and
    the counts, dtype and shape of DebugNumericSummary; floats within a relative 1e-6
    (kernels may round the last bit differently).
Prints one line per case and a summary; exit status 1 on any difference.

Usage: check_tfdbg_dump.py TFDBG_DUMP_MAIN [WORK_DIR]
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import shutil
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.debug.lib import debug_data

tf1 = tf.compat.v1
tf1.disable_eager_execution()

DEBUG_OPS = ["DebugIdentity", "DebugNumericSummary", "DebugNanCount"]
RTOL = 1e-6


def dense_case():
  """Contractions, activations, NaN and infinities, bool and int outputs, a two-output op."""
  x = tf1.placeholder(tf.float32, [2, 3], name="x")
  w = tf.constant([[1., -2., 0.5, 0.], [0., 1., -1., 2.], [3., 0., 0., -0.5]], name="dense/w")
  b = tf.constant([0.5, -1., 0., 1.], name="dense/b")
  mm = tf.matmul(x, w, name="dense/matmul")
  pre = tf.add(mm, b, name="dense/add")
  relu = tf.nn.relu(pre, name="dense/relu")
  log = tf.math.log(relu, name="log")  # -inf where relu is 0
  root = tf.math.sqrt(pre, name="sqrt")  # NaN where pre < 0
  gt = tf.greater(pre, 0., name="gt")
  positives = tf.cast(gt, tf.int32, name="positives")
  count = tf.reduce_sum(positives, name="count")
  left, right = tf.split(relu, 2, axis=1, name="split")
  halves = tf.subtract(left, right, name="halves")
  tf.add(x, 1., name="unused")  # needed by no fetch: watched, never runs
  k = tf.add(tf.constant(3., name="k1"), 1., name="k2")  # constant: Grappler folds it
  scaled = tf.multiply(halves, k, name="scaled")
  feeds = {"x:0": np.array([[1., 2., -1.], [0., -1., 2.]], np.float32)}
  fetches = [log.name, root.name, count.name, scaled.name]
  return feeds, fetches, None


def two_devices_case():
  """Two CPU devices: a partition each, values crossing between them."""
  with tf.device("/device:CPU:0"):
    x = tf1.placeholder(tf.float32, [4], name="x")
    a = tf.multiply(x, 3., name="cpu0/a")
  with tf.device("/device:CPU:1"):
    b = tf.subtract(a, 1., name="cpu1/b")
    c = tf.cast(b, tf.int64, name="cpu1/c")
  with tf.device("/device:CPU:0"):
    d = tf.add(b, a, name="cpu0/d")
  config = config_pb2.ConfigProto(device_count={"CPU": 2})
  feeds = {"x:0": np.array([1., -2., 0.25, 4.], np.float32)}
  return feeds, [c.name, d.name], config


def cond_case():
  """v1 control flow (Switch and Merge): the untaken branch dumps nothing."""
  x = tf1.placeholder(tf.float32, [3], name="x")
  p = tf1.placeholder(tf.bool, [], name="p")
  tf1.disable_control_flow_v2()
  try:
    out = tf1.cond(p, lambda: tf.multiply(x, 2., name="taken"),
                   lambda: tf.subtract(x, 1., name="untaken"), name="cond")
  finally:
    tf1.enable_control_flow_v2()
  y = tf.add(out, 1., name="y")
  feeds = {"x:0": np.array([1., 2., 3.], np.float32), "p:0": np.array(True)}
  return feeds, [y.name], None


CASES = [("dense", dense_case), ("two_devices", two_devices_case), ("cond", cond_case)]


def run_options(graph_def, root):
  options = config_pb2.RunOptions()
  options.debug_options.global_step = 7
  for node in graph_def.node:
    # A watch per output slot the node may have; a slot it lacks dumps nothing.
    for slot in range(2):
      watch = options.debug_options.debug_tensor_watch_opts.add()
      watch.node_name = node.name
      watch.output_slot = slot
      watch.debug_ops.extend(DEBUG_OPS)
      watch.debug_urls.append("file://" + root)
      watch.tolerate_debug_op_creation_failures = True
  return options


def dumps(root):
  """DebugDumpDir of `root`, and {(device, watch key): [values in time order]}."""
  dump = debug_data.DebugDumpDir(root, validate=True)
  values = {}
  for datum in dump.dumped_tensor_data:
    values.setdefault((datum.device_name, datum.watch_key), []).append(datum.get_tensor())
  return dump, values


def same_value(key, want, got):
  if isinstance(want, debug_data.InconvertibleTensorProto) or want is None:
    return type(want) == type(got)
  want = np.asarray(want)
  got = np.asarray(got)
  if want.dtype != got.dtype or want.shape != got.shape:
    return False
  if key.endswith(":DebugNumericSummary"):
    exact = np.r_[0:8, 12:want.size]
    return (np.array_equal(want[exact], got[exact]) and
            np.allclose(got[8:12], want[8:12], rtol=RTOL, atol=0, equal_nan=True))
  if want.dtype.kind == "f":
    return np.allclose(got, want, rtol=RTOL, atol=0, equal_nan=True)
  return np.array_equal(want, got)


def check_case(name, build, tool, work):
  graph = tf1.Graph()
  with graph.as_default():
    feeds, fetches, config = build()
  graph_def = graph.as_graph_def()
  tf_root = os.path.join(work, name, "tensorflow")
  sluice_root = os.path.join(work, name, "sluice")
  for root in (tf_root, sluice_root):
    shutil.rmtree(root, ignore_errors=True)

  with tf1.Session(graph=graph, config=config) as session:
    session.run(fetches, feed_dict={graph.get_tensor_by_name(k): v for k, v in feeds.items()},
                options=run_options(graph_def, tf_root))

  files = os.path.join(work, name)
  with open(os.path.join(files, "graph.pb"), "wb") as f:
    f.write(graph_def.SerializeToString())
  with open(os.path.join(files, "run_options.pb"), "wb") as f:
    f.write(run_options(graph_def, sluice_root).SerializeToString())
  config_path = "-"
  if config is not None:
    config_path = os.path.join(files, "config.pb")
    with open(config_path, "wb") as f:
      f.write(config.SerializeToString())
  command = [tool, os.path.join(files, "graph.pb"), os.path.join(files, "run_options.pb"),
             config_path, ",".join(fetches)]
  for i, (feed, value) in enumerate(sorted(feeds.items())):
    path = os.path.join(files, "feed_%d.npy" % i)
    np.save(path, value)
    command.append("%s=%s" % (feed, path))
  ran = subprocess.run(command, capture_output=True, text=True)
  if ran.returncode != 0:
    return ["Sluice failed: " + ran.stderr.strip()]

  problems = []
  tf_dump, tf_values = dumps(tf_root)
  try:
    sluice_dump, sluice_values = dumps(sluice_root)
  except Exception as e:  # DebugDumpDir refusing the dump is the failure to report
    return ["DebugDumpDir refused Sluice's dump: %s: %s" % (type(e).__name__, e)]

  for field in ("global_step", "input_names", "output_names", "target_nodes"):
    want = getattr(tf_dump.core_metadata, field)
    got = getattr(sluice_dump.core_metadata, field)
    if want != got:
      problems.append("core metadata %s: TensorFlow %r, Sluice %r" % (field, want, got))

  tf_nodes = set()
  for device in tf_dump.devices():
    tf_nodes.update(tf_dump.nodes(device_name=device))
  for key in sorted(set(tf_values) - set(sluice_values)):
    problems.append("%s on %s: dumped by TensorFlow, not by Sluice" % (key[1], key[0]))
  kept = []
  for key in sorted(set(sluice_values) - set(tf_values)):
    node = key[1].split(":")[0]
    if node in tf_nodes:
      problems.append("%s on %s: dumped by Sluice, not by TensorFlow, which ran the node" %
                      (key[1], key[0]))
    else:
      kept.append(key[1])
  common = sorted(set(tf_values) & set(sluice_values))
  for key in common:
    want, got = tf_values[key], sluice_values[key]
    if len(want) != len(got):
      problems.append("%s: %d dumps by TensorFlow, %d by Sluice" % (key[1], len(want), len(got)))
      continue
    for w, g in zip(want, got):
      if not same_value(key[1], w, g):
        problems.append("%s: TensorFlow %r, Sluice %r" % (key[1], w, g))
  nodes_kept = sorted(set(k.split(":")[0] for k in kept))
  print("%-12s %s: %d watch keys compared%s" %
        (name, "OK" if not problems else "DIFFERENT", len(common),
         "; nodes TensorFlow optimised away, dumped by Sluice only: " + ", ".join(nodes_kept)
         if nodes_kept else ""))
  return problems


def main():
  if len(sys.argv) not in (2, 3):
    print(__doc__)
    return 2
  tool = os.path.abspath(sys.argv[1])
  work = sys.argv[2] if len(sys.argv) == 3 else tempfile.mkdtemp(prefix="tfdbg_check_")
  print("TensorFlow", tf.__version__)
  failures = 0
  for name, build in CASES:
    os.makedirs(os.path.join(work, name), exist_ok=True)
    for problem in check_case(name, build, tool, work):
      failures += 1
      print("  " + problem)
  print("%d difference(s)" % failures)
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
