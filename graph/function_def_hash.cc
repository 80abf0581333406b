#include "graph/function_def_hash.h"

#include <map>
#include <set>
#include <string>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "proto/attr_value.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace tf_hash {
namespace {

// Hash64 of the message's deterministic serialization (fields by number, maps by key).
uint64_t ProtoHash(const google::protobuf::MessageLite& message, uint64_t seed = kDefaultSeed) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return Hash64(bytes, seed);
}

void AppendVarint32(uint32_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// The tensor as Tensor::AsProtoTensorContent re-encodes it: dtype, shape and the elements in
// tensor_content (strings as all their varint32 lengths, then all their bytes).
uint64_t TensorProtoHash(const TensorProto& proto) {
  Tensor tensor;
  if (!TensorFromProto(proto, &tensor).ok()) return ProtoHash(proto);
  TensorProto canonical;
  canonical.set_dtype(tensor.dtype());
  tensor.shape().AsProto(canonical.mutable_tensor_shape());
  std::string content;
  switch (tensor.dtype()) {
    case DT_STRING: {
      const std::string* strings = tensor.base<std::string>();
      const int64_t n = tensor.NumElements();
      for (int64_t i = 0; i < n; ++i) {
        AppendVarint32(static_cast<uint32_t>(strings[i].size()), &content);
      }
      for (int64_t i = 0; i < n; ++i) content += strings[i];
      break;
    }
    case DT_RESOURCE:
    case DT_VARIANT:
      return ProtoHash(proto);
    default: {
      const absl::string_view bytes = tensor.tensor_data();
      content.assign(bytes.data(), bytes.size());
      break;
    }
  }
  if (!content.empty()) canonical.set_tensor_content(std::move(content));
  return ProtoHash(canonical);
}

uint64_t AttrValueHash(const AttrValue& value) {
  if (value.has_tensor()) return TensorProtoHash(value.tensor());
  if (value.has_func()) {
    uint64_t h = Hash64(value.func().name());
    const std::map<std::string, AttrValue> attrs(value.func().attr().begin(),
                                                 value.func().attr().end());
    for (const auto& [name, inner] : attrs) {
      h = Hash64(name, h);
      h = Hash64Combine(AttrValueHash(inner), h);
    }
    return h;
  }
  return ProtoHash(value);
}

uint64_t AttrDefHash(const OpDef::AttrDef& attr) {
  uint64_t h = Hash64(attr.name());
  h = Hash64(attr.type(), h);
  h = Hash64Combine(AttrValueHash(attr.default_value()), h);
  h = Hash64(attr.description(), h);
  h = Hash64Combine(static_cast<uint64_t>(attr.has_minimum()), h);
  h = Hash64Combine(static_cast<uint64_t>(attr.minimum()), h);
  return Hash64Combine(AttrValueHash(attr.allowed_values()), h);
}

uint64_t OpDefHash(const OpDef& op) {
  std::map<std::string, const OpDef::AttrDef*> attrs;
  for (const OpDef::AttrDef& attr : op.attr()) attrs[attr.name()] = &attr;
  uint64_t h = kDefaultSeed;
  for (const auto& [name, attr] : attrs) {
    h = Hash64(name, h);
    h = Hash64Combine(AttrDefHash(*attr), h);
  }
  const std::set<std::string> control_outputs(op.control_output().begin(),
                                              op.control_output().end());
  for (const std::string& name : control_outputs) h = Hash64Combine(h, Hash64(name));
  OpDef rest = op;
  rest.clear_attr();
  rest.clear_control_output();
  return ProtoHash(rest, h);
}

// Internal attrs (names starting with '_') take no part, as in TensorFlow's default
// EqualGraphDefOptions.
uint64_t NodeDefHash(const NodeDef& node) {
  uint64_t h = Hash64(node.name());
  h = Hash64(node.op(), h);
  h = Hash64(node.device(), h);
  std::set<std::string> control_inputs;
  bool in_controls = false;
  for (const std::string& input : node.input()) {
    in_controls = in_controls || (!input.empty() && input[0] == '^');
    if (in_controls) {
      control_inputs.insert(input);
    } else {
      h = Hash64(input, h);
    }
  }
  for (const std::string& input : control_inputs) h = Hash64(input, h);
  std::map<std::string, const AttrValue*> attrs;
  for (const auto& [name, value] : node.attr()) {
    if (!name.empty() && name[0] == '_') continue;
    attrs[name] = &value;
  }
  for (const auto& [name, value] : attrs) {
    h = Hash64(name, h);
    h = Hash64Combine(AttrValueHash(*value), h);
  }
  return h;
}

uint64_t NodeDefsHash(const google::protobuf::RepeatedPtrField<NodeDef>& nodes) {
  std::map<std::string, const NodeDef*> by_name;
  for (const NodeDef& node : nodes) by_name[node.name()] = &node;
  uint64_t h = kDefaultSeed;
  for (const auto& [name, node] : by_name) {
    h = Hash64(name, h);
    h = Hash64Combine(NodeDefHash(*node), h);
  }
  return h;
}

}  // namespace

uint64_t Hash64(absl::string_view data, uint64_t seed) {
  // MurmurHash64A: eight little-endian bytes at a time, then the tail.
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ull;
  constexpr int kShift = 47;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  uint64_t h = seed ^ (static_cast<uint64_t>(n) * kMul);
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t k = 0;
    for (int i = 7; i >= 0; --i) k = (k << 8) | p[i];
    k *= kMul;
    k ^= k >> kShift;
    k *= kMul;
    h ^= k;
    h *= kMul;
  }
  if (n > 0) {
    uint64_t tail = 0;
    for (int i = static_cast<int>(n) - 1; i >= 0; --i) tail = (tail << 8) | p[i];
    h ^= tail;
    h *= kMul;
  }
  h ^= h >> kShift;
  h *= kMul;
  h ^= h >> kShift;
  return h;
}

uint64_t Hash64Combine(uint64_t a, uint64_t b) {
  return a ^ (b + 0x9e3779b97f4a7800ull + (a << 10) + (a >> 4));
}

uint64_t FunctionDefHash(const FunctionDef& fdef) {
  uint64_t h = OpDefHash(fdef.signature());
  std::map<std::string, const AttrValue*> attrs;
  for (const auto& [name, value] : fdef.attr()) {
    if (value.value_case() != AttrValue::VALUE_NOT_SET) attrs[name] = &value;
  }
  for (const auto& [name, value] : attrs) {
    h = Hash64(name, h);
    h = Hash64Combine(AttrValueHash(*value), h);
  }
  h = Hash64Combine(NodeDefsHash(fdef.node_def()), h);
  const std::map<std::string, std::string> ret(fdef.ret().begin(), fdef.ret().end());
  for (const auto& [name, tensor] : ret) {
    h = Hash64(name, h);
    h = Hash64(tensor, h);
  }
  const std::map<std::string, std::string> control_ret(fdef.control_ret().begin(),
                                                       fdef.control_ret().end());
  for (const auto& [name, node] : control_ret) {
    h = Hash64(name, h);
    h = Hash64(node, h);
  }
  return h;
}

}  // namespace tf_hash
}  // namespace sluice
