// TF_Status (tensorflow/c/tf_status.h): a code, a message and string payloads.
#include "tensorflow/c/tf_status.h"

#include <cerrno>
#include <cstring>
#include <string>

#include "c_api/c_api_internal.h"

namespace {

// The code TensorFlow reports for an errno value from a failed I/O call.
TF_Code CodeForErrno(int error) {
  switch (error) {
    case 0:
      return TF_OK;
    case EINVAL:
    case ENAMETOOLONG:
    case E2BIG:
    case EDESTADDRREQ:
    case EDOM:
    case EFAULT:
    case EILSEQ:
    case ENOPROTOOPT:
    case ENOSTR:
    case ENOTSOCK:
    case ENOTTY:
    case EPROTOTYPE:
    case ESPIPE:
      return TF_INVALID_ARGUMENT;
    case ETIMEDOUT:
    case ETIME:
      return TF_DEADLINE_EXCEEDED;
    case ENODEV:
    case ENOENT:
    case ENXIO:
    case ESRCH:
      return TF_NOT_FOUND;
    case EEXIST:
    case EADDRNOTAVAIL:
    case EALREADY:
      return TF_ALREADY_EXISTS;
    case EPERM:
    case EACCES:
    case EROFS:
      return TF_PERMISSION_DENIED;
    case ENOTEMPTY:
    case EISDIR:
    case ENOTDIR:
    case EADDRINUSE:
    case EBADF:
    case EBUSY:
    case ECHILD:
    case EISCONN:
    case ENOTBLK:
    case ENOTCONN:
    case EPIPE:
    case ESHUTDOWN:
    case ETXTBSY:
      return TF_FAILED_PRECONDITION;
    case ENOSPC:
    case EDQUOT:
    case EMFILE:
    case EMLINK:
    case ENFILE:
    case ENOBUFS:
    case ENODATA:
    case ENOMEM:
    case ENOSR:
    case EUSERS:
      return TF_RESOURCE_EXHAUSTED;
    case EFBIG:
    case EOVERFLOW:
    case ERANGE:
      return TF_OUT_OF_RANGE;
    case ENOSYS:
    case ENOTSUP:
    case EAFNOSUPPORT:
    case EPFNOSUPPORT:
    case EPROTONOSUPPORT:
    case ESOCKTNOSUPPORT:
    case EXDEV:
      return TF_UNIMPLEMENTED;
    case EAGAIN:
    case ECONNREFUSED:
    case ECONNABORTED:
    case ECONNRESET:
    case EINTR:
    case EHOSTDOWN:
    case EHOSTUNREACH:
    case ENETDOWN:
    case ENETRESET:
    case ENETUNREACH:
    case ENOLCK:
    case ENOLINK:
    case ENONET:
      return TF_UNAVAILABLE;
    case EDEADLK:
    case ESTALE:
      return TF_ABORTED;
    case ECANCELED:
      return TF_CANCELLED;
    default:
      return TF_UNKNOWN;
  }
}

}  // namespace

extern "C" {

TF_Status* TF_NewStatus(void) { return new TF_Status; }

void TF_DeleteStatus(TF_Status* s) { delete s; }

void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg) {
  if (s == nullptr) return;
  s->payloads.clear();
  s->code = code;
  // An OK status carries no message, as absl::Status drops it.
  s->message = (code == TF_OK || msg == nullptr) ? "" : msg;
}

void TF_SetPayload(TF_Status* s, const char* key, const char* value) {
  if (s == nullptr || key == nullptr || s->code == TF_OK) return;
  s->payloads[key] = value == nullptr ? "" : value;
}

void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor, void* capture) {
  if (s == nullptr || visitor == nullptr) return;
  for (const auto& [key, value] : s->payloads) visitor(key.c_str(), value.c_str(), capture);
}

void TF_SetStatusFromIOError(TF_Status* s, int error_code, const char* context) {
  if (s == nullptr) return;
  std::string message = context == nullptr ? "" : context;
  message += "; ";
  message += std::strerror(error_code);
  TF_SetStatus(s, CodeForErrno(error_code), message.c_str());
}

TF_Code TF_GetCode(const TF_Status* s) { return s == nullptr ? TF_OK : s->code; }

const char* TF_Message(const TF_Status* s) { return s == nullptr ? "" : s->message.c_str(); }

}  // extern "C"

namespace sluice {
namespace c_api {

void SetStatus(TF_Status* out, const absl::Status& status) {
  out->payloads.clear();
  out->code = static_cast<TF_Code>(status.code());
  out->message = status.ok() ? "" : std::string(status.message());
  status.ForEachPayload([out](absl::string_view key, const absl::Cord& value) {
    out->payloads[std::string(key)] = std::string(value);
  });
}

absl::Status ToStatus(const TF_Status* status) {
  if (status == nullptr || status->code == TF_OK) return absl::OkStatus();
  absl::Status result(static_cast<absl::StatusCode>(status->code), status->message);
  for (const auto& [key, value] : status->payloads) result.SetPayload(key, absl::Cord(value));
  return result;
}

}  // namespace c_api
}  // namespace sluice
