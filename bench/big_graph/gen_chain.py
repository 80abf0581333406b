#!/usr/bin/env python3
"""Writes pathological-but-valid GraphDefs for the big-graph benchmark (issue 25).

  chain:  a float Placeholder `x` (shape [2]) or a Const `x`, then N Identity nodes, each
          reading the one before; the last is named `out`.
  addn:   a Const `x` (float [2]) and one AddN `out` with N inputs, all `x`.
  wide:   a Placeholder `x` (float [2]) read by N Identity nodes, which one AddN `out`
          reads, and a NoOp `done` with a control input from each of them.

The bytes are encoded here with no protobuf library, so the generator runs anywhere:
GraphDef.node = 1; NodeDef.name = 1, op = 2, input = 3, attr = 5 (map<string, AttrValue>);
AttrValue.type = 6, shape = 7, tensor = 8, i = 3; TensorShapeProto.dim = 2 (size = 1);
TensorProto.dtype = 1, tensor_shape = 2, float_val = 5 (packed). DT_FLOAT = 1.

Usage: gen_chain.py chain|chain-const|addn|wide N OUT.pb
"""
import struct
import sys


def varint(n):
  out = bytearray()
  while True:
    b = n & 0x7F
    n >>= 7
    if n:
      out.append(b | 0x80)
    else:
      out.append(b)
      return bytes(out)


def field(number, payload):
  """A length-delimited field."""
  return varint(number << 3 | 2) + varint(len(payload)) + payload


def field_varint(number, value):
  return varint(number << 3) + varint(value)


def attr(key, value):
  return field(5, field(1, key.encode()) + field(2, value))


DT_FLOAT = 1
SHAPE_2 = field(2, field_varint(1, 2))  # TensorShapeProto { dim { size: 2 } }


def node(name, op, inputs=(), attrs=b""):
  # Joined once: appending to bytes in a loop is quadratic for a million inputs.
  parts = [field(1, name.encode()), field(2, op.encode())]
  parts.extend(field(3, i.encode()) for i in inputs)
  parts.append(attrs)
  return field(1, b"".join(parts))


def root(kind):
  t_float = attr("dtype", field_varint(6, DT_FLOAT))
  if kind == "placeholder":
    return node("x", "Placeholder", attrs=t_float + attr("shape", field(7, SHAPE_2)))
  tensor = field_varint(1, DT_FLOAT) + field(2, SHAPE_2) + field(5, struct.pack("<2f", 1.5, -2.0))
  return node("x", "Const", attrs=t_float + attr("value", field(8, tensor)))


def main():
  if len(sys.argv) != 4:
    sys.exit(__doc__)
  kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
  t = attr("T", field_varint(6, DT_FLOAT))
  with open(path, "wb") as f:
    if kind in ("chain", "chain-const"):
      f.write(root("placeholder" if kind == "chain" else "const"))
      prev = "x"
      for i in range(1, n + 1):
        name = "out" if i == n else f"id_{i}"
        f.write(node(name, "Identity", [prev], t))
        prev = name
    elif kind == "wide":
      f.write(root("placeholder"))
      names = [f"id_{i}" for i in range(n)]
      for name in names:
        f.write(node(name, "Identity", ["x"], t))
      f.write(node("out", "AddN", names, t + attr("N", field_varint(3, n))))
      f.write(node("done", "NoOp", ["^" + name for name in names]))
    elif kind == "addn":
      f.write(root("const"))
      f.write(node("out", "AddN", ["x"] * n, t + attr("N", field_varint(3, n))))
    else:
      sys.exit(__doc__)


if __name__ == "__main__":
  main()
