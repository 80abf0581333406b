// DeviceType names a kind of device ("CPU", "GPU"); MemoryType says where a kernel's input or
// output lives.
//
// DeviceType is a small value type (a string) used as a key of the kernel registry and by
// placement. MemoryType follows TensorFlow: on every device an argument lives in the
// device's own memory unless the kernel marks it HostMemory (or its dtype only makes sense on
// the host: string and resource tensors).
//
// Everything here is an immutable value; safe to share between threads.
#ifndef SLUICE_RUNTIME_FRAMEWORK_DEVICE_TYPE_H_
#define SLUICE_RUNTIME_FRAMEWORK_DEVICE_TYPE_H_

#include <ostream>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sluice {

// Device type names as TensorFlow spells them. Inline constants, so that a custom-op library
// uses them without needing any symbol from the runtime.
inline constexpr char DEVICE_DEFAULT[] = "DEFAULT";
inline constexpr char DEVICE_CPU[] = "CPU";
inline constexpr char DEVICE_GPU[] = "GPU";

class DeviceType {
 public:
  // Implicit from a C string on purpose, as in TensorFlow: DeviceType t = DEVICE_CPU;
  DeviceType(const char* type) : type_(type) {}  // NOLINT(google-explicit-constructor)
  explicit DeviceType(absl::string_view type) : type_(type) {}

  const char* type() const { return type_.c_str(); }
  const std::string& type_string() const { return type_; }

  bool operator<(const DeviceType& other) const { return type_ < other.type_; }
  bool operator==(const DeviceType& other) const { return type_ == other.type_; }
  bool operator!=(const DeviceType& other) const { return type_ != other.type_; }

 private:
  std::string type_;
};

inline std::ostream& operator<<(std::ostream& os, const DeviceType& d) {
  return os << d.type_string();
}

inline const std::string& DeviceTypeString(const DeviceType& device_type) {
  return device_type.type_string();
}

// Where a tensor argument lives. Values match TensorFlow's enum.
enum MemoryType {
  DEVICE_MEMORY = 0,
  HOST_MEMORY = 1,
};

using MemoryTypeVector = absl::InlinedVector<MemoryType, 4>;
using MemoryTypeSlice = absl::Span<const MemoryType>;

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_DEVICE_TYPE_H_
