// Error construction and propagation for Sluice.
//
// Sluice has one error channel: absl::Status / absl::StatusOr with TensorFlow's error codes
// (absl::StatusCode values equal TensorFlow's error_codes.proto values). The helpers below
// build a Status from any absl::StrCat-able arguments, so messages read naturally:
//
//   return errors::InvalidArgument("Node '", node.name(), "' has ", n, " inputs, expected 2");
//
// RETURN_IF_ERROR and ASSIGN_OR_RETURN propagate failures from callees.
#ifndef SLUICE_GRAPH_CORE_ERRORS_H_
#define SLUICE_GRAPH_CORE_ERRORS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace sluice {
namespace errors {

#define SLUICE_DEFINE_ERROR(Name, Code)                                 \
  template <typename... Args>                                           \
  absl::Status Name(const Args&... args) {                              \
    return absl::Status(absl::StatusCode::Code, absl::StrCat(args...)); \
  }                                                                     \
  inline bool Is##Name(const absl::Status& s) { return s.code() == absl::StatusCode::Code; }

SLUICE_DEFINE_ERROR(Cancelled, kCancelled)
SLUICE_DEFINE_ERROR(Unknown, kUnknown)
SLUICE_DEFINE_ERROR(InvalidArgument, kInvalidArgument)
SLUICE_DEFINE_ERROR(DeadlineExceeded, kDeadlineExceeded)
SLUICE_DEFINE_ERROR(NotFound, kNotFound)
SLUICE_DEFINE_ERROR(AlreadyExists, kAlreadyExists)
SLUICE_DEFINE_ERROR(PermissionDenied, kPermissionDenied)
SLUICE_DEFINE_ERROR(ResourceExhausted, kResourceExhausted)
SLUICE_DEFINE_ERROR(FailedPrecondition, kFailedPrecondition)
SLUICE_DEFINE_ERROR(Aborted, kAborted)
SLUICE_DEFINE_ERROR(OutOfRange, kOutOfRange)
SLUICE_DEFINE_ERROR(Unimplemented, kUnimplemented)
SLUICE_DEFINE_ERROR(Internal, kInternal)
SLUICE_DEFINE_ERROR(Unavailable, kUnavailable)
SLUICE_DEFINE_ERROR(DataLoss, kDataLoss)

#undef SLUICE_DEFINE_ERROR

// Returns `status` with `args` appended to its message (same code); OK stays OK.
template <typename... Args>
absl::Status AppendToMessage(const absl::Status& status, const Args&... args) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(status.message(), args...));
}

// Returns `status` with `args` put before its message (same code); OK stays OK.
template <typename... Args>
absl::Status PrependToMessage(const absl::Status& status, const Args&... args) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(args..., status.message()));
}

}  // namespace errors
}  // namespace sluice

#define SLUICE_STATUS_CONCAT_INNER_(a, b) a##b
#define SLUICE_STATUS_CONCAT_(a, b) SLUICE_STATUS_CONCAT_INNER_(a, b)

// Evaluates `expr` (an absl::Status) and returns it from the enclosing function if not OK.
#ifndef RETURN_IF_ERROR
#define RETURN_IF_ERROR(expr)                                            \
  do {                                                                   \
    ::absl::Status sluice_status_ = (expr);                              \
    if (ABSL_PREDICT_FALSE(!sluice_status_.ok())) return sluice_status_; \
  } while (0)
#endif

// `ASSIGN_OR_RETURN(auto x, MakeX());` evaluates an absl::StatusOr<T>; on error returns its
// status, otherwise moves the value into `lhs`.
#ifndef ASSIGN_OR_RETURN
#define ASSIGN_OR_RETURN(lhs, expr) \
  SLUICE_ASSIGN_OR_RETURN_IMPL_(SLUICE_STATUS_CONCAT_(sluice_statusor_, __LINE__), lhs, expr)
#define SLUICE_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr)          \
  auto statusor = (expr);                                           \
  if (ABSL_PREDICT_FALSE(!statusor.ok())) return statusor.status(); \
  lhs = std::move(statusor).value()
#endif

#endif  // SLUICE_GRAPH_CORE_ERRORS_H_
