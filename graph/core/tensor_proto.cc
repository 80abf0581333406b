#include "graph/core/tensor_proto.h"

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "proto/attr_value.pb.h"

namespace sluice {
namespace {

// How elements of type T are stored in the typed *_val field of a TensorProto: Count() is
// the number of elements the field holds, Get(i) element i, Add() appends one.
template <typename T, typename Enable = void>
struct Field;

// Types stored one value per entry of a repeated numeric field, converted with static_cast.
#define SLUICE_SIMPLE_FIELD(T, name)                                                    \
  template <>                                                                           \
  struct Field<T> {                                                                     \
    static const char* Name() { return #name; }                                         \
    static int64_t Count(const TensorProto& p) { return p.name##_size(); }              \
    static T Get(const TensorProto& p, int64_t i) { return static_cast<T>(p.name(i)); } \
    static void Add(const T& v, TensorProto* p) {                                       \
      p->add_##name(static_cast<decltype(p->name(0))>(v));                              \
    }                                                                                   \
  };
SLUICE_SIMPLE_FIELD(float, float_val)
SLUICE_SIMPLE_FIELD(double, double_val)
SLUICE_SIMPLE_FIELD(int32_t, int_val)
SLUICE_SIMPLE_FIELD(int16_t, int_val)
SLUICE_SIMPLE_FIELD(int8_t, int_val)
SLUICE_SIMPLE_FIELD(uint8_t, int_val)
SLUICE_SIMPLE_FIELD(uint16_t, int_val)
SLUICE_SIMPLE_FIELD(qint8, int_val)
SLUICE_SIMPLE_FIELD(quint8, int_val)
SLUICE_SIMPLE_FIELD(qint16, int_val)
SLUICE_SIMPLE_FIELD(quint16, int_val)
SLUICE_SIMPLE_FIELD(qint32, int_val)
SLUICE_SIMPLE_FIELD(int64_t, int64_val)
SLUICE_SIMPLE_FIELD(uint32_t, uint32_val)
SLUICE_SIMPLE_FIELD(uint64_t, uint64_val)
SLUICE_SIMPLE_FIELD(bool, bool_val)
#undef SLUICE_SIMPLE_FIELD

// half and bfloat16 travel as their 16-bit patterns, zero-extended into half_val.
template <typename T>
struct Field<T, std::enable_if_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>>> {
  static const char* Name() { return "half_val"; }
  static int64_t Count(const TensorProto& p) { return p.half_val_size(); }
  static T Get(const TensorProto& p, int64_t i) {
    return Eigen::numext::bit_cast<T>(static_cast<uint16_t>(p.half_val(i)));
  }
  static void Add(const T& v, TensorProto* p) {
    p->add_half_val(Eigen::numext::bit_cast<uint16_t>(v));
  }
};

// Complex numbers travel as (re, im) pairs.
#define SLUICE_COMPLEX_FIELD(T, name)                                                             \
  template <>                                                                                     \
  struct Field<T> {                                                                               \
    static const char* Name() { return #name; }                                                   \
    static int64_t Count(const TensorProto& p) { return p.name##_size() / 2; }                    \
    static T Get(const TensorProto& p, int64_t i) { return T(p.name(2 * i), p.name(2 * i + 1)); } \
    static void Add(const T& v, TensorProto* p) {                                                 \
      p->add_##name(v.real());                                                                    \
      p->add_##name(v.imag());                                                                    \
    }                                                                                             \
  };
SLUICE_COMPLEX_FIELD(complex64, scomplex_val)
SLUICE_COMPLEX_FIELD(complex128, dcomplex_val)
#undef SLUICE_COMPLEX_FIELD

template <>
struct Field<std::string> {
  static const char* Name() { return "string_val"; }
  static int64_t Count(const TensorProto& p) { return p.string_val_size(); }
  static const std::string& Get(const TensorProto& p, int64_t i) { return p.string_val(i); }
  static void Add(const std::string& v, TensorProto* p) { p->add_string_val(v); }
};

template <>
struct Field<ResourceHandleProto> {
  static const char* Name() { return "resource_handle_val"; }
  static int64_t Count(const TensorProto& p) { return p.resource_handle_val_size(); }
  static const ResourceHandleProto& Get(const TensorProto& p, int64_t i) {
    return p.resource_handle_val(i);
  }
  static void Add(const ResourceHandleProto& v, TensorProto* p) {
    *p->add_resource_handle_val() = v;
  }
};

template <typename T>
constexpr bool kIsPod = !std::is_same_v<T, std::string> && !std::is_same_v<T, ResourceHandleProto>;

std::string Describe(const TensorProto& proto, const TensorShape& shape) {
  return absl::StrCat("TensorProto of type ", DataTypeString(proto.dtype()), " and shape ",
                      shape.DebugString());
}

// Reads a base-128 varint of at most 32 bits from the front of `*in`.
bool ReadVarint32(absl::string_view* in, uint32_t* value) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    result |= static_cast<uint32_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

// Splits TensorFlow's string-list encoding (the n lengths as varints, then the n byte
// strings back to back) into `pieces`; false unless it holds exactly n strings.
bool SplitStringList(absl::string_view content, int64_t n, std::vector<absl::string_view>* pieces) {
  std::vector<uint32_t> sizes;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t size = 0;
    if (!ReadVarint32(&content, &size)) return false;
    sizes.push_back(size);
  }
  for (uint32_t size : sizes) {
    if (content.size() < size) return false;
    pieces->push_back(content.substr(0, size));
    content.remove_prefix(size);
  }
  return content.empty();
}

template <typename T>
absl::Status DecodeContent(Allocator* allocator, const TensorProto& proto, const TensorShape& shape,
                           Tensor* t) {
  const absl::string_view content = proto.tensor_content();
  const int64_t n = shape.num_elements();
  if constexpr (kIsPod<T>) {
    const int64_t expected = MultiplyWithoutOverflow(n, sizeof(T));
    if (expected < 0 || static_cast<uint64_t>(expected) != content.size()) {
      return errors::InvalidArgument(Describe(proto, shape), " has tensor_content of ",
                                     content.size(), " bytes, expected ", expected, " (", n,
                                     " elements of ", sizeof(T), " bytes)");
    }
    ASSIGN_OR_RETURN(*t, Tensor::Allocate(allocator, proto.dtype(), shape));
    if (n > 0) std::memcpy(t->raw_data(), content.data(), content.size());
    return absl::OkStatus();
  } else {
    std::vector<absl::string_view> pieces;
    // Every element needs at least its one-byte length, which bounds n before allocating.
    if (static_cast<uint64_t>(n) > content.size() || !SplitStringList(content, n, &pieces)) {
      return errors::InvalidArgument(Describe(proto, shape), " has tensor_content of ",
                                     content.size(), " bytes that does not encode ", n,
                                     " elements");
    }
    ASSIGN_OR_RETURN(*t, Tensor::Allocate(allocator, proto.dtype(), shape));
    T* elements = t->base<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, std::string>) {
        elements[i].assign(pieces[i].data(), pieces[i].size());
      } else if (!elements[i].ParseFromArray(pieces[i].data(),
                                             static_cast<int>(pieces[i].size()))) {
        return errors::InvalidArgument(Describe(proto, shape), " has a malformed resource ",
                                       "handle at element ", i, " of tensor_content");
      }
    }
    return absl::OkStatus();
  }
}

template <typename T>
absl::Status DecodeField(Allocator* allocator, const TensorProto& proto, const TensorShape& shape,
                         Tensor* t) {
  const int64_t n = shape.num_elements();
  const int64_t values = Field<T>::Count(proto);
  if constexpr (std::is_same_v<T, complex64>) {
    if (proto.scomplex_val_size() % 2 != 0) {
      return errors::InvalidArgument(Describe(proto, shape), " has an odd number (",
                                     proto.scomplex_val_size(),
                                     ") of scomplex_val entries; they come in (re, im) pairs");
    }
  } else if constexpr (std::is_same_v<T, complex128>) {
    if (proto.dcomplex_val_size() % 2 != 0) {
      return errors::InvalidArgument(Describe(proto, shape), " has an odd number (",
                                     proto.dcomplex_val_size(),
                                     ") of dcomplex_val entries; they come in (re, im) pairs");
    }
  }
  if (values > n) {
    return errors::InvalidArgument(Describe(proto, shape), " has ", values, " values in ",
                                   Field<T>::Name(), ", more than its ", n, " elements");
  }
  ASSIGN_OR_RETURN(*t, Tensor::Allocate(allocator, proto.dtype(), shape));
  T* elements = t->base<T>();
  // TensorFlow's rule: a short list is padded with its last value, an empty one with zeros.
  for (int64_t i = 0; i < values; ++i) elements[i] = Field<T>::Get(proto, i);
  const T fill = values > 0 ? T(Field<T>::Get(proto, values - 1)) : T();
  for (int64_t i = values; i < n; ++i) elements[i] = fill;
  return absl::OkStatus();
}

}  // namespace

absl::Status TensorFromProto(const TensorProto& proto, Tensor* out) {
  return TensorFromProto(DefaultCpuAllocator(), proto, out);
}

absl::Status TensorFromProto(Allocator* allocator, const TensorProto& proto, Tensor* out) {
  const DataType dtype = proto.dtype();
  if (dtype == DT_INVALID || !IsValidDataType(dtype) || IsRefType(dtype)) {
    return errors::InvalidArgument("TensorProto has invalid dtype ", DataTypeString(dtype));
  }
  TensorShape shape;
  absl::Status status = TensorShape::BuildTensorShapeFromProto(proto.tensor_shape(), &shape);
  if (!status.ok()) {
    return errors::InvalidArgument("TensorProto of type ", DataTypeString(dtype),
                                   " has an invalid shape: ", status.message());
  }
  Tensor tensor;
  const bool known = VisitElementType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    status = proto.tensor_content().empty() ? DecodeField<T>(allocator, proto, shape, &tensor)
                                            : DecodeContent<T>(allocator, proto, shape, &tensor);
  });
  if (!known) {
    return errors::Unimplemented("TensorProto of type ", DataTypeString(dtype),
                                 " is not supported");
  }
  RETURN_IF_ERROR(status);
  *out = std::move(tensor);
  return absl::OkStatus();
}

namespace {

void StartProto(const Tensor& tensor, TensorProto* proto) {
  proto->Clear();
  proto->set_dtype(tensor.dtype());
  tensor.shape().AsProto(proto->mutable_tensor_shape());
}

}  // namespace

void TensorToProtoContent(const Tensor& tensor, TensorProto* proto) {
  StartProto(tensor, proto);
  VisitElementType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsPod<T>) {
      const absl::string_view bytes = tensor.tensor_data();
      proto->set_tensor_content(bytes.data(), bytes.size());
    } else {
      const T* elements = tensor.base<T>();
      for (int64_t i = 0; i < tensor.NumElements(); ++i) Field<T>::Add(elements[i], proto);
    }
  });
}

void TensorToProtoField(const Tensor& tensor, TensorProto* proto) {
  StartProto(tensor, proto);
  VisitElementType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* elements = tensor.base<T>();
    for (int64_t i = 0; i < tensor.NumElements(); ++i) Field<T>::Add(elements[i], proto);
  });
}

NodeDef MakeConstNodeDef(const std::string& name, const Tensor& value, const std::string& device) {
  NodeDef def;
  def.set_name(name);
  def.set_op("Const");
  def.set_device(device);
  (*def.mutable_attr())["dtype"].set_type(value.dtype());
  TensorToProtoContent(value, (*def.mutable_attr())["value"].mutable_tensor());
  return def;
}

}  // namespace sluice
