// Reading serialized tf.train.Example protos the way TensorFlow's fast Example parser
// (example_proto_fast_parsing) reads them, byte for byte, so that the same records are
// accepted and rejected:
//  - the reader follows protobuf's CodedInputStream: a length that runs past the enclosing
//    limit is cut to it (so an Example whose Features claims more bytes than remain is read
//    to its end), while a string or packed run must fit;
//  - an Example is any number of Features fields (1) and unknown fields, which are skipped;
//    Features holds only map entries (field 1); each entry is exactly two fields, key (1)
//    and value (2) in either order;
//  - a Feature is its first byte, the tag of bytes_list (0x0a), float_list (0x12) or
//    int64_list (0x1a), then that list's length and contents; an empty Feature has no type;
//    a list is read as TensorFlow reads it: one packed run (bytes after it are ignored) or
//    unpacked elements.
// Nothing is copied: keys, features and strings are views into the serialized bytes.
#ifndef SLUICE_KERNELS_CPU_PARSING_EXAMPLE_WIRE_H_
#define SLUICE_KERNELS_CPU_PARSING_EXAMPLE_WIRE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "graph/core/types.h"

namespace sluice {
namespace parsing {

// Protobuf's CodedInputStream over a byte array, with its limit rules.
class WireReader {
 public:
  explicit WireReader(absl::string_view data) : data_(data), limit_(data.size()) {}

  bool AtEnd() const { return pos_ >= limit_; }
  size_t Remaining() const { return limit_ - pos_; }
  // Narrows the limit to `length` more bytes, unless that passes the current limit; returns
  // the limit to restore.
  size_t PushLimit(uint64_t length) {
    const size_t old = limit_;
    if (length < Remaining()) limit_ = pos_ + length;
    return old;
  }
  void PopLimit(size_t old) { limit_ = old; }
  // The next byte, or -1 at the limit.
  int Peek() const { return AtEnd() ? -1 : static_cast<uint8_t>(data_[pos_]); }
  // Consumes the next byte if it is `tag`.
  bool ExpectTag(uint8_t tag) {
    if (Peek() != tag) return false;
    ++pos_;
    return true;
  }
  // A varint of at most 10 bytes inside the limit.
  bool ReadVarint64(uint64_t* value);
  // The same, keeping the low 32 bits.
  bool ReadVarint32(uint32_t* value) {
    uint64_t v = 0;
    if (!ReadVarint64(&v)) return false;
    *value = static_cast<uint32_t>(v);
    return true;
  }
  // A tag; 0 at the limit or on a malformed varint.
  uint32_t ReadTag() {
    uint32_t tag = 0;
    if (AtEnd() || !ReadVarint32(&tag)) return 0;
    return tag;
  }
  bool ReadLittleEndian32(uint32_t* value);
  bool ReadLittleEndian64(uint64_t* value);
  // A length-prefixed string that must fit inside the limit.
  bool ReadString(absl::string_view* out);
  // Skips `count` bytes; past the limit it stops there and fails.
  bool Skip(uint64_t count) {
    if (count > Remaining()) {
      pos_ = limit_;
      return false;
    }
    pos_ += count;
    return true;
  }
  // Skips one field of an unknown tag (groups are refused).
  bool SkipField();

 private:
  absl::string_view data_;
  size_t pos_ = 0;
  size_t limit_;
};

// Calls `fn(index, key, feature)` for each map entry of the Example in `serialized`, in
// order, once the whole record is known to be well formed. Returns false (calling nothing)
// when it is not.
bool ForEachFeature(absl::string_view serialized,
                    absl::FunctionRef<void(int64_t, absl::string_view, absl::string_view)> fn);

// A Feature's list: its dtype (DT_INVALID for an empty Feature) and the bytes after the
// type tag. Returns false for a tag that is no list.
bool FeatureType(absl::string_view feature, DataType* dtype, absl::string_view* list);

// Reads the values of a list (the bytes FeatureType returned), calling `fn` for each.
// Returns false, having called `fn` for the values before the fault, when it is malformed.
bool ReadFloatList(absl::string_view list, absl::FunctionRef<void(float)> fn);
bool ReadInt64List(absl::string_view list, absl::FunctionRef<void(int64_t)> fn);
bool ReadBytesList(absl::string_view list, absl::FunctionRef<void(absl::string_view)> fn);

}  // namespace parsing
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_PARSING_EXAMPLE_WIRE_H_
