"""Writes fuzz/corpus/image_decoders_fuzzer/: small valid files of every format it decodes.

Run from anywhere: python3 fuzz/gen_image_decoders_corpus.py (needs TensorFlow 2.x and numpy).

Each file is the fuzzer's 4-byte header (op, attr bits; fuzz/image_decoders_fuzzer.cc) and
then the file. PNG, JPEG and WAV data are TensorFlow's own encoders' output; TensorFlow has no
GIF or BMP encoder, so those are written here byte by byte (GIF with real LZW codes, growing
code widths and a table reset, so the seeds reach giflib's decompressor beyond its first
codes). Every seed is checked to decode in TensorFlow before it is written.
"""
import os
import struct

import numpy as np
import tensorflow as tf

R = tf.raw_ops
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus",
                   "image_decoders_fuzzer")
OPS = ["DecodeImage", "DecodePng", "DecodeJpeg", "DecodeGif", "DecodeBmp",
       "DecodeAndCropJpeg", "ExtractJpegShape", "DecodeWav"]
rng = np.random.default_rng(7)
GIF_COLORS = []  # each gif()'s global color table, for checking the decoded pixels


def header(op, b1=0, b2=0, b3=0):
  return bytes([OPS.index(op), b1, b2, b3])


def lzw(indices, min_code_size):
  """GIF's variable-width LZW, LSB first, with a clear code when the table fills."""
  clear, end = 1 << min_code_size, (1 << min_code_size) + 1

  def reset():
    return {bytes([i]): i for i in range(clear)}, end + 1

  table, next_code = reset()
  width = min_code_size + 1
  acc, nbits = 0, 0
  out = bytearray()

  def emit(code, width):
    nonlocal acc, nbits
    acc |= code << nbits
    nbits += width
    while nbits >= 8:
      out.append(acc & 0xFF)
      acc >>= 8
      nbits -= 8

  emit(clear, width)
  prefix = b""
  for value in bytes(indices):
    candidate = prefix + bytes([value])
    if candidate in table:
      prefix = candidate
      continue
    emit(table[prefix], width)
    if next_code < 4096:
      table[candidate] = next_code
      next_code += 1
      # The decoder adds each entry one code later, so it widens one code later too.
      if next_code > (1 << width) and width < 12:
        width += 1
    else:
      emit(clear, width)
      table, next_code = reset()
      width = min_code_size + 1
    prefix = bytes([value])
  if prefix:
    emit(table[prefix], width)
  emit(end, width)
  if nbits:
    out.append(acc & 0xFF)
  return bytes(out)


def sub_blocks(data):
  out = b""
  for i in range(0, len(data), 255):
    chunk = data[i:i + 255]
    out += bytes([len(chunk)]) + chunk
  return out + b"\x00"


def gif(width, height, frames, bits=2):
  colors = rng.integers(0, 256, (1 << bits, 3), dtype=np.uint8)
  GIF_COLORS.append(colors)
  out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80 | (bits - 1), 0, 0)
  out += colors.tobytes()
  for i, (indices, left, top, transparent) in enumerate(frames):
    if len(frames) > 1:  # NETSCAPE loop extension once, then a delay per frame
      if i == 0:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    flags = 1 if transparent is not None else 0
    out += struct.pack("<BBBBHBB", 0x21, 0xF9, 4, flags | (1 << 2), 10,
                       transparent or 0, 0)
    h, w = indices.shape
    out += struct.pack("<BHHHHB", 0x2C, left, top, w, h, 0)
    min_code = max(2, bits)
    out += bytes([min_code]) + sub_blocks(lzw(indices.astype(np.uint8).ravel(), min_code))
  return out + b"\x3b"


def bmp(pixels, bits=24, top_down=False):
  """An uncompressed BITMAPINFOHEADER BMP of [h, w, 3 or 4] pixels (stored BGR / BGRA)."""
  h, w, c = pixels.shape
  row = (w * bits // 8 + 3) // 4 * 4
  data = b""
  rows = pixels if top_down else pixels[::-1]
  for r in rows:
    line = r[:, [2, 1, 0] + ([3] if c == 4 else [])].tobytes()
    data += line + b"\x00" * (row - len(line))
  info = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bits, 0, len(data),
                     2835, 2835, 0, 0)
  return b"BM" + struct.pack("<IHHI", 14 + len(info) + len(data), 0, 0, 14 + len(info)) + info + data


def image(shape, dtype=np.uint8):
  top = 65535 if dtype == np.uint16 else 255
  return rng.integers(0, top + 1, shape).astype(dtype)


def main():
  seeds = {}
  png_gray = R.EncodePng(image=image((5, 7, 1)), compression=-1).numpy()
  png_rgba16 = R.EncodePng(image=image((4, 3, 4), np.uint16), compression=9).numpy()
  png_rgb = R.EncodePng(image=image((6, 6, 3)), compression=0).numpy()
  jpeg_rgb = R.EncodeJpeg(image=image((9, 11, 3)), quality=90).numpy()
  jpeg_gray = R.EncodeJpeg(image=image((8, 8, 1)), format="grayscale").numpy()
  jpeg_progressive = R.EncodeJpeg(image=image((17, 10, 3)), progressive=True,
                                  chroma_downsampling=False, quality=50).numpy()
  gif_single = gif(6, 5, [(rng.integers(0, 4, (5, 6)), 0, 0, None)])
  gif_animated = gif(8, 6, [(rng.integers(0, 4, (6, 8)), 0, 0, None),
                            (rng.integers(0, 4, (3, 4)), 2, 1, 1)])
  large_indices = rng.integers(0, 256, (60, 80))
  gif_large_table = gif(80, 60, [(large_indices, 0, 0, None)], bits=8)
  # The LZW writer is this file's own: the big one (whose table fills and is reset) must
  # decode to its indices' colors.
  decoded = R.DecodeGif(contents=gif_large_table).numpy()[0]
  assert (decoded == GIF_COLORS[-1][large_indices]).all(), "the LZW writer is wrong"
  assert len(gif_large_table) < 8000, len(gif_large_table)
  bmp24 = bmp(image((3, 5, 3)))
  bmp32 = bmp(image((4, 2, 4)), bits=32, top_down=True)
  wav = R.EncodeWav(audio=rng.uniform(-1, 1, (12, 2)).astype(np.float32),
                    sample_rate=16000).numpy()

  # One seed per (op, format) the op decodes, with attrs spread over the header's bits.
  seeds["image_png_gray"] = header("DecodeImage") + png_gray
  seeds["image_png_rgba16_float"] = header("DecodeImage", 0b1000) + png_rgba16
  seeds["image_jpeg_rgb_channels1"] = header("DecodeImage", 0b01) + jpeg_rgb
  seeds["image_gif_animated_first"] = header("DecodeImage", 0b00010) + gif_animated
  seeds["image_gif_animated_expand"] = header("DecodeImage", 0b10000) + gif_animated
  seeds["image_bmp32_uint16"] = header("DecodeImage", 0b0100) + bmp32
  seeds["png_rgb"] = header("DecodePng", 0b10) + png_rgb
  seeds["png_rgba16_uint16"] = header("DecodePng", 0b0100) + png_rgba16
  seeds["jpeg_rgb_ratio2"] = header("DecodeJpeg", 0b0100000) + jpeg_rgb
  seeds["jpeg_gray_fast_dct"] = header("DecodeJpeg", 0, 0b010) + jpeg_gray
  seeds["jpeg_progressive_recover"] = header("DecodeJpeg", 0b10000010, 0b1001) + jpeg_progressive
  seeds["crop_jpeg_rgb"] = header("DecodeAndCropJpeg", 0b10, 0, 0b01011011) + jpeg_rgb
  seeds["shape_jpeg_progressive"] = header("ExtractJpegShape") + jpeg_progressive
  seeds["gif_single"] = header("DecodeGif") + gif_single
  seeds["gif_animated"] = header("DecodeGif") + gif_animated
  seeds["gif_256_colors"] = header("DecodeGif") + gif_large_table
  seeds["bmp24"] = header("DecodeBmp") + bmp24
  seeds["bmp32_channels3"] = header("DecodeBmp", 0b10) + bmp32
  seeds["wav_stereo"] = header("DecodeWav") + wav
  seeds["wav_mono_8_samples"] = header("DecodeWav", 0, 0b01000000, 9) + wav

  # Every seed must decode in TensorFlow with its op's defaults.
  decoders = {"DecodeImage": R.DecodeImage, "DecodePng": R.DecodePng,
              "DecodeJpeg": R.DecodeJpeg, "DecodeGif": R.DecodeGif, "DecodeBmp": R.DecodeBmp,
              "ExtractJpegShape": R.ExtractJpegShape, "DecodeWav": R.DecodeWav}
  os.makedirs(OUT, exist_ok=True)
  for name in os.listdir(OUT):
    os.remove(os.path.join(OUT, name))
  for name, data in sorted(seeds.items()):
    op = OPS[data[0]]
    if op == "DecodeAndCropJpeg":
      R.DecodeAndCropJpeg(contents=data[4:], crop_window=[0, 0, 1, 1])
    else:
      decoders[op](contents=data[4:])
    with open(os.path.join(OUT, name), "wb") as f:
      f.write(data)
  print("wrote %d seeds to %s" % (len(seeds), OUT))


if __name__ == "__main__":
  main()
