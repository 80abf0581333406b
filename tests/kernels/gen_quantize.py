"""Writes fixtures/quantize.pbtxt: QuantizeV2, Dequantize, QuantizeAndDequantizeV2/V3/V4 and
QuantizeAndDequantizeV4Grad in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_quantize.py (needs TensorFlow 2.x and numpy).
Compared exactly: Sluice computes every range, scale and element operation for operation as
TensorFlow's CPU kernels do (in float for QuantizeV2/Dequantize, in T for the others), so the
outputs are its bits, NaN and infinities included, and QuantizeV2's output_min/output_max too.
oneDNN's rewrites are turned off so that TensorFlow runs its reference kernels.

Left out, and tested in kernels/cpu/quantization/quantize_ops_test.cc instead:
- QuantizeAndDequantizeV3 with no axis, range_given and a range of other than one element: its
  kernel CHECK-fails in TensorFlow 2.21 (Sluice: INVALID_ARGUMENT).
- Dequantize with an axis of more than one slice and a range of rank other than 1: TensorFlow
  2.21 CHECK-fails (Sluice: INVALID_ARGUMENT).
- Axes below -1, which TensorFlow's shape functions refuse when the node is built, and
  Dequantize's axis past the input's rank, which its shape function refuses too (given a rank:
  Dequantize with an axis needs an input of known rank in TensorFlow 2.21, so those cases set
  the placeholder's shape).
- NaN in the last few elements of a QuantizeV2 input (SCALED or MIN_COMBINED to qint8 or
  qint16), or in a per-channel one: TensorFlow's scalar remainder of its vectorized cast
  converts NaN to 0 where the vector loop gives the type's lowest value, which Sluice gives
  everywhere. The inputs here hold NaN only where TensorFlow's vector loop reads them.
- QuantizeAndDequantize with a computed range (range_given false) over inputs holding NaN
  anywhere but at the end of a short input: TensorFlow's Eigen reduction keeps or drops the NaN
  depending on where its vector loop meets it; Sluice's range is NaN whenever the input holds one.
"""
import os
import sys

# TensorFlow's reference CPU kernels: with oneDNN's graph rewrites on, QuantizeV2 and Dequantize
# in SCALED mode run as _MklQuantizeV2/_MklDequantize instead (and fail for qint32).
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261208)
w = CaseWriter("quantize")
_add = w.add


def _add_checking_message(name, build, inputs, **kwargs):
  """Records a case; an error case must also give TensorFlow's whole message in Sluice."""
  code = _add(name, build, inputs, **kwargs)
  if code:
    case = w._cases[-1]  # pylint: disable=protected-access
    message = case[case.index("  error_message: ") + len("  error_message: "):].split("\n")[0]
    w._cases[-1] = case[:case.rindex("}")] + "  error_substr: %s\n}\n" % message
  return code


w.add = _add_checking_message
f32 = np.float32

QTYPES = [tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32]
QNAME = {tf.qint8: "qint8", tf.quint8: "quint8", tf.qint16: "qint16", tf.quint16: "quint16",
         tf.qint32: "qint32"}
MODES = ["MIN_COMBINED", "MIN_FIRST", "SCALED"]

# 67 values: both ends of each range below, halves that test the rounding, random values, NaN
# and infinities (Sluice's loops are scalar, so where they fall in TensorFlow's vector packets
# does not matter).
X = rng.uniform(-8, 8, 67).astype(f32)
X[:40] = [-6, 6, -1, 5, 0.3, -4, -0.001, 0.001, 0, -0.0, 2, -2, 1e-30, -1e-30, 0.5, -0.5, 1.5,
          -1.5, 2.5, -2.5, 4.7e-3, -4.7e-3, 1 / 127, -1 / 128, 5.5, 6.5, 7.5, -7.5, 0.25, 1e-6,
          -2e-6, 3e-6, 100, -100, 1e9, -1e9, 6.0000005, -6.0000005, 5.9999995, 0.0117647]
X[[44, 50]] = np.nan
X[[47, 63]] = np.inf
X[[51, 65]] = -np.inf
XFINITE = np.nan_to_num(X, nan=0.25, posinf=7.0, neginf=-7.0)

RANGES = [(-6.0, 6.0), (-1.0, 5.0), (0.3, 5.0), (-4.0, -1.0), (-1e-3, 1e-3), (0.0, 0.0),
          (2.0, 2.0), (-1e-6, 2e-6), (-128.0, 127.0), (-3.0e9, 1.0e9)]


def tag(lo, hi):
  return ("%g_%g" % (lo, hi)).replace("-", "m").replace("+", "")


# QuantizeV2: every type, mode and range.
for t in QTYPES:
  for mode in MODES:
    for lo, hi in RANGES:
      w.add("quantize_%s_%s_%s" % (QNAME[t], mode.lower(), tag(lo, hi)),
            lambda x, a, b, t=t, mode=mode: R.QuantizeV2(input=x, min_range=a, max_range=b, T=t,
                                                         mode=mode),
            [X, f32(lo), f32(hi)])
    w.add("quantize_%s_%s_narrow" % (QNAME[t], mode.lower()),
          lambda x, a, b, t=t, mode=mode: R.QuantizeV2(input=x, min_range=a, max_range=b, T=t,
                                                       mode=mode, narrow_range=True),
          [X, f32(-1), f32(5)])
  for lo, hi in [(-1.0, 5.0), (-6.0, 6.0), (0.3, 5.0), (-4.0, -1.0)]:
    for narrow in (False, True):
      w.add("quantize_%s_scaled_half_even_%s%s" % (QNAME[t], tag(lo, hi),
                                                    "_narrow" if narrow else ""),
            lambda x, a, b, t=t, narrow=narrow: R.QuantizeV2(
                input=x, min_range=a, max_range=b, T=t, mode="SCALED",
                round_mode="HALF_TO_EVEN", narrow_range=narrow),
            [X, f32(lo), f32(hi)])
for emr in (0.0, 0.5, 1e-5):
  for mode in MODES:
    w.add("quantize_qint8_%s_min_range_%g" % (mode.lower(), emr),
          lambda x, a, b, mode=mode, emr=emr: R.QuantizeV2(
              input=x, min_range=a, max_range=b, T=tf.qint8, mode=mode,
              ensure_minimum_range=emr),
          [X, f32(-1e-3), f32(2e-3)])
for lo, hi in [(np.nan, 1.0), (-1.0, np.nan), (-np.inf, 1.0), (-1.0, np.inf), (-0.0, 0.0)]:
  for mode in MODES:
    w.add("quantize_qint8_%s_range_%s" % (mode.lower(), tag(lo, hi)),
          lambda x, a, b, mode=mode: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                  T=tf.qint8, mode=mode),
          [X[:40], f32(lo), f32(hi)])
w.add("quantize_scalar", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                      T=tf.quint8), [f32(2.5), f32(0), f32(6)])
w.add("quantize_empty", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                     T=tf.qint8),
      [np.zeros((0, 3), f32), f32(0), f32(6)])
w.add("quantize_range_vector_of_one", lambda x, a, b: R.QuantizeV2(
    input=x, min_range=a, max_range=b, T=tf.qint8), [X[:10], f32([-1]), f32([[5]])])
# Per channel (on finite values: see FromFloat in quantize_math.h for NaN).
XC = XFINITE[:60].reshape(3, 4, 5)
MINS = f32([-6, -1, 0.3, -4])
MAXS = f32([6, 5, 5, -1])
for t in QTYPES:
  for mode in ["MIN_COMBINED", "SCALED"]:
    w.add("quantize_%s_%s_axis1" % (QNAME[t], mode.lower()),
          lambda x, a, b, t=t, mode=mode: R.QuantizeV2(input=x, min_range=a, max_range=b, T=t,
                                                       mode=mode, axis=1),
          [XC, MINS, MAXS])
for axis, shape in [(0, (4, 15)), (2, (15, 1, 4)), (1, (15, 4))]:
  w.add("quantize_axis%d_%s" % (axis, "x".join(map(str, shape))),
        lambda x, a, b, axis=axis: R.QuantizeV2(input=x, min_range=a, max_range=b, T=tf.qint8,
                                                mode="SCALED", axis=axis),
        [XC.reshape(shape), MINS, MAXS])
w.add("quantize_axis_of_size_one_min_first", lambda x, a, b: R.QuantizeV2(
    input=x, min_range=a, max_range=b, T=tf.quint8, mode="MIN_FIRST", axis=1),
      [X[:10].reshape(10, 1), f32([-1]), f32([5])])
w.add("quantize_axis_empty", lambda x, a, b: R.QuantizeV2(
    input=x, min_range=a, max_range=b, T=tf.qint8, axis=0),
      [np.zeros((0, 2), f32), np.zeros(0, f32), np.zeros(0, f32)])
w.add("quantize_axis_empty_rows", lambda x, a, b: R.QuantizeV2(
    input=x, min_range=a, max_range=b, T=tf.qint8, axis=1),
      [np.zeros((0, 2), f32), f32([0, 0]), f32([1, 1])])
# Errors.
E = X[:6].reshape(2, 3)
for name, build, ins in [
    ("max_below_min", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                   T=tf.qint8), [E, f32(3), f32(1)]),
    ("max_below_min_scaled", lambda x, a, b: R.QuantizeV2(
        input=x, min_range=a, max_range=b, T=tf.qint8, mode="SCALED"), [E, f32(3), f32(1)]),
    ("max_below_min_min_first", lambda x, a, b: R.QuantizeV2(
        input=x, min_range=a, max_range=b, T=tf.qint8, mode="MIN_FIRST"), [E, f32(3), f32(1)]),
    ("max_below_min_axis", lambda x, a, b: R.QuantizeV2(
        input=x, min_range=a, max_range=b, T=tf.qint8, axis=1),
     [E, f32([0, 3, 0]), f32([1, 1, 1])]),
    ("min_two_elements", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                      T=tf.qint8), [E, f32([0, 1]), f32(2)]),
    ("max_empty", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b, T=tf.qint8),
     [E, f32(0), np.zeros(0, f32)]),
    ("axis_too_large", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                    T=tf.qint8, axis=2),
     [E, f32([0, 0]), f32([1, 1])]),
    ("axis_scalar_input", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                       T=tf.qint8, axis=0),
     [f32(1), f32([0]), f32([1])]),
    ("axis_min_size", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                   T=tf.qint8, axis=0),
     [E, f32([0, 0, 0]), f32([1, 1])]),
    ("axis_max_size", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                   T=tf.qint8, axis=0),
     [E, f32([0, 0]), f32([1])]),
    ("axis_min_rank", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                   T=tf.qint8, axis=0),
     [E, f32([[0, 0]]), f32([1, 1])]),
    ("axis_min_scalar", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                     T=tf.qint8, axis=0),
     [E, f32(0), f32([1, 1])]),
    ("axis_max_rank", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                   T=tf.qint8, axis=0),
     [E, f32([0, 0]), f32([[1, 1]])]),
    ("axis_min_first", lambda x, a, b: R.QuantizeV2(input=x, min_range=a, max_range=b,
                                                    T=tf.qint8, axis=0, mode="MIN_FIRST"),
     [E, f32([0, 0]), f32([1, 1])]),
    ("half_even_min_combined", lambda x, a, b: R.QuantizeV2(
        input=x, min_range=a, max_range=b, T=tf.qint8, round_mode="HALF_TO_EVEN"),
     [E, f32(0), f32(1)]),
    ("half_even_min_first", lambda x, a, b: R.QuantizeV2(
        input=x, min_range=a, max_range=b, T=tf.qint8, round_mode="HALF_TO_EVEN",
        mode="MIN_FIRST"), [E, f32(0), f32(1)]),
]:
  w.add("err_quantize_" + name, build, ins)

# Dequantize: every value of the 8-bit types, a spread of the wider ones with their extremes.
QVALUES = {
    tf.qint8: np.arange(-128, 128, dtype=np.int8),
    tf.quint8: np.arange(256, dtype=np.uint8),
    tf.qint16: np.concatenate([[-32768, -32767, -1, 0, 1, 32766, 32767],
                               rng.integers(-32768, 32768, 53)]).astype(np.int16),
    tf.quint16: np.concatenate([[0, 1, 32767, 32768, 65534, 65535],
                                rng.integers(0, 65536, 54)]).astype(np.uint16),
    tf.qint32: np.concatenate([[-2**31, -2**31 + 1, -1, 0, 1, 2**31 - 2, 2**31 - 1, 16777217],
                               rng.integers(-2**31, 2**31, 52)]).astype(np.int32),
}


def deq(x, a, b, shape=None, **attrs):
  """Dequantize; with an axis, TensorFlow 2.21's shape function needs the input's rank."""
  if shape is not None:
    x.set_shape(shape)
  return R.Dequantize(input=x, min_range=a, max_range=b, **attrs)


def qarray(t, values):
  return np.asarray(values).astype(t.as_numpy_dtype)


for t in QTYPES:
  q = qarray(t, QVALUES[t])
  for mode in MODES:
    for lo, hi in RANGES:
      w.add("dequantize_%s_%s_%s" % (QNAME[t], mode.lower(), tag(lo, hi)),
            lambda x, a, b, mode=mode: R.Dequantize(input=x, min_range=a, max_range=b,
                                                    mode=mode),
            [q, f32(lo), f32(hi)])
    w.add("dequantize_%s_%s_narrow" % (QNAME[t], mode.lower()),
          lambda x, a, b, mode=mode: R.Dequantize(input=x, min_range=a, max_range=b, mode=mode,
                                                  narrow_range=True),
          [q, f32(-1), f32(5)])
    w.add("dequantize_%s_%s_bfloat16" % (QNAME[t], mode.lower()),
          lambda x, a, b, mode=mode: R.Dequantize(input=x, min_range=a, max_range=b, mode=mode,
                                                  dtype=tf.bfloat16),
          [q, f32(-1), f32(5)])
  qc = qarray(t, np.resize(QVALUES[t], 60).reshape(3, 4, 5))
  for mode in ["MIN_COMBINED", "SCALED"]:
    w.add("dequantize_%s_%s_axis1" % (QNAME[t], mode.lower()),
          lambda x, a, b, mode=mode: deq(x, a, b, (3, 4, 5), mode=mode, axis=1),
          [qc, MINS, MAXS])
  w.add("dequantize_%s_scaled_axis2_bfloat16" % QNAME[t],
        lambda x, a, b: deq(x, a, b, (3, 4, 5), mode="SCALED", axis=2, dtype=tf.bfloat16),
        [qc, f32([-6, -1, 0.3, -4, 0]), f32([6, 5, 5, -1, 0])])
for lo, hi in [(np.nan, 1.0), (-np.inf, 1.0), (-1.0, np.inf), (3.0, 1.0)]:
  for mode in MODES:
    w.add("dequantize_qint8_%s_range_%s" % (mode.lower(), tag(lo, hi)),
          lambda x, a, b, mode=mode: R.Dequantize(input=x, min_range=a, max_range=b, mode=mode),
          [qarray(tf.qint8, QVALUES[tf.qint8]), f32(lo), f32(hi)])
w.add("dequantize_scalar", lambda x, a, b: R.Dequantize(input=x, min_range=a, max_range=b),
      [qarray(tf.quint8, 200), f32(0), f32(6)])
w.add("dequantize_empty", lambda x, a, b: R.Dequantize(input=x, min_range=a, max_range=b),
      [qarray(tf.qint8, np.zeros((0, 3), np.int8)), f32(0), f32(6)])
w.add("dequantize_range_vector_of_one", lambda x, a, b: R.Dequantize(
    input=x, min_range=a, max_range=b), [qarray(tf.qint8, [1, 2]), f32([-1]), f32([[5]])])
w.add("dequantize_axis_of_size_one_min_first", lambda x, a, b: deq(
    x, a, b, (1, 3), mode="MIN_FIRST", axis=0),
      [qarray(tf.quint8, [[1, 2, 200]]), f32([-1]), f32([5])])
Q = qarray(tf.qint8, [[1, 2, 3], [4, 5, 6]])
for name, build, ins in [
    ("min_size", lambda x, a, b: deq(x, a, b, (2, 3), axis=1),
     [Q, f32([0, 0]), f32([1, 1, 1])]),
    ("max_size", lambda x, a, b: deq(x, a, b, (2, 3), axis=1),
     [Q, f32([0, 0, 0]), f32([1, 1])]),
    ("min_two_elements", lambda x, a, b: R.Dequantize(input=x, min_range=a, max_range=b),
     [Q, f32([0, 0]), f32(1)]),
    ("max_empty", lambda x, a, b: R.Dequantize(input=x, min_range=a, max_range=b),
     [Q, f32(0), np.zeros(0, f32)]),
    ("axis_min_first", lambda x, a, b: deq(x, a, b, (2, 3), axis=0, mode="MIN_FIRST"),
     [Q, f32([0, 0]), f32([1, 1])]),
]:
  w.add("err_dequantize_" + name, build, ins)

# QuantizeAndDequantize V2/V4 (one kernel in TensorFlow) and V3.
DT = {np.float32: "f32", np.float64: "f64"}
XD = X.astype(np.float64)
for op_name in ["QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"]:
  op = getattr(R, op_name)
  short = op_name[-2:].lower()
  # V4 runs V2's kernel in TensorFlow: the whole grid for V2, a sample for V4.
  for dt in (np.float32, np.float64) if short == "v2" else (np.float32,):
    for signed in (True, False):
      for narrow in (False, True) if short == "v2" else (False,):
        for rm in ("HALF_TO_EVEN", "HALF_UP"):
          for bits in (8, 4, 1) if dt == np.float32 else (8, 16):
            suffix = "%s_%s_%s_%s_bits%d" % (DT[dt], "signed" if signed else "unsigned",
                                             "narrow" if narrow else "full", rm.lower(), bits)
            w.add("%s_computed_%s" % (short, suffix),
                  lambda x, a, b, s=signed, n=narrow, rm=rm, bits=bits: op(
                      input=x, input_min=a, input_max=b, signed_input=s, narrow_range=n,
                      round_mode=rm, num_bits=bits),
                  [XFINITE.astype(dt), dt(0), dt(0)])
            for lo, hi in [(-1.0, 5.0), (0.3, 5.0), (-4.0, -1.0), (-1e-3, 1e-3)][:4 if bits == 8
                                                                                else 1]:
              w.add("%s_given_%s_%s" % (short, suffix, tag(lo, hi)),
                    lambda x, a, b, s=signed, n=narrow, rm=rm, bits=bits: op(
                        input=x, input_min=a, input_max=b, signed_input=s, narrow_range=n,
                        round_mode=rm, num_bits=bits, range_given=True),
                    [X.astype(dt), dt(lo), dt(hi)])
  for lo, hi in [(0.0, 0.0), (2.0, 2.0), (-2.0, -2.0), (-6.0, 6.0), (-np.inf, 1.0),
                 (-1.0, np.inf), (-0.0, 0.0)]:
    for rm in ("HALF_TO_EVEN", "HALF_UP"):
      w.add("%s_given_%s_%s" % (short, rm.lower(), tag(lo, hi)),
            lambda x, a, b, rm=rm: op(input=x, input_min=a, input_max=b, round_mode=rm,
                                      range_given=True),
            [X, f32(lo), f32(hi)])
  for bits in (30, 61):
    w.add("%s_computed_bits%d" % (short, bits),
          lambda x, a, b, bits=bits: op(input=x, input_min=a, input_max=b, num_bits=bits),
          [XD, np.float64(0), np.float64(0)])
  w.add("%s_computed_unsigned_bits62" % short,
        lambda x, a, b: op(input=x, input_min=a, input_max=b, num_bits=62, signed_input=False),
        [XD, np.float64(0), np.float64(0)])
  for name, data in [("all_equal_negative", f32([-3, -3])), ("all_equal_positive", f32([3, 3])),
                     ("zeros", f32([0, -0.0, 0])), ("nan_last", f32([3, -1, np.nan])),
                     ("infinities", f32([1, -np.inf, np.inf])), ("empty", np.zeros((0, 2), f32)),
                     ("scalar", f32(-2.5))]:
    w.add("%s_computed_%s" % (short, name),
          lambda x, a, b: op(input=x, input_min=a, input_max=b), [data, f32(0), f32(0)])
  for axis, shape in [(1, (3, 4, 5)), (0, (4, 15)), (2, (15, 1, 4))]:
    for signed in (True, False):
      w.add("%s_computed_axis%d_%s" % (short, axis, "signed" if signed else "unsigned"),
            lambda x, a, b, axis=axis, s=signed: op(input=x, input_min=a, input_max=b, axis=axis,
                                                    signed_input=s),
            [XFINITE[:60].reshape(shape), f32(0), f32(0)])
  w.add("%s_computed_axis_empty" % short,
        lambda x, a, b: op(input=x, input_min=a, input_max=b, axis=1),
        [np.zeros((0, 3), f32), f32(0), f32(0)])
  w.add("%s_computed_range_inputs_unused" % short,
        lambda x, a, b: op(input=x, input_min=a, input_max=b, axis=0),
        [E, f32([[-1]]), f32([5, 5, 5])])
  for name, build, ins in [
      ("min_above_max", lambda x, a, b: op(input=x, input_min=a, input_max=b, range_given=True),
       [E, f32(6), f32(5)]),
      ("min_nan", lambda x, a, b: op(input=x, input_min=a, input_max=b, range_given=True),
       [E, f32(np.nan), f32(5)]),
      ("min_vector", lambda x, a, b: op(input=x, input_min=a, input_max=b, range_given=True),
       [E, f32([-1]), f32(5)]),
      ("max_vector", lambda x, a, b: op(input=x, input_min=a, input_max=b, range_given=True),
       [E, f32(-1), f32([5])]),
      ("given_axis_vectors", lambda x, a, b: op(input=x, input_min=a, input_max=b,
                                                range_given=True, axis=0),
       [E, f32([-1, 3]), f32([2, 5])]),
      ("given_axis_scalars", lambda x, a, b: op(input=x, input_min=a, input_max=b,
                                                range_given=True, axis=0),
       [E, f32(-1), f32(5)]),
      ("axis_too_large", lambda x, a, b: op(input=x, input_min=a, input_max=b, axis=2),
       [E, f32([0, 0]), f32([1, 1])]),
      ("axis_scalar_input", lambda x, a, b: op(input=x, input_min=a, input_max=b, axis=0),
       [f32(1), f32([0]), f32([1])]),
      ("bits_0", lambda x, a, b: op(input=x, input_min=a, input_max=b, num_bits=0),
       [E, f32(0), f32(1)]),
      ("bits_62", lambda x, a, b: op(input=x, input_min=a, input_max=b, num_bits=62),
       [E, f32(0), f32(1)]),
      ("bits_63_unsigned", lambda x, a, b: op(input=x, input_min=a, input_max=b, num_bits=63,
                                              signed_input=False), [E, f32(0), f32(1)]),
  ]:
    w.add("err_%s_%s" % (short, name), build, ins)

V3 = R.QuantizeAndDequantizeV3
for dt in (np.float32, np.float64):
  for signed in (True, False):
    for narrow in (False, True):
      for bits in (8, 3) if dt == np.float32 else (8,):
        suffix = "%s_%s_%s_bits%d" % (DT[dt], "signed" if signed else "unsigned",
                                      "narrow" if narrow else "full", bits)
        w.add("v3_computed_" + suffix,
              lambda x, a, b, n, s=signed, nr=narrow: V3(
                  input=x, input_min=a, input_max=b, num_bits=n, signed_input=s,
                  narrow_range=nr, range_given=False),
              [XFINITE.astype(dt), dt(0), dt(0), np.int32(bits)])
        for lo, hi in [(-1.0, 5.0), (0.3, 5.0), (-4.0, -1.0), (-1e-3, 1e-3), (0.0, 0.0)][
            :5 if bits == 8 else 2]:
          w.add("v3_given_%s_%s" % (suffix, tag(lo, hi)),
                lambda x, a, b, n, s=signed, nr=narrow: V3(
                    input=x, input_min=a, input_max=b, num_bits=n, signed_input=s,
                    narrow_range=nr),
                [X.astype(dt), dt(lo), dt(hi), np.int32(bits)])
for axis, shape in [(1, (3, 4, 5)), (0, (4, 15))]:
  for given in (True, False):
    w.add("v3_axis%d_%s" % (axis, "given" if given else "computed"),
          lambda x, a, b, n, axis=axis, given=given: V3(
              input=x, input_min=a, input_max=b, num_bits=n, axis=axis, range_given=given),
          [X[:60].reshape(shape) if given else XFINITE[:60].reshape(shape),
           f32([-6, -1, 0.3, -4]), f32([6, 5, 5, -1]), np.int32(8)])
w.add("v3_axis_given_min_above_max", lambda x, a, b, n: V3(
    input=x, input_min=a, input_max=b, num_bits=n, axis=0),
      [E, f32([3, -1]), f32([2, 5]), np.int32(8)])
w.add("v3_given_range_matrix_of_one", lambda x, a, b, n: V3(
    input=x, input_min=a, input_max=b, num_bits=n), [E, f32([[-1]]), f32(2), np.int32(8)])
for name, build, ins in [
    ("min_above_max", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n),
     [E, f32(3), f32(2), np.int32(8)]),
    ("bits_0", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n),
     [E, f32(-1), f32(2), np.int32(0)]),
    ("bits_62", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n),
     [E, f32(-1), f32(2), np.int32(62)]),
    ("bits_vector", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n),
     [E, f32(-1), f32(2), np.int32([8])]),
    ("axis_before_bits", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n,
                                               axis=5),
     [E, f32(-1), f32(2), np.int32([8])]),
    ("axis_scalar_input", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n,
                                                axis=0),
     [f32(1), f32(-1), f32(2), np.int32(8)]),
    ("axis_min_scalar", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n,
                                              axis=0),
     [E, f32(-1), f32([2, 5]), np.int32(8)]),
    ("axis_max_matrix", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n,
                                              axis=0),
     [E, f32([-1, 3]), f32([[2, 5]]), np.int32(8)]),
    ("axis_max_rank_before_min_size", lambda x, a, b, n: V3(
        input=x, input_min=a, input_max=b, num_bits=n, axis=0),
     [E, f32([-1, 3, 3]), f32(2), np.int32(8)]),
    ("axis_min_size", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n,
                                            axis=0),
     [E, f32([-1, 3, 3]), f32([2, 3]), np.int32(8)]),
    ("axis_max_size", lambda x, a, b, n: V3(input=x, input_min=a, input_max=b, num_bits=n,
                                            axis=0),
     [E, f32([-1, 3]), f32([2]), np.int32(8)]),
]:
  w.add("err_v3_" + name, build, ins)

# QuantizeAndDequantizeV4Grad.
G = R.QuantizeAndDequantizeV4Grad
for dt in (np.float32, np.float64):
  grad = rng.normal(size=67).astype(dt)
  grad[[3, 4]] = [np.inf, np.nan]
  grad[5] = -1.0
  for lo, hi in [(-1.0, 5.0), (0.0, 0.0), (np.nan, 1.0), (2.0, 1.0)]:
    w.add("v4grad_%s_%s" % (DT[dt], tag(lo, hi)),
          lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b),
          [grad, X.astype(dt), dt(lo), dt(hi)])
w.add("v4grad_axis1", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                            axis=1),
      [rng.normal(size=(3, 4, 5)).astype(f32), X[:60].reshape(3, 4, 5), MINS, MAXS])
w.add("v4grad_empty_axis", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                                 axis=1),
      [np.zeros((0, 3), f32), np.zeros((0, 3), f32), f32([0, 0, 0]), f32([1, 1, 1])])
GG = np.ones_like(E)
for name, build, ins in [
    ("shapes_differ", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b),
     [GG.reshape(3, 2), E, f32(0), f32(1)]),
    ("axis_too_large", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                            axis=2),
     [GG, E, f32(0), f32(1)]),
    ("axis_before_shapes", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                                axis=3),
     [GG[:1], E, f32([[0]]), f32(1)]),
    ("min_vector", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b),
     [GG, E, f32([0]), f32(1)]),
    ("max_vector", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b),
     [GG, E, f32(0), f32([1])]),
    ("min_matrix", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b),
     [GG, E, f32([[0]]), f32(1)]),
    ("max_matrix_axis", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                             axis=0),
     [GG, E, f32([0, 1]), f32([[4, 1]])]),
    ("axis_min_scalar", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                             axis=0),
     [GG, E, f32(0), f32([4, 1])]),
    ("axis_max_rank_before_min_size", lambda g, x, a, b: G(
        gradients=g, input=x, input_min=a, input_max=b, axis=0),
     [GG, E, f32([0]), f32(4)]),
    ("axis_min_size", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                           axis=0),
     [GG, E, f32([0]), f32([4, 1])]),
    ("axis_max_size", lambda g, x, a, b: G(gradients=g, input=x, input_min=a, input_max=b,
                                           axis=0),
     [GG, E, f32([0, 1]), f32([4])]),
]:
  w.add("err_v4grad_" + name, build, ins)

w.write()
