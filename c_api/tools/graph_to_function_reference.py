#!/usr/bin/env python3
"""Prints what TensorFlow's TF_GraphToFunction gives for the graphs of c_api_functions_test.

Usage: graph_to_function_reference.py

Needs an installed TensorFlow (2.21 for the recorded values). It loads the C API from the
installed libtensorflow_cc.so.2 with ctypes, builds each graph of c_api/c_api_functions_test.cc
through TF_NewOperation and friends exactly as the test does, converts it and prints, per
case, the FunctionDef in text format (or the error code and message). The test's expected
protos, names and messages are copied from this output.
"""

import ctypes
import os

import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.framework import attr_value_pb2
from tensorflow.core.framework import function_pb2

FLOAT, INT32, STRING, INT64, BOOL, RESOURCE = 1, 3, 7, 9, 10, 20

lib = ctypes.CDLL(os.path.join(os.path.dirname(tf.__file__), "libtensorflow_cc.so.2"))
vp = ctypes.c_void_p


class Output(ctypes.Structure):
  _fields_ = [("oper", vp), ("index", ctypes.c_int)]


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
_sig("TF_AddInputList", None, [vp, ctypes.POINTER(Output), ctypes.c_int])
_sig("TF_AddControlInput", None, [vp, vp])
_sig("TF_SetAttrValueProto", None,
     [vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, vp])
_sig("TF_NewBuffer", ctypes.POINTER(Buffer), [])
_sig("TF_FunctionToFunctionDef", None, [vp, ctypes.POINTER(Buffer), vp])
_sig("TF_GraphCopyFunction", None, [vp, vp, vp, vp])
_sig("TF_GraphToFunctionWithControlOutputs", vp,
     [vp, ctypes.c_char_p, ctypes.c_ubyte, ctypes.c_int, vp, ctypes.c_int, vp,
      ctypes.c_int, vp, vp, ctypes.c_int, vp, vp, vp, ctypes.c_char_p, vp])


def attr(**kw):
  return attr_value_pb2.AttrValue(**kw)


def tensor(value, dtype=None):
  return attr(tensor=tf.make_tensor_proto(value, dtype=dtype))


class Graph:

  def __init__(self):
    self.g = lib.TF_NewGraph()
    self.s = lib.TF_NewStatus()

  def op(self, op_type, name, inputs=(), control=(), **attrs):
    d = lib.TF_NewOperation(self.g, op_type.encode(), name.encode())
    for i in inputs:
      if isinstance(i, list):
        arr = (Output * len(i))(*[Output(o, k) for o, k in i])
        lib.TF_AddInputList(d, arr, len(i))
      else:
        lib.TF_AddInput(d, Output(*i))
    for c in control:
      lib.TF_AddControlInput(d, c)
    for key, value in attrs.items():
      b = value.SerializeToString()
      lib.TF_SetAttrValueProto(d, key.encode(), b, len(b), self.s)
    op = lib.TF_FinishOperation(d, self.s)
    assert lib.TF_GetCode(self.s) == 0, lib.TF_Message(self.s)
    return op

  def placeholder(self, name, dtype=FLOAT, shape=None, **attrs):
    if shape is not None:
      attrs["shape"] = attr(shape=tf.TensorShape(shape).as_proto())
    return self.op("Placeholder", name, dtype=attr(type=dtype), **attrs)

  def function(self, name, body, inputs, outputs, output_names=None,
               append_hash=False, description=None, control_outputs=(),
               control_output_names=None):
    """The FunctionDef, or "ERROR <code>: <message>"; body None means num_opers = -1."""
    n = -1 if body is None else len(body)
    body_arr = None if body is None else (vp * max(1, n))(*body)
    ins = (Output * max(1, len(inputs)))(*[Output(*i) for i in inputs])
    outs = (Output * max(1, len(outputs)))(*[Output(*o) for o in outputs])

    def names(strings):
      if strings is None:
        return None
      return (ctypes.c_char_p * len(strings))(*[x.encode() for x in strings])

    ctrl = (vp * max(1, len(control_outputs)))(*control_outputs)
    f = lib.TF_GraphToFunctionWithControlOutputs(
        self.g, name.encode(), int(append_hash), n, body_arr, len(inputs), ins,
        len(outputs), outs, names(output_names), len(control_outputs), ctrl,
        names(control_output_names), None,
        None if description is None else description.encode(), self.s)
    if lib.TF_GetCode(self.s):
      return "ERROR %d: %s" % (lib.TF_GetCode(self.s),
                               lib.TF_Message(self.s).decode())
    self.last = f
    buf = lib.TF_NewBuffer()
    lib.TF_FunctionToFunctionDef(f, buf, self.s)
    fdef = function_pb2.FunctionDef()
    fdef.ParseFromString(ctypes.string_at(buf.contents.data, buf.contents.length))
    return fdef


def compact(message, indent=0, width=96):
  """Text format with each message on one line where it fits in `width` columns."""
  lines = []
  pad = "  " * indent
  for field, value in message.ListFields():
    is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
    repeated = not is_map and hasattr(value, "__len__") and not isinstance(
        value, (str, bytes)) and not hasattr(value, "ListFields")
    if is_map:
      entry = message.__class__()
      items = []
      for key in sorted(value.keys()):
        e = getattr(entry, field.name).GetEntryClass()(key=key)
        if field.message_type.fields_by_name["value"].message_type is None:
          e.value = value[key]
        else:
          e.value.CopyFrom(value[key])
        items.append(e)
    elif repeated:
      items = list(value)
    else:
      items = [value]
    for item in items:
      if field.message_type is None:
        single = message.__class__()
        if repeated:
          getattr(single, field.name).append(item)
        else:
          setattr(single, field.name, item)
        lines.append(pad + text_format.MessageToString(single, as_one_line=True).strip())
        continue
      inner = text_format.MessageToString(item, as_one_line=True).strip()
      one = "%s%s { %s }" % (pad, field.name, inner) if inner else "%s%s {}" % (pad, field.name)
      if len(one) <= width:
        lines.append(one)
      else:
        lines.append("%s%s {" % (pad, field.name))
        lines.extend(compact(item, indent + 1, width))
        lines.append(pad + "}")
  return lines


def show(title, result):
  print("=== %s" % title)
  if isinstance(result, str):
    print(result)
  else:
    print("\n".join(compact(result)))


def basic_graph():
  g = Graph()
  a = g.placeholder("Feed-A/x", shape=[2])
  b = g.placeholder("b")
  add = g.op("AddV2", "Add", [(a, 0), (b, 0)])
  init = g.op("NoOp", "z_init")
  mul = g.op("Mul", "1mul", [(add, 0), (a, 0)], [init])
  return g, a, b, add, init, mul


def lists_graph():
  g = Graph()
  x = g.placeholder("in", shape=[4, None], _foo=attr(s=b"bar"))
  v = g.placeholder("v", INT32)
  uniq = g.op("Unique", "uniq", [(v, 0)], T=attr(type=INT32))
  dim = g.op("Const", "dim", dtype=attr(type=INT32), value=tensor(0, tf.int32))
  split = g.op("Split", "split", [(dim, 0), (x, 0)], num_split=attr(i=2))
  idn = g.op("IdentityN", "idn", [[(split, 0), (split, 1), (uniq, 1)]])
  return g, x, v, uniq, dim, split, idn


def control_graph():
  g = Graph()
  x = g.placeholder("x")
  c = g.op("Const", "c", dtype=attr(type=FLOAT),
           value=tensor([[1.0, 2.0, 3.0]], tf.float32))
  res = g.placeholder("res", RESOURCE, shape=[],
                      _resource_arg_unique_id=attr(i=7))
  m = g.op("Mul", "m", [(x, 0), (c, 0)])
  n1 = g.op("NoOp", "n1", control=[m])
  n2 = g.op("NoOp", "n2", control=[m])
  return g, x, c, res, m, n1, n2


def main():
  g, a, b, add, init, mul = basic_graph()
  show("basic", g.function("basic", None, [(a, 0), (b, 0)], [(mul, 0), (add, 0)],
                           description="adds then multiplies"))
  basic_name = g.function("basic", None, [(a, 0), (b, 0)], [(mul, 0), (add, 0)],
                          append_hash=True).signature.name
  show("basic hashed", basic_name)
  basic_fn = g.last
  show("duplicate output names",
       g.function("basic", None, [(a, 0), (b, 0)], [(mul, 0), (add, 0)],
                  output_names=["x", "x"]))
  show("input not available", g.function("basic", [mul], [(a, 0), (b, 0)], [(mul, 0)]))
  show("control edge from outside",
       g.function("basic", [mul, add], [(a, 0), (b, 0)], [(mul, 0)]))
  show("output neither body nor input", g.function("basic", [add], [(a, 0), (b, 0)],
                                                   [(mul, 0)]))

  g, x, v, uniq, dim, split, idn = lists_graph()
  show("lists", g.function("lists", [split, idn, dim], [(x, 0), (uniq, 0), (uniq, 1)],
                           [(idn, 2), (split, 1), (x, 0)], output_names=["in", "b", "c"]))
  show("lists hashed", g.function("lists", [split, idn, dim], [(x, 0), (uniq, 0), (uniq, 1)],
                                  [(idn, 2), (split, 1), (x, 0)],
                                  output_names=["in", "b", "c"], append_hash=True
                                 ).signature.name)
  show("all opers with a multi-output input",
       g.function("lists", None, [(x, 0), (uniq, 0), (uniq, 1)], [(idn, 2)]))
  show("duplicate input", g.function("lists", [split, idn, dim],
                                     [(x, 0), (uniq, 0), (uniq, 0)], [(idn, 2)]))
  show("input out of range", g.function("lists", [split, idn, dim], [(x, 0), (uniq, 5)],
                                        [(idn, 2)]))
  show("output out of range", g.function("lists", [split, idn, dim], [(x, 0), (uniq, 1)],
                                         [(idn, 7)]))
  var = g.op("VariableV2", "var", dtype=attr(type=FLOAT),
             shape=attr(shape=tf.TensorShape([]).as_proto()))
  show("ref output", g.function("lists", [], [], [(var, 0)]))
  show("ref input", g.function("lists", [], [(var, 0)], []))

  g, x, c, res, m, n1, n2 = control_graph()
  show("control outputs", g.function("control", [m, n1, n2], [(x, 0), (c, 0), (res, 0)],
                                     [(m, 0)], control_outputs=[n2, n1]))
  show("named control outputs",
       g.function("control", [m, n1, n2], [(x, 0), (c, 0)], [(m, 0)], output_names=["o"],
                  control_outputs=[n2, n1], control_output_names=["q", "p"]))
  show("named control outputs hashed",
       g.function("control", [m, n1, n2], [(x, 0), (c, 0)], [(m, 0)], output_names=["o"],
                  control_outputs=[n2, n1], control_output_names=["q", "p"],
                  append_hash=True).signature.name)
  show("control output outside the body",
       g.function("control", [m, n1], [(x, 0), (c, 0)], [(m, 0)], control_outputs=[n2]))
  show("repeated control output", g.function("control", [m, n1, n2], [(x, 0), (c, 0)],
                                             [(m, 0)], control_outputs=[n1, n1]))

  # A stateful body, constants of several types, and a control input from an input node.
  g = Graph()
  x = g.placeholder("x")
  shape = g.op("Const", "shape", dtype=attr(type=INT32), value=tensor([2], tf.int32))
  rnd = g.op("RandomUniform", "rnd", [(shape, 0)], dtype=attr(type=FLOAT))
  out = g.op("AddV2", "out", [(rnd, 0), (x, 0)])
  neg = g.op("Neg", "neg", [(x, 0)], [x])
  show("stateful", g.function("stateful", [shape, rnd, out, neg], [(x, 0)],
                              [(out, 0), (neg, 0)]))
  show("stateful hashed", g.function("stateful", [shape, rnd, out, neg], [(x, 0)],
                                     [(out, 0), (neg, 0)], append_hash=True).signature.name)

  g = Graph()
  f32 = g.op("Const", "f32", dtype=attr(type=FLOAT),
             value=tensor([[1.5, 2.0], [3.0, 4.0]], tf.float32))
  strs = g.op("Const", "strs", dtype=attr(type=STRING), value=tensor([b"ab", b"c"]))
  i64 = g.op("Const", "i64", dtype=attr(type=INT64), value=tensor(-7, tf.int64))
  flag = g.op("Const", "flag", dtype=attr(type=BOOL), value=tensor(True))
  show("constants hashed",
       g.function("constants", None, [], [(f32, 0), (strs, 0), (i64, 0), (flag, 0)],
                  append_hash=True).signature.name)

  # A body that calls a function through PartitionedCall (a func attr).
  g = Graph()
  lib.TF_GraphCopyFunction(g.g, basic_fn, None, g.s)
  p = g.placeholder("p", shape=[2])
  q = g.placeholder("q", shape=[2])
  call = g.op("PartitionedCall", "call", [[(p, 0), (q, 0)]],
              Tin=attr(list=attr_value_pb2.AttrValue.ListValue(type=[FLOAT, FLOAT])),
              Tout=attr(list=attr_value_pb2.AttrValue.ListValue(type=[FLOAT, FLOAT])),
              f=attr(func=attr_value_pb2.NameAttrList(name=basic_name)))
  show("outer", g.function("outer", None, [(p, 0), (q, 0)], [(call, 1)]))
  show("outer hashed",
       g.function("outer", None, [(p, 0), (q, 0)], [(call, 1)], append_hash=True
                 ).signature.name)


if __name__ == "__main__":
  main()
