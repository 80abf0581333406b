#include "graph/op/op_registry.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/op/op_def_util.h"

namespace sluice {

OpRegistryInterface::~OpRegistryInterface() = default;

absl::Status OpRegistryInterface::LookUpOpDef(const std::string& op_type_name,
                                              const OpDef** op_def) const {
  *op_def = nullptr;
  const OpRegistrationData* op_reg_data = nullptr;
  RETURN_IF_ERROR(LookUp(op_type_name, &op_reg_data));
  *op_def = &op_reg_data->op_def;
  return absl::OkStatus();
}

OpRegistry::OpRegistry() = default;
OpRegistry::~OpRegistry() = default;

OpRegistry* OpRegistry::Global() {
  static OpRegistry* const global = new OpRegistry;
  return global;
}

absl::Status OpRegistry::Register(const OpDefBuilder& builder) {
  OpRegistrationData data;
  const absl::Status finalized = builder.Finalize(&data);
  bool watched = false;
  return RegisterAndNotify(finalized, std::move(data), &watched);
}

absl::Status OpRegistry::Register(OpRegistrationData data) {
  const absl::Status valid = ValidateOpDef(data.op_def);
  bool watched = false;
  return RegisterAndNotify(valid, std::move(data), &watched);
}

void OpRegistry::RegisterFromStaticInitializer(const OpDefBuilder& builder) {
  OpRegistrationData data;
  const absl::Status finalized = builder.Finalize(&data);
  bool watched = false;
  const absl::Status status = RegisterAndNotify(finalized, std::move(data), &watched);
  if (status.ok() || watched) return;
  LOG(ERROR) << "Registration of op '" << builder.op_name() << "' failed: " << status;
  absl::MutexLock lock(&mu_);
  registration_errors_.push_back(status);
}

absl::Status OpRegistry::RegisterAndNotify(absl::Status status, OpRegistrationData data,
                                           bool* watched) {
  // Kept for the watcher, which sees the OpDef whether or not it was added.
  const OpDef op_def = data.op_def;
  Watcher watcher;
  {
    absl::MutexLock lock(&mu_);
    if (status.ok()) {
      auto owned = std::make_unique<const OpRegistrationData>(std::move(data));
      if (!registry_.try_emplace(op_def.name(), std::move(owned)).second) {
        status = errors::AlreadyExists("Op with name ", op_def.name());
      }
    }
    watcher = watcher_;
  }
  *watched = watcher != nullptr;
  if (*watched) watcher(status, op_def);
  return status;
}

absl::Status OpRegistry::LookUp(const std::string& op_type_name,
                                const OpRegistrationData** op_reg_data) const {
  {
    absl::ReaderMutexLock lock(&mu_);
    auto it = registry_.find(op_type_name);
    if (it != registry_.end()) {
      *op_reg_data = it->second.get();
      return absl::OkStatus();
    }
  }
  *op_reg_data = nullptr;
  return errors::NotFound("Op type not registered '", op_type_name,
                          "' in binary running on this host. Make sure the Op and Kernel are "
                          "registered in the binary running in this process.");
}

void OpRegistry::Export(bool include_internal, OpList* ops) const {
  std::vector<const OpDef*> sorted;
  absl::ReaderMutexLock lock(&mu_);
  for (const auto& entry : registry_) {
    if (include_internal || !absl::StartsWith(entry.first, "_")) {
      sorted.push_back(&entry.second->op_def);
    }
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const OpDef* a, const OpDef* b) { return a->name() < b->name(); });
  ops->clear_op();
  ops->mutable_op()->Reserve(static_cast<int>(sorted.size()));
  for (const OpDef* op_def : sorted) *ops->add_op() = *op_def;
}

std::vector<std::string> OpRegistry::ListOpNames() const {
  std::vector<std::string> names;
  {
    absl::ReaderMutexLock lock(&mu_);
    names.reserve(registry_.size());
    for (const auto& entry : registry_) names.push_back(entry.first);
  }
  std::sort(names.begin(), names.end());
  return names;
}

absl::Status OpRegistry::SetWatcher(Watcher watcher) {
  absl::MutexLock lock(&mu_);
  if (watcher_ != nullptr && watcher != nullptr) {
    return errors::FailedPrecondition("Cannot over-write a valid watcher with another.");
  }
  watcher_ = std::move(watcher);
  return absl::OkStatus();
}

std::vector<absl::Status> OpRegistry::registration_errors() const {
  absl::ReaderMutexLock lock(&mu_);
  return registration_errors_;
}

void OpRegistry::Deregister(const std::vector<std::string>& op_names) {
  absl::MutexLock lock(&mu_);
  for (const std::string& name : op_names) {
    auto it = registry_.find(name);
    if (it == registry_.end()) continue;
    retired_.push_back(std::move(it->second));
    registry_.erase(it);
  }
}

namespace register_op {

OpDefBuilderReceiver::OpDefBuilderReceiver(const OpDefBuilderWrapper& wrapper) {
  OpRegistry::Global()->RegisterFromStaticInitializer(wrapper.builder());
}

}  // namespace register_op
}  // namespace sluice
