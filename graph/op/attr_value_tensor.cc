#include "graph/op/attr_value_tensor.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"

namespace sluice {
namespace attr_value_internal {
namespace {

constexpr int kSummaryValues = 3;  // Tensor::DebugString's default in TensorFlow

enum class DecodeResult { kOk, kOpaque, kInvalid };

// A tensor's contents in canonical form. Since a short *_val list is padded with its last
// element, trailing repeats carry no information: the canonical element list is the value
// list truncated to num_elements with trailing repeats collapsed (one default element when
// the list is empty). Two encodings of one tensor thus decode identically, and a huge
// tensor written as a single padded value never gets expanded.
struct DecodedTensor {
  DataType dtype = DT_INVALID;
  std::vector<int64_t> dims;
  int64_t num_elements = 0;
  int elem_size = 0;                 // bytes per element; 0 for DT_STRING
  std::string bytes;                 // canonical elements of fixed-size types
  std::vector<std::string> strings;  // canonical DT_STRING elements

  int64_t canonical_count() const {
    return elem_size == 0 ? static_cast<int64_t>(strings.size())
                          : static_cast<int64_t>(bytes.size()) / elem_size;
  }
};

// Drops trailing elements equal to the one before them.
void CollapseTrailingRepeats(DecodedTensor* t) {
  if (t->elem_size == 0) {
    while (t->strings.size() >= 2 && t->strings.back() == t->strings[t->strings.size() - 2]) {
      t->strings.pop_back();
    }
    return;
  }
  const size_t size = t->elem_size;
  while (t->bytes.size() >= 2 * size &&
         std::memcmp(t->bytes.data() + t->bytes.size() - size,
                     t->bytes.data() + t->bytes.size() - 2 * size, size) == 0) {
    t->bytes.resize(t->bytes.size() - size);
  }
}

template <typename Elem>
void AppendElem(Elem value, std::string* bytes) {
  bytes->append(reinterpret_cast<const char*>(&value), sizeof(Elem));
}

// Appends min(field size, n) values converted to Elem, or one Elem() when the field is
// empty and n > 0.
template <typename Elem, typename Field>
void FillFromField(const Field& field, int64_t n, std::string* bytes) {
  const int64_t count = std::min<int64_t>(field.size(), n);
  for (int64_t i = 0; i < count; ++i) AppendElem(static_cast<Elem>(field.Get(i)), bytes);
  if (count == 0 && n > 0) AppendElem(Elem(), bytes);
}

// As FillFromField, for complex elements stored as (real, imaginary) pairs.
template <typename Part, typename Field>
void FillPairsFromField(const Field& field, int64_t n, std::string* bytes) {
  const int64_t count = std::min<int64_t>(field.size() / 2, n);
  for (int64_t i = 0; i < count; ++i) {
    AppendElem(static_cast<Part>(field.Get(2 * i)), bytes);
    AppendElem(static_cast<Part>(field.Get(2 * i + 1)), bytes);
  }
  if (count == 0 && n > 0) {
    AppendElem(Part(), bytes);
    AppendElem(Part(), bytes);
  }
}

// Decodes the typed *_val field of `p`; false for element types without one.
bool FillFromTypedField(const TensorProto& p, int64_t n, std::string* bytes) {
  switch (p.dtype()) {
    case DT_FLOAT:
      FillFromField<float>(p.float_val(), n, bytes);
      return true;
    case DT_DOUBLE:
      FillFromField<double>(p.double_val(), n, bytes);
      return true;
    case DT_INT32:
    case DT_QINT32:
      FillFromField<int32_t>(p.int_val(), n, bytes);
      return true;
    case DT_INT16:
    case DT_QINT16:
      FillFromField<int16_t>(p.int_val(), n, bytes);
      return true;
    case DT_UINT16:
    case DT_QUINT16:
      FillFromField<uint16_t>(p.int_val(), n, bytes);
      return true;
    case DT_INT8:
    case DT_QINT8:
      FillFromField<int8_t>(p.int_val(), n, bytes);
      return true;
    case DT_UINT8:
    case DT_QUINT8:
      FillFromField<uint8_t>(p.int_val(), n, bytes);
      return true;
    case DT_INT64:
      FillFromField<int64_t>(p.int64_val(), n, bytes);
      return true;
    case DT_UINT32:
      FillFromField<uint32_t>(p.uint32_val(), n, bytes);
      return true;
    case DT_UINT64:
      FillFromField<uint64_t>(p.uint64_val(), n, bytes);
      return true;
    case DT_BOOL:
      FillFromField<uint8_t>(p.bool_val(), n, bytes);
      return true;
    case DT_HALF:
    case DT_BFLOAT16:
      FillFromField<uint16_t>(p.half_val(), n, bytes);
      return true;
    case DT_COMPLEX64:
      FillPairsFromField<float>(p.scomplex_val(), n, bytes);
      return true;
    case DT_COMPLEX128:
      FillPairsFromField<double>(p.dcomplex_val(), n, bytes);
      return true;
    default:
      return false;
  }
}

DecodeResult DecodeStrings(const TensorProto& p, DecodedTensor* out) {
  // String tensor_content is a length-prefixed encoding that attrs never use.
  if (!p.tensor_content().empty()) return DecodeResult::kOpaque;
  const int64_t count = std::min<int64_t>(p.string_val_size(), out->num_elements);
  out->strings.assign(p.string_val().begin(), p.string_val().begin() + count);
  if (count == 0 && out->num_elements > 0) out->strings.emplace_back();
  CollapseTrailingRepeats(out);
  return DecodeResult::kOk;
}

DecodeResult Decode(const TensorProto& p, DecodedTensor* out) {
  TensorShape shape;
  if (!TensorShape::BuildTensorShapeFromProto(p.tensor_shape(), &shape).ok() ||
      !IsValidDataType(p.dtype()) || IsRefType(p.dtype())) {
    return DecodeResult::kInvalid;
  }
  out->dtype = p.dtype();
  out->dims.assign(shape.dim_sizes().begin(), shape.dim_sizes().end());
  out->num_elements = shape.num_elements();
  if (p.dtype() == DT_STRING) return DecodeStrings(p, out);

  out->elem_size = DataTypeSize(p.dtype());
  if (out->elem_size == 0) return DecodeResult::kOpaque;
  if (!p.tensor_content().empty()) {
    if (static_cast<uint64_t>(p.tensor_content().size()) !=
        static_cast<uint64_t>(out->num_elements) * out->elem_size) {
      return DecodeResult::kInvalid;
    }
    out->bytes = p.tensor_content();
  } else if (!FillFromTypedField(p, out->num_elements, &out->bytes)) {
    return DecodeResult::kOpaque;
  }
  CollapseTrailingRepeats(out);
  return DecodeResult::kOk;
}

template <typename T>
T ElemAt(const DecodedTensor& t, int64_t i, int part = 0) {
  T value;
  std::memcpy(&value, t.bytes.data() + i * t.elem_size + part * sizeof(T), sizeof(T));
  return value;
}

float HalfBitsToFloat(DataType dtype, uint16_t bits) {
  if (dtype == DT_BFLOAT16) {
    return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(bits));
  }
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits));
}

// Element `index` of the full tensor, printed as TensorFlow's SummarizeValue prints it.
std::string ElementString(const DecodedTensor& t, int64_t index) {
  const int64_t i = std::min(index, t.canonical_count() - 1);
  switch (t.dtype) {
    case DT_STRING:
      return absl::Utf8SafeCEscape(t.strings[i]);
    case DT_FLOAT:
      return FloatToString(ElemAt<float>(t, i));
    case DT_DOUBLE:
      return DoubleToString(ElemAt<double>(t, i));
    case DT_HALF:
    case DT_BFLOAT16:
      return FloatToString(HalfBitsToFloat(t.dtype, ElemAt<uint16_t>(t, i)));
    case DT_INT32:
    case DT_QINT32:
      return absl::StrCat(ElemAt<int32_t>(t, i));
    case DT_INT16:
    case DT_QINT16:
      return absl::StrCat(ElemAt<int16_t>(t, i));
    case DT_UINT16:
    case DT_QUINT16:
      return absl::StrCat(ElemAt<uint16_t>(t, i));
    case DT_INT8:
    case DT_QINT8:
      return absl::StrCat(ElemAt<int8_t>(t, i));
    case DT_UINT8:
    case DT_QUINT8:
      return absl::StrCat(ElemAt<uint8_t>(t, i));
    case DT_INT64:
      return absl::StrCat(ElemAt<int64_t>(t, i));
    case DT_UINT32:
      return absl::StrCat(ElemAt<uint32_t>(t, i));
    case DT_UINT64:
      return absl::StrCat(ElemAt<uint64_t>(t, i));
    case DT_BOOL:
      return ElemAt<uint8_t>(t, i) != 0 ? "1" : "0";
    case DT_COMPLEX64:
      return absl::StrCat("(", FloatToString(ElemAt<float>(t, i, 0)), ",",
                          FloatToString(ElemAt<float>(t, i, 1)), ")");
    case DT_COMPLEX128:
      return absl::StrCat("(", DoubleToString(ElemAt<double>(t, i, 0)), ",",
                          DoubleToString(ElemAt<double>(t, i, 1)), ")");
    default:
      return "?";
  }
}

// Prints dimension `dim` and below as TensorFlow does: brackets around every sub-array of
// the outer dimensions, values separated by spaces, "..." where the first `limit` values
// run out inside an inner dimension.
void PrintDim(const DecodedTensor& t, int dim, int64_t limit, int64_t* index, std::string* out) {
  if (*index >= limit) return;
  const int64_t count = t.dims[dim];
  if (dim == static_cast<int>(t.dims.size()) - 1) {
    for (int64_t i = 0; i < count; ++i) {
      if (*index >= limit) {
        if (dim != 0) out->append("...");
        return;
      }
      if (i > 0) out->append(" ");
      out->append(ElementString(t, (*index)++));
    }
    return;
  }
  // Once the values run out nothing more is printed, so huge outer dims end early.
  for (int64_t i = 0; i < count && *index < limit; ++i) {
    out->append("[");
    PrintDim(t, dim + 1, limit, index, out);
    out->append("]");
  }
}

std::string SummarizeValues(const DecodedTensor& t, DecodeResult result) {
  const int64_t limit = std::min<int64_t>(kSummaryValues, t.num_elements);
  std::string out;
  if (result == DecodeResult::kOpaque) {
    for (int64_t i = 0; i < limit; ++i) out.append(" ?");
  } else if (t.dims.empty()) {
    for (int64_t i = 0; i < limit; ++i) {
      if (i > 0) out.append(" ");
      out.append(ElementString(t, i));
    }
  } else {
    int64_t index = 0;
    PrintDim(t, 0, limit, &index, &out);
  }
  if (t.num_elements > limit) out.append("...");
  return out;
}

std::string ShapeString(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

}  // namespace

uint64_t Hash64(absl::string_view data, uint64_t seed) {
  // Eight bytes per step: tensor contents are hashed whole, and a byte-wise loop made this
  // the bulk of CSE. Each word is mixed by a multiply and a shift (as in MurmurHash64A).
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ull;
  constexpr int kShift = 47;
  auto mix = [](uint64_t k) {
    k *= kMul;
    k ^= k >> kShift;
    return k * kMul;
  };
  uint64_t h = (seed * 1099511628211ull) ^ (data.size() * kMul) ^ 14695981039346656037ull;
  const char* p = data.data();
  size_t n = data.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    h = (h ^ mix(word)) * kMul;
  }
  if (n > 0) {
    uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    h = (h ^ mix(tail)) * kMul;
  }
  h ^= h >> kShift;
  h *= kMul;
  return h ^ (h >> kShift);
}

uint64_t Hash64Combine(uint64_t a, uint64_t b) {
  return a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2));
}

bool AreTensorProtosEqual(const TensorProto& a, const TensorProto& b) {
  DecodedTensor da, db;
  if (Decode(a, &da) != DecodeResult::kOk || Decode(b, &db) != DecodeResult::kOk) {
    return a.SerializeAsString() == b.SerializeAsString();
  }
  return da.dtype == db.dtype && da.dims == db.dims && da.bytes == db.bytes &&
         da.strings == db.strings;
}

uint64_t TensorProtoHash(const TensorProto& t) {
  DecodedTensor d;
  if (Decode(t, &d) != DecodeResult::kOk) return Hash64(t.SerializeAsString(), 1);
  uint64_t h = Hash64(absl::StrCat(static_cast<int>(d.dtype), ":", ShapeString(d.dims)), 2);
  h = Hash64(d.bytes, h);
  for (const std::string& s : d.strings) h = Hash64Combine(h, Hash64(s, 3));
  return h;
}

std::string SummarizeTensorProto(const TensorProto& t) {
  DecodedTensor d;
  const DecodeResult result = Decode(t, &d);
  if (result == DecodeResult::kInvalid) {
    return absl::StrCat("<Invalid TensorProto: ", t.ShortDebugString(), ">");
  }
  return absl::StrCat("Tensor<type: ", DataTypeString(d.dtype), " shape: ", ShapeString(d.dims),
                      " values: ", SummarizeValues(d, result), ">");
}

std::string FloatToString(float value) {
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*g", FLT_DIG, value);
  if (std::strtof(buffer, nullptr) != value) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", FLT_DIG + 3, value);
  }
  return buffer;
}

std::string DoubleToString(double value) {
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*g", DBL_DIG, value);
  if (std::strtod(buffer, nullptr) != value) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", DBL_DIG + 2, value);
  }
  return buffer;
}

}  // namespace attr_value_internal
}  // namespace sluice
