/* Sluice's TensorFlow C API: TF_Buffer, a block of bytes (usually a serialized proto). */
#ifndef TENSORFLOW_C_TF_BUFFER_H_
#define TENSORFLOW_C_TF_BUFFER_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* `length` bytes at `data`, most often a serialized protocol buffer passed into or out of the
 * API. The struct frees nothing by itself: TF_DeleteBuffer calls `data_deallocator(data,
 * length)` when it is set, and leaves `data` alone when it is NULL. Buffers the API fills in
 * set their own deallocator. */
typedef struct TF_Buffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
} TF_Buffer;

/* Returns a new buffer holding a copy of `proto_len` bytes at `proto`, with a deallocator that
 * frees the copy. Free it with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBufferFromString(const void* proto, size_t proto_len);

/* Returns a new empty buffer (data NULL, length 0, no deallocator), for a call to fill in. Free
 * it with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_NewBuffer(void);

/* Calls the buffer's deallocator on its data, if it has one, and frees the buffer. Safe to call
 * with NULL. */
TF_CAPI_EXPORT extern void TF_DeleteBuffer(TF_Buffer*);

/* Returns a copy of `*buffer` by value. The copy shares the data; it owns nothing. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetBuffer(TF_Buffer* buffer);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_BUFFER_H_ */
