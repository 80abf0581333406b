"""Makes graph.pb for the hello_tf_c_api examples, and TensorFlow's output of each example.

The examples (src/, unchanged from upstream) load "graph.pb" from the working directory, feed
"input_4" a float tensor [batch, 5, 12] and fetch "output_node0" [batch, 4]. This script builds
such a graph in TensorFlow's graph mode with fixed weights (numpy seed 2021):

  input_4       Placeholder float [?, 5, 12]
  flatten       Reshape to [-1, 60]
  dense/...     MatMul [60, 16] + BiasAdd + Relu
  logits/...    MatMul [16, 4] + BiasAdd
  output_node0  Softmax

and writes, beside this script:
  graph.pb             the frozen GraphDef (weights as Const nodes)
  expected/<name>.txt  the stdout of each example program built against TensorFlow's own C
                       library (the pip wheel's libtensorflow_cc.so.2) and run on graph.pb
  expected/VERSION     the TensorFlow version that made them

Run with TensorFlow installed (python3 -m pip install tensorflow-cpu) and g++ on PATH:
  python3 c_api/examples/third_party/hello_tf_c_api/make_graph.py
"""
import os
import shutil
import subprocess
import tempfile

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 2021
EXAMPLES = ["session_run", "interface", "batch_interface", "tensor_info", "graph_info"]


def build_graph():
  rng = np.random.RandomState(SEED)
  w1 = (rng.standard_normal((60, 16)) * 0.3).astype(np.float32)
  b1 = (rng.standard_normal(16) * 0.1).astype(np.float32)
  w2 = (rng.standard_normal((16, 4)) * 0.5).astype(np.float32)
  b2 = (rng.standard_normal(4) * 0.1).astype(np.float32)
  v1 = tf.compat.v1
  graph = tf.Graph()
  with graph.as_default():
    x = v1.placeholder(tf.float32, shape=[None, 5, 12], name="input_4")
    flat = tf.reshape(x, tf.constant([-1, 60], name="flatten/shape"), name="flatten")
    with tf.name_scope("dense"):
      h = tf.matmul(flat, tf.constant(w1, name="kernel"), name="MatMul")
      h = tf.nn.bias_add(h, tf.constant(b1, name="bias"), name="BiasAdd")
      h = tf.nn.relu(h, name="Relu")
    with tf.name_scope("logits"):
      y = tf.matmul(h, tf.constant(w2, name="kernel"), name="MatMul")
      y = tf.nn.bias_add(y, tf.constant(b2, name="bias"), name="BiasAdd")
    tf.nn.softmax(y, name="output_node0")
  return graph


def build_and_run_examples(expected_dir):
  """Compiles each example against TensorFlow's C library and records its stdout."""
  include = tf.sysconfig.get_include()
  lib = tf.sysconfig.get_lib()
  src = os.path.join(HERE, "src")
  work = tempfile.mkdtemp()
  try:
    shutil.copy(os.path.join(HERE, "graph.pb"), work)
    for name in EXAMPLES:
      binary = os.path.join(work, name)
      subprocess.run([
          "g++", "-std=c++17", "-O1", "-I" + include,
          "-I" + os.path.join(src, "3rdparty/scope_guard/include"),
          os.path.join(src, name + ".cpp"),
          os.path.join(src, "tf_utils.cpp"), "-o", binary, "-L" + lib,
          "-l:libtensorflow_cc.so.2", "-l:libtensorflow_framework.so.2",
          "-Wl,-rpath," + lib
      ], check=True)
      env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
      out = subprocess.run([binary], cwd=work, env=env, check=True, capture_output=True)
      with open(os.path.join(expected_dir, name + ".txt"), "wb") as f:
        f.write(out.stdout)
  finally:
    shutil.rmtree(work)


def main():
  graph = build_graph()
  with open(os.path.join(HERE, "graph.pb"), "wb") as f:
    f.write(graph.as_graph_def().SerializeToString())

  expected_dir = os.path.join(HERE, "expected")
  os.makedirs(expected_dir, exist_ok=True)
  build_and_run_examples(expected_dir)
  with open(os.path.join(expected_dir, "VERSION"), "w") as f:
    f.write("tensorflow %s\n" % tf.__version__)

  # Softmax outputs: what TensorFlow printed is a distribution over the 4 classes.
  with open(os.path.join(expected_dir, "session_run.txt")) as f:
    printed = np.array([float(v) for v in f.read().split(":", 1)[1].split(",")])
  assert printed.shape == (4,) and abs(printed.sum() - 1) < 1e-4, printed
  print("graph.pb and expected/ written by TensorFlow", tf.__version__, printed)


if __name__ == "__main__":
  main()
