"""Writes fixtures/image_codecs.pbtxt: EncodePng, EncodeJpeg, EncodeJpegVariableQuality,
DecodeBmp and DecodeGif, and DecodeImage (and the other decoders) on BMP and GIF data, in
TensorFlow.

Run from anywhere: python3 tests/kernels/gen_image_codecs.py (needs TensorFlow 2.x and numpy).
Compared exactly. The encoders' strings are compared byte for byte: Sluice's libpng/zlib and
libjpeg-turbo produce TensorFlow's bytes for every case here (deflate 1.2.13 and TensorFlow's
1.3.1 agree on these images; libjpeg-turbo 2.1.5's encoder is integer code). Should a library
update change that, image_codec_ops_test still checks what does not depend on the bytes
(decode(encode(x)) == x for PNG, JPEG within a tolerance).

The BMPs (8-bit gray, 24-bit BGR, 32-bit BGRA; bottom-up and top-down; rows padded to 4 bytes)
and GIFs (one and several frames, offsets, transparency, disposal methods, local color tables)
are written here byte by byte; the GIFs' LZW data is written uncompressed (a clear code before
the code width would grow), which every decoder reads.

Left out: DecodeImage of a top-down BMP to uint16 or float, where TensorFlow sizes a buffer
with the negative height and aborts; image_codec_ops_test checks Sluice's answer.
"""
import os
import struct
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import CaseWriter  # pylint: disable=g-import-not-at-top

R = tf.raw_ops
rng = np.random.default_rng(20261208)
w = CaseWriter("image_codecs")


def s(data):
  return np.array(data, dtype=object)


yy, xx = np.mgrid[0:19, 0:23]
SMOOTH = np.stack([(xx * 11) % 256, (yy * 13) % 256, ((xx + yy) * 5) % 256], -1).astype(np.uint8)
NOISY = rng.integers(0, 256, (13, 17, 4)).astype(np.uint8)
WIDE16 = rng.integers(0, 65536, (9, 7, 4)).astype(np.uint16)

# --- EncodePng -------------------------------------------------------------------------------
for c in (1, 2, 3, 4):
  w.add("png_uint8_c%d" % c, lambda x: R.EncodePng(image=x), [NOISY[..., :c]])
  w.add("png_uint16_c%d" % c, lambda x: R.EncodePng(image=x), [WIDE16[..., :c]])
for level in (-1, 0, 1, 6, 9):
  w.add("png_smooth_level%d" % level, lambda x, l=level: R.EncodePng(image=x, compression=l),
        [SMOOTH])
  w.add("png_uint16_level%d" % level, lambda x, l=level: R.EncodePng(image=x, compression=l),
        [(SMOOTH.astype(np.uint16) * 257)])
w.add("png_batch", lambda x: R.EncodePng(image=x),
      [rng.integers(0, 256, (2, 3, 4, 5, 3)).astype(np.uint8)])
w.add("png_one_pixel", lambda x: R.EncodePng(image=x), [np.array([[[7]]], np.uint8)])
w.add("png_empty_batch", lambda x: R.EncodePng(image=x), [np.zeros((0, 4, 5, 3), np.uint8)])
w.add("err_png_rank2", lambda x: R.EncodePng(image=x), [np.zeros((4, 5), np.uint8)])
w.add("err_png_channels5", lambda x: R.EncodePng(image=x), [np.zeros((4, 5, 5), np.uint8)])
w.add("err_png_channels0", lambda x: R.EncodePng(image=x), [np.zeros((4, 5, 0), np.uint8)])
w.add("err_png_height0", lambda x: R.EncodePng(image=x), [np.zeros((0, 5, 3), np.uint8)])
w.add("err_png_batch_width0", lambda x: R.EncodePng(image=x), [np.zeros((3, 2, 0, 3), np.uint8)])
w.add("err_png_too_wide", lambda x: R.EncodePng(image=x), [np.zeros((0, 1 << 30, 1), np.uint8)])
w.add("err_png_compression10", lambda x: R.EncodePng(image=x, compression=10), [SMOOTH])
w.add("err_png_compression_m2", lambda x: R.EncodePng(image=x, compression=-2), [SMOOTH])

# --- EncodeJpeg ------------------------------------------------------------------------------
GRAY = SMOOTH[..., :1]
JPEG_ATTRS = {
    "default": {},
    "q0": {"quality": 0},
    "q50": {"quality": 50},
    "q100": {"quality": 100},
    "progressive": {"progressive": True},
    "optimize": {"optimize_size": True},
    "no_chroma_downsampling": {"chroma_downsampling": False},
    "density_cm": {"density_unit": "cm", "x_density": 72, "y_density": 96},
    "density_wraps": {"x_density": 70000, "y_density": -1},
    "xmp": {"xmp_metadata": "<x:xmpmeta>sluice</x:xmpmeta>"},
    "all": {"quality": 80, "progressive": True, "optimize_size": True,
            "chroma_downsampling": False},
}
for name, attrs in JPEG_ATTRS.items():
  w.add("jpeg_rgb_" + name, lambda x, a=attrs: R.EncodeJpeg(image=x, **a), [SMOOTH])
  w.add("jpeg_gray_" + name, lambda x, a=attrs: R.EncodeJpeg(image=x, **a), [GRAY])
w.add("jpeg_noisy", lambda x: R.EncodeJpeg(image=x), [NOISY[..., :3]])
w.add("jpeg_format_rgb", lambda x: R.EncodeJpeg(image=x, format="rgb"), [NOISY[..., :3]])
w.add("jpeg_format_gray", lambda x: R.EncodeJpeg(image=x, format="grayscale"), [GRAY])
w.add("jpeg_one_pixel", lambda x: R.EncodeJpeg(image=x), [np.array([[[1, 2, 3]]], np.uint8)])
w.add("jpeg_odd_size", lambda x: R.EncodeJpeg(image=x), [SMOOTH[:17, :9]])
for q in (1, 75, 100):
  w.add("jpeg_variable_q%d" % q, lambda x, y: R.EncodeJpegVariableQuality(images=x, quality=y),
        [SMOOTH, np.int32(q)])
w.add("jpeg_variable_gray", lambda x, y: R.EncodeJpegVariableQuality(images=x, quality=y),
      [GRAY, np.int32(60)])
w.add("err_jpeg_rank2", lambda x: R.EncodeJpeg(image=x), [np.zeros((4, 5), np.uint8)])
w.add("err_jpeg_rank4", lambda x: R.EncodeJpeg(image=x), [np.zeros((1, 4, 5, 3), np.uint8)])
w.add("err_jpeg_channels2", lambda x: R.EncodeJpeg(image=x), [np.zeros((4, 5, 2), np.uint8)])
w.add("err_jpeg_channels4", lambda x: R.EncodeJpeg(image=x), [NOISY])
w.add("err_jpeg_rgb_of_gray", lambda x: R.EncodeJpeg(image=x, format="rgb"), [GRAY])
w.add("err_jpeg_gray_of_rgb", lambda x: R.EncodeJpeg(image=x, format="grayscale"), [SMOOTH])
w.add("err_jpeg_quality101", lambda x: R.EncodeJpeg(image=x, quality=101), [SMOOTH])
w.add("err_jpeg_quality_m1", lambda x: R.EncodeJpeg(image=x, quality=-1), [SMOOTH])
w.add("err_jpeg_empty", lambda x: R.EncodeJpeg(image=x), [np.zeros((0, 5, 3), np.uint8)])
w.add("err_jpeg_xmp_too_long", lambda x: R.EncodeJpeg(image=x, xmp_metadata="x" * 65505),
      [GRAY])
w.add("jpeg_xmp_longest", lambda x: R.EncodeJpeg(image=x, xmp_metadata="y" * 65504), [GRAY])
w.add("err_jpeg_variable_quality_vector",
      lambda x, y: R.EncodeJpegVariableQuality(images=x, quality=y),
      [SMOOTH, np.array([50], np.int32)])
w.add("err_jpeg_variable_quality101",
      lambda x, y: R.EncodeJpegVariableQuality(images=x, quality=y), [SMOOTH, np.int32(101)])
w.add("err_jpeg_variable_channels4",
      lambda x, y: R.EncodeJpegVariableQuality(images=x, quality=y), [NOISY, np.int32(50)])
w.add("err_jpeg_variable_rank4",
      lambda x, y: R.EncodeJpegVariableQuality(images=x, quality=y),
      [SMOOTH[None], np.int32(50)])


# --- BMP -------------------------------------------------------------------------------------
def bmp(pixels, top_down=False, header=54, extra=b""):
  """A BMP of `pixels` ([h, w, c] uint8 in the file's order: gray, BGR or BGRA)."""
  h, wd, c = pixels.shape
  row = (wd * c + 3) // 4 * 4
  rows = [bytes(p.tobytes()) + bytes(row - wd * c) for p in pixels]
  if not top_down:
    rows = rows[::-1]
  body = b"".join(rows)
  info = struct.pack("<IiiHHIIiiII", 40, wd, -h if top_down else h, 1, 8 * c, 0, len(body), 2835,
                     2835, 0, 0)
  info = info + bytes(header - 14 - len(info))
  return b"BM" + struct.pack("<IHHI", header + len(body), 0, 0, header) + info + body + extra


BMPS = {
    "bgr_bottom_up": bmp(SMOOTH[:5, :7]),
    "bgr_top_down": bmp(SMOOTH[:5, :7], top_down=True),
    "bgra_bottom_up": bmp(NOISY[:4, :3]),
    "bgra_top_down": bmp(NOISY[:4, :3], top_down=True),
    "gray_bottom_up": bmp(NOISY[:3, :5, :1]),
    "gray_top_down": bmp(NOISY[:3, :5, :1], top_down=True),
    "bgr_v5_header": bmp(SMOOTH[:2, :3], header=138),
}
for name, data in BMPS.items():
  for channels in (0, 3, 4):
    w.add("bmp_%s_c%d" % (name, channels),
          lambda x, c=channels: R.DecodeBmp(contents=x, channels=c), [s(data)])
  w.add("image_bmp_%s" % name, lambda x: R.DecodeImage(contents=x), [s(data)])
  if "top_down" not in name:
    for dtype in (tf.uint16, tf.float32):
      w.add("image_bmp_%s_%s" % (name, dtype.name),
            lambda x, d=dtype: R.DecodeImage(contents=x, dtype=d, channels=4), [s(data)])

BGR = BMPS["bgr_bottom_up"]


def patched(data, at, fmt, value):
  return data[:at] + struct.pack(fmt, value) + data[at + struct.calcsize(fmt):]


w.add("err_bmp_channels1", lambda x: R.DecodeBmp(contents=x, channels=1), [s(BGR)])
w.add("err_bmp_image_channels1", lambda x: R.DecodeImage(contents=x, channels=1), [s(BGR)])
w.add("err_bmp_short", lambda x: R.DecodeBmp(contents=x), [s(BGR[:31])])
w.add("err_bmp_16bit", lambda x: R.DecodeBmp(contents=x), [s(patched(BGR, 28, "<H", 16))])
w.add("err_bmp_0bit", lambda x: R.DecodeBmp(contents=x), [s(patched(BGR, 28, "<H", 0))])
w.add("err_bmp_negative_bits", lambda x: R.DecodeBmp(contents=x),
      [s(patched(BGR, 28, "<h", -24))])
w.add("err_bmp_width0", lambda x: R.DecodeBmp(contents=x), [s(patched(BGR, 18, "<i", 0))])
w.add("err_bmp_width_negative", lambda x: R.DecodeBmp(contents=x),
      [s(patched(BGR, 18, "<i", -7))])
w.add("err_bmp_height0", lambda x: R.DecodeBmp(contents=x), [s(patched(BGR, 22, "<i", 0))])
w.add("err_bmp_offset_negative", lambda x: R.DecodeBmp(contents=x),
      [s(patched(BGR, 10, "<i", -1))])
w.add("err_bmp_too_many_pixels", lambda x: R.DecodeBmp(contents=x),
      [s(patched(patched(BGR, 18, "<i", 1 << 14), 22, "<i", -(1 << 14)))])
w.add("err_bmp_height_min", lambda x: R.DecodeBmp(contents=x),
      [s(patched(BGR, 22, "<i", -(1 << 31)))])
w.add("err_bmp_offset_huge", lambda x: R.DecodeBmp(contents=x),
      [s(patched(BGR, 10, "<i", (1 << 31) - 1))])
w.add("err_bmp_one_byte_more", lambda x: R.DecodeBmp(contents=x), [s(BGR + b"\0")])
w.add("err_bmp_one_byte_less", lambda x: R.DecodeBmp(contents=x), [s(BGR[:-1])])
w.add("err_bmp_taller", lambda x: R.DecodeBmp(contents=x), [s(patched(BGR, 22, "<i", 9))])
w.add("err_png_op_of_bmp", lambda x: R.DecodePng(contents=x), [s(BGR)])
w.add("err_gif_op_of_bmp", lambda x: R.DecodeGif(contents=x), [s(BGR)])
w.add("err_crop_of_bmp", lambda x, c: R.DecodeAndCropJpeg(contents=x, crop_window=c),
      [s(BGR), np.array([0, 0, 1, 1], np.int32)])
w.add("err_jpeg_op_of_bmp_channels1", lambda x: R.DecodeJpeg(contents=x, channels=1), [s(BGR)])

JPEG = tf.io.encode_jpeg(SMOOTH).numpy()
PNG = tf.io.encode_png(NOISY).numpy()
w.add("err_bmp_op_of_jpeg", lambda x: R.DecodeBmp(contents=x), [s(JPEG)])
w.add("err_bmp_op_of_jpeg_c4", lambda x: R.DecodeBmp(contents=x, channels=4), [s(JPEG)])
w.add("err_bmp_op_of_png", lambda x: R.DecodeBmp(contents=x), [s(PNG)])
w.add("gif_op_of_jpeg", lambda x: R.DecodeGif(contents=x), [s(JPEG)])
w.add("gif_op_of_png", lambda x: R.DecodeGif(contents=x), [s(PNG)])
w.add("err_bmp_op_not_scalar", lambda x: R.DecodeBmp(contents=x), [np.array([BGR], dtype=object)])
w.add("err_gif_op_empty", lambda x: R.DecodeGif(contents=x), [s(b"")])
w.add("err_gif_op_unknown", lambda x: R.DecodeGif(contents=x), [s(b"not an image")])


# --- GIF -------------------------------------------------------------------------------------
def lzw(indices, min_code_size):
  """LZW codes that never grow past min_code_size + 1 bits: a clear code every few literals."""
  clear = 1 << min_code_size
  codes, run = [clear], 0
  for i in indices:
    codes.append(int(i))
    run += 1
    if run == clear - 2:
      codes.append(clear)
      run = 0
  codes.append(clear + 1)
  bits, nbits, out = 0, 0, bytearray()
  for code in codes:
    bits |= code << nbits
    nbits += min_code_size + 1
    while nbits >= 8:
      out.append(bits & 0xff)
      bits >>= 8
      nbits -= 8
  if nbits:
    out.append(bits & 0xff)
  blocks = b"".join(bytes([len(out[i:i + 255])]) + bytes(out[i:i + 255])
                    for i in range(0, len(out), 255))
  return bytes([min_code_size]) + blocks + b"\0"


def table(colors, size_bits):
  flat = bytearray()
  for c in colors:
    flat += bytes(c)
  return bytes(flat) + bytes(3 * (1 << size_bits) - len(flat))


def frame(indices, left=0, top=0, local=None, transparent=None, disposal=0, bits=2,
          interlace=False):
  h, wd = indices.shape
  out = b""
  if transparent is not None or disposal:
    packed = (disposal << 2) | (1 if transparent is not None else 0)
    out += b"\x21\xf9\x04" + struct.pack("<BHB", packed, 10, transparent or 0) + b"\0"
  packed = (0x80 | (bits - 1)) if local is not None else 0
  if interlace:
    packed |= 0x40
    indices = indices[np.concatenate([np.arange(0, h, 8), np.arange(4, h, 8), np.arange(2, h, 4),
                                      np.arange(1, h, 2)])]
  out += b"\x2c" + struct.pack("<HHHHB", left, top, wd, h, packed)
  if local is not None:
    out += table(local, bits)
  return out + lzw(indices.reshape(-1), max(2, bits))


def gif(width, height, frames, palette=None, bits=2):
  packed = (0x80 | 0x70 | (bits - 1)) if palette is not None else 0x70
  out = b"GIF89a" + struct.pack("<HHBBB", width, height, packed, 0, 0)
  if palette is not None:
    out += table(palette, bits)
  return out + b"".join(frames) + b";"


PALETTE = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (250, 200, 100)]
LOCAL = [(1, 2, 3), (40, 50, 60), (70, 80, 90), (100, 110, 120), (5, 5, 5), (9, 9, 9),
         (200, 201, 202), (255, 255, 255)]
F0 = rng.integers(0, 4, (5, 6))
F1 = rng.integers(0, 4, (2, 3))
F2 = rng.integers(0, 8, (5, 6))
GIFS = {
    "single": gif(6, 5, [frame(F0)], PALETTE),
    "animated": gif(6, 5, [frame(F0),
                           frame(F1, left=2, top=1, transparent=1, disposal=2),
                           frame(F2, local=LOCAL, bits=3, transparent=7, disposal=3),
                           frame(F1, left=4, top=3, disposal=1)], PALETTE),
    "first_frame_partial": gif(6, 5, [frame(F1, left=1, top=1), frame(F0, transparent=0)],
                               PALETTE),
    "first_frame_transparent": gif(6, 5, [frame(F0, transparent=2)], PALETTE),
    "frame_past_canvas": gif(6, 5, [frame(F0), frame(F0[:4, :5], left=3, top=2)], PALETTE),
    "local_table_only": gif(6, 5, [frame(F2, local=LOCAL, bits=3)]),
    "screen_larger": gif(20, 20, [frame(F0)], PALETTE),
    "interlaced": gif(7, 11, [frame(rng.integers(0, 4, (11, 7)), interlace=True)], PALETTE),
    "gif87a": b"GIF87a" + gif(6, 5, [frame(F0)], PALETTE)[6:],
    "palette256": gif(16, 9, [frame(rng.integers(0, 256, (9, 16)), bits=8)],
                      [(i, 255 - i, (7 * i) % 256) for i in range(256)], bits=8),
}
for name, data in GIFS.items():
  w.add("gif_%s" % name, lambda x: R.DecodeGif(contents=x), [s(data)])
  w.add("image_gif_%s" % name, lambda x: R.DecodeImage(contents=x), [s(data)])
  w.add("image_gif_%s_first" % name,
        lambda x: R.DecodeImage(contents=x, expand_animations=False, channels=3), [s(data)])
for dtype in (tf.uint16, tf.float32):
  for expand in (True, False):
    w.add("image_gif_animated_%s_%s" % (dtype.name, expand),
          lambda x, d=dtype, e=expand: R.DecodeImage(contents=x, dtype=d, expand_animations=e),
          [s(GIFS["animated"])])
w.add("png_op_of_gif", lambda x: R.DecodePng(contents=x), [s(GIFS["single"])])
w.add("jpeg_op_of_gif", lambda x: R.DecodeJpeg(contents=x, channels=3), [s(GIFS["single"])])
w.add("err_png_op_of_animated_gif", lambda x: R.DecodePng(contents=x), [s(GIFS["animated"])])
w.add("err_jpeg_op_of_animated_gif", lambda x: R.DecodeJpeg(contents=x), [s(GIFS["animated"])])
w.add("err_gif_channels1", lambda x: R.DecodeImage(contents=x, channels=1), [s(GIFS["single"])])
w.add("err_gif_channels4", lambda x: R.DecodePng(contents=x, channels=4), [s(GIFS["single"])])
w.add("err_bmp_op_of_gif", lambda x: R.DecodeBmp(contents=x), [s(GIFS["single"])])
w.add("err_bmp_op_of_gif_c1", lambda x: R.DecodeBmp(contents=x, channels=1), [s(GIFS["single"])])
w.add("err_crop_of_gif", lambda x, c: R.DecodeAndCropJpeg(contents=x, crop_window=c),
      [s(GIFS["single"]), np.array([0, 0, 1, 1], np.int32)])
# Cut in the header, the first frame's descriptor, between frames, in the second frame's
# extension and descriptor, before the trailer. Giflib keeps the frames read before a failed
# read, and TensorFlow decodes them. Not cut inside a frame's pixel data: giflib then leaves
# the rest of that frame's pixels uninitialised, and TensorFlow decodes them all the same.
ANIMATED = GIFS["animated"]
FIRST_FRAME_END = len(gif(6, 5, [frame(F0)], PALETTE)) - 1
for cut in (6, 12, 30, FIRST_FRAME_END, FIRST_FRAME_END + 3, FIRST_FRAME_END + 12,
            len(ANIMATED) - 1):
  w.add("gif_truncated_%d" % cut, lambda x: R.DecodeGif(contents=x), [s(ANIMATED[:cut])])
w.add("err_gif_pixels_missing", lambda x: R.DecodeGif(contents=x),
      [s(gif(6, 5, [frame(F0)], PALETTE)[:-1 - len(lzw(F0.reshape(-1), 2))] +
         lzw(F0.reshape(-1)[:-3], 2) + b";")])
w.add("err_gif_not_gif", lambda x: R.DecodeGif(contents=x), [s(b"GIF8" + bytes(20))])
w.add("err_gif_no_image", lambda x: R.DecodeGif(contents=x), [s(gif(6, 5, [], PALETTE))])
w.add("err_gif_color_outside_table",
      lambda x: R.DecodeGif(contents=x),
      [s(gif(6, 5, [frame(F0 * 0 + 3)], PALETTE[:2], bits=1))])
w.add("err_gif_no_color_table", lambda x: R.DecodeGif(contents=x), [s(gif(6, 5, [frame(F0)]))])
w.add("err_gif_second_frame_no_table", lambda x: R.DecodeGif(contents=x),
      [s(gif(6, 5, [frame(F2, local=LOCAL, bits=3), frame(F0)]))])
# TensorFlow's giflib stops at an empty frame without saying why ("Unknown error"), keeping
# the frames before it.
w.add("err_gif_empty_frame", lambda x: R.DecodeGif(contents=x),
      [s(gif(6, 5, [frame(np.zeros((0, 0), int)), frame(F0)], PALETTE))])
w.add("gif_empty_second_frame", lambda x: R.DecodeGif(contents=x),
      [s(gif(6, 5, [frame(F0), frame(np.zeros((0, 4), int)), frame(F0)], PALETTE))])
w.add("gif_garbage_after_frame", lambda x: R.DecodeGif(contents=x),
      [s(GIFS["single"][:-1] + b"\x99junk")])

w.write()
