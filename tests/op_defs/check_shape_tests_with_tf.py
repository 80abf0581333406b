#!/usr/bin/env python3
"""Checks the expectations of graph/ops/*_test.cc against TensorFlow's shape inference.

Every `EXPECT_EQ(Infer("Op", "attrs", "shapes"[, {tensors}]), "expected")` and
`EXPECT_THAT(Infer(...), IsInvalidArgument("..."))` line in the given test files is re-run
in TensorFlow graph mode (tf.compat.v1: placeholders of the given shapes, Const inputs for
the known tensors) and the outputs compared. Lines TensorFlow cannot express (tensor-valued
attrs) are skipped, and deliberate departures are marked in the C++ test with a comment
containing "differs from TensorFlow" just above the check.

    python3 tests/op_defs/check_shape_tests_with_tf.py graph/ops/*_test.cc

Needs `pip install tensorflow-cpu`; prints each mismatch and exits non-zero if any.
"""

import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import attr_value_pb2  # noqa: E402
from tensorflow.python.framework import op_def_registry  # noqa: E402


def split_top_level(text, sep=","):
  """Splits at `sep` outside quotes and brackets."""
  parts, depth, quote, cur = [], 0, None, []
  for ch in text:
    if quote:
      if ch == quote:
        quote = None
    elif ch in "\"'":
      quote = ch
    elif ch in "([{":
      depth += 1
    elif ch in ")]}":
      depth -= 1
    elif ch == sep and depth == 0:
      parts.append("".join(cur).strip())
      cur = []
      continue
    cur.append(ch)
  if "".join(cur).strip():
    parts.append("".join(cur).strip())
  return parts


def cpp_string(text):
  """The value of adjacent C++ string literals."""
  return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))


def balanced(text, start):
  """Index just past the parenthesis closing the one at text[start]."""
  depth, quote = 0, None
  for i in range(start, len(text)):
    ch = text[i]
    if quote:
      if ch == quote:
        quote = None
    elif ch == '"':
      quote = ch
    elif ch == "(":
      depth += 1
    elif ch == ")":
      depth -= 1
      if depth == 0:
        return i + 1
  raise ValueError("unbalanced parentheses")


LIMITS = {"INT32_MIN": -2**31, "INT32_MAX": 2**31 - 1, "INT64_MIN": -2**63,
          "INT64_MAX": 2**63 - 1}


def parse_tensor(expr):
  """The value of a tensor helper call such as Ints({3, -1}) or Scalar<float>(0.5f)."""
  m = re.fullmatch(r"(\w+)(?:<(\w+)>)?\((.*)\)", expr.strip(), re.S)
  args = re.sub(r"u?int\d+_t\{([^}]*)\}", r"(\1)", m.group(3))
  args = re.sub(r"(\d)f\b", r"\1", args).replace("{", "[").replace("}", "]")
  return eval(args, {"__builtins__": {}}, LIMITS)  # numbers and nested lists only


def parse_tensors(expr):
  out = {}
  inner = expr.strip()[1:-1]
  for entry in split_top_level(inner):
    idx, value = split_top_level(entry.strip()[1:-1])
    out[int(idx)] = parse_tensor(value)
  return out


def parse_shape(s):
  s = s.strip()
  if s == "?":
    return None
  inner = s[1:-1].strip()
  return [] if not inner else [None if d == "?" else int(d) for d in inner.split(",")]


def attr_value(kind, text):
  text = text.strip()
  if kind == "type":
    return tf.as_dtype(text[3:].lower())
  if kind == "list(type)":
    return [tf.as_dtype(t.strip()[3:].lower()) for t in text[1:-1].split(",") if t.strip()]
  if kind == "int":
    return int(text)
  if kind == "float":
    return float(text)
  if kind == "bool":
    return text == "true"
  if kind == "string":
    return text[1:-1]
  if kind == "list(int)":
    return [int(v) for v in text[1:-1].split(",") if v.strip()]
  if kind == "shape":
    return ("shape", parse_shape(text))
  if kind == "list(shape)":
    return [("shape", parse_shape(t)) for t in split_top_level(text.strip()[1:-1]) if t.strip()]
  if kind == "list(string)":
    return [t.strip()[1:-1].encode() for t in text[1:-1].split(",") if t.strip()]
  raise NotImplementedError(kind)


def to_attr_proto(v):
  a = attr_value_pb2.AttrValue()
  if isinstance(v, tf.DType):
    a.type = v.as_datatype_enum
  elif isinstance(v, bool):
    a.b = v
  elif isinstance(v, int):
    a.i = v
  elif isinstance(v, float):
    a.f = v
  elif isinstance(v, str):
    a.s = v.encode()
  elif isinstance(v, tuple):
    a.shape.CopyFrom(tf.TensorShape(v[1]).as_proto())
  else:
    a.list.SetInParent()
    for x in v:
      if isinstance(x, tf.DType):
        a.list.type.append(x.as_datatype_enum)
      elif isinstance(x, bytes):
        a.list.s.append(x)
      elif isinstance(x, tuple):
        a.list.shape.append(tf.TensorShape(x[1]).as_proto())
      else:
        a.list.i.append(x)
  return a


def fmt_shape(shape):
  if shape.rank is None:
    return "?"
  return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def tf_infer(op, attrs, shapes, tensors):
  op_def = op_def_registry.get(op)
  kinds = {a.name: a.type for a in op_def.attr}
  values = {}
  for part in split_top_level(attrs):
    name, text = part.split("=", 1)
    values[name.strip()] = attr_value(kinds[name.strip()], text)
  full = {a.name: tf.as_dtype(a.default_value.type) for a in op_def.attr
          if a.type == "type" and a.HasField("default_value")}
  full.update(values)
  dtypes = []
  refs = []  # whether each input is a ref (fed by a VariableV2 of the given shape)
  for arg in op_def.input_arg:
    if arg.type_list_attr:
      dtypes += full[arg.type_list_attr]
      refs += [False] * len(full[arg.type_list_attr])
      continue
    dt = tf.as_dtype(arg.type) if arg.type else full[arg.type_attr]
    count = full[arg.number_attr] if arg.number_attr else 1
    dtypes += [dt] * count
    refs += [arg.is_ref] * count
  parts = shapes.split(";") if shapes else []
  graph = tf.Graph()
  with graph.as_default():
    inputs = []
    for i, (s, dt) in enumerate(zip(parts, dtypes)):
      if i in tensors:
        value = np.array(tensors[i], dtype=dt.as_numpy_dtype)
        shape = parse_shape(s)
        if shape is not None and None not in shape and value.size == np.prod(shape):
          value = value.reshape(shape)  # e.g. an empty [0,2] matrix
        inputs.append(tf.constant(value))
      elif refs[i]:
        inputs.append(tf.raw_ops.VariableV2(shape=parse_shape(s), dtype=dt))
      else:
        inputs.append(tf.compat.v1.placeholder(dt, shape=parse_shape(s)))
    try:
      node = graph._create_op_internal(  # pylint: disable=protected-access
          op, inputs, attrs={k: to_attr_proto(v) for k, v in values.items()})
      # Reading a shape fails too when TensorFlow inferred a negative dim.
      return ";".join(fmt_shape(t.shape) for t in node.outputs)
    except (ValueError, TypeError, tf.errors.InvalidArgumentError) as e:
      return "ERROR: " + str(e).split("\n")[0]


def comment_before(text, pos):
  """The block of // comment lines just above the line holding `pos`."""
  lines = text[:pos].split("\n")[:-1]
  block = []
  while lines and lines[-1].strip().startswith("//"):
    block.append(lines.pop())
  return "\n".join(block)


def string_constants(text):
  """The file's `constexpr char kName[] = "...";` constants, by name."""
  return {m.group(1): cpp_string(m.group(2))
          for m in re.finditer(r"constexpr char (\w+)\[\]\s*=\s*([^;]*);", text)}


def checks(text):
  """Yields (line, op, attrs, shapes, tensors, expected, is_error) for each check."""
  constants = string_constants(text)

  def value(arg):
    return constants[arg] if arg in constants else cpp_string(arg)

  for m in re.finditer(r"EXPECT_(EQ|THAT)\(\s*Infer\(", text):
    infer_start = text.index("(", m.end() - 1)
    infer_end = balanced(text, infer_start)
    args = split_top_level(text[infer_start + 1:infer_end - 1])
    if not args[0].startswith('"'):
      continue  # the op is a loop variable
    op, attrs, shapes = (value(a) for a in args[:3])
    tensors = parse_tensors(args[3]) if len(args) > 3 else {}
    rest = text[infer_end:balanced(text, text.index("(", m.start()))]
    line = text.count("\n", 0, m.start()) + 1
    if "differs from TensorFlow" in comment_before(text, m.start()):
      continue
    if "IsInvalidArgument" in rest:
      yield line, op, attrs, shapes, tensors, None, True
    else:
      yield line, op, attrs, shapes, tensors, cpp_string(rest), False


def main(paths):
  failures = total = 0
  for path in paths:
    text = open(path).read()
    for line, op, attrs, shapes, tensors, expected, is_error in checks(text):
      try:
        got = tf_infer(op, attrs, shapes, tensors)
      except NotImplementedError:
        continue
      total += 1
      ok = got.startswith("ERROR") if is_error else got == expected
      if not ok:
        failures += 1
        want = "an error" if is_error else expected
        print(f"{path}:{line}: {op}({attrs}) on {shapes} {tensors}: "
              f"Sluice expects {want}, TensorFlow gives {got}")
  print(f"{total - failures} of {total} checks agree with TensorFlow {tf.__version__}")
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
