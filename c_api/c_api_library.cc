// Process-wide functions (tensorflow/c/c_api.h): the version, op and kernel lists, custom-op
// libraries, tensors from TensorProtos, log listeners.
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"
#include "graph/core/tensor_proto.h"
#include "graph/op/op_registry.h"
#include "proto/kernel_def.pb.h"
#include "proto/op_def.pb.h"
#include "proto/tensor.pb.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/load_library.h"

using sluice::c_api::MessageToBuffer;
using sluice::c_api::SetStatus;

namespace {

// The TensorFlow release whose C API this library implements; clients print and compare it.
constexpr char kImplementedVersion[] = "2.21.0";

TF_Buffer* NewBufferWith(const google::protobuf::MessageLite& message, TF_Status* status) {
  TF_Buffer* buffer = TF_NewBuffer();
  absl::Status written = MessageToBuffer(message, buffer);
  if (status != nullptr) SetStatus(status, written);
  if (!written.ok()) {
    TF_DeleteBuffer(buffer);
    return nullptr;
  }
  return buffer;
}

}  // namespace

extern "C" {

const char* TF_Version(void) { return kImplementedVersion; }

void TF_TensorFromProto(const TF_Buffer* from, TF_Tensor* to, TF_Status* status) {
  sluice::TensorProto proto;
  if (from == nullptr || !sluice::c_api::ParseFromBytes(from->data, from->length, &proto)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable TensorProto"));
  }
  sluice::Tensor tensor;
  absl::Status parsed = sluice::TensorFromProto(proto, &tensor);
  if (!parsed.ok()) return SetStatus(status, parsed);
  absl::StatusOr<TF_Tensor*> converted = sluice::c_api::TensorToTF(tensor);
  if (!converted.ok()) return SetStatus(status, converted.status());
  // `to` takes the new tensor's contents; its previous bytes are released.
  *to = std::move(**converted);
  delete *converted;
  SetStatus(status, absl::OkStatus());
}

TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status) {
  auto library = std::make_unique<TF_Library>();
  sluice::OpList ops;
  absl::Status loaded = sluice::LoadLibrary(library_filename, &library->handle, &ops);
  if (!loaded.ok()) {
    SetStatus(status, loaded);
    return nullptr;
  }
  absl::Status written = MessageToBuffer(ops, &library->op_list);
  SetStatus(status, written);
  return written.ok() ? library.release() : nullptr;
}

TF_Buffer TF_GetOpList(TF_Library* lib_handle) { return lib_handle->op_list; }

void TF_DeleteLibraryHandle(TF_Library* lib_handle) {
  // The library stays loaded: its kernels and ops remain registered and in use.
  if (lib_handle == nullptr) return;
  std::free(const_cast<void*>(lib_handle->op_list.data));
  delete lib_handle;
}

TF_Buffer* TF_GetAllOpList(void) {
  sluice::OpList ops;
  sluice::OpRegistry::Global()->Export(/*include_internal=*/true, &ops);
  return NewBufferWith(ops, nullptr);
}

TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status) {
  return NewBufferWith(sluice::GetAllRegisteredKernels(), status);
}

TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status) {
  return NewBufferWith(sluice::GetRegisteredKernelsForOp(name == nullptr ? "" : name), status);
}

void TF_RegisterLogListener(void (*listener)(const char*)) {
  // Sluice's runtime logs nothing through this channel; a listener is accepted and never
  // called, which is what a listener sees from a TensorFlow that logs nothing.
  (void)listener;
}

void TF_RegisterFilesystemPlugin(const char* plugin_filename, TF_Status* status) {
  SetStatus(status, absl::UnimplementedError(absl::StrCat(
                        "TF_RegisterFilesystemPlugin: Sluice has no filesystem plugins; '",
                        plugin_filename == nullptr ? "" : plugin_filename, "' was not loaded")));
}

}  // extern "C"
