// What a session's GPUOptions ask of the GPU devices, worked out without touching a GPU.
//
//  - ParseVisibleDeviceList: gpu_options.visible_device_list ("1,0": CUDA ordinals, among
//    those CUDA_VISIBLE_DEVICES leaves, in the order Sluice numbers its GPUs) with
//    TensorFlow's errors (INVALID_ARGUMENT): an entry that is not a number, an id past the
//    visible devices, a duplicate. Empty means every visible device in ordinal order.
//  - GpuMemoryLimit: the bytes a device's allocator may hold. With
//    per_process_gpu_memory_fraction > 0, that fraction of the device's total memory (a
//    fraction above 1 oversubscribes, as TensorFlow allows with unified memory; Sluice does
//    not, and caps it at the free memory); otherwise the free memory less a reserve for the
//    driver and libraries (TensorFlow's: 225 MiB below 2 GiB free, else the larger of 300 MiB
//    and 5%). INVALID_ARGUMENT for a negative fraction.
//  - AllowGrowth: gpu_options.allow_growth, overridden by the environment variable
//    TF_FORCE_GPU_ALLOW_GROWTH ("true"/"false"; anything else is ignored with a warning), as
//    in TensorFlow.
#ifndef SLUICE_RUNTIME_DEVICE_GPU_GPU_OPTIONS_H_
#define SLUICE_RUNTIME_DEVICE_GPU_GPU_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/config.pb.h"

namespace sluice {

absl::Status ParseVisibleDeviceList(const std::string& visible_device_list, int visible_count,
                                    std::vector<int>* ordinals);

absl::Status GpuMemoryLimit(const GPUOptions& options, int64_t total_bytes, int64_t free_bytes,
                            int64_t* limit);

// `env_value`: TF_FORCE_GPU_ALLOW_GROWTH's value, or null when unset.
bool AllowGrowth(const GPUOptions& options, const char* env_value);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_GPU_GPU_OPTIONS_H_
