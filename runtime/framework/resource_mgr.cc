// ResourceMgr: containers of (type, name) → resource, and the handle helpers.
#include "runtime/framework/resource_mgr.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

bool ResourceBase::Unref() const {
  if (refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    delete this;
    return true;
  }
  return false;
}

ResourceBase::~ResourceBase() = default;

ResourceMgr::ResourceMgr(std::string default_container)
    : default_container_(std::move(default_container)) {}

ResourceMgr::~ResourceMgr() {
  absl::flat_hash_map<std::string, std::unique_ptr<Container>> doomed;
  {
    absl::MutexLock lock(&mu_);
    doomed.swap(containers_);
  }
  for (auto& [name, container] : doomed) {
    for (auto& [key, entry] : *container) entry.resource->Unref();
  }
}

absl::Status ResourceMgr::DoCreate(const std::string& container, ResourceTypeIndex type,
                                   const std::string& name, ResourceBase* resource) {
  {
    absl::MutexLock lock(&mu_);
    std::unique_ptr<Container>& slot = containers_[container];
    if (slot == nullptr) slot = std::make_unique<Container>();
    auto [it, inserted] = slot->try_emplace(Key(type.hash_code, name), Entry{type.name, resource});
    if (inserted) return absl::OkStatus();
  }
  // The caller's reference was handed over; drop it outside the lock.
  resource->Unref();
  return errors::AlreadyExists("Resource ", container, "/", name, "/", type.name);
}

absl::Status ResourceMgr::LookupLocked(const std::string& container, ResourceTypeIndex type,
                                       const std::string& name, ResourceBase** resource) const {
  auto c = containers_.find(container);
  if (c == containers_.end()) {
    return errors::NotFound("Container ", container,
                            " does not exist. (Could not find resource: ", container, "/", name,
                            ")");
  }
  auto it = c->second->find(Key(type.hash_code, name));
  if (it == c->second->end()) {
    return errors::NotFound("Resource ", container, "/", name, "/", type.name, " does not exist.");
  }
  it->second.resource->Ref();
  *resource = it->second.resource;
  return absl::OkStatus();
}

absl::Status ResourceMgr::DoLookup(const std::string& container, ResourceTypeIndex type,
                                   const std::string& name, ResourceBase** resource) const {
  absl::ReaderMutexLock lock(&mu_);
  return LookupLocked(container, type, name, resource);
}

absl::Status ResourceMgr::DoLookupOrCreate(
    const std::string& container, ResourceTypeIndex type, const std::string& name,
    ResourceBase** resource, const std::function<absl::Status(ResourceBase**)>& creator) {
  {
    absl::ReaderMutexLock lock(&mu_);
    if (LookupLocked(container, type, name, resource).ok()) return absl::OkStatus();
  }
  absl::MutexLock lock(&mu_);
  // Another thread may have created it between the two locks.
  if (LookupLocked(container, type, name, resource).ok()) return absl::OkStatus();
  ResourceBase* made = nullptr;
  RETURN_IF_ERROR(creator(&made));
  if (made == nullptr) {
    return errors::Internal("Creator of resource ", container, "/", name, "/", type.name,
                            " made nothing");
  }
  std::unique_ptr<Container>& slot = containers_[container];
  if (slot == nullptr) slot = std::make_unique<Container>();
  slot->try_emplace(Key(type.hash_code, name), Entry{type.name, made});
  made->Ref();  // the caller's reference; the creator's went to the manager
  *resource = made;
  return absl::OkStatus();
}

absl::Status ResourceMgr::DoDelete(const std::string& container, uint64_t type_hash_code,
                                   const std::string& name, const std::string& type_name) {
  ResourceBase* doomed = nullptr;
  {
    absl::MutexLock lock(&mu_);
    auto c = containers_.find(container);
    if (c == containers_.end()) {
      return errors::NotFound("Container ", container, " does not exist.");
    }
    auto it = c->second->find(Key(type_hash_code, name));
    if (it == c->second->end()) {
      return errors::NotFound("Resource ", container, "/", name, "/", type_name,
                              " does not exist.");
    }
    doomed = it->second.resource;
    c->second->erase(it);
  }
  doomed->Unref();
  return absl::OkStatus();
}

absl::Status ResourceMgr::Delete(const ResourceHandleProto& handle) {
  return DoDelete(handle.container(), handle.hash_code(), handle.name(), "<unknown>");
}

ScopedStepContainer::ScopedStepContainer(int64_t step_id, ResourceMgr* manager)
    : name_(absl::StrCat("__per_step_", step_id)), manager_(manager) {}

ScopedStepContainer::~ScopedStepContainer() {
  if (manager_ != nullptr && used_.load(std::memory_order_acquire)) {
    manager_->Cleanup(name_).IgnoreError();  // a missing container is OK
  }
}

absl::Status ResourceMgr::Cleanup(const std::string& container) {
  std::unique_ptr<Container> doomed;
  {
    absl::MutexLock lock(&mu_);
    auto c = containers_.find(container);
    if (c == containers_.end()) return absl::OkStatus();
    doomed = std::move(c->second);
    containers_.erase(c);
  }
  for (auto& [key, entry] : *doomed) entry.resource->Unref();
  return absl::OkStatus();
}

std::string ResourceMgr::DebugString() const {
  std::vector<std::string> lines;
  absl::ReaderMutexLock lock(&mu_);
  for (const auto& [container_name, container] : containers_) {
    for (const auto& [key, entry] : *container) {
      lines.push_back(absl::StrFormat("%-20s | %-40s | %-40s | %s", container_name, entry.type_name,
                                      key.second, entry.resource->DebugString()));
    }
  }
  std::sort(lines.begin(), lines.end());
  return absl::StrJoin(lines, "\n");
}

namespace {

// TensorFlow's rule for container names: [A-Za-z0-9.][A-Za-z0-9_.\-/]*.
bool IsValidContainerName(const std::string& s) {
  auto letter_digit_dot = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
  };
  if (s.empty() || !letter_digit_dot(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) {
    return letter_digit_dot(c) || c == '_' || c == '-' || c == '/';
  });
}

}  // namespace

absl::Status ResolveContainerAndName(const ResourceMgr& rm, const NodeDef& node_def,
                                     bool use_node_name_as_default, std::string* container,
                                     std::string* name) {
  std::string attr_container;
  std::string attr_shared_name;
  RETURN_IF_ERROR(GetNodeAttr(AttrSlice(node_def), "container", &attr_container));
  RETURN_IF_ERROR(GetNodeAttr(AttrSlice(node_def), "shared_name", &attr_shared_name));
  if (!attr_container.empty() && !IsValidContainerName(attr_container)) {
    return errors::InvalidArgument("container contains invalid characters: ", attr_container);
  }
  if (!attr_shared_name.empty() && attr_shared_name[0] == '_') {
    return errors::InvalidArgument("shared_name cannot start with '_':", attr_shared_name);
  }
  *container = attr_container.empty() ? rm.default_container() : attr_container;
  if (!attr_shared_name.empty()) {
    *name = attr_shared_name;
  } else if (use_node_name_as_default) {
    *name = node_def.name();
  } else {
    return errors::InvalidArgument("Node ", node_def.name(),
                                   " needs a shared_name for its resource");
  }
  return absl::OkStatus();
}

absl::Status HandleFromInput(OpKernelContext* ctx, int input, ResourceHandleProto* handle) {
  if (input < 0 || input >= ctx->num_inputs() || ctx->input_is_ref(input)) {
    return errors::InvalidArgument("Input ", input, " of ", ctx->op_kernel().name(),
                                   " is not a resource handle");
  }
  const Tensor& tensor = ctx->input(input);
  if (tensor.dtype() != DT_RESOURCE) {
    return errors::InvalidArgument("Input ", input, " of ", ctx->op_kernel().name(),
                                   " must be a resource handle, got ",
                                   DataTypeString(tensor.dtype()));
  }
  if (tensor.NumElements() == 0) return errors::InvalidArgument("Empty resource handle");
  *handle = tensor.flat<ResourceHandleProto>()(0);
  return absl::OkStatus();
}

namespace internal {

ResourceHandleProto MakeResourceHandle(OpKernelContext* ctx, const std::string& container,
                                       const std::string& name, ResourceTypeIndex type) {
  ResourceHandleProto handle;
  handle.set_device(ctx->device()->name());
  handle.set_container(container);
  handle.set_name(name);
  handle.set_hash_code(type.hash_code);
  handle.set_maybe_type_name(type.name);
  return handle;
}

absl::Status ValidateHandle(OpKernelContext* ctx, const ResourceHandleProto& handle,
                            const ResourceTypeIndex* type) {
  if (ctx->resource_manager() == nullptr) {
    return errors::Internal("No resource manager for ", ctx->op_kernel().name());
  }
  if (handle.device() != ctx->device()->name()) {
    return errors::InvalidArgument("Trying to access resource ", handle.name(),
                                   " located in device ", handle.device(), " from device ",
                                   ctx->device()->name());
  }
  if (type != nullptr && handle.hash_code() != type->hash_code) {
    return errors::InvalidArgument("Trying to access resource using the wrong type. Expected ",
                                   handle.maybe_type_name(), " got ", type->name);
  }
  return absl::OkStatus();
}

}  // namespace internal

absl::Status DeleteResource(OpKernelContext* ctx, const ResourceHandleProto& handle) {
  RETURN_IF_ERROR(internal::ValidateHandle(ctx, handle, nullptr));
  return ctx->resource_manager()->Delete(handle);
}

}  // namespace sluice
