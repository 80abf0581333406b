// Reading and writing protocol buffers, GraphDefs above all, as files and bytes.
//
// Binary and text formats are TensorFlow's, so files written by tf.io.write_graph load here
// and files written here load in TensorFlow.
//
// Contract:
//  - Nothing here crashes or prints on bad input: malformed bytes, a missing file, a
//    directory or a device file all come back as a Status. Protobuf's own diagnostics (UTF-8
//    complaints, text parse errors) are silenced and folded into the Status message.
//  - Parsing is bounded: at most kProtoRecursionLimit nested messages and, for files, at most
//    kMaxProtoFileBytes bytes (protobuf cannot represent larger messages).
//  - Binary output is deterministic (map entries sorted by key), so writing the same message
//    twice gives the same bytes, and a GraphDef that TensorFlow wrote with deterministic
//    serialization re-serializes byte for byte.
//  - On failure the output message is left in an unspecified (but valid) state.
//
// Error codes:
//   NOT_FOUND          the file does not exist (the message names it);
//   PERMISSION_DENIED  the file cannot be opened for lack of permission;
//   INVALID_ARGUMENT   the path is a directory or not a regular file, the file is too large,
//                      text that does not parse (with line:column), or bytes recognisably
//                      of another format (TensorFlow Lite flatbuffer, ONNX model, SavedModel);
//   DATA_LOSS          bytes that are neither a binary nor a text message;
//   UNKNOWN            other I/O failures (the message carries strerror).
//
// All functions are thread-safe (they share no state).
#ifndef SLUICE_GRAPH_IMPORT_GRAPH_DEF_IO_H_
#define SLUICE_GRAPH_IMPORT_GRAPH_DEF_IO_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "proto/graph.pb.h"

namespace sluice {

// Deepest nesting of messages accepted when parsing. GraphDefs nest NodeDef > AttrValue >
// ListValue > TensorProto and, in function libraries, a few levels more; 100 is protobuf's
// own default and leaves ample room.
inline constexpr int kProtoRecursionLimit = 100;

// Largest file read: protobuf limits one message to 2 GiB - 1.
inline constexpr int64_t kMaxProtoFileBytes = (int64_t{1} << 31) - 1;

// Reads all of `path` into `*contents`. Errors as above for missing files, directories and
// non-regular files.
absl::Status ReadFileToString(const std::string& path, std::string* contents);

// Parses `bytes` as the binary wire format of `msg`'s type. DATA_LOSS if they do not parse
// or do not end cleanly.
absl::Status ParseBinaryProto(absl::string_view bytes, google::protobuf::Message* msg);

// Parses `text` as protobuf text format. INVALID_ARGUMENT with TextFormat's first error
// ("3:7: Expected identifier, got: }") if it does not parse; unknown fields are errors.
absl::Status ParseTextProto(absl::string_view text, google::protobuf::Message* msg);

// Reads `path` and parses it in the named format; parse errors name the file.
absl::Status ReadBinaryProtoFile(const std::string& path, google::protobuf::Message* msg);
absl::Status ReadTextProtoFile(const std::string& path, google::protobuf::Message* msg);

// Parses `bytes` as a GraphDef: binary first, then text, as TensorFlow's graph tools do.
// Bytes that are recognisably another model format are rejected with a message that says
// which (TensorFlow Lite flatbuffer, ONNX ModelProto, SavedModel), as is a binary parse
// that yields nothing but unknown fields. An empty input is an empty GraphDef.
absl::Status ParseGraphDef(absl::string_view bytes, GraphDef* graph_def);

// Reads a binary (.pb) or text (.pbtxt) GraphDef file, whatever its name. A directory is
// rejected, with a hint when it holds a SavedModel (saved_model.pb).
absl::Status ReadGraphDefFile(const std::string& path, GraphDef* graph_def);

// Serializes `msg` deterministically into `*bytes`. INVALID_ARGUMENT if it exceeds 2 GiB.
absl::Status SerializeDeterministic(const google::protobuf::Message& msg, std::string* bytes);

// Writes `contents` to `path`, replacing the file. Errors name the path with the errno's
// code (a full disk is RESOURCE_EXHAUSTED, a read-only place PERMISSION_DENIED).
absl::Status WriteStringToFile(const std::string& path, absl::string_view contents);

// Writes `msg` to `path`, replacing the file: binary (deterministic) or text format.
absl::Status WriteBinaryProtoFile(const std::string& path, const google::protobuf::Message& msg);
absl::Status WriteTextProtoFile(const std::string& path, const google::protobuf::Message& msg);

}  // namespace sluice

#endif  // SLUICE_GRAPH_IMPORT_GRAPH_DEF_IO_H_
