#!/usr/bin/env python3
"""TensorFlow's run of tf_train_example.cc's graph: the lines compat_examples_test expects.

    python3 compat/examples/tf_train_example.py
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1
v1.disable_eager_execution()
x = v1.placeholder(tf.float32, name="x")
y = v1.placeholder(tf.float32, name="y")
w = v1.Variable(0.5, use_resource=False, name="w")
b = v1.Variable(0.0, use_resource=False, name="b")
loss = tf.raw_ops.Mean(input=tf.square(w * x + b - y), axis=[0])
dw, db = tf.gradients(loss, [w, b])
update_w = tf.raw_ops.ApplyGradientDescent(var=w._ref(), alpha=0.1, delta=dw)  # pylint: disable=protected-access
update_b = tf.raw_ops.ApplyGradientDescent(var=b._ref(), alpha=0.1, delta=db)  # pylint: disable=protected-access
xs = np.arange(8, dtype=np.float32) / 4
ys = 3 * xs - 2
with v1.Session() as sess:
  sess.run(v1.global_variables_initializer())
  for step in range(201):
    value, _, _ = sess.run([loss, update_w, update_b], {x: xs, y: ys})
    if step % 50 == 0:
      print(f"step {step} loss = {value:.4f}")
  print(f"w = {sess.run(w):.4f} b = {sess.run(b):.4f}")
