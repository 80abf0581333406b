// The op registry: op type name -> OpRegistrationData (OpDef + shape function).
//
// OpRegistry::Global() is filled by REGISTER_OP at static-initialization time and may be
// extended later (for example while a custom-op .so is loaded). Registrations never abort the
// process: a malformed spec or a duplicate name is logged and kept in registration_errors(),
// or handed to the watcher when one is set.
//
// Thread safety: all OpRegistry methods may be called concurrently. Pointers returned by
// LookUp stay valid for the registry's lifetime (an op removed by Deregister is retired, not
// freed).
#ifndef SLUICE_GRAPH_OP_OP_REGISTRY_H_
#define SLUICE_GRAPH_OP_OP_REGISTRY_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/op/op_def_builder.h"
#include "proto/op_def.pb.h"

namespace sluice {

// Anything that can resolve an op type name: the global registry, a function library, ...
class OpRegistryInterface {
 public:
  virtual ~OpRegistryInterface();

  // On success *op_reg_data points at data owned by the registry. NOT_FOUND:
  // "Op type not registered 'Foo' in binary running on this host. Make sure the Op and Kernel
  // are registered in the binary running in this process."
  virtual absl::Status LookUp(const std::string& op_type_name,
                              const OpRegistrationData** op_reg_data) const = 0;

  // LookUp, returning just the OpDef.
  absl::Status LookUpOpDef(const std::string& op_type_name, const OpDef** op_def) const;
};

class OpRegistry : public OpRegistryInterface {
 public:
  // Receives each registration attempt while set: its status and the OpDef it tried to add.
  using Watcher = std::function<void(const absl::Status&, const OpDef&)>;

  OpRegistry();
  ~OpRegistry() override;
  OpRegistry(const OpRegistry&) = delete;
  OpRegistry& operator=(const OpRegistry&) = delete;

  // The process-wide registry that REGISTER_OP fills. Never destroyed.
  static OpRegistry* Global();

  // Finalizes `builder` and adds the op. INVALID_ARGUMENT for a malformed spec or invalid
  // OpDef (the message names the op); ALREADY_EXISTS when the name is taken.
  absl::Status Register(const OpDefBuilder& builder);
  // Validates data.op_def (ValidateOpDef) and adds it; same errors as above.
  absl::Status Register(OpRegistrationData data);

  absl::Status LookUp(const std::string& op_type_name,
                      const OpRegistrationData** op_reg_data) const override;

  // Replaces ops->op() with copies of every OpDef, sorted by name. Internal ops (names
  // starting with '_') are included only when `include_internal`.
  void Export(bool include_internal, OpList* ops) const;
  // Every registered name, sorted.
  std::vector<std::string> ListOpNames() const;

  // Sets the watcher; FAILED_PRECONDITION if one is already set. nullptr clears it. The
  // watcher runs on the registering thread without the registry's lock held, so it may call
  // back into the registry.
  absl::Status SetWatcher(Watcher watcher);

  // Failures of registrations made through REGISTER_OP while no watcher was set.
  std::vector<absl::Status> registration_errors() const;

  // Removes the named ops (names not registered are ignored), so that a custom-op library
  // whose load failed leaves the registry as it was. Their data is retired, not freed.
  void Deregister(const std::vector<std::string>& op_names);

  // Used by REGISTER_OP: registers, and on failure logs and records the error (or reports it
  // to the watcher). Never fails.
  void RegisterFromStaticInitializer(const OpDefBuilder& builder);

 private:
  // Registers and tells the watcher, if any; returns the status and whether a watcher saw it.
  absl::Status RegisterAndNotify(absl::Status finalize_status, OpRegistrationData data,
                                 bool* watched);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<const OpRegistrationData>> registry_
      ABSL_GUARDED_BY(mu_);
  // Ops removed by Deregister, kept alive for the pointers LookUp handed out.
  std::vector<std::unique_ptr<const OpRegistrationData>> retired_ ABSL_GUARDED_BY(mu_);
  Watcher watcher_ ABSL_GUARDED_BY(mu_);
  std::vector<absl::Status> registration_errors_ ABSL_GUARDED_BY(mu_);
};

namespace register_op {

// The chainable builder behind REGISTER_OP: OpDefBuilder's methods, returning itself.
class OpDefBuilderWrapper {
 public:
  explicit OpDefBuilderWrapper(const char* name) : builder_(name) {}

  OpDefBuilderWrapper& Attr(std::string spec) {
    builder_.Attr(std::move(spec));
    return *this;
  }
  OpDefBuilderWrapper& Input(std::string spec) {
    builder_.Input(std::move(spec));
    return *this;
  }
  OpDefBuilderWrapper& Output(std::string spec) {
    builder_.Output(std::move(spec));
    return *this;
  }
  OpDefBuilderWrapper& ControlOutput(std::string name) {
    builder_.ControlOutput(std::move(name));
    return *this;
  }
  OpDefBuilderWrapper& SetIsCommutative() {
    builder_.SetIsCommutative();
    return *this;
  }
  OpDefBuilderWrapper& SetIsAggregate() {
    builder_.SetIsAggregate();
    return *this;
  }
  OpDefBuilderWrapper& SetIsStateful() {
    builder_.SetIsStateful();
    return *this;
  }
  OpDefBuilderWrapper& SetAllowsUninitializedInput() {
    builder_.SetAllowsUninitializedInput();
    return *this;
  }
  OpDefBuilderWrapper& SetIsDistributedCommunication() {
    builder_.SetIsDistributedCommunication();
    return *this;
  }
  OpDefBuilderWrapper& Deprecated(int version, std::string explanation) {
    builder_.Deprecated(version, std::move(explanation));
    return *this;
  }
  OpDefBuilderWrapper& Doc(std::string text) {
    builder_.Doc(std::move(text));
    return *this;
  }
  OpDefBuilderWrapper& SetShapeFn(OpShapeInferenceFn fn) {
    builder_.SetShapeFn(std::move(fn));
    return *this;
  }

  const OpDefBuilder& builder() const { return builder_; }

 private:
  OpDefBuilder builder_;
};

// Registers the wrapped op with OpRegistry::Global() when constructed.
struct OpDefBuilderReceiver {
  OpDefBuilderReceiver(const OpDefBuilderWrapper& wrapper);  // NOLINT: implicit by design
};

}  // namespace register_op
}  // namespace sluice

// REGISTER_OP("Name").Input("x: T").Output("y: T").Attr("T: {float, int32}").SetShapeFn(fn);
// at namespace scope registers "Name" with OpRegistry::Global() during static initialization.
// Libraries holding registrations must be linked with alwayslink = 1.
#define REGISTER_OP(name) SLUICE_REGISTER_OP_UNIQ_HELPER_(__COUNTER__, name)
#define SLUICE_REGISTER_OP_UNIQ_HELPER_(ctr, name) SLUICE_REGISTER_OP_UNIQ_(ctr, name)
#define SLUICE_REGISTER_OP_UNIQ_(ctr, name)                                   \
  static ::sluice::register_op::OpDefBuilderReceiver sluice_register_op_##ctr \
      ABSL_ATTRIBUTE_UNUSED = ::sluice::register_op::OpDefBuilderWrapper(name)

#endif  // SLUICE_GRAPH_OP_OP_REGISTRY_H_
