// Tensor::SummarizeValue: element values printed the way TensorFlow prints them.
//
// Two layouts, both TensorFlow's:
//  - v1 (DebugString, Print, Assert): the first `max_entries` elements in row-major order,
//    one "[...]" per row above the last dim, "..." where a row or the whole is cut short:
//    [[1,2],[3,4]] with 3 entries reads "[1 2][3...]...".
//  - v2 (tf.print, StringFormat): numpy-like nesting, showing the first and last
//    `max_entries` entries of every dim with "..." between, rows separated by newlines.
// Floats print with the fewest of 6/9 (float) or 15/17 (double) significant digits that
// round-trip; half and bfloat16 print as float; bool as 1/0; strings C-escaped (quoted in
// v2); complex and qint32 as "?"; resource handles as "<ResourceHandle(...)>".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"

namespace sluice {
namespace {

template <typename F>
std::string FormatFloating(F value, int short_digits, int long_digits) {
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", short_digits, static_cast<double>(value));
  F parsed;
  if constexpr (std::is_same_v<F, float>) {
    parsed = std::strtof(buffer, nullptr);
  } else {
    parsed = std::strtod(buffer, nullptr);
  }
  if (parsed != value) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", long_digits, static_cast<double>(value));
  }
  return buffer;
}

std::string HandleSummary(const ResourceHandleProto& handle) {
  std::vector<std::string> dtypes_and_shapes;
  for (const auto& entry : handle.dtypes_and_shapes()) {
    PartialTensorShape shape;
    const std::string shape_string = PartialTensorShape::BuildFromProto(entry.shape(), &shape).ok()
                                         ? shape.DebugString()
                                         : "<invalid>";
    dtypes_and_shapes.push_back(
        absl::StrCat("DType enum: ", static_cast<int>(entry.dtype()), ", Shape: ", shape_string));
  }
  return absl::StrCat("<ResourceHandle(name=\"", handle.name(), "\", device=\"", handle.device(),
                      "\", container=\"", handle.container(), "\", type=\"",
                      handle.maybe_type_name(), "\", dtype and shapes : \"[ ",
                      absl::StrJoin(dtypes_and_shapes, ","), " ]\")>");
}

// Prints one element; `data` points at element `index` of type T.
template <typename T>
std::string FormatElement(const char* data, int64_t index, bool print_v2) {
  const T& value = reinterpret_cast<const T*>(data)[index];
  if constexpr (std::is_same_v<T, float>) {
    return FormatFloating<float>(value, 6, 9);
  } else if constexpr (std::is_same_v<T, double>) {
    return FormatFloating<double>(value, 15, 17);
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return FormatFloating<float>(static_cast<float>(value), 6, 9);
  } else if constexpr (std::is_same_v<T, bool>) {
    // Read the byte: a bool holding anything but 0 or 1 is undefined behaviour to load.
    return reinterpret_cast<const uint8_t*>(data)[index] != 0 ? "1" : "0";
  } else if constexpr (std::is_same_v<T, std::string>) {
    const std::string escaped = absl::Utf8SafeCEscape(value);
    return print_v2 ? absl::StrCat("\"", escaped, "\"") : escaped;
  } else if constexpr (std::is_same_v<T, qint8> || std::is_same_v<T, quint8> ||
                       std::is_same_v<T, qint16> || std::is_same_v<T, quint16>) {
    return absl::StrCat(static_cast<int>(value.value));
  } else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
    return absl::StrCat(static_cast<int>(value));
  } else {
    return absl::StrCat(value);
  }
}

template <typename T>
constexpr bool kIsPrintable = !std::is_same_v<T, complex64> && !std::is_same_v<T, complex128> &&
                              !std::is_same_v<T, qint32> && !std::is_same_v<T, ResourceHandleProto>;

// Layout v1; `next` is the row-major index of the next element to print.
template <typename T>
void PrintDimV1(const char* data, absl::Span<const int64_t> shape, int dim, int64_t limit,
                int64_t* next, std::string* out) {
  const int64_t count = shape[dim];
  if (dim == static_cast<int>(shape.size()) - 1) {
    for (int64_t i = 0; i < count; ++i) {
      if (*next >= limit) {
        if (dim != 0) out->append("...");
        return;
      }
      if (i > 0) out->append(" ");
      out->append(FormatElement<T>(data, (*next)++, false));
    }
    return;
  }
  // Once the limit is reached nothing more prints, so stop rather than walk a huge dim.
  for (int64_t i = 0; i < count && *next < limit; ++i) {
    out->append("[");
    PrintDimV1<T>(data, shape, dim + 1, limit, next, out);
    out->append("]");
  }
}

void AppendDimSpacing(int dim, int num_dims, std::string* out) {
  if (dim == num_dims - 1) {
    out->append(" ");
    return;
  }
  out->append(num_dims - dim - 1, '\n');
  out->append(dim + 1, ' ');
}

// Layout v2; `first` is the row-major index of this sub-array's first element.
template <typename T>
void PrintDimV2(const char* data, absl::Span<const int64_t> shape, int dim, int64_t edge,
                int64_t first, std::string* out) {
  const int num_dims = static_cast<int>(shape.size());
  if (dim == num_dims) {
    out->append(FormatElement<T>(data, first, true));
    return;
  }
  out->append("[");
  const int64_t count = shape[dim];
  int64_t stride = 1;
  for (int d = dim + 1; d < num_dims; ++d) stride *= shape[d];
  for (int64_t i = 0; i < edge && i < count; ++i) {
    if (i > 0) AppendDimSpacing(dim, num_dims, out);
    PrintDimV2<T>(data, shape, dim + 1, edge, first + stride * i, out);
  }
  if (count > 2 * edge) {
    AppendDimSpacing(dim, num_dims, out);
    out->append("...");
  }
  for (int64_t i = std::max(edge, count - edge); i < count; ++i) {
    AppendDimSpacing(dim, num_dims, out);
    PrintDimV2<T>(data, shape, dim + 1, edge, first + stride * i, out);
  }
  out->append("]");
}

template <typename T>
std::string SummarizeArray(const char* data, const TensorShape& shape, int64_t limit,
                           bool print_v2) {
  std::string out;
  const int64_t n = shape.num_elements();
  if (shape.dims() == 0) {
    for (int64_t i = 0; i < limit; ++i) {
      if (i > 0) out.append(" ");
      out.append(FormatElement<T>(data, i, print_v2));
    }
    if (n > limit) out.append("...");
    return out;
  }
  if (print_v2) {
    PrintDimV2<T>(data, shape.dim_sizes(), 0, limit, 0, &out);
    return out;
  }
  int64_t next = 0;
  if (limit > 0) PrintDimV1<T>(data, shape.dim_sizes(), 0, limit, &next, &out);
  if (n > limit) out.append("...");
  return out;
}

// Types TensorFlow has no printer for: "?" per element (handles get a summary), flat.
std::string SummarizeOpaque(const Tensor& tensor, int64_t limit, bool print_v2) {
  std::string out;
  const bool brackets = print_v2 && tensor.dims() > 0;
  if (brackets) out.append("[");
  for (int64_t i = 0; i < limit; ++i) {
    if (i > 0) out.append(" ");
    if (tensor.dtype() == DT_RESOURCE) {
      out.append(HandleSummary(tensor.base<ResourceHandleProto>()[i]));
    } else if (tensor.dtype() == DT_VARIANT) {
      out.append(tensor.base<Variant>()[i].DebugString());
    } else {
      out.append("?");
    }
  }
  if (tensor.NumElements() > limit) out.append("...");
  if (brackets) out.append("]");
  return out;
}

}  // namespace

std::string Tensor::SummarizeValue(int64_t max_entries, bool print_v2) const {
  const int64_t n = NumElements();
  const int64_t limit = max_entries < 0 ? n : std::min(max_entries, n);
  std::string out;
  bool printed = false;
  VisitElementType(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsPrintable<T>) {
      out = SummarizeArray<T>(data_, shape_, limit, print_v2);
      printed = true;
    }
  });
  return printed ? out : SummarizeOpaque(*this, limit, print_v2);
}

}  // namespace sluice
