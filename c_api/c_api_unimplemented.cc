// The functions of tensorflow/c/c_api.h that Sluice does not implement: the distributed
// runtime's servers (Sluice runs in-process sessions only). Each is exported, so programs that
// reference them link, and each fails cleanly: TF_UNIMPLEMENTED with a message naming it.
#include <string>

#include "absl/strings/str_cat.h"
#include "c_api/c_api_internal.h"

using sluice::c_api::SetStatus;

namespace {

void NotYet(TF_Status* status, const char* function) {
  if (status == nullptr) return;
  SetStatus(status,
            absl::UnimplementedError(absl::StrCat(function, " is not implemented by Sluice yet")));
}

}  // namespace

extern "C" {

TF_Server* TF_NewServer(const void*, size_t, TF_Status* status) {
  SetStatus(status,
            absl::UnimplementedError(
                "TF_NewServer: Sluice runs in-process sessions only; there are no servers"));
  return nullptr;
}

void TF_ServerStart(TF_Server*, TF_Status* status) { NotYet(status, "TF_ServerStart"); }

void TF_ServerStop(TF_Server*, TF_Status* status) { NotYet(status, "TF_ServerStop"); }

void TF_ServerJoin(TF_Server*, TF_Status* status) { NotYet(status, "TF_ServerJoin"); }

const char* TF_ServerTarget(TF_Server*) { return ""; }

void TF_DeleteServer(TF_Server*) {}

}  // extern "C"
