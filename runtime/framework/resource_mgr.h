// ResourceMgr: the per-session table of stateful resources (variables, later queues and
// tables), with TensorFlow's semantics.
//
// A resource is a ResourceBase (an intrusively refcounted object) stored under
// (container, type, name); the same name may hold one resource of each type. Kernels
// reach the session's manager through OpKernelContext::resource_manager() and address a
// resource either by container/name attrs (ref variables) or by a DT_RESOURCE handle
// (resource variables; the helpers at the end of this file).
//
// Refcounts: the manager holds one reference to each resource it stores. Create takes
// over one reference from the caller, also when it fails. Lookup and LookupOrCreate hand a
// new reference to the caller, who Unrefs it when done. Delete and Cleanup drop the
// manager's reference; the resource dies when the last holder lets go.
//
// Errors (TensorFlow's wording; T's name is its mangled type name, as in TensorFlow):
//  - Create on an existing entry: ALREADY_EXISTS "Resource c/n/T";
//  - Lookup in a missing container: NOT_FOUND "Container c does not exist. (Could not
//    find resource: c/n)"; of a missing entry: NOT_FOUND "Resource c/n/T does not exist.";
//  - Delete: NOT_FOUND "Container c does not exist." or "Resource c/n/T does not exist.";
//  - Cleanup of a missing container is OK.
//
// Thread safety: every method may be called from any thread; lookups share a reader lock.
// LookupOrCreate runs `creator` under the manager's lock, so a creator must not call back
// into the manager. Resources are destroyed outside the lock.
#ifndef SLUICE_RUNTIME_FRAMEWORK_RESOURCE_MGR_H_
#define SLUICE_RUNTIME_FRAMEWORK_RESOURCE_MGR_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "proto/node_def.pb.h"
#include "proto/resource_handle.pb.h"
#include "runtime/framework/op_kernel_context.h"

namespace sluice {

// An intrusively refcounted resource. Starts with one reference (the creator's); Unref
// deletes it when the count reaches zero.
class ResourceBase {
 public:
  ResourceBase() = default;
  ResourceBase(const ResourceBase&) = delete;
  ResourceBase& operator=(const ResourceBase&) = delete;

  void Ref() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // Returns true if this call deleted the resource.
  bool Unref() const;
  // True when the caller holds the only reference (for tests and debugging).
  bool RefCountIsOne() const { return refcount_.load(std::memory_order_acquire) == 1; }

  // A one-line description for ResourceMgr::DebugString.
  virtual std::string DebugString() const = 0;

 protected:
  virtual ~ResourceBase();

 private:
  mutable std::atomic<int64_t> refcount_{1};
};

// The identity of a resource's C++ type, as TensorFlow's TypeIndex: a hash code that keys
// the manager's table and a name (typeid's mangled name, e.g. "N6sluice3VarE") for
// messages and ResourceHandleProto.maybe_type_name.
struct ResourceTypeIndex {
  uint64_t hash_code;
  const char* name;

  template <typename T>
  static ResourceTypeIndex Make() {
    return ResourceTypeIndex{static_cast<uint64_t>(typeid(T).hash_code()), typeid(T).name()};
  }
};

class ResourceMgr {
 public:
  explicit ResourceMgr(std::string default_container = "localhost");
  // Drops the manager's reference to every resource.
  ~ResourceMgr();

  ResourceMgr(const ResourceMgr&) = delete;
  ResourceMgr& operator=(const ResourceMgr&) = delete;

  const std::string& default_container() const { return default_container_; }

  // Stores `resource` (taking over one reference, also on failure) as container/name.
  template <typename T>
  absl::Status Create(const std::string& container, const std::string& name, T* resource) {
    return DoCreate(container, ResourceTypeIndex::Make<T>(), name, resource);
  }

  // *resource = the T stored as container/name, with a new reference for the caller.
  template <typename T>
  absl::Status Lookup(const std::string& container, const std::string& name, T** resource) const {
    ResourceBase* found = nullptr;
    RETURN_IF_ERROR(DoLookup(container, ResourceTypeIndex::Make<T>(), name, &found));
    *resource = static_cast<T*>(found);
    return absl::OkStatus();
  }

  // Like Lookup; when there is no such resource, stores the one `creator` makes (which
  // hands its reference to the manager) first. A creator failure is returned as is and
  // stores nothing.
  template <typename T>
  absl::Status LookupOrCreate(const std::string& container, const std::string& name, T** resource,
                              std::function<absl::Status(T**)> creator) {
    ResourceBase* found = nullptr;
    RETURN_IF_ERROR(DoLookupOrCreate(container, ResourceTypeIndex::Make<T>(), name, &found,
                                     [&creator](ResourceBase** made) -> absl::Status {
                                       T* typed = nullptr;
                                       RETURN_IF_ERROR(creator(&typed));
                                       *made = typed;
                                       return absl::OkStatus();
                                     }));
    *resource = static_cast<T*>(found);
    return absl::OkStatus();
  }

  // Removes container/name of type T from the manager.
  template <typename T>
  absl::Status Delete(const std::string& container, const std::string& name) {
    const ResourceTypeIndex type = ResourceTypeIndex::Make<T>();
    return DoDelete(container, type.hash_code, name, type.name);
  }
  // Removes the resource `handle` names (its hash code selects the type).
  absl::Status Delete(const ResourceHandleProto& handle);

  // Removes every resource of `container`. OK when there is no such container.
  absl::Status Cleanup(const std::string& container);

  // One sorted line per resource: container, type, name, the resource's DebugString.
  std::string DebugString() const;

 private:
  struct Entry {
    std::string type_name;
    ResourceBase* resource;  // one reference owned by the manager
  };
  using Key = std::pair<uint64_t, std::string>;  // (type hash code, name)
  using Container = absl::flat_hash_map<Key, Entry>;

  absl::Status DoCreate(const std::string& container, ResourceTypeIndex type,
                        const std::string& name, ResourceBase* resource);
  absl::Status DoLookup(const std::string& container, ResourceTypeIndex type,
                        const std::string& name, ResourceBase** resource) const;
  absl::Status DoLookupOrCreate(const std::string& container, ResourceTypeIndex type,
                                const std::string& name, ResourceBase** resource,
                                const std::function<absl::Status(ResourceBase**)>& creator);
  absl::Status DoDelete(const std::string& container, uint64_t type_hash_code,
                        const std::string& name, const std::string& type_name);
  absl::Status LookupLocked(const std::string& container, ResourceTypeIndex type,
                            const std::string& name, ResourceBase** resource) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);

  const std::string default_container_;

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<Container>> containers_ ABSL_GUARDED_BY(mu_);
};

// The resources of one step (TensorFlow's ScopedStepContainer): TensorArrays live in a
// container of the session's manager named for the step ("__per_step_<id>"), emptied when
// this object, which the session holds for the step, is destroyed. Kernels find it through
// OpKernelContext::step_container() and call MarkUsed before creating anything in it, so a
// step that makes nothing there costs nothing at its end.
class ScopedStepContainer {
 public:
  ScopedStepContainer(int64_t step_id, ResourceMgr* manager);
  ~ScopedStepContainer();
  ScopedStepContainer(const ScopedStepContainer&) = delete;
  ScopedStepContainer& operator=(const ScopedStepContainer&) = delete;

  const std::string& name() const { return name_; }
  void MarkUsed() { used_.store(true, std::memory_order_release); }

 private:
  const std::string name_;
  ResourceMgr* const manager_;  // not owned; may be null (nothing to clean up)
  std::atomic<bool> used_{false};
};

// Resolves the container and name of a resource declared by a node's "container" and
// "shared_name" attrs (TensorFlow's ContainerInfo): the container attr or the manager's
// default; the shared_name attr, else the node's name when `use_node_name_as_default`.
// INVALID_ARGUMENT "container contains invalid characters: c", "shared_name cannot start
// with '_':n", or when there is no shared_name and the node name may not stand in
// (TensorFlow would invent a private name; no Sluice kernel needs one). NOT_FOUND when the
// node lacks either attr.
absl::Status ResolveContainerAndName(const ResourceMgr& rm, const NodeDef& node_def,
                                     bool use_node_name_as_default, std::string* container,
                                     std::string* name);

// ---- Helpers for kernels that take or make DT_RESOURCE handles -------------------------

namespace internal {
ResourceHandleProto MakeResourceHandle(OpKernelContext* ctx, const std::string& container,
                                       const std::string& name, ResourceTypeIndex type);
// INTERNAL when the context has no resource manager; INVALID_ARGUMENT "Trying to access
// resource n located in device d from device e" for another device's handle, and "Trying
// to access resource using the wrong type. Expected X got Y" for another type.
absl::Status ValidateHandle(OpKernelContext* ctx, const ResourceHandleProto& handle,
                            const ResourceTypeIndex* type);
}  // namespace internal

// A handle to container/name of type T on the kernel's device.
template <typename T>
ResourceHandleProto MakeResourceHandle(OpKernelContext* ctx, const std::string& container,
                                       const std::string& name) {
  return internal::MakeResourceHandle(ctx, container, name, ResourceTypeIndex::Make<T>());
}

// The handle in input `input` (a DT_RESOURCE tensor). INVALID_ARGUMENT "Empty resource
// handle" when the tensor has no elements, or when the input is not DT_RESOURCE.
absl::Status HandleFromInput(OpKernelContext* ctx, int input, ResourceHandleProto* handle);

// Stores `value` (taking over one reference, also on failure) where `handle` points.
template <typename T>
absl::Status CreateResource(OpKernelContext* ctx, const ResourceHandleProto& handle, T* value) {
  const ResourceTypeIndex type = ResourceTypeIndex::Make<T>();
  const absl::Status valid = internal::ValidateHandle(ctx, handle, &type);
  if (!valid.ok()) {
    value->Unref();
    return valid;
  }
  return ctx->resource_manager()->Create(handle.container(), handle.name(), value);
}

// *value = the resource `handle` points at, with a new reference for the caller.
template <typename T>
absl::Status LookupResource(OpKernelContext* ctx, const ResourceHandleProto& handle, T** value) {
  const ResourceTypeIndex type = ResourceTypeIndex::Make<T>();
  RETURN_IF_ERROR(internal::ValidateHandle(ctx, handle, &type));
  return ctx->resource_manager()->Lookup(handle.container(), handle.name(), value);
}

// LookupOrCreate through a handle.
template <typename T>
absl::Status LookupOrCreateResource(OpKernelContext* ctx, const ResourceHandleProto& handle,
                                    T** value, std::function<absl::Status(T**)> creator) {
  const ResourceTypeIndex type = ResourceTypeIndex::Make<T>();
  RETURN_IF_ERROR(internal::ValidateHandle(ctx, handle, &type));
  return ctx->resource_manager()->LookupOrCreate(handle.container(), handle.name(), value,
                                                 std::move(creator));
}

// Removes the resource `handle` points at (any type; the device is checked).
absl::Status DeleteResource(OpKernelContext* ctx, const ResourceHandleProto& handle);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_RESOURCE_MGR_H_
