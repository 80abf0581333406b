/* Sluice's TensorFlow C API: TF_Status, the error object every fallible call fills in. */
#ifndef TENSORFLOW_C_TF_STATUS_H_
#define TENSORFLOW_C_TF_STATUS_H_

#include "tensorflow/c/c_api_macros.h"
#include "xla/tsl/c/tsl_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An error code, a message and optional payloads. Every call taking a TF_Status* sets it to OK
 * on success and to the error on failure. */
typedef struct TSL_Status TF_Status;

/* The canonical error codes, the same enum as TSL_Code (numbers of error_codes.proto). */
typedef TSL_Code TF_Code;
#define TF_OK TSL_OK
#define TF_CANCELLED TSL_CANCELLED
#define TF_UNKNOWN TSL_UNKNOWN
#define TF_INVALID_ARGUMENT TSL_INVALID_ARGUMENT
#define TF_DEADLINE_EXCEEDED TSL_DEADLINE_EXCEEDED
#define TF_NOT_FOUND TSL_NOT_FOUND
#define TF_ALREADY_EXISTS TSL_ALREADY_EXISTS
#define TF_PERMISSION_DENIED TSL_PERMISSION_DENIED
#define TF_UNAUTHENTICATED TSL_UNAUTHENTICATED
#define TF_RESOURCE_EXHAUSTED TSL_RESOURCE_EXHAUSTED
#define TF_FAILED_PRECONDITION TSL_FAILED_PRECONDITION
#define TF_ABORTED TSL_ABORTED
#define TF_OUT_OF_RANGE TSL_OUT_OF_RANGE
#define TF_UNIMPLEMENTED TSL_UNIMPLEMENTED
#define TF_INTERNAL TSL_INTERNAL
#define TF_UNAVAILABLE TSL_UNAVAILABLE
#define TF_DATA_LOSS TSL_DATA_LOSS

/* Returns a new status holding TF_OK and an empty message. Free it with TF_DeleteStatus. */
TF_CAPI_EXPORT extern TF_Status* TF_NewStatus(void);

/* Destroys a status. Safe to call with NULL. */
TF_CAPI_EXPORT extern void TF_DeleteStatus(TF_Status*);

/* Replaces the code and message of `s` (and drops its payloads). `msg` is copied; with TF_OK
 * the message is ignored. TF_SetStatus(s, TF_OK, "") clears `s`. */
TF_CAPI_EXPORT extern void TF_SetStatus(TF_Status* s, TF_Code code, const char* msg);

/* Stores `value` under `key` in `s`, replacing any value stored under the same key. Both
 * strings are copied. Does nothing while `s` is OK. */
TF_CAPI_EXPORT extern void TF_SetPayload(TF_Status* s, const char* key, const char* value);

/* The callback type of TF_ForEachPayload: (key, value, capture). */
#define TF_PayloadVisitor TSL_PayloadVisitor

/* Calls `visitor(key, value, capture)` for each payload of `s`. `key` and `value` are valid
 * only during the call. */
TF_CAPI_EXPORT extern void TF_ForEachPayload(const TF_Status* s, TF_PayloadVisitor visitor,
                                             void* capture);

/* Sets `s` from an errno value `error_code` raised by an I/O call: the code is the canonical
 * one for that errno (ENOENT gives TF_NOT_FOUND, ...), and the message names `context` (e.g.
 * the file) and the error. Prefer it to TF_SetStatus for I/O failures. */
TF_CAPI_EXPORT extern void TF_SetStatusFromIOError(TF_Status* s, int error_code,
                                                   const char* context);

/* Returns the code of `s`. */
TF_CAPI_EXPORT extern TF_Code TF_GetCode(const TF_Status* s);

/* Returns the message of `s` as a NUL-terminated string owned by `s`, valid until `s` is next
 * changed or destroyed. Returns "" when TF_GetCode(s) is TF_OK. */
TF_CAPI_EXPORT extern const char* TF_Message(const TF_Status* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_STATUS_H_ */
