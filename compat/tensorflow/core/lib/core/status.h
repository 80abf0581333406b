// TensorFlow's Status header: tensorflow::Status (absl::Status), OkStatus(), the
// error::Code values (error::INVALID_ARGUMENT, ...) that status.code() compares with,
// TF_CHECK_OK and TF_RETURN_IF_ERROR.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_H_

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "tensorflow/core/platform/logging.h"
#include "tensorflow/core/platform/namespace.h"

namespace tensorflow {
namespace error {

// TensorFlow's canonical codes (error_codes.proto). Status::code() returns
// absl::StatusCode, whose values are the same numbers, so `s.code() == error::NOT_FOUND`
// compares as in TensorFlow.
using Code = ::absl::StatusCode;
inline constexpr Code OK = ::absl::StatusCode::kOk;
inline constexpr Code CANCELLED = ::absl::StatusCode::kCancelled;
inline constexpr Code UNKNOWN = ::absl::StatusCode::kUnknown;
inline constexpr Code INVALID_ARGUMENT = ::absl::StatusCode::kInvalidArgument;
inline constexpr Code DEADLINE_EXCEEDED = ::absl::StatusCode::kDeadlineExceeded;
inline constexpr Code NOT_FOUND = ::absl::StatusCode::kNotFound;
inline constexpr Code ALREADY_EXISTS = ::absl::StatusCode::kAlreadyExists;
inline constexpr Code PERMISSION_DENIED = ::absl::StatusCode::kPermissionDenied;
inline constexpr Code UNAUTHENTICATED = ::absl::StatusCode::kUnauthenticated;
inline constexpr Code RESOURCE_EXHAUSTED = ::absl::StatusCode::kResourceExhausted;
inline constexpr Code FAILED_PRECONDITION = ::absl::StatusCode::kFailedPrecondition;
inline constexpr Code ABORTED = ::absl::StatusCode::kAborted;
inline constexpr Code OUT_OF_RANGE = ::absl::StatusCode::kOutOfRange;
inline constexpr Code UNIMPLEMENTED = ::absl::StatusCode::kUnimplemented;
inline constexpr Code INTERNAL = ::absl::StatusCode::kInternal;
inline constexpr Code UNAVAILABLE = ::absl::StatusCode::kUnavailable;
inline constexpr Code DATA_LOSS = ::absl::StatusCode::kDataLoss;

}  // namespace error
}  // namespace tensorflow

#define TF_RETURN_IF_ERROR(expr) RETURN_IF_ERROR(expr)

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_LIB_CORE_STATUS_H_
