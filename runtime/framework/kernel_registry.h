// The kernel registry: which OpKernel class runs a node on a device type.
//
// REGISTER_KERNEL_BUILDER adds a (KernelDef, factory) pair to KernelRegistry::Global() during
// static initialization (or while a custom-op library is loaded). Lookup matches a node
// against the registrations for its op and a device type:
//   - the node's "_kernel" attr (empty if absent) must equal the kernel's label;
//   - every type constraint must accept the node's attr value (each element of a list);
//   - among matches the highest priority wins; two matches at the same priority are an error.
// A registration whose op, device type, label and priority equal an existing one's and whose
// type constraints overlap with it (some node could match both) is rejected at registration:
// the error is logged and kept in registration_errors(), or handed to the watcher when one is
// set (LoadLibrary uses the watcher to collect what a library registers). Nothing aborts.
//
// Thread safety: every method may be called concurrently. Registrations are never removed,
// so the KernelDef pointers lookups return stay valid for the registry's lifetime.
#ifndef SLUICE_RUNTIME_FRAMEWORK_KERNEL_REGISTRY_H_
#define SLUICE_RUNTIME_FRAMEWORK_KERNEL_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/kernel_def_builder.h"

namespace sluice {

class KernelDef;
class KernelList;
class NodeDef;
class OpKernel;
class OpKernelConstruction;

class KernelRegistry {
 public:
  // Builds the kernel; reports construction failures through the OpKernelConstruction. A
  // plain function pointer: registrations capture nothing.
  using Factory = OpKernel* (*)(OpKernelConstruction*);
  // Receives each registration attempt while set: its status and the KernelDef it tried to
  // add.
  using Watcher = std::function<void(const absl::Status&, const KernelDef&)>;

  KernelRegistry();
  ~KernelRegistry();
  KernelRegistry(const KernelRegistry&) = delete;
  KernelRegistry& operator=(const KernelRegistry&) = delete;

  // The process-wide registry that REGISTER_KERNEL_BUILDER fills. Never destroyed.
  static KernelRegistry* Global();

  // Adds a kernel. INVALID_ARGUMENT if the builder recorded a misuse or no device type was
  // given; ALREADY_EXISTS if it overlaps an existing registration (see above). The watcher,
  // if set, is told of every attempt, successful or not.
  absl::Status Register(const KernelDefBuilder& builder, absl::string_view kernel_class_name,
                        Factory factory);

  // Used by REGISTER_KERNEL_BUILDER: registers, and on failure logs and records the error
  // (unless a watcher took it). Never fails.
  void RegisterFromStaticInitializer(const KernelDefBuilder& builder,
                                     absl::string_view kernel_class_name, Factory factory);

  // Finds the kernel for `node_def` on `device_type`. *def (and *kernel_class_name, *factory
  // when non-null) describe the winner. NOT_FOUND in TensorFlow's wording when none matches;
  // INVALID_ARGUMENT when a constrained attr is missing from the node or is not a type, or
  // two kernels match at the same priority.
  absl::Status FindKernel(const DeviceType& device_type, const NodeDef& node_def,
                          const KernelDef** def, std::string* kernel_class_name,
                          Factory* factory) const;

  // Whether some kernel matches; *priority (if non-null) is the winner's. Errors as
  // FindKernel's, except that no match is OK with *found = false.
  absl::Status HasKernel(const DeviceType& device_type, const NodeDef& node_def, bool* found,
                         int32_t* priority) const;

  // Copies of the registered KernelDefs, in registration order (include
  // proto/kernel_def.pb.h to use the KernelList).
  KernelList GetRegisteredKernelsForOp(absl::string_view op) const;
  KernelList GetAllRegisteredKernels() const;

  // Sets the watcher; FAILED_PRECONDITION if one is already set. nullptr clears it. The
  // watcher runs on the registering thread without the registry's lock held.
  absl::Status SetWatcher(Watcher watcher);

  // Failures of static-initializer registrations made while no watcher was set.
  std::vector<absl::Status> registration_errors() const;

  // How many kernels have been registered so far: a mark for RemoveRegisteredSince.
  size_t num_registered() const;
  // Removes every kernel registered after `mark` (a num_registered() value), so that a
  // custom-op library whose load failed leaves the registry as it was. The removed
  // registrations are retired rather than freed: a KernelDef pointer FindKernel returned
  // meanwhile stays valid.
  void RemoveRegisteredSince(size_t mark);

 private:
  struct Registration;
  // What a lookup found: the winner (or null) and whether some kernel for the op, device
  // type and label was rejected by its type constraints.
  struct Match {
    const Registration* registration = nullptr;
    bool attr_mismatch = false;
  };

  absl::Status AddLocked(const KernelDefBuilder& builder, absl::string_view kernel_class_name,
                         Factory factory) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status FindMatch(const DeviceType& device_type, const NodeDef& node_def,
                         Match* match) const;
  std::string KernelsRegisteredForOp(absl::string_view op) const;

  mutable absl::Mutex mu_;
  // Op name -> registrations for it, in registration order.
  absl::flat_hash_map<std::string, std::vector<std::unique_ptr<const Registration>>> by_op_
      ABSL_GUARDED_BY(mu_);
  // Every registration (owned by by_op_), in registration order.
  std::vector<const Registration*> in_order_ ABSL_GUARDED_BY(mu_);
  // Registrations removed by RemoveRegisteredSince, kept alive for pointers handed out.
  std::vector<std::unique_ptr<const Registration>> retired_ ABSL_GUARDED_BY(mu_);
  Watcher watcher_ ABSL_GUARDED_BY(mu_);
  std::vector<absl::Status> registration_errors_ ABSL_GUARDED_BY(mu_);
};

// Free-function forms over KernelRegistry::Global(), with TensorFlow's names.

// See KernelRegistry::FindKernel. `kernel_class_name` may be null.
absl::Status FindKernelDef(const DeviceType& device_type, const NodeDef& node_def,
                           const KernelDef** def, std::string* kernel_class_name);

// For placement: the device types of `prioritized_types` that have a kernel for `node_def`,
// each with its kernel's priority, sorted by decreasing priority (stable, so equal
// priorities keep the caller's order). An op unknown to OpRegistry::Global() is assumed to
// run anywhere (priority 0). Errors from invalid nodes as FindKernel's.
absl::Status SupportedDeviceTypesForNode(const std::vector<DeviceType>& prioritized_types,
                                         const NodeDef& node_def,
                                         std::vector<std::pair<DeviceType, int32_t>>* device_types);

KernelList GetRegisteredKernelsForOp(absl::string_view op);
KernelList GetAllRegisteredKernels();

namespace register_kernel {

// The builder named in REGISTER_KERNEL_BUILDER(Name("Op")...).
class Name : public KernelDefBuilder {
 public:
  explicit Name(const char* op) : KernelDefBuilder(op) {}
};

}  // namespace register_kernel

// Registers a kernel with KernelRegistry::Global() when constructed.
class KernelRegistrar {
 public:
  KernelRegistrar(const KernelDefBuilder& builder, absl::string_view kernel_class_name,
                  KernelRegistry::Factory factory) {
    KernelRegistry::Global()->RegisterFromStaticInitializer(builder, kernel_class_name, factory);
  }
};

}  // namespace sluice

// REGISTER_KERNEL_BUILDER(Name("Op").Device(DEVICE_CPU).TypeConstraint<float>("T"), Class);
// at namespace scope registers Class (constructed from OpKernelConstruction*) for the
// kernel the builder describes. The builder expression is evaluated inside
// ::sluice::register_kernel, so Name resolves there. Libraries holding registrations must be
// linked with alwayslink = 1.
#define REGISTER_KERNEL_BUILDER(kernel_builder, ...) \
  SLUICE_REGISTER_KERNEL_UNIQ_HELPER_(__COUNTER__, kernel_builder, __VA_ARGS__)
#define SLUICE_REGISTER_KERNEL_UNIQ_HELPER_(ctr, kernel_builder, ...) \
  SLUICE_REGISTER_KERNEL_UNIQ_(ctr, kernel_builder, __VA_ARGS__)
#define SLUICE_REGISTER_KERNEL_UNIQ_(ctr, kernel_builder, ...)                           \
  static ::sluice::KernelRegistrar sluice_kernel_registrar_##ctr ABSL_ATTRIBUTE_UNUSED = \
      ::sluice::KernelRegistrar(                                                         \
          ::sluice::register_kernel::kernel_builder, #__VA_ARGS__,                       \
          [](::sluice::OpKernelConstruction* context) -> ::sluice::OpKernel* {           \
            return new __VA_ARGS__(context);                                             \
          })

#endif  // SLUICE_RUNTIME_FRAMEWORK_KERNEL_REGISTRY_H_
