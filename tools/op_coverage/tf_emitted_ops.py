#!/usr/bin/env python3
"""Which ops TensorFlow's own APIs put in a graph, and which of them Sluice cannot run.

Builds a few hundred small graphs the way users make them -- every Keras layer, `tf.math`,
`tf.linalg`, `tf.image`, `tf.strings`, `tf.random`, parsing, sparse and control flow -- traces
each with `tf.function`, freezes it (`convert_variables_to_constants_v2`) and collects the
op types of the graph and its function library. Each Keras layer is traced a second time as
a training step's gradient ("grad:<layer>"), for the backprop ops. It then reads Sluice's
registry (`sluice ops --device cpu`) and prints, per op with no CPU kernel in Sluice, how many graphs
need it and which. Use it to choose what to add next; it needs TensorFlow
(`pip install tensorflow-cpu`):

    bazel build //tools:sluice
    python3 tools/op_coverage/tf_emitted_ops.py bazel-bin/tools/sluice

`--markdown` prints the summary as a table instead.
"""

import argparse
import collections
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

tf.get_logger().setLevel("ERROR")
tf.autograph.set_verbosity(0)
L = tf.keras.layers

IMAGE = [tf.TensorSpec([1, 32, 32, 3], tf.float32)]
SEQUENCE = [tf.TensorSpec([2, 10, 8], tf.float32)]
MATRIX = [tf.TensorSpec([4, 16], tf.float32)]
INTS = [tf.TensorSpec([4, 10], tf.int32)]
STRINGS = [tf.TensorSpec([4], tf.string)]
VOLUME = [tf.TensorSpec([1, 4, 4, 4, 2], tf.float32)]


def keras_layers():
    """(name, callable, input specs) for Keras layers; layers are built once, outside tracing."""
    single = [
        ("Conv2D", L.Conv2D(4, 3), IMAGE),
        ("Conv2DTranspose", L.Conv2DTranspose(4, 3, strides=2), IMAGE),
        ("SeparableConv2D", L.SeparableConv2D(4, 3), IMAGE),
        ("DepthwiseConv2D", L.DepthwiseConv2D(3), IMAGE),
        ("Conv1D", L.Conv1D(4, 3), SEQUENCE),
        ("Conv1DTranspose", L.Conv1DTranspose(4, 3), SEQUENCE),
        ("Conv3D", L.Conv3D(2, 2), VOLUME),
        ("BatchNormalization", L.BatchNormalization(), IMAGE),
        ("LayerNormalization", L.LayerNormalization(), SEQUENCE),
        ("GroupNormalization", L.GroupNormalization(groups=3), IMAGE),
        ("UnitNormalization", L.UnitNormalization(), MATRIX),
        ("LSTM", L.LSTM(8), SEQUENCE),
        ("GRU", L.GRU(8), SEQUENCE),
        ("SimpleRNN", L.SimpleRNN(8), SEQUENCE),
        ("Bidirectional(LSTM)", L.Bidirectional(L.LSTM(4, return_sequences=True)), SEQUENCE),
        ("ConvLSTM2D", L.ConvLSTM2D(2, 3), [tf.TensorSpec([1, 3, 8, 8, 2])]),
        ("Embedding", L.Embedding(100, 8), INTS),
        ("GlobalAveragePooling2D", L.GlobalAveragePooling2D(), IMAGE),
        ("GlobalMaxPooling2D", L.GlobalMaxPooling2D(), IMAGE),
        ("MaxPooling2D", L.MaxPooling2D(2), IMAGE),
        ("AveragePooling2D", L.AveragePooling2D(2), IMAGE),
        ("MaxPooling1D", L.MaxPooling1D(2), SEQUENCE),
        ("AveragePooling1D", L.AveragePooling1D(2), SEQUENCE),
        ("UpSampling2D", L.UpSampling2D(), IMAGE),
        ("UpSampling2D(bilinear)", L.UpSampling2D(interpolation="bilinear"), IMAGE),
        ("ZeroPadding2D", L.ZeroPadding2D(), IMAGE),
        ("Cropping2D", L.Cropping2D(1), IMAGE),
        ("Flatten", L.Flatten(), IMAGE),
        ("Reshape", L.Reshape((-1,)), IMAGE),
        ("Permute", L.Permute((2, 1)), SEQUENCE),
        ("RepeatVector", L.RepeatVector(3), MATRIX),
        ("PReLU", L.PReLU(), MATRIX),
        ("LeakyReLU", L.LeakyReLU(), MATRIX),
        ("ELU", L.ELU(), MATRIX),
        ("ReLU(max, slope, threshold)", L.ReLU(6.0, 0.1, 0.5), MATRIX),
        ("Softmax", L.Softmax(), MATRIX),
        ("Dropout", L.Dropout(0.5), MATRIX),
        ("Resizing", L.Resizing(16, 16), IMAGE),
        ("Rescaling", L.Rescaling(1 / 255.0), IMAGE),
        ("CenterCrop", L.CenterCrop(16, 16), IMAGE),
        ("Normalization", L.Normalization(mean=1.0, variance=2.0), MATRIX),
        ("Discretization", L.Discretization(bin_boundaries=[0.0, 1.0]), MATRIX),
        ("Hashing", L.Hashing(10), STRINGS),
        ("CategoryEncoding(multi_hot)", L.CategoryEncoding(10, output_mode="multi_hot"), INTS),
        ("CategoryEncoding(count)", L.CategoryEncoding(10, output_mode="count"), INTS),
        ("StringLookup", L.StringLookup(vocabulary=["a", "b", "c"]), STRINGS),
        ("IntegerLookup", L.IntegerLookup(vocabulary=[1, 2, 3]),
         [tf.TensorSpec([4], tf.int64)]),
        ("TextVectorization",
         L.TextVectorization(max_tokens=10, output_sequence_length=5,
                             vocabulary=["a", "b", "c"]), STRINGS),
        ("Masking", L.Masking(), SEQUENCE),
        ("SpatialDropout2D", L.SpatialDropout2D(0.2), IMAGE),
        ("GaussianNoise", L.GaussianNoise(0.1), MATRIX),
        ("Dense", L.Dense(4), MATRIX),
        ("EinsumDense", L.EinsumDense("ab,bc->ac", output_shape=4), MATRIX),
    ]
    for name, layer, spec in single:
        yield name, layer, spec
    for activation in ["relu", "gelu", "selu", "elu", "softplus", "softsign", "swish",
                       "hard_sigmoid", "tanh", "sigmoid", "exponential", "mish", "relu6",
                       "leaky_relu", "log_softmax", "softmax", "hard_silu"]:
        yield f"Activation({activation})", L.Activation(activation), MATRIX
    attention = L.MultiHeadAttention(2, 4)
    yield "MultiHeadAttention", lambda x: attention(x, x), SEQUENCE
    dot_attention = L.Attention()
    yield "Attention", lambda x: dot_attention([x, x]), SEQUENCE
    additive = L.AdditiveAttention()
    yield "AdditiveAttention", lambda x: additive([x, x]), SEQUENCE
    crossing = L.HashedCrossing(num_bins=5)
    yield "HashedCrossing", lambda a, b: crossing((a, b)), [
        tf.TensorSpec([4], tf.int64), tf.TensorSpec([4], tf.string)]
    for name, merge in [("Concatenate", L.Concatenate()), ("Dot", L.Dot(axes=1)),
                        ("Maximum", L.Maximum()), ("Average", L.Average())]:
        yield name, (lambda m: lambda x: m([x, x]))(merge), MATRIX


def _sym(x):
    return x[:, :4] + tf.transpose(x[:, :4]) + 8 * tf.eye(4)


def tf_functions():
    """(name, function, input specs) for TensorFlow's own functions."""
    m, i, s, img = MATRIX, INTS, STRINGS, IMAGE
    yield from [
        ("tf.nn.gelu(approximate)", lambda x: tf.nn.gelu(x, approximate=True), m),
        ("tf.math.l2_normalize", lambda x: tf.math.l2_normalize(x, -1), m),
        ("tf.math.reduce_std", lambda x: tf.math.reduce_std(x, -1), m),
        ("tf.reduce_logsumexp", lambda x: tf.reduce_logsumexp(x, -1), m),
        ("tf.norm", lambda x: tf.norm(x, axis=-1), m),
        ("tf.math.top_k", lambda x: tf.math.top_k(x, 3), m),
        ("tf.sort", lambda x: tf.sort(x), m),
        ("tf.argsort", lambda x: tf.argsort(x), m),
        ("tf.roll", lambda x: tf.roll(x, 2, 1), m),
        ("tf.scatter_nd", lambda x: tf.scatter_nd([[1], [2]], x[:2], [5, 16]), m),
        ("tf.tensor_scatter_nd_update",
         lambda x: tf.tensor_scatter_nd_update(x, [[0]], x[:1] * 2), m),
        ("tf.tensor_scatter_nd_add", lambda x: tf.tensor_scatter_nd_add(x, [[0]], x[:1]), m),
        ("tf.math.unsorted_segment_sum",
         lambda x: tf.math.unsorted_segment_sum(x, [0, 1, 0, 1], 2), m),
        ("tf.math.unsorted_segment_max",
         lambda x: tf.math.unsorted_segment_max(x, [0, 1, 0, 1], 2), m),
        ("tf.math.segment_sum", lambda x: tf.math.segment_sum(x, [0, 0, 1, 1]), m),
        ("tf.math.segment_mean", lambda x: tf.math.segment_mean(x, [0, 0, 1, 1]), m),
        ("tf.sparse.segment_mean", lambda x: tf.sparse.segment_mean(x, [0, 1, 2], [0, 0, 1]), m),
        ("tf.sparse.segment_sum", lambda x: tf.sparse.segment_sum(x, [0, 1, 2], [0, 0, 1]), m),
        ("tf.sparse.segment_sqrt_n",
         lambda x: tf.sparse.segment_sqrt_n(x, [0, 1, 2], [0, 0, 1]), m),
        ("tf.math.atan2", lambda x: tf.math.atan2(x, x + 1), m),
        ("tf.math trigonometry",
         lambda x: tf.tan(x) + tf.asin(x / 99) + tf.acos(x / 99) + tf.atan(x), m),
        ("tf.math hyperbolic",
         lambda x: tf.sinh(x) + tf.cosh(x) + tf.asinh(x) + tf.acosh(x * x + 1)
         + tf.atanh(x / 99), m),
        ("tf.where(condition)", lambda x: tf.where(x > 0), m),
        ("tf.boolean_mask", lambda x: tf.boolean_mask(x, x[:, 0] > 0), m),
        ("tf.linspace", lambda x: x + tf.linspace(0.0, 1.0, 16), m),
        ("tf.eye", lambda x: tf.eye(4) @ x, m),
        ("tf.linalg.diag", lambda x: tf.linalg.diag(x), m),
        ("tf.linalg.diag_part", lambda x: tf.linalg.diag_part(x[:, :4]), m),
        ("tf.linalg.set_diag", lambda x: tf.linalg.set_diag(x[:, :4], x[:, 0]), m),
        ("tf.linalg.trace", lambda x: tf.linalg.trace(x[:, :4]), m),
        ("tf.linalg.band_part", lambda x: tf.linalg.band_part(x, 0, -1), m),
        ("tf.linalg.inv", lambda x: tf.linalg.inv(_sym(x)), m),
        ("tf.linalg.det", lambda x: tf.linalg.det(_sym(x)), m),
        ("tf.linalg.logdet", lambda x: tf.linalg.logdet(_sym(x)), m),
        ("tf.linalg.cholesky", lambda x: tf.linalg.cholesky(_sym(x)), m),
        ("tf.linalg.solve", lambda x: tf.linalg.solve(_sym(x), x[:, 4:6]), m),
        ("tf.linalg.triangular_solve",
         lambda x: tf.linalg.triangular_solve(tf.linalg.band_part(_sym(x), -1, 0), x[:, 4:6]), m),
        ("tf.linalg.qr", lambda x: tf.linalg.qr(x)[0], m),
        ("tf.linalg.svd", lambda x: tf.linalg.svd(x)[0], m),
        ("tf.linalg.eigh", lambda x: tf.linalg.eigh(_sym(x))[0], m),
        ("tf.linalg.lu", lambda x: tf.linalg.lu(_sym(x))[0], m),
        ("tf.linalg.cross", lambda x: tf.linalg.cross(x[:, :3], x[:, 3:6]), m),
        ("tf.tensordot", lambda x: tf.tensordot(x, x, [[1], [1]]), m),
        ("tf.einsum(attention)", lambda x: tf.einsum("bij,bkj->bik", x, x), SEQUENCE),
        ("tf.image.extract_patches",
         lambda x: tf.image.extract_patches(x, [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1],
                                            "VALID"), img),
        ("tf.image.crop_and_resize",
         lambda x: tf.image.crop_and_resize(x, [[0.0, 0.0, 1.0, 1.0]], [0], [8, 8]), img),
        ("tf.image.non_max_suppression",
         lambda x: tf.image.non_max_suppression(tf.abs(x[:, :4]), x[:, 4], 2), m),
        ("tf.image.combined_non_max_suppression",
         lambda x: tf.image.combined_non_max_suppression(
             tf.reshape(tf.abs(x[:, :4]), [1, 4, 1, 4]), tf.reshape(x[:, 4:6], [1, 4, 2]),
             2, 2)[0], m),
        ("tf.image.rgb_to_hsv", lambda x: tf.image.rgb_to_hsv(tf.abs(x)), img),
        ("tf.image.hsv_to_rgb", lambda x: tf.image.hsv_to_rgb(tf.abs(x)), img),
        ("tf.image.adjust_contrast", lambda x: tf.image.adjust_contrast(x, 2.0), img),
        ("tf.image.adjust_saturation", lambda x: tf.image.adjust_saturation(x, 2.0), img),
        ("tf.image.adjust_hue", lambda x: tf.image.adjust_hue(x, 0.2), img),
        ("tf.image.rgb_to_grayscale", lambda x: tf.image.rgb_to_grayscale(x), img),
        ("tf.image.flip_left_right", lambda x: tf.image.flip_left_right(x), img),
        ("tf.image.per_image_standardization",
         lambda x: tf.image.per_image_standardization(x), img),
        ("tf.image.resize(lanczos3)", lambda x: tf.image.resize(x, [8, 8], "lanczos3"), img),
        ("tf.image.resize(area)", lambda x: tf.image.resize(x, [8, 8], "area"), img),
        ("tf.image.resize_with_pad", lambda x: tf.image.resize_with_pad(x, 40, 40), img),
        ("tf.image.sobel_edges", lambda x: tf.image.sobel_edges(x), img),
        ("tf.nn.dilation2d",
         lambda x: tf.nn.dilation2d(x, tf.zeros([3, 3, 3]), [1, 1, 1, 1], "SAME", "NHWC",
                                    [1, 1, 1, 1]), img),
        ("tf.nn.max_pool_with_argmax",
         lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[1], img),
        ("tf.nn.fractional_max_pool",
         lambda x: tf.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1])[0], img),
        ("tf.nn.local_response_normalization",
         lambda x: tf.nn.local_response_normalization(x), img),
        ("tf.nn.space_to_depth", lambda x: tf.nn.space_to_depth(x, 2), img),
        ("tf.nn.atrous_conv2d",
         lambda x: tf.nn.atrous_conv2d(x, tf.ones([3, 3, 3, 2]), 2, "SAME"), img),
        ("tf.nn.conv3d_transpose",
         lambda x: tf.nn.conv3d_transpose(x, tf.ones([2, 2, 2, 2, 2]), [1, 8, 8, 8, 2],
                                          [1, 2, 2, 2, 1]), VOLUME),
        ("tf.nn.avg_pool3d", lambda x: tf.nn.avg_pool3d(x, 2, 2, "VALID"), VOLUME),
        ("tf.nn.softmax_cross_entropy_with_logits",
         lambda x: tf.nn.softmax_cross_entropy_with_logits(tf.nn.softmax(x), x), m),
        ("tf.nn.sparse_softmax_cross_entropy_with_logits",
         lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits([1, 2, 3, 0], x), m),
        ("tf.nn.sigmoid_cross_entropy_with_logits",
         lambda x: tf.nn.sigmoid_cross_entropy_with_logits(tf.sigmoid(x), x), m),
        ("tf.nn.l2_loss", lambda x: tf.nn.l2_loss(x), m),
        ("tf.nn.moments", lambda x: tf.nn.moments(x, [0]), m),
        ("tf.math.in_top_k", lambda x: tf.math.in_top_k([1, 2, 3, 0], x, 2), m),
        ("tf.nn.ctc_greedy_decoder",
         lambda x: tf.sparse.to_dense(
             tf.nn.ctc_greedy_decoder(tf.reshape(x, [4, 4, 4]), [4, 4, 4, 4])[0][0]), m),
        ("tf.nn.ctc_loss",
         lambda x: tf.nn.ctc_loss([[1, 2]] * 4, tf.reshape(x, [4, 4, 4]), [2] * 4, [4] * 4,
                                  logits_time_major=False), m),
        ("tf.math.xlogy", lambda x: tf.math.xlogy(x, tf.abs(x)), m),
        ("tf.math.lgamma/digamma", lambda x: tf.math.lgamma(x) + tf.math.digamma(x), m),
        ("tf.math.igamma", lambda x: tf.math.igamma(tf.abs(x) + 1, tf.abs(x)), m),
        ("tf.math.bessel_i0e/i1e", lambda x: tf.math.bessel_i0e(x) + tf.math.bessel_i1e(x), m),
        ("tf.math.erfinv/ndtri",
         lambda x: tf.math.erfinv(x / 99) + tf.math.ndtri(tf.sigmoid(x)), m),
        ("tf.math.multiply_no_nan", lambda x: tf.math.multiply_no_nan(x, x), m),
        ("tf.math.divide_no_nan", lambda x: tf.math.divide_no_nan(x, x), m),
        ("tf.math.nextafter", lambda x: tf.math.nextafter(x, x + 1), m),
        ("tf.math.cumsum", lambda x: tf.cumsum(x, 1), m),
        ("tf.math.cumulative_logsumexp", lambda x: tf.math.cumulative_logsumexp(x, 1), m),
        ("tf.math.floormod", lambda x: tf.math.floormod(x, 3.0), m),
        ("tf.raw_ops.ApproximateEqual", lambda x: tf.raw_ops.ApproximateEqual(x=x, y=x), m),
        ("tf.raw_ops.EuclideanNorm", lambda x: tf.raw_ops.EuclideanNorm(input=x, axis=1), m),
        ("tf.bitcast", lambda x: tf.bitcast(x, tf.int32), m),
        ("tf.math.zeta", lambda x: tf.math.zeta(x + 2, x + 2), m),
        ("tf.math.betainc",
         lambda x: tf.math.betainc(tf.abs(x) + 1, tf.abs(x) + 1, tf.sigmoid(x)), m),
        ("tf.searchsorted", lambda x: tf.searchsorted(tf.sort(x), x), m),
        ("tf.histogram_fixed_width", lambda x: tf.histogram_fixed_width(x, [-1.0, 1.0]), m),
        ("tf.signal.rfft", lambda x: tf.abs(tf.signal.rfft(x)), m),
        ("tf.signal.stft", lambda x: tf.abs(tf.signal.stft(x, 8, 4)), m),
        ("tf.signal.dct", lambda x: tf.signal.dct(x), m),
        ("tf.signal.frame", lambda x: tf.signal.frame(x, 4, 2), m),
        ("tf.signal.overlap_and_add",
         lambda x: tf.signal.overlap_and_add(tf.reshape(x, [4, 4, 4]), 2), m),
        ("tf.debugging.check_numerics", lambda x: tf.debugging.check_numerics(x, "m"), m),
        ("tf.clip_by_norm", lambda x: tf.clip_by_norm(x, 1.0), m),
        ("tf.clip_by_global_norm", lambda x: tf.clip_by_global_norm([x], 1.0)[0][0], m),
        ("tf.quantization.fake_quant_with_min_max_args",
         lambda x: tf.quantization.fake_quant_with_min_max_args(x), m),
        ("tf.quantization.fake_quant_with_min_max_vars",
         lambda x: tf.quantization.fake_quant_with_min_max_vars(x, -1.0, 1.0), m),
        ("tf.quantization.quantize/dequantize",
         lambda x: tf.quantization.dequantize(
             *tf.quantization.quantize(x, -1.0, 1.0, tf.quint8)[:3]), m),
        ("tf.random.uniform", lambda x: x + tf.random.uniform([4, 16]), m),
        ("tf.random.normal", lambda x: x + tf.random.normal([4, 16]), m),
        ("tf.random.truncated_normal", lambda x: x + tf.random.truncated_normal([4, 16]), m),
        ("tf.random.stateless_uniform",
         lambda x: x + tf.random.stateless_uniform([4, 16], [1, 2]), m),
        ("tf.random.stateless_normal",
         lambda x: x + tf.random.stateless_normal([4, 16], [1, 2]), m),
        ("tf.random.categorical", lambda x: tf.random.categorical(x, 3), m),
        ("tf.random.shuffle", lambda x: tf.random.shuffle(x), m),
        ("tf.sparse.sparse_dense_matmul",
         lambda x: tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(x), tf.transpose(x)), m),
        ("tf.sparse.reduce_sum", lambda x: tf.sparse.reduce_sum(tf.sparse.from_dense(x), 1), m),
        ("tf.sparse.add",
         lambda x: tf.sparse.to_dense(tf.sparse.add(tf.sparse.from_dense(x),
                                                    tf.sparse.from_dense(x))), m),
        ("tf.nn.embedding_lookup_sparse",
         lambda x: tf.nn.embedding_lookup_sparse(tf.ones([10, 4]), tf.sparse.from_dense(x),
                                                 None), i),
        ("tf.bitwise", lambda x: tf.bitwise.bitwise_and(x, 3) + tf.bitwise.bitwise_or(x, 2)
         + tf.bitwise.bitwise_xor(x, 5) + tf.bitwise.invert(x) + tf.bitwise.left_shift(x, 1)
         + tf.bitwise.right_shift(x, 1), i),
        ("tf.raw_ops.PopulationCount", lambda x: tf.raw_ops.PopulationCount(x=x), i),
        ("tf.math.invert_permutation", lambda x: tf.math.invert_permutation(x[0]), i),
        ("tf.raw_ops.ListDiff", lambda x: tf.raw_ops.ListDiff(x=x[0], y=x[1])[0], i),
        ("tf.unique_with_counts", lambda x: tf.unique_with_counts(x[0])[2], i),
        ("tf.math.bincount", lambda x: tf.math.bincount(x), i),
        ("tf.unravel_index", lambda x: tf.unravel_index(x[0], [10, 10]), i),
        ("tf.gather(batch_dims)", lambda x: tf.gather(x, [[0, 1]] * 4, batch_dims=1), i),
        ("tf.ragged.boolean_mask", lambda x: tf.ragged.boolean_mask(x, x > 1).to_tensor(), i),
        ("tf.strings.join", lambda t: tf.strings.join([t, t], "-"), s),
        ("tf.strings.split", lambda t: tf.strings.split(t).to_tensor(), s),
        ("tf.strings.lower/upper", lambda t: tf.strings.lower(tf.strings.upper(t)), s),
        ("tf.strings.regex_replace", lambda t: tf.strings.regex_replace(t, "[a-z]", "x"), s),
        ("tf.strings.regex_full_match", lambda t: tf.strings.regex_full_match(t, "a.*"), s),
        ("tf.strings.length", lambda t: tf.strings.length(t), s),
        ("tf.strings.substr", lambda t: tf.strings.substr(t, 0, 2), s),
        ("tf.strings.strip", lambda t: tf.strings.strip(t), s),
        ("tf.strings.to_number", lambda t: tf.strings.to_number(t), s),
        ("tf.strings.reduce_join", lambda t: tf.strings.reduce_join(t), s),
        ("tf.io.encode/decode_base64",
         lambda t: tf.io.decode_base64(tf.io.encode_base64(t)), s),
        ("tf.strings.unicode_decode",
         lambda t: tf.strings.unicode_decode(t, "UTF-8").to_tensor(), s),
        ("tf.strings.bytes_split", lambda t: tf.strings.bytes_split(t).to_tensor(), s),
        ("tf.strings.ngrams", lambda t: tf.strings.ngrams(tf.strings.split(t), 2).to_tensor(), s),
        ("tf.lookup.StaticHashTable",
         lambda t: tf.lookup.StaticHashTable(
             tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1).lookup(t), s),
        ("tf.io.decode_png", lambda t: tf.io.decode_png(t[0]), s),
        ("tf.io.decode_jpeg", lambda t: tf.io.decode_jpeg(t[0]), s),
        ("tf.io.decode_image",
         lambda t: tf.io.decode_image(t[0], expand_animations=False), s),
        ("tf.io.encode_png", lambda x: tf.io.encode_png(tf.cast(x[0], tf.uint8)), img),
        ("tf.io.decode_raw", lambda t: tf.io.decode_raw(t[:1], tf.uint8), s),
        ("tf.io.decode_csv", lambda t: tf.io.decode_csv(t, [[0.0], [0.0]])[0], s),
        ("tf.io.parse_example",
         lambda t: tf.io.parse_example(t, {"a": tf.io.FixedLenFeature([2], tf.float32)})["a"],
         s),
        ("tf.io.parse_single_example",
         lambda t: tf.io.parse_single_example(
             t[0], {"a": tf.io.FixedLenFeature([2], tf.float32)})["a"], s),
        ("tf.io.parse_example(mixed spec)", parse_mixed, s),
        ("tf.io.parse_single_example(mixed spec)", lambda t: parse_mixed(t[0]), s),
        ("tf.io.serialize_tensor/parse_tensor",
         lambda x: tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32), m),
        ("tf.cond", lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: x, lambda: -x), m),
        ("tf.while_loop",
         lambda x: tf.while_loop(lambda k, y: k < 3, lambda k, y: (k + 1, y * 2), [0, x])[1], m),
        ("tf.map_fn", lambda x: tf.map_fn(lambda r: r * 2, x), m),
        ("tf.scan", lambda x: tf.scan(lambda a, r: a + r, x), m),
        ("tf.TensorArray", lambda x: tf.TensorArray(tf.float32, 4).unstack(x).stack(), m),
        ("tf.pad(REFLECT)", lambda x: tf.pad(x, [[1, 1], [1, 1]], "REFLECT"), m),
        ("tf.meshgrid", lambda x: tf.meshgrid(x[0], x[1])[0], m),
        ("tf.timestamp", lambda x: x + tf.cast(tf.timestamp() * 0, tf.float32), m),
    ]


def parse_mixed(serialized):
    """tf.io.parse_example with every kind of feature, its outputs flattened."""
    spec = {
        "a": tf.io.FixedLenFeature([2], tf.float32, default_value=[0.0, 0.0]),
        "b": tf.io.VarLenFeature(tf.int64),
        "c": tf.io.RaggedFeature(tf.float32, row_splits_dtype=tf.int32),
        "d": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=-1),
        "e": tf.io.FixedLenFeature([], tf.string, default_value=""),
    }
    return tf.nest.flatten(tf.io.parse_example(serialized, spec), expand_composites=True)


def gradient_graphs():
    """("grad:" + layer, fn, specs): the gradient a training step of each Keras layer takes
    (a GradientTape's gradients of the summed output with respect to the float inputs and the
    layer's trainable variables), so the backprop ops TensorFlow emits are listed too."""
    for name, layer, specs in keras_layers():
        def step(*xs, layer=layer):
            with tf.GradientTape() as tape:
                for x in xs:
                    if x.dtype.is_floating:
                        tape.watch(x)
                out = layer(*xs)
                sums = [tf.reduce_sum(tf.cast(o, tf.float32))
                        for o in tf.nest.flatten(out) if o.dtype.is_floating]
                total = tf.add_n(sums) if sums else None
            if total is None:  # Lookups and hashing: nothing to differentiate.
                return []
            sources = [x for x in xs if x.dtype.is_floating]
            sources += list(getattr(layer, "trainable_variables", []))
            return [g for g in tape.gradient(total, sources) if g is not None]
        yield "grad:" + name, step, specs


def graph_ops(fn, specs):
    """The op types of fn traced on specs and frozen, function library included."""
    concrete = tf.function(fn, autograph=False).get_concrete_function(*specs)
    graph_def = convert_variables_to_constants_v2(concrete).graph.as_graph_def()
    ops = {node.op for node in graph_def.node}
    for function in graph_def.library.function:
        ops |= {node.op for node in function.node_def}
    return ops


def sluice_cpu_ops(sluice):
    """Ops with a CPU kernel in Sluice, plus the functional ops the runtime itself runs."""
    listing = subprocess.run([sluice, "ops", "--device", "cpu"], check=True,
                             capture_output=True, text=True).stdout
    ops = set()
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) >= 2 and (fields[1] != "-" or fields[0] in FUNCTIONAL_OPS):
            ops.add(fields[0])
    return ops


# Run by the executor and the function library, not by a kernel.
FUNCTIONAL_OPS = {"Case", "If", "PartitionedCall", "StatefulPartitionedCall", "StatelessCase",
                  "StatelessIf", "StatelessWhile", "While"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sluice", help="path of the sluice binary (bazel-bin/tools/sluice)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args()

    have = sluice_cpu_ops(args.sluice)
    needs = {}
    for name, fn, specs in list(keras_layers()) + list(tf_functions()) + list(gradient_graphs()):
        try:
            needs[name] = graph_ops(fn, specs)
        except Exception as error:  # A TF version without the API: say so, go on.
            print(f"skipped {name}: {type(error).__name__}: {str(error)[:120]}", file=sys.stderr)
    missing = collections.defaultdict(list)
    for name, ops in needs.items():
        for op in sorted(ops - have):
            missing[op].append(name)
    runnable = sum(1 for ops in needs.values() if not ops - have)
    rows = sorted(missing.items(), key=lambda item: (-len(item[1]), item[0]))
    if args.markdown:
        print("| op Sluice lacks | graphs | e.g. |\n|---|---|---|")
        for op, names in rows:
            print(f"| `{op}` | {len(names)} | {', '.join(names[:3])} |")
    else:
        for op, names in rows:
            print(f"{op:40s} {len(names):3d}  {', '.join(names[:4])}")
    print(f"{runnable} of {len(needs)} graphs use only ops Sluice runs on the CPU "
          f"({len(rows)} ops missing; TensorFlow {tf.__version__})")


if __name__ == "__main__":
    main()
