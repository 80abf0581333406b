"""Writes fixtures/training.pbtxt: TensorFlow's training ops and variable scatter/gather ops,
run for several steps on real variables, as //kernels/cpu/training:training_conformance_test
replays them.

Each case builds one op in a TF1 graph on variables (ref variables, VariableV2, for the Apply*
and Scatter* forms; resource variables, VarHandleOp, for the Resource* forms) and placeholders
for its other inputs, runs it for a few steps with new inputs each step, and records (an
op_case.proto OpCase):
  node     the op's NodeDef as TensorFlow built it (its variable inputs name the variables);
  inputs   the variables' initial values (an empty TensorProto for one never initialized),
           then each step's other inputs in the op's input order;
  outputs  after each step: the op's non-ref outputs (ResourceGather's rows), then every
           variable's value;
  error_code / error_message when a step raised (the runner expects the earlier steps to
  succeed), and error_substr, TensorFlow's message (without node annotations), which Sluice's
  must contain unless the case says otherwise.

Tolerances, per op and dtype (rtol, atol). Exact where TensorFlow's CPU kernel evaluates
correctly rounded operations (+ - * / sqrt, comparisons, the C library's pow of its scalar code)
and Sluice evaluates the same expression in the same order: most cases, half and bfloat16
included (both round after every operation, as Eigen's 16-bit arithmetic does). Not exact:
  - rsqrt: TensorFlow's vectorized rsqrt of float starts from the processor's approximation
    (plus a Newton step), a few ulps from the 1 / sqrt Sluice computes. Dense Adagrad,
    ProximalAdagrad and Adadelta; sparse Adadelta, RMSProp and CenteredRMSProp; sparse Adagrad
    and ProximalAdagrad with rows of several elements. float (1e-6, 1e-6), half (1e-3, 2e-3),
    bfloat16 (1e-2, 3e-2), double exact;
  - exp: PowerSign (Eigen's vectorized exp is not the C library's), every dtype, double
    (1e-14, 1e-14);
  - pow: Ftrl and FtrlV2 with lr_power other than -0.5 (dense, and sparse rows of several
    elements), every dtype.
The atol covers the cancellation in var - update (values here are of order 1, so a last-bit
difference in an update shows in var as about one ulp of 1); over the few steps recorded the
differences compound no further.

Left out (TensorFlow crashes or reads out of bounds; Sluice's answers are in
kernels/cpu/training/training_ops_test.cc): a non-scalar sign_decay for AddSign/PowerSign, an
Adadelta accum_update or AMSGrad vhat of another shape, a variable whose dtype is not the op's,
scatter updates of the right rank but another row size, integer ScatterDiv by zero or
INT_MIN / -1 (TensorFlow dies of SIGFPE).

    python3 tests/kernels/gen_training.py
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable-next=g-import-not-at-top
from oracle import _error_text, _indent, _quote, _tensor_text  # noqa: E402

tf.compat.v1.disable_eager_execution()
R = tf.raw_ops
rng = np.random.RandomState(5)

F16, F32, F64, BF16 = tf.float16, tf.float32, tf.float64, tf.bfloat16
FLOATS = [F32, F64, F16, BF16]


class Uninit:
  """A variable that is created but never initialized (value gives its dtype and shape)."""

  def __init__(self, value):
    self.value = value


def np_dtype(dtype):
  return dtype.as_numpy_dtype


def rand(shape, dtype, low=-1.0, high=1.0):
  return rng.uniform(low, high, size=shape).astype(np_dtype(dtype))


def scalar(x, dtype):
  return np.asarray(x, dtype=np_dtype(dtype))


class Writer:
  """Collects the cases and writes them as one fixture."""

  def __init__(self):
    self.cases = []
    self.names = set()

  def add(self, name, op, variables, steps, attrs=None, resource=False, rtol=0.0, atol=0.0,
          error_substr=None):
    """Runs `op` (a tf.raw_ops name) on `variables` (arg name -> initial value or Uninit)
    for each of `steps` (dicts arg name -> value for the other inputs) and records it."""
    if name in self.names:
      raise ValueError("duplicate case " + name)
    self.names.add(name)
    attrs = dict(attrs or {})
    graph = tf.Graph()
    with graph.as_default():
      var_inputs, reads, var_dtypes = {}, [], []
      initializers = []
      for arg, value in variables.items():
        init = np.asarray(value.value if isinstance(value, Uninit) else value)
        dtype = tf.as_dtype(init.dtype)
        var_dtypes.append(dtype)
        # Of unknown shape, so that shape inference leaves every check to the kernel.
        if resource:
          handle = R.VarHandleOp(dtype=dtype, shape=tf.TensorShape(None), shared_name=arg,
                                 name=arg)
          var_inputs[arg] = handle
          initializers.append(R.AssignVariableOp(resource=handle, value=tf.constant(init)))
          reads.append(R.ReadVariableOp(resource=handle, dtype=dtype))
        else:
          v = tf.compat.v1.Variable(init, use_resource=False, name=arg, validate_shape=False)
          var_inputs[arg] = v
          initializers.append(v.initializer)
          reads.append(v.read_value())
        if isinstance(value, Uninit):
          initializers.pop()
      placeholders = {}
      for arg, value in steps[0].items():
        placeholders[arg] = tf.compat.v1.placeholder(tf.as_dtype(np.asarray(value).dtype),
                                                     shape=None, name=arg)
      kwargs = dict(placeholders)
      kwargs.update(var_inputs)
      kwargs.update(attrs)
      result = getattr(R, op)(**kwargs)
      node = result if isinstance(result, tf.Operation) else result.op
      # pylint: disable-next=protected-access
      fetch_outputs = [t for t in node.outputs if not t.dtype._is_ref_dtype]
    input_args = [a.name for a in node.op_def.input_arg]
    var_args = input_args[:len(variables)]
    assert list(variables) == var_args, (op, list(variables), var_args)
    other_args = input_args[len(variables):]
    config = tf.compat.v1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    parts = ["  name: %s\n" % _quote(name)]
    parts.append("  node {\n" + _indent(text_format.MessageToString(node.node_def), "    ") +
                 "  }\n")
    for arg in var_args:
      value = variables[arg]
      if isinstance(value, Uninit):
        parts.append("  inputs { }\n")
      else:
        parts.append("  inputs { " + _tensor_text(np.asarray(value)) + " }\n")
    code, message = 0, ""
    with tf.compat.v1.Session(graph=graph, config=config) as session:
      session.run(initializers)
      for step in steps:
        feeds = {placeholders[arg]: value for arg, value in step.items()}
        for arg in other_args:
          parts.append("  inputs { " + _tensor_text(np.asarray(step[arg])) + " }\n")
        try:
          outs = session.run(fetch_outputs + [node], feed_dict=feeds)[:len(fetch_outputs)]
        except tf.errors.OpError as e:
          code, message = e.error_code, e.message
          break
        values = session.run(reads)
        for y, t in zip(outs, fetch_outputs):
          parts.append("  outputs { " + _tensor_text(np.asarray(y), t.dtype) + " }\n")
        for y, dtype in zip(values, var_dtypes):
          parts.append("  outputs { " + _tensor_text(np.asarray(y), dtype) + " }\n")
    if code:
      text = _error_text(message)
      parts.append("  error_code: %d\n" % code)
      parts.append("  error_message: %s\n" % _quote(text))
      substr = text if error_substr is None else error_substr
      if substr:
        parts.append("  error_substr: %s\n" % _quote(substr))
    elif error_substr is not None:
      raise ValueError("case %s expected an error; TensorFlow ran it" % name)
    if rtol:
      parts.append("  rtol: %r\n" % float(rtol))
    if atol:
      parts.append("  atol: %r\n" % float(atol))
    self.cases.append("cases {\n" + "".join(parts) + "}\n")
    return code

  def write(self):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "training.pbtxt")
    with open(path, "w") as f:
      f.write("# Generated by tests/kernels/gen_training.py from TensorFlow %s; do not edit.\n"
              "# %d cases.\n" % (tf.__version__, len(self.cases)))
      f.writelines(self.cases)
    print("wrote %s (%d cases)" % (path, len(self.cases)), file=sys.stderr)


W = Writer()

# The dtypes each dense op has on TensorFlow's CPU.
DENSE_DTYPES = {
    "GradientDescent": FLOATS, "ProximalGradientDescent": [F32, F64], "Momentum": FLOATS,
    "KerasMomentum": FLOATS, "Adagrad": FLOATS, "AdagradV2": FLOATS,
    "ProximalAdagrad": [F32, F64], "Adadelta": FLOATS, "Adam": FLOATS,
    "AdamWithAmsgrad": FLOATS, "AdaMax": [F16, F32, F64], "RMSProp": FLOATS,
    "CenteredRMSProp": FLOATS, "AddSign": FLOATS, "PowerSign": FLOATS, "Ftrl": FLOATS,
    "FtrlV2": FLOATS,
}
RESOURCE_ONLY = {"KerasMomentum", "AdamWithAmsgrad"}

RSQRT_OPS = {"Adagrad", "ProximalAdagrad", "Adadelta"}
# (rtol, atol) where TensorFlow's result is not exactly reproducible (see the file comment).
# The atol covers the cancellation in var - update: values here are of order 1, so a last-bit
# difference in an update shows up as about one ulp of 1 in var.
APPROXIMATE = {F32: (1e-6, 1e-6), F64: (1e-14, 1e-14), F16: (1e-3, 2e-3), BF16: (1e-2, 3e-2)}


def tolerance(op, dtype, scalars):
  if op in RSQRT_OPS and dtype != F64:
    return APPROXIMATE[dtype]
  if op == "PowerSign":
    return APPROXIMATE[dtype]
  if op.startswith("Ftrl") and float(scalars["lr_power"]) != -0.5:
    return APPROXIMATE[dtype]
  return (0.0, 0.0)


def positive(shape, dtype, low=0.1, high=1.0):
  return rand(shape, dtype, low, high)


def slots_for(op, shape, dtype):
  """The op's variables in input order, with sensible initial values."""
  v = rand(shape, dtype)
  if op in ("GradientDescent", "ProximalGradientDescent"):
    return {"var": v}
  if op in ("Momentum", "KerasMomentum"):
    return {"var": v, "accum": rand(shape, dtype, -0.5, 0.5)}
  if op in ("Adagrad", "AdagradV2", "ProximalAdagrad"):
    return {"var": v, "accum": positive(shape, dtype)}
  if op == "Adadelta":
    return {"var": v, "accum": positive(shape, dtype, 0.0, 0.5),
            "accum_update": positive(shape, dtype, 0.0, 0.5)}
  if op in ("Adam", "AdaMax"):
    return {"var": v, "m": rand(shape, dtype, -0.2, 0.2), "v": positive(shape, dtype, 0.0, 0.3)}
  if op == "AdamWithAmsgrad":
    return {"var": v, "m": rand(shape, dtype, -0.2, 0.2), "v": positive(shape, dtype, 0.0, 0.3),
            "vhat": positive(shape, dtype, 0.0, 0.3)}
  if op == "RMSProp":
    return {"var": v, "ms": positive(shape, dtype), "mom": rand(shape, dtype, -0.1, 0.1)}
  if op == "CenteredRMSProp":
    return {"var": v, "mg": rand(shape, dtype, -0.1, 0.1), "ms": positive(shape, dtype, 0.5, 1.0),
            "mom": rand(shape, dtype, -0.1, 0.1)}
  if op in ("AddSign", "PowerSign"):
    return {"var": v, "m": rand(shape, dtype, -0.5, 0.5)}
  if op in ("Ftrl", "FtrlV2"):
    return {"var": v, "accum": positive(shape, dtype), "linear": rand(shape, dtype, -0.5, 0.5)}
  raise ValueError(op)


def hyper_for(op, dtype, step, variant):
  """The op's scalar inputs at `step` (0-based)."""
  s = lambda x: scalar(x, dtype)  # noqa: E731
  if op == "GradientDescent":
    return {"alpha": s(0.1 + 0.05 * step)}
  if op == "ProximalGradientDescent":
    return {"alpha": s(0.1), "l1": s(variant.get("l1", 0.05)), "l2": s(variant.get("l2", 0.02))}
  if op in ("Momentum", "KerasMomentum"):
    return {"lr": s(0.05), "momentum": s(0.9)}
  if op == "Adagrad":
    return {"lr": s(0.1)}
  if op == "AdagradV2":
    return {"lr": s(0.1), "epsilon": s(1e-3)}
  if op == "ProximalAdagrad":
    return {"lr": s(0.1), "l1": s(variant.get("l1", 0.01)), "l2": s(variant.get("l2", 0.02))}
  if op == "Adadelta":
    return {"lr": s(1.0), "rho": s(0.95), "epsilon": s(1e-3)}
  if op in ("Adam", "AdamWithAmsgrad"):
    return {"beta1_power": s(0.9 ** (step + 1)), "beta2_power": s(0.999 ** (step + 1)),
            "lr": s(0.01), "beta1": s(0.9), "beta2": s(0.999), "epsilon": s(1e-7)}
  if op == "AdaMax":
    return {"beta1_power": s(0.9 ** (step + 1)), "lr": s(0.01), "beta1": s(0.9),
            "beta2": s(0.999), "epsilon": s(1e-7)}
  if op in ("RMSProp", "CenteredRMSProp"):
    return {"lr": s(0.01), "rho": s(0.9), "momentum": s(variant.get("momentum", 0.5)),
            "epsilon": s(1e-5)}
  if op == "AddSign":
    return {"lr": s(0.1), "alpha": s(1.0), "sign_decay": s(0.5), "beta": s(0.9)}
  if op == "PowerSign":
    return {"lr": s(0.1), "logbase": s(np.log(2.0)), "sign_decay": s(0.5), "beta": s(0.9)}
  if op in ("Ftrl", "FtrlV2"):
    h = {"lr": s(0.1), "l1": s(variant.get("l1", 0.01)), "l2": s(0.02),
         "lr_power": s(variant.get("lr_power", -0.5))}
    if op == "FtrlV2":
      h["l2_shrinkage"] = s(0.03)
    return h
  raise ValueError(op)


GRAD_NAME = {"GradientDescent": "delta", "ProximalGradientDescent": "delta"}


def dense_steps(op, shape, dtype, num_steps, variant, grads=None):
  steps = []
  for step in range(num_steps):
    d = hyper_for(op, dtype, step, variant)
    d[GRAD_NAME.get(op, "grad")] = grads[step] if grads is not None else rand(shape, dtype)
    steps.append(d)
  return steps


def add_dense(op, dtype, shape, resource, variant=None, attrs=None, tag="", num_steps=3,
              variables=None, grads=None, **kw):
  variant = variant or {}
  name = "%s%s_%s_%s%s" % ("Resource" if resource else "", op, dtype.name,
                           "x".join(map(str, shape)) or "scalar", tag)
  variables = variables if variables is not None else slots_for(op, shape, dtype)
  steps = dense_steps(op, shape, dtype, num_steps, variant, grads)
  rtol, atol = tolerance(op, dtype, steps[0])
  W.add(name, ("ResourceApply" if resource else "Apply") + op, variables, steps, attrs=attrs,
        resource=resource, rtol=rtol, atol=atol, **kw)


def dense_cases():
  for op, dtypes in DENSE_DTYPES.items():
    attr_variants = [({}, "")]
    if op in ("Momentum", "KerasMomentum", "Adam"):
      attr_variants.append(({"use_nesterov": True}, "_nesterov"))
    if op in ("Adagrad", "AdagradV2"):
      attr_variants.append(({"update_slots": False}, "_no_slot_update"))
    if op in ("Ftrl", "FtrlV2"):
      attr_variants.append(({"multiply_linear_by_lr": True}, "_mul_lr"))
    for dtype in dtypes:
      for resource in (False, True):
        if not resource and op in RESOURCE_ONLY:
          continue
        # Every dtype in resource form; the ref form shares the kernel, so fewer.
        if not resource and dtype not in (F32, F16) and dtypes != [F32, F64]:
          continue
        for attrs, tag in attr_variants:
          add_dense(op, dtype, [2, 3], resource, attrs=attrs, tag=tag)
      add_dense(op, dtype, [], True, tag="")
      add_dense(op, dtype, [0], True, tag="", num_steps=1)
    # Larger and odd-sized variables (vectorized and scalar paths of TensorFlow's kernels).
    add_dense(op, F32, [37], True, tag="")
    add_dense(op, F32, [4, 16], False if op not in RESOURCE_ONLY else True, tag="_locking",
              attrs={"use_locking": True})

  # Branches taken by some values only.
  for l1 in (0.0, 0.05, 2.0):
    add_dense("ProximalGradientDescent", F32, [6], False, variant={"l1": l1}, tag="_l1_%g" % l1)
    add_dense("ProximalAdagrad", F64, [6], True, variant={"l1": l1}, tag="_l1_%g" % l1)
  for lr_power in (-0.5, -0.3, 0.0):
    for op in ("Ftrl", "FtrlV2"):
      for mul in (False, True):
        for dtype in (F32, F64):
          add_dense(op, dtype, [8], True, variant={"lr_power": lr_power, "l1": 0.3},
                    attrs={"multiply_linear_by_lr": mul},
                    tag="_power_%g%s" % (lr_power, "_mul_lr" if mul else ""))
  add_dense("RMSProp", F32, [5], True, variant={"momentum": 0.0}, tag="_no_momentum")
  # Zeros give sign 0; NaN and infinities propagate as TensorFlow's expressions do.
  special = np.array([0.0, -0.0, 1.0, -2.0, np.nan, np.inf, -np.inf, 1e-30], np.float32)
  for op in ("GradientDescent", "Momentum", "Adam", "AdaMax", "AddSign", "RMSProp",
             "AdamWithAmsgrad"):
    variables = slots_for(op, [8], F32)
    variables["var"] = np.array([0.0, 1.0, -1.0, 0.0, 2.0, 0.5, -0.5, 0.0], np.float32)
    add_dense(op, F32, [8], op == "AdamWithAmsgrad", tag="_special", variables=variables,
              grads=[special, special[::-1].copy(), np.zeros(8, np.float32)])


def dense_error_cases():
  f = F32
  # Uninitialized variables, ref and resource (TensorFlow's lookup of a resource never
  # assigned fails: INTERNAL "Invalid variable reference.").
  for op in ("GradientDescent", "Adam", "Ftrl"):
    slots = slots_for(op, [3], f)
    last = list(slots)[-1]
    for resource in (False, True):
      variables = dict(slots)
      variables[last] = Uninit(variables[last])
      name = "%s%s_uninitialized_%s" % ("Resource" if resource else "", op, last)
      W.add(name, ("ResourceApply" if resource else "Apply") + op, variables,
            dense_steps(op, [3], f, 1, {}), resource=resource)
  # Non-scalar hyperparameters and mismatched shapes, each op in both forms.
  for op in DENSE_DTYPES:
    for resource in (False, True):
      if not resource and op in RESOURCE_ONLY:
        continue
      prefix = "Resource" if resource else ""
      slots = slots_for(op, [3], f)
      steps = dense_steps(op, [3], f, 1, {})
      first_scalar = [k for k in steps[0] if k not in ("grad", "delta")][0]
      bad = dict(steps[0])
      bad[first_scalar] = np.array([bad[first_scalar]] * 2)
      W.add("%s%s_nonscalar_%s" % (prefix, op, first_scalar), prefix + "Apply" + op, slots,
            [bad], resource=resource)
      bad = dict(steps[0])
      grad = GRAD_NAME.get(op, "grad")
      bad[grad] = rand([4], f)
      W.add("%s%s_grad_shape" % (prefix, op), prefix + "Apply" + op, slots, [bad],
            resource=resource)
      if len(slots) > 1:
        second = list(slots)[1]
        variables = dict(slots)
        variables[second] = rand([2], f)
        W.add("%s%s_%s_shape" % (prefix, op, second), prefix + "Apply" + op, variables,
              dense_steps(op, [3], f, 1, {}), resource=resource)
  # The value checks of ProximalAdagrad.
  for arg, value in (("lr", 0.0), ("l1", -1.0), ("l2", -0.5)):
    steps = dense_steps("ProximalAdagrad", [3], f, 1, {})
    steps[0][arg] = scalar(value, f)
    W.add("ProximalAdagrad_bad_%s" % arg, "ApplyProximalAdagrad",
          slots_for("ProximalAdagrad", [3], f), steps)
  # An error at a later step: the earlier steps' updates stand.
  steps = dense_steps("Adam", [3], f, 3, {})
  steps[2]["grad"] = rand([5], f)
  W.add("ResourceAdam_error_at_step_3", "ResourceApplyAdam", slots_for("Adam", [3], f), steps,
        resource=True)


# The dtypes each sparse op has on TensorFlow's CPU.
SPARSE_DTYPES = {
    "Adagrad": FLOATS, "AdagradV2": FLOATS, "ProximalAdagrad": [F32, F64],
    "ProximalGradientDescent": [F32, F64], "Adadelta": FLOATS, "Momentum": FLOATS,
    "KerasMomentum": FLOATS, "RMSProp": [F32, F64, F16], "CenteredRMSProp": [F32, F64, F16],
    "Ftrl": FLOATS, "FtrlV2": FLOATS,
}
SPARSE_RSQRT = {"Adadelta", "RMSProp", "CenteredRMSProp"}  # rsqrt on both code paths
SPARSE_ROW_RSQRT = {"Adagrad", "ProximalAdagrad"}  # rsqrt on the rows of several elements


def sparse_tolerance(op, dtype, scalars, scalar_rows):
  if op in SPARSE_RSQRT or (op in SPARSE_ROW_RSQRT and not scalar_rows):
    return APPROXIMATE[dtype] if dtype != F64 else (0.0, 0.0)
  if op.startswith("Ftrl") and float(scalars["lr_power"]) != -0.5 and not scalar_rows:
    return APPROXIMATE[dtype]
  return (0.0, 0.0)


def add_sparse(op, dtype, shape, indices_list, resource, variant=None, attrs=None, tag="",
               variables=None, index_dtype=np.int32, **kw):
  variant = variant or {}
  steps = []
  for step, idx in enumerate(indices_list):
    idx = np.asarray(idx, index_dtype)
    d = hyper_for(op, dtype, step, variant)
    d.pop("delta", None)
    d["grad"] = rand([idx.shape[0]] + shape[1:] if idx.ndim == 1 else [2] + shape[1:], dtype)
    d["indices"] = idx
    steps.append(d)
  variables = variables if variables is not None else slots_for(op, shape, dtype)
  name = "%sSparse%s_%s_%s%s" % ("Resource" if resource else "", op, dtype.name,
                                 "x".join(map(str, shape)) or "scalar", tag)
  rtol, atol = sparse_tolerance(op, dtype, steps[0], int(np.prod(shape[1:])) == 1)
  W.add(name, ("ResourceSparseApply" if resource else "SparseApply") + op, variables, steps,
        attrs=attrs, resource=resource, rtol=rtol, atol=atol, **kw)


def sparse_cases():
  for op, dtypes in SPARSE_DTYPES.items():
    attr_variants = [({}, "")]
    if op in ("Momentum", "KerasMomentum"):
      attr_variants.append(({"use_nesterov": True}, "_nesterov"))
    if op in ("Adagrad", "AdagradV2"):
      attr_variants.append(({"update_slots": False}, "_no_slot_update"))
    if op in ("Ftrl", "FtrlV2"):
      attr_variants.append(({"multiply_linear_by_lr": True}, "_mul_lr"))
    for dtype in dtypes:
      for resource in (False, True):
        if not resource and op == "KerasMomentum":
          continue
        if not resource and dtype not in (F32, F16) and dtypes != [F32, F64]:
          continue
        for attrs, tag in attr_variants:
          # Rows of several elements and of one (TensorFlow's two code paths); a row named
          # twice is updated twice.
          add_sparse(op, dtype, [6, 3], [[4, 0, 4], [5, 1]], resource, attrs=attrs, tag=tag)
          add_sparse(op, dtype, [7], [[2, 6, 2, 0], [3]], resource, attrs=attrs, tag=tag,
                     index_dtype=np.int64)
    add_sparse(op, F32, [5, 2], [np.zeros([0], np.int32)], True, tag="_no_indices")
  for lr_power in (-0.5, -0.3):
    for op in ("Ftrl", "FtrlV2"):
      for mul in (False, True):
        for shape in ([6, 3], [7]):
          add_sparse(op, F32, shape, [[4, 0, 4], [5, 1]], True,
                     variant={"lr_power": lr_power, "l1": 0.3},
                     attrs={"multiply_linear_by_lr": mul},
                     tag="_power_%g%s" % (lr_power, "_mul_lr" if mul else ""))
  for l1 in (0.0, 2.0):
    for shape in ([6, 3], [7]):
      add_sparse("ProximalGradientDescent", F64, shape, [[4, 0, 4]], True, variant={"l1": l1},
                 tag="_l1_%g" % l1)
      add_sparse("ProximalAdagrad", F32, shape, [[4, 0, 4]], True, variant={"l1": l1},
                 tag="_l1_%g" % l1)

  # Errors.
  f = F32

  def steps_with(op, shape, idx, **changes):
    d = hyper_for(op, f, 0, {})
    d["grad"] = rand([len(idx)] + shape[1:], f)
    d["indices"] = np.asarray(idx, np.int32)
    d.update(changes)
    return [d]

  for op in SPARSE_DTYPES:
    pre = "ResourceSparse" if op == "KerasMomentum" else "Sparse"
    slots = slots_for(op, [6, 3], f)
    W.add("%s%s_index_out_of_range" % (pre, op), pre + "Apply" + op, slots,
          steps_with(op, [6, 3], [1, 6]), resource=op == "KerasMomentum")
    W.add("%s%s_grad_rows" % (pre, op), pre + "Apply" + op, slots,
          steps_with(op, [6, 3], [1, 2], grad=rand([2, 4], f)), resource=op == "KerasMomentum")
    W.add("%s%s_grad_count" % (pre, op), pre + "Apply" + op, slots,
          steps_with(op, [6, 3], [1, 2], grad=rand([3, 3], f)), resource=op == "KerasMomentum")
    W.add("%s%s_indices_matrix" % (pre, op), pre + "Apply" + op, slots,
          steps_with(op, [6, 3], [1, 2], indices=np.array([[1, 2]], np.int32),
                     grad=rand([1, 3], f)),
          resource=op == "KerasMomentum")
    scalar_slots = {k: np.asarray(1.0, np.float32) for k in slots}
    W.add("%s%s_scalar_var" % (pre, op), pre + "Apply" + op, scalar_slots,
          steps_with(op, [], [0], grad=rand([1], f)), resource=op == "KerasMomentum")
    empty_rows = {k: np.zeros([4, 0], np.float32) for k in slots}
    W.add("%s%s_empty_rows" % (pre, op), pre + "Apply" + op, empty_rows,
          steps_with(op, [4, 0], [1], grad=np.zeros([1, 0], np.float32)),
          resource=op == "KerasMomentum")
  W.add("ResourceSparseAdagrad_missing_variable", "ResourceSparseApplyAdagrad",
        {"var": Uninit(rand([6, 3], f)), "accum": positive([6, 3], f)},
        steps_with("Adagrad", [6, 3], [1]), resource=True)
  steps = steps_with("Ftrl", [6, 3], [1, 4], lr=scalar(0.0, f))
  add = dict(steps[0])
  add["grad"] = rand([2, 3], f)
  W.add("ResourceSparseFtrl_zero_lr_mul_lr", "ResourceSparseApplyFtrl",
        slots_for("Ftrl", [6, 3], f), steps + [add], attrs={"multiply_linear_by_lr": True},
        resource=True)
  for arg, value in (("lr", -0.1), ("l1", -1.0), ("lr_power", 0.5), ("l2_shrinkage", -0.2)):
    W.add("SparseFtrlV2_bad_%s" % arg, "SparseApplyFtrlV2", slots_for("FtrlV2", [6, 3], f),
          steps_with("FtrlV2", [6, 3], [1], **{arg: scalar(value, f)}))


SCATTER_KINDS = ["Update", "Add", "Sub", "Mul", "Div", "Min", "Max"]
INTS = [tf.int32, tf.int64, tf.int8, tf.uint8, tf.uint16, tf.int16, tf.uint32, tf.uint64]


def sample(dtype, shape, offset=0):
  """Deterministic values of any dtype (nonzero, for division)."""
  n = int(np.prod(shape))
  if dtype == tf.string:
    return np.array([("s%d" % (i + offset)).encode() for i in range(n)],
                    dtype=object).reshape(shape)
  if dtype == tf.bool:
    return ((np.arange(n) + offset) % 3 == 1).reshape(shape)
  if dtype.is_integer:
    values = rng.randint(1, 50, size=n) * rng.choice([-1, 1], size=n) if not dtype.is_unsigned \
        else rng.randint(1, 100, size=n)
    return values.astype(np_dtype(dtype)).reshape(shape)
  return rand(shape, dtype, 0.25, 2.0) * rng.choice([-1, 1], size=shape).astype(np_dtype(dtype))


def add_scatter(kind, dtype, var_shape, indices_list, updates_shape=None, resource=False,
                tag="", index_dtype=np.int32, **kw):
  op = ("ResourceScatter" if resource else "Scatter") + kind
  arg = "resource" if resource else "ref"
  steps = []
  for step, idx in enumerate(indices_list):
    idx = np.asarray(idx, index_dtype)
    shape = updates_shape if updates_shape is not None else list(idx.shape) + var_shape[1:]
    steps.append({"indices": idx, "updates": sample(dtype, shape, offset=10 * step)})
  name = "%s_%s_%s%s" % (op, dtype.name, "x".join(map(str, var_shape)), tag)
  W.add(name, op, {arg: sample(dtype, var_shape)}, steps, resource=resource, **kw)


def scatter_cases():
  for kind in SCATTER_KINDS:
    dtypes = FLOATS + INTS[:2] + ([tf.string, tf.bool] if kind == "Update" else [])
    for resource in (False, True):
      for dtype in dtypes:
        # Duplicate indices apply in order; two steps.
        add_scatter(kind, dtype, [5, 3], [[4, 0, 4, 2], [1, 1, 3, 0]], resource=resource)
      add_scatter(kind, F32, [6], [[5, 5, 0], [2]], resource=resource)
      add_scatter(kind, F32, [4, 2, 3], [[[3, 0], [1, 3]]], resource=resource, tag="_2d_indices",
                  index_dtype=np.int64)
      add_scatter(kind, F32, [5, 3], [[0, 4, 4]], updates_shape=[], resource=resource,
                  tag="_scalar_update")
      add_scatter(kind, F32, [5, 3], [np.zeros([0], np.int32)], resource=resource,
                  tag="_no_indices")
    for dtype in INTS[2:]:
      add_scatter(kind, dtype, [4, 2], [[3, 1, 3]], resource=True)
  # Integer wrap-around and float specials.
  W.add("ScatterAdd_int8_wraps", "ScatterAdd", {"ref": np.array([100, -100, 5], np.int8)},
        [{"indices": np.array([0, 1, 0], np.int32),
          "updates": np.array([100, -100, 50], np.int8)}])
  W.add("ResourceScatterMul_int32_wraps", "ResourceScatterMul",
        {"resource": np.array([2 ** 30, -7], np.int32)},
        [{"indices": np.array([0, 0], np.int32), "updates": np.array([4, 3], np.int32)}],
        resource=True)
  W.add("ResourceScatterDiv_int32_truncates", "ResourceScatterDiv",
        {"resource": np.array([7, -7, -2 ** 31], np.int32)},
        [{"indices": np.array([0, 1, 2], np.int32), "updates": np.array([-2, 2, 3], np.int32)}],
        resource=True)
  special = np.array([0.0, np.nan, np.inf, -1.0], np.float32)
  for kind in ("Div", "Min", "Max", "Add"):
    W.add("ResourceScatter%s_float32_special" % kind, "ResourceScatter" + kind,
          {"resource": np.array([1.0, 2.0, np.nan, 0.0], np.float32)},
          [{"indices": np.array([0, 1, 2, 3], np.int32), "updates": special}], resource=True)

  # Errors.
  f = F32
  for resource in (False, True):
    pre = "Resource" if resource else ""
    arg = "resource" if resource else "ref"
    var = {arg: sample(f, [5, 3])}
    W.add(pre + "ScatterAdd_index_out_of_range", pre + "ScatterAdd", var,
          [{"indices": np.array([1, 5], np.int32), "updates": sample(f, [2, 3])}],
          resource=resource)
    W.add(pre + "ScatterUpdate_negative_index_2d", pre + "ScatterUpdate", var,
          [{"indices": np.array([[0, 1], [-1, 2]], np.int64), "updates": sample(f, [2, 2, 3])}],
          resource=resource)
    W.add(pre + "ScatterSub_updates_rank", pre + "ScatterSub", var,
          [{"indices": np.array([1, 2], np.int32), "updates": sample(f, [2])}], resource=resource)
    W.add(pre + "ScatterMax_scalar_variable", pre + "ScatterMax",
          {arg: np.asarray(1.0, np.float32)},
          [{"indices": np.array([0], np.int32), "updates": np.array([2.0], np.float32)}],
          resource=resource)
  W.add("ScatterMul_updates_shape", "ScatterMul", {"ref": sample(f, [5, 3])},
        [{"indices": np.array([1, 2], np.int32), "updates": sample(f, [3, 2])}])
  W.add("ScatterMin_uninitialized", "ScatterMin", {"ref": Uninit(sample(f, [5, 3]))},
        [{"indices": np.array([1], np.int32), "updates": sample(f, [1, 3])}])
  W.add("ResourceScatterMin_uninitialized", "ResourceScatterMin",
        {"resource": Uninit(sample(f, [5, 3]))},
        [{"indices": np.array([1], np.int32), "updates": sample(f, [1, 3])}], resource=True,
        error_substr="does not exist")
  W.add("ResourceScatterDiv_zero_without_indices", "ResourceScatterDiv",
        {"resource": sample(f, [5, 3])},
        [{"indices": np.zeros([0], np.int32), "updates": np.zeros([0, 3], np.float32)}],
        resource=True)
  W.add("ResourceScatterAdd_scalar_variable_no_indices", "ResourceScatterAdd",
        {"resource": np.asarray(1.5, np.float32)},
        [{"indices": np.zeros([0], np.int32), "updates": np.asarray(2.0, np.float32)}],
        resource=True)
  W.add("ResourceScatterAdd_indices_updates_mismatch", "ResourceScatterAdd",
        {"resource": sample(f, [5, 3])},
        [{"indices": np.array([1, 2], np.int32), "updates": sample(f, [3, 3])}], resource=True)


def add_gather(op, dtype, var_shape, indices_list, attrs=None, tag="", index_dtype=np.int32,
               **kw):
  steps = [{"indices": np.asarray(idx, index_dtype)} for idx in indices_list]
  attrs = dict(attrs or {})
  attrs["dtype"] = dtype
  name = "%s_%s_%s%s" % (op, dtype.name, "x".join(map(str, var_shape)), tag)
  W.add(name, op, {"resource": sample(dtype, var_shape)}, steps, attrs=attrs, resource=True,
        **kw)


def gather_cases():
  for dtype in FLOATS + INTS[:4] + [tf.string, tf.bool]:
    add_gather("ResourceGather", dtype, [6, 3], [[5, 0, 5], [[1, 2], [3, 4]]])
    add_gather("ResourceGatherNd", dtype, [4, 3, 2], [[[3, 1], [0, 2]], [[1], [3]]],
               index_dtype=np.int64)
  add_gather("ResourceGather", F32, [8], [[7, 0], 3], tag="_vector")
  add_gather("ResourceGather", F32, [3, 5, 2], [[[4, 0], [1, 1], [2, 3]]],
             attrs={"batch_dims": 1}, tag="_batch_dims", index_dtype=np.int64)
  add_gather("ResourceGather", F32, [6, 3], [np.zeros([0, 2], np.int32)], tag="_no_indices")
  add_gather("ResourceGatherNd", F32, [4, 3], [[[3, 2], [0, 0]], np.zeros([2, 0], np.int32)],
             tag="_full_and_empty_depth")
  # Errors.
  add_gather("ResourceGather", F32, [6, 3], [[1, 6]], tag="_index_out_of_range")
  add_gather("ResourceGather", F32, [6, 3], [[[0, -1]]], tag="_negative_index")
  add_gather("ResourceGatherNd", F32, [4, 3], [[[3, 3]]], tag="_index_out_of_range",
             error_substr="indices[0] = [3, 3] does not index into param shape [4,3]")
  add_gather("ResourceGatherNd", F32, [4, 3], [[[0, 1, 0]]], tag="_too_deep")
  W.add("ResourceGather_uninitialized", "ResourceGather",
        {"resource": Uninit(sample(F32, [6, 3]))}, [{"indices": np.array([0], np.int32)}],
        attrs={"dtype": F32}, resource=True, error_substr="does not exist")


def main():
  dense_cases()
  dense_error_cases()
  sparse_cases()
  scatter_cases()
  gather_cases()
  W.write()


if __name__ == "__main__":
  main()
