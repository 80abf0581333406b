// .npy reading and writing. A file is the magic "\x93NUMPY", a major and minor version byte, a
// little-endian header length (2 bytes in 1.0, 4 in 2.0 and 3.0), a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces and ended by
// '\n', then the raw elements. The header is parsed by a small recursive-descent reader that
// accepts exactly the literals numpy writes (strings, True/False, tuples of ints).
#include "io/npy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "graph/import/graph_def_io.h"

namespace sluice {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr size_t kHeaderAlignment = 64;

struct NpyType {
  DataType dtype;
  char kind;  // numpy's kind character: 'b' bool, 'i' signed, 'u' unsigned, 'f', 'c'
  int size;
  const char* name;
};

constexpr NpyType kTypes[] = {
    {DT_BOOL, 'b', 1, "bool"},           {DT_INT8, 'i', 1, "int8"},
    {DT_INT16, 'i', 2, "int16"},         {DT_INT32, 'i', 4, "int32"},
    {DT_INT64, 'i', 8, "int64"},         {DT_UINT8, 'u', 1, "uint8"},
    {DT_UINT16, 'u', 2, "uint16"},       {DT_UINT32, 'u', 4, "uint32"},
    {DT_UINT64, 'u', 8, "uint64"},       {DT_HALF, 'f', 2, "float16"},
    {DT_FLOAT, 'f', 4, "float32"},       {DT_DOUBLE, 'f', 8, "float64"},
    {DT_COMPLEX64, 'c', 8, "complex64"}, {DT_COMPLEX128, 'c', 16, "complex128"},
};

const NpyType* FindType(DataType dtype) {
  for (const NpyType& type : kTypes) {
    if (type.dtype == dtype) return &type;
  }
  return nullptr;
}

// What the header says.
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// Reads the dict literal of a header.
class HeaderParser {
 public:
  explicit HeaderParser(absl::string_view text) : text_(text) {}

  absl::Status Parse(NpyHeader* header) {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    RETURN_IF_ERROR(Expect('{'));
    while (!Consume('}')) {
      std::string key;
      RETURN_IF_ERROR(ParseString(&key));
      RETURN_IF_ERROR(Expect(':'));
      if (key == "descr") {
        if (Peek() == '[') {
          return errors::Unimplemented("structured dtypes (descr ", Rest(),
                                       ") are not supported; save a plain numeric array");
        }
        RETURN_IF_ERROR(ParseString(&header->descr));
        seen_descr = true;
      } else if (key == "fortran_order") {
        RETURN_IF_ERROR(ParseBool(&header->fortran_order));
        seen_order = true;
      } else if (key == "shape") {
        RETURN_IF_ERROR(ParseShape(&header->shape));
        seen_shape = true;
      } else {
        return Error(absl::StrCat("unexpected key '", key, "'"));
      }
      if (!Consume(',')) {
        RETURN_IF_ERROR(Expect('}'));
        break;
      }
    }
    if (!seen_descr || !seen_order || !seen_shape) {
      return Error("it lacks one of 'descr', 'fortran_order' and 'shape'");
    }
    SkipSpace();
    if (pos_ != text_.size()) return Error("text follows the dict");
    return absl::OkStatus();
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(text_[pos_])) ++pos_;
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  absl::string_view Rest() const { return text_.substr(pos_, 40); }
  absl::Status Error(absl::string_view what) const {
    return errors::InvalidArgument("malformed .npy header (", what, "): ", text_);
  }
  absl::Status Expect(char c) {
    return Consume(c) ? absl::OkStatus()
                      : Error(absl::StrCat("expected '", std::string(1, c), "' at offset ", pos_));
  }

  absl::Status ParseString(std::string* out) {
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error(absl::StrCat("expected a string at ", pos_));
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == absl::string_view::npos) return Error("unterminated string");
    *out = std::string(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return absl::OkStatus();
  }

  absl::Status ParseBool(bool* out) {
    SkipSpace();
    for (const auto& [word, value] : {std::pair<absl::string_view, bool>{"True", true},
                                      std::pair<absl::string_view, bool>{"False", false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        *out = value;
        return absl::OkStatus();
      }
    }
    return Error("fortran_order is not True or False");
  }

  absl::Status ParseInt(int64_t* out) {
    SkipSpace();
    bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) ++pos_;
    const size_t start = pos_;
    uint64_t value = 0;
    while (pos_ < text_.size() && absl::ascii_isdigit(text_[pos_])) {
      value = value * 10 + (text_[pos_++] - '0');
      if (value > static_cast<uint64_t>(INT64_MAX)) return Error("a dimension overflows int64");
    }
    if (pos_ == start) return Error(absl::StrCat("expected a dimension at offset ", pos_));
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 longs
    *out = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
    return absl::OkStatus();
  }

  absl::Status ParseShape(std::vector<int64_t>* shape) {
    RETURN_IF_ERROR(Expect('('));
    shape->clear();
    while (!Consume(')')) {
      int64_t dim = 0;
      RETURN_IF_ERROR(ParseInt(&dim));
      shape->push_back(dim);
      if (!Consume(',')) {
        RETURN_IF_ERROR(Expect(')'));
        break;
      }
    }
    return absl::OkStatus();
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

// Maps a descr such as '<f4' to a DataType; *swap tells whether the data is big-endian.
absl::Status ParseDescr(const std::string& descr, DataType* dtype, bool* swap) {
  absl::string_view rest = descr;
  char order = '=';
  if (!rest.empty() && (rest[0] == '<' || rest[0] == '>' || rest[0] == '|' || rest[0] == '=')) {
    order = rest[0];
    rest.remove_prefix(1);
  }
  if (rest.empty()) return errors::InvalidArgument("empty dtype in .npy header");
  char kind = rest[0];
  rest.remove_prefix(1);
  if (kind == 'O') {
    return errors::Unimplemented(
        "object arrays (dtype=object) are not supported: they hold pickled Python objects; "
        "save a numeric array instead");
  }
  if (kind == '?') kind = 'b';
  int size = 0;
  for (char c : rest) {
    if (!absl::ascii_isdigit(c) || size > 1000) size = -1;
    if (size < 0) break;
    size = size * 10 + (c - '0');
  }
  for (const NpyType& type : kTypes) {
    if (type.kind == kind && (type.size == size || (kind == 'b' && rest.empty()))) {
      *dtype = type.dtype;
      *swap = order == '>' && type.size > 1;
      return absl::OkStatus();
    }
  }
  return errors::Unimplemented("unsupported .npy dtype '", descr,
                               "': only bool, int8-64, uint8-64, float16/32/64 and "
                               "complex64/128 are supported");
}

void SwapBytes(char* data, int64_t count, int width) {
  for (int64_t i = 0; i < count; ++i, data += width) std::reverse(data, data + width);
}

absl::Status ReadHeader(absl::string_view bytes, NpyHeader* header, size_t* data_offset) {
  if (bytes.size() < kMagicSize + 2 || bytes.substr(0, kMagicSize) != kMagic) {
    return errors::InvalidArgument("not a .npy file (it does not start with \"\\x93NUMPY\")");
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  const int minor = static_cast<uint8_t>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return errors::InvalidArgument("unsupported .npy format version ", major, ".", minor,
                                   " (1.0, 2.0 and 3.0 are supported)");
  }
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < kMagicSize + 2 + length_bytes) {
    return errors::InvalidArgument(".npy header is truncated");
  }
  uint64_t header_length = 0;
  for (size_t i = 0; i < length_bytes; ++i) {
    header_length |= uint64_t{static_cast<uint8_t>(bytes[8 + i])} << (8 * i);
  }
  const size_t start = kMagicSize + 2 + length_bytes;
  if (header_length > bytes.size() - start) {
    return errors::InvalidArgument(".npy header is truncated: it claims ", header_length,
                                   " bytes, the file has ", bytes.size() - start);
  }
  *data_offset = start + header_length;
  return HeaderParser(bytes.substr(start, header_length)).Parse(header);
}

}  // namespace

absl::Status ParseNpy(absl::string_view bytes, Tensor* tensor) {
  NpyHeader header;
  size_t offset = 0;
  RETURN_IF_ERROR(ReadHeader(bytes, &header, &offset));
  DataType dtype = DT_INVALID;
  bool swap = false;
  RETURN_IF_ERROR(ParseDescr(header.descr, &dtype, &swap));
  TensorShape shape;
  RETURN_IF_ERROR(errors::PrependToMessage(TensorShape::BuildTensorShape(header.shape, &shape),
                                           "bad .npy shape: "));
  if (header.fortran_order && shape.dims() > 1) {
    return errors::Unimplemented(
        "Fortran-order (column-major) .npy arrays are not supported; save "
        "np.ascontiguousarray(a) instead");
  }
  const int width = DataTypeSize(dtype);
  const int64_t expected = MultiplyWithoutOverflow(shape.num_elements(), width);
  const absl::string_view data = bytes.substr(offset);
  if (expected < 0 || static_cast<uint64_t>(expected) != data.size()) {
    return errors::DataLoss(".npy data has ", data.size(), " bytes; shape ", shape.DebugString(),
                            " of ", NumpyDtypeName(dtype), " needs ", expected);
  }
  ASSIGN_OR_RETURN(Tensor result, Tensor::Allocate(DefaultCpuAllocator(), dtype, shape));
  if (expected > 0) {
    char* out = static_cast<char*>(result.raw_data());
    std::memcpy(out, data.data(), data.size());
    if (swap) {
      const bool complex = dtype == DT_COMPLEX64 || dtype == DT_COMPLEX128;
      SwapBytes(out, complex ? 2 * shape.num_elements() : shape.num_elements(),
                complex ? width / 2 : width);
    }
    if (dtype == DT_BOOL) {
      // Any non-zero byte is true to numpy; C++ bools must be exactly 0 or 1.
      for (int64_t i = 0; i < expected; ++i) out[i] = out[i] != 0;
    }
  }
  *tensor = std::move(result);
  return absl::OkStatus();
}

absl::Status ReadNpyFile(const std::string& path, Tensor* tensor) {
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  return errors::PrependToMessage(ParseNpy(bytes, tensor), path, ": ");
}

absl::Status EncodeNpy(const Tensor& tensor, std::string* bytes) {
  const NpyType* type = FindType(tensor.dtype());
  if (type == nullptr) {
    return errors::Unimplemented("numpy has no dtype for ", DataTypeString(tensor.dtype()),
                                 "; cannot write it as .npy");
  }
  std::vector<std::string> dims;
  for (int64_t dim : tensor.shape().dim_sizes()) dims.push_back(absl::StrCat(dim));
  const std::string shape = dims.size() == 1 ? absl::StrCat("(", dims[0], ",)")
                                             : absl::StrCat("(", absl::StrJoin(dims, ", "), ")");
  const char order = type->size == 1 ? '|' : '<';
  std::string dict = absl::StrCat("{'descr': '", std::string(1, order), std::string(1, type->kind),
                                  type->size, "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Version 1.0 suffices: its 2-byte length holds any header, since rank is at most
  // TensorShape::kMaxDims and each dim takes at most 21 characters.
  const size_t prefix = kMagicSize + 2 + 2;
  const size_t total =
      (prefix + dict.size() + 1 + kHeaderAlignment - 1) / kHeaderAlignment * kHeaderAlignment;
  const size_t header_length = total - prefix;
  dict.append(header_length - dict.size() - 1, ' ');
  dict.push_back('\n');

  bytes->clear();
  bytes->reserve(total + tensor.tensor_data().size());
  bytes->append(kMagic, kMagicSize);
  bytes->push_back('\1');
  bytes->push_back('\0');
  bytes->push_back(static_cast<char>(header_length & 0xFF));
  bytes->push_back(static_cast<char>(header_length >> 8));
  bytes->append(dict);
  bytes->append(tensor.tensor_data().data(), tensor.tensor_data().size());
  return absl::OkStatus();
}

absl::Status WriteNpyFile(const std::string& path, const Tensor& tensor) {
  std::string bytes;
  RETURN_IF_ERROR(EncodeNpy(tensor, &bytes));
  // Every failure keeps its errno, mapped as absl maps it (ENOSPC: RESOURCE_EXHAUSTED, EACCES:
  // PERMISSION_DENIED, ...), with the system's words in the message.
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot write ", path));
  const char* data = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t written = write(fd, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) {
      const int error_number = errno;
      close(fd);
      return absl::ErrnoToStatus(error_number, absl::StrCat("error writing ", path));
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (close(fd) != 0) return absl::ErrnoToStatus(errno, absl::StrCat("error writing ", path));
  return absl::OkStatus();
}

std::string NumpyDtypeName(DataType dtype) {
  const NpyType* type = FindType(dtype);
  return type == nullptr ? "" : type->name;
}

absl::Status DataTypeFromNumpyName(absl::string_view name, DataType* dtype) {
  for (const NpyType& type : kTypes) {
    if (name == type.name) {
      *dtype = type.dtype;
      return absl::OkStatus();
    }
  }
  return errors::InvalidArgument("no DataType for numpy dtype '", name, "'");
}

}  // namespace sluice
