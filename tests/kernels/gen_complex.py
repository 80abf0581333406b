"""Writes fixtures/complex.pbtxt: Complex, Real, Imag, ComplexAbs, Angle and Conj.

Run from anywhere: python3 tests/kernels/gen_complex.py (needs TensorFlow 2.x and numpy).

Tolerance: Complex, Real, Imag and Conj move values and are compared exactly. ComplexAbs
and Angle compute (hypot, atan2) with the C library in Sluice and Eigen's functions in
TensorFlow: rtol 1e-6 (float) / 1e-14 (double). A pair of types TensorFlow registers no
kernel for (float parts to complex128) is an error of the kernel registry, not of the kernel,
and is not replayed here.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261210)
w = CaseWriter("complex")

PAIRS = ((np.float32, np.complex64, tf.float32, tf.complex64, 1e-6),
         (np.float64, np.complex128, tf.float64, tf.complex128, 1e-14))

# Values with every kind of corner: signed zeros on both axes, the negative real axis from
# both sides, infinities, NaN in either part, huge and tiny parts (hypot must not overflow
# or underflow).
SPECIAL = [complex(0, 0), complex(-0.0, 0), complex(0, -0.0), complex(-0.0, -0.0),
           complex(-1, 0), complex(-1, -0.0), complex(3, 4), complex(-3, -4), complex(1e-30, 0),
           complex(np.inf, 0), complex(0, -np.inf), complex(np.inf, np.nan),
           complex(np.nan, np.inf), complex(np.nan, 1), complex(1, np.nan),
           complex(-np.inf, -np.inf)]


def values(shape, ctype):
  return (rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)).astype(ctype)


def part(name, tout):
  op = getattr(R, name)
  if name == "ComplexAbs":
    return lambda z: op(x=z, Tout=tout)
  return lambda z: op(input=z, Tout=tout)


for rtype, ctype, treal, tcomplex, tol in PAIRS:
  tag = np.dtype(ctype).name
  big = 1e30 if rtype == np.float32 else 1e300
  special = np.array(SPECIAL + [complex(big, big), complex(1 / big, 1 / big)], ctype)
  for name, rtol in (("Real", 0), ("Imag", 0), ("ComplexAbs", tol), ("Angle", tol)):
    lower = name.lower()
    w.add("%s_%s" % (lower, tag), part(name, treal), [values((3, 5), ctype)], rtol=rtol)
    w.add("%s_%s_special" % (lower, tag), part(name, treal), [special], rtol=rtol)
    w.add("%s_%s_scalar" % (lower, tag), part(name, treal), [ctype(2 - 7j)], rtol=rtol)
    w.add("%s_%s_empty" % (lower, tag), part(name, treal), [np.zeros((0, 2), ctype)])
  w.add("conj_%s" % tag, lambda z: R.Conj(input=z), [values((4, 3), ctype)])
  w.add("conj_%s_special" % tag, lambda z: R.Conj(input=z), [special])
  w.add("conj_%s_empty" % tag, lambda z: R.Conj(input=z), [np.zeros((2, 0), ctype)])

  def make(re, im, tcomplex=tcomplex):
    return R.Complex(real=re, imag=im, Tout=tcomplex)

  w.add("complex_%s" % tag, make,
        [rng.uniform(-3, 3, (2, 3)).astype(rtype), rng.uniform(-3, 3, (2, 3)).astype(rtype)])
  w.add("complex_%s_scalar_imag" % tag, make,
        [rng.uniform(-3, 3, (4,)).astype(rtype), rtype(0.5)])
  w.add("complex_%s_scalar_real" % tag, make,
        [rtype(-1.5), rng.uniform(-3, 3, (2, 2)).astype(rtype)])
  w.add("complex_%s_broadcast" % tag, make,
        [rng.uniform(-3, 3, (3, 1)).astype(rtype), rng.uniform(-3, 3, (1, 4)).astype(rtype)])
  w.add("complex_%s_broadcast_rank" % tag, make,
        [rng.uniform(-3, 3, (2, 3, 4)).astype(rtype), rng.uniform(-3, 3, (4,)).astype(rtype)])
  w.add("complex_%s_special" % tag, make,
        [np.array([np.nan, np.inf, -0.0, 1], rtype), np.array([-np.inf, np.nan, -0.0, 0], rtype)])
  w.add("complex_%s_empty" % tag, make,
        [np.zeros((0, 3), rtype), np.zeros((1, 3), rtype)])
  message = "Incompatible shapes: [2,3] vs. [4]"
  code = w.add("err_complex_%s_incompatible" % tag, make,
               [np.ones((2, 3), rtype), np.ones((4,), rtype)], error_substr=message)
  assert code == 3 and _quote(message)[1:-1] in w._cases[-1]  # pylint: disable=protected-access

w.write()
