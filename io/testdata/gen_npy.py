"""Writes the .npy files io/npy_test.cc reads: numpy's own encodings of small arrays.

Run from the repository root: python3 io/testdata/gen_npy.py (deterministic: no randomness).
Values are np.arange(n) in the named dtype, so the test can recompute them.
"""
import os

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))


def save(name, array, version=None):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=True)


def main():
    save("f32_2x3_v1.npy", np.arange(6, dtype=np.float32).reshape(2, 3), (1, 0))
    save("i64_4_v2.npy", np.arange(4, dtype=np.int64) - 2, (2, 0))
    save("bool_3_v3.npy", np.array([True, False, True]), (3, 0))
    save("f64_big_endian.npy", np.arange(3, dtype=">f8"))
    save("c64_big_endian.npy", (np.arange(2) + 1j * np.arange(2)).astype(">c8"))
    save("f16_2.npy", np.arange(2, dtype=np.float16))
    save("u16_scalar.npy", np.array(7, dtype=np.uint16))
    save("i32_0x3.npy", np.zeros((0, 3), dtype=np.int32))
    save("f32_fortran.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    save("object.npy", np.array([1, "a"], dtype=object))
    save("unicode.npy", np.array(["ab", "c"]))


if __name__ == "__main__":
    main()
