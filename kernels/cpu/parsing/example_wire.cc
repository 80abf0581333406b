#include "kernels/cpu/parsing/example_wire.h"

namespace sluice {
namespace parsing {
namespace {

constexpr uint8_t kDelimited1 = 0x0a;  // field 1, length-delimited
constexpr uint8_t kDelimited2 = 0x12;  // field 2, length-delimited
constexpr uint8_t kDelimited3 = 0x1a;  // field 3, length-delimited
constexpr uint8_t kVarint1 = 0x08;     // field 1, varint
constexpr uint8_t kFixed32_1 = 0x0d;   // field 1, fixed32

// One map entry: exactly two fields, each the key or the value.
bool ReadMapEntry(WireReader* in, absl::string_view* key, absl::string_view* value) {
  uint32_t length = 0;
  if (!in->ReadVarint32(&length)) return false;
  const size_t outer = in->PushLimit(length);
  for (int n = 0; n < 2; ++n) {
    switch (in->ReadTag()) {
      case kDelimited1:
        if (!in->ReadString(key)) return false;
        break;
      case kDelimited2:
        if (!in->ReadString(value)) return false;
        break;
      default:
        return false;
    }
  }
  if (!in->AtEnd()) return false;
  in->PopLimit(outer);
  return true;
}

// Walks the Example, calling `fn` for each entry when `fn` is given.
bool WalkExample(absl::string_view serialized,
                 const absl::FunctionRef<void(int64_t, absl::string_view, absl::string_view)>* fn) {
  WireReader in(serialized);
  int64_t index = 0;
  while (!in.AtEnd()) {
    if (!in.ExpectTag(kDelimited1)) {
      if (!in.SkipField()) return false;
      continue;
    }
    uint32_t length = 0;
    if (!in.ReadVarint32(&length)) return false;
    const size_t outer = in.PushLimit(length);
    while (!in.AtEnd()) {
      if (!in.ExpectTag(kDelimited1)) return false;
      absl::string_view key, value;
      if (!ReadMapEntry(&in, &key, &value)) return false;
      if (fn != nullptr) (*fn)(index, key, value);
      ++index;
    }
    in.PopLimit(outer);
  }
  return true;
}

}  // namespace

bool WireReader::ReadVarint64(uint64_t* value) {
  uint64_t result = 0;
  for (int i = 0; i < 10; ++i) {
    if (AtEnd()) return false;
    const uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    result |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool WireReader::ReadLittleEndian32(uint32_t* value) {
  if (Remaining() < 4) return false;
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(data_[pos_ + i]);
  pos_ += 4;
  *value = v;
  return true;
}

bool WireReader::ReadLittleEndian64(uint64_t* value) {
  if (Remaining() < 8) return false;
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(data_[pos_ + i]);
  pos_ += 8;
  *value = v;
  return true;
}

bool WireReader::ReadString(absl::string_view* out) {
  uint32_t length = 0;
  if (!ReadVarint32(&length)) return false;
  if (length > Remaining()) return false;
  *out = data_.substr(pos_, length);
  pos_ += length;
  return true;
}

bool WireReader::SkipField() {
  const uint32_t tag = ReadTag();
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  switch (tag & 7) {
    case 0:
      return ReadVarint32(&u32);
    case 1:
      return ReadLittleEndian64(&u64);
    case 2:
      if (!ReadVarint32(&u32)) return false;
      Skip(u32);  // as TensorFlow: a short skip stops at the limit and is not an error
      return true;
    case 5:
      return ReadLittleEndian32(&u32);
    default:  // groups and invalid wire types
      return false;
  }
}

bool ForEachFeature(absl::string_view serialized,
                    absl::FunctionRef<void(int64_t, absl::string_view, absl::string_view)> fn) {
  if (!WalkExample(serialized, nullptr)) return false;
  return WalkExample(serialized, &fn);
}

bool FeatureType(absl::string_view feature, DataType* dtype, absl::string_view* list) {
  if (feature.empty()) {
    *dtype = DT_INVALID;
    *list = feature;
    return true;
  }
  switch (static_cast<uint8_t>(feature[0])) {
    case kDelimited1:
      *dtype = DT_STRING;
      break;
    case kDelimited2:
      *dtype = DT_FLOAT;
      break;
    case kDelimited3:
      *dtype = DT_INT64;
      break;
    default:
      *dtype = DT_INVALID;
      return false;
  }
  *list = feature.substr(1);
  return true;
}

bool ReadFloatList(absl::string_view list, absl::FunctionRef<void(float)> fn) {
  WireReader in(list);
  uint32_t length = 0;
  if (!in.ReadVarint32(&length)) return false;
  in.PushLimit(length);
  if (in.AtEnd()) return true;
  const int tag = in.Peek();
  if (tag == kDelimited1) {  // one packed run; what follows it is ignored
    in.ExpectTag(kDelimited1);
    uint32_t packed = 0;
    if (!in.ReadVarint32(&packed)) return false;
    in.PushLimit(packed);
    const uint32_t count = packed / 4;
    if (static_cast<uint64_t>(count) * 4 > in.Remaining()) return false;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t bits = 0;
      in.ReadLittleEndian32(&bits);
      float v;
      std::memcpy(&v, &bits, sizeof(v));
      fn(v);
    }
    return true;
  }
  if (tag != kFixed32_1) return false;
  while (!in.AtEnd()) {
    if (!in.ExpectTag(kFixed32_1)) return false;
    uint32_t bits = 0;
    if (!in.ReadLittleEndian32(&bits)) return false;
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    fn(v);
  }
  return true;
}

bool ReadInt64List(absl::string_view list, absl::FunctionRef<void(int64_t)> fn) {
  WireReader in(list);
  uint32_t length = 0;
  if (!in.ReadVarint32(&length)) return false;
  in.PushLimit(length);
  if (in.AtEnd()) return true;
  const int tag = in.Peek();
  if (tag == kDelimited1) {  // one packed run; what follows it is ignored
    in.ExpectTag(kDelimited1);
    uint32_t packed = 0;
    if (!in.ReadVarint32(&packed)) return false;
    in.PushLimit(packed);
    while (!in.AtEnd()) {
      uint64_t v = 0;
      if (!in.ReadVarint64(&v)) return false;
      fn(static_cast<int64_t>(v));
    }
    return true;
  }
  if (tag != kVarint1) return false;
  while (!in.AtEnd()) {
    if (!in.ExpectTag(kVarint1)) return false;
    uint64_t v = 0;
    if (!in.ReadVarint64(&v)) return false;
    fn(static_cast<int64_t>(v));
  }
  return true;
}

bool ReadBytesList(absl::string_view list, absl::FunctionRef<void(absl::string_view)> fn) {
  WireReader in(list);
  uint32_t length = 0;
  if (!in.ReadVarint32(&length)) return false;
  in.PushLimit(length);
  while (!in.AtEnd()) {
    if (!in.ExpectTag(kDelimited1)) return false;
    absl::string_view value;
    if (!in.ReadString(&value)) return false;
    fn(value);
  }
  return true;
}

}  // namespace parsing
}  // namespace sluice
