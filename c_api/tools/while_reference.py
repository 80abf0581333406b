#!/usr/bin/env python3
"""Prints what TensorFlow's TF_NewWhile/TF_FinishWhile build for c_api_while_test's loops.

Usage: while_reference.py

Needs an installed TensorFlow (2.21 for the recorded values). It loads the C API from the
installed libtensorflow_cc.so.2 with ctypes, builds each loop of c_api/c_api_while_test.cc
exactly as the test does, and prints per case the nodes TF_FinishWhile added (name, op and
inputs, in the GraphDef's order), the loop's outputs when the graph runs, or the error code and
message. The test's expectations are copied from this output.
"""

import ctypes
import os

import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2
from tensorflow.core.framework import graph_pb2

INT32, BOOL = 3, 10

lib = ctypes.CDLL(os.path.join(os.path.dirname(tf.__file__), "libtensorflow_cc.so.2"))
vp = ctypes.c_void_p


class Output(ctypes.Structure):
  _fields_ = [("oper", vp), ("index", ctypes.c_int)]


class WhileParams(ctypes.Structure):
  _fields_ = [("ninputs", ctypes.c_int), ("cond_graph", vp),
              ("cond_inputs", ctypes.POINTER(Output)), ("cond_output", Output),
              ("body_graph", vp), ("body_inputs", ctypes.POINTER(Output)),
              ("body_outputs", ctypes.POINTER(Output)), ("name", ctypes.c_char_p)]


class Buffer(ctypes.Structure):
  _fields_ = [("data", vp), ("length", ctypes.c_size_t), ("dealloc", vp)]


def _sig(name, res, args):
  f = getattr(lib, name)
  f.restype = res
  f.argtypes = args


_sig("TF_NewGraph", vp, [])
_sig("TF_NewStatus", vp, [])
_sig("TF_GetCode", ctypes.c_int, [vp])
_sig("TF_Message", ctypes.c_char_p, [vp])
_sig("TF_NewOperation", vp, [vp, ctypes.c_char_p, ctypes.c_char_p])
_sig("TF_FinishOperation", vp, [vp, vp])
_sig("TF_AddInput", None, [vp, Output])
_sig("TF_SetAttrValueProto", None, [vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, vp])
_sig("TF_OperationName", ctypes.c_char_p, [vp])
_sig("TF_NewBuffer", ctypes.POINTER(Buffer), [])
_sig("TF_GraphToGraphDef", None, [vp, ctypes.POINTER(Buffer), vp])
_sig("TF_NewWhile", WhileParams, [vp, ctypes.POINTER(Output), ctypes.c_int, vp])
_sig("TF_FinishWhile", None, [ctypes.POINTER(WhileParams), vp, ctypes.POINTER(Output)])
_sig("TF_AbortWhile", None, [ctypes.POINTER(WhileParams)])


def op(g, s, op_type, name, inputs=(), **attrs):
  d = lib.TF_NewOperation(g, op_type.encode(), name.encode())
  for o in inputs:
    lib.TF_AddInput(d, o)
  for key, value in attrs.items():
    b = value.SerializeToString()
    lib.TF_SetAttrValueProto(d, key.encode(), b, len(b), s)
  oper = lib.TF_FinishOperation(d, s)
  assert lib.TF_GetCode(s) == 0, lib.TF_Message(s)
  return Output(oper, 0)


def const(g, s, name, value, dtype=tf.int32):
  return op(g, s, "Const", name, value=attr_value_pb2.AttrValue(
      tensor=tf.make_tensor_proto(value, dtype=dtype)), dtype=attr_value_pb2.AttrValue(
          type=dtype.as_datatype_enum))


def graph_def(g, s):
  buf = lib.TF_NewBuffer()
  lib.TF_GraphToGraphDef(g, buf, s)
  gd = graph_pb2.GraphDef()
  gd.ParseFromString(ctypes.string_at(buf.contents.data, buf.contents.length))
  return gd


def run_case(title, build):
  """build(g, s) returns (inputs, fill(params, g, s) -> None or error text, feeds)."""
  g, s = lib.TF_NewGraph(), lib.TF_NewStatus()
  inputs, fill, feeds = build(g, s)
  before = {n.name for n in graph_def(g, s).node}
  arr = (Output * max(1, len(inputs)))(*inputs)
  params = lib.TF_NewWhile(g, arr, len(inputs), s)
  print("== " + title)
  if lib.TF_GetCode(s):
    print("ERROR %d: %s" % (lib.TF_GetCode(s), lib.TF_Message(s).decode()))
    return
  fill(params, g, s)
  outs = (Output * len(inputs))()
  lib.TF_FinishWhile(ctypes.byref(params), s, outs)
  if lib.TF_GetCode(s):
    print("ERROR %d: %s" % (lib.TF_GetCode(s), lib.TF_Message(s).decode()))
    return
  gd = graph_def(g, s)
  for n in gd.node:
    if n.name not in before:
      print("node %s %s %s" % (n.name, n.op, " ".join(n.input)))
  fetches = ["%s:%d" % (lib.TF_OperationName(o.oper).decode(), o.index) for o in outs]
  with tf.Graph().as_default() as tg:
    tf.graph_util.import_graph_def(gd, name="")
    with tf.compat.v1.Session(graph=tg) as sess:
      values = sess.run(fetches, {k + ":0": v for k, v in feeds.items()})
  for f, v in zip(fetches, values):
    print("output %s = %s" % (f, v))


def placeholder(g, s, name):
  return op(g, s, "Placeholder", name, dtype=attr_value_pb2.AttrValue(type=INT32))


def binary(g, s, op_type, name, a, b):
  return op(g, s, op_type, name, [a, b])


def count_to_ten(g, s):
  x = placeholder(g, s, "x")

  def fill(p, g2, s2):
    ten = const(p.cond_graph, s2, "ten", 10)
    p.cond_output = binary(p.cond_graph, s2, "Less", "less", p.cond_inputs[0], ten)
    one = const(p.body_graph, s2, "one", 1)
    p.body_outputs[0] = binary(p.body_graph, s2, "AddV2", "add", p.body_inputs[0], one)
    p.name = b"test_loop"
  return [x], fill, {"x": 3}


def two_vars(g, s):
  i = placeholder(g, s, "i")
  total = const(g, s, "total", 0)

  def fill(p, g2, s2):
    p.cond_output = binary(p.cond_graph, s2, "Less", "less", p.cond_inputs[0],
                           const(p.cond_graph, s2, "five", 5))
    p.body_outputs[0] = binary(p.body_graph, s2, "AddV2", "next_i", p.body_inputs[0],
                               const(p.body_graph, s2, "one", 1))
    p.body_outputs[1] = binary(p.body_graph, s2, "AddV2", "next_total", p.body_inputs[1],
                               p.body_inputs[0])
    p.name = b"sum"
  return [i, total], fill, {"i": 0}


def passthrough_body(g, s):
  x = placeholder(g, s, "x")

  def fill(p, g2, s2):
    p.cond_output = binary(p.cond_graph, s2, "Less", "less", p.cond_inputs[0],
                           const(p.cond_graph, s2, "hundred", 100))
    # The body's output is its input doubled; the loop variable goes straight to the output.
    p.body_outputs[0] = binary(p.body_graph, s2, "Mul", "double", p.body_inputs[0],
                               const(p.body_graph, s2, "two", 2))
    p.name = b"double"
  return [x], fill, {"x": 3}


def no_cond_output(g, s):
  x = placeholder(g, s, "x")

  def fill(p, g2, s2):
    p.body_outputs[0] = p.body_inputs[0]
    p.name = b"loop"
  return [x], fill, {}


def no_body_output(g, s):
  x = placeholder(g, s, "x")
  y = placeholder(g, s, "y")

  def fill(p, g2, s2):
    p.cond_output = binary(p.cond_graph, s2, "Less", "less", p.cond_inputs[0], p.cond_inputs[1])
    p.body_outputs[0] = p.body_inputs[0]
    p.name = b"loop"
  return [x, y], fill, {}


def no_name(g, s):
  x = placeholder(g, s, "x")

  def fill(p, g2, s2):
    p.cond_output = binary(p.cond_graph, s2, "Less", "less", p.cond_inputs[0], p.cond_inputs[0])
    p.body_outputs[0] = p.body_inputs[0]
  return [x], fill, {}


def int_cond(g, s):
  x = placeholder(g, s, "x")

  def fill(p, g2, s2):
    p.cond_output = p.cond_inputs[0]
    p.body_outputs[0] = p.body_inputs[0]
    p.name = b"loop"
  return [x], fill, {}


def no_inputs(g, s):
  return [], None, {}


if __name__ == "__main__":
  run_case("count_to_ten", count_to_ten)
  run_case("two_vars", two_vars)
  run_case("passthrough_body", passthrough_body)
  run_case("no_cond_output", no_cond_output)
  run_case("no_body_output", no_body_output)
  run_case("no_name", no_name)
  run_case("int_cond", int_cond)
  run_case("no_inputs", no_inputs)
