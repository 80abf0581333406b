"""Writes fixtures/spectral.pbtxt: FFT, IFFT, RFFT, IRFFT (1-D, 2-D, 3-D) and BroadcastArgs.

Run from anywhere: python3 tests/kernels/gen_spectral.py (needs TensorFlow 2.x and numpy).

Tolerance: TensorFlow's transforms (DUCC) and Sluice's (Eigen's KissFFT) round differently,
so outputs are compared with rtol 1e-5 and an atol of 1e-5 of the largest output magnitude
(the error of an FFT grows with the size of its outputs, not of each element) for complex64
and float32; 1e-12 for complex128 and float64. BroadcastArgs is exact.

Left out, because TensorFlow's answer is not one to match:
  - a zero fft_length with a non-empty input: TensorFlow's FFT library aborts the process
    (Sluice returns the empty output; kernels/cpu/spectral/fft_ops_test.cc checks it);
  - an empty transformed input dim with a positive fft_length (the output is the
    transform of nothing, zeros in Sluice; TensorFlow leaves the buffer as allocated);
    fft_ops_test.cc checks Sluice's zeros;
  - non-finite inputs: which outputs an infinity or NaN reaches (and whether inf - inf makes
    a NaN there) depends on the order of the FFT's butterflies, which differs between
    DUCC and KissFFT (DUCC keeps some parts finite that a plain DFT makes NaN).
error_substr is checked here against TensorFlow's message.
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261209)
w = CaseWriter("spectral")

COMPLEX_OF = {np.float32: np.complex64, np.float64: np.complex128}
REAL_OF = {np.complex64: np.float32, np.complex128: np.float64}
TF_TYPE = {np.float32: tf.float32, np.float64: tf.float64, np.complex64: tf.complex64,
           np.complex128: tf.complex128}


def tolerance(dtype, reference):
  """rtol and atol for outputs like `reference` (a numpy estimate of them)."""
  wide = np.dtype(dtype) in (np.dtype(np.float64), np.dtype(np.complex128))
  eps = 1e-12 if wide else 1e-5
  scale = float(np.max(np.abs(reference))) if np.size(reference) else 1.0
  return dict(rtol=eps, atol=eps * max(scale, 1.0))


def real_values(shape, dtype):
  return rng.uniform(-1, 1, shape).astype(dtype)


def complex_values(shape, dtype):
  return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)


def fft_op(name):
  op = getattr(R, name)
  return lambda x: op(input=x)


def rfft_op(name, treal, tcomplex):
  """The op on (input, fft_length); Treal (RFFT) or Tcomplex (IRFFT) comes from the input."""
  op = getattr(R, name)
  if name.startswith("RFFT"):
    return lambda x, n: op(input=x, fft_length=n, Tcomplex=tcomplex)
  return lambda x, n: op(input=x, fft_length=n, Treal=treal)


NUMPY_FFT = {"FFT": (np.fft.fftn, 1), "IFFT": (np.fft.ifftn, 1), "FFT2D": (np.fft.fftn, 2),
             "IFFT2D": (np.fft.ifftn, 2), "FFT3D": (np.fft.fftn, 3), "IFFT3D": (np.fft.ifftn, 3)}


def add_complex(name, op, x):
  fn, rank = NUMPY_FFT[op]
  ref = fn(x, axes=tuple(range(-rank, 0))) if x.size else x
  w.add(name, fft_op(op), [x], **tolerance(x.dtype, ref))


def add_real(name, op, x, lengths, treal=None, tcomplex=None):
  lengths = np.array(lengths, np.int32)
  rank = len(lengths)
  if op.startswith("RFFT"):
    treal = treal or TF_TYPE[x.dtype.type]
    tcomplex = tcomplex or TF_TYPE[COMPLEX_OF[x.dtype.type]]
    crop = x[(Ellipsis,) + tuple(slice(0, n) for n in lengths)]
    ref = np.fft.rfftn(crop, axes=tuple(range(-rank, 0))) if crop.size else crop
    out_dtype = COMPLEX_OF[x.dtype.type]
  else:
    treal = treal or TF_TYPE[REAL_OF[x.dtype.type]]
    tcomplex = tcomplex or TF_TYPE[x.dtype.type]
    crop = x[(Ellipsis,) + tuple(slice(0, n) for n in lengths[:-1]) +
             (slice(0, lengths[-1] // 2 + 1),)]
    ref = (np.fft.irfftn(crop, s=lengths, axes=tuple(range(-rank, 0)))
           if crop.size and lengths.all() else crop)
    out_dtype = REAL_OF[x.dtype.type]
  w.add(name, rfft_op(op, treal, tcomplex), [x, lengths], **tolerance(out_dtype, ref))


# ---- FFT / IFFT, complex to complex --------------------------------------------------------
for ctype, tag in ((np.complex64, "c64"), (np.complex128, "c128")):
  for n in (1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 30, 64):
    add_complex("fft_%s_%d" % (tag, n), "FFT", complex_values((n,), ctype))
    add_complex("ifft_%s_%d" % (tag, n), "IFFT", complex_values((n,), ctype))
  add_complex("fft_%s_batch" % tag, "FFT", complex_values((2, 3, 10), ctype))
  add_complex("ifft_%s_batch" % tag, "IFFT", complex_values((4, 9), ctype))
  add_complex("fft2d_%s" % tag, "FFT2D", complex_values((6, 5), ctype))
  add_complex("ifft2d_%s" % tag, "IFFT2D", complex_values((2, 4, 6), ctype))
  add_complex("fft3d_%s" % tag, "FFT3D", complex_values((3, 4, 5), ctype))
  add_complex("ifft3d_%s" % tag, "IFFT3D", complex_values((2, 2, 3, 8), ctype))
add_complex("fft_empty_batch", "FFT", np.zeros((0, 4), np.complex64))
add_complex("fft_empty_inner", "FFT", np.zeros((3, 0), np.complex64))
add_complex("fft2d_empty", "FFT2D", np.zeros((2, 0, 3), np.complex128))

# ---- RFFT / IRFFT, real to half spectrum and back ------------------------------------------
for rtype, tag in ((np.float32, "f32"), (np.float64, "f64")):
  for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 31, 32, 64, 100):
    add_real("rfft_%s_%d" % (tag, n), "RFFT", real_values((n,), rtype), [n])
    spectrum = complex_values((n // 2 + 1,), COMPLEX_OF[rtype])
    add_real("irfft_%s_%d" % (tag, n), "IRFFT", spectrum, [n])
  # Cropping: the input is longer than fft_length.
  add_real("rfft_%s_crop" % tag, "RFFT", real_values((3, 20), rtype), [12])
  add_real("rfft_%s_crop_odd" % tag, "RFFT", real_values((2, 2, 11), rtype), [7])
  add_real("irfft_%s_crop" % tag, "IRFFT", complex_values((3, 9), COMPLEX_OF[rtype]), [8])
  add_real("irfft_%s_crop_odd" % tag, "IRFFT", complex_values((2, 9), COMPLEX_OF[rtype]), [5])
  # A Hermitian spectrum (the RFFT of real points) comes back exactly as those points.
  add_real("irfft_%s_roundtrip" % tag, "IRFFT",
           np.fft.rfft(rng.uniform(-1, 1, (2, 16))).astype(COMPLEX_OF[rtype]), [16])
  add_real("rfft2d_%s" % tag, "RFFT2D", real_values((2, 6, 8), rtype), [6, 8])
  add_real("rfft2d_%s_crop" % tag, "RFFT2D", real_values((5, 9), rtype), [3, 7])
  add_real("irfft2d_%s" % tag, "IRFFT2D", complex_values((2, 6, 5), COMPLEX_OF[rtype]), [6, 8])
  add_real("irfft2d_%s_crop" % tag, "IRFFT2D", complex_values((5, 9), COMPLEX_OF[rtype]), [3, 7])
  add_real("rfft3d_%s" % tag, "RFFT3D", real_values((3, 4, 6), rtype), [3, 4, 6])
  add_real("rfft3d_%s_crop" % tag, "RFFT3D", real_values((2, 4, 5, 7), rtype), [3, 2, 5])
  add_real("irfft3d_%s" % tag, "IRFFT3D", complex_values((3, 4, 4), COMPLEX_OF[rtype]), [3, 4, 6])
  add_real("irfft3d_%s_crop" % tag, "IRFFT3D", complex_values((2, 4, 5, 7), COMPLEX_OF[rtype]),
           [3, 2, 9])
# The frames of Keras's MelSpectrogram: windowed frames of 32 points.
add_real("rfft_stft_frames", "RFFT", real_values((2, 8, 32), np.float32), [32])
add_real("rfft_length_1_of_many", "RFFT", real_values((3, 5), np.float32), [1])
add_real("irfft_length_1", "IRFFT", complex_values((2, 3), np.complex64), [1])
add_real("irfft_length_2", "IRFFT", complex_values((2, 3), np.complex64), [2])
add_real("rfft_empty_batch", "RFFT", np.zeros((0, 8), np.float32), [8])
add_real("irfft_empty_batch", "IRFFT", np.zeros((0, 5), np.complex64), [8])
add_real("rfft2d_empty_batch", "RFFT2D", np.zeros((0, 4, 8), np.float64), [4, 8])

# ---- Errors --------------------------------------------------------------------------------
ERRORS = [
    ("err_fft_scalar", fft_op("FFT"), [np.complex64(1)], "Input must have rank of at least 1"),
    ("err_fft2d_vector", fft_op("FFT2D"), [np.ones(4, np.complex64)],
     "Input must have rank of at least 2 but got: [4]"),
    ("err_ifft3d_matrix", fft_op("IFFT3D"), [np.ones((2, 2), np.complex128)],
     "Input must have rank of at least 3"),
    ("err_rfft_scalar", rfft_op("RFFT", tf.float32, tf.complex64),
     [np.float32(1), np.array([1], np.int32)], "Input must have rank of at least 1"),
    ("err_rfft_length_shape", rfft_op("RFFT", tf.float32, tf.complex64),
     [np.ones(8, np.float32), np.array([4, 4], np.int32)], "fft_length must have shape [1]"),
    ("err_rfft_length_scalar", rfft_op("RFFT", tf.float32, tf.complex64),
     [np.ones(8, np.float32), np.array(4, np.int32)], "fft_length must have shape [1]"),
    ("err_rfft2d_length_shape", rfft_op("RFFT2D", tf.float32, tf.complex64),
     [np.ones((4, 4), np.float32), np.array([4], np.int32)], "fft_length must have shape [2]"),
    ("err_rfft_negative", rfft_op("RFFT", tf.float32, tf.complex64),
     [np.ones(8, np.float32), np.array([-2], np.int32)], "fft_length[0] must >= 0, but got: -2"),
    ("err_irfft2d_negative", rfft_op("IRFFT2D", tf.float32, tf.complex64),
     [np.ones((4, 4), np.complex64), np.array([4, -1], np.int32)],
     "fft_length[1] must >= 0, but got: -1"),
    ("err_rfft_too_short", rfft_op("RFFT", tf.float32, tf.complex64),
     [np.ones((2, 8), np.float32), np.array([12], np.int32)],
     "Input dimension 1 must have length of at least 12 but got: 8"),
    ("err_irfft_too_short", rfft_op("IRFFT", tf.float32, tf.complex64),
     [np.ones(5, np.complex64), np.array([12], np.int32)],
     "Input dimension 0 must have length of at least 7 but got: 5"),
    ("err_rfft2d_outer_too_short", rfft_op("RFFT2D", tf.float32, tf.complex64),
     [np.ones((3, 8), np.float32), np.array([4, 8], np.int32)],
     "Input dimension 0 must have length of at least 4 but got: 3"),
    ("err_irfft3d_too_short", rfft_op("IRFFT3D", tf.float64, tf.complex128),
     [np.ones((2, 3, 4), np.complex128), np.array([2, 3, 8], np.int32)],
     "Input dimension 2 must have length of at least 5 but got: 4"),
    ("err_rfft_types", rfft_op("RFFT", tf.float32, tf.complex128),
     [np.ones(8, np.float32), np.array([8], np.int32)],
     "Wrong types for forward real FFT: in=1 out=18"),
    ("err_rfft_types_double", rfft_op("RFFT", tf.float64, tf.complex64),
     [np.ones(8, np.float64), np.array([8], np.int32)],
     "Wrong types for forward real FFT: in=2 out=8"),
    ("err_irfft_types", rfft_op("IRFFT", tf.float64, tf.complex64),
     [np.ones(5, np.complex64), np.array([8], np.int32)],
     "Wrong types for backward real FFT: in=8 out=2"),
]
for name, build, inputs, message in ERRORS:
  code = w.add(name, build, inputs, error_substr=message)
  assert code == 3 and _quote(message)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access


# ---- BroadcastArgs -------------------------------------------------------------------------
def broadcast_args(s0, s1):
  return R.BroadcastArgs(s0=s0, s1=s1)


for itype in (np.int32, np.int64):
  tag = np.dtype(itype).name
  w.add("broadcast_args_%s" % tag, broadcast_args,
        [np.array([2, 1, 3], itype), np.array([4, 1], itype)])
  w.add("broadcast_args_%s_same" % tag, broadcast_args,
        [np.array([5, 6], itype), np.array([5, 6], itype)])
w.add("broadcast_args_empty", broadcast_args,
      [np.zeros(0, np.int32), np.array([4, 1], np.int32)])
w.add("broadcast_args_both_empty", broadcast_args,
      [np.zeros(0, np.int64), np.zeros(0, np.int64)])
w.add("broadcast_args_zero_size", broadcast_args,
      [np.array([0, 1], np.int32), np.array([1, 5], np.int32)])
w.add("broadcast_args_ones", broadcast_args,
      [np.array([1, 1, 1], np.int32), np.array([1], np.int32)])
w.add("broadcast_args_negative", broadcast_args,
      [np.array([-1, 3], np.int32), np.array([1], np.int32)])
w.add("broadcast_args_large", broadcast_args,
      [np.array([2 ** 40, 1], np.int64), np.array([1, 2 ** 40], np.int64)])
BA_ERRORS = [
    ("err_broadcast_args_incompatible", [np.array([2, 3], np.int32), np.array([4], np.int32)],
     "Incompatible shapes: [2,3] vs. [4]"),
    ("err_broadcast_args_zero_vs_three", [np.array([0], np.int64), np.array([3], np.int64)],
     "Incompatible shapes: [0] vs. [3]"),
    ("err_broadcast_args_scalar", [np.int32(3), np.array([4], np.int32)],
     "In[0] must be a vector.[]"),
    ("err_broadcast_args_matrix", [np.array([3], np.int32), np.ones((1, 1), np.int32)],
     "In[1] must be a vector.[1,1]"),
]
for name, inputs, message in BA_ERRORS:
  code = w.add(name, broadcast_args, inputs, error_substr=message)
  assert code == 3 and _quote(message)[1:-1] in w._cases[-1], name  # pylint: disable=protected-access

w.write()
