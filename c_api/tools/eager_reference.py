#!/usr/bin/env python3
"""Prints TensorFlow's answers to the eager C API calls of c_api/tfe_test.cc.

Usage: eager_reference.py

Needs an installed TensorFlow (2.21 for the recorded values). It loads TFE_/TF_ functions from
the installed libtensorflow_cc.so.2 with ctypes, makes the same calls as each test and prints
values, device names, codes and messages. The test's expectations are copied from this output.
Calls that abort TensorFlow's process (TFE_TensorHandleDim out of range, a third input to
AddV2, running one TFE_Op twice) are left out; Sluice reports those as errors instead.
"""

import ctypes
import os

import numpy as np
import tensorflow as tf

lib = ctypes.CDLL(os.path.join(os.path.dirname(tf.__file__), "libtensorflow_cc.so.2"))
vp, cp, i64 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64
FLOAT, INT32 = 1, 3


def _sig(name, res, args):
  f = getattr(lib, name)
  f.restype = res
  f.argtypes = args


_sig("TF_NewStatus", vp, [])
_sig("TF_GetCode", ctypes.c_int, [vp])
_sig("TF_Message", cp, [vp])
_sig("TF_AllocateTensor", vp, [ctypes.c_int, ctypes.POINTER(i64), ctypes.c_int, ctypes.c_size_t])
_sig("TF_TensorData", vp, [vp])
_sig("TF_TensorByteSize", ctypes.c_size_t, [vp])
_sig("TF_DeviceListCount", ctypes.c_int, [vp])
_sig("TF_DeviceListName", cp, [vp, ctypes.c_int, vp])
_sig("TFE_NewContextOptions", vp, [])
_sig("TFE_NewContext", vp, [vp, vp])
_sig("TFE_ContextListDevices", vp, [vp, vp])
_sig("TFE_ContextGetDevicePlacementPolicy", ctypes.c_int, [vp])
_sig("TFE_NewTensorHandle", vp, [vp, vp])
_sig("TFE_TensorHandleResolve", vp, [vp, vp])
_sig("TFE_TensorHandleDeviceName", cp, [vp, vp])
_sig("TFE_TensorHandleDataType", ctypes.c_int, [vp])
_sig("TFE_TensorHandleCopyToDevice", vp, [vp, vp, cp, vp])
_sig("TFE_NewOp", vp, [vp, cp, vp])
_sig("TFE_OpAddInput", None, [vp, vp, vp])
_sig("TFE_OpAddInputList", None, [vp, ctypes.POINTER(vp), ctypes.c_int, vp])
_sig("TFE_OpSetAttrType", None, [vp, cp, ctypes.c_int])
_sig("TFE_OpSetAttrInt", None, [vp, cp, i64])
_sig("TFE_OpSetAttrBool", None, [vp, cp, ctypes.c_ubyte])
_sig("TFE_OpSetAttrString", None, [vp, cp, cp, ctypes.c_size_t])
_sig("TFE_OpSetAttrShape", None, [vp, cp, ctypes.POINTER(i64), ctypes.c_int, vp])
_sig("TFE_OpGetAttrType", ctypes.c_int, [vp, cp, ctypes.POINTER(ctypes.c_ubyte), vp])
_sig("TFE_OpGetInputLength", ctypes.c_int, [vp, cp, vp])
_sig("TFE_OpGetOutputLength", ctypes.c_int, [vp, cp, vp])
_sig("TFE_OpSetDevice", None, [vp, cp, vp])
_sig("TFE_Execute", None, [vp, ctypes.POINTER(vp), ctypes.POINTER(ctypes.c_int), vp])
_sig("TFE_ContextRemoveFunction", None, [vp, cp, vp])

status = lib.TF_NewStatus()
ctx = lib.TFE_NewContext(lib.TFE_NewContextOptions(), status)


def report(tag):
  print(f"{tag}: code {lib.TF_GetCode(status)} {lib.TF_Message(status).decode()!r}")


def handle(array):
  dims = (i64 * array.ndim)(*array.shape)
  dtype = {np.float32: FLOAT, np.int32: INT32}[array.dtype.type]
  t = lib.TF_AllocateTensor(dtype, dims, array.ndim, array.nbytes)
  ctypes.memmove(lib.TF_TensorData(t), array.ctypes.data, array.nbytes)
  return lib.TFE_NewTensorHandle(t, status)


def values(h, dtype=np.float32):
  t = lib.TFE_TensorHandleResolve(h, status)
  n = lib.TF_TensorByteSize(t)
  return np.frombuffer(ctypes.string_at(lib.TF_TensorData(t), n), dtype)


def op(type_name, *inputs):
  o = lib.TFE_NewOp(ctx, type_name.encode(), status)
  for h in inputs:
    lib.TFE_OpAddInput(o, h, status)
  return o


def run(o, capacity=4):
  retvals = (vp * 8)()
  n = ctypes.c_int(capacity)
  lib.TFE_Execute(o, retvals, ctypes.byref(n), status)
  return [retvals[i] for i in range(n.value)] if lib.TF_GetCode(status) == 0 else []


f32 = lambda *v: handle(np.array(v, np.float32))
devices = lib.TFE_ContextListDevices(ctx, status)
print("devices:", [lib.TF_DeviceListName(devices, i, status).decode()
                   for i in range(lib.TF_DeviceListCount(devices))])
print("policy:", lib.TFE_ContextGetDevicePlacementPolicy(ctx))
a, b = f32(1, 2), f32(1, 2, 3)
x = handle(np.array([[1, -2], [3, 4]], np.float32))
print("copy to CPU:", lib.TFE_TensorHandleDeviceName(
    lib.TFE_TensorHandleCopyToDevice(x, ctx, b"/device:CPU:0", status), status))
lib.TFE_TensorHandleCopyToDevice(x, ctx, b"/device:GPU:0", status)
report("copy to GPU")

out = run(op("AddV2", a, a))
print("AddV2:", values(out[0]), lib.TFE_TensorHandleDeviceName(out[0], status))
w = handle(np.array([[0.5, -1], [2, 0.25]], np.float32))
mm = op("MatMul", x, w)
lib.TFE_OpSetAttrBool(mm, b"transpose_b", 1)
m = run(mm)[0]
print("MatMul:", values(m), "Relu:", values(run(op("Relu", m))[0]))
run(op("AddV2", a, b))
report("shape mismatch")
run(op("Reshape", a, handle(np.array([3], np.int32))))
report("Reshape of 2 values to [3]")
run(op("AddV2", a, handle(np.array([1, 2], np.int32))))
report("float + int32")
o = lib.TFE_NewOp(ctx, b"AddV2", status)
lib.TFE_OpSetAttrType(o, b"T", INT32)
lib.TFE_OpAddInput(o, a, status)
lib.TFE_OpAddInput(o, a, status)
run(o)
report("T=int32, float inputs")
run(op("AddV2", a))
report("one input")
o = lib.TFE_NewOp(ctx, b"AddV2", status)
lib.TFE_OpAddInputList(o, (vp * 2)(a, a), 2, status)
report("list for a single input")
run(op("AddV2", a, a), 0)
report("num_retvals 0")
run(op("Cast", f32(1)))
report("Cast without DstT")
o = op("AddV2", a, a)
lib.TFE_OpSetAttrType(o, b"bogus", INT32)
run(o)
report("undeclared attr")
o = lib.TFE_NewOp(ctx, b"Placeholder", status)
lib.TFE_OpSetAttrShape(o, b"shape", (i64 * 300)(), 300, status)
report("shape of 300 dims")
is_list = ctypes.c_ubyte()
print("AddV2 T:", lib.TFE_OpGetAttrType(op("AddV2"), b"T", ctypes.byref(is_list), status),
      is_list.value)
lib.TFE_OpGetAttrType(op("AddV2"), b"bogus", ctypes.byref(is_list), status)
report("attr type of bogus")
lib.TFE_NewOp(ctx, b"NoSuchOp", status)
report("NoSuchOp")

o = lib.TFE_NewOp(ctx, b"ConcatV2", status)
lib.TFE_OpAddInputList(o, (vp * 3)(a, b, a), 3, status)
print("ConcatV2 lengths:", lib.TFE_OpGetInputLength(o, b"values", status),
      lib.TFE_OpGetInputLength(o, b"axis", status), lib.TFE_OpGetOutputLength(o, b"output", status))
lib.TFE_OpGetInputLength(o, b"bogus", status)
report("length of bogus")
lib.TFE_OpAddInput(o, handle(np.array(0, np.int32)), status)
print("ConcatV2:", values(run(o)[0]))
o = op("Unpack", handle(np.arange(6, dtype=np.float32).reshape(3, 2)))
lib.TFE_OpSetAttrInt(o, b"num", 3)
print("Unpack outputs:", lib.TFE_OpGetOutputLength(o, b"output", status))
run(o, 2)
report("Unpack into 2")

var = lib.TFE_NewOp(ctx, b"VarHandleOp", status)
lib.TFE_OpSetAttrType(var, b"dtype", FLOAT)
lib.TFE_OpSetAttrShape(var, b"shape", (i64 * 1)(2), 1, status)
lib.TFE_OpSetAttrString(var, b"shared_name", b"v", 1)
v = run(var)[0]
print("VarHandleOp dtype:", lib.TFE_TensorHandleDataType(v))


def read():
  o = op("ReadVariableOp", v)
  lib.TFE_OpSetAttrType(o, b"dtype", FLOAT)
  return run(o)


read()
report("read before assign")
for name in ("AssignVariableOp", "AssignAddVariableOp"):
  o = op(name, v, a)
  lib.TFE_OpSetAttrType(o, b"dtype", FLOAT)
  print(name, "outputs:", len(run(o, 0)))
print("read:", values(read()[0]))

shape = handle(np.array([3], np.int32))
for _ in range(3):
  o = op("RandomUniform", shape)
  lib.TFE_OpSetAttrType(o, b"dtype", FLOAT)
  lib.TFE_OpSetAttrInt(o, b"seed", 1)
  lib.TFE_OpSetAttrInt(o, b"seed2", 2)
  print("RandomUniform:", [float.hex(float(x)) for x in values(run(o)[0])])

o = op("AddV2", a, a)
lib.TFE_OpSetDevice(o, b"GPU:0", status)
report("device GPU:0")
lib.TFE_OpSetDevice(o, b"/device:GPU:0", status)
run(o)
report("run on /device:GPU:0")


@tf.function
def square_plus_one(v):
  return v * v + 1.0


print("square_plus_one:", square_plus_one(tf.constant([1.0, 2.0])).numpy())
lib.TFE_ContextRemoveFunction(ctx, b"square_plus_one", status)
report("remove an unknown function")
s = tf.strings.length(tf.constant(["ab", "cde"]))
print("StringLength:", s.numpy())

# Last: TensorFlow reads past the empty list here and aborts the process in some runs.
o = lib.TFE_NewOp(ctx, b"AddN", status)
lib.TFE_OpAddInputList(o, (vp * 0)(), 0, status)
run(o)
report("AddN of none")
