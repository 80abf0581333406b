#!/usr/bin/env python3
"""Prints what TensorFlow's TF_ApiDefMap gives for c_api_api_def_test's calls.

Usage: api_def_reference.py

Needs an installed TensorFlow (2.21 for the recorded values). It builds the OpList the test
builds (Add, MatMul and Const from TensorFlow's registry, with the docs the test gives MatMul),
makes the same TF_ApiDefMapPut and TF_ApiDefMapGet calls through TensorFlow's own C API (its
Python binding, pywrap_tf_session), and prints each call's status or the ApiDef it returns in
text format. The test's expectations are copied from this output. A TF_ApiDefMapGet of an op
the map does not hold runs in a child process: TensorFlow dereferences a null pointer there.
"""

import subprocess
import sys

from tensorflow.core.framework import api_def_pb2
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.client import pywrap_tf_session as c_api
from tensorflow.python.framework import c_api_util
from tensorflow.python.framework import op_def_registry

# The texts the test puts, in its order (c_api/c_api_api_def_test.cc, kPuts).
PUTS = [
    ('op {\n  graph_op_name: "MatMul"\n  endpoint { name: "MatrixMultiply" }\n'
     '  endpoint { name: "linalg.MatMul" deprecation_version: 9 }\n'
     '  in_arg { name: "a" rename_to: "x" }\n'
     '  attr { name: "transpose_a" rename_to: "adj_a" default_value { b: true } }\n'
     '  description: <<END\nUses `a` and\n`b` "quoted" \\ back\ttab.\nEND  # kept\n'
     '  description_prefix: "PRE"\n  description_suffix: "SUF"\n}\n'
     'op { graph_op_name: "NotInTheList" summary: "skipped" }\n'
     'op { graph_op_name: "Add" visibility: HIDDEN summary: "new sum" }\n'),
    'op { graph_op_name: "Add" visibility: SKIP in_arg { name: "zz" } }',
    'op { graph_op_name: "Add" out_arg { name: "sum" } }',
    'op { graph_op_name: "Add" attr { name: "U" } }',
    'op { graph_op_name: "Add" arg_order: "y" }',
    'op { graph_op_name: "Add" arg_order: "y" arg_order: "z" }',
    'op { graph_op_name: "Add" arg_order: "y" arg_order: "x" }',
    'op {\n graph_op_name: "Const" description: <<END\nnot after the first colon\nEND\n}',
    'garbage {{{',
    'op { graph_op_name: "Const" summary: "one" }\nop { graph_op_name: "Const" summary: 2x }',
]


def op_list():
  ops = op_def_pb2.OpList()
  for name in ["Add", "MatMul", "Const"]:
    ops.op.add().CopyFrom(op_def_registry.get(name))
  matmul = ops.op[1]
  matmul.input_arg[0].description = "The `a` input, not `b`."
  matmul.summary = "Multiply `a` by `b` (MatMul, `MatMul`)."
  matmul.attr[0].description = "Transpose `a`: `transpose_a`."
  return ops


def put(api_map, text):
  try:
    c_api.TF_ApiDefMapPut(api_map, text, len(text))
    return "OK"
  except Exception as e:  # pylint: disable=broad-except
    return "%s %r" % (type(e).__name__, str(e))


def get(api_map, name):
  buf = c_api.TF_ApiDefMapGet(api_map, name, len(name))
  api_def = api_def_pb2.ApiDef()
  api_def.ParseFromString(c_api.TF_GetBuffer(buf))
  return str(api_def)


def main():
  if len(sys.argv) > 1 and sys.argv[1] == "--get-unknown":
    with c_api_util.tf_buffer(op_list().SerializeToString()) as buf:
      api_map = c_api.TF_NewApiDefMap(buf)
    get(api_map, "NoSuchOp")
    return
  try:
    with c_api_util.tf_buffer(b"\xff\xff") as buf:
      c_api.TF_NewApiDefMap(buf)
    print("garbage OpList: OK")
  except Exception as e:  # pylint: disable=broad-except
    print("garbage OpList: %s %r" % (type(e).__name__, str(e)))
  with c_api_util.tf_buffer(op_list().SerializeToString()) as buf:
    api_map = c_api.TF_NewApiDefMap(buf)
  for i, text in enumerate(PUTS):
    print("put %d: %s" % (i, put(api_map, text)))
  for name in ["MatMul", "Add", "Const"]:
    print("get %s:\n%s" % (name, get(api_map, name)))
  print("put after get: %s" % put(api_map, 'op { graph_op_name: "Add" }'))
  child = subprocess.run([sys.executable, __file__, "--get-unknown"], capture_output=True,
                         check=False)
  print("get of an op not in the map: exit status %d" % child.returncode)


if __name__ == "__main__":
  main()
