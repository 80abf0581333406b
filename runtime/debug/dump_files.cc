#include "runtime/debug/dump_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"

namespace sluice {
namespace {

constexpr char kPrefix[] = "_tfdbg_";

// A JSON string literal.
std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

std::string JsonList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += JsonString(items[i]);
  }
  out.push_back(']');
  return out;
}

uint64_t Fnv1a64(const std::string& bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// Writes all of `bytes` to `fd`, then closes it; the errno's status on failure.
absl::Status WriteAndClose(int fd, const std::string& bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return absl::ErrnoToStatus(error, absl::StrCat("cannot write the debug dump ", path));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot write the debug dump ", path));
  }
  return absl::OkStatus();
}

// Writes `event` to a new file "<stem>_<micros>", or "<stem>_<micros>-<k>" with the first k
// free, making the folder it is in.
absl::Status WriteEventFile(const std::string& stem, int64_t micros, const Event& event) {
  RETURN_IF_ERROR(MakeDumpFolder(std::filesystem::path(stem).parent_path().string()));
  std::string bytes;
  if (!event.SerializeToString(&bytes)) {
    return errors::Internal("cannot serialize the debug event for ", stem);
  }
  const std::string base = absl::StrCat(stem, "_", micros);
  std::string path = base;
  for (int64_t k = 1;; ++k) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) return WriteAndClose(fd, bytes, path);
    if (errno != EEXIST) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot create the debug dump ", path));
    }
    path = absl::StrCat(base, "-", k);
  }
}

}  // namespace

std::string DeviceDumpFolder(const std::string& device) {
  return absl::StrCat(kPrefix, "device_", absl::StrReplaceAll(device, {{"/", ","}, {":", "_"}}));
}

int64_t DumpWallMicros() { return absl::ToUnixMicros(absl::Now()); }

Event CoreMetadataEvent(const RunCoreMetadata& metadata, int64_t micros) {
  Event event;
  event.set_wall_time(static_cast<double>(micros));
  // tfdbg (v1) carries the metadata in Event.log_message, which TensorFlow has since deprecated.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  event.mutable_log_message()->set_message(absl::StrCat(
      "{\"global_step\":", metadata.global_step, ",\"session_run_index\":",
      metadata.session_run_index, ",\"executor_step_index\":", metadata.executor_step_index,
      ",\"input_names\":", JsonList(metadata.input_names), ",\"output_names\":",
      JsonList(metadata.output_names), ",\"target_nodes\":", JsonList(metadata.target_nodes), "}"));
#pragma GCC diagnostic pop
  return event;
}

Event GraphEvent(const GraphDef& graph, int64_t micros) {
  Event event;
  event.set_wall_time(static_cast<double>(micros));
  graph.SerializeToString(event.mutable_graph_def());
  return event;
}

Event TensorDumpEvent(const std::string& node, int slot, const std::string& debug_op,
                      const std::string& device, const Tensor& value, int64_t micros) {
  Event event;
  event.set_wall_time(static_cast<double>(micros));
  Summary::Value* summary = event.mutable_summary()->add_value();
  summary->set_tag(node);
  summary->set_node_name(absl::StrCat(node, ":", slot, ":", debug_op));
  TensorToProtoContent(value, summary->mutable_tensor());
  SummaryMetadata::PluginData* plugin = summary->mutable_metadata()->mutable_plugin_data();
  plugin->set_plugin_name("debugger");
  plugin->set_content(absl::StrCat("{\"device\":", JsonString(device), ",\"outputSlot\":", slot,
                                   ",\"numChunks\":1,\"chunkIndex\":0}"));
  return event;
}

absl::Status MakeDumpFolder(const std::string& path) {
  if (path.empty()) return absl::OkStatus();
  std::error_code error;
  // Succeeds when the folder exists already, also when another thread just made it.
  std::filesystem::create_directories(path, error);
  if (error) {
    return errors::FailedPrecondition("Failed to create directory ", path,
                                      ", due to: ", error.message());
  }
  return absl::OkStatus();
}

absl::Status WriteCoreMetadata(const std::string& dump_root, const RunCoreMetadata& metadata) {
  const int64_t micros = DumpWallMicros();
  const std::string stem = absl::StrFormat("%s/%score_metadata_sessionrun%014d", dump_root, kPrefix,
                                           metadata.session_run_index);
  return WriteEventFile(stem, micros, CoreMetadataEvent(metadata, micros));
}

absl::Status WriteGraph(const std::string& dump_root, const std::string& device,
                        const GraphDef& graph) {
  const int64_t micros = DumpWallMicros();
  const Event event = GraphEvent(graph, micros);
  const std::string stem = absl::StrCat(dump_root, "/", DeviceDumpFolder(device), "/", kPrefix,
                                        "graph_hash", Fnv1a64(event.graph_def()));
  return WriteEventFile(stem, micros, event);
}

absl::Status WriteTensorDump(const std::string& dump_root, const std::string& device,
                             const std::string& node, int slot, const std::string& debug_op,
                             const Tensor& value) {
  const int64_t micros = DumpWallMicros();
  const std::string stem =
      absl::StrCat(dump_root, "/", DeviceDumpFolder(device), "/", node, "_", slot, "_", debug_op);
  return WriteEventFile(stem, micros, TensorDumpEvent(node, slot, debug_op, device, value, micros));
}

}  // namespace sluice
