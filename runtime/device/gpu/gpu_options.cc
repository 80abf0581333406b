#include "runtime/device/gpu/gpu_options.h"

#include <algorithm>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "glog/logging.h"
#include "graph/core/errors.h"

namespace sluice {

absl::Status ParseVisibleDeviceList(const std::string& visible_device_list, int visible_count,
                                    std::vector<int>* ordinals) {
  ordinals->clear();
  if (visible_device_list.empty()) {
    for (int i = 0; i < visible_count; ++i) ordinals->push_back(i);
    return absl::OkStatus();
  }
  std::set<int> seen;
  for (absl::string_view entry : absl::StrSplit(visible_device_list, ',')) {
    int id = 0;
    if (!absl::SimpleAtoi(entry, &id) || id < 0) {
      return errors::InvalidArgument("Could not parse entry in 'visible_device_list': '", entry,
                                     "'. visible_device_list = ", visible_device_list);
    }
    if (id >= visible_count) {
      return errors::InvalidArgument("'visible_device_list' listed an invalid Device id '", id,
                                     "' but visible device count is ", visible_count);
    }
    if (!seen.insert(id).second) {
      return errors::InvalidArgument("visible_device_list contained a duplicate entry: ",
                                     visible_device_list);
    }
    ordinals->push_back(id);
  }
  return absl::OkStatus();
}

absl::Status GpuMemoryLimit(const GPUOptions& options, int64_t total_bytes, int64_t free_bytes,
                            int64_t* limit) {
  const double fraction = options.per_process_gpu_memory_fraction();
  if (fraction < 0) {
    return errors::InvalidArgument("Invalid per_process_gpu_memory_fraction: ", fraction,
                                   " (must be at least 0; 0 picks the free memory)");
  }
  if (fraction > 0) {
    *limit =
        std::min(static_cast<int64_t>(fraction * static_cast<double>(total_bytes)), free_bytes);
    return absl::OkStatus();
  }
  constexpr int64_t kMiB = int64_t{1} << 20;
  const int64_t reserve =
      free_bytes < 2048 * kMiB ? 225 * kMiB : std::max<int64_t>(300 * kMiB, free_bytes / 20);
  *limit = std::max<int64_t>(0, free_bytes - reserve);
  return absl::OkStatus();
}

bool AllowGrowth(const GPUOptions& options, const char* env_value) {
  if (env_value != nullptr) {
    const std::string value = env_value;
    if (value == "true") return true;
    if (value == "false") return false;
    LOG(WARNING) << "Ignoring TF_FORCE_GPU_ALLOW_GROWTH='" << value
                 << "': it must be 'true' or 'false'";
  }
  return options.allow_growth();
}

}  // namespace sluice
