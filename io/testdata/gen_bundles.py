"""Writes the V2 checkpoints (tensor bundles) that io/tensor_bundle_test.cc and the checkpoint
kernels' tests read, with TensorFlow's own ops, and records what TensorFlow reads back.

Run from the repository root: python3 io/testdata/gen_bundles.py (needs TensorFlow 2.x).
Everything goes to io/testdata/bundles/:

  all_dtypes.{index,data-00000-of-00001}
      tf.raw_ops.SaveV2 of one tensor per dtype a bundle stores (every real, complex, bool,
      string and quantized dtype), scalars and empty tensors, in the order of all_dtypes.txt.
  all_dtypes.txt
      one line per saved tensor, in the order SaveV2 got them: "key<TAB>TensorProto" (text
      format, one line) of the value TensorFlow reads back with RestoreV2.
  many_keys.{index,data-00000-of-00001}
      SaveV2 of 1300 int32 scalars, key i = "k%05d_" + 200 times chr(ord('a') + i % 26), value
      i * 7 - 3, in key order: about 280 KB of index, so two data blocks, restarts every 16
      keys and a shortened index key between the blocks.
  tf_checkpoint-1.{index,data-00000-of-00001}, tf_checkpoint.txt
      tf.train.Checkpoint(...).write(): a TensorFlow 2 object checkpoint (saved sharded and
      merged by MergeV2Checkpoints), with every value as read by tf.train.load_checkpoint.
  merge_in/part-0000{0,1}-of-00002.{index,data-00000-of-00001}, merged.{index,data-*}
      two shards written by SaveV2 (copied to merge_in/ before merging), and what
      tf.raw_ops.MergeV2Checkpoints made of them.
  errors.txt
      "case<TAB>code" for RestoreV2 on damaged or mismatched bundles (io/tensor_bundle_test.cc
      applies the same damage to all_dtypes and expects the same codes), and for
      MergeV2Checkpoints' argument errors.
"""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
from google.protobuf import text_format

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundles")


def all_dtype_tensors():
    """(key, tf.Tensor) in save order."""
    t = []
    t.append(("float", tf.constant([[1.5, -2.25, 3.0], [np.inf, -0.0, 1e-40]], tf.float32)))
    t.append(("double", tf.constant([np.pi, -1e300, np.nan], tf.float64)))
    t.append(("half", tf.constant([0.5, -65504.0, 6e-8, 1.0], tf.float16)))
    t.append(("bfloat16", tf.constant([1.0, -3.140625, 1e30], tf.bfloat16)))
    t.append(("int8", tf.constant([-128, 0, 127], tf.int8)))
    t.append(("int16", tf.constant([-32768, 1, 32767], tf.int16)))
    t.append(("int32", tf.constant([[-(2**31), 2], [3, 2**31 - 1]], tf.int32)))
    t.append(("int64", tf.constant([-(2**63), 5, 2**63 - 1], tf.int64)))
    t.append(("uint8", tf.constant([0, 200, 255], tf.uint8)))
    t.append(("uint16", tf.constant([0, 65535], tf.uint16)))
    t.append(("uint32", tf.constant([0, 2**32 - 1], tf.uint32)))
    t.append(("uint64", tf.constant([0, 2**64 - 1], tf.uint64)))
    t.append(("bool", tf.constant([True, False, True], tf.bool)))
    t.append(("complex64", tf.constant([1 + 2j, -3.5 - 0.25j], tf.complex64)))
    t.append(("complex128", tf.constant([1e-300 + 2j], tf.complex128)))
    t.append(("string", tf.constant([b"", b"a", b"hello checkpoint", b"x" * 300,
                                     b"\x00\xff\n\xc3\xa9"])))
    t.append(("string_scalar", tf.constant(b"just one")))
    t.append(("string_empty", tf.zeros([0, 2], tf.string)))
    t.append(("scalar", tf.constant(42.0, tf.float32)))
    t.append(("empty", tf.zeros([0, 3], tf.float32)))
    t.append(("empty_int64", tf.zeros([4, 0], tf.int64)))
    t.append(("a/nested/name:0", tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])))
    t.append(("qint8", tf.cast(tf.constant([-5, 7], tf.int8), tf.qint8)))
    t.append(("quint8", tf.cast(tf.constant([5, 250], tf.uint8), tf.quint8)))
    t.append(("qint32", tf.cast(tf.constant([-70000, 3], tf.int32), tf.qint32)))
    t.append(("qint16", tf.cast(tf.constant([-300, 3], tf.int16), tf.qint16)))
    t.append(("quint16", tf.cast(tf.constant([60000, 3], tf.uint16), tf.quint16)))
    return t


def save(prefix, keyed):
    keys = [k for k, _ in keyed]
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=keys, shape_and_slices=[""] * len(keys),
                      tensors=[v for _, v in keyed])


def restore(prefix, keys, dtypes):
    return tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=keys,
                                shape_and_slices=[""] * len(keys), dtypes=dtypes)


def proto_line(value):
    proto = tf.make_tensor_proto(value.numpy(), dtype=value.dtype)
    return text_format.MessageToString(proto, as_one_line=True)


def write_expected(path, pairs):
    with open(path, "w") as f:
        for key, value in pairs:
            f.write("%s\t%s\n" % (key, proto_line(value)))


def many_keys():
    keys = ["k%05d_" % i + chr(ord("a") + i % 26) * 200 for i in range(1300)]
    values = [tf.constant(i * 7 - 3, tf.int32) for i in range(1300)]
    save(os.path.join(OUT, "many_keys"), list(zip(keys, values)))


def error_code(fn):
    try:
        fn()
    except tf.errors.OpError as e:
        return type(e).__name__, e.message
    return "OK", ""


CODE_NAMES = {
    "NotFoundError": "NOT_FOUND", "InvalidArgumentError": "INVALID_ARGUMENT",
    "DataLossError": "DATA_LOSS", "InternalError": "INTERNAL", "OutOfRangeError": "OUT_OF_RANGE",
    "UnimplementedError": "UNIMPLEMENTED", "OK": "OK", "UnknownError": "UNKNOWN",
    "FailedPreconditionError": "FAILED_PRECONDITION",
}


def damaged(tmp, name, damage):
    """A copy of all_dtypes under tmp/name with `damage` applied to (index, data) bytes."""
    prefix = os.path.join(tmp, name)
    index = open(os.path.join(OUT, "all_dtypes.index"), "rb").read()
    data = open(os.path.join(OUT, "all_dtypes.data-00000-of-00001"), "rb").read()
    index, data = damage(index, data)
    if index is not None:
        open(prefix + ".index", "wb").write(index)
    if data is not None:
        open(prefix + ".data-00000-of-00001", "wb").write(data)
    return prefix


def flip(b, pos):
    b = bytearray(b)
    b[pos] ^= 0x01
    return bytes(b)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)

    # 1. every dtype
    keyed = all_dtype_tensors()
    save(os.path.join(OUT, "all_dtypes"), keyed)
    restored = restore(os.path.join(OUT, "all_dtypes"), [k for k, _ in keyed],
                       [v.dtype for _, v in keyed])
    write_expected(os.path.join(OUT, "all_dtypes.txt"),
                   [(k, r) for (k, _), r in zip(keyed, restored)])

    # 2. many keys
    many_keys()

    # 3. a TensorFlow 2 object checkpoint
    ckpt = tf.train.Checkpoint(
        dense=tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="kernel"),
        step=tf.Variable(7, dtype=tf.int64),
        words=tf.Variable(["alpha", "beta"]),
        half=tf.Variable(tf.constant([1.5, 2.5], tf.float16)))
    tmp_ckpt = tempfile.mkdtemp()
    path = ckpt.write(os.path.join(tmp_ckpt, "tf_checkpoint-1"))
    for suffix in (".index", ".data-00000-of-00001"):
        shutil.copy(path + suffix, os.path.join(OUT, "tf_checkpoint-1" + suffix))
    reader = tf.train.load_checkpoint(os.path.join(OUT, "tf_checkpoint-1"))
    keys = sorted(reader.get_variable_to_shape_map())
    write_expected(os.path.join(OUT, "tf_checkpoint.txt"),
                   [(k, tf.constant(reader.get_tensor(k))) for k in keys])

    # 4. a merge of two shards
    tmp = tempfile.mkdtemp()
    part0 = os.path.join(tmp, "in", "part-00000-of-00002")
    part1 = os.path.join(tmp, "in", "part-00001-of-00002")
    save(part0, [("b", tf.constant([1.0, 2.0])), ("d", tf.constant(["x", "yz"]))])
    save(part1, [("a", tf.constant([[3, 4]], tf.int64)), ("c", tf.constant(True))])
    os.makedirs(os.path.join(OUT, "merge_in"))
    for p in (part0, part1):
        for suffix in (".index", ".data-00000-of-00001"):
            shutil.copy(p + suffix, os.path.join(OUT, "merge_in", os.path.basename(p) + suffix))
    merged = os.path.join(tmp, "out", "merged")
    os.makedirs(os.path.dirname(merged))
    tf.raw_ops.MergeV2Checkpoints(checkpoint_prefixes=[part0, part1], destination_prefix=merged,
                                  delete_old_dirs=True)
    for f in sorted(os.listdir(os.path.dirname(merged))):
        shutil.copy(os.path.join(tmp, "out", f), os.path.join(OUT, f))
    merge_dir_left = os.path.isdir(os.path.join(tmp, "in"))

    # 5. errors
    all_keys = [k for k, _ in keyed]
    all_dtypes = [v.dtype for _, v in keyed]
    index_size = os.path.getsize(os.path.join(OUT, "all_dtypes.index"))
    data_size = os.path.getsize(os.path.join(OUT, "all_dtypes.data-00000-of-00001"))
    etmp = tempfile.mkdtemp()
    cases = []

    def restore_all(prefix):
        return lambda: restore(prefix, all_keys, all_dtypes)

    cases.append(("missing_prefix", restore_all(os.path.join(etmp, "nothing_here"))))
    src = os.path.join(OUT, "all_dtypes")
    cases.append(("missing_key", lambda: restore(src, ["float", "no_such_key"],
                                                 [tf.float32, tf.float32])))
    cases.append(("dtype_mismatch", lambda: restore(src, ["float", "int32"],
                                                    [tf.float64, tf.int32])))
    cases.append(("empty_index", restore_all(damaged(etmp, "empty_index", lambda i, d: (b"", d)))))
    for n in (1, 47, 48, index_size // 2, index_size - 1):
        cases.append(("truncate_index_%d" % n, restore_all(
            damaged(etmp, "ti%d" % n, lambda i, d, n=n: (i[:n], d)))))
    cases.append(("bad_magic", restore_all(
        damaged(etmp, "bad_magic", lambda i, d: (flip(i, len(i) - 1), d)))))
    cases.append(("index_block_crc", restore_all(
        damaged(etmp, "index_crc", lambda i, d: (flip(i, 10), d)))))
    cases.append(("data_flip_0", restore_all(
        damaged(etmp, "df0", lambda i, d: (i, flip(d, 0))))))
    cases.append(("data_flip_last", restore_all(
        damaged(etmp, "dfl", lambda i, d: (i, flip(d, len(d) - 1))))))
    cases.append(("data_truncated", restore_all(
        damaged(etmp, "dt", lambda i, d: (i, d[:data_size // 2])))))
    cases.append(("data_missing", restore_all(
        damaged(etmp, "dm", lambda i, d: (i, None)))))
    cases.append(("merge_missing_input", lambda: tf.raw_ops.MergeV2Checkpoints(
        checkpoint_prefixes=[os.path.join(etmp, "nope")],
        destination_prefix=os.path.join(etmp, "m1"))))
    cases.append(("merge_all_missing_allowed", lambda: tf.raw_ops.MergeV2Checkpoints(
        checkpoint_prefixes=[os.path.join(etmp, "nope")],
        destination_prefix=os.path.join(etmp, "m2"), allow_missing_files=True)))
    cases.append(("merge_prefixes_not_vector", lambda: tf.raw_ops.MergeV2Checkpoints(
        checkpoint_prefixes=[[src]], destination_prefix=os.path.join(etmp, "m3"))))
    cases.append(("merge_destination_not_scalar", lambda: tf.raw_ops.MergeV2Checkpoints(
        checkpoint_prefixes=[src], destination_prefix=[os.path.join(etmp, "m4")])))
    with open(os.path.join(OUT, "errors.txt"), "w") as f:
        for name, fn in cases:
            code, message = error_code(fn)
            f.write("%s\t%s\n" % (name, CODE_NAMES[code]))
            print("%-28s %-18s %s" % (name, CODE_NAMES[code], message[:150].replace("\n", " ")))
    print("merge input dir left after delete_old_dirs:", merge_dir_left)


if __name__ == "__main__":
    main()
