"""Writes fixtures/summary.pbtxt: the TF1 summary ops in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_summary.py (needs TensorFlow 2.x and numpy).

Every output is a serialized Summary compared byte for byte with TensorFlow's: the PNG bytes of
ImageSummary too (Debian's libpng and zlib write the same bytes as TensorFlow's bundled ones at
zlib's default level; kernels/cpu/image/png_encoder.h) and the WAV bytes of AudioSummaryV2.
Every error case records TensorFlow's code, and its message is required in Sluice's
(error_substr, checked here against TensorFlow's message).

Left out, and tested in kernels/cpu/summary/summary_kernels_test.cc instead:
  - HistogramSummary of DBL_MAX: TensorFlow's kernel writes past its bucket array (heap
    corruption, "malloc(): invalid size" here); Sluice counts it in the last bucket.
  - AudioSummary (the deprecated form): TensorFlow refuses to build it in a current GraphDef.
No input is subnormal: TensorFlow's session threads flush subnormals to zero, Sluice does not
(histogram sums and image scaling would differ in those cases only).
"""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import summary_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
BF16 = tf.bfloat16.as_numpy_dtype
rng = np.random.default_rng(20261205)
w = CaseWriter("summary")


def s(*texts):
  """A numpy bytes array of the given strings (a scalar for one plain string)."""
  return np.array([t.encode() if isinstance(t, str) else t for t in texts], dtype=object)


def scalar_str(text):
  return np.array(text.encode() if isinstance(text, str) else text, dtype=object)


def add_error(name, build, inputs, substr):
  """An error case whose message TensorFlow's contains `substr`."""
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  assert _quote(substr)[1:-1] in w._cases[-1], name + ": TensorFlow's message differs"  # pylint: disable=protected-access


REAL_TYPES = [np.float32, np.float64, np.int32, np.uint8, np.int16, np.int8, np.int64, BF16,
              np.uint16, np.float16, np.uint32, np.uint64]


def typed_values(dtype, n):
  """n values of `dtype` including its extremes."""
  info = np.iinfo(dtype) if np.issubdtype(np.dtype(dtype), np.integer) else None
  if info is not None:
    base = [0, 1, info.max, info.min, info.max // 3, 7]
  else:
    base = [0.0, -0.0, 1.5, -2.25, 1e-3, 123.456]
  return np.array((base * n)[:n], dtype=dtype)


# ---- ScalarSummary ---------------------------------------------------------------------------
def scalar_summary(tags, values):
  return R.ScalarSummary(tags=tags, values=values)


for t in REAL_TYPES:
  name = np.dtype(t).name
  w.add("scalar_" + name, scalar_summary, [s("a", "b/c", "d", "e", "f", "g"), typed_values(t, 6)])
w.add("scalar_float_nonfinite", scalar_summary,
      [s("nan", "inf", "-inf", "max"), np.array([np.nan, np.inf, -np.inf, 3.4e38], np.float32)])
w.add("scalar_double_rounds_to_float", scalar_summary,
      [s("third", "huge", "tiny", "neg"), np.array([1 / 3, 1e300, 1e-30, -1e39], np.float64)])
w.add("scalar_int64_rounds_to_float", scalar_summary,
      [s("a", "b"), np.array([2**63 - 1, 2**24 + 1], np.int64)])
w.add("scalar_uint64_max", scalar_summary, [s("a"), np.array([2**64 - 1], np.uint64)])
w.add("scalar_scalar", scalar_summary, [scalar_str("loss"), np.array(0.25, np.float32)])
w.add("scalar_matrix", scalar_summary,
      [np.array([[b"a", b"b"], [b"c", b"d"]], dtype=object), np.arange(4, dtype=np.float32).reshape(2, 2)])
w.add("scalar_empty", scalar_summary, [s(), np.zeros([0], np.float32)])
w.add("scalar_duplicate_tags", scalar_summary, [s("x", "x"), np.array([1, 2], np.float32)])
w.add("scalar_binary_tag", scalar_summary,
      [s(b"\x00\xff\xc3\xa9"), np.array([1], np.float32)])
add_error("scalar_shape_mismatch", scalar_summary, [s("a", "b"), np.zeros([3], np.float32)],
          "tags and values are not the same shape: [2] != [3]")
add_error("scalar_shape_mismatch_one_tag", scalar_summary, [s("a"), np.zeros([2], np.float32)],
          "tags and values are not the same shape: [1] != [2] (tag 'a')")
add_error("scalar_scalar_tag_vector_value", scalar_summary,
          [scalar_str("a"), np.zeros([1], np.float32)],
          "tags and values are not the same shape: [] != [1] (tag 'a')")
add_error("scalar_same_size_other_shape", scalar_summary,
          [np.array([[b"a"], [b"b"]], dtype=object), np.zeros([2], np.int32)],
          "tags and values are not the same shape: [2,1] != [2]")


# ---- HistogramSummary ------------------------------------------------------------------------
def histogram(tag, values):
  return R.HistogramSummary(tag=tag, values=values)


for t in REAL_TYPES:
  name = np.dtype(t).name
  w.add("histogram_" + name, histogram, [scalar_str("h"), typed_values(t, 9)])
w.add("histogram_normal_1000", histogram,
      [scalar_str("weights"), rng.normal(0.0, 3.0, 1000).astype(np.float32)])
w.add("histogram_normal_double_2d", histogram,
      [scalar_str("w"), rng.normal(5.0, 100.0, (40, 25)).astype(np.float64)])
w.add("histogram_bucket_edges", histogram,
      [scalar_str("edges"),
       np.array([0.0, -0.0, 1e-12, -1e-12, 1.1e-12, 1e-13, -1e-13, 1e20, -1e20, 1e30, 3e38, -3e38,
                 1.0, -1.0], np.float64)])
w.add("histogram_float_extremes", histogram,
      [scalar_str("f"), np.array([3.4028235e38, -3.4028235e38, 1e-30], np.float32)])
w.add("histogram_minus_dbl_max", histogram,
      [scalar_str("m"), np.array([-1.7976931348623157e308, 1.0], np.float64)])
w.add("histogram_empty", histogram, [scalar_str("e"), np.zeros([0], np.float32)])
w.add("histogram_scalar_value", histogram, [scalar_str("one"), np.array(42.0, np.float32)])
w.add("histogram_half_max", histogram,
      [scalar_str("h"), np.array([65504, -65504, 0.5], np.float16)])
w.add("histogram_integers_repeated", histogram,
      [scalar_str("counts"), rng.integers(0, 5, 200).astype(np.int32)])
add_error("histogram_tag_not_scalar", histogram, [s("h"), np.zeros([2], np.float32)],
          "tags must be scalar")
add_error("histogram_nan", histogram, [scalar_str("h"), np.array([1.0, np.nan], np.float32)],
          "Nan in summary histogram for: HistogramSummary")
add_error("histogram_inf", histogram, [scalar_str("h"), np.array([np.inf], np.float32)],
          "Infinity in Histogram for: HistogramSummary")
add_error("histogram_minus_inf_double", histogram,
          [scalar_str("h"), np.array([0.0, -np.inf], np.float64)],
          "Infinity in Histogram for: HistogramSummary")
add_error("histogram_first_bad_value_wins", histogram,
          [scalar_str("h"), np.array([np.inf, np.nan], np.float32)],
          "Infinity in Histogram for: HistogramSummary")
add_error("histogram_half_nan", histogram, [scalar_str("h"), np.array([np.nan], np.float16)],
          "Nan in summary histogram for: HistogramSummary")


# ---- TensorSummaryV2 and TensorSummary -------------------------------------------------------
def metadata(plugin="", content=b"", display_name="", description="", data_class=0):
  m = summary_pb2.SummaryMetadata(display_name=display_name, summary_description=description,
                                  data_class=data_class)
  if plugin:
    m.plugin_data.plugin_name = plugin
    m.plugin_data.content = content
  return scalar_str(m.SerializeToString())


def tensor_summary_v2(tag, tensor, serialized_metadata):
  return R.TensorSummaryV2(tag=tag, tensor=tensor, serialized_summary_metadata=serialized_metadata)


SCALARS = metadata("scalars", b"", "loss", "the training loss", 1)
for t in REAL_TYPES + [np.complex64, np.complex128, np.bool_]:
  name = np.dtype(t).name
  values = typed_values(t, 6) if t not in (np.complex64, np.complex128, np.bool_) else (
      np.array([1 + 2j, -3.5j, 0], t) if t != np.bool_ else np.array([True, False, True]))
  w.add("tensor_v2_" + name, tensor_summary_v2, [scalar_str("t"), values, SCALARS])
w.add("tensor_v2_string", tensor_summary_v2,
      [scalar_str("text"), np.array([[b"a", b""], [b"\x00\xff", b"long string " * 4]], dtype=object),
       metadata("text", b"\x08\x01")])
w.add("tensor_v2_scalar", tensor_summary_v2,
      [scalar_str("s"), np.array(2.5, np.float32), metadata("scalars")])
w.add("tensor_v2_empty", tensor_summary_v2,
      [scalar_str("e"), np.zeros([0, 3], np.float32), metadata()])
w.add("tensor_v2_no_metadata", tensor_summary_v2,
      [scalar_str("n"), np.array([1, 2], np.int32), scalar_str(b"")])
w.add("tensor_v2_garbage_metadata", tensor_summary_v2,
      [scalar_str("g"), np.array([1, 2], np.int32), scalar_str(b"\xff\xff")])
add_error("tensor_v2_tag_not_scalar", tensor_summary_v2,
          [s("t"), np.array([1], np.int32), scalar_str(b"")], "tag must be scalar")
add_error("tensor_v2_metadata_not_scalar", tensor_summary_v2,
          [scalar_str("t"), np.array([1], np.int32), s(b"")],
          "serialized_summary_metadata must be scalar")


def tensor_summary(tensor):
  return R.TensorSummary(tensor=tensor, description="desc", labels=["a", "b"], display_name="dn")


w.add("tensor_v1_float", tensor_summary, [np.array([[1.5, -2.0]], np.float32)])
w.add("tensor_v1_string", tensor_summary, [s("x", "yz")])
w.add("tensor_v1_defaults", lambda x: R.TensorSummary(tensor=x), [np.array(7, np.int64)])


# ---- ImageSummary ----------------------------------------------------------------------------
def image(**attrs):
  if "bad_color" in attrs:
    attrs["bad_color"] = tf.compat.v1.make_tensor_proto(attrs["bad_color"])
  return lambda tag, tensor: R.ImageSummary(tag=tag, tensor=tensor, **attrs)


def gradient(batch, height, width, channels, dtype=np.float32, low=-1.0, high=1.0):
  ramp = np.linspace(low, high, batch * height * width * channels)
  return ramp.reshape(batch, height, width, channels).astype(dtype)


TAG = scalar_str("img")
w.add("image_uint8_gray", image(), [TAG, rng.integers(0, 256, (2, 3, 4, 1)).astype(np.uint8)])
w.add("image_uint8_rgb_max1", image(max_images=1),
      [TAG, rng.integers(0, 256, (3, 5, 7, 3)).astype(np.uint8)])
w.add("image_uint8_rgba_max5", image(max_images=5),
      [TAG, rng.integers(0, 256, (2, 4, 4, 4)).astype(np.uint8)])
w.add("image_uint8_random_32x32", image(max_images=2),
      [TAG, rng.integers(0, 256, (2, 32, 32, 3)).astype(np.uint8)])
w.add("image_uint8_smooth_48x40", image(),
      [TAG, (gradient(1, 48, 40, 3, np.float64, 0.0, 1.0) * 255).astype(np.uint8)])
w.add("image_uint8_short_bad_color_unused", image(bad_color=np.array([1, 2], np.uint8)),
      [TAG, np.zeros((1, 2, 2, 4), np.uint8)])
w.add("image_float_positive", image(), [TAG, gradient(2, 6, 5, 3, np.float32, 0.0, 17.0)])
w.add("image_float_signed", image(), [TAG, gradient(2, 6, 5, 3, np.float32, -3.0, 1.0)])
w.add("image_float_signed_larger_positive", image(),
      [TAG, gradient(1, 4, 4, 1, np.float32, -0.5, 2.0)])
w.add("image_float_zeros", image(), [TAG, np.zeros((1, 3, 3, 3), np.float32)])
w.add("image_float_below_threshold", image(),
      [TAG, np.full((1, 2, 2, 1), 5e-7, np.float32)])
w.add("image_float_negative_below_threshold", image(),
      [TAG, np.full((1, 2, 2, 1), -5e-7, np.float32)])
nonfinite = gradient(1, 4, 5, 3, np.float32, -1.0, 2.0)
nonfinite[0, 0, 0, 0] = np.nan
nonfinite[0, 1, 2, 1] = np.inf
nonfinite[0, 3, 4, 2] = -np.inf
nonfinite[0, 2, 2, 0] = 1e30  # finite: it sets the scale
w.add("image_float_nonfinite_default_red", image(), [TAG, nonfinite])
w.add("image_float_nonfinite_gray_bad_color",
      image(bad_color=np.array([7, 9, 11], np.uint8)),
      [TAG, np.array([[[[np.nan], [0.5]], [[1.0], [-np.inf]]]], np.float32)])
w.add("image_float_all_nonfinite", image(),
      [TAG, np.full((1, 2, 2, 3), np.nan, np.float32)])
w.add("image_float_rgba", image(max_images=1), [TAG, gradient(3, 5, 4, 4, np.float32, 0.0, 1.0)])
w.add("image_float_random_32x32", image(),
      [TAG, rng.normal(0.0, 1.0, (1, 32, 32, 3)).astype(np.float32)])
half = gradient(2, 5, 6, 3, np.float16, -2.0, 7.0)
half[1, 2, 3, 1] = np.nan
w.add("image_half", image(), [TAG, half])
w.add("image_half_positive", image(), [TAG, gradient(1, 7, 3, 1, np.float16, 0.0, 3.3)])
w.add("image_double", image(), [TAG, gradient(2, 3, 6, 3, np.float64, -0.7, 0.3)])
w.add("image_double_positive", image(max_images=1),
      [TAG, gradient(1, 8, 8, 1, np.float64, 0.0, 1e-3)])
w.add("image_empty_batch", image(), [TAG, np.zeros((0, 2, 2, 3), np.float32)])
w.add("image_empty_batch_uint8", image(), [TAG, np.zeros((0, 2, 2, 1), np.uint8)])
add_error("image_tag_not_scalar", image(), [s("img"), np.zeros((1, 2, 2, 3), np.float32)],
          "Tags must be a scalar")
add_error("image_rank3", image(), [TAG, np.zeros((2, 2, 3), np.float32)],
          "Tensor must be 4-D with last dim 1, 3, or 4, not [2,2,3]")
add_error("image_two_channels", image(), [TAG, np.zeros((1, 2, 2, 2), np.uint8)],
          "Tensor must be 4-D with last dim 1, 3, or 4, not [1,2,2,2]")
add_error("image_zero_width", image(), [TAG, np.zeros((1, 2, 0, 1), np.float32)],
          "input tensor must have non-zero dims. Found: [1, 2, 0, 1].")
add_error("image_bad_color_too_short", image(bad_color=np.array([1, 2, 3], np.uint8)),
          [TAG, np.zeros((1, 2, 2, 4), np.float32)],
          "expected depth <= bad_color.size, got depth = 4, bad_color.size = 3")
add_error("image_bad_color_too_short_empty_batch", image(bad_color=np.array([1], np.uint8)),
          [TAG, np.zeros((0, 2, 2, 3), np.float16)],
          "expected depth <= bad_color.size, got depth = 3, bad_color.size = 1")
add_error("image_bad_color_int32", image(bad_color=np.array([1, 2, 3], np.int32)),
          [TAG, np.zeros((1, 2, 2, 1), np.float32)], "bad_color must be uint8, got int32")
add_error("image_bad_color_scalar", image(bad_color=np.array(1, np.uint8)),
          [TAG, np.zeros((1, 2, 2, 1), np.float32)], "bad_color must be a vector, got shape []")
add_error("image_bad_color_matrix", image(bad_color=np.array([[1]], np.uint8)),
          [TAG, np.zeros((1, 2, 2, 1), np.float32)],
          "bad_color must be a vector, got shape [1,1]")
add_error("image_max_images_2_to_31", image(max_images=2**31),
          [TAG, np.zeros((1, 1, 1, 1), np.uint8)], "max_images must be < 2^31")


# ---- AudioSummaryV2 --------------------------------------------------------------------------
def audio(**attrs):
  return lambda tag, tensor, rate: R.AudioSummaryV2(tag=tag, tensor=tensor, sample_rate=rate,
                                                    **attrs)


TAG = scalar_str("snd")
EDGES = np.array([[0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, np.nan, np.inf, -np.inf, 1 / 65536,
                   3 / 65536, -1 / 65536, 0.99999, -0.99999]], np.float32)
w.add("audio_edges", audio(), [TAG, EDGES, np.float32(8000.5)])
w.add("audio_stereo", audio(),
      [TAG, rng.uniform(-1.2, 1.2, (2, 5, 2)).astype(np.float32), np.float32(44100)])
w.add("audio_max1", audio(max_outputs=1),
      [TAG, rng.uniform(-1, 1, (3, 4)).astype(np.float32), np.float32(16000)])
w.add("audio_max2_of_3", audio(max_outputs=2),
      [TAG, rng.uniform(-1, 1, (3, 4, 3)).astype(np.float32), np.float32(22050)])
w.add("audio_rate_below_half", audio(), [TAG, np.zeros((1, 2), np.float32), np.float32(0.4)])
w.add("audio_rate_halves_to_even", audio(),
      [TAG, np.zeros((1, 2), np.float32), np.float32(2.5)])
w.add("audio_rate_vector_of_one", audio(),
      [TAG, np.zeros((1, 2), np.float32), np.array([3.0], np.float32)])
w.add("audio_rate_matrix_of_one", audio(),
      [TAG, np.zeros((1, 2), np.float32), np.array([[1.5]], np.float32)])
w.add("audio_no_frames", audio(), [TAG, np.zeros((2, 0, 2), np.float32), np.float32(1)])
w.add("audio_empty_batch", audio(), [TAG, np.zeros((0, 3, 0), np.float32), np.float32(1)])
add_error("audio_rate_zero", audio(), [TAG, EDGES, np.float32(0)], "sample_rate must be > 0")
add_error("audio_rate_negative", audio(), [TAG, EDGES, np.float32(-8000)],
          "sample_rate must be > 0")
add_error("audio_rate_nan", audio(), [TAG, EDGES, np.float32(np.nan)], "sample_rate must be > 0")
add_error("audio_rate_inf", audio(), [TAG, EDGES, np.float32(np.inf)],
          "sample_rate must be in (0, 2^32), got: 9223372036854775808")
add_error("audio_rate_too_large", audio(), [TAG, EDGES, np.float32(1e10)],
          "sample_rate must be in (0, 2^32), got: 10000000000")
add_error("audio_rate_two_values", audio(), [TAG, EDGES, np.array([1, 2], np.float32)],
          "sample_rate must be rank-0 or contain a single value")
add_error("audio_rate_no_value", audio(), [TAG, EDGES, np.zeros([0], np.float32)],
          "sample_rate must be rank-0 or contain a single value")
add_error("audio_tag_not_scalar", audio(), [s("snd"), EDGES, np.float32(1)],
          "Tag must be a scalar")
add_error("audio_rank1", audio(), [TAG, EDGES[0], np.float32(1)],
          "Tensor must be 3-D or 2-D, got: [15]")
add_error("audio_rank4", audio(), [TAG, np.zeros((1, 1, 1, 1), np.float32), np.float32(1)],
          "Tensor must be 3-D or 2-D, got: [1,1,1,1]")
add_error("audio_rank1_and_bad_rate", audio(), [TAG, EDGES[0], np.array([1, 2], np.float32)],
          "Tensor must be 3-D or 2-D, got: [15]")
add_error("audio_no_channels", audio(), [TAG, np.zeros((2, 3, 0), np.float32), np.float32(1)],
          "audio is null")
add_error("audio_too_many_channels", audio(),
          [TAG, np.zeros((1, 0, 70000), np.float32), np.float32(1)],
          "num_channels must be in (0, 2^16), got: 70000")


# ---- MergeSummary ----------------------------------------------------------------------------
def summary_bytes(*tags, node_name=""):
  out = summary_pb2.Summary()
  for tag in tags:
    out.value.add(tag=tag, simple_value=float(len(tag)), node_name=node_name)
  return out.SerializeToString()


def merge(*inputs):
  return R.MergeSummary(inputs=list(inputs))


with tf.Graph().as_default(), tf.compat.v1.Session() as session:
  REAL = session.run([
      R.HistogramSummary(tag="hist", values=[1.0, 2.0, 2.5]),
      R.ImageSummary(tag="pic", tensor=np.zeros((2, 2, 2, 1), np.uint8)),
      R.AudioSummaryV2(tag="snd", tensor=np.zeros((1, 3), np.float32), sample_rate=8000.0),
  ])
w.add("merge_scalar_and_vector", merge,
      [scalar_str(summary_bytes("a")), s(summary_bytes("b"), summary_bytes("c", "d"))])
w.add("merge_matrix", merge,
      [np.array([[summary_bytes("a"), summary_bytes("b")],
                 [summary_bytes("c"), b""]], dtype=object)])
w.add("merge_real_summaries", merge, [scalar_str(r) for r in REAL])
w.add("merge_untagged_repeat", merge,
      [s(summary_bytes("", node_name="n"), summary_bytes("", node_name="n"))])
w.add("merge_empty_inputs", merge, [s(), scalar_str(b"")])
w.add("merge_drops_top_level_unknown_fields", merge,
      [scalar_str(b"\x10\x05" + summary_bytes("kept"))])
w.add("merge_keeps_value_unknown_fields", merge, [scalar_str(b"\n\x05\n\x01v\x50\x07")])
add_error("merge_duplicate_tag", merge,
          [scalar_str(summary_bytes("a")), s(summary_bytes("b"), summary_bytes("a"))],
          "Duplicate tag a found in summary inputs")
add_error("merge_duplicate_tag_one_input", merge, [scalar_str(summary_bytes("x", "x"))],
          "Duplicate tag x found in summary inputs")
add_error("merge_unparsable", merge, [scalar_str(b"\xff\xff")],
          "Could not parse one of the summary inputs")
add_error("merge_truncated", merge, [scalar_str(summary_bytes("abc")[:-2])],
          "Could not parse one of the summary inputs")

w.write()
