"""Reads an event folder written by write_summary_events with TensorBoard's own readers and
checks every value.

    python3 tests/summary/check_with_tensorboard.py LOGDIR

Needs the `tensorboard` package (pip install tensorboard; TensorFlow is not needed). Where it
cannot be imported, prints "SKIPPED: tensorboard not installed ..." and exits 0, so the suite
never depends on PyPI. Exits 1 on the first value that differs, naming it.

Two readers are used: event_accumulator.EventAccumulator (the legacy reader, which sorts
values by their kind: scalars, histograms, images, audio, tensors) and
plugin_event_accumulator.EventAccumulator (what the TensorBoard server runs, which converts
the legacy kinds to tensors for its plugins).
"""
import io
import math
import os
import struct
import sys
import wave

try:
  import numpy as np
  from tensorboard.backend.event_processing import event_accumulator
  from tensorboard.backend.event_processing import plugin_event_accumulator
  from tensorboard.util import tensor_util
except ImportError as e:
  print("SKIPPED: tensorboard not installed (%s)" % e)
  sys.exit(0)

STEPS = [0, 1, 2]
FAILURES = []


def check(condition, what):
  if not condition:
    FAILURES.append(what)
    print("FAIL:", what)


def f32(x):
  return float(np.float32(x))


def expected_weights(step):
  # As the C++ computes it, in float.
  return np.array([np.float32(i - 5) / np.float32(10.0) + np.float32(step) for i in range(11)],
                  np.float32)


def expected_pixels(step, image):
  return np.array([(p * 7 + image * 50 + step) % 256 for p in range(60)], np.uint8)


def expected_sound(step):
  # sin in double rounded to float, which glibc's sinf (the C++ side) matches to within an ulp;
  # a sample may then round to the neighbouring 16-bit value, which the check allows.
  samples = [np.float32(math.sin(np.float32(i) / np.float32(10.0))) / np.float32(2.0) +
             np.float32(step) / np.float32(10.0) for i in range(100)]
  return np.clip(np.round(np.array(samples, np.float32) * np.float32(32768.0)), -32768,
                 32767).astype(np.int16)


def check_legacy_reader(logdir):
  acc = event_accumulator.EventAccumulator(logdir, size_guidance={
      event_accumulator.IMAGES: 0, event_accumulator.AUDIO: 0, event_accumulator.TENSORS: 0,
      event_accumulator.HISTOGRAMS: 0, event_accumulator.SCALARS: 0})
  acc.Reload()
  tags = acc.Tags()
  check(tags["scalars"] == ["loss"], "scalar tags %r" % tags["scalars"])
  check(tags["histograms"] == ["weights"], "histogram tags %r" % tags["histograms"])
  check(sorted(tags["images"]) == ["pixels/image/0", "pixels/image/1"],
        "image tags %r" % tags["images"])
  check(tags["audio"] == ["sound/audio"], "audio tags %r" % tags["audio"])
  check(sorted(tags["tensors"]) == ["accuracy", "matrix"], "tensor tags %r" % tags["tensors"])
  check(acc.file_version == 2.0, "file version %r" % acc.file_version)

  scalars = acc.Scalars("loss")
  check([e.step for e in scalars] == STEPS, "loss steps")
  for e in scalars:
    check(e.value == f32(1.0 / (e.step + 1)), "loss at step %d: %r" % (e.step, e.value))

  for e in acc.Histograms("weights"):
    h = e.histogram_value
    values = expected_weights(e.step).astype(np.float64)
    check(h.min == values.min() and h.max == values.max(), "weights min/max at %d" % e.step)
    check(h.num == 11, "weights num at %d: %r" % (e.step, h.num))
    check(math.isclose(h.sum, float(np.sum(values)), rel_tol=1e-12, abs_tol=1e-12),
          "weights sum at %d: %r" % (e.step, h.sum))
    check(math.isclose(h.sum_squares, float(np.sum(values * values)), rel_tol=1e-12),
          "weights sum_squares at %d" % e.step)
    check(sum(h.bucket) == 11, "weights bucket counts at %d" % e.step)
    check(list(h.bucket_limit) == sorted(h.bucket_limit), "weights limits sorted at %d" % e.step)
    # Each value lies in its bucket [previous limit, limit).
    for value in values:
      i = next(k for k, limit in enumerate(h.bucket_limit) if value < limit)
      check(h.bucket[i] > 0, "weights value %r has no count at %d" % (value, e.step))

  from PIL import Image  # pillow comes with tensorboard
  for image in (0, 1):
    events = acc.Images("pixels/image/%d" % image)
    check([e.step for e in events] == STEPS, "image %d steps" % image)
    for e in events:
      check((e.width, e.height) == (5, 4), "image %d size %r" % (image, (e.width, e.height)))
      decoded = np.asarray(Image.open(io.BytesIO(e.encoded_image_string)))
      check(decoded.shape == (4, 5, 3), "image %d decoded shape %r" % (image, decoded.shape))
      check(np.array_equal(decoded.ravel(), expected_pixels(e.step, image)),
            "image %d pixels at step %d" % (image, e.step))

  for e in acc.Audio("sound/audio"):
    check(e.content_type == "audio/wav", "audio content type %r" % e.content_type)
    check(e.sample_rate == 8000.0 and e.length_frames == 100,
          "audio rate/frames %r %r" % (e.sample_rate, e.length_frames))
    with wave.open(io.BytesIO(e.encoded_audio_string)) as clip:
      check(clip.getframerate() == 8000 and clip.getnchannels() == 1 and clip.getsampwidth() == 2,
            "audio WAV header")
      samples = np.array(struct.unpack("<100h", clip.readframes(100)), np.int16)
    difference = np.abs(samples.astype(np.int32) - expected_sound(e.step).astype(np.int32))
    check(difference.max() <= 1, "audio samples at step %d" % e.step)

  for e in acc.Tensors("accuracy"):
    value = tensor_util.make_ndarray(e.tensor_proto)
    check(value.shape == () and value == np.float32(0.5) + np.float32(e.step / 10.0),
          "accuracy at step %d: %r" % (e.step, value))
  check(acc.SummaryMetadata("accuracy").plugin_data.plugin_name == "scalars",
        "accuracy's plugin")
  for e in acc.Tensors("matrix"):
    value = tensor_util.make_ndarray(e.tensor_proto)
    check(value.dtype == np.int32 and np.array_equal(value, [[e.step, 1], [2, 3]]),
          "matrix at step %d: %r" % (e.step, value))
  check(acc.SummaryMetadata("matrix").plugin_data.plugin_name == "sluice_matrix",
        "matrix's plugin")


def check_server_reader(logdir):
  """The reader TensorBoard's server uses: legacy values become plugin tensors."""
  acc = plugin_event_accumulator.EventAccumulator(logdir)
  acc.Reload()
  tags = acc.Tags()["tensors"]
  for tag in ["loss", "weights", "pixels/image/0", "pixels/image/1", "sound/audio", "accuracy",
              "matrix"]:
    check(tag in tags, "server reader lacks %s (has %r)" % (tag, tags))
  plugins = {tag: acc.SummaryMetadata(tag).plugin_data.plugin_name for tag in tags}
  check(plugins.get("loss") == "scalars", "loss's plugin %r" % plugins.get("loss"))
  check(plugins.get("weights") == "histograms", "weights' plugin %r" % plugins.get("weights"))
  check(plugins.get("pixels/image/0") == "images", "image's plugin")
  check(plugins.get("sound/audio") == "audio", "audio's plugin")
  for e in acc.Tensors("loss"):
    check(tensor_util.make_ndarray(e.tensor_proto) == f32(1.0 / (e.step + 1)),
          "server loss at step %d" % e.step)


def main():
  if len(sys.argv) != 2:
    sys.exit(__doc__)
  logdir = sys.argv[1]
  files = [f for f in os.listdir(logdir) if f.startswith("events.out.tfevents.")]
  check(len(files) == 1, "event files in %s: %r" % (logdir, files))
  check_legacy_reader(logdir)
  check_server_reader(logdir)
  if FAILURES:
    print("%d checks failed" % len(FAILURES))
    sys.exit(1)
  print("TensorBoard read every value of", os.path.join(logdir, files[0]))


if __name__ == "__main__":
  main()
