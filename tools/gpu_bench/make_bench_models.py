"""Makes the GPU model benchmark's graphs: small enough to travel to a lent GPU machine.

The benchmark (tests/gpu/model_bench.cc, run by `tools/gpu_check.sh run`) times ResNet50,
MobileNetV2, EfficientNetB0 and the transformer encoder of tests/models/gen_models.py at
batch 1 and 64. Their frozen graphs are 3 to 100 MB, mostly weights, and what travels to the
GPU machine is limited to 64 MiB, so this writes, for each model found in $SLUICE_MODEL_DIR:

  <name>.skeleton.pb    the frozen graph with the values of every floating-point Const of 64
                        or more elements left out and the node marked `_sluice_synthetic`;
                        the benchmark fills them with deterministic values of the same dtype
                        and shape (speed does not depend on the weights' values);
  <name>.floor_b<B>.pb  the reference floor at batch B: each convolution and matrix product of
                        the model alone, on synthetic Const inputs of the shapes TensorFlow
                        infers for that batch, independent of each other, with a NoOp `floor`
                        that depends on them all: the time of the model's cuDNN and cuBLAS work
                        without anything between (no PyTorch on the GPU machine to compare with);
  manifest.txt          one line per model: name, input node, output node, the input's dims
                        after the batch dim (comma-separated).

Needs TensorFlow (../shared/docs/oracle.md). Usage:
  python3 tools/gpu_bench/make_bench_models.py OUT_DIR [name ...]
"""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import graph_pb2, types_pb2

BENCH_MODELS = ["resnet50", "mobilenet_v2", "efficientnet_b0", "transformer_encoder"]
BATCHES = [1, 64]
FLOAT_TYPES = (types_pb2.DT_FLOAT, types_pb2.DT_HALF, types_pb2.DT_BFLOAT16)
# The ops whose time is the floor: what cuDNN and cuBLAS run.
FLOOR_OPS = ("Conv2D", "DepthwiseConv2dNative", "MatMul", "BatchMatMul", "BatchMatMulV2",
             "BatchMatMulV3")
MIN_SYNTHETIC_ELEMENTS = 64


def model_dir():
  return os.environ.get("SLUICE_MODEL_DIR",
                        os.path.join(os.path.expanduser("~"), ".cache", "sluice-models"))


def elements(shape_proto):
  n = 1
  for d in shape_proto.dim:
    n *= d.size
  return n


def mark_synthetic(node):
  tensor = node.attr["value"].tensor
  for field in ("tensor_content", "float_val", "half_val"):
    tensor.ClearField(field)
  node.attr["_sluice_synthetic"].b = True


def skeleton(graph_def):
  out = graph_pb2.GraphDef()
  out.CopyFrom(graph_def)
  for node in out.node:
    if node.op != "Const":
      continue
    tensor = node.attr["value"].tensor
    if tensor.dtype in FLOAT_TYPES and elements(tensor.tensor_shape) >= MIN_SYNTHETIC_ELEMENTS:
      mark_synthetic(node)
  return out


def floor_graph(graph_def, input_name, input_dims, batch):
  """The model's FLOOR_OPS at `batch`, each on synthetic inputs; None if none is found."""
  graph = tf.Graph()
  with graph.as_default():
    placeholder = tf.compat.v1.placeholder(tf.float32, [batch] + input_dims, name="bench_input")
    tf.import_graph_def(graph_def, input_map={input_name + ":0": placeholder}, name="")
  out = graph_pb2.GraphDef()
  kept = []
  skipped = 0
  for op in graph.get_operations():
    if op.type not in FLOOR_OPS:
      continue
    shapes = [t.shape for t in op.inputs]
    if not all(s.is_fully_defined() for s in shapes):
      skipped += 1
      continue
    original = op.node_def
    node = out.node.add()
    node.name = "f%d" % len(kept)
    node.op = original.op
    for key, value in original.attr.items():
      if not key.startswith("_"):
        node.attr[key].CopyFrom(value)
    for i, (t, shape) in enumerate(zip(op.inputs, shapes)):
      const = out.node.add()
      const.name = "%s/in%d" % (node.name, i)
      const.op = "Const"
      const.attr["dtype"].type = t.dtype.as_datatype_enum
      tensor = const.attr["value"].tensor
      tensor.dtype = t.dtype.as_datatype_enum
      for d in shape.as_list():
        tensor.tensor_shape.dim.add().size = d
      mark_synthetic(const)
      node.input.append(const.name)
    kept.append(node.name)
  if not kept:
    return None, skipped
  done = out.node.add()
  done.name = "floor"
  done.op = "NoOp"
  done.input.extend("^" + name for name in kept)
  return out, skipped


def main():
  if len(sys.argv) < 2:
    sys.exit(__doc__)
  out_dir = sys.argv[1]
  names = sys.argv[2:] or BENCH_MODELS
  os.makedirs(out_dir, exist_ok=True)
  manifest = []
  for name in names:
    base = os.path.join(model_dir(), name)
    if not (os.path.exists(base + ".pb") and os.path.exists(base + ".input.npy")):
      print("%s: not in %s (tests/models/gen_models.py makes it); left out" % (name, model_dir()))
      continue
    graph_def = graph_pb2.GraphDef()
    with open(base + ".pb", "rb") as f:
      graph_def.ParseFromString(f.read())
    input_dims = list(np.load(base + ".input.npy", mmap_mode="r").shape[1:])
    with open(os.path.join(out_dir, name + ".skeleton.pb"), "wb") as f:
      f.write(skeleton(graph_def).SerializeToString())
    for batch in BATCHES:
      floor, skipped = floor_graph(graph_def, "input", input_dims, batch)
      if floor is None:
        print("%s: no convolution or matrix product at batch %d" % (name, batch))
        continue
      with open(os.path.join(out_dir, "%s.floor_b%d.pb" % (name, batch)), "wb") as f:
        f.write(floor.SerializeToString())
      if skipped:
        print("%s: %d ops of unknown shape left out of the floor" % (name, skipped))
    manifest.append("%s input output %s" % (name, ",".join(str(d) for d in input_dims)))
  with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + ("\n" if manifest else ""))
  print("bench models: %d in %s" % (len(manifest), out_dir))


if __name__ == "__main__":
  main()
