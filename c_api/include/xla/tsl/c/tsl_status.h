/* Sluice's TensorFlow C API: TSL_Status, the error object under TF_Status, and its codes. */
#ifndef XLA_TSL_C_TSL_STATUS_H_
#define XLA_TSL_C_TSL_STATUS_H_

#ifdef __cplusplus
extern "C" {
#endif

/* An error code and message, plus optional key/value payloads. Opaque: create and destroy it
 * with TSL_NewStatus/TSL_DeleteStatus (or their TF_ names in tf_status.h). */
typedef struct TSL_Status TSL_Status;

/* The canonical error codes. Each value equals the Code number of error_codes.proto. */
typedef enum TSL_Code {
  TSL_OK = 0,
  TSL_CANCELLED = 1,
  TSL_UNKNOWN = 2,
  TSL_INVALID_ARGUMENT = 3,
  TSL_DEADLINE_EXCEEDED = 4,
  TSL_NOT_FOUND = 5,
  TSL_ALREADY_EXISTS = 6,
  TSL_PERMISSION_DENIED = 7,
  TSL_UNAUTHENTICATED = 16,
  TSL_RESOURCE_EXHAUSTED = 8,
  TSL_FAILED_PRECONDITION = 9,
  TSL_ABORTED = 10,
  TSL_OUT_OF_RANGE = 11,
  TSL_UNIMPLEMENTED = 12,
  TSL_INTERNAL = 13,
  TSL_UNAVAILABLE = 14,
  TSL_DATA_LOSS = 15
} TSL_Code;

/* Returns a new status holding TSL_OK and an empty message. The caller owns it. */
extern TSL_Status* TSL_NewStatus(void);

/* Destroys `s`. Safe to call with NULL. */
extern void TSL_DeleteStatus(TSL_Status* s);

/* Replaces the code and message of `s` (and drops its payloads). `msg` is copied; with TSL_OK
 * the message is ignored. TSL_SetStatus(s, TSL_OK, "") clears `s`. */
extern void TSL_SetStatus(TSL_Status* s, TSL_Code code, const char* msg);

/* Stores `value` under `key` in `s`, replacing any value stored under the same key. Both
 * strings are copied. Does nothing while `s` is OK. */
extern void TSL_SetPayload(TSL_Status* s, const char* key, const char* value);

/* Called by TSL_ForEachPayload once per payload. `key` and `value` are valid only during the
 * call; `capture` is the pointer given to TSL_ForEachPayload. */
typedef void (*TSL_PayloadVisitor)(const char* key, const char* value, void* capture);

/* Calls `visitor` for each payload of `s`, passing `capture` through unchanged. */
extern void TSL_ForEachPayload(const TSL_Status* s, TSL_PayloadVisitor visitor, void* capture);

/* Sets `s` from an errno value `error_code` raised by an I/O call: the code is the canonical
 * one for that errno, and the message names `context` (e.g. the file) and the error. */
extern void TSL_SetStatusFromIOError(TSL_Status* s, int error_code, const char* context);

/* Returns the code of `s`. */
extern TSL_Code TSL_GetCode(const TSL_Status* s);

/* Returns the message of `s` as a NUL-terminated string owned by `s`, valid until `s` is next
 * changed or destroyed. Returns "" when `s` is OK. */
extern const char* TSL_Message(const TSL_Status* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* XLA_TSL_C_TSL_STATUS_H_ */
