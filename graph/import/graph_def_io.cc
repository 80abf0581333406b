// Protobuf files and bytes: POSIX reads and writes, silent bounded parsing, and the sniffing
// that tells a user which other model format they handed us.
#include "graph/import/graph_def_io.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/wire_format_lite.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

namespace pb = google::protobuf;
using pb::internal::WireFormatLite;

// Maps a failed system call's errno onto TensorFlow's error codes.
absl::Status IoError(const std::string& path, int error_number) {
  std::string message = absl::StrCat("'", path, "': ", strerror(error_number));
  switch (error_number) {
    case ENOENT:
    case ENOTDIR:
      return errors::NotFound(message);
    case EACCES:
    case EPERM:
    case EROFS:
      return errors::PermissionDenied(message);
    case EISDIR:
      return errors::InvalidArgument(message);
    case ENOSPC:
    case EDQUOT:
      return errors::ResourceExhausted(message);
    default:
      return errors::Unknown(message);
  }
}

// Explains why `path`, a directory, is not a GraphDef file.
absl::Status DirectoryError(const std::string& path) {
  struct stat st;
  std::string saved_model = absl::StrCat(path, "/saved_model.pb");
  if (stat(saved_model.c_str(), &st) == 0) {
    return errors::InvalidArgument(
        "'", path, "' is a directory that looks like a SavedModel (it contains saved_model.pb). ",
        "A GraphDef file is expected here: load the directory as a SavedModel instead "
        "(LoadSavedModel, TF_LoadSessionFromSavedModel, or the directory itself given to "
        "`sluice run`), or freeze the model (e.g. with TensorFlow's "
        "convert_variables_to_constants_v2) and pass the .pb file it writes");
  }
  return errors::InvalidArgument("'", path, "' is a directory, not a GraphDef file");
}

// Reports protobuf TextFormat errors into a string instead of the log.
class FirstErrorCollector : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (error_.empty()) error_ = absl::StrCat(line + 1, ":", column + 1, ": ", message);
  }
  void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

// The (field number, wire type) pairs at the top level of `bytes`, read without a schema.
// `*well_formed` is false if the bytes are not a sequence of valid protobuf fields.
std::vector<std::pair<int, int>> TopLevelFields(absl::string_view bytes, bool* well_formed) {
  std::vector<std::pair<int, int>> fields;
  pb::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                                 static_cast<int>(bytes.size()));
  input.SetRecursionLimit(kProtoRecursionLimit);
  *well_formed = true;
  while (true) {
    uint32_t tag = input.ReadTag();
    if (tag == 0) {
      *well_formed = input.ConsumedEntireMessage();
      return fields;
    }
    fields.emplace_back(WireFormatLite::GetTagFieldNumber(tag),
                        WireFormatLite::GetTagWireType(tag));
    if (!WireFormatLite::SkipField(&input, tag)) {
      *well_formed = false;
      return fields;
    }
  }
}

bool HasField(const std::vector<std::pair<int, int>>& fields, int number, int wire_type) {
  for (const auto& field : fields) {
    if (field.first == number && field.second == wire_type) return true;
  }
  return false;
}

// Returns INVALID_ARGUMENT naming the format if `bytes` are recognisably a model in a format
// other than GraphDef; OK otherwise. A binary GraphDef's field 1 is always length-delimited,
// whereas ONNX's ModelProto and TensorFlow's SavedModel both open with a varint field 1.
absl::Status RejectOtherModelFormats(absl::string_view bytes) {
  if (bytes.size() >= 8 && bytes.substr(4, 4) == "TFL3") {
    return errors::InvalidArgument(
        "This is a TensorFlow Lite flatbuffer ('TFL3' at offset 4), not a GraphDef. Sluice "
        "loads TensorFlow GraphDefs (.pb or .pbtxt), e.g. a frozen graph from "
        "tf.io.write_graph");
  }
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != 0x08) return absl::OkStatus();
  bool well_formed = false;
  std::vector<std::pair<int, int>> fields = TopLevelFields(bytes, &well_formed);
  if (!well_formed) return absl::OkStatus();
  constexpr int kVarint = WireFormatLite::WIRETYPE_VARINT;
  constexpr int kBytes = WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
  const bool onnx_body = HasField(fields, 7, kBytes) || HasField(fields, 8, kBytes);
  if (HasField(fields, 1, kVarint) && onnx_body) {
    return errors::InvalidArgument(
        "This looks like an ONNX model (a ModelProto with ir_version, graph and opset_import), "
        "not a TensorFlow GraphDef. Sluice loads TensorFlow GraphDefs (.pb or .pbtxt)");
  }
  if (HasField(fields, 1, kVarint) && HasField(fields, 2, kBytes)) {
    return errors::InvalidArgument(
        "This looks like a SavedModel (saved_model.pb: a schema version and meta graphs), not "
        "a frozen GraphDef. Load its directory as a SavedModel (LoadSavedModel, "
        "TF_LoadSessionFromSavedModel, or the directory given to `sluice run`), or freeze the "
        "model (e.g. with TensorFlow's convert_variables_to_constants_v2) and pass the .pb file "
        "it writes");
  }
  return absl::OkStatus();
}

// True if a binary parse produced nothing TensorFlow would have written: only unknown fields.
bool OnlyUnknownFields(const GraphDef& graph_def) {
  return graph_def.node_size() == 0 && !graph_def.has_versions() && !graph_def.has_library() &&
         !graph_def.has_debug_info() && graph_def.version() == 0 &&
         !graph_def.GetReflection()->GetUnknownFields(graph_def).empty();
}

// True if the first few KiB contain no control characters other than whitespace, i.e. the
// user most likely meant the bytes as text.
bool LooksLikeText(absl::string_view bytes) {
  absl::string_view head = bytes.substr(0, 4096);
  for (char c : head) {
    const auto u = static_cast<uint8_t>(c);
    if (u == 0x7f || (u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\v' && u != '\f')) {
      return false;
    }
  }
  return true;
}

absl::Status CheckSize(absl::string_view bytes) {
  if (static_cast<int64_t>(bytes.size()) > kMaxProtoFileBytes) {
    return errors::InvalidArgument("Input of ", bytes.size(),
                                   " bytes exceeds protobuf's 2 GiB message limit");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteStringToFile(const std::string& path, absl::string_view contents) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return IoError(path, errno);
  const char* data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t written = write(fd, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) {
      int error_number = errno;
      close(fd);
      return IoError(path, error_number);
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (close(fd) != 0) return IoError(path, errno);
  return absl::OkStatus();
}

absl::Status ReadFileToString(const std::string& path, std::string* contents) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever; it is
  // rejected below as not a regular file, on which the flag changes nothing.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return errors::NotFound("File '", path, "' does not exist");
    }
    return IoError(path, errno);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int error_number = errno;
    close(fd);
    return IoError(path, error_number);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return DirectoryError(path);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return errors::InvalidArgument("'", path, "' is not a regular file");
  }
  if (st.st_size > kMaxProtoFileBytes) {
    close(fd);
    return errors::InvalidArgument("'", path, "' is ", st.st_size,
                                   " bytes, more than protobuf's 2 GiB message limit");
  }
  contents->resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < contents->size()) {
    ssize_t got = read(fd, &(*contents)[done], contents->size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int error_number = errno;
      close(fd);
      return IoError(path, error_number);
    }
    if (got == 0) break;  // The file shrank while we read it.
    done += static_cast<size_t>(got);
  }
  contents->resize(done);
  close(fd);
  return absl::OkStatus();
}

absl::Status ParseBinaryProto(absl::string_view bytes, pb::Message* msg) {
  RETURN_IF_ERROR(CheckSize(bytes));
  msg->Clear();
  pb::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                                 static_cast<int>(bytes.size()));
  input.SetRecursionLimit(kProtoRecursionLimit);
  // Protobuf logs invalid UTF-8 in string fields; here that is an ordinary parse failure.
  pb::LogSilencer silence;
  if (!msg->ParseFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    return errors::DataLoss("Could not parse ", bytes.size(), " bytes as a binary ",
                            msg->GetTypeName());
  }
  return absl::OkStatus();
}

absl::Status ParseTextProto(absl::string_view text, pb::Message* msg) {
  RETURN_IF_ERROR(CheckSize(text));
  msg->Clear();
  FirstErrorCollector collector;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&collector);
  parser.SetRecursionLimit(kProtoRecursionLimit);
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  pb::LogSilencer silence;
  if (!parser.Parse(&input, msg)) {
    return errors::InvalidArgument("Could not parse text ", msg->GetTypeName(), ": ",
                                   collector.error().empty() ? "syntax error" : collector.error());
  }
  return absl::OkStatus();
}

absl::Status ReadBinaryProtoFile(const std::string& path, pb::Message* msg) {
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  return errors::PrependToMessage(ParseBinaryProto(bytes, msg), "'", path, "': ");
}

absl::Status ReadTextProtoFile(const std::string& path, pb::Message* msg) {
  std::string text;
  RETURN_IF_ERROR(ReadFileToString(path, &text));
  return errors::PrependToMessage(ParseTextProto(text, msg), "'", path, "': ");
}

absl::Status ParseGraphDef(absl::string_view bytes, GraphDef* graph_def) {
  RETURN_IF_ERROR(CheckSize(bytes));
  RETURN_IF_ERROR(RejectOtherModelFormats(bytes));
  absl::Status binary = ParseBinaryProto(bytes, graph_def);
  if (binary.ok() && !OnlyUnknownFields(*graph_def)) return absl::OkStatus();
  absl::Status text = ParseTextProto(bytes, graph_def);
  if (text.ok()) return absl::OkStatus();
  graph_def->Clear();
  if (LooksLikeText(bytes)) {
    return errors::InvalidArgument("Not a binary GraphDef, and not a valid text GraphDef: ",
                                   text.message());
  }
  return errors::DataLoss("Could not parse ", bytes.size(),
                          " bytes as a GraphDef, in binary or text format");
}

absl::Status ReadGraphDefFile(const std::string& path, GraphDef* graph_def) {
  std::string bytes;
  RETURN_IF_ERROR(ReadFileToString(path, &bytes));
  return errors::PrependToMessage(ParseGraphDef(bytes, graph_def), "'", path, "': ");
}

absl::Status SerializeDeterministic(const pb::Message& msg, std::string* bytes) {
  const size_t size = msg.ByteSizeLong();
  if (size > static_cast<size_t>(kMaxProtoFileBytes)) {
    return errors::InvalidArgument(msg.GetTypeName(), " of ", size,
                                   " bytes exceeds protobuf's 2 GiB message limit");
  }
  bytes->clear();
  {
    pb::io::StringOutputStream output(bytes);
    pb::io::CodedOutputStream coded(&output);
    coded.SetSerializationDeterministic(true);
    msg.SerializeWithCachedSizes(&coded);
    if (coded.HadError()) {
      return errors::Internal("Could not serialize ", msg.GetTypeName());
    }
  }
  return absl::OkStatus();
}

absl::Status WriteBinaryProtoFile(const std::string& path, const pb::Message& msg) {
  std::string bytes;
  RETURN_IF_ERROR(SerializeDeterministic(msg, &bytes));
  return WriteStringToFile(path, bytes);
}

absl::Status WriteTextProtoFile(const std::string& path, const pb::Message& msg) {
  std::string text;
  if (!pb::TextFormat::PrintToString(msg, &text)) {
    return errors::Internal("Could not print ", msg.GetTypeName(), " as text");
  }
  return WriteStringToFile(path, text);
}

}  // namespace sluice
