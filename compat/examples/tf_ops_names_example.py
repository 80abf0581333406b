#!/usr/bin/env python3
"""TensorFlow's run of tf_ops_names_example.cc's graph: the lines compat_examples_test expects.

    python3 compat/examples/tf_ops_names_example.py
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1
v1.disable_eager_execution()
image = (np.arange(48) * 37 % 256).astype(np.uint8).reshape(4, 4, 3)
batched = tf.expand_dims(tf.cast(tf.constant(image), tf.float32), 0)
resized = tf.raw_ops.ResizeBilinear(images=batched, size=[2, 2], half_pixel_centers=True)
squeezed = tf.squeeze((resized - 128.0) / 64.0, axis=[0])
channel_sums = tf.reduce_sum(squeezed, [0, 1], keepdims=True)
x = tf.constant([-2.0, -1.0, 0.0, 1.0, 2.0])
where = tf.raw_ops.Select(condition=x > 0, x=x, y=-x)
product = x * (x * 2.0)
relu_grad = tf.raw_ops.ReluGrad(gradients=[1.0, 2.0, 3.0, 4.0, 5.0], features=x)
diff = tf.raw_ops.ListDiff(x=[1, 2, 3, 4, 5, 6], y=[2, 4])
shape = tf.raw_ops.BroadcastArgs(s0=[2, 1, 3], s1=[4, 1])
noise = tf.raw_ops.RandomStandardNormal(shape=[3], dtype=tf.float32, seed=7, seed2=11)
names = ["squeezed", "channel_sums", "where", "product", "relu_grad", "diff.out", "diff.idx",
         "shape", "noise"]
with v1.Session() as sess:
  values = sess.run([squeezed, channel_sums, where, product, relu_grad, diff.out, diff.idx, shape,
                     noise])
for name, value in zip(names, values):
  dims = ",".join(str(d) for d in value.shape)
  if value.dtype == np.float32:
    text = "".join(" %.4f" % v for v in value.flat)
  else:
    text = "".join(" %d" % v for v in value.flat)
  print("%s = [%s]%s" % (name, dims, text))
