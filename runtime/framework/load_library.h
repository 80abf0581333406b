// LoadLibrary: loads a custom-op shared library and reports what it registered.
//
// A custom-op library holds REGISTER_OP and REGISTER_KERNEL_BUILDER statements; they run as
// the library's static initializers while dlopen loads it, registering into this process's
// OpRegistry::Global() and KernelRegistry::Global(). The library must not carry registries
// of its own: it is compiled against the headers only (//runtime:custom_op_headers) and its
// runtime symbols are resolved from the process when it is loaded.
//
// While a library loads, watchers on both registries collect every op it registers and
// every failed op or kernel registration. Registrations made by other threads during that
// window are collected too, so load libraries before starting concurrent work.
//
// Thread-safe: loads are serialized. A library is never unloaded.
#ifndef SLUICE_RUNTIME_FRAMEWORK_LOAD_LIBRARY_H_
#define SLUICE_RUNTIME_FRAMEWORK_LOAD_LIBRARY_H_

#include "absl/status/status.h"
#include "proto/op_def.pb.h"

namespace sluice {

// Loads `library_filename` with dlopen(RTLD_NOW | RTLD_GLOBAL). On success *handle is the
// dlopen handle and *registered_ops (if non-null) lists the OpDefs the library registered,
// in registration order. Errors:
//   NOT_FOUND         the file does not exist (or, for a bare name, dlopen found none);
//   INVALID_ARGUMENT  dlopen refused the file (not a shared library, unresolved symbols),
//                     with dlerror's text;
//   the code of the first failed registration, listing every failed op or kernel
//   registration, when the library loaded but some of its registrations failed (for
//   example an op name already taken, or a malformed op spec). Then none of the library's
//   ops and kernels stay registered: the registries are as they were before the call, and
//   *registered_ops is empty.
// Loading the same path again returns the first load's handle, ops and status without
// running the library's registrations again; a failed dlopen is not remembered.
absl::Status LoadLibrary(const char* library_filename, void** handle, OpList* registered_ops);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_LOAD_LIBRARY_H_
