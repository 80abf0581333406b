"""Trains the bundled demo model: a small CNN on scikit-learn's 8x8 digits, frozen to a GraphDef.

Writes, beside this script:
  digits_cnn.pb         the frozen model: input "images" float32 [N, 8, 8, 1] (pixels / 16),
                        output "probabilities" float32 [N, 10] (softmax over the digits 0-9)
  test_images.npy       the held-out test set (360 images), float32 [360, 8, 8, 1]
  test_labels.npy       their labels, int64 [360]
  tf_probabilities.npy  TensorFlow's output of the frozen model on the test set
  manifest.txt          TensorFlow's test accuracy and the versions used

Needs TensorFlow 2.x, numpy and scikit-learn (the digits set ships inside scikit-learn, so
nothing is downloaded). Deterministic: fixed seeds, op determinism on, one thread.
"""
import os

import numpy as np
import tensorflow as tf
from sklearn.datasets import load_digits
from tensorflow.python.framework.convert_to_constants import (
    convert_variables_to_constants_v2)

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1234
NUM_TEST = 360


def load_split():
  digits = load_digits()
  images = (digits.images.astype(np.float32) / 16.0)[..., np.newaxis]
  labels = digits.target.astype(np.int64)
  order = np.random.default_rng(SEED).permutation(len(labels))
  test, train = order[:NUM_TEST], order[NUM_TEST:]
  return images[train], labels[train], images[test], labels[test]


def build_model():
  layers = tf.keras.layers
  return tf.keras.Sequential([
      layers.Input(shape=(8, 8, 1)),
      layers.Conv2D(16, 3, padding="same", activation="relu"),
      layers.MaxPooling2D(2),
      layers.Conv2D(32, 3, padding="same", activation="relu"),
      layers.MaxPooling2D(2),
      layers.Flatten(),
      layers.Dense(64, activation="relu"),
      layers.Dense(10, activation="softmax"),
  ])


def freeze(model):
  """The model as a frozen GraphDef with nodes "images" (input) and "probabilities" (output)."""
  spec = tf.TensorSpec([None, 8, 8, 1], tf.float32, name="images")
  function = tf.function(lambda images: model(images, training=False)).get_concrete_function(
      spec)
  graph_def = convert_variables_to_constants_v2(function).graph.as_graph_def()
  outputs = [n for n in graph_def.node if n.op == "Identity" and n.name == "Identity"]
  assert len(outputs) == 1, "expected one output node named Identity"
  outputs[0].name = "probabilities"
  return graph_def


def main():
  tf.keras.utils.set_random_seed(SEED)
  tf.config.experimental.enable_op_determinism()
  tf.config.threading.set_intra_op_parallelism_threads(1)
  tf.config.threading.set_inter_op_parallelism_threads(1)
  train_x, train_y, test_x, test_y = load_split()

  model = build_model()
  model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
                loss="sparse_categorical_crossentropy", metrics=["accuracy"])
  model.fit(train_x, train_y, epochs=25, batch_size=64, verbose=0, shuffle=True)

  graph_def = freeze(model)
  with open(os.path.join(HERE, "digits_cnn.pb"), "wb") as f:
    f.write(graph_def.SerializeToString())

  # TensorFlow's answer from the frozen GraphDef itself, as Sluice will run it.
  graph = tf.Graph()
  with graph.as_default():
    tf.import_graph_def(graph_def, name="")
  with tf.compat.v1.Session(graph=graph) as session:
    probabilities = session.run("probabilities:0", feed_dict={"images:0": test_x})
  accuracy = float(np.mean(np.argmax(probabilities, axis=1) == test_y))

  np.save(os.path.join(HERE, "test_images.npy"), test_x)
  np.save(os.path.join(HERE, "test_labels.npy"), test_y)
  np.save(os.path.join(HERE, "tf_probabilities.npy"), probabilities.astype(np.float32))
  with open(os.path.join(HERE, "manifest.txt"), "w") as f:
    f.write("# Written by make_digits_model.py; do not edit.\n")
    f.write("model digits_cnn.pb\n")
    f.write("input images test_images.npy\n")
    f.write("labels test_labels.npy\n")
    f.write("output probabilities tf_probabilities.npy\n")
    f.write("tensorflow_accuracy %.6f\n" % accuracy)
    f.write("tensorflow_correct %d of %d\n" % (int(round(accuracy * len(test_y))), len(test_y)))
    f.write("tensorflow_version %s\n" % tf.__version__)
  print("test accuracy %.4f (%d images); ops: %s" % (
      accuracy, len(test_y), sorted({n.op for n in graph_def.node})))


if __name__ == "__main__":
  main()
