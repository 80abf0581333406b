#!/usr/bin/env python3
"""Records the C++ names TensorFlow's generated op wrappers use (tensorflow::ops::*).

TensorFlow's cc_op_gen names each wrapper class, its constructor's parameters, its Attrs
setters and its output members from the op's api_def (endpoints, rename_to, arg_order,
visibility), which the pip package does not ship; the generated headers it does ship
(tensorflow/include/tensorflow/cc/ops/*.h) carry the result. This script reads those headers,
matches every class to the OpDef it wraps (TensorFlow's own op registry), and writes
tools/op_gen/tf_cc_api_names.txt, which Sluice's generator (api_names.cc) and its tests read:

  op OPNAME class CLASS [alias NAME...] [internal]
    param CPP_NAME GRAPH_NAME      constructor parameters after `scope`, in TensorFlow's
                                   order: inputs (InputList or Input) and required attrs
    setter CPP_NAME GRAPH_NAME     Attrs setters (optional attrs)
    output CPP_NAME GRAPH_NAME     output members

`internal` marks ops TensorFlow generates into tensorflow::ops::internal (hidden ops).

Usage: python3 tools/op_gen/extract_tf_cc_api.py [--out FILE]
"""

import argparse
import os
import re
import sys


def tf_headers_dir():
    import tensorflow as tf  # noqa: F401 (imported for its location)
    return os.path.join(os.path.dirname(tf.__file__), "include", "tensorflow", "cc", "ops")


def tf_op_defs():
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session as c_api
    buf = c_api.TF_GetAllOpList()
    data = c_api.TF_GetBuffer(buf)
    ops = op_def_pb2.OpList()
    ops.ParseFromString(data)
    return {op.name: op for op in ops.op}


def camel(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


class WrapperClass:
    def __init__(self, name, internal, header):
        self.name = name
        self.internal = internal
        self.header = header
        self.params = []  # (kind, cpp_name): kind "input", "list" or "attr"
        self.setters = []
        self.outputs = []  # (kind, cpp_name): kind "output" or "list"
        self.aliases = []


# Wrappers whose op neither their name nor their argument names reveal: TensorFlow names
# Select's C++ endpoint Where3 and renames all but one of its inputs; RandomNormal's args fit
# RandomUniform and TruncatedNormal as well as RandomStandardNormal.
UNGUESSABLE = {"Where3": "Select", "RandomNormal": "RandomStandardNormal"}

VERSION_RE = re.compile(r"[vV](\d+)$")


def version(op_name):
    m = VERSION_RE.search(op_name)
    return int(m.group(1)) if m else 1


PARAM_RE = re.compile(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)$")


def parse_params(text):
    params = []
    for raw in text.split(","):
        raw = raw.strip()
        if not raw:
            continue
        m = PARAM_RE.match(raw)
        type_text, name = m.group(1).strip(), m.group(2)
        if name == "scope" or name == "attrs":
            continue
        if "::tensorflow::InputList" in type_text:
            kind = "list"
        elif "::tensorflow::Input" in type_text:
            kind = "input"
        else:
            kind = "attr"
        params.append((kind, name))
    return params


def parse_header(path):
    """The wrapper classes of one generated header, and its typedefs."""
    header = os.path.basename(path)
    text = open(path).read()
    classes = []
    typedefs = []
    internal = False
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("namespace internal {"):
            internal = True
        elif line.startswith("}  // namespace internal"):
            internal = False
        m = re.match(r"^typedef (\w+) (\w+);$", line)
        if m:
            typedefs.append((m.group(1), m.group(2)))
        m = re.match(r"^class (\w+) \{$", line)
        if not m:
            i += 1
            continue
        cls = WrapperClass(m.group(1), internal, header)
        body = []
        i += 1
        while i < len(lines) and lines[i] != "};":
            body.append(lines[i])
            i += 1
        body_text = "\n".join(body)
        for s in re.finditer(r"TF_MUST_USE_RESULT Attrs (\w+)\(", body_text):
            cls.setters.append(s.group(1))
        ctors = re.findall(r"\n  %s\((const ::tensorflow::Scope& scope[^;]*)\);" % cls.name,
                           body_text)
        if not ctors:  # not a generated wrapper (const_op.h's helpers)
            i += 1
            continue
        ctor = min(ctors, key=len)
        cls.params = parse_params(" ".join(ctor.split()))
        for o in re.finditer(r"\n  ::tensorflow::(Output|OutputList) (\w+);", body_text):
            cls.outputs.append(("list" if o.group(1) == "OutputList" else "output", o.group(2)))
        classes.append(cls)
        i += 1
    return classes, typedefs


def op_params(op):
    """An OpDef's constructor-relevant args: inputs and required (non-inferred) attrs."""
    inferred = set()
    inputs = []
    for arg in op.input_arg:
        is_list = bool(arg.number_attr or arg.type_list_attr)
        inputs.append(("list" if is_list else "input", arg.name))
        for a in (arg.type_attr, arg.number_attr, arg.type_list_attr):
            if a:
                inferred.add(a)
    required, optional = [], []
    for attr in op.attr:
        if attr.name in inferred:
            continue
        (optional if attr.HasField("default_value") else required).append(attr.name)
    outputs = [("list" if (a.number_attr or a.type_list_attr) else "output", a.name)
               for a in op.output_arg]
    return inputs, required, optional, outputs


def match_score(cls, op):
    """How well a wrapper class fits an OpDef; None when it cannot be its wrapper."""
    inputs, required, optional, outputs = op_params(op)
    if len(cls.params) != len(inputs) + len(required):
        return None
    if len(cls.setters) != len(optional) or len(cls.outputs) != len(outputs):
        return None
    kinds = sorted(k for k, _ in cls.params)
    if kinds != sorted([k for k, _ in inputs] + ["attr"] * len(required)):
        return None
    if [k for k, _ in cls.outputs] != [k for k, _ in outputs]:
        return None
    names = {n for _, n in inputs} | set(required)
    score = sum(1 for _, n in cls.params if n in names)
    score += sum(1 for s in cls.setters if s in {camel(a) for a in optional})
    score += sum(1 for _, n in cls.outputs if n in {n for _, n in outputs})
    if score == len(cls.params) + len(cls.setters) + len(cls.outputs):
        score += 100  # every name agrees
    return score


def assign(cls, op):
    """Pairs each C++ name of `cls` with the OpDef arg or attr it names."""
    inputs, required, optional, outputs = op_params(op)
    # Inputs: TensorFlow may reorder them (arg_order) and rename them; match by name first,
    # then the rest in order among args of the same kind.
    params = []
    input_names = [n for _, n in inputs]
    cls_inputs = [(k, n) for k, n in cls.params if k != "attr"]
    cls_attrs = [n for k, n in cls.params if k == "attr"]
    remaining = list(inputs)
    chosen = {}
    for k, n in cls_inputs:
        for arg in remaining:
            if arg == (k, n):
                chosen[n] = n
                remaining.remove(arg)
                break
    for k, n in cls_inputs:
        if n in chosen:
            continue
        for arg in remaining:
            if arg[0] == k:
                chosen[n] = arg[1]
                remaining.remove(arg)
                break
    rem_attrs = [a for a in required if a not in cls_attrs]
    for k, n in cls.params:
        if k == "attr":
            params.append((n, n if n in required else rem_attrs.pop(0)))
        else:
            params.append((n, chosen[n]))
    assert sorted(g for _, g in params) == sorted(input_names + required), (cls.name, op.name)
    setters = []
    rem_opt = [a for a in optional if camel(a) not in cls.setters]
    for s in cls.setters:
        match = [a for a in optional if camel(a) == s]
        setters.append((s, match[0] if match else rem_opt.pop(0)))
    outs = []
    rem_out = [n for _, n in outputs if n not in {c for _, c in cls.outputs}]
    for _, n in cls.outputs:
        outs.append((n, n if n in {o for _, o in outputs} else rem_out.pop(0)))
    return params, setters, outs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__),
                                                      "tf_cc_api_names.txt"))
    args = parser.parse_args()
    import tensorflow as tf
    ops = tf_op_defs()
    classes, typedefs = [], []
    hdir = tf_headers_dir()
    for name in sorted(os.listdir(hdir)):
        if name.endswith(".h"):
            c, t = parse_header(os.path.join(hdir, name))
            classes += c
            typedefs += t
    by_name = {c.name: c for c in classes}
    for target, alias in typedefs:
        if target in by_name:
            by_name[target].aliases.append(alias)

    # The op each class wraps. A class named like a versioned op (Conv3DBackpropInputV2)
    # wraps that op. Otherwise TensorFlow gives the newest version of an op its unversioned
    # name (ops::Concat is ConcatV2, ops::Variable VariableV2, ops::TensorArrayRead
    # TensorArrayReadV3), so among the unclaimed ops the class's name, an alias or that name
    # with a version suffix names, the best fit wins, then the newest. A class no such op fits
    # (ops::Stack is Pack) takes the one unclaimed op its argument names fit exactly.
    matched = {}
    for cls in classes:
        if VERSION_RE.search(cls.name) and cls.name in ops and match_score(cls, ops[cls.name]):
            matched[cls.name] = cls.name
    claimed = set(matched.values())
    for cls in classes:
        if cls.name in matched:
            continue
        if cls.name in UNGUESSABLE:
            matched[cls.name] = UNGUESSABLE[cls.name]
            claimed.add(UNGUESSABLE[cls.name])
            continue
        names = {cls.name, *cls.aliases}
        fits = []
        for name, op in ops.items():
            if name in claimed or name.startswith("_") != cls.name.startswith("_"):
                continue
            named = name in names or VERSION_RE.sub("", name) == cls.name
            s = match_score(cls, op)
            if s is not None and (named or s >= 100):
                fits.append((named, s, version(name), name))
        if not fits:
            print("no op for class %s (%s)" % (cls.name, cls.header), file=sys.stderr)
            continue
        fits.sort(reverse=True)
        if len(fits) > 1 and fits[0][:3] == fits[1][:3]:
            print("ambiguous class %s: %s" % (cls.name, fits[:3]), file=sys.stderr)
            continue
        matched[cls.name] = fits[0][3]
        claimed.add(fits[0][3])

    out = ["# The C++ names of TensorFlow %s's generated op wrappers, recorded from its headers" %
           tf.__version__,
           "# by tools/op_gen/extract_tf_cc_api.py (see there for the format). Do not edit."]
    for cls in sorted(classes, key=lambda c: matched.get(c.name, "")):
        if cls.name not in matched:
            continue
        op = ops[matched[cls.name]]
        params, setters, outs = assign(cls, op)
        head = "op %s class %s" % (op.name, cls.name)
        for a in cls.aliases:
            head += " alias %s" % a
        if cls.internal:
            head += " internal"
        out.append(head)
        out += ["  param %s %s" % p for p in params]
        out += ["  setter %s %s" % s for s in setters]
        out += ["  output %s %s" % o for o in outs]
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("%d classes, %d matched to ops" % (len(classes), len(matched)))


if __name__ == "__main__":
    main()
