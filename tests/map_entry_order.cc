#include "tests/map_entry_order.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "graph/import/graph_def_io.h"

namespace sluice {
namespace fixtures {
namespace {

namespace pb = google::protobuf;
using pb::FieldDescriptor;
using pb::internal::WireFormatLite;

// A map key, comparable the way protobuf C++ orders keys of its type.
struct MapKey {
  std::string bytes;  // string keys
  int64_t signed_value = 0;
  uint64_t unsigned_value = 0;
  bool is_string = false;
  bool is_signed = false;

  bool operator<(const MapKey& other) const {
    if (is_string) return bytes < other.bytes;
    if (is_signed) return signed_value < other.signed_value;
    return unsigned_value < other.unsigned_value;
  }
};

// Reads field 1 (the key) of a serialized map entry whose key field is `key_field`.
bool ReadMapKey(absl::string_view entry, const FieldDescriptor& key_field, MapKey* key) {
  key->is_string = key_field.type() == FieldDescriptor::TYPE_STRING ||
                   key_field.type() == FieldDescriptor::TYPE_BYTES;
  pb::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(entry.data()),
                                 static_cast<int>(entry.size()));
  uint64_t raw = 0;
  while (uint32_t tag = input.ReadTag()) {
    if (WireFormatLite::GetTagFieldNumber(tag) != 1) {
      if (!WireFormatLite::SkipField(&input, tag)) return false;
      continue;
    }
    switch (WireFormatLite::GetTagWireType(tag)) {
      case WireFormatLite::WIRETYPE_LENGTH_DELIMITED: {
        uint32_t length = 0;
        if (!input.ReadVarint32(&length) || !input.ReadString(&key->bytes, length)) return false;
        break;
      }
      case WireFormatLite::WIRETYPE_VARINT:
        if (!input.ReadVarint64(&raw)) return false;
        break;
      case WireFormatLite::WIRETYPE_FIXED64:
        if (!input.ReadLittleEndian64(&raw)) return false;
        break;
      case WireFormatLite::WIRETYPE_FIXED32: {
        uint32_t value = 0;
        if (!input.ReadLittleEndian32(&value)) return false;
        raw = value;
        break;
      }
      default:
        return false;
    }
  }
  switch (key_field.type()) {
    case FieldDescriptor::TYPE_INT32:
      key->is_signed = true;
      key->signed_value = static_cast<int32_t>(raw);
      break;
    case FieldDescriptor::TYPE_INT64:
      key->is_signed = true;
      key->signed_value = static_cast<int64_t>(raw);
      break;
    case FieldDescriptor::TYPE_SINT32:
    case FieldDescriptor::TYPE_SINT64:
      key->is_signed = true;
      key->signed_value = WireFormatLite::ZigZagDecode64(raw);
      break;
    case FieldDescriptor::TYPE_SFIXED32:
      key->is_signed = true;
      key->signed_value = static_cast<int32_t>(static_cast<uint32_t>(raw));
      break;
    case FieldDescriptor::TYPE_SFIXED64:
      key->is_signed = true;
      key->signed_value = static_cast<int64_t>(raw);
      break;
    default:
      key->unsigned_value = raw;
      break;
  }
  return true;
}

struct MapEntry {
  MapKey key;
  std::string raw;  // tag, length and (reordered) payload
};

bool Reorder(absl::string_view bytes, const pb::Descriptor& descriptor, int depth,
             std::string* out);

// Appends to `out` the entries of `run`, sorted, and empties it.
void Flush(std::vector<MapEntry>* run, std::string* out) {
  std::stable_sort(run->begin(), run->end(),
                   [](const MapEntry& a, const MapEntry& b) { return a.key < b.key; });
  for (const MapEntry& entry : *run) out->append(entry.raw);
  run->clear();
}

// Copies one field (starting at `start`, its tag already read) into `*raw`, reordering the
// maps inside it if it is a known message field. `*payload` receives the reordered payload
// of a message field.
bool CopyField(absl::string_view bytes, int start, uint32_t tag, const FieldDescriptor* field,
               int depth, pb::io::CodedInputStream* input, std::string* raw, std::string* payload) {
  const bool is_message =
      field != nullptr && field->type() == FieldDescriptor::TYPE_MESSAGE &&
      WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
  if (!is_message) {
    if (!WireFormatLite::SkipField(input, tag)) return false;
    *raw = std::string(bytes.substr(start, input->CurrentPosition() - start));
    return true;
  }
  uint32_t length = 0;
  std::string inner;
  if (!input->ReadVarint32(&length) || !input->ReadString(&inner, length)) return false;
  payload->clear();
  if (!Reorder(inner, *field->message_type(), depth + 1, payload)) return false;
  const int header = input->CurrentPosition() - start - static_cast<int>(length);
  *raw = std::string(bytes.substr(start, header));
  raw->append(*payload);
  return true;
}

bool Reorder(absl::string_view bytes, const pb::Descriptor& descriptor, int depth,
             std::string* out) {
  if (depth > kProtoRecursionLimit) return false;
  pb::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                                 static_cast<int>(bytes.size()));
  std::vector<MapEntry> run;
  int run_field = 0;
  while (true) {
    const int start = input.CurrentPosition();
    const uint32_t tag = input.ReadTag();
    if (tag == 0) {
      Flush(&run, out);
      return input.ConsumedEntireMessage();
    }
    const int number = WireFormatLite::GetTagFieldNumber(tag);
    const FieldDescriptor* field = descriptor.FindFieldByNumber(number);
    MapEntry entry;
    std::string payload;
    if (!CopyField(bytes, start, tag, field, depth, &input, &entry.raw, &payload)) return false;
    const bool is_map_entry =
        field != nullptr && field->is_map() &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    if (!is_map_entry || number != run_field) Flush(&run, out);
    if (!is_map_entry) {
      out->append(entry.raw);
      continue;
    }
    if (!ReadMapKey(payload, *field->message_type()->map_key(), &entry.key)) return false;
    run_field = number;
    run.push_back(std::move(entry));
  }
}

}  // namespace

bool ReorderMapEntriesLikeCpp(absl::string_view bytes, const pb::Descriptor& descriptor,
                              std::string* out) {
  out->clear();
  return Reorder(bytes, descriptor, 0, out);
}

}  // namespace fixtures
}  // namespace sluice
