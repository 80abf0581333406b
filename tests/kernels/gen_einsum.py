"""Writes fixtures/einsum.pbtxt: Einsum in TensorFlow, replayed through
kernels/cpu/linalg:einsum_op.

Run from anywhere: python3 tests/kernels/gen_einsum.py (needs TensorFlow 2.x and numpy).

Covers the batched products of attention and dense layers (Keras 3's MultiHeadAttention and
EinsumDense forms among them), transposes, diagonals, labels summed out of one input,
outer products, the ellipsis with broadcasting, repeated output labels, scalars, empty dims,
NaN and infinities, every dtype TensorFlow registers on CPU, and the shapes the kernel
rejects at run time.

Tolerances (|got - want| <= atol + rtol * |want|), per element type:
  float32, complex64    rtol 1e-5, atol 1e-5 (oneDNN and TensorFlow sum in different orders)
  float64, complex128   rtol 1e-12, atol 1e-12
  float16               rtol 1e-2, atol 1e-2 (both compute in float and round once)
  bfloat16              rtol 2e-2, atol 2e-2
  int32, int64          exact
Not recorded here:
  - Malformed equations (no "->", three inputs, a label only in the output, stray periods)
    and an N that does not match the equation: TensorFlow's shape function rejects them
    while the graph is built, so no run can be recorded. graph/ops/math_ops_test.cc and
    kernels/cpu/linalg/einsum_plan_test.cc check them.
  - A named label of size 0 in one input and n in the other ("ij,jk->ik" on [2,0] and
    [5,3]): TensorFlow 2.21 takes the 0 as "not seen yet" and returns zeros of shape [2,3],
    but rejects the same inputs swapped. Sluice rejects both (INVALID_ARGUMENT, the sizes
    of 'j' disagree); einsum_plan_test checks it.
  - More than 6 distinct labels in an input that repeats a label: TensorFlow answers
    UNIMPLEMENTED; Sluice computes it (einsum_op_test checks the value).
"""
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

rng = np.random.default_rng(5)
w = CaseWriter("einsum")

BF16 = tf.bfloat16.as_numpy_dtype
TOL = {
    np.dtype(np.float32): (1e-5, 1e-5),
    np.dtype(np.float64): (1e-12, 1e-12),
    np.dtype(np.float16): (1e-2, 1e-2),
    np.dtype(BF16): (2e-2, 2e-2),
    np.dtype(np.complex64): (1e-5, 1e-5),
    np.dtype(np.complex128): (1e-12, 1e-12),
}
DTYPES = [np.float32, np.float64, np.float16, BF16, np.int32, np.int64, np.complex64,
          np.complex128]


def name_of(dtype):
  return {np.dtype(BF16): "bf16", np.dtype(np.float16): "f16", np.dtype(np.float32): "f32",
          np.dtype(np.float64): "f64", np.dtype(np.complex64): "c64",
          np.dtype(np.complex128): "c128"}.get(np.dtype(dtype), np.dtype(dtype).name)


def values(shape, dtype):
  dtype = np.dtype(dtype)
  if np.issubdtype(dtype, np.integer):
    return rng.integers(-5, 6, shape).astype(dtype)
  if np.issubdtype(dtype, np.complexfloating):
    return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)
  return rng.uniform(-1, 1, shape).astype(np.float32).astype(dtype)


def einsum(equation):
  return lambda *xs: tf.raw_ops.Einsum(inputs=list(xs), equation=equation)


def add(name, equation, inputs, **kw):
  dtype = np.dtype(inputs[0].dtype)
  if dtype in TOL and "rtol" not in kw and "error_substr" not in kw:
    rtol, atol = TOL[dtype]
    kw.update(rtol=rtol, atol=atol)
  w.add(name, einsum(equation), inputs, **kw)


def slug(equation):
  return (equation.replace("...", "E").replace("->", "_to_").replace(",", "_")
          or "empty")


# ---- Every form, in float32 ---------------------------------------------------------------
FORMS = [
    # Batched products: attention scores and weighted values, dense layers.
    ("bij,bjk->bik", [(3, 2, 4), (3, 4, 5)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("bhqk,bhkd->bhqd", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    # Keras 3 MultiHeadAttention and EinsumDense.
    ("aecd,abcd->acbe", [(2, 5, 3, 4), (2, 6, 3, 4)]),
    ("acbe,aecd->abcd", [(2, 3, 6, 5), (2, 5, 3, 4)]),
    ("abc,cde->abde", [(2, 3, 4), (4, 5, 6)]),
    ("abcd,cde->abe", [(2, 3, 4, 5), (4, 5, 6)]),
    # Matrix products in every transposition, and the result transposed.
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ji,kj->ki", [(4, 3), (5, 4)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("bij,bjk->kib", [(3, 2, 4), (3, 4, 5)]),
    # Elementwise, inner and outer products, matrix-vector.
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij,j->i", [(3, 4), (4,)]),
    # Labels contracted together with batch labels, labels summed out of one input.
    ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]),
    ("ijk,jl->il", [(2, 3, 4), (3, 5)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    # Ellipsis: broadcasting, in the middle, only in some subscripts.
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (5, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 3), (3, 4)]),
    ("...ij,jk->...ik", [(2, 3, 2, 3), (3, 4)]),
    ("b...,b...->...b", [(2, 3, 1), (2, 1, 4)]),
    ("...,...->...", [(2, 3), (3,)]),
    ("i...j,j...k->...ik", [(2, 3, 4), (4, 3, 5)]),
    ("ij->...ij", [(2, 3)]),
    ("...ij->...ji", [(2, 2, 3, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("a...->...", [(3, 2, 2)]),
    # One input: transposes, diagonals, sums.
    ("ij->ji", [(3, 4)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ij->ij", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii->", [(4, 4)]),
    ("iij->ji", [(3, 3, 2)]),
    ("iii->i", [(3, 3, 3)]),
    ("ij->", [(3, 4)]),
    ("ijk->ik", [(2, 3, 4)]),
    # Repeated output labels: the result on a diagonal, zeros elsewhere.
    ("i->ii", [(3,)]),
    ("ij->jji", [(2, 3)]),
    ("ij,jk->ikk", [(2, 3), (3, 2)]),
    # Any character is a label.
    ("AB->BA", [(2, 3)]),
    # Scalars.
    ("->", [()]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
]

for equation, shapes in FORMS:
  name = "einsum_%s_%s" % (slug(equation), "x".join(
      "_".join(str(d) for d in s) or "s" for s in shapes))
  add(name, equation, [values(s, np.float32) for s in shapes])

# ---- Every dtype ---------------------------------------------------------------------------
for dtype in DTYPES:
  for equation, shapes in [("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
                           ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
                           ("...ij,...jk->...ik", [(2, 1, 2, 3), (4, 3, 2)]),
                           ("aecd,abcd->acbe", [(2, 3, 2, 4), (2, 5, 2, 4)]),
                           ("ij->ji", [(3, 4)]),
                           ("ii->i", [(3, 3)]),
                           ("ijk->ik", [(2, 3, 4)]),
                           ("i->ii", [(3,)])]:
    add("einsum_%s_%s" % (slug(equation), name_of(dtype)), equation,
        [values(s, dtype) for s in shapes])

# ---- Larger shapes (oneDNN's blocked kernels, the pool) ----------------------------------
for equation, shapes in [("bhqd,bhkd->bhqk", [(2, 4, 32, 16), (2, 4, 24, 16)]),
                         ("bhqk,bhkd->bhqd", [(2, 4, 32, 24), (2, 4, 24, 16)]),
                         ("abc,cd->abd", [(4, 20, 48), (48, 40)]),
                         ("aecd,abcd->acbe", [(2, 20, 4, 16), (2, 24, 4, 16)])]:
  add("einsum_large_%s" % slug(equation), equation, [values(s, np.float32) for s in shapes])

# ---- Empty dims ----------------------------------------------------------------------------
add("einsum_empty_contraction", "ij,jk->ik",
    [np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)])
add("einsum_empty_free", "ij,jk->ik", [np.zeros((0, 2), np.float32), values((2, 3), np.float32)])
add("einsum_empty_batch", "bij,bjk->bik",
    [np.zeros((0, 2, 3), np.float32), np.zeros((0, 3, 4), np.float32)])
add("einsum_empty_sum", "ij->i", [np.zeros((3, 0), np.float64)])
add("einsum_empty_transpose", "ijk->kji", [np.zeros((1, 0, 5), np.int32)])
add("einsum_empty_ellipsis_broadcast", "...i,...i->...",
    [np.zeros((0, 2), np.float32), values((1, 2), np.float32)])
add("einsum_empty_diagonal", "ii->i", [np.zeros((0, 0), np.float32)])

# ---- NaN and infinities ----------------------------------------------------------------------
special = np.array([[np.nan, 1.0, 2.0], [np.inf, -1.0, 0.5], [1.0, 2.0, -np.inf]], np.float32)
add("einsum_nonfinite_product", "ij,jk->ik", [special, values((3, 2), np.float32)])
add("einsum_nonfinite_transpose", "ij->ji", [special])
add("einsum_nonfinite_sum", "ij->i", [special])

# ---- Shapes the kernel rejects -------------------------------------------------------------
f = lambda *s: values(s, np.float32)
ERRORS = [
    ("mismatched_contraction", "ij,jk->ik", [f(2, 3), f(4, 3)],
     "Expected dimension 3 at axis 0 of the input shaped [4,3] but got dimension 4"),
    ("mismatched_batch", "bij,bjk->bik", [f(2, 2, 3), f(3, 3, 2)], "Expected dimension 2"),
    ("named_label_no_broadcast", "bij,bjk->bik", [f(1, 2, 3), f(4, 3, 2)],
     "Expected dimension 1"),
    ("mismatched_diagonal", "ii->i", [f(2, 3)],
     "Expected dimension 2 at axis 1 of the input shaped [2,3] but got dimension 3"),
    ("rank_too_low", "ijk->", [f(2, 3)], "Expected input 0 to have rank 3 but got: 2"),
    ("rank_too_high", "ij,jk->ik", [f(2, 3, 1), f(3, 2)],
     "Expected input 0 to have rank 2 but got: 3"),
    ("ellipsis_rank_too_low", "...ijk->...", [f(2, 3)],
     "Expected input 0 to have rank at least 3 but got: 2"),
    ("ellipsis_missing_in_output", "...ij->ij", [f(4, 2, 3)],
     "Output contains 1 broadcasting dimension(s) but no ellipsis (...) was found in the "
     "output subscripts."),
    ("ellipsis_missing_in_output_2", "...ij,jk->ik", [f(5, 2, 3), f(3, 2)],
     "broadcasting dimension(s) but no ellipsis"),
    ("ellipsis_no_broadcast", "...ij,...jk->...ik", [f(2, 2, 3), f(5, 3, 4)],
     "Invalid broadcasting dimensions"),
]
for name, equation, inputs, message in ERRORS:
  code = w.add("einsum_error_%s" % name, einsum(equation), inputs, error_substr=message)
  assert code == 3, (name, code)  # INVALID_ARGUMENT

w.write()
