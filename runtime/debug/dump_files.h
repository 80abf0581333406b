// The files of a tfdbg (v1) dump, laid out as TensorFlow's DirectSession writes them, so that
// TensorFlow's reader (tensorflow.python.debug.lib.debug_data.DebugDumpDir) reads them.
//
// Under a dump root (the path of a file:// debug URL):
//   _tfdbg_core_metadata_sessionrun<14-digit run index>_<micros>    one per Run
//   _tfdbg_device_<device>/                 one folder per device; the device's name with
//                                           '/' turned into ',' and ':' into '_'
//       _tfdbg_graph_hash<hash>_<micros>    the device's partition GraphDef, one per Run
//       <node>_<slot>_<debug op>_<micros>   one per watched tensor, debug op and time the
//                                           node ran; a '/' in the node's name makes folders
// <micros> is the wall time in microseconds since the Unix epoch when the file is written; a
// name already taken gets "-1", "-2", ... appended, as TensorFlow's. The <hash> is a 64-bit
// FNV-1a of the serialized GraphDef, not TensorFlow's Hash64: readers only match the prefix.
//
// Each file holds one serialized Event (no TFRecord framing):
//   core metadata: wall_time and log_message.message, a JSON object
//     {"global_step":7,"session_run_index":1,"executor_step_index":0,
//      "input_names":["x:0"],"output_names":["z:0"],"target_nodes":[]}
//   graph: wall_time and graph_def (the serialized GraphDef)
//   tensor: wall_time (the file's micros) and summary.value[0] = {tag: the node's name,
//     node_name: "<node>:<slot>:<debug op>", tensor: the value (tensor_content, or string_val
//     for strings), metadata.plugin_data {plugin_name: "debugger", content: the JSON
//     {"device":"<device>","outputSlot":<slot>,"numChunks":1,"chunkIndex":0}}}
//
// Errors: a folder that cannot be made is FAILED_PRECONDITION ("Failed to create directory
// ...", TensorFlow's code and text); a file that cannot be created or written has the
// errno's code (absl::ErrnoToStatus: ENOSPC is RESOURCE_EXHAUSTED, EACCES
// PERMISSION_DENIED, ENOENT NOT_FOUND) and names the file.
// Thread safety: every function may be called concurrently; each file is created exclusively.
#ifndef SLUICE_RUNTIME_DEBUG_DUMP_FILES_H_
#define SLUICE_RUNTIME_DEBUG_DUMP_FILES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "proto/event.pb.h"
#include "proto/graph.pb.h"

namespace sluice {

// What the core metadata of one Run records.
struct RunCoreMetadata {
  int64_t global_step = 0;
  int64_t session_run_index = 0;
  int64_t executor_step_index = 0;
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
  std::vector<std::string> target_nodes;
};

// "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0" for
// "/job:localhost/replica:0/task:0/device:CPU:0".
std::string DeviceDumpFolder(const std::string& device);

// The wall clock in microseconds since the Unix epoch.
int64_t DumpWallMicros();

// The Events the files hold (see above), written at `micros`.
Event CoreMetadataEvent(const RunCoreMetadata& metadata, int64_t micros);
Event GraphEvent(const GraphDef& graph, int64_t micros);
Event TensorDumpEvent(const std::string& node, int slot, const std::string& debug_op,
                      const std::string& device, const Tensor& value, int64_t micros);

// Makes `path` and the folders above it.
absl::Status MakeDumpFolder(const std::string& path);

// Write one file each under `dump_root`, making the folders they need.
absl::Status WriteCoreMetadata(const std::string& dump_root, const RunCoreMetadata& metadata);
absl::Status WriteGraph(const std::string& dump_root, const std::string& device,
                        const GraphDef& graph);
absl::Status WriteTensorDump(const std::string& dump_root, const std::string& device,
                             const std::string& node, int slot, const std::string& debug_op,
                             const Tensor& value);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEBUG_DUMP_FILES_H_
