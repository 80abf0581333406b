"""Writes fixtures/image_decode.pbtxt: DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeImage and
ExtractJpegShape in TensorFlow.

Run from anywhere: python3 tests/kernels/gen_image_decode.py (needs TensorFlow 2.x and numpy).
Compared exactly. The JPEGs are TensorFlow's own encodings of smooth and noisy images (4:2:0
and 4:4:4, baseline and progressive, gray); the PNGs are TensorFlow's (gray, gray+alpha, RGB,
RGBA, 8 and 16 bits) plus a palette PNG with transparency and a 1-bit gray PNG written here
chunk by chunk. Truncated and corrupt data cover the recovery attrs and the errors.

Left out: GIF and BMP data, recorded by gen_image_codecs.py; WebP and JPEG XL data, which
TensorFlow decodes and Sluice refuses as UNIMPLEMENTED (decode_image_ops_test checks that).
"""
import os
import struct
import sys
import zlib

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261207)
w = CaseWriter("image_decode")

yy, xx = np.mgrid[0:37, 0:53]
SMOOTH = np.stack([(xx * 4) % 256, (yy * 6) % 256, ((xx + yy) * 3) % 256], -1).astype(np.uint8)
NOISY = rng.integers(0, 256, (29, 31, 3)).astype(np.uint8)


def jpeg(image, **kw):
  return tf.io.encode_jpeg(image, **kw).numpy()


def png(image):
  return tf.io.encode_png(image).numpy()


def chunk(kind, body):
  return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def handmade_png(width, height, bit_depth, color_type, rows, extra=b""):
  raw = b"".join(b"\x00" + row for row in rows)
  header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
  return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra +
          chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PALETTE = handmade_png(
    5, 3, 8, 3, [bytes([0, 1, 2, 3, 1]), bytes([2, 2, 0, 1, 3]), bytes([3, 0, 1, 2, 0])],
    chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])) +
    chunk(b"tRNS", bytes([255, 128, 0])))
GRAY1 = handmade_png(10, 2, 1, 0, [bytes([0b10110010, 0b11000000]), bytes([0b01010101, 0b01000000])])

JPEGS = {
    "smooth_420": jpeg(SMOOTH),
    "smooth_444": jpeg(SMOOTH, chroma_downsampling=False),
    "noisy_q60": jpeg(NOISY, quality=60),
    "progressive": jpeg(SMOOTH, progressive=True),
    "gray": jpeg(SMOOTH[..., :1]),
}
PNGS = {
    "gray": png(SMOOTH[..., :1]),
    "gray_alpha": png(np.concatenate([SMOOTH[..., :1], SMOOTH[..., 2:]], -1)),
    "rgb": png(SMOOTH),
    "rgba": png(np.concatenate([NOISY, NOISY[..., :1]], -1)),
    "rgb16": png((SMOOTH.astype(np.uint16) * 251 + 7).astype(np.uint16)),
    "gray16": png((NOISY[..., :1].astype(np.uint16) * 257 + 3).astype(np.uint16)),
    "palette_trns": PALETTE,
    "gray_1bit": GRAY1,
}


def s(data):
  return np.array(data, dtype=object)


for name, data in JPEGS.items():
  for channels in (0, 1, 3):
    w.add("jpeg_%s_c%d" % (name, channels), lambda x, c=channels: R.DecodeJpeg(contents=x,
                                                                              channels=c),
          [s(data)])
  w.add("jpeg_%s_accurate" % name,
        lambda x: R.DecodeJpeg(contents=x, dct_method="INTEGER_ACCURATE"), [s(data)])
  w.add("jpeg_%s_no_fancy" % name, lambda x: R.DecodeJpeg(contents=x, fancy_upscaling=False),
        [s(data)])
  w.add("extract_shape_%s" % name, lambda x: R.ExtractJpegShape(contents=x), [s(data)])
  w.add("extract_shape_%s_int64" % name,
        lambda x: R.ExtractJpegShape(contents=x, output_type=tf.int64), [s(data)])
for ratio in (2, 4, 8):
  w.add("jpeg_ratio%d" % ratio, lambda x, r=ratio: R.DecodeJpeg(contents=x, ratio=r),
        [s(JPEGS["smooth_420"])])
for window in ([0, 0, 37, 53], [3, 5, 10, 17], [20, 33, 17, 20], [1, 1, 1, 1]):
  w.add("crop_%s" % "_".join(map(str, window)),
        lambda x, c: R.DecodeAndCropJpeg(contents=x, crop_window=c),
        [s(JPEGS["smooth_420"]), np.array(window, np.int32)])
for window in ([0, 0, 38, 53], [-1, 0, 5, 5], [0, 0, 0, 5]):
  w.add("err_crop_%s" % "_".join(map(str, window)).replace("-", "m"),
        lambda x, c: R.DecodeAndCropJpeg(contents=x, crop_window=c),
        [s(JPEGS["smooth_420"]), np.array(window, np.int32)])
w.add("err_crop_window_size", lambda x, c: R.DecodeAndCropJpeg(contents=x, crop_window=c),
      [s(JPEGS["smooth_420"]), np.array([0, 0, 5], np.int32)])

whole = JPEGS["smooth_444"]
half = whole[:len(whole) * 2 // 3]
w.add("jpeg_truncated_recover", lambda x: R.DecodeJpeg(contents=x, try_recover_truncated=True),
      [s(half)])
w.add("jpeg_truncated_fraction", lambda x: R.DecodeJpeg(contents=x, acceptable_fraction=0.3),
      [s(half)])
w.add("err_jpeg_truncated", lambda x: R.DecodeJpeg(contents=x), [s(half)])
w.add("err_jpeg_header_only", lambda x: R.DecodeJpeg(contents=x), [s(whole[:20])])
w.add("err_jpeg_channels4", lambda x: R.DecodeJpeg(contents=x, channels=4), [s(whole)])
w.add("err_extract_shape_not_jpeg", lambda x: R.ExtractJpegShape(contents=x), [s(PNGS["rgb"])])

for name, data in PNGS.items():
  for channels in (0, 1, 3, 4):
    w.add("png_%s_c%d" % (name, channels), lambda x, c=channels: R.DecodePng(contents=x,
                                                                            channels=c),
          [s(data)])
  w.add("png_%s_uint16" % name, lambda x: R.DecodePng(contents=x, dtype=tf.uint16), [s(data)])
  w.add("image_%s_float" % name, lambda x: R.DecodeImage(contents=x, dtype=tf.float32),
        [s(data)])

# The ops decode each other's formats.
w.add("decode_png_of_jpeg", lambda x: R.DecodePng(contents=x), [s(JPEGS["smooth_420"])])
w.add("decode_jpeg_of_png", lambda x: R.DecodeJpeg(contents=x), [s(PNGS["rgba"])])
for dtype in (tf.uint8, tf.uint16, tf.float32):
  w.add("image_jpeg_%s" % dtype.name,
        lambda x, d=dtype: R.DecodeImage(contents=x, dtype=d, expand_animations=False),
        [s(JPEGS["noisy_q60"])])
w.add("image_png_uint16", lambda x: R.DecodeImage(contents=x, dtype=tf.uint16),
      [s(PNGS["rgb"])])
w.add("err_crop_of_png", lambda x, c: R.DecodeAndCropJpeg(contents=x, crop_window=c),
      [s(PNGS["rgb"]), np.array([0, 0, 2, 2], np.int32)])
w.add("err_unknown_format", lambda x: R.DecodeImage(contents=x), [s(b"not an image")])
w.add("err_empty", lambda x: R.DecodePng(contents=x), [s(b"")])
w.add("err_not_scalar", lambda x: R.DecodePng(contents=x), [np.array([PNGS["rgb"]], dtype=object)])
w.add("err_png_corrupt", lambda x: R.DecodePng(contents=x),
      [s(PNGS["rgb"][:50] + bytes(30) + PNGS["rgb"][80:])])
w.add("err_png_truncated", lambda x: R.DecodePng(contents=x), [s(PNGS["rgb"][:60])])
w.add("err_bmp_to_jpeg_op", lambda x: R.DecodeJpeg(contents=x), [s(b"BM" + bytes(60))])

w.write()
