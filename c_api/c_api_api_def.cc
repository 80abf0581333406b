// TF_ApiDefMap: the ApiDefs of an op list, overridden by api_def text files, as TensorFlow's
// language bindings read them to generate op wrappers (graph/op/api_def_map.h has the rules).
//
// As in TensorFlow, the first TF_ApiDefMapGet renames the docs to the API's names, and the map
// takes no more TF_ApiDefMapPut after it (FAILED_PRECONDITION). Unlike TensorFlow, which
// dereferences a null pointer, an op the map does not hold is NOT_FOUND, and null buffers or
// maps are INVALID_ARGUMENT.
#include <cstddef>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "c_api/c_api_internal.h"
#include "graph/op/api_def_map.h"
#include "proto/op_def.pb.h"

using sluice::c_api::SetStatus;

struct TF_ApiDefMap {
  explicit TF_ApiDefMap(const sluice::OpList& ops) : api_defs(ops) {}

  absl::Mutex mu;
  sluice::ApiDefMap api_defs ABSL_GUARDED_BY(mu);
  bool docs_updated ABSL_GUARDED_BY(mu) = false;
};

extern "C" {

TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer, TF_Status* status) {
  sluice::OpList ops;
  if (op_list_buffer == nullptr ||
      !sluice::c_api::ParseFromBytes(op_list_buffer->data, op_list_buffer->length, &ops)) {
    SetStatus(status, absl::InvalidArgumentError("Unparseable OpList"));
    return nullptr;
  }
  SetStatus(status, absl::OkStatus());
  return new TF_ApiDefMap(ops);
}

void TF_DeleteApiDefMap(TF_ApiDefMap* apimap) { delete apimap; }

void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text, size_t text_len,
                     TF_Status* status) {
  if (api_def_map == nullptr || (text == nullptr && text_len > 0)) {
    SetStatus(status, absl::InvalidArgumentError("TF_ApiDefMapPut: null map or text"));
    return;
  }
  absl::MutexLock lock(&api_def_map->mu);
  if (api_def_map->docs_updated) {
    SetStatus(status,
              absl::FailedPreconditionError(
                  "TF_ApiDefMapPut cannot be called after TF_ApiDefMapGet has been called."));
    return;
  }
  SetStatus(status, api_def_map->api_defs.Load(absl::string_view(text, text_len)));
}

TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name, size_t name_len,
                           TF_Status* status) {
  if (api_def_map == nullptr || (name == nullptr && name_len > 0)) {
    SetStatus(status, absl::InvalidArgumentError("TF_ApiDefMapGet: null map or name"));
    return nullptr;
  }
  absl::MutexLock lock(&api_def_map->mu);
  if (!api_def_map->docs_updated) {
    api_def_map->api_defs.UpdateDocs();
    api_def_map->docs_updated = true;
  }
  const absl::string_view op_name(name, name_len);
  const sluice::ApiDef* api_def = api_def_map->api_defs.Find(op_name);
  if (api_def == nullptr) {
    SetStatus(status,
              absl::NotFoundError(absl::StrCat("TF_ApiDefMapGet: no ApiDef for op '", op_name,
                                               "' (the map holds the ops of its OpList)")));
    return nullptr;
  }
  TF_Buffer* buffer = TF_NewBuffer();
  absl::Status written = sluice::c_api::MessageToBuffer(*api_def, buffer);
  SetStatus(status, written);
  if (!written.ok()) {
    TF_DeleteBuffer(buffer);
    return nullptr;
  }
  return buffer;
}

}  // extern "C"
