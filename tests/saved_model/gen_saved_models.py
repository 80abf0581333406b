"""Writes the SavedModels of //tests/saved_model with TensorFlow, and what TensorFlow computes.

Run from the repository root: python3 tests/saved_model/gen_saved_models.py
Each model goes to tests/saved_model/models/<name>/ (TensorFlow's own directory layout) and,
beside it, <name>.expected.pbtxt: a GraphDef of Const nodes, one per recorded tensor, named
"input/<signature>/<key>" for the values fed and "output/<signature>/<key>" for what
TensorFlow's loaded model returned. The tests load each model in Sluice, feed the inputs
through the signature and compare with the outputs.
"""
import os
import shutil

import numpy as np
import tensorflow as tf
from google.protobuf import text_format

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")


def fresh(name):
    path = os.path.join(MODELS, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def record(name, cases):
    """cases: [(signature, {key: input ndarray}, {key: output ndarray})]."""
    graph = tf.compat.v1.GraphDef()
    for signature, inputs, outputs in cases:
        for prefix, values in (("input", inputs), ("output", outputs)):
            for key in sorted(values):
                node = graph.node.add(name=f"{prefix}/{signature}/{key}", op="Const")
                value = np.asarray(values[key])
                dtype = tf.string if value.dtype == object else tf.as_dtype(value.dtype)
                node.attr["dtype"].type = dtype.as_datatype_enum
                node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value))
    with open(os.path.join(MODELS, name + ".expected.pbtxt"), "w") as f:
        f.write(text_format.MessageToString(graph))


def run_loaded(path, tags, signature, inputs):
    """Runs `signature` of the SavedModel at `path` through TensorFlow's C++ loader (a TF1
    session over the MetaGraphDef, as TF_LoadSessionFromSavedModel does)."""
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, tags, path)
        sig = meta.signature_def[signature]
        feeds = {sig.inputs[k].name: v for k, v in inputs.items()}
        names = sorted(sig.outputs)
        values = sess.run([sig.outputs[k].name for k in names], feeds)
        return dict(zip(names, values))


class Dense(tf.Module):
    """A TF2 module: two resource variables, two signatures."""

    def __init__(self):
        rng = np.random.default_rng(7)
        self.w = tf.Variable(rng.standard_normal((3, 2)).astype(np.float32), name="w")
        self.b = tf.Variable(np.array([0.5, -0.25], np.float32), name="b")
        self.steps = tf.Variable(np.int64(41), name="steps")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b), "steps": self.steps + 1}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="v")])
    def scale(self, v):
        return {"scaled": v * tf.reduce_sum(self.w)}


def tf2_dense():
    path = fresh("tf2_dense")
    module = Dense()
    tf.saved_model.save(module, path, signatures={
        "serving_default": module.__call__, "scale": module.scale})
    x = np.array([[1, 2, 3], [-1, 0.5, 2], [0, 0, 0]], np.float32)
    v = np.array([1, -2, 0.5, 4], np.float32)
    record("tf2_dense", [
        ("serving_default", {"x": x}, run_loaded(path, ["serve"], "serving_default", {"x": x})),
        ("scale", {"v": v}, run_loaded(path, ["serve"], "scale", {"v": v})),
    ])


def tf2_no_variables():
    path = fresh("tf2_no_variables")

    class Stateless(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float64)])
        def __call__(self, m):
            return {"inverse_sum": tf.reduce_sum(tf.linalg.inv(m)) + tf.constant(1.0, tf.float64)}

    tf.saved_model.save(Stateless(), path)
    m = np.array([[4, 7], [2, 6]], np.float64)
    record("tf2_no_variables", [
        ("serving_default", {"m": m},
         run_loaded(path, ["serve"], "serving_default", {"m": m}))])


def keras_mlp():
    path = fresh("keras_mlp")
    tf.keras.utils.set_random_seed(3)
    inputs = tf.keras.Input((4,), name="features")
    hidden = tf.keras.layers.Dense(8, activation="relu")(inputs)
    normed = tf.keras.layers.BatchNormalization()(hidden)
    outputs = tf.keras.layers.Dense(3, activation="softmax", name="probs")(normed)
    model = tf.keras.Model(inputs, outputs)
    # Give the batch norm non-trivial statistics, as a trained model has.
    bn = model.layers[2]
    bn.moving_mean.assign(np.linspace(-0.5, 0.5, 8).astype(np.float32))
    bn.moving_variance.assign(np.linspace(0.5, 2.0, 8).astype(np.float32))
    model.export(path)
    x = np.random.default_rng(5).standard_normal((5, 4)).astype(np.float32)
    meta = tf.compat.v1.saved_model.loader
    del meta
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        mg = tf.compat.v1.saved_model.loader.load(sess, ["serve"], path)
        key = sorted(mg.signature_def["serving_default"].inputs)[0]
    record("keras_mlp", [
        ("serving_default", {key: x},
         run_loaded(path, ["serve"], "serving_default", {key: x}))])


def tf1_builder():
    """A TF1 SavedModel: reference variables, a saver, a legacy init op fed with an asset's
    path, and three meta graphs with different tag sets."""
    path = fresh("tf1_builder")
    vocab = os.path.join(HERE, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("alpha\nbeta\n")
    builder = tf.compat.v1.saved_model.Builder(path)
    for tags, factor in ((["serve"], 2.0), (["train"], 3.0), (["serve", "gpu"], 5.0)):
        with tf.Graph().as_default() as graph:
            x = tf.compat.v1.placeholder(tf.float32, [None, 2], name="x")
            w = tf.compat.v1.Variable([[1.0, -1.0], [0.5, 2.0]], use_resource=False, name="w")
            counter = tf.compat.v1.Variable(10, use_resource=False, name="counter")
            asset_path = tf.constant(vocab, name="asset_path")
            tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.ASSET_FILEPATHS, asset_path)
            seen_asset = tf.compat.v1.Variable("", use_resource=False, name="seen_asset")
            # The init op runs after the restore: it records the asset's path it was fed and
            # moves the counter on, so the test sees that both ran in order.
            init = tf.group(tf.compat.v1.assign(seen_asset, asset_path),
                            tf.compat.v1.assign_add(counter, 5), name="init_op")
            y = tf.identity(tf.matmul(x, w) * factor, name="y")
            with tf.compat.v1.Session(graph=graph) as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                sess.run(w.assign([[1.5, -1.0], [0.25, 2.0]]))
                signature = tf.compat.v1.saved_model.predict_signature_def(
                    {"x": x}, {"y": y, "counter": counter.value(),
                               "seen_asset": seen_asset.value()})
                kwargs = dict(tags=tags, signature_def_map={"serving_default": signature},
                              assets_collection=tf.compat.v1.get_collection(
                                  tf.compat.v1.GraphKeys.ASSET_FILEPATHS),
                              legacy_init_op=init)
                if tags == ["serve"]:
                    builder.add_meta_graph_and_variables(sess, **kwargs)
                else:
                    builder.add_meta_graph(**kwargs)
    builder.save()
    os.remove(vocab)
    x = np.array([[1, 1], [2, -3]], np.float32)
    cases = []
    for tags, name in ((["serve"], "serve"), (["train"], "train"), (["serve", "gpu"], "gpu")):
        out = run_loaded(path, tags, "serving_default", {"x": x})
        # The asset path depends on where the model is loaded from: keep its file name.
        out["seen_asset"] = np.array(os.path.basename(out["seen_asset"].decode()).encode())
        cases.append((name, {"x": x}, out))
    record("tf1_builder", cases)


class Vocabulary(tf.Module):
    """A TF2 module with a table initialised from an asset file (a vocabulary) and a Keras
    StringLookup layer with an inline vocabulary: the init op fills both tables."""

    def __init__(self, vocab_path):
        self.vocab = tf.saved_model.Asset(vocab_path)
        initializer = tf.lookup.TextFileInitializer(
            self.vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
            tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
        self.table = tf.lookup.StaticHashTable(initializer, default_value=-1)
        self.lookup = tf.keras.layers.StringLookup(vocabulary=["red", "green", "blue"])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def __call__(self, words):
        return {"line": self.table.lookup(words), "index": self.lookup(words)}


def tf2_vocabulary():
    path = fresh("tf2_vocabulary")
    vocab = os.path.join(HERE, "colors.txt")
    with open(vocab, "w") as f:
        f.write("blue\nred\ngreen\nyellow\n")
    module = Vocabulary(vocab)
    tf.saved_model.save(module, path, signatures={"serving_default": module.__call__})
    os.remove(vocab)
    words = np.array([b"red", b"yellow", b"purple", b"blue", b""], dtype=object)
    record("tf2_vocabulary", [
        ("serving_default", {"words": words},
         run_loaded(path, ["serve"], "serving_default", {"words": words}))])


class Regression(tf.Module):
    """A TF2 module trained through a signature, as clients of the C API train SavedModels
    (the Rust crate's regression_savedmodel example): `train` differentiates the loss with a
    GradientTape and applies one gradient-descent step to the variables; `predict` reads them."""

    def __init__(self):
        self.w = tf.Variable(np.array([[0.5], [-0.25], [1.0]], np.float32), name="w")
        self.b = tf.Variable(np.array([0.1], np.float32), name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"),
                                  tf.TensorSpec([None, 1], tf.float32, name="y")])
    def train(self, x, y):
        with tf.GradientTape() as tape:
            error = tf.nn.tanh(tf.matmul(x, self.w) + self.b) - y
            loss = tf.reduce_mean(tf.square(error))
        dw, db = tape.gradient(loss, [self.w, self.b])
        self.w.assign_sub(0.5 * dw)
        self.b.assign_sub(0.5 * db)
        return {"loss": loss}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def predict(self, x):
        return {"y": tf.nn.tanh(tf.matmul(x, self.w) + self.b)}


def tf2_train_regression():
    """Three `train` runs, then `predict`, recorded in one TensorFlow session: each run sees
    the variables the previous one updated. The runs are named train.0, train.1, train.2 and
    predict."""
    path = fresh("tf2_train_regression")
    module = Regression()
    tf.saved_model.save(module, path, signatures={
        "serving_default": module.predict, "train": module.train})
    rng = np.random.default_rng(3)
    cases = []
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], path)
        train = meta.signature_def["train"]
        for step in range(3):
            x = rng.standard_normal((4, 3)).astype(np.float32)
            y = rng.uniform(-0.5, 0.5, (4, 1)).astype(np.float32)
            loss = sess.run(train.outputs["loss"].name,
                            {train.inputs["x"].name: x, train.inputs["y"].name: y})
            cases.append((f"train.{step}", {"x": x, "y": y}, {"loss": loss}))
        predict = meta.signature_def["serving_default"]
        x = rng.standard_normal((2, 3)).astype(np.float32)
        y = sess.run(predict.outputs["y"].name, {predict.inputs["x"].name: x})
        cases.append(("predict", {"x": x}, {"y": y}))
    record("tf2_train_regression", cases)


def main():
    os.makedirs(MODELS, exist_ok=True)
    tf2_dense()
    tf2_no_variables()
    keras_mlp()
    tf1_builder()
    tf2_vocabulary()
    tf2_train_regression()


if __name__ == "__main__":
    main()
