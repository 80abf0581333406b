"""Writes fixtures/audio.pbtxt: DecodeWav, EncodeWav, AudioSpectrogram and Mfcc.

Run from anywhere: python3 tests/kernels/gen_audio.py (needs TensorFlow 2.x and numpy).

The WAV files are built here byte by byte (mono, stereo, padding chunks before "fmt ", an
18-byte format chunk, chunks after the data, a data chunk that ends inside a frame) and
malformed one field at a time; each error case's message is checked against TensorFlow's
(error_substr).

Tolerance: DecodeWav and EncodeWav are exact. AudioSpectrogram: TensorFlow's FFT (Ooura's
rdft) and Sluice's (Eigen's KissFFT) are both double precision but round differently, so
outputs agree to rtol 1e-6 with an atol of 1e-9 of the case's largest output (a bin far below
the window's largest is exact only to that). Mfcc repeats TensorFlow's arithmetic in its order:
rtol 1e-6, atol 1e-6.

Left out: a NaN lower_frequency_limit (TensorFlow's filterbank then reads before the frame and
crashes; Sluice skips those bins), and a chunk before "fmt " whose size wraps TensorFlow's int
offset back into the file (Sluice says the file is too short). Also left out, because
TensorFlow refuses them while building the graph (its shape functions check
attrs), so no kernel runs: desired_channels or desired_samples below -1, window_size < 2, a
stride < 1; and 2^16 channels for EncodeWav (a large fixture for one message).
audio_kernels_test.cc checks the kernels' own messages for them.
"""
import os
import struct
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter, _quote  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("audio")


def add_error(name, build, inputs, substr):
  """An error case whose message TensorFlow's contains `substr`."""
  code = w.add(name, build, inputs, error_substr=substr)
  assert code != 0, name + ": TensorFlow did not fail"
  message = w._cases[-1].split("error_message: ", 1)[1].split("\n", 1)[0]  # pylint: disable=protected-access
  assert _quote(substr)[1:-1] in message, name + ": TensorFlow's message is " + message


def scalar_bytes(data):
  return np.array(data, dtype=object)


# ---- WAV files ----------------------------------------------------------------------------

def chunk(chunk_id, payload, size=None):
  return chunk_id + struct.pack("<I", len(payload) if size is None else size) + payload


def fmt_chunk(channels=1, rate=16000, bits=16, audio_format=1, block_align=None,
              bytes_per_second=None, size=16):
  block_align = (bits * channels + 7) // 8 if block_align is None else block_align
  if bytes_per_second is None:
    bytes_per_second = (block_align * rate) & 0xFFFFFFFF
  body = struct.pack("<HHIIHH", audio_format, channels, rate, bytes_per_second, block_align,
                     bits)
  body += b"\0" * (size - 16) if size > 16 else b""
  return chunk(b"fmt ", body, size=size if size != len(body) else None)


def pcm(samples):
  return np.asarray(samples, np.int16).astype("<i2").tobytes()


def riff(*chunks, riff_id=b"RIFF", wave=b"WAVE"):
  body = wave + b"".join(chunks)
  return riff_id + struct.pack("<I", len(body)) + body


def wav(samples, channels=1, rate=16000, **fmt):
  return riff(fmt_chunk(channels, rate, **fmt), chunk(b"data", pcm(samples)))


MONO = [0, 1, -1, 32767, -32768, 16384, -16384, 100, -100, 12345]
STEREO = [0, 1, 2, 3, 32767, -32768, -5, 5, 1000, -1000, 7, 8]  # 6 frames
RANDOM = rng.integers(-32768, 32768, size=300).tolist()


def decode(desired_channels=-1, desired_samples=-1):
  return lambda c: R.DecodeWav(contents=c, desired_channels=desired_channels,
                               desired_samples=desired_samples)


def add_decode(name, data, **attrs):
  w.add(name, decode(**attrs), [scalar_bytes(data)])


add_decode("decode_mono", wav(MONO))
add_decode("decode_stereo", wav(STEREO, channels=2, rate=44100))
add_decode("decode_random_8khz", wav(RANDOM, rate=8000))
add_decode("decode_three_channels", wav(RANDOM[:30], channels=3, rate=22050))
add_decode("decode_stereo_to_mono", wav(STEREO, channels=2), desired_channels=1)
add_decode("decode_stereo_to_four", wav(STEREO, channels=2), desired_channels=4)
add_decode("decode_mono_to_stereo", wav(MONO), desired_channels=2)
add_decode("decode_zero_channels", wav(MONO), desired_channels=0)
add_decode("decode_pad_samples", wav(MONO), desired_samples=16)
add_decode("decode_crop_samples", wav(MONO), desired_samples=4)
add_decode("decode_zero_samples", wav(MONO), desired_samples=0)
add_decode("decode_crop_and_duplicate", wav(STEREO, channels=2), desired_channels=3,
           desired_samples=4)
add_decode("decode_pad_stereo_to_mono", wav(STEREO, channels=2), desired_channels=1,
           desired_samples=9)
add_decode("decode_empty_data", wav([]))
add_decode("decode_empty_data_padded", wav([]), desired_samples=3)
add_decode("decode_junk_before_fmt",
           riff(chunk(b"JUNK", b"\0" * 6), chunk(b"bext", b"x" * 3 + b"\0"), fmt_chunk(),
                chunk(b"data", pcm(MONO))))
add_decode("decode_fmt_18", riff(fmt_chunk(size=18), chunk(b"data", pcm(MONO))))
add_decode("decode_chunks_after_data",
           riff(fmt_chunk(), chunk(b"LIST", b"INFOabcd"), chunk(b"data", pcm(MONO)),
                chunk(b"note", b"12")))
add_decode("decode_partial_frame_then_chunk",
           riff(fmt_chunk(channels=2), chunk(b"data", pcm([1, 2, 3, 4, 5]))[:-2] +
                chunk(b"PAD ", b"")))
add_decode("decode_partial_frame_at_end",
           riff(fmt_chunk(channels=2), chunk(b"data", pcm([1, 2, 3])[:4], size=5) + b"\0"))
add_decode("decode_riff_size_ignored",
           b"RIFF" + struct.pack("<I", 3) + wav(MONO)[8:])

# Malformed files.
GOOD = wav(MONO)
add_error("decode_empty_string", decode(), [scalar_bytes(b"")],
          "Data too short when trying to read string")
add_error("decode_not_riff", decode(), [scalar_bytes(b"RIFX" + GOOD[4:])],
          "Header mismatch: Expected RIFF but found RIFX")
add_error("decode_only_riff", decode(), [scalar_bytes(b"RIFF")],
          "Data too short when trying to read string")
add_error("decode_not_wave", decode(), [scalar_bytes(GOOD[:8] + b"AVI " + GOOD[12:])],
          "Header mismatch: Expected WAVE but found AVI")
add_error("decode_truncated_in_fmt", decode(), [scalar_bytes(GOOD[:30])],
          "Data too short when trying to read string")
add_error("decode_unexpected_field", decode(),
          [scalar_bytes(riff(chunk(b"LIST", b"ab"), fmt_chunk(), chunk(b"data", pcm(MONO))))],
          "Unexpected field LIST")
add_error("decode_junk_too_long", decode(),
          [scalar_bytes(riff(chunk(b"JUNK", b"ab", size=1000), fmt_chunk()))],
          "Data too short when trying to read string")
add_error("decode_fmt_size_20", decode(),
          [scalar_bytes(riff(fmt_chunk(size=20), chunk(b"data", pcm(MONO))))],
          "Bad format chunk size for WAV: Expected 16 or 18, but got20")
add_error("decode_float_format", decode(),
          [scalar_bytes(wav(MONO, audio_format=3))],
          "Bad audio format for WAV: Expected 1 (PCM), but got3")
add_error("decode_zero_channels_in_file", decode(),
          [scalar_bytes(wav(MONO, channels=0, block_align=0))],
          "Bad number of channels for WAV: Expected at least 1, but got 0")
add_error("decode_8_bit", decode(), [scalar_bytes(wav(MONO, bits=8))],
          "Can only read 16-bit WAV files, but received 8")
add_error("decode_bad_block_align", decode(),
          [scalar_bytes(wav(STEREO, channels=2, block_align=2))],
          "Bad bytes per sample in WAV header: Expected 4 but got 2")
add_error("decode_bytes_per_second_past_32_bits", decode(),
          [scalar_bytes(wav(MONO, rate=3000000000))],
          "Bad bytes per second in WAV header: Expected 6000000000 but got 1705032704 "
          "(sample_rate=3000000000, bytes_per_sample=2)")
add_error("decode_bad_bytes_per_second", decode(),
          [scalar_bytes(wav(MONO, bytes_per_second=1234))],
          "Bad bytes per second in WAV header: Expected 32000 but got 1234 (sample_rate=16000, "
          "bytes_per_sample=2)")
add_error("decode_no_data_chunk", decode(),
          [scalar_bytes(riff(fmt_chunk(), chunk(b"LIST", b"abcd")))],
          "No data chunk found in WAV")
add_error("decode_header_only", decode(), [scalar_bytes(riff(fmt_chunk()))],
          "No data chunk found in WAV")
add_error("decode_fmt_18_past_end", decode(), [scalar_bytes(riff(fmt_chunk(size=18))[:-2])],
          "No data chunk found in WAV")
add_error("decode_data_truncated", decode(),
          [scalar_bytes(riff(fmt_chunk(), chunk(b"data", pcm(MONO), size=100)))],
          "Data too short when trying to read string")
add_error("decode_two_data_chunks", decode(),
          [scalar_bytes(riff(fmt_chunk(), chunk(b"data", pcm(MONO)), chunk(b"data", pcm(MONO))))],
          "More than one data chunk found in WAV")
add_error("decode_chunk_too_large", decode(),
          [scalar_bytes(riff(fmt_chunk(), chunk(b"data", b"", size=0x80000000)))],
          "WAV data chunk 'data' is too large: 2147483648 bytes, but the limit is 2147483647")
add_error("decode_truncated_chunk_header", decode(),
          [scalar_bytes(riff(fmt_chunk(), chunk(b"data", pcm(MONO))) + b"LI")],
          "Data too short when trying to read string")
add_error("decode_contents_vector", decode(), [np.array([GOOD, GOOD], dtype=object)],
          "contents must be scalar, got shape [2]")

# ---- EncodeWav ----------------------------------------------------------------------------

def encode(a, r):
  return R.EncodeWav(audio=a, sample_rate=r)


def rate(value):
  return np.array(value, np.int32)


HALF_STEPS = (np.array([0.5, 1.5, -0.5, -1.5, 2.5, -2.5], np.float32) / 32768).reshape(6, 1)
w.add("encode_mono", encode, [rng.uniform(-1, 1, (20, 1)).astype(np.float32), rate(16000)])
w.add("encode_stereo", encode, [rng.uniform(-1, 1, (9, 2)).astype(np.float32), rate(44100)])
w.add("encode_clamped", encode,
      [np.array([[1.0], [-1.0], [1.5], [-1.5], [np.inf], [-np.inf], [0.99999]], np.float32),
       rate(8000)])
w.add("encode_rounding_halves", encode, [HALF_STEPS, rate(8000)])
w.add("encode_no_frames", encode, [np.zeros((0, 2), np.float32), rate(16000)])
w.add("encode_largest_rate", encode, [np.zeros((1, 1), np.float32), rate(2**31 - 1)])
add_error("encode_rank_1", encode, [np.zeros(4, np.float32), rate(16000)],
          "audio must be 2-dimensional[4]")
add_error("encode_rank_3", encode, [np.zeros((1, 2, 1), np.float32), rate(16000)],
          "audio must be 2-dimensional[1,2,1]")
add_error("encode_rate_vector", encode, [np.zeros((2, 1), np.float32), np.array([8000], np.int32)],
          "Input sample_rate should be a scalar tensor, got [1] instead.")
add_error("encode_zero_rate", encode, [np.zeros((2, 1), np.float32), rate(0)],
          "sample_rate must be in (0, 2^32), got: 0")
add_error("encode_negative_rate", encode, [np.zeros((2, 1), np.float32), rate(-1)],
          "sample_rate must be in (0, 2^32), got: 18446744073709551615")
add_error("encode_no_channels", encode, [np.zeros((0, 0), np.float32), rate(16000)],
          "num_channels must be in (0, 2^16), got: 0")
add_error("encode_frames_without_channels", encode, [np.zeros((3, 0), np.float32), rate(16000)],
          "num_channels must be in (0, 2^16), got: 0")

# Round trips: TensorFlow's encoding decoded again (the decode case checks both directions,
# since its input is TensorFlow's own file).
for name, x, r in [("mono", rng.uniform(-1, 1, (50, 1)), 16000),
                   ("stereo", rng.uniform(-1.2, 1.2, (25, 2)), 48000)]:
  data = tf.raw_ops.EncodeWav(audio=x.astype(np.float32), sample_rate=r).numpy()
  add_decode("roundtrip_decode_" + name, data)

# ---- AudioSpectrogram -----------------------------------------------------------------------

def spectrogram(window_size, stride, magnitude_squared=False):
  return lambda x: R.AudioSpectrogram(input=x, window_size=window_size, stride=stride,
                                      magnitude_squared=magnitude_squared)


def add_spectrogram(name, x, window_size, stride, magnitude_squared=False):
  sess_x = x.astype(np.float32)
  ref = R.AudioSpectrogram(input=sess_x, window_size=window_size, stride=stride,
                           magnitude_squared=magnitude_squared).numpy()
  scale = float(np.max(np.abs(ref))) if ref.size else 1.0
  w.add(name, spectrogram(window_size, stride, magnitude_squared), [sess_x], rtol=1e-6,
        atol=1e-9 * max(scale, 1e-30))


t = np.arange(400) / 8000.0
SINE = (0.6 * np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 1800 * t)).reshape(-1, 1)
NOISE = rng.uniform(-1, 1, (300, 2))
add_spectrogram("spectrogram_sine_16_8", SINE, 16, 8)
add_spectrogram("spectrogram_sine_16_8_squared", SINE, 16, 8, True)
add_spectrogram("spectrogram_sine_20_7", SINE, 20, 7)
add_spectrogram("spectrogram_sine_256_128_squared", SINE, 256, 128, True)
add_spectrogram("spectrogram_stereo_64_32", NOISE, 64, 32)
add_spectrogram("spectrogram_stereo_100_30_squared", NOISE, 100, 30, True)
add_spectrogram("spectrogram_window_2", NOISE[:10], 2, 1)
add_spectrogram("spectrogram_stride_past_window", NOISE, 10, 25)
add_spectrogram("spectrogram_exactly_one_window", NOISE[:64], 64, 1000)
add_spectrogram("spectrogram_shorter_than_window", NOISE[:20], 32, 4)
add_spectrogram("spectrogram_no_samples", np.zeros((0, 1)), 8, 4)
add_spectrogram("spectrogram_no_channels", np.zeros((40, 0)), 8, 4)
add_spectrogram("spectrogram_silence", np.zeros((40, 1)), 8, 4, True)
add_spectrogram("spectrogram_speech_commands", rng.uniform(-0.5, 0.5, (960, 1)), 480, 160,
                True)
add_error("spectrogram_rank_1", spectrogram(8, 4), [np.zeros(16, np.float32)],
          "input must be 2-dimensional[16]")
add_error("spectrogram_rank_3", spectrogram(8, 4), [np.zeros((16, 1, 1), np.float32)],
          "input must be 2-dimensional[16,1,1]")

# ---- Mfcc ---------------------------------------------------------------------------------

def mfcc(**attrs):
  return lambda s, r: R.Mfcc(spectrogram=s, sample_rate=r, **attrs)


def power_spectrogram(x, window_size, stride):
  return R.AudioSpectrogram(input=x.astype(np.float32), window_size=window_size, stride=stride,
                            magnitude_squared=True).numpy()


SPEECH = power_spectrogram(rng.uniform(-0.5, 0.5, (800, 1)), 480, 160)  # [1, 3, 257]
FRAME = SPEECH[:, :1]  # [1, 1, 257], for the errors
STEREO_SPEC = power_spectrogram(rng.uniform(-1, 1, (600, 2)), 256, 100)  # [2, 4, 129]
TOL = dict(rtol=1e-6, atol=1e-6)
w.add("mfcc_defaults", mfcc(), [SPEECH, rate(16000)], **TOL)
w.add("mfcc_stereo", mfcc(), [STEREO_SPEC, rate(16000)], **TOL)
w.add("mfcc_custom_limits", mfcc(upper_frequency_limit=7600.0, lower_frequency_limit=60.0,
                                  filterbank_channel_count=20, dct_coefficient_count=10),
      [SPEECH, rate(16000)], **TOL)
w.add("mfcc_all_coefficients", mfcc(filterbank_channel_count=13, dct_coefficient_count=13),
      [SPEECH, rate(16000)], **TOL)
w.add("mfcc_one_coefficient", mfcc(filterbank_channel_count=1, dct_coefficient_count=1),
      [SPEECH, rate(16000)], **TOL)
w.add("mfcc_8khz_nyquist", mfcc(), [STEREO_SPEC, rate(8000)], **TOL)
w.add("mfcc_upper_past_nyquist", mfcc(upper_frequency_limit=9000.0),
      [SPEECH, rate(16000)], **TOL)
w.add("mfcc_lower_zero", mfcc(lower_frequency_limit=0.0), [SPEECH, rate(16000)], **TOL)
w.add("mfcc_many_channels_few_bins", mfcc(filterbank_channel_count=40),
      [rng.uniform(0, 2, (1, 2, 9)).astype(np.float32), rate(16000)], **TOL)
w.add("mfcc_two_bins", mfcc(filterbank_channel_count=2, dct_coefficient_count=2,
                            upper_frequency_limit=8000.0),
      [rng.uniform(0, 2, (1, 3, 2)).astype(np.float32), rate(16000)], **TOL)
w.add("mfcc_silence", mfcc(), [np.zeros((1, 2, 257), np.float32), rate(16000)], **TOL)
w.add("mfcc_no_frames", mfcc(), [np.zeros((2, 0, 257), np.float32), rate(16000)], **TOL)
w.add("mfcc_no_channels", mfcc(), [np.zeros((0, 3, 257), np.float32), rate(16000)], **TOL)
w.add("mfcc_high_rate", mfcc(), [SPEECH, rate(2**31 - 1)], **TOL)
w.add("mfcc_filterbank_past_bins", mfcc(filterbank_channel_count=300, dct_coefficient_count=20),
      [SPEECH, rate(16000)], **TOL)
w.add("mfcc_nan_upper_limit", mfcc(upper_frequency_limit=float("nan")), [SPEECH, rate(16000)],
      **TOL)


def add_mfcc_error(name, spec, sample_rate, substr, **attrs):
  add_error(name, mfcc(**attrs), [FRAME if spec is SPEECH else spec, sample_rate], substr)


add_mfcc_error("mfcc_rank_2", SPEECH[0], rate(16000), "spectrogram must be 3-dimensional[3,257]")
add_mfcc_error("mfcc_rate_vector", SPEECH, np.array([16000], np.int32),
               "Input sample_rate should be a scalar tensor, got [1] instead.")
INIT = "Mfcc initialization failed for channel count "


def init_error(bins, sample_rate, filterbank=40):
  return "%s%d, sample rate %d and filterbank_channel_count %d" % (INIT, bins, sample_rate,
                                                                  filterbank)


add_mfcc_error("mfcc_zero_rate", SPEECH, rate(0), init_error(257, 0))
add_mfcc_error("mfcc_negative_rate", SPEECH, rate(-16000), init_error(257, -16000))
add_mfcc_error("mfcc_one_bin", np.ones((1, 2, 1), np.float32), rate(16000),
               init_error(1, 16000))
add_mfcc_error("mfcc_zero_filterbank", SPEECH, rate(16000), init_error(257, 16000, 0),
               filterbank_channel_count=0)
add_mfcc_error("mfcc_zero_coefficients", SPEECH, rate(16000), init_error(257, 16000),
               dct_coefficient_count=0)
add_mfcc_error("mfcc_more_coefficients_than_channels", SPEECH, rate(16000),
               init_error(257, 16000, 10), filterbank_channel_count=10,
               dct_coefficient_count=11)
add_mfcc_error("mfcc_filterbank_int_max", SPEECH, rate(16000),
               init_error(257, 16000, 2**31 - 1), filterbank_channel_count=2**31 - 1)
add_mfcc_error("mfcc_filterbank_int_max_minus_1", SPEECH, rate(16000),
               init_error(257, 16000, 2**31 - 2), filterbank_channel_count=2**31 - 2)
add_mfcc_error("mfcc_negative_filterbank", SPEECH, rate(16000), init_error(257, 16000, -1),
               filterbank_channel_count=-1)
add_mfcc_error("mfcc_negative_lower", SPEECH, rate(16000), init_error(257, 16000),
               lower_frequency_limit=-1.0)
add_mfcc_error("mfcc_upper_equals_lower", SPEECH, rate(16000),
               init_error(257, 16000), lower_frequency_limit=300.0,
               upper_frequency_limit=300.0)

w.write()
