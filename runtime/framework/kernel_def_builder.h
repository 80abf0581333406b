// KernelDefBuilder: describes a kernel for REGISTER_KERNEL_BUILDER.
//
//   REGISTER_KERNEL_BUILDER(Name("Reshape").Device(DEVICE_CPU)
//                               .TypeConstraint<float>("T")
//                               .HostMemory("shape"),
//                           ReshapeOp);
//
// The builder fills a KernelDef (proto/kernel_def.proto): the op, the device type, type
// constraints on "type" / "list(type)" attrs (a node matches when each constrained attr's
// value, or every element of a list value, is allowed), the args that live in host memory,
// an optional label (matched against a node's "_kernel" attr) and a priority (the highest
// priority among matching kernels wins).
//
// Misuse (no device, a label set twice, a constraint that allows no type) never aborts: the
// builder records the first error and the registration reports it (see kernel_registry.h).
//
// Thread-compatible: a builder is used by one thread.
#ifndef SLUICE_RUNTIME_FRAMEWORK_KERNEL_DEF_BUILDER_H_
#define SLUICE_RUNTIME_FRAMEWORK_KERNEL_DEF_BUILDER_H_

#include <cstdint>
#include <initializer_list>
#include <memory>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/types.h"

namespace sluice {

class KernelDef;

class KernelDefBuilder {
 public:
  explicit KernelDefBuilder(const char* op_name);
  ~KernelDefBuilder();

  KernelDefBuilder(const KernelDefBuilder&) = delete;
  KernelDefBuilder& operator=(const KernelDefBuilder&) = delete;

  // Required: the device type this kernel runs on ("CPU", "GPU").
  KernelDefBuilder& Device(const char* device_type);

  // Restricts a "type" or "list(type)" attr to `allowed` (a further restriction than what
  // the op allows). Constraining the same attr twice allows only types in both.
  KernelDefBuilder& TypeConstraint(const char* attr_name, absl::Span<const DataType> allowed);
  KernelDefBuilder& TypeConstraint(const char* attr_name, std::initializer_list<DataType> allowed);
  KernelDefBuilder& TypeConstraint(const char* attr_name, DataType allowed);
  template <class T>
  KernelDefBuilder& TypeConstraint(const char* attr_name) {
    return TypeConstraint(attr_name, DataTypeToEnum<T>::v());
  }

  // The input or output arg `arg_name` lives in host memory rather than device memory.
  KernelDefBuilder& HostMemory(const char* arg_name);

  // This kernel serves only nodes whose "_kernel" attr equals `label`. At most once.
  KernelDefBuilder& Label(const char* label);

  // Among kernels matching a node, the highest priority wins (default 0).
  KernelDefBuilder& Priority(int32_t priority);

  // The KernelDef built so far.
  const KernelDef& kernel_def() const { return *kernel_def_; }
  // OK, or the first misuse (INVALID_ARGUMENT naming the op).
  const absl::Status& status() const { return status_; }

 private:
  void RecordError(absl::Status error);

  std::unique_ptr<KernelDef> kernel_def_;
  bool label_set_ = false;
  absl::Status status_;  // the first misuse
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_KERNEL_DEF_BUILDER_H_
