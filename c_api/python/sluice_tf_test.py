"""Tests of sluice_tf (the ctypes binding) against libtensorflow.so.2.

Usage: sluice_tf_test.py LIBRARY MODEL_DIR (Bazel's sh_test passes both).
"""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sluice_tf  # noqa: E402

LIBRARY = None
MODEL_DIR = None


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number, payload):
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _node(name, op, inputs=(), dtype=None):
    """A serialized NodeDef; dtype (a DataType number) sets attr "dtype" or "T"."""
    body = _field(1, name.encode()) + _field(2, op.encode())
    for source in inputs:
        body += _field(3, source.encode())
    if dtype is not None:
        key = "dtype" if op == "Placeholder" else "T"
        attr_value = _varint(6 << 3) + _varint(dtype)  # AttrValue.type = 6
        body += _field(5, _field(1, key.encode()) + _field(2, attr_value))
    return body


def _int_const(name, values):
    """A serialized Const NodeDef holding the int32 vector `values`."""
    shape = _field(2, _varint(1 << 3) + _varint(len(values)))  # TensorShapeProto.dim.size
    packed = b"".join(_varint(v) for v in values)
    tensor = _varint(1 << 3) + _varint(3) + _field(2, shape) + _field(7, packed)
    dtype = _field(1, b"dtype") + _field(2, _varint(6 << 3) + _varint(3))
    value = _field(1, b"value") + _field(2, _field(8, tensor))
    return _field(1, name.encode()) + _field(2, b"Const") + _field(5, dtype) + _field(5, value)


def _graph(*nodes):
    return b"".join(_field(1, n) for n in nodes)


class BindingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = sluice_tf.Library(LIBRARY)

    def test_version(self):
        self.assertEqual(self.lib.version(), "2.21.0")

    def test_frozen_model_matches_tensorflow(self):
        with open(os.path.join(MODEL_DIR, "digits_cnn.pb"), "rb") as f:
            graph = self.lib.import_graph_def(f.read())
        images = np.load(os.path.join(MODEL_DIR, "test_images.npy"))[:16]
        expected = np.load(os.path.join(MODEL_DIR, "tf_probabilities.npy"))[:16]
        with self.lib.session(graph) as session:
            (probabilities,) = session.run({"images": images}, ["probabilities"])
        graph.close()
        self.assertEqual(probabilities.dtype, np.float32)
        self.assertEqual(probabilities.shape, (16, 10))
        np.testing.assert_allclose(probabilities, expected, atol=1e-5)

    def test_strings_round_trip(self):
        graph = self.lib.import_graph_def(
            _graph(_node("s", "Placeholder", dtype=7), _node("out", "Identity", ["s"], dtype=7)))
        values = np.array([[b"", b"short"], [b"x" * 100, b"\x00bytes\xff"]], dtype=object)
        with self.lib.session(graph) as session:
            (got,) = session.run({"s": values}, ["out"])
        graph.close()
        self.assertEqual(got.shape, (2, 2))
        self.assertEqual(got.tolist(), values.tolist())

    def test_callables_run_a_step_made_once(self):
        graph = self.lib.import_graph_def(
            _graph(_node("x", "Placeholder", dtype=1), _node("y", "Neg", ["x"], dtype=1),
                   _node("z", "Square", ["x"], dtype=1)))
        with self.lib.session(graph) as session:
            step = session.make_callable(["x"], ["y", "z:0"])
            for scale in (1.0, -2.5):
                x = np.arange(6, dtype=np.float32).reshape(2, 3) * scale
                y, z = step(x)
                np.testing.assert_array_equal(y, -x)
                np.testing.assert_array_equal(z, x * x)
            with self.assertRaises(sluice_tf.TFError) as caught:
                step()  # one feed expected
            self.assertEqual(caught.exception.code_name, "INVALID_ARGUMENT")
            step.release()
            with self.assertRaises(sluice_tf.TFError) as caught:
                step(np.ones(1, np.float32))
            self.assertIn("released", caught.exception.message)
        graph.close()

    def test_gradients_added_to_an_imported_graph(self):
        # z = x * x + Neg(x): dz/dx = 2x - 1; the seed dz scales it.
        graph = self.lib.import_graph_def(
            _graph(_node("x", "Placeholder", dtype=1), _node("seed", "Placeholder", dtype=1),
                   _node("sq", "Square", ["x"], dtype=1), _node("neg", "Neg", ["x"], dtype=1),
                   _node("z", "AddV2", ["sq", "neg"], dtype=1)))
        (dx,) = graph.add_gradients(["z"], ["x"])
        self.assertTrue(dx.startswith("gradients/"), dx)
        (seeded,) = graph.add_gradients(["z"], ["x"], dys=["seed"], prefix="seeded")
        self.assertTrue(seeded.startswith("seeded/"), seeded)
        x = np.array([0.5, -2.0, 3.0], np.float32)
        with self.lib.session(graph) as session:
            got, got_seeded = session.run({"x": x, "seed": np.full(3, 2.0, np.float32)},
                                          [dx, seeded])
        np.testing.assert_array_equal(got, 2 * x - 1)
        np.testing.assert_array_equal(got_seeded, 2 * (2 * x - 1))
        with self.assertRaises(sluice_tf.TFError) as caught:
            graph.add_gradients(["z"], ["seed"])  # z does not depend on seed
        self.assertEqual(caught.exception.code_name, "INVALID_ARGUMENT")
        graph.close()

    def test_constants_evaluated_in_the_graph(self):
        graph = self.lib.import_graph_def(
            _graph(_int_const("a", [1, 2, 3]), _int_const("b", [10, 20, 30]),
                   _node("sum", "AddV2", ["a", "b"], dtype=3),
                   _node("x", "Placeholder", dtype=3),
                   _node("fed", "AddV2", ["x", "a"], dtype=3)))
        np.testing.assert_array_equal(graph.try_evaluate_constant("sum"), [11, 22, 33])
        self.assertIsNone(graph.try_evaluate_constant("fed"))
        with self.assertRaises(sluice_tf.TFError) as caught:
            graph.try_evaluate_constant("sum:4")
        self.assertEqual(caught.exception.code_name, "OUT_OF_RANGE")
        graph.close()

    def test_errors_carry_the_code(self):
        with self.assertRaises(sluice_tf.TFError) as caught:
            self.lib.import_graph_def(b"\xff\xff\xff")
        self.assertEqual(caught.exception.code_name, "INVALID_ARGUMENT")
        graph = self.lib.import_graph_def(
            _graph(_node("x", "Placeholder", dtype=1), _node("y", "Neg", ["x"], dtype=1)))
        with self.lib.session(graph) as session:
            with self.assertRaises(sluice_tf.TFError) as caught:
                session.run({"x": np.array([1, 2], dtype=np.int32)}, ["y"])
            self.assertEqual(caught.exception.code, 3)
            with self.assertRaises(sluice_tf.TFError) as caught:
                session.run({}, ["y"])  # x not fed
            self.assertEqual(caught.exception.code_name, "INVALID_ARGUMENT")
            with self.assertRaises(sluice_tf.TFError) as caught:
                session.run({"x": np.ones(2, np.float32)}, ["y:3"])
            self.assertEqual(caught.exception.code_name, "OUT_OF_RANGE")
            # The session is still usable after errors.
            (y,) = session.run({"x": np.array([1.5, -2], dtype=np.float32)}, ["y"])
            np.testing.assert_array_equal(y, [-1.5, 2])
        graph.close()


if __name__ == "__main__":
    LIBRARY, MODEL_DIR = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
