// SessionOptions: what a session (and the devices it creates) is configured with.
//
// `target` names the execution engine; Sluice runs in process, so only "" (the local engine)
// is served. `config` is TensorFlow's ConfigProto: device_count, intra/inter-op thread
// counts, placement flags, the operation timeout and graph options.
// A plain value type; copy it freely.
#ifndef SLUICE_RUNTIME_DEVICE_SESSION_OPTIONS_H_
#define SLUICE_RUNTIME_DEVICE_SESSION_OPTIONS_H_

#include <cstdint>
#include <string>

#include "proto/config.pb.h"

namespace sluice {

// The most threads one pool (intra-op, inter-op, or a session_inter_op_thread_pool entry) may
// ask for. Eigen's thread pool aborts the process at 16384, and far fewer than that already
// exhaust a machine; a larger count in a ConfigProto is INVALID_ARGUMENT at session creation.
inline constexpr int kMaxThreadsPerPool = 4096;

struct SessionOptions {
  std::string target;
  ConfigProto config;
  // Sluice's own, as TensorFlow has no CPU memory limit: the most bytes of tensors each CPU
  // device may hold at once (its allocator's bytes_limit); 0, the default, sets none. A
  // kernel whose output or scratch would pass it fails with RESOURCE_EXHAUSTED naming its
  // node, and the session stays usable.
  int64_t memory_limit_bytes = 0;
  // Whether float32 matrix products and convolutions on GPUs may use TF32 tensor cores
  // (TensorFlow's tf.config.experimental.enable_tensor_float_32_execution, a process-wide
  // switch there). Off by default: results then match the CPU's float32 within rounding.
  // The first session to use a GPU decides it for that GPU (gpu/gpu_physical_device.h).
  bool allow_tf32 = false;
  // Sluice's own: run regions of each GPU's graph as CUDA graphs, captured on the second step
  // with the same input shapes and replayed after (one launch where there were one per
  // kernel; passes/cuda_graph_clustering.h). Also on with SLUICE_CUDA_GRAPHS=1. Off by
  // default: a region's memory is held for as long as its graph is kept.
  bool cuda_graphs = false;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_SESSION_OPTIONS_H_
