// LoadLibrary: dlopen under registry watchers, with a per-path cache.
#include "runtime/framework/load_library.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "proto/kernel_def.pb.h"
#include "runtime/framework/kernel_registry.h"

namespace sluice {
namespace {

// What one successful dlopen produced; reused for later loads of the same path.
struct LoadedLibrary {
  void* handle = nullptr;
  OpList ops;
  absl::Status status;
};

absl::Mutex* LibrariesMutex() {
  static absl::Mutex* const mu = new absl::Mutex;
  return mu;
}

absl::flat_hash_map<std::string, LoadedLibrary>* Libraries() {
  static auto* const libraries = new absl::flat_hash_map<std::string, LoadedLibrary>;
  return libraries;
}

// What the watchers saw during one dlopen.
struct Collected {
  absl::Mutex mu;
  OpList ops ABSL_GUARDED_BY(mu);
  std::vector<absl::Status> errors ABSL_GUARDED_BY(mu);
};

// dlopen with both registries watched. On dlopen failure returns its error; otherwise
// *library holds the handle, the ops and the combined registration status.
absl::Status OpenWatched(const std::string& path, LoadedLibrary* library) {
  Collected collected;
  RETURN_IF_ERROR(OpRegistry::Global()->SetWatcher(
      [&collected](const absl::Status& status, const OpDef& op_def) {
        absl::MutexLock lock(&collected.mu);
        if (status.ok()) {
          *collected.ops.add_op() = op_def;
        } else {
          collected.errors.push_back(status);
        }
      }));
  absl::Status watch_kernels = KernelRegistry::Global()->SetWatcher(
      [&collected](const absl::Status& status, const KernelDef&) {
        if (status.ok()) return;
        absl::MutexLock lock(&collected.mu);
        collected.errors.push_back(status);
      });
  void* handle = nullptr;
  std::string dl_error;
  const size_t kernels_before = KernelRegistry::Global()->num_registered();
  if (watch_kernels.ok()) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle == nullptr) {
      const char* error = dlerror();
      dl_error = error != nullptr ? error : "unknown dlopen error";
    }
    KernelRegistry::Global()->SetWatcher(nullptr).IgnoreError();
  }
  OpRegistry::Global()->SetWatcher(nullptr).IgnoreError();
  RETURN_IF_ERROR(watch_kernels);
  if (handle == nullptr) {
    if (path.find('/') == std::string::npos) {
      return errors::NotFound("Could not load library '", path, "': ", dl_error);
    }
    return errors::InvalidArgument("Could not load library '", path, "': ", dl_error);
  }

  absl::MutexLock lock(&collected.mu);
  library->handle = handle;
  if (collected.errors.empty()) {
    library->ops = collected.ops;
    return absl::OkStatus();
  }
  // All or nothing: what the library did register is taken back, so that the registries
  // are as they were before the load.
  std::vector<std::string> added_ops;
  for (const OpDef& op : collected.ops.op()) added_ops.push_back(op.name());
  OpRegistry::Global()->Deregister(added_ops);
  KernelRegistry::Global()->RemoveRegisteredSince(kernels_before);
  std::string message = absl::StrCat("Library '", path, "' failed ", collected.errors.size(),
                                     " registration(s), so none of its ops and kernels were "
                                     "registered:");
  for (const absl::Status& error : collected.errors) {
    absl::StrAppend(&message, "\n  ", error.ToString());
  }
  library->status = absl::Status(collected.errors.front().code(), message);
  return absl::OkStatus();
}

}  // namespace

absl::Status LoadLibrary(const char* library_filename, void** handle, OpList* registered_ops) {
  const std::string path(library_filename);
  absl::MutexLock lock(LibrariesMutex());
  auto it = Libraries()->find(path);
  if (it == Libraries()->end()) {
    struct stat info;
    if (path.find('/') != std::string::npos && stat(path.c_str(), &info) != 0) {
      if (errno == ENOENT) {
        return errors::NotFound("Could not load library '", path, "': file not found");
      }
      return errors::InvalidArgument("Could not load library '", path, "': ", std::strerror(errno));
    }
    LoadedLibrary library;
    RETURN_IF_ERROR(OpenWatched(path, &library));
    it = Libraries()->emplace(path, std::move(library)).first;
  }
  const LoadedLibrary& library = it->second;
  *handle = library.handle;
  if (registered_ops != nullptr) *registered_ops = library.ops;
  return library.status;
}

}  // namespace sluice
