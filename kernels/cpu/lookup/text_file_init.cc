#include "kernels/cpu/lookup/text_file_init.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"

namespace sluice {
namespace lookup {
namespace {

constexpr int64_t kLineNumber = -1;
constexpr int64_t kWholeLine = -2;

absl::Status FileError(const std::string& filename, int error) {
  const std::string what = absl::StrCat(filename, "; ", std::strerror(error));
  if (error == ENOENT) return errors::NotFound(what);
  if (error == EACCES || error == EPERM) return errors::PermissionDenied(what);
  return errors::Unknown(what);
}

// A file read line by line, as TensorFlow's InputBuffer::ReadLine: a line ends at '\n' (a
// '\r' before it dropped); a last line without one still counts; at the end OUT_OF_RANGE.
class LineReader {
 public:
  ~LineReader() {
    if (file_ != nullptr) std::fclose(file_);
  }
  absl::Status Open(const std::string& filename) {
    file_ = std::fopen(filename.c_str(), "rb");
    if (file_ == nullptr) return FileError(filename, errno);
    return absl::OkStatus();
  }
  absl::Status ReadLine(std::string* line) {
    line->clear();
    int c;
    bool any = false;
    while ((c = std::fgetc(file_)) != EOF) {
      ++position_;
      any = true;
      if (c == '\n') break;
      line->push_back(static_cast<char>(c));
    }
    if (!line->empty() && line->back() == '\r') line->pop_back();
    if (!any) return errors::OutOfRange("Read less bytes than requested");
    return absl::OkStatus();
  }
  int64_t position() const { return position_; }

 private:
  std::FILE* file_ = nullptr;
  int64_t position_ = 0;
};

// TensorFlow's safe_strto32/64: spaces around, an optional '-', decimal digits.
template <typename T>
bool ParseInteger(absl::string_view text, T* value) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool negative = false;
  if (i < text.size() && text[i] == '-') {
    negative = true;
    ++i;
  }
  if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  // The magnitude limit: max, or max + 1 for a negative value.
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<T>::max()) + (negative ? 1 : 0);
  uint64_t result = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    result = result * 10 + static_cast<uint64_t>(text[i] - '0');
    if (result > limit) return false;
    ++i;
  }
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i != text.size()) return false;
  *value = negative ? static_cast<T>(0 - result) : static_cast<T>(result);
  return true;
}

// TensorFlow's safe_strtof/strtod: the whole token (spaces around allowed) is a number, of
// fewer than 32 characters.
template <typename T>
bool ParseFloat(absl::string_view text, T* value) {
  if (text.size() >= 32) return false;
  const std::string token(text);
  const char* begin = token.c_str();
  char* end = nullptr;
  T parsed;
  if constexpr (std::is_same_v<T, float>) {
    parsed = std::strtof(begin, &end);
  } else {
    parsed = std::strtod(begin, &end);
  }
  if (end == begin) return false;
  while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (*end != '\0') return false;
  *value = parsed;
  return true;
}

class TextFileLineIterator : public InitTableIterator {
 public:
  absl::Status Init(const std::string& filename, int64_t vocab_size, char delimiter,
                    DataType key_dtype, int64_t key_index, DataType value_dtype,
                    int64_t value_index, int64_t offset) {
    filename_ = filename;
    vocab_size_ = vocab_size;
    delimiter_ = delimiter;
    key_dtype_ = key_dtype;
    value_dtype_ = value_dtype;
    key_index_ = key_index;
    value_index_ = value_index;
    offset_ = offset;
    ignore_split_ = std::max(key_index, value_index) < 0;
    status_ = reader_.Open(filename);
    if (!status_.ok()) return status_;
    valid_ = true;
    Next();
    return status_;
  }

  void Next() override {
    if (!valid_) return;
    std::string line;
    status_ = reader_.ReadLine(&line);
    if (!status_.ok()) {
      if (absl::IsOutOfRange(status_) && vocab_size_ != -1 && next_id_ != vocab_size_) {
        status_ = errors::InvalidArgument("Invalid vocab_size in ", filename_, ": expected ",
                                          vocab_size_, " but got ", next_id_);
      }
      valid_ = false;
      return;
    }
    if (vocab_size_ != -1 && next_id_ >= vocab_size_) {
      status_ = errors::OutOfRange("Finished reading ", vocab_size_, " of lines from ", filename_);
      valid_ = false;
      return;
    }
    if (line.empty()) {
      status_ = errors::InvalidArgument("Invalid content in ", filename_,
                                        ": empty line found at position ", reader_.position(), ".");
      valid_ = false;
      return;
    }
    std::vector<absl::string_view> tokens;
    if (!ignore_split_) {
      tokens = absl::StrSplit(line, delimiter_);
      const size_t expected = static_cast<size_t>(std::max(key_index_, value_index_) + 1);
      if (tokens.size() < expected) {
        status_ = errors::InvalidArgument("Invalid number of columns in ", filename_, " line ",
                                          next_id_, " (", line, ") : expected at least ", expected,
                                          " got ", tokens.size());
        valid_ = false;
        return;
      }
    }
    status_ = SetValue(line, tokens, key_index_, key_dtype_, &key_);
    if (status_.ok()) status_ = SetValue(line, tokens, value_index_, value_dtype_, &value_);
    if (!status_.ok()) {
      valid_ = false;
      return;
    }
    ++next_id_;
  }

  bool Valid() const override { return valid_; }
  const Tensor& keys() const override { return key_; }
  const Tensor& values() const override { return value_; }
  absl::Status status() const override { return status_; }

  int64_t total_size() override {
    if (vocab_size_ == -1) {
      LineReader counter;
      int64_t lines = 0;
      if (counter.Open(filename_).ok()) {
        std::string line;
        while (counter.ReadLine(&line).ok()) ++lines;
        vocab_size_ = lines;
      }
    }
    return vocab_size_;
  }

 private:
  absl::Status SetValue(const std::string& line, const std::vector<absl::string_view>& tokens,
                        int64_t index, DataType dtype, Tensor* out) {
    if (index == kLineNumber) {
      *out = Tensor(static_cast<int64_t>(next_id_ + offset_));
      return absl::OkStatus();
    }
    const absl::string_view token =
        index == kWholeLine ? absl::string_view(line) : tokens[static_cast<size_t>(index)];
    auto bad = [&](const char* type) {
      return errors::InvalidArgument("Field ", token, " in line ", next_id_, " is not a valid ",
                                     type, ".");
    };
    switch (dtype) {
      case DT_INT32: {
        int32_t v = 0;
        if (!ParseInteger(token, &v)) return bad("int32");
        *out = Tensor(static_cast<int32_t>(v + offset_));
        return absl::OkStatus();
      }
      case DT_INT64: {
        int64_t v = 0;
        if (!ParseInteger(token, &v)) return bad("int64");
        *out = Tensor(v);
        return absl::OkStatus();
      }
      case DT_FLOAT: {
        float v = 0;
        if (!ParseFloat(token, &v)) return bad("float");
        *out = Tensor(v);
        return absl::OkStatus();
      }
      case DT_DOUBLE: {
        double v = 0;
        if (!ParseFloat(token, &v)) return bad("double");
        *out = Tensor(v);
        return absl::OkStatus();
      }
      case DT_STRING:
        *out = Tensor(std::string(token));
        return absl::OkStatus();
      default:
        return errors::InvalidArgument("Data type ", DataTypeString(dtype), " not supported.");
    }
  }

  LineReader reader_;
  std::string filename_;
  int64_t vocab_size_ = -1;
  char delimiter_ = '\t';
  DataType key_dtype_ = DT_INVALID;
  DataType value_dtype_ = DT_INVALID;
  int64_t key_index_ = 0;
  int64_t value_index_ = 0;
  int64_t offset_ = 0;
  int64_t next_id_ = 0;
  bool ignore_split_ = false;
  bool valid_ = false;
  absl::Status status_ = errors::FailedPrecondition("Not initialized");
  Tensor key_;
  Tensor value_;
};

}  // namespace

absl::Status InitializeTableFromTextFile(const std::string& filename, int64_t vocab_size,
                                         char delimiter, int64_t key_index, int64_t value_index,
                                         int64_t offset, InitializableTable* table) {
  const DataType key_dtype = table->key_dtype();
  const DataType value_dtype = table->value_dtype();
  if (key_index == kLineNumber && key_dtype != DT_INT64) {
    return errors::InvalidArgument(
        "Key index for line number requires table key dtype of int64, got ",
        DataTypeString(key_dtype));
  }
  if (key_index == kWholeLine && !DataTypeIsInteger(key_dtype) && key_dtype != DT_STRING) {
    return errors::InvalidArgument(
        "Key index for whole line requires string or integer table key, got ",
        DataTypeString(key_dtype));
  }
  if (value_index == kLineNumber && value_dtype != DT_INT64) {
    return errors::InvalidArgument(
        "Value index for line number requires table value dtype of int64, got ",
        DataTypeString(value_dtype));
  }
  if (value_index == kWholeLine && !DataTypeIsInteger(value_dtype) && value_dtype != DT_STRING) {
    return errors::InvalidArgument(
        "Value index for whole line requires table value dtype of integer or string, got ",
        DataTypeString(value_dtype));
  }
  TextFileLineIterator iter;
  RETURN_IF_ERROR(iter.Init(filename, vocab_size, delimiter, key_dtype, key_index, value_dtype,
                            value_index, offset));
  const absl::Status s = table->Initialize(iter);
  // An initialized table is kept (TensorFlow only logs that it was).
  if (absl::IsFailedPrecondition(s) && table->is_initialized()) return absl::OkStatus();
  return s;
}

}  // namespace lookup
}  // namespace sluice
